//! Who this connection plays as: a guest, or the identity of the player key. With a key the
//! connection identifies right after the welcome (quick match and rooms too, not only ranked),
//! so reports and blocks, which the server takes only from an identity, work everywhere; the
//! name shown is then the identity's. Without one, a report or block says how to get one.

use sevenbag_protocol::social::RequestResult;
use sevenbag_protocol::{ClientMessage, ErrorCode, ServerMessage};

/// Where the connection's identity stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Who {
    /// No player key on this machine: a guest.
    Guest,
    /// `Identify` sent, its answer not yet heard.
    Asking,
    /// The server knows us as this identity.
    Known,
    /// The server did not take the key; the sentence says why, for people.
    Refused(String),
}

/// Shown instead of sending a report or block as a guest.
pub const NEEDS_IDENTITY: &str = "Reports and blocks need a player identity: play one Ranked match (menu, ONLINE › Ranked) to register, then they work in quick match and rooms too.";

/// Shown instead of sending an invite as a guest.
pub const INVITES_NEED_IDENTITY: &str = "Invites need a player identity: play one Ranked match (menu, ONLINE › Ranked) to register, then befriend players on the Friends screen.";

/// What a sent request did, as a sentence, and whether it is good news.
pub fn sent_text(name: &str, result: RequestResult) -> (String, bool) {
    match result {
        RequestResult::Sent => (format!("Friend request sent to {name}."), true),
        RequestResult::BecameFriends => (
            format!("{name} had asked you already: you are friends now."),
            true,
        ),
        RequestResult::AlreadyFriends => (format!("You and {name} are friends already."), false),
        RequestResult::AlreadySent => {
            (format!("Your request to {name} is waiting already."), false)
        }
    }
}

/// Shown instead of sending a friend request as a guest (the Friends screen's own words).
/// The server took a report.
pub const REPORT_SENT: &str = "Report sent: an operator will look at it.";

/// The block list the server answered `Block` or `Unblock` with.
pub fn blocked_text(names: &[String]) -> String {
    if names.is_empty() {
        "You block no one.".to_owned()
    } else {
        format!("Blocked: {}.", names.join(", "))
    }
}

pub const FRIENDS_NEED_IDENTITY: &str = "Friends need a player identity: a first Ranked match (menu, ONLINE) gives you one, or import yours in Settings › Account.";

/// Said once the server took an invite: "Invited ann to room ABCDE."
pub fn invited_text(name: &str, code: &str) -> String {
    format!("Invited {name} to room {code}.")
}

impl Who {
    /// Notes an answer to our `Identify`. Returns true when `message` was that answer and is
    /// consumed here (an error that only says the key is not known here ends nothing).
    pub fn hear(&mut self, message: &ServerMessage) -> bool {
        let asking = *self == Who::Asking;
        match message {
            ServerMessage::Identified { .. } | ServerMessage::Registered { .. } => {
                *self = Who::Known;
                asking
            }
            // A banned identity is refused: the usual error path says so (and ends the lobby).
            ServerMessage::Error {
                code, fatal: false, ..
            } if asking && *code != ErrorCode::Banned => {
                *self = Who::Refused(match code {
                    ErrorCode::UnknownKey => "This server does not know your player key: play one Ranked match here to register it; reports and blocks need it.".to_owned(),
                    ErrorCode::Unavailable => "This server keeps no identities, so it takes no reports or blocks.".to_owned(),
                    _ => NEEDS_IDENTITY.to_owned(),
                });
                true
            }
            _ => false,
        }
    }

    /// Why an invite cannot be sent now, if it cannot.
    pub fn invite_refusal(&self) -> Option<String> {
        self.social_refusal(INVITES_NEED_IDENTITY)
    }

    /// Why a friend request cannot be sent now, if it cannot.
    pub fn friend_refusal(&self) -> Option<String> {
        self.social_refusal(FRIENDS_NEED_IDENTITY)
    }

    /// Why something only an identity may send cannot go now: `without` for a guest (or a
    /// refused key), "still identifying" while the answer is awaited.
    fn social_refusal(&self, without: &str) -> Option<String> {
        match self {
            Who::Known => None,
            Who::Asking => self.refusal(),
            Who::Guest | Who::Refused(_) => Some(without.to_owned()),
        }
    }

    /// The friend request for `name` to send now, or why it cannot go.
    pub fn friend_request(&self, name: &str) -> Result<ClientMessage, String> {
        match self.friend_refusal() {
            Some(why) => Err(why),
            None => Ok(ClientMessage::SendFriendRequest {
                name: name.to_owned(),
            }),
        }
    }

    /// Why a report or block cannot be sent now, if it cannot.
    pub fn refusal(&self) -> Option<String> {
        match self {
            Who::Known => None,
            Who::Guest => Some(NEEDS_IDENTITY.to_owned()),
            Who::Asking => {
                Some("Still identifying with the server: try again in a moment.".to_owned())
            }
            Who::Refused(why) => Some(why.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(code: ErrorCode) -> ServerMessage {
        ServerMessage::Error {
            code,
            message: String::new(),
            fatal: false,
        }
    }

    #[test]
    fn an_unknown_key_is_consumed_and_said_in_words() {
        let mut who = Who::Asking;
        assert!(who.hear(&error(ErrorCode::UnknownKey)));
        assert!(who.refusal().is_some_and(|r| r.contains("Ranked")));
    }

    #[test]
    fn a_ban_is_left_to_the_usual_error_path() {
        let mut who = Who::Asking;
        assert!(!who.hear(&error(ErrorCode::Banned)));
        assert_eq!(who, Who::Asking);
    }

    #[test]
    fn errors_after_the_answer_are_not_taken_for_it() {
        let mut who = Who::Guest;
        assert!(!who.hear(&error(ErrorCode::UnknownKey)));
        assert_eq!(who.refusal().as_deref(), Some(NEEDS_IDENTITY));
    }
}
