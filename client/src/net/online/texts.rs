//! Network failures and server errors as sentences for people: what happened and what to try.

use sevenbag_protocol::{ErrorCode, SeatStatus};

use super::Request;

/// What a player is told when another seat's connection drops (`before` to `after`), and
/// when it is back; `None` for any other change. Every room controller says it alike.
pub fn peer_notice(name: &str, before: SeatStatus, after: SeatStatus) -> Option<String> {
    match (before, after) {
        (SeatStatus::Connected, SeatStatus::Reconnecting { seconds_left }) => Some(format!(
            "{name} lost connection: waiting up to {seconds_left} s for them."
        )),
        (SeatStatus::Reconnecting { .. }, SeatStatus::Connected) => {
            Some(format!("{name} is back."))
        }
        _ => None,
    }
}

/// What the lobby says while the server has not answered `request` yet: a heading (without
/// its animated dots) and a line on what happens next.
pub fn waiting_text(request: &Request) -> (String, String) {
    let (head, body) = match request {
        Request::QuickMatch => (
            "Looking for an opponent".to_owned(),
            "You will be paired with the next player who asks for a quick match on this server. The match starts by itself.".to_owned(),
        ),
        Request::Ranked(_) => (
            "Looking for a ranked opponent".to_owned(),
            "You will be paired with a player near your rating. The match starts by itself.".to_owned(),
        ),
        Request::Create(_) => (
            "Creating the room".to_owned(),
            "The server is making the room; its code appears here for you to share.".to_owned(),
        ),
        Request::Join(code) => (
            format!("Joining room {code}"),
            "Waiting for the server to seat you.".to_owned(),
        ),
        Request::Spectate(code) => (
            format!("Finding room {code}"),
            "Waiting for the server to let you watch.".to_owned(),
        ),
        Request::ListReplays => (
            "Fetching the replay list".to_owned(),
            "Waiting for the server's list of recent matches.".to_owned(),
        ),
    };
    (head, body)
}

/// Why the server at `url` could not be reached, for people: what happened and what to try,
/// instead of the library's text ("Connection refused (os error 111)").
pub fn reach_text(url: &str, reason: &str) -> String {
    let address = url
        .trim_start_matches("ws://")
        .trim_start_matches("wss://")
        .trim_end_matches('/');
    let r = reason.to_ascii_lowercase();
    if r.contains("refused") {
        format!(
            "Nothing answers at {address}. Check the address and port, and that the server is running."
        )
    } else if r.contains("lookup") || r.contains("not known") || r.contains("resolve") {
        format!("Cannot find the server {address}. Check the spelling of the address.")
    } else if r.contains("bad server address") || r.contains("uri") || r.contains("url") {
        format!("\"{address}\" is not a server address. Type host:port, like 192.168.1.20:7878.")
    } else if r.contains("timed out") {
        format!(
            "The server at {address} did not answer in time. Check the address and your network, then try again."
        )
    } else if r.contains("http") {
        format!(
            "Something answered at {address}, but it is not a Sevenbag server. Check the address and port."
        )
    } else {
        format!(
            "Cannot reach the server at {address}: {}",
            plain_net_error(reason)
        )
    }
}

/// A connection the server or the network closed, for people (every room's controller).
pub fn disconnected_text(reason: &str) -> String {
    format!("Disconnected from the server: {}", plain_net_error(reason))
}

/// A lost connection's reason, for people.
pub(super) fn plain_net_error(reason: &str) -> String {
    let r = reason.to_ascii_lowercase();
    if r.contains("reset") || r.contains("broken pipe") || r.contains("closed") || r.contains("eof")
    {
        "the connection broke. Check your network and try again.".to_owned()
    } else {
        format!("{reason}. Try again.")
    }
}

/// A server error as a sentence for the screen.
pub fn error_text(code: ErrorCode, message: &str) -> String {
    match code {
        ErrorCode::NoSuchRoom => "No room has that code. Check it and try again.".to_owned(),
        ErrorCode::RoomFull => "That room is full.".to_owned(),
        ErrorCode::ServerFull => "The server is full. Try again later.".to_owned(),
        ErrorCode::Shutdown => "The server is restarting. Try again in a moment.".to_owned(),
        ErrorCode::Version => format!("Version mismatch: {message}."),
        ErrorCode::NoSuchReplay => "The server no longer has that replay.".to_owned(),
        ErrorCode::NoSuchMatch => "The server no longer has that match.".to_owned(),
        ErrorCode::NameTaken => format!("{message}. Change your name in Settings."),
        ErrorCode::BadName => format!("Ranked names: {message}. Change it in Settings."),
        ErrorCode::Unavailable => "This server has no ranked play.".to_owned(),
        ErrorCode::UnknownKey => format!("Identity: {message}."),
        ErrorCode::SeatLost => format!("Back too late: {message}."),
        ErrorCode::Timeout => format!(
            "The server closed the connection ({message}): was the game in the background or the device asleep? Join again to play on."
        ),
        _ => format!("Server error ({code:?}): {message}"),
    }
}

/// The server's verdict on a match we lost the connection to, from our `seat`'s side: its
/// `MatchOver` (`outcome`) or `MatchVoid` (`void`), whichever it sent; `None` when it sent
/// neither. `names` are the players', seat 0 and 1.
pub fn verdict_text(
    outcome: Option<&super::Outcome>,
    void: Option<&sevenbag_netplay::VoidResult>,
    names: &[String; 2],
    seat: Option<sevenbag_core::Seat>,
) -> Option<String> {
    use sevenbag_protocol::EndReason;
    if let Some(o) = outcome {
        let winner = &names[o.winner.index()];
        let ours = seat == Some(o.winner);
        return Some(match (o.reason, ours) {
            (EndReason::Forfeit, true) => format!(
                "You win by forfeit: {} did not come back in time.",
                names[o.winner.other().index()]
            ),
            (EndReason::Forfeit, false) => format!(
                "{winner} wins by forfeit: you were not back within the room's reconnect window."
            ),
            (_, true) => "You won: the match was decided while you were away.".to_owned(),
            (_, false) => format!("{winner} won: the match was decided while you were away."),
        });
    }
    void.map(|v| match v.reason {
        EndReason::Abandoned => "No result: neither player came back within the reconnect window. Nobody's rating changes.".to_owned(),
        _ => "The match ended without a winner.".to_owned(),
    })
}

#[cfg(test)]
mod waiting_tests {
    use super::*;

    #[test]
    fn spectating_by_code_never_says_it_looks_for_an_opponent() {
        let (head, body) = waiting_text(&Request::Spectate("ABCDE".into()));
        assert_eq!(head, "Finding room ABCDE");
        assert!(!body.contains("opponent") && !body.contains("quick match"));
    }

    #[test]
    fn a_connection_cut_as_silent_says_so_in_words() {
        let text = error_text(ErrorCode::Timeout, "nothing heard for 15.0 s");
        assert!(text.starts_with("The server closed the connection (nothing heard for 15.0 s)"));
        assert!(!text.contains("Server error"), "{text}");
    }

    #[test]
    fn a_quick_match_waits_for_an_opponent() {
        assert_eq!(
            waiting_text(&Request::QuickMatch).0,
            "Looking for an opponent"
        );
    }
}
