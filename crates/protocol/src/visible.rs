//! What of a player's text others can see: [`is_invisible`] tells a character that shows
//! nothing (or nothing meant to be seen), and [`clean_visible`] keeps the visible text of a
//! line. Chat lines and report texts (`identity::clean_chat`, `moderation::clean_report_text`)
//! and replay names are held to it. It imports nothing of this crate, so `identity` and
//! `moderation` both use it without importing each other.

use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

/// Whether `c` shows nothing (or nothing meant to be seen) in a chat line: control, format
/// (bidi overrides, zero-width spaces, the BOM), private-use, unassigned and line or paragraph
/// separators; default-ignorable code points (Hangul fillers, variation selectors, the
/// combining grapheme joiner: the characters UTS #39's skeleton drops); the blank Braille
/// pattern.
pub fn is_invisible(c: char) -> bool {
    use GeneralCategory as G;
    if matches!(
        c.general_category(),
        G::Control
            | G::Format
            | G::PrivateUse
            | G::Surrogate
            | G::Unassigned
            | G::LineSeparator
            | G::ParagraphSeparator
    ) || c == '\u{2800}'
    {
        return true;
    }
    let mut buf = [0u8; 4];
    unicode_security::skeleton(c.encode_utf8(&mut buf))
        .next()
        .is_none()
}

/// Text a player wrote for others to read (a chat line, a report): NFC-normalised, invisible
/// characters ([`is_invisible`]) removed, trimmed, at most `max_chars`; `None` if nothing is
/// left or it is too long.
pub fn clean_visible(text: &str, max_chars: usize) -> Option<String> {
    if text.chars().count() > max_chars {
        return None;
    }
    let cleaned: String = text.nfc().filter(|&c| !is_invisible(c)).collect();
    let cleaned = cleaned.trim();
    let fits = cleaned.chars().count() <= max_chars;
    (!cleaned.is_empty() && fits).then(|| cleaned.to_string())
}
