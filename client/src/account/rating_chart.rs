//! A profile's rating over its latest ranked matches, as a line under the profile's text:
//! the path is worked back from the rating now and each recent match's rating change, so it
//! needs nothing beyond the profile the server already sends.

use macroquad::math::Rect;
use macroquad::prelude::{draw_circle, draw_line};
use sevenbag_protocol::RecentMatch;

use crate::render::gfx::{Align, Gfx, Weight, fill, outline};
use crate::render::theme::{self, alpha};

/// The rating before the oldest of `recent`'s rated matches and after each of them, oldest
/// first, ending at `now` (`recent` is newest first, as the server lists it; matches that
/// moved no rating are skipped). One point when none moved it.
pub fn rating_path(now: u32, recent: &[RecentMatch]) -> Vec<i64> {
    let mut at = i64::from(now);
    let mut path = vec![at];
    for change in recent.iter().filter_map(|m| m.rating_change) {
        at -= i64::from(change);
        path.push(at);
    }
    path.reverse();
    path
}

/// Draws `path` in `r` (text of size `unit`): a caption with the change over it, the lowest
/// and highest ratings at the left, and the line with a dot on its last point.
pub fn draw(gfx: &Gfx, r: Rect, unit: f32, path: &[i64]) {
    let (Some(&first), Some(&last)) = (path.first(), path.last()) else {
        return;
    };
    fill(r, alpha(theme::PANEL, 0.8));
    outline(r, 1.0, alpha(theme::FRAME, 0.6));
    let size = (unit * 0.7).round();
    let caption = format!(
        "Rating over the last {} rated matches: {:+}",
        path.len() - 1,
        last - first
    );
    gfx.text(
        &caption,
        r.x + unit * 0.6,
        r.y + unit * 1.1,
        gfx.fit_size(&caption, r.w - unit * 1.2, size, Weight::Bold),
        Weight::Bold,
        Align::Left,
        theme::TEXT,
    );
    let low = path.iter().copied().min().unwrap_or(first);
    let high = path.iter().copied().max().unwrap_or(first);
    let plot = Rect::new(
        r.x + unit * 3.4,
        r.y + unit * 1.8,
        (r.w - unit * 4.2).max(1.0),
        (r.h - unit * 2.4).max(1.0),
    );
    for (value, y) in [(high, plot.y), (low, plot.bottom())] {
        gfx.text(
            &value.to_string(),
            plot.x - unit * 0.4,
            y + size * 0.35,
            size * 0.9,
            Weight::Regular,
            Align::Right,
            theme::TEXT_DIM,
        );
        draw_line(plot.x, y, plot.right(), y, 1.0, theme::GRID);
    }
    let points: Vec<(f32, f32)> = path
        .iter()
        .enumerate()
        .map(|(i, &v)| place(plot, path.len(), low, high, i, v))
        .collect();
    let colour = if last >= first {
        theme::GOOD
    } else {
        theme::BAD
    };
    for pair in points.windows(2) {
        draw_line(pair[0].0, pair[0].1, pair[1].0, pair[1].1, 2.0, colour);
    }
    if let Some(&(x, y)) = points.last() {
        draw_circle(x, y, (unit * 0.2).max(2.5), colour);
    }
}

/// Where point `i` of `n` with rating `value` falls in `plot`, between `low` and `high` (a
/// flat path runs along the middle).
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

    fn rated(change: Option<i32>) -> RecentMatch {
        RecentMatch {
            id: 1,
            opponent: "bob".into(),
            won: Some(change.is_some_and(|c| c > 0)),
            score: [3, 1],
            ranked: change.is_some(),
            rating_change: change,
            ended_unix: 0,
            replay: None,
        }
    }

    #[test]
    fn the_path_runs_back_from_the_rating_now_through_each_change() {
        // Newest first: +12 last, −8 before it, an unranked match, +20 first.
        let recent = [
            rated(Some(12)),
            rated(Some(-8)),
            rated(None),
            rated(Some(20)),
        ];
        assert_eq!(rating_path(1524, &recent), [1500, 1520, 1512, 1524]);
    }

    #[test]
    fn a_profile_without_rated_matches_is_one_point() {
        assert_eq!(rating_path(1500, &[rated(None)]), [1500]);
    }

    #[test]
    fn the_line_spans_the_plot_and_a_flat_one_runs_along_the_middle() {
        let plot = Rect::new(0.0, 0.0, 100.0, 40.0);
        assert_eq!(place(plot, 3, 1500, 1540, 0, 1500), (0.0, 40.0));
        assert_eq!(place(plot, 3, 1500, 1540, 2, 1540), (100.0, 0.0));
        assert_eq!(place(plot, 2, 1500, 1500, 1, 1500), (100.0, 20.0));
    }
}
