//! The rules for player names and chat lines, shared by the game (to check before sending) and
//! the server (which enforces them).
//!
//! # Names
//! 3 to 16 characters from `A–Z a–z 0–9 _ -`. ASCII only, so no Unicode look-alikes exist; the
//! ASCII ones are folded by [`name_key`] (case; `0`→`o`; `1`, `i`, `l`→`l`; `2`→`z`; `5`→`s`;
//! `8`→`b`; `-`→`_`; `rn`→`m`; `vv`→`w`), and two names with the same key cannot both exist:
//! `Alice`, `ALICE` and `A1ice` are one name.
//!
//! # Display names (`Hello`)
//! What a player is called in a room when not registered ([`clean_display_name`]): NFKC
//! normalised (full-width `Ａ` is `A`), trimmed, 1 to [`MAX_NAME_CHARS`] characters, each
//! printable ASCII or a letter, mark or digit that Unicode's identifier rules allow (UTS #39's
//! General Security Profile), so no control, format or invisible character gets in (bidi
//! overrides, zero-width spaces and joiners, the BOM, Hangul fillers, variation selectors); and
//! at most "moderately restrictive" in UTS #39's sense, so no mixing of look-alike scripts
//! (`аdmin` with a Cyrillic `а` is refused; Latin with Japanese, or with Arabic, is fine).
//!
//! # Chat
//! At most [`MAX_CHAT_CHARS`] characters of UTF-8; the server NFC-normalises it, removes
//! control, format, private-use, unassigned and other invisible characters (everything
//! Unicode calls default-ignorable, and the blank Braille pattern), trims it, and drops lines
//! left empty: a line of only invisible characters is empty.
//!
//! # Look-alikes
//! [`fold_confusables`] folds what looks alike (`ѕhit` with a Cyrillic `ѕ`, full-width and
//! mathematical letters) to one form with Unicode's confusables data: the game's chat filter
//! matches words through it, and [`display_name_key`] through it tells a guest's name that
//! reads as a registered one.
//!
//! # Why these crates
//! `unicode-security` (unicode-rs: UTS #39's identifier status, restriction levels and
//! skeletons, generated from Unicode's own data files; its skeleton is the confusables
//! folding, so no second table crate is needed), `unicode-normalization` (unicode-rs:
//! NFC/NFKC) and `unicode-properties` (unicode-rs: general categories) keep Unicode's tables
//! out of our code, follow its versions, and are `no_std` table crates with no dependencies of
//! their own beyond each other: they build for wasm32, and only `unicode-security` and
//! `unicode-script` are new to the server's tree (`unicode-normalization` and
//! `unicode-properties` came with the PostgreSQL client).

use unicode_normalization::UnicodeNormalization;
use unicode_security::{GeneralSecurityProfile, RestrictionLevel, RestrictionLevelDetection};

use crate::messages::MAX_NAME_CHARS;
pub use crate::visible::{clean_visible, is_invisible};

/// Shortest name, in characters.
pub const MIN_NAME_CHARS: usize = 3;
/// Longest registered name, in characters.
pub const MAX_REGISTERED_NAME_CHARS: usize = 16;
/// Longest chat line, in characters.
pub const MAX_CHAT_CHARS: usize = 200;

/// Why a name is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Too short or too long.
    #[error("a name is {MIN_NAME_CHARS} to {MAX_REGISTERED_NAME_CHARS} characters")]
    Length,
    /// A character outside the set.
    #[error("a name uses only letters A-Z, digits, '_' and '-'")]
    Character,
}

/// Checks a name against the rules above.
pub fn validate_name(name: &str) -> Result<(), NameError> {
    let chars = name.chars().count();
    if !(MIN_NAME_CHARS..=MAX_REGISTERED_NAME_CHARS).contains(&chars) {
        return Err(NameError::Length);
    }
    if !name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    {
        return Err(NameError::Character);
    }
    Ok(())
}

/// The look-alike-folded form of a valid name: equal keys are the same name.
pub fn name_key(name: &str) -> String {
    let single: String = name
        .chars()
        .map(|c| match c.to_ascii_lowercase() {
            '0' => 'o',
            '1' | 'i' => 'l',
            '2' => 'z',
            '5' => 's',
            '8' => 'b',
            '-' => '_',
            c => c,
        })
        .collect();
    single.replace("rn", "m").replace("vv", "w")
}

