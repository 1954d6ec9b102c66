//! The whole match view: both panels, the title, the middle strip, countdown and result banners.

use macroquad::prelude::*;
use sevenbag_core::{Match, Phase, Seat};

use crate::layout::MatchLayout;
use crate::render::board::draw_board_on_fill;
use crate::render::fx::MatchFx;
use crate::render::gfx::{Align, Gfx, Weight, background_with, center};
use crate::render::seat_colour;
use crate::render::side::{draw_hold, draw_meter, draw_next, draw_plate, draw_popups, draw_stats};
use crate::render::theme::{self, alpha};
use crate::session::NetStatus;

/// What the match view draws: the match and everything around it.
pub struct Scene<'a> {
    /// The match.
    pub m: &'a Match,
    /// Its effects.
    pub fx: &'a MatchFx,
    /// Player names, left then right.
    pub names: &'a [String; 2],
    /// The connection readout.
    pub net: &'a NetStatus,
    /// The title line ("PRACTICE · BOT · MEDIUM").
    pub title: &'a str,
    /// Seats played on this keyboard.
    pub local: [bool; 2],
    /// Seconds since the screen opened, for pulsing.
    pub time: f32,
    /// How the match ended off the boards ([`crate::session::Session::verdict`]): the round
    /// labels are cleared so they do not contradict it.
    pub verdict: Option<&'a str>,
}

/// Draws the match described by `scene` laid out by `l`. Your board is always on the left: when
/// the only local player sits in the second seat, the two panels (and the score) swap sides.
///
/// It draws the window's background too, with the wells and side boxes as holes filled in the
/// same opaque pass ([`background_with`]): those pixels are written once.
pub fn draw_match(gfx: &Gfx, l: &MatchLayout, scene: &Scene<'_>) {
    let l = &oriented(l, scene.local);
    let m = scene.m;
    let first_to = m.header().rules.first_to;
    let wins = m.wins();
    // Garbage shakes the well and its meter a little.
    let shakes = Seat::BOTH.map(|seat| {
        let fx = &scene.fx.seats[seat.index()];
        let cell = l.panels[seat.index()].cell();
        if fx.shake > 0.0 && !crate::render::look::reduced_motion() {
            ((scene.time * 90.0).sin() * cell * 0.18 * (fx.shake / 0.22)).abs()
        } else {
            0.0
        }
    });
    let boards = Seat::BOTH.map(|seat| {
        let p = &l.panels[seat.index()];
        Rect::new(
            p.board.x,
            p.board.y + shakes[seat.index()],
            p.board.w,
            p.board.h,
        )
    });
    let mut solids = Vec::with_capacity(6);
    for (p, board) in l.panels.iter().zip(boards) {
        solids.push((board, crate::render::look::well()));
        solids.push((p.hold, theme::PANEL));
        solids.push((p.next, theme::PANEL));
    }
    background_with(l.window.w, l.window.h, &solids);
    for seat in Seat::BOTH {
        let i = seat.index();
        let p = &l.panels[i];
        // A small panel (the opponent's in portrait) has cells of its own.
        let cell = p.cell();
        let fx = &scene.fx.seats[i];
        let shake = shakes[i];
        let board = boards[i];
        let meter = Rect::new(p.meter.x, p.meter.y + shake, p.meter.w, p.meter.h);
        draw_board_on_fill(board, cell, m.player(seat), fx, scene.time);
        draw_meter(gfx, meter, cell, m.incoming(seat), scene.time);
        draw_hold(gfx, p.hold, cell, m.player(seat));
        draw_next(gfx, p.next, cell, m.player(seat));
        if !p.mini {
            draw_stats(gfx, p.stats, cell, m.player(seat));
            draw_popups(gfx, p.popups, cell, fx);
        }
        if !p.mini {
            draw_plate(
                gfx,
                p,
                cell,
                &scene.names[i],
                wins[i],
                first_to,
                &scene.net.peers[i],
                scene.net,
                scene.local[i],
            );
        }
        if let Some(pc) = &fx.perfect {
            let c = center(p.board);
            let size = (cell * 1.1 * pc.pop()).round();
            let col = alpha(pc.colour, pc.opacity());
            gfx.banner("PERFECT", c.x, c.y - size * 0.6, size, col);
            gfx.banner("CLEAR", c.x, c.y + size * 0.6, size, col);
        }
    }
    draw_title(gfx, l, scene);
    draw_middle(gfx, l, scene);
    draw_banners(gfx, l, scene);
}

