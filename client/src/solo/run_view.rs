//! Drawing a solo run: one well in the middle, hold and figures on its left, the next queue on
//! its right, the countdown over it, and the result card. Reads state, changes nothing.

use macroquad::prelude::*;
use sevenbag_core::solo::{SPLITS, SPRINT_LINES};
use sevenbag_core::{Solo, SoloMode, SoloResult, VISIBLE_HEIGHT, WIDTH};
use sevenbag_protocol::solo_replay::{clock, group_digits};

use crate::render::board::draw_board;
use crate::render::cells::{Style, piece_picture};
use crate::render::fx::SeatFx;
use crate::render::gfx::{Align, Gfx, Weight, center, fill, outline, panel};
use crate::render::side::draw_popups;
use crate::render::theme::{self, alpha};

/// Size of the preview blocks relative to a board cell.
const PREVIEW: f32 = 0.78;

/// Where things go on screen.
#[derive(Clone, Copy, Debug)]
pub struct SoloLayout {
    /// Side of one cell.
    pub cell: f32,
    /// The well (visible rows only).
    pub board: Rect,
    /// The hold box, left of the well.
    pub hold: Rect,
    /// The figures column under the hold box.
    pub stats: Rect,
    /// The next queue, right of the well.
    pub next: Rect,
    /// The title line.
    pub title: Rect,
    /// The hint line at the bottom.
    pub hint: Rect,
}

impl SoloLayout {
    /// A layout for a window of `w`×`h` logical pixels.
    pub fn new(w: f32, h: f32) -> SoloLayout {
        let unit = (h / 24.0).clamp(12.0, 48.0);
        let rows = f32::from(VISIBLE_HEIGHT);
        let cell = ((h - unit * 5.0) / rows)
            .min(w / (f32::from(WIDTH) + 14.0))
            .floor()
            .max(6.0);
        let board_w = cell * f32::from(WIDTH);
        let board = Rect::new(
            ((w - board_w) / 2.0).round(),
            (unit * 2.6).round(),
            board_w,
            cell * rows,
        );
        let side_w = cell * 5.0;
        let gap = cell * 0.6;
        let hold = Rect::new(board.x - gap - side_w, board.y, side_w, cell * 3.6);
        let stats = Rect::new(
            hold.x,
            hold.bottom() + cell,
            side_w,
            board.bottom() - hold.bottom() - cell,
        );
        let next = Rect::new(board.right() + gap, board.y, side_w, cell * 14.0);
        SoloLayout {
            cell,
            board,
            hold,
            stats,
            next,
            title: Rect::new(0.0, 0.0, w, unit * 2.2),
            hint: Rect::new(unit, h - unit * 1.4, w - 2.0 * unit, unit * 1.2),
        }
    }
}

/// The mode's name as a title ("40 LINES", "BLITZ", "ZEN").
pub fn mode_title(mode: SoloMode) -> &'static str {
    match mode {
        SoloMode::Sprint => "40 LINES",
        SoloMode::Blitz => "BLITZ",
        SoloMode::Zen => "ZEN",
    }
}

/// Draws the well, hold, next queue and countdown of `solo`, titled `title`; `rows` are the
/// figures (label, value) shown left of the well, `fx` its effects, `time` seconds for pulsing.
/// Once the run is over only the well is drawn: the result card covers the rest, and the card
/// must be the last thing drawn there.
pub fn draw_run(
    gfx: &Gfx,
    l: &SoloLayout,
    (solo, fx, time): (&Solo, &SeatFx, f32),
    title: &str,
    rows: &[(&str, String)],
) {
    let cell = l.cell;
    let c = center(l.title);
    gfx.text_mid(
        title,
        c.x,
        c.y,
        (cell * 0.8).round(),
        Weight::Bold,
        Align::Center,
        theme::ACCENT,
    );
    let p = solo.player();
    draw_board(l.board, cell, p, fx, time);
    if solo.result().is_some() {
        return;
    }
    panel(gfx, l.hold, Some("HOLD"), cell);
    if let Some(kind) = p.hold() {
        let style = if p.hold_used() {
            Style::Dim
        } else {
            Style::Solid
        };
        let cy = l.hold.y + cell * 1.1 + (l.hold.h - cell * 1.1) / 2.0;
        piece_picture(
            kind,
            l.hold.x + l.hold.w / 2.0,
            cy,
            (cell * PREVIEW).round(),
            style,
        );
    }
    panel(gfx, l.next, Some("NEXT"), cell);
    let slot = (l.next.h - cell * 1.2) / 5.0;
    for (i, kind) in p.next().iter().enumerate() {
        let cy = l.next.y + cell * 1.2 + slot * (i as f32 + 0.5);
        let s = if i == 0 { PREVIEW * 1.08 } else { PREVIEW };
        piece_picture(
            *kind,
            l.next.x + l.next.w / 2.0,
            cy,
            (cell * s).round(),
            Style::Solid,
        );
    }
    draw_figures(gfx, l.stats, cell, rows);
    let below_next = l.next.bottom() + cell * 0.6;
    let popups = Rect::new(
        l.next.x,
        below_next,
        l.next.w,
        l.board.bottom() - below_next,
    );
    draw_popups(gfx, popups, cell, fx);
    if let Some(pc) = &fx.perfect {
        let c = center(l.board);
        let size = (cell * 1.1 * pc.pop()).round();
        let col = alpha(pc.colour, pc.opacity());
        gfx.banner("PERFECT", c.x, c.y - size * 0.6, size, col);
        gfx.banner("CLEAR", c.x, c.y + size * 0.6, size, col);
    }
    if let Some(left) = solo.countdown_left() {
        let n = left.div_ceil(60);
        if (1..=3).contains(&n) {
            // As in versus: each number shrinks from big to its resting size during its second.
            let k = (left as f32 % 60.0) / 60.0;
            let c = center(l.board);
            gfx.banner(
                &n.to_string(),
                c.x,
                c.y,
                (cell * (3.6 + 1.6 * k)).round(),
                alpha(theme::TEXT, 0.4 + 0.6 * k.max(0.2)),
            );
        }
    } else if solo.play_frames() < 48 {
        let go = solo.play_frames() as f32 / 60.0;
        let c = center(l.board);
        gfx.banner(
            "GO!",
            c.x,
            c.y,
            (cell * (3.2 + go * 2.0)).round(),
            alpha(theme::ACCENT, (1.0 - go / 0.8).max(0.0)),
        );
    }
}

