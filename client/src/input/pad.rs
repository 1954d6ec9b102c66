//! Gamepads: the button map (remappable in Settings like the keys), and how a pad
//! reaches the game. macroquad has no gamepad API, so the devices are read with `gilrs` (the
//! maintained cross-platform gamepad crate: evdev on Linux, XInput/WGI on Windows, IOKit on
//! macOS) behind the `gamepad` cargo feature (docs/CLIENT.md#gamepads says why it is off by
//! default). Everything here but [`Pads`] is plain logic and always built, so it is tested
//! without hardware.
//!
//! A pad reaches the screens through the same [`Keyboard`] sample as the keys, twice over:
//! - **Play:** each frame the buttons held and pressed go through the [`PadMap`] into action
//!   masks ([`Keyboard::pad_down`], [`Keyboard::pad_pressed`]), which the [`crate::input::Latch`]
//!   merges with the keys' masks. DAS, ARR and taps shorter than a frame therefore work exactly
//!   as for keys: the core sees one input mask either way.
//! - **Menus:** the d-pad and left stick are the arrow keys, A (south) is Enter, B (east) and
//!   Start are Escape ([`menu_key`]). These are added to [`Keyboard::pressed`] lookups only
//!   (never to the game latch), and a button bound to a game action is never Escape, so a
//!   rotate on B does not pause the game; Start always does.
#![cfg_attr(not(feature = "gamepad"), allow(dead_code))]

use std::collections::HashSet;

use macroquad::input::KeyCode;
use sevenbag_core::Input;

use crate::input::button::Button;
use crate::input::{Action, Keyboard, SLOTS};
use crate::platform::PAGE_PAD_BYTES;

/// Which buttons hold which action: like [`crate::input::KeyMap`], two slots per action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PadMap {
    buttons: [[Option<Button>; SLOTS]; 8],
}

impl Default for PadMap {
    fn default() -> Self {
        PadMap::standard()
    }
}

impl PadMap {
    /// An empty map.
    pub const fn empty() -> PadMap {
        PadMap {
            buttons: [[None; SLOTS]; 8],
        }
    }

    /// The default: d-pad (or stick) left/right move, down soft drops, up hard drops; A rotates
    /// clockwise, X counter-clockwise, Y 180°, either bumper holds. B stays free: it is Back.
    pub fn standard() -> PadMap {
        use Button as B;
        let mut map = PadMap::empty();
        for (action, buttons) in [
            (Action::MoveLeft, [Some(B::Left), None]),
            (Action::MoveRight, [Some(B::Right), None]),
            (Action::SoftDrop, [Some(B::Down), None]),
            (Action::HardDrop, [Some(B::Up), None]),
            (Action::RotateCw, [Some(B::South), None]),
            (Action::RotateCcw, [Some(B::West), None]),
            (Action::Rotate180, [Some(B::North), None]),
            (Action::Hold, [Some(B::LeftBumper), Some(B::RightBumper)]),
        ] {
            map.buttons[action as usize] = buttons;
        }
        map
    }

    /// The buttons bound to `action`.
    pub fn buttons(&self, action: Action) -> [Option<Button>; SLOTS] {
        self.buttons[action as usize]
    }

    /// Binds `button` to `action` in `slot`, clearing any other binding of it (one job per
    /// button, as with keys).
    pub fn bind(&mut self, action: Action, slot: usize, button: Button) {
        for buttons in &mut self.buttons {
            for b in buttons.iter_mut() {
                if *b == Some(button) {
                    *b = None;
                }
            }
        }
        self.buttons[action as usize][slot.min(SLOTS - 1)] = Some(button);
    }

    /// Removes the binding in `slot` of `action`.
    pub fn clear(&mut self, action: Action, slot: usize) {
        self.buttons[action as usize][slot.min(SLOTS - 1)] = None;
    }

    /// Whether `button` does a game action.
    pub fn is_bound(&self, button: Button) -> bool {
        self.buttons.iter().flatten().any(|b| *b == Some(button))
    }

    /// The mask of actions with at least one button in `buttons`.
    pub fn mask(&self, buttons: &HashSet<Button>) -> Input {
        let mut mask = Input::NONE;
        for action in Action::ALL {
            if self
                .buttons(action)
                .iter()
                .flatten()
                .any(|b| buttons.contains(b))
            {
                mask = mask.with(action.bit());
            }
        }
        mask
    }
}

