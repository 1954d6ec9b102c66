//! The whole match view: both panels, the title, the middle strip, countdown and result banners.

use macroquad::prelude::*;
use sevenbag_core::{Battle, Frame, Match, Phase, Player, Seat};

use crate::input::taps;
use crate::layout::{MatchLayout, match_layout, result_card};
use crate::match_source::{BoardSkin, NetStatus};
use crate::render::board::draw_board_on_fill;
use crate::render::fx::MatchFx;
use crate::render::gfx::{Align, Gfx, Weight, background_with, center, fill, outline};
use crate::render::key_buttons::{KeyChoice, button_row};
use crate::render::seat_colour;
use crate::render::side::{draw_hold, draw_meter, draw_next, draw_plate, draw_popups, draw_stats};
use crate::render::skin::on_board;
use crate::render::theme::{self, alpha};
use crate::screen::FrameIo;

/// The two boards the match view reads: a versus [`Match`], or a room's two-seat [`Battle`]
/// (a general room of two seats plays the same match, so both draw alike).
pub trait Duel {
    /// Rounds a player needs to win the match.
    fn first_to(&self) -> u8;
    /// Rounds won, seat by seat.
    fn wins(&self) -> [u8; 2];
    /// The round being played, from 0.
    fn round(&self) -> u32;
    /// The frame reached.
    fn frame(&self) -> Frame;
    /// Countdown, play, a round's end or the match's, with winners as seats.
    fn phase(&self) -> Phase;
    /// Frames left in the countdown.
    fn countdown_left(&self) -> Option<u32>;
    /// A seat's board.
    fn player(&self, seat: Seat) -> &Player;
    /// A seat's garbage meter: (lines queued, lines about to land).
    fn incoming(&self, seat: Seat) -> (u32, u32);
}

impl Duel for Match {
    fn first_to(&self) -> u8 {
        self.header().rules.first_to
    }
    fn wins(&self) -> [u8; 2] {
        Match::wins(self)
    }
    fn round(&self) -> u32 {
        Match::round(self)
    }
    fn frame(&self) -> Frame {
        Match::frame(self)
    }
    fn phase(&self) -> Phase {
        Match::phase(self)
    }
    fn countdown_left(&self) -> Option<u32> {
        Match::countdown_left(self)
    }
    fn player(&self, seat: Seat) -> &Player {
        Match::player(self, seat)
    }
    fn incoming(&self, seat: Seat) -> (u32, u32) {
        Match::incoming(self, seat)
    }
}

/// A battle of two seats (a room of the general kind with two seats): each seat is its own
/// team, so a team's win is its seat's.
impl<const CAP: usize> Duel for Battle<CAP> {
    fn first_to(&self) -> u8 {
        self.header().rules.first_to
    }
    fn wins(&self) -> [u8; 2] {
        let w = Battle::wins(self);
        [0, 1].map(|i| w.get(i).copied().unwrap_or(0))
    }
    fn round(&self) -> u32 {
        Battle::round(self)
    }
    fn frame(&self) -> Frame {
        Battle::frame(self)
    }
    fn phase(&self) -> Phase {
        Battle::phase(self).map(|team| self.members(team).iter().next().unwrap_or(Seat::First))
    }
    fn countdown_left(&self) -> Option<u32> {
        Battle::countdown_left(self)
    }
    fn player(&self, seat: Seat) -> &Player {
        Battle::player(self, seat)
    }
    fn incoming(&self, seat: Seat) -> (u32, u32) {
        Battle::incoming(self, seat)
    }
}

/// What the match view draws: the match and everything around it.
pub struct Scene<'a> {
    /// The match.
    pub m: &'a dyn Duel,
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
    /// Whose blocks each seat's board is drawn with.
    pub skins: [BoardSkin<'a>; 2],
    /// Seconds since the screen opened, for pulsing.
    pub time: f32,
    /// How the match ended off the boards ([`crate::match_source::MatchSource::verdict`]): the round
    /// labels are cleared so they do not contradict it.
    pub verdict: Option<&'a str>,
    /// Finesse faults counted live for a seat (practice), drawn under its stats.
    pub finesse: [Option<u32>; 2],
}

