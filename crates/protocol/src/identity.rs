//! The rules for player names and chat lines, shared by the game (to check before sending) and
//! the server (which enforces them).
//!
//! # Names
//! 3 to 16 characters from `A–Z a–z 0–9 _ -`. ASCII only, so no Unicode look-alikes exist; the
//! ASCII ones are folded by [`name_key`] (case; `0`→`o`; `1`, `i`, `l`→`l`; `2`→`z`; `5`→`s`;
//! `8`→`b`; `-`→`_`; `rn`→`m`; `vv`→`w`), and two names with the same key cannot both exist:
//! `Alice`, `ALICE` and `A1ice` are one name.
//!
//! # Chat
//! At most [`MAX_CHAT_CHARS`] characters of UTF-8; the server removes control characters and
//! drops lines left empty.

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

/// A chat line as the server relays it: control characters removed, trimmed, at most
/// [`MAX_CHAT_CHARS`]; `None` if nothing is left or it is too long.
pub fn clean_chat(text: &str) -> Option<String> {
    if text.chars().count() > MAX_CHAT_CHARS {
        return None;
    }
    let cleaned: String = text.chars().filter(|c| !c.is_control()).collect();
    let cleaned = cleaned.trim();
    (!cleaned.is_empty()).then(|| cleaned.to_string())
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
