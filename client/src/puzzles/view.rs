//! Drawing a puzzle being played: the well (the versus well, from the core's `Player`), the
//! hold and the puzzle's remaining queue, the goal in words, the hint outline, the share code,
//! the SOLVED / FAILED banner and the key hints. Reads state only.

use macroquad::prelude::*;
use sevenbag_core::Piece;
use sevenbag_puzzle::Status;

use crate::input::taps;
use crate::puzzles::game::{Hint, PuzzleGame, goal_text};
use crate::render::board::draw_board;
use crate::render::cells::{Style, piece_picture};
use crate::render::fx::SeatFx;
use crate::render::gfx::{Align, Gfx, Weight, background, panel};
use crate::render::key_buttons::{KeyChoice, button_row};
use crate::render::metrics::fit_size;
use crate::render::theme::{self, alpha};
use crate::render::widgets::wrap;

/// Queue pieces shown at most (a 10-piece queue shows its first 7 and "+3").
const SHOWN: usize = 7;

/// Where things go.
struct PuzzleLayout {
    unit: f32,
    cell: f32,
    well: Rect,
    left: Rect,
    right: Rect,
}

impl PuzzleLayout {
    fn new(w: f32, h: f32) -> PuzzleLayout {
        let unit = (h / 24.0).clamp(10.0, 48.0).floor();
        let cell = ((h - unit * 5.5) / 20.0)
            .min(w * 0.36 / 10.0)
            .floor()
            .max(6.0);
        let well_w = cell * 10.0;
        let side_w = (cell * 6.0)
            .max(unit * 7.0)
            .min((w - well_w) / 2.0 - unit * 1.5);
        let well = Rect::new(
            ((w - well_w) / 2.0).round(),
            unit * 3.0,
            well_w,
            cell * 20.0,
        );
        let left = Rect::new(well.x - unit * 1.2 - side_w, well.y, side_w, well.h);
        let right = Rect::new(well.right() + unit * 1.2, well.y, side_w, well.h);
        PuzzleLayout {
            unit,
            cell,
            well,
            left,
            right,
        }
    }

    /// The top-left corner of board cell `(x, y)` (row 0 at the bottom).
    fn cell_pos(&self, x: i8, y: i8) -> (f32, f32) {
        (
            self.well.x + f32::from(x) * self.cell,
            self.well.bottom() - f32::from(y + 1) * self.cell,
        )
    }
}

