//! The chart of the statistics screen: one line per seat of a rate over the seat's seconds of
//! play (APM, PPS, VS) or of attack sent and garbage received so far, with each seat's spikes
//! marked on its line. The points are `sevenbag_stats::timeline`'s; this draws them.

use macroquad::math::Rect;
use macroquad::prelude::{Color, draw_circle, draw_line};
use sevenbag_core::PieceKind;
use sevenbag_stats::TimePoint;

use super::SeatLine;
use crate::render::gfx::{Align, Gfx, Weight, fill, outline};
use crate::render::theme::{self, alpha};

/// What the chart plots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// Attack per minute.
    Apm,
    /// Pieces per second.
    Pps,
    /// Versus score.
    Vs,
    /// Attack sent on so far.
    Sent,
    /// Garbage received so far.
    Received,
}

impl Metric {
    /// Every metric, in the order ← → step through them.
    pub const ALL: [Metric; 5] = [
        Metric::Apm,
        Metric::Pps,
        Metric::Vs,
        Metric::Sent,
        Metric::Received,
    ];

    /// The chart's caption.
    pub fn caption(self) -> &'static str {
        match self {
            Metric::Apm => "APM over time",
            Metric::Pps => "PPS over time",
            Metric::Vs => "VS over time",
            Metric::Sent => "Attack sent so far",
            Metric::Received => "Garbage received so far",
        }
    }

    /// The metric at `p`.
    pub fn of(self, p: &TimePoint) -> f64 {
        match self {
            Metric::Apm => p.rates.apm,
            Metric::Pps => p.rates.pps,
            Metric::Vs => p.rates.vs,
            Metric::Sent => f64::from(p.sent),
            Metric::Received => f64::from(p.received),
        }
    }

    /// The next metric (`step` 1) or the one before (`-1`), wrapping.
    pub fn step(self, step: i32) -> Metric {
        let n = Metric::ALL.len() as i32;
        let i = Metric::ALL.iter().position(|&m| m == self).unwrap_or(0) as i32;
        Metric::ALL[(i + step).rem_euclid(n) as usize]
    }
}

/// Seats' colours on the chart and the timeline, by seat: the pieces' colours, then white.
pub fn seat_colour(seat: usize) -> Color {
    const KINDS: [PieceKind; 7] = [
        PieceKind::I,
        PieceKind::Z,
        PieceKind::S,
        PieceKind::T,
        PieceKind::L,
        PieceKind::J,
        PieceKind::O,
    ];
    KINDS
        .get(seat)
        .map_or(theme::TEXT, |&k| theme::piece_colour(k))
}

/// Rates over the first seconds of play swing wildly (one quad in the first second is 240
/// APM); the scale ignores them so the rest can be read.
const SETTLE_SECONDS: f64 = 3.0;

/// The chart's axes: the longest seat's seconds of play and the highest value plotted (at
/// least 1, rounded up to a readable step).
pub fn scale(seats: &[SeatLine], metric: Metric) -> (f64, f64) {
    let seconds = seats
        .iter()
        .filter_map(|s| s.points.last().map(|p| p.seconds))
        .fold(0.0, f64::max);
    let top = seats
        .iter()
        .flat_map(|s| {
            let settled = s.points.iter().any(|p| p.seconds >= SETTLE_SECONDS);
            s.points
                .iter()
                .filter(move |p| !settled || p.seconds >= SETTLE_SECONDS)
                .map(move |p| metric.of(p))
        })
        .fold(0.0, f64::max);
    (seconds.max(1.0), nice_ceiling(top.max(1.0)))
}

/// `x` rounded up to 1, 2 or 5 times a power of ten.
pub fn nice_ceiling(x: f64) -> f64 {
    let magnitude = 10f64.powf(x.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|&c| c >= x)
        .unwrap_or(10.0 * magnitude)
}

/// Grid lines above the zero line: fifths of a 1, 2 or 5 ceiling are round numbers.
const GRID_STEPS: u32 = 5;

/// The value of grid line `k` of a chart topped at `top` (a [`nice_ceiling`]), written with
/// the decimals it needs: fifths of 1 and 2 need one, of 5 and above none.
pub fn grid_label(top: f64, k: u32) -> String {
    let value = top * f64::from(k) / f64::from(GRID_STEPS);
    if top < 5.0 {
        format!("{value:.1}")
    } else {
        format!("{value:.0}")
    }
}

/// Where a point falls in the plot area `r` on axes of `seconds` by `top`; values above the
/// top are drawn at it.
pub fn place(r: Rect, seconds: f64, top: f64, at: f64, value: f64) -> (f32, f32) {
    let x = r.x + r.w * (at / seconds).clamp(0.0, 1.0) as f32;
    let y = r.bottom() - r.h * (value / top).clamp(0.0, 1.0) as f32;
    (x, y)
}

