//! A small line chart of one series in a panel: a caption, the lowest and highest values at
//! the left, and the line with a dot on its last point. Profiles draw ratings with it, the
//! past runs list a mode's personal-best progression.

use macroquad::math::Rect;
use macroquad::prelude::{Color, draw_circle, draw_line};

use crate::render::gfx::{Align, Gfx, Weight, fill, outline};
use crate::render::theme::{self, alpha};

/// A chart's series and its words.
pub struct LineChart<'a> {
    /// The line above the plot.
    pub caption: &'a str,
    /// The values, oldest first.
    pub values: &'a [i64],
    /// A value as the axis writes it.
    pub label: &'a dyn Fn(i64) -> String,
    /// The line's colour.
    pub colour: Color,
}

/// Draws `chart` in `r` with text of size `unit`; nothing for an empty series.
pub fn draw(gfx: &Gfx, r: Rect, unit: f32, chart: &LineChart<'_>) {
    let values = chart.values;
    let Some(&first) = values.first() else {
        return;
    };
    fill(r, alpha(theme::PANEL, 0.8));
    outline(r, 1.0, alpha(theme::FRAME, 0.6));
    let size = (unit * 0.7).round();
    gfx.text(
        chart.caption,
        r.x + unit * 0.6,
        r.y + unit * 1.1,
        gfx.fit_size(chart.caption, r.w - unit * 1.2, size, Weight::Bold),
        Weight::Bold,
        Align::Left,
        theme::TEXT,
    );
    let low = values.iter().copied().min().unwrap_or(first);
    let high = values.iter().copied().max().unwrap_or(first);
    let plot = Rect::new(
        r.x + unit * 3.8,
        r.y + unit * 1.8,
        (r.w - unit * 4.6).max(1.0),
        (r.h - unit * 2.4).max(1.0),
    );
    for (value, y) in [(high, plot.y), (low, plot.bottom())] {
        gfx.text(
            &(chart.label)(value),
            plot.x - unit * 0.4,
            y + size * 0.35,
            size * 0.9,
            Weight::Regular,
            Align::Right,
            theme::TEXT_DIM,
        );
        draw_line(plot.x, y, plot.right(), y, 1.0, theme::GRID);
    }
    let points: Vec<(f32, f32)> = values
        .iter()
        .enumerate()
        .map(|(i, &v)| place(plot, values.len(), low, high, i, v))
        .collect();
    for pair in points.windows(2) {
        draw_line(
            pair[0].0,
            pair[0].1,
            pair[1].0,
            pair[1].1,
            2.0,
            chart.colour,
        );
    }
    if let Some(&(x, y)) = points.last() {
        draw_circle(x, y, (unit * 0.2).max(2.5), chart.colour);
    }
}

/// Where point `i` of `n` with `value` falls in `plot`, between `low` and `high` (a flat
/// series runs along the middle).
pub fn place(plot: Rect, n: usize, low: i64, high: i64, i: usize, value: i64) -> (f32, f32) {
    let x = if n > 1 {
        plot.x + plot.w * i as f32 / (n - 1) as f32
    } else {
        plot.right()
    };
    let y = if high > low {
        plot.bottom() - plot.h * (value - low) as f32 / (high - low) as f32
    } else {
        plot.y + plot.h / 2.0
    };
    (x, y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_spans_the_plot_and_a_flat_one_runs_along_the_middle() {
        let plot = Rect::new(0.0, 0.0, 100.0, 40.0);
        assert_eq!(place(plot, 3, 1500, 1540, 0, 1500), (0.0, 40.0));
        assert_eq!(place(plot, 3, 1500, 1540, 2, 1540), (100.0, 0.0));
        assert_eq!(place(plot, 2, 1500, 1500, 1, 1500), (100.0, 20.0));
    }
}
