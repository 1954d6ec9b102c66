//! Keyboard to [`Input`]: the eight game actions, key maps, and the latch that keeps taps.
//!
//! Keys are sampled once per *rendered* frame ([`Keyboard`]), while the rules advance at a fixed
//! 60 Hz. A [`Latch`] remembers every press seen since the last simulation step, so a key that was
//! pressed and released between two steps is still held for one simulation frame (SPEC §3): no tap
//! is lost however the display rate and the simulation rate line up.
//!
//! Key names (for the settings file and screen) are in [`keys`]; gamepads, which reach the game
//! through the same [`Keyboard`], in [`pad`]; a touch screen's on-screen controls, which reach it
//! the same way, in [`touch`]; the order of a frame's presses and typed text, which menus and
//! forms need when they are drawn a few times a second, in [`queue`].

pub mod button;
pub mod keys;
pub mod pad;
pub mod queue;
pub mod taps;
pub mod touch;

use std::collections::HashSet;

use macroquad::input::KeyCode;
use sevenbag_core::Input;

use crate::input::button::Button;

/// A game action a key can be bound to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Move left.
    MoveLeft,
    /// Move right.
    MoveRight,
    /// Soft drop.
    SoftDrop,
    /// Hard drop.
    HardDrop,
    /// Rotate clockwise.
    RotateCw,
    /// Rotate counter-clockwise.
    RotateCcw,
    /// Rotate 180°.
    Rotate180,
    /// Hold.
    Hold,
}

impl Action {
    /// All actions in the order the settings screen lists them.
    pub const ALL: [Action; 8] = [
        Action::MoveLeft,
        Action::MoveRight,
        Action::SoftDrop,
        Action::HardDrop,
        Action::RotateCw,
        Action::RotateCcw,
        Action::Rotate180,
        Action::Hold,
    ];

    /// The bit of the input mask this action holds.
    pub const fn bit(self) -> Input {
        match self {
            Action::MoveLeft => Input::LEFT,
            Action::MoveRight => Input::RIGHT,
            Action::SoftDrop => Input::SOFT_DROP,
            Action::HardDrop => Input::HARD_DROP,
            Action::RotateCw => Input::ROTATE_CW,
            Action::RotateCcw => Input::ROTATE_CCW,
            Action::Rotate180 => Input::ROTATE_180,
            Action::Hold => Input::HOLD,
        }
    }

    /// What the settings screen calls it.
    pub const fn label(self) -> &'static str {
        match self {
            Action::MoveLeft => "Move left",
            Action::MoveRight => "Move right",
            Action::SoftDrop => "Soft drop",
            Action::HardDrop => "Hard drop",
            Action::RotateCw => "Rotate clockwise",
            Action::RotateCcw => "Rotate counter-clockwise",
            Action::Rotate180 => "Rotate 180°",
            Action::Hold => "Hold",
        }
    }

    /// Its key in the settings file.
    pub const fn config_key(self) -> &'static str {
        match self {
            Action::MoveLeft => "move_left",
            Action::MoveRight => "move_right",
            Action::SoftDrop => "soft_drop",
            Action::HardDrop => "hard_drop",
            Action::RotateCw => "rotate_cw",
            Action::RotateCcw => "rotate_ccw",
            Action::Rotate180 => "rotate_180",
            Action::Hold => "hold",
        }
    }

    const fn index(self) -> usize {
        self as usize
    }
}

/// Keys per action: a primary and an optional secondary binding.
pub const SLOTS: usize = 2;

/// The number keys 1 to 9 above the letters, in order: lists choose their first rows with
/// them (a profile's matches, a room's seats, a statistics chart).
pub const DIGIT_KEYS: [KeyCode; 9] = [
    KeyCode::Key1,
    KeyCode::Key2,
    KeyCode::Key3,
    KeyCode::Key4,
    KeyCode::Key5,
    KeyCode::Key6,
    KeyCode::Key7,
    KeyCode::Key8,
    KeyCode::Key9,
];

