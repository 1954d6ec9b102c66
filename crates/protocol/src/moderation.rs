//! What the moderation messages carry (`docs/MODERATION.md`): report categories and the bounds
//! a client's report, block list and bot declaration are held to.
//!
//! The messages themselves are appended to [`crate::ClientMessage`] (`DeclareBot`, `Report`,
//! `Block`, `Unblock`, `GetBlocks`) and [`crate::ServerMessage`] (`SeatMarks`, `BotChat`,
//! `Reported`, `Blocked`, `ProfileMarks`); the server checks every bound here again.

use serde::{Deserialize, Serialize};

use crate::visible::clean_visible;

/// Longest report text, in characters (invisible characters are removed first).
pub const MAX_REPORT_CHARS: usize = 500;
/// Longest replay id a report may name (the server's ids are about 30 characters).
pub const MAX_REPLAY_ID_CHARS: usize = 64;
/// Most players one identity may block.
pub const MAX_BLOCKS: usize = 500;

/// What a report is about, so an operator can sort them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ReportCategory {
    /// Playing with help: a bot, an input tool, someone else at the keys.
    Cheating,
    /// Insults, threats or spam in chat.
    Abuse,
    /// An offensive or impersonating name.
    Name,
    /// Throwing or trading matches to move a rating (their own or another's).
    Boosting,
    /// Anything else (the text says what).
    Other,
}

impl ReportCategory {
    /// Its name as stored and in the admin API (`cheating`, `abuse`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            ReportCategory::Cheating => "cheating",
            ReportCategory::Abuse => "abuse",
            ReportCategory::Name => "name",
            ReportCategory::Boosting => "boosting",
            ReportCategory::Other => "other",
        }
    }
}

/// A report's text as the server keeps it: the visible text a chat line is held to
/// ([`clean_visible`]: NFC, invisible characters removed, trimmed, as `identity::clean_chat`), at most
/// [`MAX_REPORT_CHARS`]; `None` if nothing is left or it is too long.
pub fn clean_report_text(text: &str) -> Option<String> {
    clean_visible(text, MAX_REPORT_CHARS)
}

/// Whether `id` can be a replay id: 1 to [`MAX_REPLAY_ID_CHARS`] ASCII letters, digits and `-`
/// (the server names replays `<unix time>-<room code>-<match number>`).
pub fn valid_replay_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_REPLAY_ID_CHARS
        && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_text_is_cleaned_and_bounded() {
        assert_eq!(clean_report_text(" aim\u{7}bot "), Some("aimbot".into()));
        assert_eq!(clean_report_text("\u{1b}\n"), None);
        assert!(clean_report_text(&"x".repeat(MAX_REPORT_CHARS)).is_some());
        assert!(clean_report_text(&"x".repeat(MAX_REPORT_CHARS + 1)).is_none());
    }

    #[test]
    fn report_text_of_only_invisible_characters_is_empty_as_a_chat_line_is() {
        for invisible in [
            "\u{200B}\u{200C}\u{200D}\u{2060}\u{FEFF}",
            "\u{3164}\u{115F}\u{1160}\u{FFA0}",
            "\u{202E}\u{2066} \u{2800} \u{3000}",
            "\u{FE0F}\u{34F}\u{E0001}",
        ] {
            assert_eq!(clean_report_text(invisible), None, "{invisible:?}");
        }
        assert_eq!(
            clean_report_text("aim\u{200B}bot\u{202E}"),
            Some("aimbot".into())
        );
    }

    #[test]
    fn replay_ids_are_plain() {
        assert!(valid_replay_id("1795432841-ACDEF-3"));
        for bad in ["", "../x", "a b", "a/b", &"1".repeat(65)] {
            assert!(!valid_replay_id(bad), "{bad:?}");
        }
    }
}
