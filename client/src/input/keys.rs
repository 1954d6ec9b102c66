//! Key names: the words the settings file and the settings screen use for keyboard keys.
//!
//! macroquad's `KeyCode` has no serde support and no stable text form, so the table below is the
//! one place that names keys. Unknown names in a settings file are an error, not a silent skip.

use macroquad::input::KeyCode;

/// Every key a binding may use, with its name. Order is the order the settings screen cycles.
const NAMES: &[(KeyCode, &str)] = &[
    (KeyCode::Left, "Left"),
    (KeyCode::Right, "Right"),
    (KeyCode::Up, "Up"),
    (KeyCode::Down, "Down"),
    (KeyCode::Space, "Space"),
    (KeyCode::Enter, "Enter"),
    (KeyCode::Tab, "Tab"),
    (KeyCode::Backspace, "Backspace"),
    (KeyCode::Insert, "Insert"),
    (KeyCode::Delete, "Delete"),
    (KeyCode::Home, "Home"),
    (KeyCode::End, "End"),
    (KeyCode::PageUp, "PageUp"),
    (KeyCode::PageDown, "PageDown"),
    (KeyCode::LeftShift, "LeftShift"),
    (KeyCode::RightShift, "RightShift"),
    (KeyCode::LeftControl, "LeftCtrl"),
    (KeyCode::RightControl, "RightCtrl"),
    (KeyCode::LeftAlt, "LeftAlt"),
    (KeyCode::RightAlt, "RightAlt"),
    (KeyCode::CapsLock, "CapsLock"),
    (KeyCode::A, "A"),
    (KeyCode::B, "B"),
    (KeyCode::C, "C"),
    (KeyCode::D, "D"),
    (KeyCode::E, "E"),
    (KeyCode::F, "F"),
    (KeyCode::G, "G"),
    (KeyCode::H, "H"),
    (KeyCode::I, "I"),
    (KeyCode::J, "J"),
    (KeyCode::K, "K"),
    (KeyCode::L, "L"),
    (KeyCode::M, "M"),
    (KeyCode::N, "N"),
    (KeyCode::O, "O"),
    (KeyCode::P, "P"),
    (KeyCode::Q, "Q"),
    (KeyCode::R, "R"),
    (KeyCode::S, "S"),
    (KeyCode::T, "T"),
    (KeyCode::U, "U"),
    (KeyCode::V, "V"),
    (KeyCode::W, "W"),
    (KeyCode::X, "X"),
    (KeyCode::Y, "Y"),
    (KeyCode::Z, "Z"),
    (KeyCode::Key0, "0"),
    (KeyCode::Key1, "1"),
    (KeyCode::Key2, "2"),
    (KeyCode::Key3, "3"),
    (KeyCode::Key4, "4"),
    (KeyCode::Key5, "5"),
    (KeyCode::Key6, "6"),
    (KeyCode::Key7, "7"),
    (KeyCode::Key8, "8"),
    (KeyCode::Key9, "9"),
    (KeyCode::Comma, "Comma"),
    (KeyCode::Period, "Period"),
    (KeyCode::Slash, "Slash"),
    (KeyCode::Semicolon, "Semicolon"),
    (KeyCode::Apostrophe, "Apostrophe"),
    (KeyCode::Minus, "Minus"),
    (KeyCode::Equal, "Equal"),
    (KeyCode::LeftBracket, "LeftBracket"),
    (KeyCode::RightBracket, "RightBracket"),
    (KeyCode::Backslash, "Backslash"),
    (KeyCode::GraveAccent, "Grave"),
    (KeyCode::Kp0, "Num0"),
    (KeyCode::Kp1, "Num1"),
    (KeyCode::Kp2, "Num2"),
    (KeyCode::Kp3, "Num3"),
    (KeyCode::Kp4, "Num4"),
    (KeyCode::Kp5, "Num5"),
    (KeyCode::Kp6, "Num6"),
    (KeyCode::Kp7, "Num7"),
    (KeyCode::Kp8, "Num8"),
    (KeyCode::Kp9, "Num9"),
    (KeyCode::KpEnter, "NumEnter"),
    (KeyCode::KpAdd, "NumAdd"),
    (KeyCode::KpSubtract, "NumSubtract"),
    (KeyCode::KpMultiply, "NumMultiply"),
    (KeyCode::KpDivide, "NumDivide"),
    (KeyCode::KpDecimal, "NumDecimal"),
    (KeyCode::F1, "F1"),
    (KeyCode::F2, "F2"),
    (KeyCode::F3, "F3"),
    (KeyCode::F4, "F4"),
    (KeyCode::F5, "F5"),
    (KeyCode::F6, "F6"),
    (KeyCode::F7, "F7"),
    (KeyCode::F8, "F8"),
    (KeyCode::F9, "F9"),
    (KeyCode::F10, "F10"),
    (KeyCode::F11, "F11"),
    (KeyCode::F12, "F12"),
];

