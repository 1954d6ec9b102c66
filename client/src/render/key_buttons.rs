//! Drawing key buttons ([`crate::input::taps`]): a row of labelled buttons, each standing for a
//! key, that a touch screen shows where a desktop shows the key's name.

use macroquad::input::KeyCode;
use macroquad::math::Rect;

use crate::input::taps;
use crate::render::gfx::{Align, Gfx, Weight, center, fill, outline};
use crate::render::metrics::fit_size;
use crate::render::theme::{self, alpha};
use crate::render::widgets::{footer, targets};

/// One key button: what it says and the key it presses.
pub type KeyChoice<'a> = (&'a str, KeyCode);

/// The rectangles of `n` buttons in a row across `area`: equal widths, at most `widest` each,
/// a gap of a tenth of the height between them, centred.
pub fn row_rects(area: Rect, n: usize, widest: f32) -> Vec<Rect> {
    if n == 0 || area.w <= 0.0 {
        return Vec::new();
    }
    let gap = (area.h * 0.2).max(2.0);
    let each = ((area.w - gap * (n - 1) as f32) / n as f32)
        .min(widest)
        .max(1.0);
    let used = each * n as f32 + gap * (n - 1) as f32;
    let x0 = area.x + (area.w - used) / 2.0;
    (0..n)
        .map(|i| Rect::new(x0 + i as f32 * (each + gap), area.y, each, area.h))
        .collect()
}

/// Draws `buttons` in a row across `area` and notes them, so a tap presses their keys.
pub fn button_row(gfx: &Gfx, area: Rect, buttons: &[KeyChoice]) {
    let rects = row_rects(area, buttons.len(), area.h * 4.5);
    for (r, &(label, key)) in rects.iter().zip(buttons) {
        draw_button(gfx, *r, label);
        taps::record(*r, key, label);
        targets::record(&format!("key:{label}"), *r);
    }
}

/// A list screen's footer: its key hints on a desktop; on a touch screen its right-hand text
/// and `buttons` for the keys a tap on a row cannot reach (a phone has no keys to name).
pub fn footer_keys(gfx: &Gfx, r: Rect, unit: f32, hints: &str, buttons: &[KeyChoice], right: &str) {
    footer(gfx, r, unit, hints, right);
    if taps::shown() && !buttons.is_empty() {
        // As tall as a row, growing up from the footer's bottom; the whole line
        // when there is no right-hand text.
        let h = r.h * 1.4;
        let w = if right.is_empty() { r.w } else { r.w * 0.62 };
        let area = Rect::new(r.x, r.bottom() - h, w, h);
        let widest = area.h * 4.5;
        let n = buttons.len() as f32;
        // Left-aligned: the right-hand text keeps its end of the line.
        let used = (widest * n + area.h * 0.2 * (n - 1.0)).min(area.w);
        button_row(gfx, Rect::new(area.x, area.y, used, area.h), buttons);
    }
}

/// One button: a panel with a frame and its label, shrunk to fit.
fn draw_button(gfx: &Gfx, r: Rect, label: &str) {
    fill(r, alpha(theme::PANEL, 0.92));
    outline(r, 1.5, theme::FRAME);
    let size = fit_size(
        |px| gfx.width(label, px, Weight::Bold),
        (r.h * 0.42).round(),
        r.w - r.h * 0.3,
    );
    let c = center(r);
    gfx.text_mid(
        label,
        c.x,
        c.y,
        size,
        Weight::Bold,
        Align::Center,
        theme::TEXT,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buttons_in_a_row_do_not_overlap_and_stay_inside() {
        let area = Rect::new(10.0, 500.0, 370.0, 40.0);
        for n in 1..=7 {
            let rects = row_rects(area, n, 160.0);
            assert_eq!(rects.len(), n);
            for pair in rects.windows(2) {
                assert!(pair[0].right() < pair[1].x, "{n} buttons overlap");
            }
            for r in &rects {
                assert!(r.x >= area.x - 0.01 && r.right() <= area.right() + 0.01);
            }
        }
    }

    #[test]
    fn few_buttons_keep_their_width_and_sit_in_the_middle() {
        let area = Rect::new(0.0, 0.0, 1000.0, 40.0);
        let rects = row_rects(area, 2, 160.0);
        assert_eq!(rects[0].w, 160.0);
        let middle = (rects[0].x + rects[1].right()) / 2.0;
        assert!((middle - 500.0).abs() < 0.01);
    }
}
