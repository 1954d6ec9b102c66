//! Gamepad buttons by position and their names in the settings file and on screen. Plain
//! data, so the key maps ([`crate::input`]), the pad map and its reader ([`crate::input::pad`])
//! and the settings file all name a button without importing each other.

/// A gamepad button, by position (the south face button is A on an Xbox pad, Cross on a
/// PlayStation one). The left stick counts as the d-pad.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Button {
    /// Bottom face button (A / Cross).
    South,
    /// Right face button (B / Circle).
    East,
    /// Left face button (X / Square).
    West,
    /// Top face button (Y / Triangle).
    North,
    /// Left bumper.
    LeftBumper,
    /// Right bumper.
    RightBumper,
    /// Left trigger.
    LeftTrigger,
    /// Right trigger.
    RightTrigger,
    /// Select / Back / View.
    Select,
    /// Start / Menu.
    Start,
    /// Left stick click.
    LeftStick,
    /// Right stick click.
    RightStick,
    /// D-pad up (or the left stick pushed up).
    Up,
    /// D-pad down.
    Down,
    /// D-pad left.
    Left,
    /// D-pad right.
    Right,
}

/// Every button with its settings-file name.
pub const NAMES: [(Button, &str); 16] = [
    (Button::South, "A"),
    (Button::East, "B"),
    (Button::West, "X"),
    (Button::North, "Y"),
    (Button::LeftBumper, "LB"),
    (Button::RightBumper, "RB"),
    (Button::LeftTrigger, "LT"),
    (Button::RightTrigger, "RT"),
    (Button::Select, "Select"),
    (Button::Start, "Start"),
    (Button::LeftStick, "LS"),
    (Button::RightStick, "RS"),
    (Button::Up, "Up"),
    (Button::Down, "Down"),
    (Button::Left, "Left"),
    (Button::Right, "Right"),
];

impl Button {
    /// Every button's name, for the layout tests.
    #[cfg(test)]
    pub fn all_names() -> Vec<&'static str> {
        NAMES.iter().map(|(_, n)| *n).collect()
    }

    /// Its name in the settings file and on screen ("A", "LB", "Up", ...).
    pub fn name(self) -> &'static str {
        NAMES
            .iter()
            .find(|(b, _)| *b == self)
            .map_or("?", |(_, n)| *n)
    }

    /// The button called `name` (case-insensitive).
    pub fn from_name(name: &str) -> Option<Button> {
        NAMES
            .iter()
            .find(|(_, n)| n.eq_ignore_ascii_case(name.trim()))
            .map(|(b, _)| *b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_unique() {
        for (i, (b, n)) in NAMES.iter().enumerate() {
            assert_eq!(Button::from_name(n), Some(*b));
            assert_eq!(b.name(), *n);
            assert!(NAMES[i + 1..].iter().all(|(o, m)| o != b && m != n));
        }
        assert_eq!(Button::from_name(" lb "), Some(Button::LeftBumper));
        assert_eq!(Button::from_name("Banana"), None);
    }
}
