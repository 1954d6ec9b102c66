//! Every key press and typed character of a rendered frame, in the order they came.
//!
//! macroquad reports a frame's presses as a set and its typed text as a separate queue, so a
//! frame that gathered several presses (a menu or form drawn at 4 frames a second, see
//! [`crate::platform::pacer`]) lost repeats ("four Down presses moved the cursor two rows")
//! and their order against the text ("Backspace then q erased the q"). The game therefore also
//! reads macroquad's raw event stream (`repeat_all_miniquad_input`), and
//! [`Keyboard::in_order`] cuts a frame into one [`Keyboard`] per press, each carrying the text
//! typed with it; the main loop updates the screen once per piece, in order.

use std::cell::Cell;

use macroquad::input::KeyCode;
use macroquad::miniquad::{self, KeyMods};

use super::Keyboard;

/// A key press or a typed character, in arrival order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyEvent {
    /// A key went down; `repeat` when it is the system's auto-repeat of a held key (not a
    /// press, as for macroquad's pressed set).
    Down {
        /// The key.
        key: KeyCode,
        /// An auto-repeat.
        repeat: bool,
    },
    /// A character was typed.
    Char(char),
}

thread_local! {
    /// Our place in macroquad's list of input subscribers, once registered.
    static SUBSCRIBER: Cell<Option<usize>> = const { Cell::new(None) };
}

/// The key events that arrived since the last call, oldest first. The first call registers the
/// game with macroquad and returns nothing; call it once per rendered frame (macroquad keeps
/// every event for a subscriber until it is read).
pub fn take_events() -> Vec<KeyEvent> {
    let id = SUBSCRIBER.with(|s| match s.get() {
        Some(id) => Some(id),
        None => {
            s.set(Some(macroquad::input::utils::register_input_subscriber()));
            None
        }
    });
    let mut collector = Collector::default();
    if let Some(id) = id {
        macroquad::input::utils::repeat_all_miniquad_input(&mut collector, id);
    }
    collector.events
}

/// Receives macroquad's replayed events.
#[derive(Default)]
struct Collector {
    events: Vec<KeyEvent>,
}

impl miniquad::EventHandler for Collector {
    fn update(&mut self) {}

    fn draw(&mut self) {}

    fn char_event(&mut self, character: char, _keymods: KeyMods, _repeat: bool) {
        self.events.push(KeyEvent::Char(character));
    }

    fn key_down_event(&mut self, key: KeyCode, _keymods: KeyMods, repeat: bool) {
        self.events.push(KeyEvent::Down { key, repeat });
    }
}

impl Keyboard {
    /// This frame cut into one keyboard per key press, in order: each holds that press and the
    /// characters typed after it until the next press (characters before any press open the
    /// first piece). Keys held (`down`) are the frame's end state in every piece; the gamepad's
    /// part goes with the last piece. A frame with at most one press, or without its event
    /// stream (`events` empty), stays one piece.
    pub fn in_order(self) -> Vec<Keyboard> {
        let mut pieces: Vec<Keyboard> = Vec::new();
        for event in &self.events {
            match *event {
                KeyEvent::Down { key, repeat: false } => pieces.push(Keyboard {
                    down: self.down.clone(),
                    pressed: [key].into_iter().collect(),
                    ..Keyboard::default()
                }),
                KeyEvent::Down { repeat: true, .. } => {}
                KeyEvent::Char(c) => {
                    if pieces.is_empty() {
                        pieces.push(Keyboard {
                            down: self.down.clone(),
                            ..Keyboard::default()
                        });
                    }
                    if let Some(last) = pieces.last_mut() {
                        last.chars.push(c);
                    }
                }
            }
        }
        if pieces.len() <= 1 {
            return vec![Keyboard {
                events: Vec::new(),
                ..self
            }];
        }
        if let Some(last) = pieces.last_mut() {
            last.pad_down = self.pad_down;
            last.pad_pressed = self.pad_pressed;
            last.menu = self.menu;
            last.pad_buttons = self.pad_buttons;
        }
        pieces
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn down(key: KeyCode) -> KeyEvent {
        KeyEvent::Down { key, repeat: false }
    }

    /// A frame as macroquad's sets and queue report it, with its event stream.
    fn frame(events: Vec<KeyEvent>) -> Keyboard {
        let pressed = events
            .iter()
            .filter_map(|e| match e {
                KeyEvent::Down { key, repeat: false } => Some(*key),
                _ => None,
            })
            .collect();
        let chars = events
            .iter()
            .filter_map(|e| match e {
                KeyEvent::Char(c) => Some(*c),
                _ => None,
            })
            .collect();
        Keyboard {
            pressed,
            chars,
            events,
            ..Keyboard::default()
        }
    }

    /// A name field as the forms edit one: typed characters, then Backspace.
    fn edit(name: &mut String, kb: &Keyboard) {
        name.extend(kb.chars.iter().filter(|c| !c.is_control()));
        if kb.pressed(KeyCode::Backspace) {
            name.pop();
        }
    }

    #[test]
    fn backspace_then_a_letter_in_one_frame_keeps_the_letter() {
        let kb = frame(vec![
            down(KeyCode::Backspace),
            down(KeyCode::Q),
            KeyEvent::Char('q'),
        ]);
        let mut name = "Alic".to_owned();
        for piece in kb.in_order() {
            edit(&mut name, &piece);
        }
        assert_eq!(name, "Aliq");
    }

    #[test]
    fn four_presses_of_one_key_in_one_frame_are_four_presses() {
        let kb = frame(vec![down(KeyCode::Down); 4]);
        let pieces = kb.in_order();
        assert_eq!(pieces.len(), 4);
        assert!(pieces.iter().all(|p| p.pressed(KeyCode::Down)));
    }

    #[test]
    fn a_name_typed_fast_over_a_slow_frame_keeps_its_letters_in_order() {
        // "x", Backspace, "alice" typed while one frame was drawn.
        let mut events = vec![
            down(KeyCode::X),
            KeyEvent::Char('x'),
            down(KeyCode::Backspace),
        ];
        for (key, c) in [
            (KeyCode::A, 'a'),
            (KeyCode::L, 'l'),
            (KeyCode::I, 'i'),
            (KeyCode::C, 'c'),
            (KeyCode::E, 'e'),
        ] {
            events.extend([down(key), KeyEvent::Char(c)]);
        }
        let mut name = String::new();
        for piece in frame(events).in_order() {
            edit(&mut name, &piece);
        }
        assert_eq!(name, "alice");
    }

    #[test]
    fn auto_repeats_are_not_presses_but_their_text_is_kept() {
        let kb = frame(vec![
            down(KeyCode::A),
            KeyEvent::Char('a'),
            KeyEvent::Down {
                key: KeyCode::A,
                repeat: true,
            },
            KeyEvent::Char('a'),
        ]);
        let pieces = kb.in_order();
        assert_eq!(pieces.len(), 1);
        assert_eq!(pieces[0].chars, ['a', 'a']);
    }

    #[test]
    fn a_frame_without_its_event_stream_stays_whole() {
        let kb = Keyboard {
            pressed: [KeyCode::Enter].into_iter().collect(),
            ..Keyboard::default()
        };
        let pieces = kb.in_order();
        assert_eq!(pieces.len(), 1);
        assert!(pieces[0].pressed(KeyCode::Enter));
    }
}