/// Which keys hold which action. Escape is never bound: it always opens the menu.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyMap {
    keys: [[Option<KeyCode>; SLOTS]; 8],
}

impl KeyMap {
    /// An empty map.
    pub const fn empty() -> KeyMap {
        KeyMap {
            keys: [[None; SLOTS]; 8],
        }
    }

    fn from_table(table: [(Action, [Option<KeyCode>; SLOTS]); 8]) -> KeyMap {
        let mut map = KeyMap::empty();
        for (action, keys) in table {
            map.keys[action.index()] = keys;
        }
        map
    }

    /// Guideline defaults for solo play: ←/→ move, ↓ soft drop, Space hard drop, ↑/X rotate
    /// clockwise, Z/Ctrl counter-clockwise, A 180°, C/Shift hold.
    pub fn guideline() -> KeyMap {
        use KeyCode as K;
        KeyMap::from_table([
            (Action::MoveLeft, [Some(K::Left), None]),
            (Action::MoveRight, [Some(K::Right), None]),
            (Action::SoftDrop, [Some(K::Down), None]),
            (Action::HardDrop, [Some(K::Space), None]),
            (Action::RotateCw, [Some(K::Up), Some(K::X)]),
            (Action::RotateCcw, [Some(K::Z), Some(K::LeftControl)]),
            (Action::Rotate180, [Some(K::A), None]),
            (Action::Hold, [Some(K::C), Some(K::LeftShift)]),
        ])
    }

    /// The left player of a local two-player match: the left half of the keyboard.
    pub fn local_left() -> KeyMap {
        use KeyCode as K;
        KeyMap::from_table([
            (Action::MoveLeft, [Some(K::A), None]),
            (Action::MoveRight, [Some(K::D), None]),
            (Action::SoftDrop, [Some(K::S), None]),
            (Action::HardDrop, [Some(K::W), None]),
            (Action::RotateCw, [Some(K::E), None]),
            (Action::RotateCcw, [Some(K::Q), None]),
            (Action::Rotate180, [Some(K::R), None]),
            (Action::Hold, [Some(K::LeftShift), None]),
        ])
    }

    /// The right player of a local two-player match: the arrows and the keys beside them.
    pub fn local_right() -> KeyMap {
        use KeyCode as K;
        KeyMap::from_table([
            (Action::MoveLeft, [Some(K::Left), None]),
            (Action::MoveRight, [Some(K::Right), None]),
            (Action::SoftDrop, [Some(K::Down), None]),
            (Action::HardDrop, [Some(K::Up), None]),
            (Action::RotateCw, [Some(K::Period), None]),
            (Action::RotateCcw, [Some(K::Comma), None]),
            (Action::Rotate180, [Some(K::Slash), None]),
            (Action::Hold, [Some(K::RightShift), None]),
        ])
    }

    /// The keys bound to `action`.
    pub fn keys(&self, action: Action) -> [Option<KeyCode>; SLOTS] {
        self.keys[action.index()]
    }

    /// Binds `key` to `action` in `slot`. A key does one thing per map: any other binding of
    /// the same key is cleared, so remapping never leaves a key doing two jobs.
    pub fn bind(&mut self, action: Action, slot: usize, key: KeyCode) {
        for keys in &mut self.keys {
            for k in keys.iter_mut() {
                if *k == Some(key) {
                    *k = None;
                }
            }
        }
        self.keys[action.index()][slot.min(SLOTS - 1)] = Some(key);
    }

    /// Removes the binding in `slot` of `action`.
    pub fn clear(&mut self, action: Action, slot: usize) {
        self.keys[action.index()][slot.min(SLOTS - 1)] = None;
    }

