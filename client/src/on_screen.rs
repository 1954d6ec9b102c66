//! What a touch screen adds to each frame, between sampling the input and the screens: the
//! touch controls while a board takes input ([`crate::input::touch`]; in portrait they take a
//! strip under the game, which then lays itself out above it), the back button that stands in
//! for Esc, the key buttons screens draw in place of key hints ([`crate::input::taps`]), and in
//! a page the on-screen keyboard for the screen's text fields. On a screen that was never
//! touched (and with the controls not turned on in Settings) nothing changes.

use macroquad::input::{KeyCode, TouchPhase};
use macroquad::math::Rect;

use crate::input::touch::{
    Finger, TouchControls, TouchLayout, TouchMode, controls_strip, touch_layout,
};
use crate::input::{Action, Keyboard, taps};
use crate::render::gfx::Gfx;
#[cfg(target_arch = "wasm32")]
use crate::screen::TextField;
use crate::screen::{Ctx, FrameIo, Mouse, Screen};

/// The touch state kept across frames.
#[derive(Default)]
pub struct OnScreen {
    controls: TouchControls,
    /// The screen has been touched (or the page says it is a touch screen).
    touch_screen: bool,
    /// This frame's controls, if they show.
    shown: Option<(TouchLayout, Option<Rect>)>,
    /// This frame's back button, if it shows.
    back: Option<Rect>,
    /// The key buttons the screen drew last frame (where a tap lands this frame).
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    buttons: Vec<taps::KeyButton>,
    /// What the on-screen keyboard was last told (kind and text), so it is told only changes.
    #[cfg(target_arch = "wasm32")]
    keyboard: Option<(u32, String)>,
    #[cfg(target_arch = "wasm32")]
    zones: Vec<Rect>,
    /// Whether the screen was asked to stay on (a board taking input).
    #[cfg(target_arch = "wasm32")]
    awake: bool,
}

/// The fingers on the screen this frame, in logical pixels (`scale` from the window's; touches
/// come in device pixels, the window's size in points).
pub fn fingers(scale: f32) -> Vec<Finger> {
    let per_logical = scale * macroquad::window::screen_dpi_scale();
    macroquad::input::touches()
        .into_iter()
        .map(|t| Finger {
            id: t.id,
            pos: t.position / per_logical,
            ended: matches!(t.phase, TouchPhase::Ended | TouchPhase::Cancelled),
        })
        .collect()
}

impl OnScreen {
    /// Starts knowing whether this is a touch screen (a page can tell before the first touch).
    pub fn new(touch_screen: bool) -> OnScreen {
        OnScreen {
            touch_screen,
            ..OnScreen::default()
        }
    }

