//! A direct message being written to a friend: its text, and why Enter last refused it
//! (window-free, so it can be tested). The server holds messages to the chat's rules
//! (`clean_direct_message`); the draft checks the same rule before sending.

use sevenbag_protocol::social::{MAX_DIRECT_MESSAGE_CHARS, clean_direct_message};

/// The message and its receiver.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Draft {
    /// The friend it goes to.
    pub to: String,
    /// The text typed.
    pub text: String,
    /// Why Enter was refused, until the text changes.
    pub error: Option<String>,
    /// Sent, and the server's answer not here yet.
    pub sending: bool,
}

impl Draft {
    /// An empty message to `to`.
    pub fn to(to: &str) -> Draft {
        Draft {
            to: to.to_owned(),
            ..Draft::default()
        }
    }

    /// Adds typed characters (not control characters; at most [`MAX_DIRECT_MESSAGE_CHARS`])
    /// and applies Backspace; a change clears the reason.
    pub fn edit(&mut self, chars: &[char], backspace: bool) {
        let before = self.text.clone();
        for c in chars {
            if !c.is_control() && self.text.chars().count() < MAX_DIRECT_MESSAGE_CHARS {
                self.text.push(*c);
            }
        }
        if backspace {
            self.text.pop();
        }
        if self.text != before {
            self.error = None;
            self.sending = false;
        }
    }

    /// The text to send, cleaned as the server will; `None` (the reason kept) when nothing
    /// visible is left.
    pub fn submit(&mut self) -> Option<String> {
        match clean_direct_message(&self.text) {
            Some(text) => {
                self.error = None;
                self.sending = true;
                Some(text)
            }
            None => {
                self.error = Some("Write something first.".to_owned());
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_is_sent_cleaned_and_an_empty_one_says_why() {
        let mut d = Draft::to("ann");
        d.edit(&[' ', '\u{200B}'], false);
        assert_eq!(d.submit(), None);
        assert_eq!(d.error.as_deref(), Some("Write something first."));
        d.edit(&"gg wp ".chars().collect::<Vec<_>>(), false);
        assert_eq!(d.error, None, "typing clears the reason");
        assert_eq!(d.submit().as_deref(), Some("gg wp"));
        assert!(d.sending);
    }

    #[test]
    fn the_draft_stops_at_the_longest_message() {
        let mut d = Draft::to("ann");
        d.edit(&['x'; MAX_DIRECT_MESSAGE_CHARS + 20], false);
        assert_eq!(d.text.chars().count(), MAX_DIRECT_MESSAGE_CHARS);
        assert!(d.submit().is_some());
    }
}