/// The menu key a pad button stands for: arrows on the d-pad, Enter on A, Escape on Start, and
/// Escape on B unless B is bound to a game action (then it must not pause the game).
pub fn menu_key(button: Button, map: &PadMap) -> Option<KeyCode> {
    match button {
        Button::Up => Some(KeyCode::Up),
        Button::Down => Some(KeyCode::Down),
        Button::Left => Some(KeyCode::Left),
        Button::Right => Some(KeyCode::Right),
        Button::South => Some(KeyCode::Enter),
        Button::Start => Some(KeyCode::Escape),
        Button::East if !map.is_bound(Button::East) => Some(KeyCode::Escape),
        _ => None,
    }
}

/// How far a stick must be pushed to count as the d-pad (of 1.0).
pub const STICK_DEAD_ZONE: f32 = 0.5;

/// The d-pad buttons a stick at (`x`, `y`) stands for (y up is positive, as gilrs reports it).
pub fn stick_buttons(x: f32, y: f32) -> impl Iterator<Item = Button> {
    [
        (x <= -STICK_DEAD_ZONE, Button::Left),
        (x >= STICK_DEAD_ZONE, Button::Right),
        (y >= STICK_DEAD_ZONE, Button::Up),
        (y <= -STICK_DEAD_ZONE, Button::Down),
    ]
    .into_iter()
    .filter_map(|(on, b)| on.then_some(b))
}

/// The buttons of every connected pad on one rendered frame.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PadFrame {
    /// Buttons down at the end of the frame.
    pub down: HashSet<Button>,
    /// Buttons whose press arrived during the frame (even if already released).
    pub pressed: HashSet<Button>,
}

impl PadFrame {
    /// Adds this frame to `keyboard`: action masks for the game, menu keys for the screens.
    pub fn apply(&self, map: &PadMap, keyboard: &mut Keyboard) {
        keyboard.pad_down = map.mask(&self.down);
        keyboard.pad_pressed = map.mask(&self.pressed);
        keyboard.menu = self
            .pressed
            .iter()
            .filter_map(|b| menu_key(*b, map))
            .collect();
        keyboard.pad_buttons = self.pressed.clone();
    }
}

// The page's gamepads are read only in the browser build; natively (with gilrs under the
// `gamepad` feature) these are compiled for their tests alone.

/// One gamepad as a browser page reports it through the Gamepad API.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub struct PagePad {
    /// The pad follows the browser's standard mapping (button 0 the south face button...).
    pub standard: bool,
    /// Bit `i` is set while button `i` is pressed.
    pub buttons: u32,
    /// The first four axes, -1 to 1 (left stick x, then y with down positive; right stick).
    pub axes: [f32; 4],
}

/// Reads the page's report: per pad, u8 index, u8 standard mapping, u8 buttons, u8 axes, u32
/// pressed bits, 4 f32 axes (all little-endian). A cut report keeps its whole pads.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub fn parse_page_pads(bytes: &[u8]) -> Vec<PagePad> {
    bytes
        .chunks_exact(PAGE_PAD_BYTES)
        .map(|c| {
            let f = |at: usize| {
                let v = f32::from_le_bytes([c[at], c[at + 1], c[at + 2], c[at + 3]]);
                if v.is_finite() {
                    v.clamp(-1.0, 1.0)
                } else {
                    0.0
                }
            };
            PagePad {
                standard: c[1] == 1,
                buttons: u32::from_le_bytes([c[4], c[5], c[6], c[7]]),
                axes: [f(8), f(12), f(16), f(20)],
            }
        })
        .collect()
}

/// The standard mapping's buttons by index (the W3C Gamepad specification's table).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
const STANDARD: [Button; 16] = [
    Button::South,
    Button::East,
    Button::West,
    Button::North,
    Button::LeftBumper,
    Button::RightBumper,
    Button::LeftTrigger,
    Button::RightTrigger,
    Button::Select,
    Button::Start,
    Button::LeftStick,
    Button::RightStick,
    Button::Up,
    Button::Down,
    Button::Left,
    Button::Right,
];

/// A browser page's gamepads, frame by frame: the buttons held (the left stick as the d-pad),
/// and pressed when they were not held the frame before. Pads without the standard mapping
/// are left out (their buttons mean nothing known).
#[derive(Clone, Debug, Default)]
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub struct PagePads {
    down: HashSet<Button>,
}

