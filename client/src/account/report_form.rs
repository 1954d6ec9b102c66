//! The report form of the profile screen: a reason category (← →) and a short text, typed
//! like the other text fields (the on-screen keyboard in a page). Window-free, so it is tested.

use sevenbag_protocol::moderation::{MAX_REPORT_CHARS, ReportCategory};

/// The categories in the order ← → steps through them.
const CATEGORIES: [ReportCategory; 5] = [
    ReportCategory::Cheating,
    ReportCategory::Abuse,
    ReportCategory::Name,
    ReportCategory::Boosting,
    ReportCategory::Other,
];

/// A report being written against one player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportForm {
    /// Whom it reports.
    pub name: String,
    category: usize,
    /// What happened, as typed.
    pub text: String,
}

impl ReportForm {
    /// A blank report against `name` (category `other`).
    pub fn new(name: &str) -> ReportForm {
        ReportForm {
            name: name.to_owned(),
            category: CATEGORIES.len() - 1,
            text: String::new(),
        }
    }

    /// The chosen category.
    pub fn category(&self) -> ReportCategory {
        CATEGORIES[self.category]
    }

    /// Steps the category by `d` (wrapping).
    pub fn step(&mut self, d: i32) {
        let n = CATEGORIES.len() as i32;
        self.category = (self.category as i32 + d).rem_euclid(n) as usize;
    }

    /// Adds typed characters (control characters are ignored; at most [`MAX_REPORT_CHARS`])
    /// and applies Backspace.
    pub fn edit(&mut self, chars: &[char], backspace: bool) {
        for c in chars {
            if !c.is_control() && self.text.chars().count() < MAX_REPORT_CHARS {
                self.text.push(*c);
            }
        }
        if backspace {
            self.text.pop();
        }
    }

    /// The side panel's text while the form is open.
    pub fn panel_text(&self) -> String {
        format!(
            "Reason: ‹ {} ›  (← → to change)\n\nWhat happened:\n{}_\n\nEnter sends, with the replay of your latest match against them. Esc cancels.",
            self.category().name(),
            self.text
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_category_steps_both_ways_and_wraps() {
        let mut f = ReportForm::new("bob");
        assert_eq!(f.category(), ReportCategory::Other);
        f.step(1);
        assert_eq!(f.category(), ReportCategory::Cheating);
        f.step(-2);
        assert_eq!(f.category(), ReportCategory::Boosting);
    }

    #[test]
    fn typing_keeps_printable_characters_within_the_limit() {
        let mut f = ReportForm::new("bob");
        f.edit(&['h', '\u{7}', 'i', 'x'], true);
        assert_eq!(f.text, "hi");
        f.edit(&vec!['a'; MAX_REPORT_CHARS + 5], false);
        assert_eq!(f.text.chars().count(), MAX_REPORT_CHARS);
        assert!(f.panel_text().contains("other"));
    }
}