/// Draws `game` filling a `w` × `h` window; `keys` is the key-hint line.
pub fn draw_puzzle(gfx: &Gfx, w: f32, h: f32, game: &PuzzleGame, keys: &str, time: f32) {
    background(w, h);
    let l = PuzzleLayout::new(w, h);
    let u = l.unit;
    let a = game.attempt();
    let puzzle = a.puzzle();
    let code = format!("code  {}", game.made.code());
    // The title gives way to the code on a narrow screen (cut with "…", never under it).
    let code_w = gfx.width(&code, (u * 0.75).round(), Weight::Bold);
    let title_room = l.right.right() - l.left.x - code_w - u;
    gfx.text(
        &gfx.fit(
            &game.made.title,
            title_room,
            (u * 0.9).round(),
            Weight::Bold,
        ),
        l.left.x,
        u * 1.7,
        (u * 0.9).round(),
        Weight::Bold,
        Align::Left,
        theme::ACCENT,
    );
    gfx.text(
        &code,
        l.right.right(),
        u * 1.7,
        (u * 0.75).round(),
        Weight::Bold,
        Align::Right,
        theme::ACCENT2,
    );

    draw_board(l.well, l.cell, a.player(), &SeatFx::default(), time);
    if let Hint::Place { step, .. } = game.hint() {
        draw_hint(&l, &step.piece);
    }

    // Left: hold, then the goal.
    let hold_r = Rect::new(l.left.x, l.left.y, l.left.w, l.cell * 3.6);
    let hold_caption = if puzzle.options.hold {
        "HOLD"
    } else {
        "HOLD · OFF"
    };
    panel(gfx, hold_r, Some(hold_caption), u);
    if let Some(kind) = a.player().hold() {
        let style = if a.player().hold_used() {
            Style::Dim
        } else {
            Style::Solid
        };
        let cy = hold_r.y + u * 1.1 + (hold_r.h - u * 1.1) / 2.0;
        piece_picture(kind, hold_r.center().x, cy, (l.cell * 0.78).round(), style);
    }
    let goal_r = Rect::new(
        l.left.x,
        hold_r.bottom() + u,
        l.left.w,
        l.left.bottom() - hold_r.bottom() - u,
    );
    panel(gfx, goal_r, Some("GOAL"), u);
    let hold = if puzzle.options.hold {
        "hold on"
    } else {
        "no hold"
    };
    let lines = [
        (
            goal_text(&puzzle.options),
            u * 0.8,
            theme::TEXT,
            Weight::Bold,
        ),
        (
            format!("{} pieces · {hold}", puzzle.queue.len()),
            u * 0.6,
            theme::TEXT_DIM,
            Weight::Regular,
        ),
        (
            format!("grade {}", game.made.grade_text()),
            u * 0.6,
            theme::TEXT_DIM,
            Weight::Regular,
        ),
    ];
    let mut y = goal_r.y + u * 1.9;
    for (text, size, colour, weight) in lines {
        // Bold runs wider than the regular face `wrap` measures: leave it room.
        for line in wrap(gfx, &text, (goal_r.w - u * 0.8) * 0.88, size.round()) {
            gfx.text(
                &line,
                goal_r.x + u * 0.4,
                y,
                size.round(),
                weight,
                Align::Left,
                colour,
            );
            y += size * 1.35;
        }
        y += u * 0.35;
    }

    // Right: the queue left, then progress and the hint.
    let next = a.preview();
    // The queue takes at most 60% of the column, so the progress panel always fits below.
    let shown = next.len().clamp(1, SHOWN) as f32;
    let slot = (l.cell * 2.4).min((l.right.h * 0.6 - u * 1.3) / shown);
    let next_h = u * 1.3 + slot * shown;
    let next_r = Rect::new(l.right.x, l.right.y, l.right.w, next_h);
    panel(gfx, next_r, Some("NEXT"), u);
    for (i, kind) in next.iter().take(SHOWN).enumerate() {
        let cy = next_r.y + u * 1.3 + slot * (i as f32 + 0.5);
        piece_picture(
            *kind,
            next_r.center().x,
            cy,
            (l.cell * 0.78).min(slot * 0.4).round(),
            Style::Solid,
        );
    }
    if next.len() > SHOWN {
        gfx.text(
            &format!("+{}", next.len() - SHOWN),
            next_r.right() - u * 0.4,
            next_r.bottom() - u * 0.3,
            (u * 0.6).round(),
            Weight::Bold,
            Align::Right,
            theme::TEXT_DIM,
        );
    }
    let info_r = Rect::new(
        l.right.x,
        next_r.bottom() + u,
        l.right.w,
        l.right.bottom() - next_r.bottom() - u,
    );
    panel(gfx, info_r, Some("PROGRESS"), u);
    let progress = format!("{} of {} placed", a.placed(), puzzle.queue.len());
    let hint = match game.hint() {
        Hint::Off if taps::shown() => "Hint for a hint".to_owned(),
        Hint::Off => "H for a hint".to_owned(),
        Hint::Thinking => "hint: thinking…".to_owned(),
        Hint::Place { step, hold } => {
            let letter = step.piece.kind.letter();
            if hold {
                format!("hint: hold, then place the {letter} in the blue outline")
            } else {
                format!("hint: place the {letter} in the blue outline")
            }
        }
        Hint::NoSolution => "hint: no solution is left from here: undo or reset".to_owned(),
        Hint::Unknown => "hint: the solver found nothing in time".to_owned(),
        Hint::Solved => "hint: none needed, it is solved".to_owned(),
    };
    let mut y = info_r.y + u * 1.9;
    let progress_size = fit_size(
        |px| gfx.width(&progress, px, Weight::Bold),
        (u * 0.7).round(),
        info_r.w - u * 0.8,
    );
    gfx.text(
        &progress,
        info_r.x + u * 0.4,
        y,
        progress_size,
        Weight::Bold,
        Align::Left,
        theme::TEXT,
    );
    y += u * 1.2;
    for line in wrap(gfx, &hint, info_r.w - u * 0.8, (u * 0.6).round()) {
        gfx.text(
            &line,
            info_r.x + u * 0.4,
            y,
            (u * 0.6).round(),
            Weight::Regular,
            Align::Left,
            theme::ACCENT2,
        );
        y += u * 0.85;
    }

    draw_banner(gfx, &l, a.status());
    if taps::shown() {
        let area = Rect::new(u, h - u * 1.9, w - u * 2.0, (u * 1.4).max(24.0));
        button_row(gfx, area, &PLAY_BUTTONS);
        return;
    }
    gfx.text(
        &gfx.fit(keys, w - u * 2.0, (u * 0.55).round(), Weight::Regular),
        w / 2.0,
        h - u * 0.7,
        (u * 0.55).round(),
        Weight::Regular,
        Align::Center,
        theme::TEXT_DIM,
    );
}