#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
impl PagePads {
    /// This frame's [`PadFrame`] from the page's `pads`.
    pub fn frame(&mut self, pads: &[PagePad]) -> PadFrame {
        let mut down = HashSet::new();
        for pad in pads.iter().filter(|p| p.standard) {
            for (i, b) in STANDARD.iter().enumerate() {
                if pad.buttons & (1 << i) != 0 {
                    down.insert(*b);
                }
            }
            // The page's y axis points down; the stick's buttons want up positive.
            down.extend(stick_buttons(pad.axes[0], -pad.axes[1]));
        }
        let pressed = down.difference(&self.down).copied().collect();
        self.down = down.clone();
        PadFrame { down, pressed }
    }
}

/// The connected gamepads (the `gamepad` feature).
#[cfg(feature = "gamepad")]
pub struct Pads {
    gilrs: gilrs::Gilrs,
    /// Stick directions held on the previous frame, to turn a push into one press.
    stick: HashSet<Button>,
}

#[cfg(feature = "gamepad")]
impl Pads {
    /// Opens the gamepad system; `None` (logged) when the platform refuses.
    pub fn open() -> Option<Pads> {
        match gilrs::Gilrs::new() {
            Ok(gilrs) => Some(Pads {
                gilrs,
                stick: HashSet::new(),
            }),
            Err(e) => {
                tracing::warn!("gamepads unavailable: {e}");
                None
            }
        }
    }

    fn button(b: gilrs::Button) -> Option<Button> {
        use gilrs::Button as G;
        Some(match b {
            G::South => Button::South,
            G::East => Button::East,
            G::West => Button::West,
            G::North => Button::North,
            G::LeftTrigger => Button::LeftBumper,
            G::RightTrigger => Button::RightBumper,
            G::LeftTrigger2 => Button::LeftTrigger,
            G::RightTrigger2 => Button::RightTrigger,
            G::Select => Button::Select,
            G::Start => Button::Start,
            G::LeftThumb => Button::LeftStick,
            G::RightThumb => Button::RightStick,
            G::DPadUp => Button::Up,
            G::DPadDown => Button::Down,
            G::DPadLeft => Button::Left,
            G::DPadRight => Button::Right,
            _ => return None,
        })
    }

    /// Reads every event since the last frame and the buttons held now.
    pub fn frame(&mut self) -> PadFrame {
        let mut out = PadFrame::default();
        while let Some(ev) = self.gilrs.next_event() {
            if let gilrs::EventType::ButtonPressed(b, _) = ev.event
                && let Some(b) = Self::button(b)
            {
                out.pressed.insert(b);
            }
        }
        let mut stick = HashSet::new();
        for (_, pad) in self.gilrs.gamepads() {
            for (g, b) in crate::input::button::NAMES
                .iter()
                .filter_map(|(b, _)| Some((gilrs_of(*b)?, *b)))
            {
                if pad.is_pressed(g) {
                    out.down.insert(b);
                }
            }
            let (x, y) = (
                pad.value(gilrs::Axis::LeftStickX),
                pad.value(gilrs::Axis::LeftStickY),
            );
            stick.extend(stick_buttons(x, y));
        }
        for b in &stick {
            if !self.stick.contains(b) {
                out.pressed.insert(*b);
            }
        }
        out.down.extend(stick.iter().copied());
        self.stick = stick;
        out
    }
}

