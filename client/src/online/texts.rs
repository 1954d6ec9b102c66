//! Network failures and server errors as sentences for people: what happened and what to try.

use sevenbag_protocol::ErrorCode;

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
        ErrorCode::NameTaken => format!("{message}. Change your name in Settings."),
        ErrorCode::BadName => format!("Ranked names: {message}. Change it in Settings."),
        ErrorCode::Unavailable => "This server has no ranked play.".to_owned(),
        ErrorCode::UnknownKey => format!("Identity: {message}."),
        _ => format!("Server error ({code:?}): {message}"),
    }
}
