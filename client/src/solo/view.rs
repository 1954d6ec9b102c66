//! Drawing the solo screen: the mode list with bests, a run in play or watched, its result
//! and the pause card.

use sevenbag_core::SoloMode;
use sevenbag_protocol::solo_replay::clock;

use crate::layout::list_layout;
use crate::render::gfx::{Align, Weight, background, center};
use crate::render::theme;
use crate::render::widgets::{RowState, footer, heading, menu_row, side_panel};
use crate::screen::{Ctx, FrameIo};
use crate::solo::run_view::{
    ResultCard, SoloLayout, best_text, draw_hint, draw_result, draw_run, live_rows, mode_title,
};

use super::{
    FOOTER, Mode, Playing, SoloScreen, about, key_text, label, pause_key, redo_key, restart_key,
    undo_key, upload_target,
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
                let hint = if mode == SoloMode::Zen {
                    format!(
                        "{} undo ({})   {} redo ({})   {restart} reset   Esc/{pause} pause",
                        key_text(undo_key(keys)),
                        p.run.undo_depth(),
                        key_text(redo_key(keys)),
                        p.run.redo_depth(),
                    )
                } else {
                    format!("{restart} restart   Esc/{pause} pause")
                };
                draw_hint(gfx, &l, &hint);
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
                let upload_keys = format!(
                    "R retry   W watch best   U upload to {}   Esc back",
                    upload_target(&ctx.config.server)
                );
                let card = ResultCard {
                    result: &f.result,
                    best: f.best.as_ref(),
                    new_best: f.new_best,
                    faults: f.run.finesse().faults,
                    pps_x100: solo.player().stats().pps_x100(),
                    saved: f.upload.as_ref().map_or(&f.saved, |u| u.text()),
                    keys: if f.result.mode == SoloMode::Zen {
                        "Backspace undo   R reset   Esc back"
                    } else if f.upload_bytes.is_some() && f.upload.is_none() {
                        &upload_keys
                    } else {
                        "R retry   W watch best   Esc back"
                    },
                };
                draw_result(gfx, &l, &card);
                draw_hint(gfx, &l, card.keys);
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
                        keys: "Esc back",
                    };
                    draw_result(gfx, &l, &card);
                }
                let hint = if solo.result().is_none() {
                    "watching at 1×   C continue from here (Zen)   Esc back"
                } else {
                    "watching at 1×   Esc back"
                };
                draw_hint(gfx, &l, hint);
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
        let body = format!("{}{best}", about(mode));
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
        footer(gfx, l.footer, l.unit, FOOTER, "");
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
