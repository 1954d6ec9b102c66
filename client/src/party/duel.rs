//! A match of two seats drawn as the versus match it is, online or in practice: the versus
//! screen's view ([`crate::versus::match_view`]) over the two-seat battle, your board large
//! on the left, the opponent beside it, round, score and first-to between them, and the
//! versus result card; no targeting words (with one opponent every attack goes to them).

use macroquad::input::KeyCode;
use sevenbag_core::{Battle, Phase};

use crate::layout::match_layout;
use crate::match_source::{NetStatus, Peer};
use crate::render::fx::{MatchFx, SeatFx};
use crate::render::key_buttons::KeyChoice;
use crate::screen::{Ctx, FrameIo};
use crate::versus::match_view::{ResultCard, Scene, draw_match, draw_result_card};

/// Whether a match of `seats` is drawn as a versus match.
pub fn is_duel(seats: usize) -> bool {
    seats == 2
}

/// The two names, first seat first (a placeholder where the list is short).
pub fn duel_names(names: &[String]) -> [String; 2] {
    [0, 1].map(|i| names.get(i).cloned().unwrap_or_else(|| "—".to_owned()))
}

/// The practice result card's keys line and its buttons, as after a versus practice match.
const PRACTICE_KEYS: &str = "Enter  play again      Esc  menu";
const PRACTICE_BUTTONS: [KeyChoice<'static>; 2] =
    [("Play again", KeyCode::Enter), ("Menu", KeyCode::Escape)];

/// What a practice match of two seats shows.
pub struct PracticeDuel<'a> {
    /// The match: you in the first seat, the bot in the second.
    pub battle: &'a Battle,
    /// Each seat's flashes and popups.
    pub fx: &'a [SeatFx],
    /// Seconds since "GO!", while it shows.
    pub go: Option<f32>,
    /// The seats' names.
    pub names: &'a [String],
    /// The title line.
    pub title: &'a str,
    /// Seconds since the screen opened, for pulsing.
    pub time: f32,
}

/// Draws a practice match of two seats as a versus practice match, with its result card once
/// the match is over.
pub fn draw_practice_duel(ctx: &Ctx, io: &FrameIo, d: &PracticeDuel<'_>) {
    let l = match_layout(io.width, io.height);
    let mut fx = MatchFx::default();
    for (slot, seat) in fx.seats.iter_mut().zip(d.fx) {
        *slot = seat.clone();
    }
    fx.go = d.go;
    let names = duel_names(d.names);
    let net = NetStatus::offline([Peer::Local, Peer::Bot]);
    let scene = Scene {
        m: d.battle,
        fx: &fx,
        names: &names,
        net: &net,
        title: d.title,
        local: [true, false],
        skins: Default::default(),
        time: d.time,
        verdict: None,
        finesse: [None; 2],
    };
    draw_match(&ctx.gfx, &l, &scene);
    if matches!(d.battle.phase(), Phase::MatchOver { .. }) {
        let card = ResultCard {
            line1: "REMATCH?",
            keys: PRACTICE_KEYS,
            buttons: &PRACTICE_BUTTONS,
            extra: None,
        };
        draw_result_card(&ctx.gfx, io, &card);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_seats_and_only_two_draw_as_a_versus_match() {
        assert!(is_duel(2));
        for seats in 3..=8 {
            assert!(!is_duel(seats));
        }
    }

    #[test]
    fn short_name_lists_get_placeholders() {
        assert_eq!(
            duel_names(&["Ann".to_owned()]),
            ["Ann".to_owned(), "—".to_owned()]
        );
    }
}