    /// The mask of actions that have at least one key in `keys`.
    pub fn mask(&self, keys: &HashSet<KeyCode>) -> Input {
        let mut mask = Input::NONE;
        for action in Action::ALL {
            if self.keys(action).iter().flatten().any(|k| keys.contains(k)) {
                mask = mask.with(action.bit());
            }
        }
        mask
    }
}

/// `preferred`, unless it is one of the game keys of `map`: then `fallback`. The training keys
/// (undo, redo, reset, pause) use it so a key bound to a game action never does two jobs.
pub fn free_key(map: &KeyMap, preferred: KeyCode, fallback: KeyCode) -> KeyCode {
    let keys: HashSet<KeyCode> = [preferred].into_iter().collect();
    if map.mask(&keys).is_empty() {
        preferred
    } else {
        fallback
    }
}

/// The keyboard as seen on one rendered frame.
#[derive(Clone, Debug, Default)]
pub struct Keyboard {
    /// Keys down at the end of the frame.
    pub down: HashSet<KeyCode>,
    /// Keys whose press arrived during the frame (even if already released).
    pub pressed: HashSet<KeyCode>,
    /// Text typed during the frame, for name and address fields.
    pub chars: Vec<char>,
    /// Game actions held on a gamepad (through the pad map; see [`crate::input::pad`]).
    pub pad_down: Input,
    /// Game actions whose pad button was pressed during the frame.
    pub pad_pressed: Input,
    /// Menu keys a gamepad pressed this frame (A is Enter, the d-pad the arrows, ...): seen by
    /// [`Keyboard::pressed`], never by the game latch.
    pub menu: HashSet<KeyCode>,
    /// Pad buttons pressed this frame (for binding them in Settings).
    pub pad_buttons: HashSet<Button>,
    /// The frame's presses and typed characters in arrival order (empty when not read from
    /// the window); [`Keyboard::in_order`] cuts the frame by them.
    pub events: Vec<queue::KeyEvent>,
}

impl Keyboard {
    /// Reads macroquad's keyboard state for this frame.
    pub fn sample() -> Keyboard {
        let mut chars = Vec::new();
        while let Some(c) = macroquad::input::get_char_pressed() {
            chars.push(c);
        }
        Keyboard {
            down: macroquad::input::get_keys_down(),
            pressed: macroquad::input::get_keys_pressed(),
            chars,
            events: queue::take_events(),
            ..Keyboard::default()
        }
    }

    /// True when `key` was pressed this frame (on the keyboard, or its gamepad menu button).
    pub fn pressed(&self, key: KeyCode) -> bool {
        self.pressed.contains(&key) || self.menu.contains(&key)
    }

    /// True when any of `keys` was pressed this frame.
    pub fn pressed_any(&self, keys: &[KeyCode]) -> bool {
        keys.iter().any(|k| self.pressed(*k))
    }
}

/// Turns rendered-frame key samples into one [`Input`] per simulation step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Latch {
    held: Input,
    latched: Input,
}

impl Latch {
    /// Records one rendered frame of `keyboard` through `map`: keys down now are held, and keys
    /// pressed during the frame are latched until the next simulation step takes them. A
    /// gamepad's actions (already through its pad map) join the keys' here, so DAS, ARR and
    /// taps treat both alike.
    pub fn sample(&mut self, map: &KeyMap, keyboard: &Keyboard) {
        self.held = map.mask(&keyboard.down).with(keyboard.pad_down);
        self.latched = self
            .latched
            .with(map.mask(&keyboard.pressed))
            .with(keyboard.pad_pressed);
    }

    /// The input of the next simulation step: every key down now, plus every key pressed since
    /// the previous step (so a tap is held for exactly one step).
    pub fn take(&mut self) -> Input {
        let input = self.held.with(self.latched);
        self.latched = Input::NONE;
        input
    }

