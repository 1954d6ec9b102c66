//! Room chat in the game: the lines heard, who is muted, and the line being typed.
//!
//! The server strips control characters and limits the rate; the game keeps the last
//! [`KEEP_LINES`] lines, hides the lines of muted players (mutes last for the session, by name),
//! and turns `/mute NAME` and `/unmute NAME` typed in the field into mutes instead of messages;
//! `/block NAME`, `/unblock NAME` and `/report NAME WHAT HAPPENED` become the server's
//! moderation requests (`docs/MODERATION.md`: a block lasts, the server keeps the list), and
//! `/friend NAME` a friend request to a player in the room. With
//! the chat filter on (a setting), words of [`FILTERED`] are shown as asterisks, look-alike
//! letters folded first (`fold_confusables`: a Cyrillic `ѕ`, full-width or mathematical letters
//! do not slip a word past it).
//! The screens decide where the lines go: never over the boards.

use sevenbag_netplay::time::Instant;
use std::collections::{BTreeSet, VecDeque};

use sevenbag_core::Seat;
use sevenbag_protocol::identity::{MAX_CHAT_CHARS, clean_chat, fold_confusables};
use sevenbag_protocol::moderation::ReportCategory;

/// Lines kept for the room view.
pub const KEEP_LINES: usize = 50;

/// One line heard in the room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatLine {
    /// Who said it.
    pub from: String,
    /// Their seat, `None` for a spectator.
    pub seat: Option<Seat>,
    /// What they said.
    pub text: String,
    /// When it arrived, so a match view can show it for a few seconds.
    pub at: Instant,
}

/// What pressing Enter in the chat field does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Submit {
    /// Send this text to the room.
    Say(String),
    /// Nothing to send (an empty line, or a mute command done here): a note for the player.
    Note(String),
    /// Block this player (the server's list: never matched again, their chat not delivered).
    Block(String),
    /// Undo a block.
    Unblock(String),
    /// Ask this player (someone in the room's player list) to be friends.
    Befriend(String),
    /// Report this player, with what happened.
    Report {
        /// Their name.
        name: String,
        /// What it is about: the first word when it names one (`cheating`, `abuse`, `name`,
        /// `boosting`, `other`), else `other`.
        category: ReportCategory,
        /// What happened (the server bounds it).
        text: String,
    },
}

/// Words the chat filter hides (lower case; matched whole, ignoring case).
pub const FILTERED: &[&str] = &[
    "fuck", "fucking", "shit", "cunt", "bitch", "asshole", "retard", "faggot", "nigger", "kys",
];

/// The category a word names (`ReportCategory::name`), if any.
fn report_category(word: &str) -> Option<ReportCategory> {
    use ReportCategory::*;
    [Cheating, Abuse, Name, Boosting, Other]
        .into_iter()
        .find(|c| c.name().eq_ignore_ascii_case(word))
}

/// Whether `word` is one of [`FILTERED`], whatever its case and look-alike letters.
fn is_filtered(word: &str) -> bool {
    let folded = fold_confusables(&word.to_lowercase()).to_lowercase();
    FILTERED.contains(&folded.as_str())
}

