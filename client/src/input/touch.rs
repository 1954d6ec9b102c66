//! Touch controls: the eight game actions as on-screen buttons in two thumb clusters, read from
//! the screen's touches each frame into the same action masks a gamepad gives
//! ([`Keyboard::pad_down`], [`Keyboard::pad_pressed`]), so DAS, ARR, SDF and taps work exactly
//! as for keys; several fingers at once hold several actions (left held while rotating).
//!
//! - **Where:** the left cluster is a d-pad (left, right, soft drop below, hard drop above), the
//!   right one the rotations (clockwise right, counter-clockwise below, 180° above) and hold
//!   (left). In portrait they sit in a strip under the game ([`controls_strip`]); in landscape
//!   they lie over the window's lower corners. Settings › Touch sets their size and how far
//!   they sit from the sides and the bottom ([`TouchSettings`]).
//! - **Which button:** a finger anywhere in a cluster's disc holds the button nearest to it, so
//!   a thumb rolling from left to right never falls into a gap; a finger that slides onto
//!   another button presses that one.
//! - **Taps shorter than a frame** count: a finger that came and went between two frames is
//!   seen once, ended, and presses its button for one step (the latch keeps it).
//!
//! Plain logic over points and rectangles: tested without a screen. Drawing is
//! `crate::render::touch`.

use std::collections::HashMap;

use macroquad::math::{Rect, Vec2};
use sevenbag_core::Input;

use crate::input::{Action, Keyboard};
use crate::layout::is_portrait;

/// When the touch controls show.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TouchMode {
    /// On a touch screen (or once the screen has been touched).
    #[default]
    Auto,
    /// Always.
    On,
    /// Never.
    Off,
}

impl TouchMode {
    /// Every mode, in the order Settings steps through them.
    pub const ALL: [TouchMode; 3] = [TouchMode::Auto, TouchMode::On, TouchMode::Off];

    /// Its name in the settings file and on screen.
    pub const fn name(self) -> &'static str {
        match self {
            TouchMode::Auto => "auto",
            TouchMode::On => "on",
            TouchMode::Off => "off",
        }
    }

    /// The mode named `name`.
    pub fn from_name(name: &str) -> Option<TouchMode> {
        TouchMode::ALL.into_iter().find(|m| m.name() == name)
    }
}

/// Size and place of the touch controls (Settings › Touch; `[touch]` in the settings file).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TouchSettings {
    /// When they show.
    pub mode: TouchMode,
    /// Button size, percent of the default ([`SIZE_RANGE`]).
    pub size: u8,
    /// Distance from the sides, percent of the window's width ([`INSET_RANGE`]).
    pub inset: u8,
    /// Height above the bottom, percent of the window's height ([`RAISE_RANGE`]).
    pub raise: u8,
}

/// Allowed button sizes, percent.
pub const SIZE_RANGE: (u8, u8) = (60, 160);
/// Allowed distances from the sides, percent of the width.
pub const INSET_RANGE: (u8, u8) = (0, 20);
/// Allowed heights above the bottom, percent of the height.
pub const RAISE_RANGE: (u8, u8) = (0, 30);

impl Default for TouchSettings {
    fn default() -> Self {
        TouchSettings {
            mode: TouchMode::Auto,
            size: 100,
            inset: 3,
            raise: 2,
        }
    }
}

impl TouchSettings {
    /// The same settings with every number inside its range.
    pub fn clamped(self) -> TouchSettings {
        let clamp = |v: u8, (lo, hi): (u8, u8)| v.clamp(lo, hi);
        TouchSettings {
            mode: self.mode,
            size: clamp(self.size, SIZE_RANGE),
            inset: clamp(self.inset, INSET_RANGE),
            raise: clamp(self.raise, RAISE_RANGE),
        }
    }
}

/// In portrait, the strip under the game that holds the controls (the rest of the window is the
/// game's); `None` in landscape, where the controls lie over the game.
pub fn controls_strip(width: f32, height: f32, settings: &TouchSettings) -> Option<Rect> {
    if !is_portrait(width, height) {
        return None;
    }
    let s = settings.clamped();
    let unit = button_unit(width, height, &s);
    let raise = height * f32::from(s.raise) / 100.0;
    // Two buttons and the gaps of a cluster, a little air, and the raise.
    let h = (unit * 3.6 + raise).min(height * 0.45);
    Some(Rect::new(0.0, height - h, width, h))
}

/// One button's diameter in a `width` × `height` window.
fn button_unit(width: f32, height: f32, s: &TouchSettings) -> f32 {
    // A thumb's width on a phone, and no more than a cluster fitting a quarter of the width.
    let base = (width.min(height) * 0.135).min(width / 6.6).max(24.0);
    base * f32::from(s.size) / 100.0
}

/// One on-screen button.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TouchButton {
    /// What it holds.
    pub action: Action,
    /// Its centre.
    pub centre: Vec2,
    /// Its radius as drawn.
    pub radius: f32,
    /// Which cluster (0 left, 1 right).
    pub cluster: usize,
    /// What it says.
    pub label: &'static str,
}