/// `l` with its panels indexed by seat: seat 2 on the left when it is the only local seat.
fn oriented(l: &MatchLayout, local: [bool; 2]) -> MatchLayout {
    let mut l = *l;
    if second_on_left(local) {
        l.panels.swap(0, 1);
    }
    l
}

fn second_on_left(local: [bool; 2]) -> bool {
    local == [false, true]
}

fn draw_title(gfx: &Gfx, l: &MatchLayout, scene: &Scene<'_>) {
    let c = center(crate::input::taps::clear_of_back(l.title));
    gfx.text_mid(
        scene.title,
        c.x,
        c.y,
        (l.cell * 0.5).round(),
        Weight::Bold,
        Align::Center,
        theme::TEXT_DIM,
    );
}

fn draw_middle(gfx: &Gfx, l: &MatchLayout, scene: &Scene<'_>) {
    let m = scene.m;
    let c = center(l.middle);
    let cell = l.cell;
    let wins = m.wins();
    // In portrait the opponent's panel is too small for its name plate: the name goes here.
    if let Some(seat) = l.panels.iter().position(|p| p.mini) {
        gfx.text_mid(
            &gfx.fit(
                &scene.names[seat],
                l.middle.w,
                (cell * 0.5).round(),
                Weight::Bold,
            ),
            c.x,
            c.y - cell * 2.6,
            (cell * 0.5).round(),
            Weight::Bold,
            Align::Center,
            seat_colour(scene.local[seat]),
        );
    }
    gfx.text_mid(
        &format!("ROUND {}", m.round() + 1),
        c.x,
        c.y - cell * 1.6,
        (cell * 0.42).round(),
        Weight::Bold,
        Align::Center,
        theme::TEXT_FAINT,
    );
    gfx.banner("VS", c.x, c.y, (cell * 1.0).round(), theme::TEXT_DIM);
    let score = (cell * 0.8).round();
    let gap = cell * 0.5;
    // The score reads left to right like the boards: your wins first.
    let [left, right] = if second_on_left(scene.local) {
        [1, 0]
    } else {
        [0, 1]
    };
    gfx.text_mid(
        &wins[left].to_string(),
        c.x - gap,
        c.y + cell * 1.5,
        score,
        Weight::Bold,
        Align::Right,
        seat_colour(scene.local[left]),
    );
    gfx.text_mid(
        "–",
        c.x,
        c.y + cell * 1.5,
        score * 0.8,
        Weight::Regular,
        Align::Center,
        theme::TEXT_FAINT,
    );
    gfx.text_mid(
        &wins[right].to_string(),
        c.x + gap,
        c.y + cell * 1.5,
        score,
        Weight::Bold,
        Align::Left,
        seat_colour(scene.local[right]),
    );
    gfx.text_mid(
        &format!("FIRST TO {}", m.header().rules.first_to),
        c.x,
        c.y + cell * 2.6,
        (cell * 0.36).round(),
        Weight::Bold,
        Align::Center,
        theme::TEXT_FAINT,
    );
}