/// Draws the chart of `metric` in `r` with text of size `unit`: a caption, the axes' ends,
/// a line per seat and a dot on it at each of its spikes.
pub fn draw(gfx: &Gfx, r: Rect, unit: f32, seats: &[SeatLine], metric: Metric) {
    fill(r, alpha(theme::PANEL, 0.92));
    outline(r, 1.0, theme::FRAME);
    let text = unit * 0.8;
    gfx.text(
        metric.caption(),
        r.x + unit * 0.6,
        r.y + unit * 1.1,
        text,
        Weight::Bold,
        Align::Left,
        theme::TEXT,
    );
    let plot = Rect::new(
        r.x + unit * 3.2,
        r.y + unit * 1.8,
        (r.w - unit * 4.0).max(1.0),
        (r.h - unit * 3.4).max(1.0),
    );
    let (seconds, top) = scale(seats, metric);
    for k in 0..=GRID_STEPS {
        let y = plot.bottom() - plot.h * k as f32 / GRID_STEPS as f32;
        draw_line(plot.x, y, plot.right(), y, 1.0, theme::GRID);
        let label = grid_label(top, k);
        gfx.text(
            &label,
            plot.x - unit * 0.3,
            y + text * 0.35,
            text * 0.85,
            Weight::Regular,
            Align::Right,
            theme::TEXT_DIM,
        );
    }
    gfx.text(
        &crate::text::mmss((seconds * 60.0) as u32).to_string(),
        plot.right(),
        plot.bottom() + unit * 1.1,
        text * 0.85,
        Weight::Regular,
        Align::Right,
        theme::TEXT_DIM,
    );
    gfx.text(
        "0:00",
        plot.x,
        plot.bottom() + unit * 1.1,
        text * 0.85,
        Weight::Regular,
        Align::Left,
        theme::TEXT_DIM,
    );
    for (seat, line) in seats.iter().enumerate() {
        let colour = seat_colour(seat);
        let mut from = place(plot, seconds, top, 0.0, 0.0);
        for p in &line.points {
            let to = place(plot, seconds, top, p.seconds, metric.of(p));
            draw_line(from.0, from.1, to.0, to.1, 2.0, colour);
            from = to;
        }
        for spike in &line.report.counts.spikes {
            let at = f64::from(spike.played) / 60.0;
            // The line's value in the second the spike started.
            let k = (spike.played.saturating_sub(1) / 60) as usize;
            let value = line.points.get(k).map_or(0.0, |p| metric.of(p));
            let (x, y) = place(plot, seconds, top, at, value);
            draw_circle(x, y, (unit * 0.3).max(3.0), colour);
            draw_circle(x, y, (unit * 0.15).max(1.5), theme::BACKGROUND);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_rounds_up_to_a_readable_step() {
        assert_eq!(nice_ceiling(0.7), 1.0);
        assert_eq!(nice_ceiling(1.0), 1.0);
        assert_eq!(nice_ceiling(1.3), 2.0);
        assert_eq!(nice_ceiling(43.0), 50.0);
        assert_eq!(nice_ceiling(120.0), 200.0);
    }

    #[test]
    fn every_grid_label_is_its_exact_value() {
        let labels = |top| {
            (0..=GRID_STEPS)
                .map(|k| grid_label(top, k))
                .collect::<Vec<_>>()
        };
        assert_eq!(labels(1.0), ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"]);
        assert_eq!(labels(2.0), ["0.0", "0.4", "0.8", "1.2", "1.6", "2.0"]);
        assert_eq!(labels(5.0), ["0", "1", "2", "3", "4", "5"]);
        assert_eq!(labels(50.0), ["0", "10", "20", "30", "40", "50"]);
    }

    #[test]
    fn points_fall_inside_the_plot_and_overshoot_is_drawn_at_the_top() {
        let r = Rect::new(0.0, 0.0, 100.0, 50.0);
        assert_eq!(place(r, 10.0, 100.0, 0.0, 0.0), (0.0, 50.0));
        assert_eq!(place(r, 10.0, 100.0, 5.0, 50.0), (50.0, 25.0));
        assert_eq!(place(r, 10.0, 100.0, 10.0, 300.0), (100.0, 0.0));
    }

    #[test]
    fn the_arrows_step_through_every_metric_and_wrap() {
        assert_eq!(Metric::Apm.step(1), Metric::Pps);
        assert_eq!(Metric::Apm.step(-1), Metric::Received);
        let mut m = Metric::Apm;
        for _ in 0..Metric::ALL.len() {
            m = m.step(1);
        }
        assert_eq!(m, Metric::Apm);
    }
}
