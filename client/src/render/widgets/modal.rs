//! Boxes over a screen: a notice near the bottom, a modal with a column of options.

use macroquad::prelude::*;

use crate::render::gfx::{Align, Gfx, Weight, fill, outline};
use crate::render::theme::{self, alpha, mix};

use super::{RowState, menu_row, wrap};

/// A message box centred near the bottom of the window (errors and confirmations).
pub fn notice(gfx: &Gfx, w: f32, h: f32, unit: f32, text: &str, colour: Color) {
    let size = (unit * 0.8).round();
    let max_w = (w * 0.8).min(unit * 50.0);
    let lines = wrap(gfx, text, max_w - unit * 2.0, size);
    let line_h = size * 1.4;
    let box_w = lines
        .iter()
        .map(|l| gfx.width(l, size, Weight::Regular))
        .fold(0.0, f32::max)
        + unit * 2.0;
    let box_h = line_h * lines.len() as f32 + unit * 1.2;
    let r = Rect::new((w - box_w) / 2.0, h - box_h - unit * 3.6, box_w, box_h);
    fill(r, alpha(mix(theme::PANEL, colour, 0.12), 0.97));
    outline(r, 1.0, colour);
    draw_rectangle(r.x, r.y, unit * 0.2, r.h, colour);
    let mut y = r.y + unit * 0.6 + size;
    for line in lines {
        gfx.text(
            &line,
            r.x + unit,
            y,
            size,
            Weight::Regular,
            Align::Left,
            theme::TEXT,
        );
        y += line_h;
    }
}

/// Where a modal box and its option rows go (pure, so a screen can hit-test before drawing).
pub fn modal_layout(w: f32, h: f32, unit: f32, rows: usize) -> (Rect, Vec<Rect>) {
    let row_h = unit * 2.2;
    let box_w = (unit * 24.0).min(w * 0.9);
    let box_h = unit * 4.5 + row_h * rows as f32;
    let r = Rect::new(
        ((w - box_w) / 2.0).round(),
        ((h - box_h) / 2.0).round(),
        box_w,
        box_h,
    );
    let rows = (0..rows)
        .map(|i| {
            Rect::new(
                r.x + unit,
                r.y + unit * 3.6 + row_h * i as f32,
                r.w - 2.0 * unit,
                row_h - unit * 0.35,
            )
        })
        .collect();
    (r, rows)
}

/// A modal box in the middle of the screen with a title and a column of options.
#[allow(clippy::too_many_arguments)]
pub fn modal(
    gfx: &Gfx,
    w: f32,
    h: f32,
    unit: f32,
    title: &str,
    options: &[&str],
    selected: usize,
    time: f32,
) {
    // The dimming covers the text drawn under the modal.
    gfx.flush_text();
    draw_rectangle(0.0, 0.0, w, h, alpha(BLACK, 0.6));
    let (r, rows) = modal_layout(w, h, unit, options.len());
    fill(r, theme::PANEL);
    outline(r, 1.0, theme::FRAME);
    let tsize = (unit * 1.6).round();
    gfx.text(
        title,
        r.x + r.w / 2.0,
        r.y + unit * 1.2 + tsize,
        tsize,
        Weight::Bold,
        Align::Center,
        theme::TEXT,
    );
    for (i, (label, rr)) in options.iter().zip(rows).enumerate() {
        menu_row(
            gfx,
            rr,
            unit,
            label,
            "",
            RowState {
                selected: i == selected,
                enabled: true,
            },
            time,
        );
    }
}