/// `text` with every word of [`FILTERED`] turned into asterisks.
pub fn filtered(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if is_filtered(word) {
            out.extend(word.chars().map(|_| '*'));
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_alphanumeric() {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// The chat of one connection.
#[derive(Debug, Default)]
pub struct Chat {
    lines: VecDeque<ChatLine>,
    muted: BTreeSet<String>,
    /// Hide the words of [`FILTERED`] in lines heard from now on.
    filter: bool,
    /// The line being typed, while the field is open.
    draft: Option<String>,
}

impl Chat {
    /// Notes a line from the server, unless its author is muted.
    pub fn hear(&mut self, from: String, seat: Option<Seat>, text: String, at: Instant) {
        if self.is_muted(&from) {
            return;
        }
        let text = if self.filter { filtered(&text) } else { text };
        if self.lines.len() == KEEP_LINES {
            self.lines.pop_front();
        }
        self.lines.push_back(ChatLine {
            from,
            seat,
            text,
            at,
        });
    }

    /// The last `n` lines, oldest first.
    pub fn last(&self, n: usize) -> impl Iterator<Item = &ChatLine> {
        self.lines.iter().skip(self.lines.len().saturating_sub(n))
    }

    /// Turns the chat filter on or off for lines heard from now on.
    pub fn set_filter(&mut self, on: bool) {
        self.filter = on;
    }

    /// Whether `name`'s lines are hidden.
    pub fn is_muted(&self, name: &str) -> bool {
        self.muted.contains(&name.to_lowercase())
    }

    /// Mutes `name` (or unmutes a muted one); hides what they already said. Returns whether
    /// they are muted now.
    pub fn toggle_mute(&mut self, name: &str) -> bool {
        let key = name.to_lowercase();
        if self.muted.remove(&key) {
            return false;
        }
        self.lines.retain(|l| l.from.to_lowercase() != key);
        self.muted.insert(key);
        true
    }

    /// The line being typed, while the field is open.
    pub fn draft(&self) -> Option<&str> {
        self.draft.as_deref()
    }

    /// Opens the field (empty).
    pub fn open(&mut self) {
        self.draft = Some(String::new());
    }

    /// Opens the field with `text` typed (a command to finish, such as `/report NAME `).
    pub fn open_with(&mut self, text: &str) {
        self.draft = Some(text.chars().take(MAX_CHAT_CHARS).collect());
    }

    /// Closes the field, dropping what was typed.
    pub fn close(&mut self) {
        self.draft = None;
    }

    /// Types `chars` into the open field (control characters and anything past
    /// [`MAX_CHAT_CHARS`] are dropped) and applies a backspace.
    pub fn type_chars(&mut self, chars: &[char], backspace: bool) {
        let Some(d) = &mut self.draft else { return };
        for c in chars {
            if !c.is_control() && d.chars().count() < MAX_CHAT_CHARS {
                d.push(*c);
            }
        }
        if backspace {
            d.pop();
        }
    }

    /// Enter: closes the field and says what to do with its line.
    pub fn submit(&mut self) -> Submit {
        let text = self.draft.take().unwrap_or_default();
        let mut words = text.split_whitespace();
        match (words.next(), words.next()) {
            (Some("/mute" | "/unmute"), Some(name)) => {
                if self.toggle_mute(name) {
                    Submit::Note(format!("{name} is muted."))
                } else {
                    Submit::Note(format!("{name} is no longer muted."))
                }
            }
            (Some("/mute" | "/unmute"), None) => Submit::Note("Usage: /mute NAME".to_owned()),
            (Some("/block"), Some(name)) => Submit::Block(name.to_owned()),
            (Some("/unblock"), Some(name)) => Submit::Unblock(name.to_owned()),
            (Some("/block" | "/unblock"), None) => Submit::Note("Usage: /block NAME".to_owned()),
            (Some("/friend"), Some(name)) => Submit::Befriend(name.to_owned()),
            (Some("/friend"), None) => Submit::Note("Usage: /friend NAME".to_owned()),
            (Some("/report"), Some(name)) => {
                let mut rest: Vec<&str> = words.collect();
                let category = rest
                    .first()
                    .and_then(|w| report_category(w))
                    .inspect(|_| {
                        rest.remove(0);
                    })
                    .unwrap_or(ReportCategory::Other);
                let text = rest.join(" ");
                if text.is_empty() {
                    Submit::Note("Say what happened: /report NAME WHAT HAPPENED".to_owned())
                } else {
                    Submit::Report {
                        name: name.to_owned(),
                        category,
                        text,
                    }
                }
            }
            (Some("/report"), None) => Submit::Note("Usage: /report NAME WHAT HAPPENED".to_owned()),
            _ => match clean_chat(&text) {
                Some(line) => Submit::Say(line),
                None => Submit::Note(String::new()),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(chat: &mut Chat, text: &str) -> Submit {
        chat.open();
        chat.type_chars(&text.chars().collect::<Vec<_>>(), false);
        chat.submit()
    }

    #[test]
    fn a_typed_line_is_sent_trimmed_and_the_field_closes() {
        let mut chat = Chat::default();
        assert_eq!(typed(&mut chat, "  gl hf "), Submit::Say("gl hf".into()));
        assert_eq!(chat.draft(), None);
    }

    #[test]
    fn an_empty_line_sends_nothing() {
        let mut chat = Chat::default();
        assert_eq!(typed(&mut chat, "   "), Submit::Note(String::new()));
    }

    #[test]
    fn the_field_stops_at_the_servers_limit_and_drops_control_characters() {
        let mut chat = Chat::default();
        chat.open();
        chat.type_chars(&['\u{7}'; 3], false);
        chat.type_chars(&['x'; MAX_CHAT_CHARS + 10], false);
        assert_eq!(chat.draft().map(str::len), Some(MAX_CHAT_CHARS));
        chat.type_chars(&[], true);
        assert_eq!(chat.draft().map(str::len), Some(MAX_CHAT_CHARS - 1));
    }

    #[test]
    fn a_muted_players_lines_are_hidden_past_and_future() {
        let mut chat = Chat::default();
        let now = Instant::now();
        chat.hear("Bo".into(), Some(Seat::Second), "hi".into(), now);
        chat.hear("ann".into(), None, "hello".into(), now);
        assert_eq!(
            typed(&mut chat, "/mute bo"),
            Submit::Note("bo is muted.".into())
        );
        chat.hear("BO".into(), Some(Seat::Second), "ez".into(), now);
        let from: Vec<&str> = chat.last(10).map(|l| l.from.as_str()).collect();
        assert_eq!(from, ["ann"]);
        assert_eq!(
            typed(&mut chat, "/unmute bo"),
            Submit::Note("bo is no longer muted.".into())
        );
        chat.hear("Bo".into(), Some(Seat::Second), "gg".into(), now);
        assert_eq!(chat.last(1).next().map(|l| l.text.as_str()), Some("gg"));
    }

    #[test]
    fn block_unblock_and_report_commands_become_requests() {
        let mut chat = Chat::default();
        assert_eq!(typed(&mut chat, "/block bo"), Submit::Block("bo".into()));
        assert_eq!(
            typed(&mut chat, "/friend bo"),
            Submit::Befriend("bo".into())
        );
        assert_eq!(
            typed(&mut chat, "/friend"),
            Submit::Note("Usage: /friend NAME".into())
        );
        assert_eq!(
            typed(&mut chat, "/unblock bo"),
            Submit::Unblock("bo".into())
        );
        assert_eq!(
            typed(&mut chat, "/report bo  abuse insults   in chat"),
            Submit::Report {
                name: "bo".into(),
                category: ReportCategory::Abuse,
                text: "insults in chat".into()
            }
        );
        assert_eq!(
            typed(&mut chat, "/report bo lagswitch"),
            Submit::Report {
                name: "bo".into(),
                category: ReportCategory::Other,
                text: "lagswitch".into()
            }
        );
        assert!(matches!(typed(&mut chat, "/report bo"), Submit::Note(_)));
    }

    #[test]
    fn the_filter_hides_listed_words_whole_and_only_when_on() {
        let mut chat = Chat::default();
        let now = Instant::now();
        chat.hear("a".into(), None, "Shit, scunthorpe!".into(), now);
        chat.set_filter(true);
        chat.hear("a".into(), None, "Shit, scunthorpe!".into(), now);
        let texts: Vec<&str> = chat.last(2).map(|l| l.text.as_str()).collect();
        assert_eq!(texts, ["Shit, scunthorpe!", "****, scunthorpe!"]);
    }

    #[test]
    fn the_filter_sees_through_look_alike_letters() {
        for disguised in [
            "\u{455}hit",       // Cyrillic dze for s
            "ｓｈｉｔ",         // full width
            "𝐬𝐡𝐢𝐭",             // mathematical bold
            "\u{405}HIT",       // Cyrillic capital dze
            "\u{455}h\u{456}t", // Cyrillic dze and i
        ] {
            assert_eq!(
                filtered(&format!("{disguised}!")),
                format!("{}!", "*".repeat(disguised.chars().count())),
                "{disguised:?}"
            );
        }
        assert_eq!(filtered("shiitake"), "shiitake");
    }

    #[test]
    fn only_the_last_lines_are_kept() {
        let mut chat = Chat::default();
        let now = Instant::now();
        for i in 0..KEEP_LINES + 5 {
            chat.hear("a".into(), None, i.to_string(), now);
        }
        assert_eq!(chat.last(usize::MAX).count(), KEEP_LINES);
        assert_eq!(
            chat.last(1).next().map(|l| l.text.clone()),
            Some("54".into())
        );
    }
}
