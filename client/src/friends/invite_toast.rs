//! Join and Decline on an invite's toast, from whatever screen is on top: the keys and the
//! buttons that answer it, and the box that asks before a match in progress is left for the
//! room. Nothing here draws or connects: [`super::news`] feeds it the frame and does what it
//! says, as the Friends screen's Join and Decline do.

use macroquad::input::KeyCode;
use macroquad::math::Rect;

use crate::input::{KeyMap, Keyboard, free_key};
use crate::screen::FrameIo;

/// An answer to an invite's toast.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Go to the room.
    Join,
    /// Turn the invite down.
    Decline,
}

/// What the box asking before leaving a match made of the frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asked {
    /// No answer yet.
    Waiting,
    /// Leave the match for the room.
    Leave,
    /// Stay in the match (the invite stays in the Friends screen's list).
    Stay,
}

/// The box's choices, the first selected.
pub const ASK_CHOICES: [&str; 2] = ["Leave and join", "Stay"];

/// What Join does from the screen on top.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Joining {
    /// Open the room now.
    Now,
    /// Ask first: a match is in progress.
    Ask,
}

/// Join's and Decline's keys: J and D as on the Friends screen, unless the player's game keys
/// use them (F6 and F7 then), so a toast never takes a key the match needs.
pub fn keys(map: &KeyMap) -> (KeyCode, KeyCode) {
    (
        free_key(map, KeyCode::J, KeyCode::F6),
        free_key(map, KeyCode::D, KeyCode::F7),
    )
}

/// A key's name on the toast's button.
pub fn key_name(key: KeyCode) -> String {
    match key {
        KeyCode::F6 => "F6".to_owned(),
        KeyCode::F7 => "F7".to_owned(),
        other => format!("{other:?}"),
    }
}

/// The answer `io` gives a toast whose Join and Decline buttons are at `buttons`: a click or
/// tap on one, or its key (`keys`, as [`keys`] gives them) unless the screen on top is
/// `typing` into a field, where keys are letters.
pub fn answer(
    io: &FrameIo,
    keys: (KeyCode, KeyCode),
    buttons: [Rect; 2],
    typing: bool,
) -> Option<Answer> {
    if io.mouse.clicked {
        if io.mouse.over(buttons[0]) {
            return Some(Answer::Join);
        }
        if io.mouse.over(buttons[1]) {
            return Some(Answer::Decline);
        }
    }
    if typing {
        return None;
    }
    let kb = &io.keyboard;
    if kb.pressed(keys.0) {
        Some(Answer::Join)
    } else if kb.pressed(keys.1) {
        Some(Answer::Decline)
    } else {
        None
    }
}

/// Join from a screen that `plays` (a player's board takes input: a match, a solo run) asks
/// first; from any other screen it goes at once.
pub fn joining(plays: bool) -> Joining {
    if plays { Joining::Ask } else { Joining::Now }
}

/// The answer `io` gives the box asking before leaving a match, `choice` under the cursor
/// and its choices at `rows` (Leave, Stay): Y or Enter on Leave leaves; N, Esc or Enter on
/// Stay stays; a click or tap on either takes it.
pub fn asked(io: &FrameIo, choice: usize, rows: &[Rect]) -> Asked {
    let kb = &io.keyboard;
    let tapped = rows
        .iter()
        .position(|r| io.mouse.clicked && io.mouse.over(*r));
    let enter = kb.pressed_any(&[KeyCode::Enter, KeyCode::KpEnter]);
    if tapped == Some(0) || kb.pressed(KeyCode::Y) || (enter && choice == 0) {
        Asked::Leave
    } else if tapped == Some(1) || kb.pressed_any(&[KeyCode::N, KeyCode::Escape]) || enter {
        Asked::Stay
    } else {
        Asked::Waiting
    }
}

/// Takes `key` out of the frame so the screen on top does not act on it too.
pub fn take_key(kb: &mut Keyboard, key: KeyCode) {
    kb.pressed.remove(&key);
    kb.menu.remove(&key);
    kb.down.remove(&key);
    kb.events
        .retain(|e| !matches!(e, crate::input::queue::KeyEvent::Down { key: k, .. } if *k == key));
}

