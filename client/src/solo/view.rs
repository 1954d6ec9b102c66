//! Drawing the solo screen: the mode list with bests, a run in play or watched, its result
//! and the pause card.

use macroquad::input::KeyCode;
use macroquad::math::Rect;
use sevenbag_core::SoloMode;
use sevenbag_protocol::solo_replay::clock;

use crate::drill::Drill;
use crate::input::taps;
use crate::layout::list_layout;
use crate::render::gfx::{Align, Gfx, Weight, background, center};
use crate::render::key_buttons::{KeyChoice, button_row, footer_keys};
use crate::render::theme;
use crate::render::widgets::{RowState, heading, menu_row, side_panel};
use crate::screen::{Ctx, FrameIo};
use crate::solo::run_view::{
    ResultCard, SoloLayout, best_text, draw_hint, draw_result, draw_run, live_rows, mode_title,
    result_keys,
};

use super::{
    FOOTER, Mode, Playing, SoloScreen, about, index, key_text, label, pause_key, redo_key,
    restart_key, undo_key, upload_target,
};

impl SoloScreen {
    /// Draws the screen.
    pub(super) fn draw_view(&self, ctx: &Ctx, io: &FrameIo) {
        let gfx = &ctx.gfx;
        background(io.width, io.height);
        let l = SoloLayout::new(io.width, io.height);
        match &self.mode {
            Mode::Pick => self.draw_pick(ctx, io),
            Mode::Past(list) => list.draw(ctx, io),
            Mode::Play(p) if p.paused => draw_paused(ctx, &l, p, io),
            Mode::Play(p) => {
                let solo = p.run.solo();
                let mode = solo.header().mode;
                let rows = live_rows(solo, Some(p.run.finesse().faults), self.best(mode).as_ref());
                draw_run(
                    gfx,
                    &l,
                    (solo, &p.fx.seats[0], ctx.time),
                    mode_title(mode),
                    &rows,
                );
                let keys = &ctx.config.keys;
                let restart = key_text(restart_key(keys));
                let pause = key_text(pause_key(keys));
                let (undo, redo) = (p.run.undo_depth(), p.run.redo_depth());
                let hint = if mode == SoloMode::Zen {
                    format!(
                        "{} undo ({undo})   {} redo ({redo})   {restart} reset   Esc/{pause} pause",
                        key_text(undo_key(keys)),
                        key_text(redo_key(keys)),
                    )
                } else {
                    format!("{restart} restart   Esc/{pause} pause")
                };
                let (undo, redo) = (format!("Undo ({undo})"), format!("Redo ({redo})"));
                let buttons: Vec<KeyChoice> = if mode == SoloMode::Zen {
                    vec![
                        (&undo, undo_key(keys)),
                        (&redo, redo_key(keys)),
                        ("Reset", restart_key(keys)),
                        ("Pause", pause_key(keys)),
                    ]
                } else {
                    vec![("Restart", restart_key(keys)), ("Pause", pause_key(keys))]
                };
                draw_keys(gfx, &l, &hint, &buttons);
            }
            Mode::Result(f) => {
                let solo = f.run.solo();
                let rows = live_rows(solo, Some(f.run.finesse().faults), None);
                draw_run(
                    gfx,
                    &l,
                    (solo, &f.fx.seats[0], ctx.time),
                    mode_title(f.result.mode),
                    &rows,
                );
                // W only with a best to watch (after this run, the best may be this run).
                let has_best = self.bests[index(f.result.mode)].is_some();
                let can_upload = f.upload_bytes.is_some() && f.upload.is_none();
                let keys = result_keys(
                    f.result.mode,
                    has_best,
                    can_upload.then(|| upload_target(&ctx.config.server)),
                );
                let card = ResultCard {
                    result: &f.result,
                    best: f.best.as_ref(),
                    new_best: f.new_best,
                    faults: f.run.finesse().faults,
                    pps_x100: solo.player().stats().pps_x100(),
                    saved: f.upload.as_ref().map_or(&f.saved, |u| u.text()),
                    keys: if taps::shown() { "" } else { &keys },
                };
                draw_result(gfx, &l, &card);
                let buttons: Vec<KeyChoice> = if f.result.mode == SoloMode::Zen {
                    vec![("Undo", undo_key(&ctx.config.keys)), ("Reset", KeyCode::R)]
                } else {
                    let mut b = vec![("Retry", KeyCode::R)];
                    if has_best {
                        b.push(("Watch best", KeyCode::W));
                    }
                    if can_upload {
                        b.push(("Upload", KeyCode::U));
                    }
                    b
                };
                draw_keys(gfx, &l, &keys, &buttons);
            }
            Mode::Watch(w) => {
                let solo = w.run.solo();
                let rows = live_rows(solo, Some(w.run.finesse().faults), None);
                draw_run(gfx, &l, (solo, &w.fx.seats[0], ctx.time), &w.title, &rows);
                if let Some(result) = solo.result() {
                    let card = ResultCard {
                        result: &result,
                        best: None,
                        new_best: false,
                        faults: w.run.finesse().faults,
                        pps_x100: solo.player().stats().pps_x100(),
                        saved: "end of replay",
                        keys: if taps::shown() { "" } else { "Esc back" },
                    };
                    draw_result(gfx, &l, &card);
                }
                let hint = if solo.result().is_none() {
                    "watching at 1×   C continue from here (Zen)   Esc back"
                } else {
                    "watching at 1×   Esc back"
                };
                let buttons: &[KeyChoice] = if solo.result().is_none() {
                    &[("Play on (Zen)", KeyCode::C)]
                } else {
                    &[]
                };
                draw_keys(gfx, &l, hint, buttons);
            }
        }
    }