/// `text` with look-alike characters folded to one form, to compare what people see: NFKC
/// first (full-width `ｓ` and mathematical bold `𝐬` are `s`), then every character left outside
/// ASCII replaced by its prototype in Unicode's confusables table (UTS #39's skeleton mapping:
/// Cyrillic `ѕ` and `а` are `s` and `a`, Greek `Ο` is `O`). ASCII is kept as it is, so
/// [`name_key`]'s own ASCII folding applies to the result unchanged. The chat filter compares
/// words through it, and the server compares a guest's name with registered names through it
/// ([`display_name_key`]).
pub fn fold_confusables(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut buf = [0u8; 4];
    for c in text.nfkc() {
        if c.is_ascii() {
            out.push(c);
        } else {
            out.extend(unicode_security::skeleton(c.encode_utf8(&mut buf)));
        }
    }
    out
}

/// The [`name_key`] a display name has when read as a registered name once look-alikes are
/// folded ([`fold_confusables`]), or `None` when it cannot be one: the server refuses a guest
/// whose name has the key of a registered player.
pub fn display_name_key(name: &str) -> Option<String> {
    let folded = fold_confusables(name);
    let folded = folded.trim();
    validate_name(folded).ok()?;
    Some(name_key(folded))
}

/// Why a display name is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DisplayNameError {
    /// Empty (after trimming) or too long.
    #[error("a name is 1 to {MAX_NAME_CHARS} characters")]
    Length,
    /// A character that is not allowed (invisible, a control or format character, a symbol).
    #[error(
        "a name may not hold {:?} (U+{:04X}): letters, digits and ASCII punctuation only",
        .0,
        u32::from(*.0)
    )]
    Character(char),
    /// Letters of scripts that look alike (Latin with Cyrillic or Greek...).
    #[error("a name may not mix look-alike scripts (such as Latin with Cyrillic or Greek)")]
    MixedScripts,
}

/// A display name in its normal form, or why it is refused (see the module docs).
pub fn clean_display_name(name: &str) -> Result<String, DisplayNameError> {
    // Refuse absurd input before normalising it (NFKC can grow a string).
    if name.len() > MAX_NAME_CHARS * 4 * 4 {
        return Err(DisplayNameError::Length);
    }
    let normal: String = name.nfkc().collect();
    let normal = normal.trim();
    let chars = normal.chars().count();
    if chars == 0 || chars > MAX_NAME_CHARS {
        return Err(DisplayNameError::Length);
    }
    if let Some(bad) = normal
        .chars()
        .find(|&c| !(c == ' ' || c.is_ascii_graphic() || c.identifier_allowed()))
    {
        return Err(DisplayNameError::Character(bad));
    }
    // Restriction levels are defined over identifier characters: ASCII punctuation and spaces
    // (script Common) change nothing, so they are left out of the check.
    let letters: String = normal.chars().filter(|c| c.identifier_allowed()).collect();
    if letters.as_str().detect_restriction_level() > RestrictionLevel::ModeratelyRestrictive {
        return Err(DisplayNameError::MixedScripts);
    }
    Ok(normal.to_string())
}

/// A chat line as the server relays it: [`clean_visible`] with at most [`MAX_CHAT_CHARS`].
pub fn clean_chat(text: &str) -> Option<String> {
    clean_visible(text, MAX_CHAT_CHARS)
}

