//! The charts under a profile's text: the rating over the latest rated matches, and the
//! 40-line Sprint and Blitz personal-best progressions the server keeps. Each needs two points
//! at least; as many as the panel's height leaves room for are drawn, in that order.

use macroquad::math::Rect;
use macroquad::prelude::Color;
use sevenbag_protocol::ProgressRun;
use sevenbag_protocol::solo_replay::{clock, group_digits};

use crate::account::rating_chart::rating_path;
use crate::account::standings::Viewed;
use crate::render::gfx::Gfx;
use crate::render::line_chart::{self, LineChart};
use crate::render::theme;
use crate::render::widgets::side_panel;

/// One chart of a profile, with its words.
#[derive(Clone, Debug)]
pub struct ProfileChart {
    /// The line above the plot.
    pub caption: String,
    /// The values, oldest first.
    pub values: Vec<i64>,
    /// A value as the axis writes it.
    pub label: fn(i64) -> String,
    /// The line's colour.
    pub colour: Color,
}

/// A profile's charts: its rating, and the solo boards' progressions.
#[derive(Clone, Debug, Default)]
pub struct ProfileCharts {
    /// The rating over the latest rated matches, with two points at least.
    pub rating: Option<ProfileChart>,
    /// Each solo board with two bests at least.
    pub boards: Vec<ProfileChart>,
}

impl ProfileCharts {
    /// The charts in rows, as drawn: the rating alone, the boards two to a row when `pair`.
    pub fn rows(&self, pair: bool) -> Vec<&[ProfileChart]> {
        let mut rows: Vec<&[ProfileChart]> = self.rating.iter().map(std::slice::from_ref).collect();
        rows.extend(self.boards.chunks(if pair { 2 } else { 1 }));
        rows
    }
}

/// A solo board's chart: its name, its progression, what is drawn of a run, how an axis
/// writes it.
type Board<'a> = (
    &'a str,
    &'a [ProgressRun],
    fn(&ProgressRun) -> i64,
    fn(i64) -> String,
);

/// The charts `v` has data for.
pub fn charts(v: &Viewed) -> ProfileCharts {
    let mut out = ProfileCharts::default();
    let path = rating_path(v.profile.rating, &v.recent);
    if let (Some(&first), Some(&last), true) = (path.first(), path.last(), path.len() > 1) {
        out.rating = Some(ProfileChart {
            caption: format!(
                "Rating over the last {} rated matches: {:+}",
                path.len() - 1,
                last - first
            ),
            values: path,
            label: |v| v.to_string(),
            colour: if last >= first {
                theme::GOOD
            } else {
                theme::BAD
            },
        });
    }
    let Some(stats) = &v.stats else {
        return out;
    };
    let sprint: Board = (
        "40 lines",
        &stats.sprint,
        |r| i64::from(r.frames),
        |v| clock(v.unsigned_abs()),
    );
    let blitz: Board = (
        "Blitz",
        &stats.blitz,
        |r| i64::try_from(r.score).unwrap_or(i64::MAX),
        |v| group_digits(v.unsigned_abs()),
    );
    let boards = [sprint, blitz];
    for (board, runs, value, label) in boards {
        let values: Vec<i64> = runs.iter().map(value).collect();
        let (Some(&first), Some(&last), true) = (values.first(), values.last(), values.len() > 1)
        else {
            continue;
        };
        out.boards.push(ProfileChart {
            caption: format!(
                "{board} bests: {} · {} → {}",
                values.len(),
                label(first),
                label(last)
            ),
            values,
            label,
            colour: theme::GOOD,
        });
    }
    out
}

/// Draws a profile's panel in `side`: `head` and `body`, then as many of `charts` under the
/// text as leave it room for two charts' height. On a wide panel the solo boards' charts share
/// a row.
pub fn draw_panel(
    gfx: &Gfx,
    side: Rect,
    unit: f32,
    (head, body): (&str, &str),
    charts: &ProfileCharts,
) {
    let chart_h = unit * 5.0;
    let gap = unit * 0.5;
    let rows = charts.rows(side.w >= unit * 24.0);
    let room = ((side.h - chart_h * 2.0) / (chart_h + gap))
        .floor()
        .max(0.0) as usize;
    let shown = &rows[..rows.len().min(room)];
    if shown.is_empty() {
        side_panel(gfx, side, unit, head, body);
        return;
    }
    let below = shown.len() as f32 * (chart_h + gap);
    let text = Rect::new(side.x, side.y, side.w, side.h - below);
    let used = side_panel(gfx, text, unit, head, body);
    if used.h <= 0.0 {
        return;
    }
    let mut y = used.bottom() + gap;
    for row in shown {
        let w = (side.w - gap * (row.len() - 1) as f32) / row.len() as f32;
        for (i, c) in row.iter().enumerate() {
            let chart = LineChart {
                caption: &c.caption,
                values: &c.values,
                label: &c.label,
                colour: c.colour,
            };
            let x = side.x + (w + gap) * i as f32;
            line_chart::draw(gfx, Rect::new(x, y, w, chart_h), unit, &chart);
        }
        y += chart_h + gap;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sevenbag_protocol::{MatchAverages, PlayerStats, Profile, RecentMatch};

    fn viewed(changes: &[i32], sprint: &[u32], blitz: &[u64]) -> Viewed {
        let run = |frames: u32, score: u64| ProgressRun {
            frames,
            score,
            lines: 40,
            pieces: 100,
            recorded_unix: 0,
        };
        Viewed {
            profile: Profile {
                name: "ann".into(),
                rating: 1600,
                deviation: 80,
                games: 3,
                wins: 2,
                place: Some(1),
            },
            recent: changes
                .iter()
                .map(|&c| RecentMatch {
                    id: 1,
                    opponent: "bo".into(),
                    won: Some(c > 0),
                    score: [1, 0],
                    ranked: true,
                    rating_change: Some(c),
                    ended_unix: 0,
                    replay: None,
                })
                .collect(),
            bot: false,
            opponent_bots: Vec::new(),
            stats: Some(PlayerStats {
                name: "ann".into(),
                last: 20,
                averages: MatchAverages::default(),
                sprint: sprint.iter().map(|&f| run(f, 0)).collect(),
                blitz: blitz.iter().map(|&s| run(7200, s)).collect(),
            }),
        }
    }

    #[test]
    fn a_profile_charts_its_rating_then_each_board_with_two_bests() {
        let c = charts(&viewed(&[20, -5], &[3000, 2700], &[50_000, 61_250]));
        let captions: Vec<&str> = c
            .rows(false)
            .iter()
            .flat_map(|row| row.iter().map(|c| c.caption.as_str()))
            .collect();
        assert_eq!(
            captions,
            [
                "Rating over the last 2 rated matches: +15",
                "40 lines bests: 2 · 0:50.00 → 0:45.00",
                "Blitz bests: 2 · 50,000 → 61,250",
            ]
        );
        assert_eq!(c.boards[0].values, [3000, 2700]);
        let widths: Vec<usize> = c.rows(true).iter().map(|row| row.len()).collect();
        assert_eq!(widths, [1, 2], "on a wide panel the boards share a row");
    }

    #[test]
    fn a_single_best_or_no_rated_match_draws_no_chart() {
        assert!(charts(&viewed(&[], &[3000], &[])).rows(true).is_empty());
        let mut v = viewed(&[-5], &[], &[]);
        v.stats = None;
        let c = charts(&v);
        assert!(
            c.boards.is_empty(),
            "the rating alone, before the stats arrive"
        );
        assert_eq!(c.rating.map(|r| r.colour), Some(theme::BAD));
    }
}