    /// Reads this frame's `fingers` for `top` in a `width` × `height` window: the controls'
    /// actions go into `keyboard` (beside a gamepad's), the back button's tap is Esc, and a tap
    /// on either is not also a click. Returns the height the screen lays itself out in (less
    /// than `height` when the controls take a strip).
    #[allow(clippy::too_many_arguments)]
    pub fn frame(
        &mut self,
        settings: &crate::input::touch::TouchSettings,
        top: Option<&dyn Screen>,
        depth: usize,
        fingers: &[Finger],
        width: f32,
        height: f32,
        keyboard: &mut Keyboard,
        mouse: &mut Mouse,
    ) -> f32 {
        self.touch_screen |= !fingers.is_empty();
        let wanted = match settings.mode {
            TouchMode::On => true,
            TouchMode::Off => false,
            TouchMode::Auto => self.touch_screen,
        };
        // Last frame's key buttons: a tap on one is its key's press, and not also a click.
        let buttons = taps::take();
        taps::set_shown(wanted);
        if wanted {
            let tapped = fingers
                .iter()
                .filter(|f| f.ended)
                .map(|f| f.pos)
                .chain(mouse.clicked.then_some(mouse.pos))
                .filter_map(|pos| taps::hit(&buttons, pos))
                .collect::<Vec<_>>();
            if !tapped.is_empty() {
                mouse.clicked = false;
            }
            keyboard.pressed.extend(tapped);
        }
        self.buttons = buttons;
        let plays = top.is_some_and(|s| s.plays_by_touch());
        // A phone's screen stays on while a board takes input.
        #[cfg(target_arch = "wasm32")]
        if plays != self.awake {
            crate::platform::web_device::wake_lock(plays);
            self.awake = plays;
        }
        let mut game_height = height;
        self.shown = None;
        if wanted && plays {
            let strip = controls_strip(width, height, settings);
            let layout = touch_layout(width, height, settings);
            let frame = self.controls.frame(&layout, fingers);
            frame.apply(keyboard);
            if frame.took_click {
                mouse.clicked = false;
            }
            if let Some(s) = strip {
                game_height = s.y;
            }
            self.shown = Some((layout, strip));
        } else {
            self.controls.reset();
        }
        // The back button shows wherever key buttons do: the touch wording names it (‹).
        self.back = (wanted && depth > 1).then(|| crate::layout::back_button(width, game_height));
        taps::set_back(self.back);
        if let Some(back) = self.back {
            let tapped = fingers.iter().any(|f| f.ended && back.contains(f.pos))
                || (mouse.clicked && back.contains(mouse.pos));
            if tapped {
                keyboard.pressed.insert(KeyCode::Escape);
                mouse.clicked = false;
            }
        }
        game_height
    }

    /// What can be tapped besides the screen's rows (for the page's test hook): each touch
    /// button by its action's settings name (`touch:hard_drop`), and `touch:back`.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    pub fn targets(&self) -> Vec<(String, Rect)> {
        let mut out: Vec<(String, Rect)> = Vec::new();
        if let Some((layout, _)) = &self.shown {
            for b in &layout.buttons {
                let r = Rect::new(
                    b.centre.x - b.radius,
                    b.centre.y - b.radius,
                    2.0 * b.radius,
                    2.0 * b.radius,
                );
                out.push((format!("touch:{}", b.action.config_key()), r));
            }
        }
        if let Some(back) = self.back {
            out.push(("touch:back".to_owned(), back));
        }
        out
    }

    /// Draws the controls and the back button over what the screen drew.
    pub fn draw(&self, gfx: &Gfx) {
        if let Some((layout, strip)) = &self.shown {
            let held: Vec<Action> = self.controls.held();
            crate::render::touch::draw_controls(gfx, layout, &held, *strip);
        }
        if let Some(back) = self.back {
            crate::render::touch::draw_back(gfx, back);
        }
    }

    /// In a page on a touch screen: opens the on-screen keyboard on the screen's active text
    /// field and closes it when there is none; every field is a zone whose tap brings the
    /// keyboard up at once. `scale` maps logical pixels to the canvas's (device pixels).
    #[cfg_attr(not(target_arch = "wasm32"), allow(unused_variables))]
    pub fn keyboard(&mut self, top: Option<&dyn Screen>, ctx: &Ctx, io: &FrameIo, scale: f32) {
        #[cfg(target_arch = "wasm32")]
        {
            use crate::platform::web_device;
            use crate::screen::TextKind;
            if !self.touch_screen {
                return;
            }
            let fields: Vec<TextField> = top.map(|s| s.text_fields(ctx, io)).unwrap_or_default();
            let field_keys = top.map_or(&[][..], |s| s.field_keys());
            let zones: Vec<Rect> = keyboard_zones(&fields, &self.buttons, field_keys)
                .into_iter()
                .map(|f| Rect::new(f.x * scale, f.y * scale, f.w * scale, f.h * scale))
                .collect();
            if zones != self.zones {
                web_device::text_zones(&zones);
                self.zones = zones;
            }
            let active = fields.iter().find(|f| f.active).map(|f| {
                let kind = match f.kind {
                    TextKind::Plain => 0,
                    TextKind::Code => 1,
                    TextKind::Address => 2,
                };
                (kind, f.text.clone())
            });
            if active != self.keyboard {
                match &active {
                    Some((kind, text)) => web_device::text_input_show(*kind, text),
                    None => web_device::text_input_hide(),
                }
                self.keyboard = active;
            }
        }
    }
}