/// A typed recovery code in its canonical form: upper case, without spaces or dashes.
pub fn normalise_recovery_code(code: &str) -> String {
    code.chars()
        .filter(|c| !matches!(c, '-' | ' '))
        .take(64)
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_documented_set() {
        assert!(validate_name("Alice_99").is_ok());
        assert_eq!(validate_name("ab"), Err(NameError::Length));
        assert_eq!(
            validate_name("a".repeat(17).as_str()),
            Err(NameError::Length)
        );
        assert_eq!(validate_name("Zoë123"), Err(NameError::Character));
        assert_eq!(validate_name("bad name"), Err(NameError::Character));
    }

    #[test]
    fn look_alikes_fold_to_one_key() {
        assert_eq!(name_key("Alice"), name_key("A1ICE"));
        assert_eq!(name_key("BOB0"), name_key("bobo"));
        assert_eq!(name_key("modern"), name_key("rnodem"));
        assert_ne!(name_key("Alice"), name_key("Alicia"));
    }

    #[test]
    fn look_alike_letters_fold_to_ascii() {
        assert_eq!(fold_confusables("\u{455}hit"), "shit"); // Cyrillic dze
        assert_eq!(fold_confusables("ｓｈｉｔ"), "shit"); // full width
        assert_eq!(fold_confusables("𝐬𝐡𝐢𝐭"), "shit"); // mathematical bold
        assert_eq!(fold_confusables("\u{430}lice"), "alice"); // Cyrillic a
        assert_eq!(fold_confusables("Alice_99"), "Alice_99");
        assert_eq!(fold_confusables("Борис"), fold_confusables("Борис"));
    }

    #[test]
    fn a_display_name_that_reads_as_a_registered_name_has_its_key() {
        let alice = Some(name_key("alice"));
        assert_eq!(display_name_key("alice"), alice);
        assert_eq!(display_name_key(" ALICE "), alice);
        assert_eq!(display_name_key("A1ice"), alice);
        assert_eq!(display_name_key("\u{430}l\u{456}c\u{435}"), alice); // Cyrillic а і е
        assert_eq!(display_name_key("ａｌｉｃｅ"), alice);
        assert_eq!(display_name_key("alice!"), None);
        assert_eq!(display_name_key("Ken 健二"), None);
    }

    #[test]
    fn display_names_are_normalised_and_trimmed() {
        assert_eq!(clean_display_name("  Alice "), Ok("Alice".into()));
        assert_eq!(clean_display_name("Ａｌｉｃｅ"), Ok("Alice".into()));
        assert_eq!(
            clean_display_name("Bot (hard) #2"),
            Ok("Bot (hard) #2".into())
        );
        assert_eq!(clean_display_name("Zoë"), Ok("Zoë".into()));
        assert_eq!(clean_display_name("Zoe\u{308}"), Ok("Zoë".into()));
        assert_eq!(clean_display_name("Борис"), Ok("Борис".into()));
        assert_eq!(clean_display_name("Ken 健二"), Ok("Ken 健二".into()));
    }

    #[test]
    fn display_names_refuse_format_and_invisible_characters() {
        for (name, bad) in [
            ("Al\u{202E}ice", '\u{202E}'), // right-to-left override
            ("Al\u{200B}ice", '\u{200B}'), // zero-width space
            ("Al\u{200D}ice", '\u{200D}'), // zero-width joiner
            ("\u{FEFF}Alice", '\u{FEFF}'), // byte order mark
            ("\u{3164}", '\u{3164}'),      // Hangul filler
            ("Al\u{115F}ice", '\u{115F}'), // Hangul choseong filler
            ("Alice\u{FE0F}", '\u{FE0F}'), // variation selector
            ("Al\u{2066}ice", '\u{2066}'), // left-to-right isolate
            ("Al\u{7}ice", '\u{7}'),
            ("Alice\u{1F600}", '\u{1F600}'),
        ] {
            // NFKC may turn one filler into another first: the error names what is left.
            let err = clean_display_name(name).expect_err(name);
            assert!(
                matches!(err, DisplayNameError::Character(_)),
                "{name:?}: {err}"
            );
            if !matches!(bad, '\u{3164}') {
                assert_eq!(err, DisplayNameError::Character(bad), "{name:?}");
            }
        }
        assert_eq!(
            clean_display_name("Al\tice"),
            Err(DisplayNameError::Character('\t'))
        );
        assert_eq!(clean_display_name("   "), Err(DisplayNameError::Length));
        assert_eq!(
            clean_display_name(&"x".repeat(MAX_NAME_CHARS + 1)),
            Err(DisplayNameError::Length)
        );
    }

    #[test]
    fn display_names_refuse_mixed_look_alike_scripts() {
        assert_eq!(
            clean_display_name("\u{430}dmin"),
            Err(DisplayNameError::MixedScripts)
        );
        assert_eq!(
            clean_display_name("P\u{430}yP\u{430}l"),
            Err(DisplayNameError::MixedScripts)
        );
        assert_eq!(
            clean_display_name("\u{3A9}mega"),
            Err(DisplayNameError::MixedScripts)
        );
    }

    #[test]
    fn chat_loses_invisible_and_format_characters() {
        assert_eq!(
            clean_chat("gg\u{202E}wp\u{200B}\u{FEFF}!"),
            Some("ggwp!".into())
        );
        assert_eq!(clean_chat("e\u{301}"), Some("\u{e9}".into()));
        assert_eq!(clean_chat("Привет, 世界"), Some("Привет, 世界".into()));
    }

    #[test]
    fn a_chat_line_of_only_invisible_characters_is_empty() {
        assert_eq!(clean_chat("\u{200B}\u{200C}\u{200D}\u{2060}\u{FEFF}"), None);
        assert_eq!(clean_chat("\u{3164}\u{115F}\u{1160}\u{FFA0}"), None);
        assert_eq!(clean_chat("\u{202E}\u{2066} \u{2800} \u{3000}"), None);
        assert_eq!(clean_chat("\u{FE0F}\u{34F}\u{E0001}"), None);
    }

    #[test]
    fn chat_loses_control_characters_and_long_lines() {
        assert_eq!(clean_chat("hi\u{7}\n there"), Some("hi there".into()));
        assert_eq!(clean_chat("\u{1b}[2J"), Some("[2J".into()));
        assert_eq!(clean_chat(" \n "), None);
        assert_eq!(clean_chat(&"x".repeat(201)), None);
        assert_eq!(
            clean_chat(&"é".repeat(200)).map(|s| s.chars().count()),
            Some(200)
        );
    }
}
