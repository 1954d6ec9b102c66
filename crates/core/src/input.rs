//! One player's input for one frame: the set of keys held, as a bitmask.
//!
//! Presses are the edges between consecutive frames' masks. The client latches a key that was
//! pressed and released within one frame so that it is held for at least that frame.

use serde::{Deserialize, Serialize};

/// Keys held during one frame (SPEC §3): bit 0 left, 1 right, 2 soft drop, 3 hard drop,
/// 4 rotate clockwise, 5 rotate counter-clockwise, 6 rotate 180, 7 hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Input(pub u8);

impl Input {
    /// No key held.
    pub const NONE: Input = Input(0);
    /// Move left.
    pub const LEFT: Input = Input(1 << 0);
    /// Move right.
    pub const RIGHT: Input = Input(1 << 1);
    /// Soft drop.
    pub const SOFT_DROP: Input = Input(1 << 2);
    /// Hard drop.
    pub const HARD_DROP: Input = Input(1 << 3);
    /// Rotate clockwise.
    pub const ROTATE_CW: Input = Input(1 << 4);
    /// Rotate counter-clockwise.
    pub const ROTATE_CCW: Input = Input(1 << 5);
    /// Rotate 180°.
    pub const ROTATE_180: Input = Input(1 << 6);
    /// Hold.
    pub const HOLD: Input = Input(1 << 7);

    /// True when every key of `keys` is held.
    pub const fn contains(self, keys: Input) -> bool {
        self.0 & keys.0 == keys.0
    }

    /// Keys held now that were not held in `previous`: this frame's presses.
    pub const fn pressed_since(self, previous: Input) -> Input {
        Input(self.0 & !previous.0)
    }

    /// Both sets of keys together.
    pub const fn with(self, keys: Input) -> Input {
        Input(self.0 | keys.0)
    }

    /// True when no key is held.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl std::ops::BitOr for Input {
    type Output = Input;
    fn bitor(self, rhs: Input) -> Input {
        self.with(rhs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_press_is_an_edge_between_frames() {
        let before = Input::LEFT;
        let now = Input::LEFT | Input::HARD_DROP;
        assert_eq!(now.pressed_since(before), Input::HARD_DROP);
    }
}