/// The settings-file name of `key`, or `None` for keys a binding may not use (Escape among them:
/// it always opens the menu).
pub fn key_name(key: KeyCode) -> Option<&'static str> {
    NAMES.iter().find(|(k, _)| *k == key).map(|(_, n)| *n)
}

/// The key called `name` (case-insensitive), as written by [`key_name`].
pub fn key_from_name(name: &str) -> Option<KeyCode> {
    NAMES
        .iter()
        .find(|(_, n)| n.eq_ignore_ascii_case(name.trim()))
        .map(|(k, _)| *k)
}

/// Every key cap label a binding may show, for the layout tests.
#[cfg(test)]
pub fn all_labels() -> Vec<String> {
    NAMES.iter().map(|(k, _)| key_label(*k)).collect()
}

/// A short label for drawing `key` in a key cap ("←" for Left, "Ctrl" for LeftCtrl, ...).
pub fn key_label(key: KeyCode) -> String {
    match key {
        KeyCode::Left => "←".into(),
        KeyCode::Right => "→".into(),
        KeyCode::Up => "↑".into(),
        KeyCode::Down => "↓".into(),
        KeyCode::LeftShift => "L-Shift".into(),
        KeyCode::RightShift => "R-Shift".into(),
        KeyCode::LeftControl => "L-Ctrl".into(),
        KeyCode::RightControl => "R-Ctrl".into(),
        KeyCode::LeftAlt => "L-Alt".into(),
        KeyCode::RightAlt => "R-Alt".into(),
        KeyCode::Comma => ",".into(),
        KeyCode::Period => ".".into(),
        KeyCode::Slash => "/".into(),
        KeyCode::Semicolon => ";".into(),
        KeyCode::Apostrophe => "'".into(),
        KeyCode::Minus => "-".into(),
        KeyCode::Equal => "=".into(),
        KeyCode::LeftBracket => "[".into(),
        KeyCode::RightBracket => "]".into(),
        KeyCode::Backslash => "\\".into(),
        KeyCode::GraveAccent => "`".into(),
        other => key_name(other).unwrap_or("?").to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_unique() {
        for (i, (key, name)) in NAMES.iter().enumerate() {
            assert_eq!(key_from_name(name), Some(*key), "{name}");
            assert_eq!(key_name(*key), Some(*name));
            for (other_key, other) in &NAMES[i + 1..] {
                assert_ne!(key, other_key);
                assert!(!name.eq_ignore_ascii_case(other), "{name} twice");
            }
        }
    }

    #[test]
    fn escape_cannot_be_bound() {
        assert_eq!(key_name(KeyCode::Escape), None);
        assert_eq!(key_from_name("Escape"), None);
        assert_eq!(key_from_name("  space "), Some(KeyCode::Space));
        assert_eq!(key_from_name("Nonsense"), None);
    }
}
