//! The results table of a match of several seats, drawn over the screen: a title, a row of
//! column heads, one row per seat (a place, a name, then figures right-aligned) and a keys line.
//! The free-for-all's end of match and a stored match of the profile screen fill it alike.

use macroquad::prelude::*;

use crate::render::gfx::{Align, Gfx, Weight, fill, outline};
use crate::render::key_buttons::{KeyChoice, button_row};
use crate::render::theme::{self, alpha, rgb};

/// Team colours, by team number.
pub const TEAMS: [Color; 4] = [
    theme::ACCENT2,
    theme::ACCENT,
    theme::GOOD,
    rgb(206, 132, 255),
];

/// One seat's row.
#[derive(Clone, Debug, PartialEq)]
pub struct TableRow {
    /// The cells, one per column: place, name, then the figures.
    pub cells: Vec<String>,
    /// The row's colour (yours, its team's, or plain).
    pub colour: Color,
}

/// What the table shows.
#[derive(Clone, Debug, PartialEq)]
pub struct ResultsTable {
    /// The line at the top ("MATCH OVER · ANN WINS").
    pub title: String,
    /// Column heads, one per column; the first two are left-aligned, the rest right-aligned.
    pub heads: Vec<&'static str>,
    /// Where each column's text is anchored, as a fraction of the table's width.
    pub columns: Vec<f32>,
    /// Rows, best place first.
    pub rows: Vec<TableRow>,
    /// The keys line under the rows.
    pub keys: String,
    /// On a touch screen, the buttons in place of the keys line (a phone has no keys; a tap
    /// elsewhere does nothing, so the table stays until one is tapped).
    pub buttons: Vec<KeyChoice<'static>>,
    /// The table's width in row heights (wider for more columns).
    pub width_rows: f32,
}

/// Draws `t` in the middle of `window`, dimming what is behind it.
pub fn draw_results_table(gfx: &Gfx, window: Rect, t: &ResultsTable) {
    // Rows as tall as a 22nd of the window, but no taller than its width allows the columns
    // (a phone held upright is laid out tall and narrow).
    let row_h = (window.h / 22.0)
        .min(window.w / t.width_rows)
        .clamp(18.0, 34.0)
        .round();
    let size = (row_h * 0.55).round();
    let w = (window.w * 0.9).min(row_h * t.width_rows);
    let buttons = crate::input::taps::shown() && !t.buttons.is_empty();
    // Buttons are a row and a half tall (a finger's size): the table grows to keep them clear
    // of the last row.
    let h = row_h * (t.rows.len() as f32 + if buttons { 4.9 } else { 3.6 });
    let r = Rect::new(
        ((window.w - w) / 2.0).round(),
        ((window.h - h) / 2.0).round(),
        w,
        h,
    );
    gfx.flush_text();
    fill(window, alpha(BLACK, 0.45));
    fill(r, theme::PANEL);
    outline(r, 2.0, theme::ACCENT);
    gfx.text_mid(
        &gfx.fit(&t.title, w - 20.0, size * 1.3, Weight::Bold),
        r.x + w / 2.0,
        r.y + row_h * 0.8,
        (size * 1.3).round(),
        Weight::Bold,
        Align::Center,
        theme::ACCENT,
    );
    let cols: Vec<f32> = t.columns.iter().map(|f| r.x + w * f).collect();
    let align = |i: usize| if i < 2 { Align::Left } else { Align::Right };
    let y0 = r.y + row_h * 1.9;
    for (i, (head, x)) in t.heads.iter().zip(&cols).enumerate() {
        gfx.text_mid(
            head,
            *x,
            y0,
            (size * 0.8).round(),
            Weight::Bold,
            align(i),
            theme::TEXT_FAINT,
        );
    }
    // A name stops short of the first figure column.
    let name_w = cols.get(2).zip(cols.get(1)).map_or(w, |(a, b)| a - b) - size * 3.0;
    for (k, row) in t.rows.iter().enumerate() {
        let y = y0 + row_h * (k as f32 + 1.0);
        for (i, (text, x)) in row.cells.iter().zip(&cols).enumerate() {
            let weight = if i == 0 {
                Weight::Bold
            } else {
                Weight::Regular
            };
            let text = if i == 1 {
                gfx.fit(text, name_w, size, weight)
            } else {
                text.clone()
            };
            gfx.text_mid(&text, *x, y, size, weight, align(i), row.colour);
        }
    }
    if buttons {
        let bh = row_h * 1.5;
        let area = Rect::new(
            r.x + row_h * 0.5,
            r.bottom() - bh - row_h * 0.3,
            w - row_h,
            bh,
        );
        button_row(gfx, area, &t.buttons);
        return;
    }
    gfx.text_mid(
        &gfx.fit(&t.keys, w - 20.0, size, Weight::Regular),
        r.x + w / 2.0,
        r.bottom() - row_h * 0.7,
        size,
        Weight::Regular,
        Align::Center,
        theme::TEXT_DIM,
    );
}
