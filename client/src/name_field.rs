//! A player name being typed, and why it was last refused: the welcome screen's name and the
//! Friends screen's "Add a friend" use this one field, so both read the rules in the same words.
//! Window-free, so it can be tested.

use sevenbag_protocol::identity::validate_name;

use crate::config::MAX_NAME;

/// The text typed and the reason Enter was last refused.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NameField {
    /// The text in the field.
    pub text: String,
    /// Why Enter was refused, until the text changes.
    pub error: Option<String>,
}

impl NameField {
    /// Adds typed characters (control characters are ignored, the field holds [`MAX_NAME`])
    /// and applies Backspace; a change clears the reason.
    pub fn edit(&mut self, chars: &[char], backspace: bool) {
        let before = self.text.clone();
        for c in chars {
            if !c.is_control() && self.text.chars().count() < MAX_NAME {
                self.text.push(*c);
            }
        }
        if backspace {
            self.text.pop();
        }
        if self.text != before {
            self.error = None;
        }
    }

    /// The name typed (trimmed) when it follows the server's name rules; otherwise the rules'
    /// reason is kept in `error`.
    pub fn submit(&mut self) -> Option<String> {
        let name = self.text.trim();
        match validate_name(name) {
            Ok(()) => {
                self.error = None;
                Some(name.to_owned())
            }
            Err(e) => {
                self.error = Some(format!("Not yet: {e}."));
                None
            }
        }
    }

    /// Keeps `why` as the reason a name that follows the rules is still refused.
    pub fn refuse(&mut self, why: &str) {
        self.error = Some(why.to_owned());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(text: &str) -> NameField {
        let mut field = NameField::default();
        field.edit(&text.chars().collect::<Vec<_>>(), false);
        field
    }

    #[test]
    fn a_name_within_the_rules_is_given_trimmed() {
        assert_eq!(typed("Alice_99").submit(), Some("Alice_99".to_owned()));
        assert_eq!(typed(" bob-1 ").submit(), Some("bob-1".to_owned()));
    }

    #[test]
    fn a_name_outside_the_rules_says_why_in_the_rules_words() {
        let mut short = typed("ab");
        assert_eq!(short.submit(), None);
        assert_eq!(
            short.error.as_deref(),
            Some("Not yet: a name is 3 to 16 characters.")
        );
        let mut spaced = typed("Zoë 1");
        assert_eq!(spaced.submit(), None);
        assert!(
            spaced
                .error
                .as_deref()
                .is_some_and(|e| e.contains("only letters"))
        );
    }

    #[test]
    fn typing_clears_the_reason_and_the_field_stops_at_the_longest_name() {
        let mut field = typed("ab");
        field.submit();
        field.edit(&['c'], false);
        assert_eq!(field.error, None);
        field.refuse("taken");
        field.edit(&['x'; 30], false);
        assert_eq!(field.error, None);
        assert_eq!(field.text.chars().count(), MAX_NAME);
        field.edit(&['\u{7}'], true);
        assert_eq!(field.text.chars().count(), MAX_NAME - 1);
    }
}