    /// Forgets everything (on pause, or when a match starts).
    pub fn reset(&mut self) {
        *self = Latch::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kb(down: &[KeyCode], pressed: &[KeyCode]) -> Keyboard {
        Keyboard {
            down: down.iter().copied().collect(),
            pressed: pressed.iter().copied().collect(),
            ..Keyboard::default()
        }
    }

    #[test]
    fn guideline_keys_map_to_the_right_bits() {
        let map = KeyMap::guideline();
        let cases = [
            (KeyCode::Left, Input::LEFT),
            (KeyCode::Right, Input::RIGHT),
            (KeyCode::Down, Input::SOFT_DROP),
            (KeyCode::Space, Input::HARD_DROP),
            (KeyCode::Up, Input::ROTATE_CW),
            (KeyCode::X, Input::ROTATE_CW),
            (KeyCode::Z, Input::ROTATE_CCW),
            (KeyCode::LeftControl, Input::ROTATE_CCW),
            (KeyCode::A, Input::ROTATE_180),
            (KeyCode::C, Input::HOLD),
            (KeyCode::LeftShift, Input::HOLD),
        ];
        for (key, bit) in cases {
            assert_eq!(map.mask(&kb(&[key], &[]).down), bit, "{key:?}");
        }
        assert_eq!(map.mask(&kb(&[KeyCode::Escape], &[]).down), Input::NONE);
        let both = kb(&[KeyCode::Left, KeyCode::Space], &[]);
        assert_eq!(map.mask(&both.down), Input::LEFT | Input::HARD_DROP);
    }

    #[test]
    fn local_maps_do_not_share_keys() {
        let (l, r) = (KeyMap::local_left(), KeyMap::local_right());
        for a in Action::ALL {
            for b in Action::ALL {
                for k in l.keys(a).iter().flatten() {
                    assert!(!r.keys(b).contains(&Some(*k)), "{k:?} in both maps");
                }
            }
        }
    }

    #[test]
    fn binding_a_key_moves_it() {
        let mut map = KeyMap::guideline();
        map.bind(Action::Hold, 0, KeyCode::Space);
        assert_eq!(map.keys(Action::Hold)[0], Some(KeyCode::Space));
        assert_eq!(map.keys(Action::HardDrop), [None, None]);
        assert_eq!(map.mask(&kb(&[KeyCode::Space], &[]).down), Input::HOLD);
        map.clear(Action::Hold, 1);
        assert_eq!(map.keys(Action::Hold)[1], None);
    }

    #[test]
    fn a_tap_within_one_frame_is_held_for_one_step() {
        let map = KeyMap::guideline();
        let mut latch = Latch::default();
        // Space went down and up between two rendered frames: only `pressed` saw it.
        latch.sample(&map, &kb(&[], &[KeyCode::Space]));
        assert_eq!(latch.take(), Input::HARD_DROP);
        // The next step of the same rendered frame sees it released: a clean edge.
        assert_eq!(latch.take(), Input::NONE);
    }

    #[test]
    fn taps_across_several_frames_wait_for_the_next_step() {
        let map = KeyMap::guideline();
        let mut latch = Latch::default();
        // A 240 Hz display: three rendered frames before the next simulation step.
        latch.sample(&map, &kb(&[], &[KeyCode::Z]));
        latch.sample(&map, &kb(&[KeyCode::Left], &[KeyCode::Left]));
        latch.sample(&map, &kb(&[KeyCode::Left], &[]));
        assert_eq!(latch.take(), Input::ROTATE_CCW | Input::LEFT);
        latch.sample(&map, &kb(&[KeyCode::Left], &[]));
        assert_eq!(latch.take(), Input::LEFT);
        latch.reset();
        assert_eq!(latch.take(), Input::NONE);
    }

    #[test]
    fn held_keys_stay_held() {
        let map = KeyMap::guideline();
        let mut latch = Latch::default();
        latch.sample(&map, &kb(&[KeyCode::Down], &[KeyCode::Down]));
        for _ in 0..3 {
            assert_eq!(latch.take(), Input::SOFT_DROP);
        }
    }
}