fn draw_figures(gfx: &Gfx, r: Rect, cell: f32, rows: &[(&str, String)]) {
    let x = r.right() - cell * 0.1;
    let mut y = r.y;
    for (label, value) in rows {
        if y + cell * 1.3 > r.bottom() {
            break;
        }
        gfx.text(
            label,
            x,
            y + cell * 0.5,
            (cell * 0.42).round(),
            Weight::Bold,
            Align::Right,
            theme::TEXT_FAINT,
        );
        gfx.text(
            value,
            x,
            y + cell * 1.2,
            (cell * 0.66).round(),
            Weight::Bold,
            Align::Right,
            theme::TEXT,
        );
        y += cell * 1.45;
    }
}

/// The figures shown beside a run while it is played or watched.
pub fn live_rows(
    solo: &Solo,
    faults: Option<u32>,
    best: Option<&SoloResult>,
) -> Vec<(&'static str, String)> {
    let p = solo.player();
    let s = p.stats();
    let mode = solo.header().mode;
    let mut rows = Vec::with_capacity(8);
    match solo.frames_left() {
        Some(left) => rows.push(("TIME LEFT", clock(u64::from(left)))),
        None => rows.push(("TIME", clock(u64::from(solo.play_frames())))),
    }
    rows.push(match mode {
        SoloMode::Sprint => (
            "LINES",
            format!("{} / {SPRINT_LINES}", s.lines.min(SPRINT_LINES)),
        ),
        _ => ("LINES", s.lines.to_string()),
    });
    rows.push(("PIECES", s.pieces.to_string()));
    rows.push(("PPS", crate::render::hundredths(s.pps_x100())));
    if mode != SoloMode::Sprint {
        let score = solo.score();
        rows.push(("SCORE", group_digits(score.points)));
        rows.push(("LEVEL", score.level().to_string()));
    }
    if let Some(f) = faults {
        rows.push(("FINESSE", f.to_string()));
    }
    if let Some(b) = best {
        rows.push(("BEST", best_text(b)));
    }
    rows
}

/// A personal best in a few characters ("0:58.41", "312,500").
pub fn best_text(r: &SoloResult) -> String {
    match r.mode {
        SoloMode::Sprint => clock(u64::from(r.frames)),
        _ => group_digits(r.score),
    }
}

/// One split as text: a Sprint's time at 10·n lines, a Blitz's score at 30·n seconds.
fn split_text(mode: SoloMode, v: u64) -> String {
    match mode {
        SoloMode::Sprint => clock(v),
        _ => group_digits(v),
    }
}

/// The difference of a split to the best's: "−1.23" (ahead) or "+0.50" for times, "+1,200" or
/// "−300" for scores, with the colour of being ahead or behind.
fn split_delta(mode: SoloMode, v: u64, best: u64) -> (String, Color) {
    let (ahead, diff) = match mode {
        SoloMode::Sprint => (v <= best, v.abs_diff(best)),
        _ => (v >= best, v.abs_diff(best)),
    };
    let text = match mode {
        SoloMode::Sprint => {
            let cs = diff * 100 / 60;
            format!(
                "{}{}.{:02}",
                if ahead { "−" } else { "+" },
                cs / 100,
                cs % 100
            )
        }
        _ => format!("{}{}", if ahead { "+" } else { "−" }, group_digits(diff)),
    };
    (text, if ahead { theme::GOOD } else { theme::BAD })
}

/// What the result card shows besides the result itself.
pub struct ResultCard<'a> {
    /// The run's result.
    pub result: &'a SoloResult,
    /// The best before this run (for the comparison).
    pub best: Option<&'a SoloResult>,
    /// This run is the new best.
    pub new_best: bool,
    /// Finesse faults of the run.
    pub faults: u32,
    /// Pieces per second ×100.
    pub pps_x100: u32,
    /// Where the replay went, or why it did not.
    pub saved: &'a str,
    /// The keys line at the card's foot.
    pub keys: &'a str,
}