#[cfg(test)]
mod tests {
    use macroquad::math::vec2;

    use super::*;
    use crate::input::Action;

    const BUTTONS: [Rect; 2] = [
        Rect {
            x: 0.0,
            y: 0.0,
            w: 50.0,
            h: 20.0,
        },
        Rect {
            x: 60.0,
            y: 0.0,
            w: 50.0,
            h: 20.0,
        },
    ];

    fn pressing(key: KeyCode) -> FrameIo {
        let mut io = FrameIo::default();
        io.keyboard.pressed.insert(key);
        io
    }

    fn clicking(x: f32, y: f32) -> FrameIo {
        let mut io = FrameIo::default();
        io.mouse.pos = vec2(x, y);
        io.mouse.clicked = true;
        io
    }

    const JD: (KeyCode, KeyCode) = (KeyCode::J, KeyCode::D);

    #[test]
    fn j_joins_and_d_declines() {
        assert_eq!(
            answer(&pressing(KeyCode::J), JD, BUTTONS, false),
            Some(Answer::Join)
        );
        assert_eq!(
            answer(&pressing(KeyCode::D), JD, BUTTONS, false),
            Some(Answer::Decline)
        );
        assert_eq!(answer(&FrameIo::default(), JD, BUTTONS, false), None);
    }

    #[test]
    fn a_click_or_tap_on_a_button_answers() {
        assert_eq!(
            answer(&clicking(10.0, 10.0), JD, BUTTONS, false),
            Some(Answer::Join)
        );
        assert_eq!(
            answer(&clicking(70.0, 10.0), JD, BUTTONS, true),
            Some(Answer::Decline)
        );
        assert_eq!(answer(&clicking(55.0, 10.0), JD, BUTTONS, false), None);
    }

    #[test]
    fn keys_are_letters_while_the_screen_takes_text() {
        assert_eq!(answer(&pressing(KeyCode::J), JD, BUTTONS, true), None);
    }

    #[test]
    fn the_keys_move_off_the_players_game_keys() {
        assert_eq!(keys(&KeyMap::guideline()), JD);
        let mut map = KeyMap::guideline();
        map.bind(Action::MoveRight, 1, KeyCode::D);
        map.bind(Action::Hold, 1, KeyCode::J);
        assert_eq!(keys(&map), (KeyCode::F6, KeyCode::F7));
        assert_eq!(key_name(KeyCode::J), "J");
        assert_eq!(key_name(KeyCode::F6), "F6");
    }

    #[test]
    fn joining_from_a_match_in_progress_asks_first() {
        assert_eq!(joining(true), Joining::Ask);
        assert_eq!(joining(false), Joining::Now);
    }

    #[test]
    fn the_box_leaves_on_yes_and_stays_on_no() {
        let rows = [BUTTONS[0], BUTTONS[1]];
        assert_eq!(asked(&pressing(KeyCode::Y), 1, &rows), Asked::Leave);
        assert_eq!(asked(&pressing(KeyCode::Enter), 0, &rows), Asked::Leave);
        assert_eq!(asked(&pressing(KeyCode::Enter), 1, &rows), Asked::Stay);
        assert_eq!(asked(&pressing(KeyCode::Escape), 0, &rows), Asked::Stay);
        assert_eq!(asked(&clicking(70.0, 5.0), 0, &rows), Asked::Stay);
        assert_eq!(asked(&clicking(5.0, 5.0), 1, &rows), Asked::Leave);
        assert_eq!(asked(&FrameIo::default(), 0, &rows), Asked::Waiting);
    }

    #[test]
    fn a_taken_key_is_gone_from_the_frame() {
        let mut kb = Keyboard::default();
        kb.pressed.insert(KeyCode::J);
        kb.down.insert(KeyCode::J);
        kb.events.push(crate::input::queue::KeyEvent::Down {
            key: KeyCode::J,
            repeat: false,
        });
        take_key(&mut kb, KeyCode::J);
        assert!(!kb.pressed(KeyCode::J));
        assert!(kb.down.is_empty() && kb.events.is_empty());
    }
}