/// Where a tap brings up the on-screen keyboard (logical pixels): each text field, and each
/// key button whose key opens one (`field_keys`, the room's Chat), so that the tap that opens a
/// field is the one that focuses the page's input.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub fn keyboard_zones(
    fields: &[crate::screen::TextField],
    buttons: &[taps::KeyButton],
    field_keys: &[KeyCode],
) -> Vec<Rect> {
    fields
        .iter()
        .map(|f| f.rect)
        .chain(
            buttons
                .iter()
                .filter(|b| field_keys.contains(&b.key))
                .map(|b| b.rect),
        )
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::touch::TouchSettings;
    use macroquad::math::Vec2;

    /// One frame of a screen with a key button for Space at (100, 100)–(200, 140).
    fn frame_with_button(on: &mut OnScreen, fingers: &[Finger], mouse: &mut Mouse) -> Keyboard {
        taps::take();
        taps::record(
            Rect::new(100.0, 100.0, 100.0, 40.0),
            KeyCode::Space,
            "Pause",
        );
        let mut keyboard = Keyboard::default();
        on.frame(
            &TouchSettings::default(),
            None,
            1,
            fingers,
            1280.0,
            720.0,
            &mut keyboard,
            mouse,
        );
        keyboard
    }

    fn lifted_at(x: f32, y: f32) -> Finger {
        Finger {
            id: 1,
            pos: Vec2::new(x, y),
            ended: true,
        }
    }

    #[test]
    fn a_button_that_opens_a_text_field_is_a_keyboard_zone_and_others_are_not() {
        let chat = Rect::new(10.0, 500.0, 120.0, 40.0);
        let buttons = [
            taps::KeyButton {
                rect: chat,
                key: KeyCode::T,
                label: "Chat".into(),
            },
            taps::KeyButton {
                rect: Rect::new(140.0, 500.0, 120.0, 40.0),
                key: KeyCode::Escape,
                label: "Leave".into(),
            },
        ];
        assert_eq!(keyboard_zones(&[], &buttons, &[KeyCode::T]), vec![chat]);
        assert!(keyboard_zones(&[], &buttons, &[]).is_empty());
    }

    #[test]
    fn a_finger_lifted_on_a_key_button_presses_its_key() {
        let mut on = OnScreen::new(true);
        let kb = frame_with_button(&mut on, &[lifted_at(150.0, 120.0)], &mut Mouse::default());
        assert!(kb.pressed.contains(&KeyCode::Space));
        assert!(taps::shown());
    }

    #[test]
    fn a_finger_still_down_on_a_key_button_presses_nothing_yet() {
        let mut on = OnScreen::new(true);
        let down = Finger {
            ended: false,
            ..lifted_at(150.0, 120.0)
        };
        let kb = frame_with_button(&mut on, &[down], &mut Mouse::default());
        assert!(kb.pressed.is_empty());
    }

    #[test]
    fn a_click_on_a_key_button_is_its_key_and_not_also_a_click() {
        let mut on = OnScreen::new(true);
        let mut mouse = Mouse {
            pos: Vec2::new(110.0, 110.0),
            clicked: true,
            ..Mouse::default()
        };
        let kb = frame_with_button(&mut on, &[], &mut mouse);
        assert!(kb.pressed.contains(&KeyCode::Space));
        assert!(!mouse.clicked);
    }

    #[test]
    fn a_screen_never_touched_shows_key_hints_and_ignores_clicks_on_stale_buttons() {
        let mut on = OnScreen::new(false);
        let mut mouse = Mouse {
            pos: Vec2::new(110.0, 110.0),
            clicked: true,
            ..Mouse::default()
        };
        let kb = frame_with_button(&mut on, &[], &mut mouse);
        assert!(!taps::shown());
        assert!(kb.pressed.is_empty());
        assert!(mouse.clicked);
    }
}