    fn draw_pick(&self, ctx: &Ctx, io: &FrameIo) {
        let gfx = &ctx.gfx;
        let n = SoloMode::ALL.len();
        let l = list_layout(io.width, io.height, n);
        heading(gfx, l.title, l.unit, "SOLO", "40 lines, Blitz and Zen");
        for (i, mode) in SoloMode::ALL.into_iter().enumerate() {
            let state = RowState {
                selected: i == self.selected,
                enabled: true,
            };
            let tag = self.best(mode).map(|b| best_text(&b)).unwrap_or_default();
            menu_row(gfx, l.row(i), l.unit, label(mode), &tag, state, ctx.time);
        }
        let mode = SoloMode::ALL[self.selected];
        let best = match self.best(mode) {
            Some(b) => format!("\n\nYour best: {}.", best_text(&b)),
            None if mode == SoloMode::Zen => String::new(),
            None => "\n\nNo personal best yet.".to_owned(),
        };
        let drill = crate::input::taps::hint("F changes it", "the Finesse button changes it");
        let training = match self.drill {
            Drill::RedoPiece => format!("{} (Zen)", self.drill.label()),
            d => d.label(),
        };
        let body = format!("{}{best}\n\n{training}. {drill}.", about(mode));
        side_panel(gfx, l.side, l.unit, label(mode), &body);
        if let Some(m) = &self.message {
            gfx.text(
                m,
                l.side.x,
                l.footer.y - l.unit * 0.6,
                (l.unit * 0.5).round(),
                Weight::Regular,
                Align::Left,
                theme::BAD,
            );
        }
        footer_keys(
            gfx,
            l.footer,
            l.unit,
            FOOTER,
            &[
                ("Finesse", KeyCode::F),
                ("Watch best", KeyCode::W),
                ("Past runs", KeyCode::P),
                ("Leaderboard", KeyCode::L),
            ],
            "",
        );
    }
}

/// The paused run: its title and figures, but no board, hold or queue (so a pause cannot be
/// used to plan), and the keys to go on.
fn draw_paused(ctx: &Ctx, l: &SoloLayout, p: &Playing, io: &FrameIo) {
    let gfx = &ctx.gfx;
    let solo = p.run.solo();
    let mode = solo.header().mode;
    let c = center(l.title);
    gfx.text_mid(
        mode_title(mode),
        c.x,
        c.y,
        (l.cell * 0.8).round(),
        Weight::Bold,
        Align::Center,
        theme::ACCENT,
    );
    let keys = &ctx.config.keys;
    let pause = key_text(pause_key(keys));
    let restart = key_text(restart_key(keys));
    let unit = (io.height / 24.0).clamp(12.0, 48.0);
    let lines = [
        ("PAUSED", 2.0, theme::ACCENT, Weight::Bold),
        (
            &*format!("time {}", clock(u64::from(solo.play_frames()))),
            0.8,
            theme::TEXT,
            Weight::Regular,
        ),
        (
            if mode == SoloMode::Zen {
                ""
            } else {
                "a paused run is not a personal best"
            },
            0.6,
            theme::TEXT_DIM,
            Weight::Regular,
        ),
        (
            &*format!("Esc/{pause} resume   {restart} restart   Q leave"),
            0.7,
            theme::ACCENT2,
            Weight::Bold,
        ),
    ];
    let mut y = io.height * 0.38;
    for (text, size, colour, weight) in lines {
        gfx.text_mid(
            text,
            io.width / 2.0,
            y,
            (unit * size).round(),
            weight,
            Align::Center,
            colour,
        );
        y += unit * (size + 0.9);
    }
}

/// The key line under the well, or on a touch screen a button for each key it names.
fn draw_keys(gfx: &Gfx, l: &SoloLayout, hint: &str, buttons: &[KeyChoice]) {
    if taps::shown() {
        let h = (l.cell * 1.4).max(l.hint.h);
        let area = Rect::new(l.hint.x, l.hint.bottom() - h, l.hint.w, h);
        button_row(gfx, area, buttons);
    } else {
        draw_hint(gfx, l, hint);
    }
}