/// The gilrs button for one of ours.
#[cfg(feature = "gamepad")]
fn gilrs_of(b: Button) -> Option<gilrs::Button> {
    use gilrs::Button as G;
    Some(match b {
        Button::South => G::South,
        Button::East => G::East,
        Button::West => G::West,
        Button::North => G::North,
        Button::LeftBumper => G::LeftTrigger,
        Button::RightBumper => G::RightTrigger,
        Button::LeftTrigger => G::LeftTrigger2,
        Button::RightTrigger => G::RightTrigger2,
        Button::Select => G::Select,
        Button::Start => G::Start,
        Button::LeftStick => G::LeftThumb,
        Button::RightStick => G::RightThumb,
        Button::Up => G::DPadUp,
        Button::Down => G::DPadDown,
        Button::Left => G::DPadLeft,
        Button::Right => G::DPadRight,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{KeyMap, Latch};

    fn frame(down: &[Button], pressed: &[Button]) -> PadFrame {
        PadFrame {
            down: down.iter().copied().collect(),
            pressed: pressed.iter().copied().collect(),
        }
    }

    #[test]
    fn standard_buttons_map_to_actions() {
        let map = PadMap::standard();
        let cases = [
            (Button::Left, Input::LEFT),
            (Button::Right, Input::RIGHT),
            (Button::Down, Input::SOFT_DROP),
            (Button::Up, Input::HARD_DROP),
            (Button::South, Input::ROTATE_CW),
            (Button::West, Input::ROTATE_CCW),
            (Button::North, Input::ROTATE_180),
            (Button::LeftBumper, Input::HOLD),
            (Button::RightBumper, Input::HOLD),
            (Button::East, Input::NONE),
            (Button::Start, Input::NONE),
        ];
        for (b, bit) in cases {
            assert_eq!(map.mask(&frame(&[b], &[]).down), bit, "{b:?}");
        }
    }

    #[test]
    fn remapping_a_button_moves_it_and_b_stops_being_back() {
        let mut map = PadMap::standard();
        assert_eq!(menu_key(Button::East, &map), Some(KeyCode::Escape));
        map.bind(Action::RotateCcw, 0, Button::East);
        assert_eq!(
            map.mask(&frame(&[Button::East], &[]).down),
            Input::ROTATE_CCW
        );
        assert_eq!(map.buttons(Action::RotateCcw), [Some(Button::East), None]);
        // Bound to a game action, B must not pause the game; Start still does.
        assert_eq!(menu_key(Button::East, &map), None);
        assert_eq!(menu_key(Button::Start, &map), Some(KeyCode::Escape));
        // Binding A to hold takes it off rotate.
        map.bind(Action::Hold, 0, Button::South);
        assert_eq!(map.buttons(Action::RotateCw), [None, None]);
        assert_eq!(map.mask(&frame(&[Button::South], &[]).down), Input::HOLD);
        map.clear(Action::Hold, 0);
        assert_eq!(map.mask(&frame(&[Button::South], &[]).down), Input::NONE);
    }

    #[test]
    fn pad_taps_and_holds_go_through_the_same_latch_as_keys() {
        let keys = KeyMap::guideline();
        let pads = PadMap::standard();
        let mut latch = Latch::default();
        // A tap of A between two rendered frames, with Left held on the d-pad.
        let mut kb = Keyboard::default();
        frame(&[Button::Left], &[Button::South, Button::Left]).apply(&pads, &mut kb);
        latch.sample(&keys, &kb);
        assert_eq!(latch.take(), Input::LEFT | Input::ROTATE_CW);
        assert_eq!(latch.take(), Input::LEFT, "held, like a key: DAS charges");
        // Menus see A as Enter and the d-pad as arrows, but the game latch does not.
        assert!(kb.pressed(KeyCode::Enter));
        assert!(kb.pressed(KeyCode::Left));
        assert!(!kb.pressed.contains(&KeyCode::Enter));
    }

    #[test]
    fn the_stick_is_the_dpad_past_the_dead_zone() {
        let v: Vec<Button> = stick_buttons(-0.9, 0.1).collect();
        assert_eq!(v, [Button::Left]);
        let v: Vec<Button> = stick_buttons(0.6, -0.7).collect();
        assert_eq!(v, [Button::Right, Button::Down]);
        assert_eq!(stick_buttons(0.3, -0.3).count(), 0);
    }

    #[test]
    fn a_pages_standard_pad_plays_and_pressed_means_newly_held() {
        let mut bytes = vec![0u8; 2 * PAGE_PAD_BYTES];
        bytes[1] = 1;
        bytes[4..8].copy_from_slice(&((1u32 << 0) | (1 << 14)).to_le_bytes());
        bytes[12..16].copy_from_slice(&(-1.0f32).to_le_bytes());
        // A second pad without the standard mapping: ignored.
        bytes[PAGE_PAD_BYTES + 4..PAGE_PAD_BYTES + 8].copy_from_slice(&u32::MAX.to_le_bytes());
        let pads = parse_page_pads(&bytes[..bytes.len() - 1]);
        assert_eq!(pads.len(), 1, "a cut report keeps its whole pads");
        let pads = parse_page_pads(&bytes);
        let mut page = PagePads::default();
        let f = page.frame(&pads);
        // A, d-pad left, and the stick pushed up (y -1 in the page).
        let want: HashSet<Button> = [Button::South, Button::Left, Button::Up].into();
        assert_eq!(f.down, want);
        assert_eq!(f.pressed, want);
        let f = page.frame(&pads);
        assert!(f.pressed.is_empty(), "held, not pressed again");
        let mut kb = Keyboard::default();
        f.apply(&PadMap::standard(), &mut kb);
        assert_eq!(
            kb.pad_down,
            Input::ROTATE_CW | Input::LEFT | Input::HARD_DROP
        );
    }
}