/// Where every button is, for one window size and settings.
#[derive(Clone, Debug, PartialEq)]
pub struct TouchLayout {
    /// The buttons.
    pub buttons: Vec<TouchButton>,
    /// Each cluster's centre and the radius of its disc (touches inside hold a button).
    pub clusters: [(Vec2, f32); 2],
    /// A button's diameter.
    pub unit: f32,
}

/// Lays out the buttons in a `width` × `height` window (logical pixels).
pub fn touch_layout(width: f32, height: f32, settings: &TouchSettings) -> TouchLayout {
    let s = settings.clamped();
    let unit = button_unit(width, height, &s);
    let step = unit * 1.08;
    let inset = width * f32::from(s.inset) / 100.0;
    let raise = height * f32::from(s.raise) / 100.0;
    let cy = height - raise - step - unit * 0.6;
    let left = Vec2::new(inset + step + unit * 0.55, cy);
    let right = Vec2::new(width - inset - step - unit * 0.55, cy);
    let at = |c: Vec2, dx: f32, dy: f32| Vec2::new(c.x + dx * step, c.y + dy * step);
    let radius = unit * 0.5;
    let b = |action, centre, cluster, label| TouchButton {
        action,
        centre,
        radius,
        cluster,
        label,
    };
    let buttons = vec![
        b(Action::MoveLeft, at(left, -1.0, 0.0), 0, "◀"),
        b(Action::MoveRight, at(left, 1.0, 0.0), 0, "▶"),
        b(Action::SoftDrop, at(left, 0.0, 1.0), 0, "▼"),
        b(Action::HardDrop, at(left, 0.0, -1.0), 0, "DROP"),
        b(Action::RotateCw, at(right, 1.0, 0.0), 1, "↻"),
        b(Action::RotateCcw, at(right, 0.0, 1.0), 1, "↺"),
        b(Action::Rotate180, at(right, 0.0, -1.0), 1, "180"),
        b(Action::Hold, at(right, -1.0, 0.0), 1, "HOLD"),
    ];
    let disc = step + radius * 1.25;
    TouchLayout {
        buttons,
        clusters: [(left, disc), (right, disc)],
        unit,
    }
}

impl TouchLayout {
    /// The action a finger at `p` holds: the nearest button of the cluster whose disc holds
    /// `p`, if any.
    pub fn action_at(&self, p: Vec2) -> Option<Action> {
        let (cluster, _) = self
            .clusters
            .iter()
            .enumerate()
            .find(|(_, (c, r))| c.distance(p) <= *r)?;
        self.buttons
            .iter()
            .filter(|b| b.cluster == cluster)
            .min_by(|a, b| a.centre.distance(p).total_cmp(&b.centre.distance(p)))
            .map(|b| b.action)
    }

    /// Whether `p` is over the controls at all.
    pub fn covers(&self, p: Vec2) -> bool {
        self.clusters.iter().any(|(c, r)| c.distance(p) <= *r)
    }
}

/// One finger this frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Finger {
    /// Its id while it stays down.
    pub id: u64,
    /// Where it is (logical pixels).
    pub pos: Vec2,
    /// It lifted (or was cancelled) during the frame: its last position.
    pub ended: bool,
}

/// What the touch controls hold this frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TouchFrame {
    /// Actions held by fingers still down.
    pub down: Input,
    /// Actions pressed this frame (a new finger, or one that slid onto another button).
    pub pressed: Input,
    /// A finger started on the controls this frame (so it is not also a click on the game).
    pub took_click: bool,
}

impl TouchFrame {
    /// Adds the controls' actions to the keyboard's, beside a gamepad's.
    pub fn apply(&self, keyboard: &mut Keyboard) {
        keyboard.pad_down = keyboard.pad_down.with(self.down);
        keyboard.pad_pressed = keyboard.pad_pressed.with(self.pressed);
    }
}

/// The fingers seen last frame and what each held.
#[derive(Clone, Debug, Default)]
pub struct TouchControls {
    fingers: HashMap<u64, Option<Action>>,
}

impl TouchControls {
    /// Reads this frame's `fingers` over `layout`.
    pub fn frame(&mut self, layout: &TouchLayout, fingers: &[Finger]) -> TouchFrame {
        let mut out = TouchFrame::default();
        let mut now = HashMap::new();
        for f in fingers {
            let action = layout.action_at(f.pos);
            let before = self.fingers.get(&f.id);
            let new = before.is_none();
            if new && layout.covers(f.pos) {
                out.took_click = true;
            }
            if let Some(a) = action
                && before != Some(&Some(a))
            {
                out.pressed = out.pressed.with(a.bit());
            }
            if !f.ended {
                if let Some(a) = action {
                    out.down = out.down.with(a.bit());
                }
                now.insert(f.id, action);
            }
        }
        self.fingers = now;
        out
    }

    /// Forgets every finger (the controls were hidden).
    pub fn reset(&mut self) {
        self.fingers.clear();
    }

