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
}