/// Draws the match described by `scene` laid out by `l`. Your board is always on the left: when
/// the only local player sits in the second seat, the two panels (and the score) swap sides.
///
/// It draws the window's background too, with the wells and side boxes as holes filled in the
/// same opaque pass ([`background_with`]): those pixels are written once.
pub fn draw_match(gfx: &Gfx, l: &MatchLayout, scene: &Scene<'_>) {
    let l = &oriented(l, scene.local);
    let m = scene.m;
    let first_to = m.first_to();
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
        on_board(scene.skins[i], || {
            draw_board_on_fill(board, cell, m.player(seat), fx, scene.time);
            draw_meter(gfx, meter, cell, m.incoming(seat), scene.time);
            draw_hold(gfx, p.hold, cell, m.player(seat));
            draw_next(gfx, p.next, cell, m.player(seat));
        });
        if !p.mini {
            draw_stats(
                gfx,
                p.stats,
                cell,
                m.player(seat),
                scene.finesse[seat.index()],
            );
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
        &format!("FIRST TO {}", m.first_to()),
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

/// A player's third line on the result card after an online match: the opponent befriended,
/// reported or blocked ([`ResultCard::extra`]).
pub const OPPONENT_LINE: &str = "A  add friend   R  report   B  block";
/// Its buttons on a touch screen.
pub const OPPONENT_BUTTONS: [KeyChoice<'static>; 3] = [
    ("Add friend", macroquad::input::KeyCode::A),
    ("Report", macroquad::input::KeyCode::R),
    ("Block", macroquad::input::KeyCode::B),
];

/// The card between the wells after a match.
pub struct ResultCard<'a> {
    /// Its first line: the verdict or the question ("REMATCH?").
    pub line1: &'a str,
    /// The keys line under it.
    pub keys: &'a str,
    /// What a touch screen shows instead of the keys line: a button a key.
    pub buttons: &'a [KeyChoice<'a>],
    /// A third line and its buttons (a player's friend, report and block keys), on a taller
    /// card.
    pub extra: Option<(&'a str, &'a [KeyChoice<'a>])>,
}

/// Draws `card` between the wells under the title and the NEXT and HOLD labels
/// ([`result_card`]; the match is over, so nothing is falling there).
pub fn draw_result_card(gfx: &Gfx, io: &FrameIo, card: &ResultCard<'_>) {
    let l = match_layout(io.width, io.height);
    let boxes = result_card(&l);
    let c = center(boxes.card);
    let r = if card.extra.is_some() {
        boxes.tall
    } else {
        boxes.card
    };
    fill(r, theme::PANEL);
    outline(r, 1.0, theme::ACCENT);
    let unit = l.cell;
    gfx.text_mid(
        card.line1,
        c.x,
        c.y - unit * 0.45,
        (unit * 0.8).round(),
        Weight::Bold,
        Align::Center,
        theme::ACCENT,
    );
    // A touch screen gets buttons for the keys the lines name.
    if taps::shown() {
        let row = |y: f32| Rect::new(r.x + unit * 0.4, y, r.w - unit * 0.8, unit * 0.9);
        button_row(gfx, row(c.y + unit * 0.15), card.buttons);
        if let Some((_, buttons)) = card.extra {
            button_row(gfx, row(c.y + unit * 1.15), buttons);
        }
        return;
    }
    for (line, dy) in [(Some(card.keys), 0.55), (card.extra.map(|e| e.0), 1.3)] {
        let Some(line) = line else { continue };
        gfx.text_mid(
            line,
            c.x,
            c.y + unit * dy,
            (unit * 0.5).round(),
            Weight::Regular,
            Align::Center,
            theme::TEXT_DIM,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_second_seat_plays_on_the_left_when_it_is_the_only_local_one() {
        let l = match_layout(1280.0, 720.0);
        let swapped = oriented(&l, [false, true]);
        assert_eq!(swapped.panels[1].board, l.panels[0].board);
        assert_eq!(swapped.panels[0].board, l.panels[1].board);
    }

    /// A general room's two-seat battle of a versus header reads, frame by frame, as the
    /// versus match of that header: the view draws both alike.
    #[test]
    fn a_two_seat_battle_reads_as_the_versus_match_of_its_header() {
        use crate::match_source::{AutoPlayer, SeatView};
        use crate::opponent::Stacker;
        use sevenbag_core::{BattleHeader, MatchHeader, SeatInput};

        let mut header = MatchHeader::versus(11);
        header.rules.first_to = 2;
        let mut m = Match::new(header);
        let mut b: Battle = Battle::new(BattleHeader::versus(&header)).expect("valid");
        let mut bots = [Stacker::new(3, 2), Stacker::new(4, 1)];
        let mut rounds_over = 0;
        while !matches!(Duel::phase(&m), Phase::MatchOver { .. }) {
            assert!(m.frame().0 < 60 * 60 * 20, "the match ends");
            let keys = Seat::BOTH.map(|s| bots[s.index()].next_for(SeatView::of_match(&m, s)));
            m.step(keys);
            let mut inputs = [SeatInput::default(); sevenbag_core::MAX_SEATS];
            inputs[0] = keys[0].into();
            inputs[1] = keys[1].into();
            b.step(&inputs);
            let (a, z): (&dyn Duel, &dyn Duel) = (&m, &b);
            assert_eq!(a.phase(), z.phase(), "frame {}", m.frame().0);
            assert_eq!(a.wins(), z.wins());
            assert_eq!(a.round(), z.round());
            assert_eq!(a.countdown_left(), z.countdown_left());
            assert_eq!(a.first_to(), z.first_to());
            for s in Seat::BOTH {
                assert_eq!(a.incoming(s), z.incoming(s));
                assert_eq!(a.player(s), z.player(s));
            }
            if m.events().round_over.is_some() {
                rounds_over += 1;
            }
        }
        assert!(rounds_over >= 2, "two rounds or more were played");
    }

    #[test]
    fn first_seat_local_spectators_and_local_pairs_keep_seat_order() {
        let l = match_layout(1280.0, 720.0);
        for local in [[true, false], [false, false], [true, true]] {
            assert_eq!(oriented(&l, local), l);
        }
    }
}