/// The buttons a touch screen shows in place of the key line while a puzzle is played.
const PLAY_BUTTONS: [KeyChoice<'static>; 5] = [
    ("Undo", KeyCode::Backspace),
    ("Reset", KeyCode::R),
    ("Hint", KeyCode::H),
    ("Next", KeyCode::N),
    ("Copy link", KeyCode::L),
];

/// The hinted placement: blue cells with a bright outline, unlike any piece's ghost.
fn draw_hint(l: &PuzzleLayout, piece: &Piece) {
    let t = (l.cell * 0.12).round().max(2.0);
    for (x, y) in piece.cells() {
        let (px, py) = l.cell_pos(x, y);
        draw_rectangle(px, py, l.cell, l.cell, alpha(theme::ACCENT2, 0.3));
        draw_rectangle_lines(px, py, l.cell, l.cell, t, theme::ACCENT2);
    }
}

/// SOLVED or FAILED across the well, with what to do next.
fn draw_banner(gfx: &Gfx, l: &PuzzleLayout, status: Status) {
    let (title, text, colour) = match status {
        Status::Playing => return,
        Status::Solved => (
            "SOLVED",
            "Enter or N  next puzzle\nR  play it again".to_owned(),
            theme::GOOD,
        ),
        Status::Failed(why) => (
            "FAILED",
            format!("{}\nEnter or R  retry\nBackspace  undo", why.describe()),
            theme::BAD,
        ),
    };
    let u = l.unit;
    let size = (u * 0.55).round();
    let w = l.well.w + u;
    let lines = wrap(gfx, &text, w - u * 1.2, size);
    let h = u * 3.4 + lines.len() as f32 * u * 0.85;
    let r = Rect::new(l.well.x - u * 0.5, l.well.y + l.well.h * 0.25, w, h);
    // The card covers the text drawn under it.
    gfx.flush_text();
    draw_rectangle(r.x, r.y, r.w, r.h, alpha(theme::PANEL, 0.94));
    draw_rectangle_lines(r.x, r.y, r.w, r.h, 2.0, colour);
    gfx.banner(
        title,
        r.center().x,
        r.y + u * 1.5,
        (u * 1.6).round(),
        colour,
    );
    let mut y = r.y + u * 3.2;
    for line in lines {
        gfx.text_mid(
            &line,
            r.center().x,
            y,
            size,
            Weight::Regular,
            Align::Center,
            theme::TEXT,
        );
        y += u * 0.85;
    }
}

/// "Generating…" (or any one-line wait) in the middle of the window.
pub fn draw_wait(gfx: &Gfx, w: f32, h: f32, title: &str, line: &str, time: f32) {
    background(w, h);
    let u = (h / 24.0).clamp(10.0, 48.0).floor();
    gfx.text_mid(
        title,
        w / 2.0,
        h / 2.0 - u,
        (u * 1.1).round(),
        Weight::Bold,
        Align::Center,
        theme::ACCENT,
    );
    let dots = ".".repeat(1 + (time * 3.0) as usize % 3);
    gfx.text_mid(
        &format!("{line}{dots}"),
        w / 2.0,
        h / 2.0 + u * 0.6,
        (u * 0.7).round(),
        Weight::Regular,
        Align::Center,
        theme::TEXT_DIM,
    );
}