/// Draws the result card over the well: the result, PB comparison, splits and figures.
pub fn draw_result(gfx: &Gfx, l: &SoloLayout, card: &ResultCard<'_>) {
    let cell = l.cell;
    let w = (cell * 15.0).min(l.next.right() - l.hold.x);
    let r = Rect::new(
        center(l.board).x - w / 2.0,
        l.board.y + cell * 2.0,
        w,
        cell * 13.5,
    );
    fill(r, alpha(theme::PANEL, 0.96));
    outline(r, 1.0, theme::ACCENT);
    let cx = r.x + r.w / 2.0;
    let res = card.result;
    let headline = sevenbag_protocol::solo_replay::result_text(res);
    let mut y = r.y + cell * 1.3;
    let line = |y: f32, t: &str, size: f32, weight: Weight, colour: Color| {
        gfx.text(
            t,
            cx,
            y,
            (cell * size).round(),
            weight,
            Align::Center,
            colour,
        );
    };
    line(y, mode_title(res.mode), 0.55, Weight::Bold, theme::TEXT_DIM);
    y += cell * 1.7;
    let colour = if res.ranked() || res.mode == SoloMode::Zen {
        theme::TEXT
    } else {
        theme::BAD
    };
    line(y, &headline, 1.2, Weight::Bold, colour);
    y += cell * 1.3;
    let pb_line = match (card.new_best, card.best) {
        (true, _) => ("NEW PERSONAL BEST!".to_owned(), theme::ACCENT),
        (false, Some(b)) => (format!("personal best {}", best_text(b)), theme::TEXT_DIM),
        (false, None) => (String::new(), theme::TEXT_DIM),
    };
    line(y, &pb_line.0, 0.6, Weight::Bold, pb_line.1);
    y += cell * 1.4;
    // Splits, with the best's beside them.
    let label = |i: usize| match res.mode {
        SoloMode::Sprint => format!("{} lines", 10 * (i + 1)),
        _ => format!("{} s", 30 * (i + 1)),
    };
    if res.mode != SoloMode::Zen {
        for i in 0..SPLITS {
            let Some(v) = res.splits[i] else { continue };
            let left = r.x + cell * 1.0;
            gfx.text(
                &label(i),
                left,
                y,
                (cell * 0.5).round(),
                Weight::Regular,
                Align::Left,
                theme::TEXT_DIM,
            );
            gfx.text(
                &split_text(res.mode, v),
                r.x + r.w * 0.62,
                y,
                (cell * 0.5).round(),
                Weight::Bold,
                Align::Right,
                theme::TEXT,
            );
            if let Some(b) = card.best.and_then(|b| b.splits[i]) {
                let (t, c) = split_delta(res.mode, v, b);
                gfx.text(
                    &t,
                    r.right() - cell,
                    y,
                    (cell * 0.5).round(),
                    Weight::Bold,
                    Align::Right,
                    c,
                );
            }
            y += cell * 0.8;
        }
    }
    y += cell * 0.5;
    let figures = format!(
        "{} lines · {} pieces · {} PPS · {} finesse",
        res.lines,
        res.pieces,
        crate::render::hundredths(card.pps_x100),
        card.faults
    );
    line(y, &figures, 0.45, Weight::Regular, theme::TEXT_DIM);
    y += cell * 0.9;
    line(
        y,
        &gfx.fit(
            card.saved,
            r.w - cell,
            (cell * 0.4).round(),
            Weight::Regular,
        ),
        0.4,
        Weight::Regular,
        theme::TEXT_FAINT,
    );
    line(
        r.bottom() - cell * 0.7,
        card.keys,
        0.5,
        Weight::Bold,
        theme::ACCENT2,
    );
}

/// Draws the hint line at the bottom.
pub fn draw_hint(gfx: &Gfx, l: &SoloLayout, text: &str) {
    gfx.text(
        text,
        l.hint.x,
        l.hint.y + l.hint.h * 0.7,
        (l.cell * 0.5).round(),
        Weight::Regular,
        Align::Left,
        theme::TEXT_DIM,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_deltas_are_signed_toward_being_ahead() {
        assert_eq!(split_delta(SoloMode::Sprint, 600, 660).0, "−1.00");
        assert_eq!(split_delta(SoloMode::Sprint, 690, 660).0, "+0.50");
        assert_eq!(split_delta(SoloMode::Blitz, 5_000, 3_800).0, "+1,200");
        assert_eq!(split_delta(SoloMode::Blitz, 3_500, 3_800).0, "−300");
    }

    #[test]
    fn the_layout_keeps_everything_inside_the_window() {
        for (w, h) in [(1280.0, 720.0), (800.0, 600.0), (1920.0, 1080.0)] {
            let l = SoloLayout::new(w, h);
            assert!(l.hold.x >= 0.0, "{w}x{h}");
            assert!(l.next.right() <= w, "{w}x{h}");
            assert!(l.board.bottom() <= l.hint.y, "{w}x{h}");
        }
    }
}