    /// The actions held by fingers down now (for drawing them pressed).
    pub fn held(&self) -> Vec<Action> {
        self.fingers.values().flatten().copied().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: f32 = 1170.0;
    const H: f32 = 2532.0;

    fn layout() -> TouchLayout {
        touch_layout(W, H, &TouchSettings::default())
    }

    fn centre(l: &TouchLayout, a: Action) -> Vec2 {
        l.buttons
            .iter()
            .find(|b| b.action == a)
            .expect("button")
            .centre
    }

    fn finger(id: u64, pos: Vec2) -> Finger {
        Finger {
            id,
            pos,
            ended: false,
        }
    }

    #[test]
    fn every_action_has_a_button_inside_the_window_and_the_strip() {
        let l = layout();
        let strip = controls_strip(W, H, &TouchSettings::default()).expect("portrait");
        for a in Action::ALL {
            let b = l.buttons.iter().find(|b| b.action == a).expect("a button");
            assert!(
                b.centre.x - b.radius >= 0.0 && b.centre.x + b.radius <= W,
                "{a:?}"
            );
            assert!(b.centre.y - b.radius >= strip.y, "{a:?} is in the strip");
            assert!(b.centre.y + b.radius <= H, "{a:?}");
            assert_eq!(l.action_at(b.centre), Some(a), "{a:?}");
        }
        // Thumbs: a button is at least 9 mm wide on a 390-point-wide phone (3 pixels a point).
        assert!(l.unit / 3.0 >= 50.0, "{}", l.unit);
    }

    #[test]
    fn landscape_has_no_strip_and_the_buttons_lie_in_the_lower_corners() {
        let s = TouchSettings::default();
        assert_eq!(controls_strip(2532.0, 1170.0, &s), None);
        let l = touch_layout(2532.0, 1170.0, &s);
        for b in &l.buttons {
            assert!(b.centre.y > 1170.0 * 0.5, "{:?}", b.action);
        }
    }

    #[test]
    fn a_finger_between_buttons_holds_the_nearest_and_one_outside_holds_nothing() {
        let l = layout();
        let left = centre(&l, Action::MoveLeft);
        let right = centre(&l, Action::MoveRight);
        let nearer_left = left + (right - left) * 0.3;
        assert_eq!(l.action_at(nearer_left), Some(Action::MoveLeft));
        assert_eq!(l.action_at(Vec2::new(W / 2.0, 100.0)), None);
    }

    #[test]
    fn two_fingers_hold_two_actions_and_a_tap_within_a_frame_presses_once() {
        let l = layout();
        let mut c = TouchControls::default();
        let left = centre(&l, Action::MoveLeft);
        let cw = centre(&l, Action::RotateCw);
        let f = c.frame(&l, &[finger(1, left)]);
        assert_eq!((f.down, f.pressed), (Input::LEFT, Input::LEFT));
        assert!(f.took_click);
        // Left stays held while a second finger taps clockwise within one frame.
        let tap = Finger {
            id: 2,
            pos: cw,
            ended: true,
        };
        let f = c.frame(&l, &[finger(1, left), tap]);
        assert_eq!(f.down, Input::LEFT);
        assert_eq!(f.pressed, Input::ROTATE_CW);
        let f = c.frame(&l, &[finger(1, left)]);
        assert_eq!((f.down, f.pressed), (Input::LEFT, Input::NONE));
        assert!(!f.took_click);
        let f = c.frame(&l, &[]);
        assert_eq!(f.down, Input::NONE);
    }

    #[test]
    fn sliding_onto_another_button_presses_it() {
        let l = layout();
        let mut c = TouchControls::default();
        c.frame(&l, &[finger(7, centre(&l, Action::MoveLeft))]);
        let f = c.frame(&l, &[finger(7, centre(&l, Action::MoveRight))]);
        assert_eq!((f.down, f.pressed), (Input::RIGHT, Input::RIGHT));
    }

    #[test]
    fn the_controls_give_the_keys_handling_through_the_latch() {
        let l = layout();
        let mut c = TouchControls::default();
        let mut kb = Keyboard::default();
        c.frame(&l, &[finger(1, centre(&l, Action::HardDrop))])
            .apply(&mut kb);
        let mut latch = crate::input::Latch::default();
        latch.sample(&crate::input::KeyMap::guideline(), &kb);
        assert_eq!(latch.take(), Input::HARD_DROP);
    }

    #[test]
    fn settings_out_of_range_are_clamped_and_move_the_buttons() {
        let wild = TouchSettings {
            mode: TouchMode::On,
            size: 250,
            inset: 99,
            raise: 200,
        }
        .clamped();
        assert_eq!((wild.size, wild.inset, wild.raise), (160, 20, 30));
        let low = touch_layout(W, H, &TouchSettings::default());
        let raised = touch_layout(
            W,
            H,
            &TouchSettings {
                raise: 20,
                ..TouchSettings::default()
            },
        );
        assert!(
            centre(&raised, Action::MoveLeft).y < centre(&low, Action::MoveLeft).y,
            "raised higher"
        );
        assert_eq!(TouchMode::from_name("on"), Some(TouchMode::On));
        assert_eq!(TouchMode::from_name("sideways"), None);
    }
}