/// Countdown, "GO!", round and match results, drawn over the wells.
fn draw_banners(gfx: &Gfx, l: &MatchLayout, scene: &Scene<'_>) {
    let m = scene.m;
    let cell = l.cell;
    let boards = l.panels.map(|p| p.board);
    // Each board's banners at its own size (the opponent's is small in portrait).
    let scale = l.panels.map(|p| p.cell() / cell);
    if let Some(left) = m.countdown_left() {
        let n = left.div_ceil(60);
        if (1..=3).contains(&n) {
            // Each number shrinks from big to its resting size during its second.
            let k = (left as f32 % 60.0) / 60.0;
            for (b, z) in boards.into_iter().zip(scale) {
                let size = (cell * z * (3.6 + 1.6 * k)).round();
                let c = center(b);
                gfx.banner(
                    &n.to_string(),
                    c.x,
                    c.y,
                    size,
                    alpha(theme::TEXT, 0.4 + 0.6 * k.max(0.2)),
                );
            }
        }
        if n >= 1 {
            for (b, z) in boards.into_iter().zip(scale) {
                let c = center(b);
                gfx.banner(
                    &format!("ROUND {}", m.round() + 1),
                    c.x,
                    c.y - cell * z * 4.5,
                    (cell * z * 0.9).round(),
                    theme::TEXT_DIM,
                );
            }
        }
    }
    if let Some(go) = scene.fx.go {
        let a = (1.0 - go / 0.8).max(0.0);
        for (b, z) in boards.into_iter().zip(scale) {
            let c = center(b);
            gfx.banner(
                "GO!",
                c.x,
                c.y,
                (cell * z * (3.2 + go * 2.0)).round(),
                alpha(theme::ACCENT, a),
            );
        }
    }
    match m.phase() {
        Phase::RoundOver { winner, next_at } if scene.verdict.is_none() => {
            for seat in Seat::BOTH {
                let c = center(boards[seat.index()]);
                let z = scale[seat.index()];
                let (text, col) = if winner == Some(seat) {
                    ("ROUND WON", theme::GOOD)
                } else if winner.is_none() {
                    ("DRAW", theme::TEXT_DIM)
                } else {
                    ("TOPPED OUT", theme::BAD)
                };
                gfx.banner(text, c.x, c.y, (cell * z * 1.0).round(), col);
            }
            let secs = next_at.saturating_sub(m.frame().0).div_ceil(60);
            let c = center(l.middle);
            gfx.text_mid(
                &format!("NEXT IN {secs}"),
                c.x,
                l.middle.bottom() - cell * 1.0,
                (cell * 0.4).round(),
                Weight::Bold,
                Align::Center,
                theme::TEXT_DIM,
            );
        }
        Phase::MatchOver { winner } => {
            for seat in Seat::BOTH {
                let c = center(boards[seat.index()]);
                let cell = cell * scale[seat.index()];
                if seat == winner {
                    let text = if scene.local[seat.index()] && !scene.local[seat.other().index()] {
                        "VICTORY"
                    } else {
                        "WINNER"
                    };
                    gfx.banner(
                        text,
                        c.x,
                        c.y - cell * 0.6,
                        (cell * 1.5).round(),
                        theme::ACCENT,
                    );
                } else {
                    let text = if scene.local[seat.index()] && !scene.local[seat.other().index()] {
                        "DEFEAT"
                    } else {
                        "TOPPED OUT"
                    };
                    gfx.banner(
                        text,
                        c.x,
                        c.y - cell * 0.6,
                        (cell * 1.2).round(),
                        theme::BAD,
                    );
                }
                let score = format!(
                    "{} – {}",
                    m.wins()[seat.index()],
                    m.wins()[seat.other().index()]
                );
                gfx.banner(
                    &score,
                    c.x,
                    c.y + cell * 0.8,
                    (cell * 0.8).round(),
                    theme::TEXT,
                );
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::match_layout;

    #[test]
    fn the_second_seat_plays_on_the_left_when_it_is_the_only_local_one() {
        let l = match_layout(1280.0, 720.0);
        let swapped = oriented(&l, [false, true]);
        assert_eq!(swapped.panels[1].board, l.panels[0].board);
        assert_eq!(swapped.panels[0].board, l.panels[1].board);
    }

    #[test]
    fn first_seat_local_spectators_and_local_pairs_keep_seat_order() {
        let l = match_layout(1280.0, 720.0);
        for local in [[true, false], [false, false], [true, true]] {
            assert_eq!(oriented(&l, local), l);
        }
    }
}
