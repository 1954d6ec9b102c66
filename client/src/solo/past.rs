//! The list of past solo runs of one mode (the Solo screen's P): date, result and PPS of every
//! run kept by [`crate::solo::store`], newest first. Enter watches one (and C continues from any
//! frame of it there); a file that cannot be read is skipped and named in a notice.

use std::path::Path;

use macroquad::math::Rect;

use sevenbag_core::{SoloMode, SoloResult};
use sevenbag_protocol::SoloReplay;
use sevenbag_protocol::solo_replay::{beats, clock, group_digits, result_text};

use crate::layout::list_layout;
use crate::list_nav::{ListEvent, ListNav};
use crate::render::gfx::background;
use crate::render::line_chart::{self, LineChart};
use crate::render::theme;
use crate::render::widgets::{RowState, footer, heading, menu_row, scroll_marks, side_panel};
use crate::screen::{Ctx, FrameIo};
use crate::solo::run_view::mode_title;
use crate::solo::store::{self, PastRuns};
use crate::sound::sfx::Sfx;
use crate::text::date_text;

/// What the list asks the Solo screen to do.
pub enum PastEvent {
    /// Nothing this frame.
    None,
    /// Back to the mode list.
    Back,
    /// Watch this run, under this title.
    Watch(Box<SoloReplay>, String),
}

/// The past runs of one mode.
pub struct PastList {
    mode: SoloMode,
    runs: PastRuns,
    nav: ListNav,
}

/// "2026-11-23 14:05" (UTC) for a unix time.
pub fn when_text(unix: u64) -> String {
    let minutes = unix % 86_400 / 60;
    format!(
        "{} {:02}:{:02}",
        date_text(unix / 86_400),
        minutes / 60,
        minutes % 60
    )
}

/// Pieces per second of a finished run, as "2.41".
pub fn pps_text(r: &SoloResult) -> String {
    let x100 = if r.frames == 0 {
        0
    } else {
        u64::from(r.pieces) * 6_000 / u64::from(r.frames)
    };
    format!("{}.{:02}", x100 / 100, x100 % 100)
}

/// One row of the list: "2026-11-23 14:05   1:02.35   2.41 PPS" (and "paused").
pub fn row_text(r: &store::PastRun) -> String {
    let res = &r.replay.result;
    format!(
        "{}   {}   {} PPS{}",
        when_text(r.replay.created_unix),
        result_text(res),
        pps_text(res),
        if r.paused { "   paused" } else { "" }
    )
}

impl PastList {
    /// Lists `mode`'s runs in `dir`; files that cannot be read are logged and named under the
    /// list (the list itself always opens).
    pub fn open(dir: &Path, mode: SoloMode) -> PastList {
        let runs = store::past_runs(dir, mode);
        for s in &runs.skipped {
            tracing::warn!("solo run skipped: {s}");
        }
        PastList {
            mode,
            runs,
            nav: ListNav::default(),
        }
    }

    /// The notice about skipped files, if any.
    fn notice(&self) -> Option<String> {
        let first = self.runs.skipped.first()?;
        Some(match self.runs.skipped.len() {
            1 => format!("Skipped an unreadable file: {first}"),
            n => format!("Skipped {n} unreadable files, e.g. {first}"),
        })
    }

    /// Handles the frame.
    pub fn update(&mut self, ctx: &mut Ctx, io: &FrameIo) -> PastEvent {
        let len = self.runs.runs.len();
        let layout = list_layout(io.width, io.height, len.max(1));
        let before = self.nav.selected;
        let event = self.nav.handle(io, &layout, len, &|_| true, false);
        if before != self.nav.selected {
            ctx.play(Sfx::Move);
        }
        match event {
            ListEvent::Back => PastEvent::Back,
            ListEvent::Activate(i) => match self.runs.runs.get(i) {
                Some(run) => {
                    ctx.play(Sfx::Select);
                    let title = format!(
                        "{}  ·  {}  ·  {}",
                        mode_title(self.mode),
                        when_text(run.replay.created_unix),
                        result_text(&run.replay.result)
                    );
                    PastEvent::Watch(Box::new(run.replay.clone()), title)
                }
                None => PastEvent::None,
            },
            _ => PastEvent::None,
        }
    }

    /// Draws the screen.
    pub fn draw(&self, ctx: &Ctx, io: &FrameIo) {
        let gfx = &ctx.gfx;
        background(io.width, io.height);
        let runs = &self.runs.runs;
        let l = list_layout(io.width, io.height, runs.len().max(1));
        let subtitle = format!(
            "{} · the last {} runs, newest first",
            mode_title(self.mode),
            store::KEEP_RUNS
        );
        heading(gfx, l.title, l.unit, "PAST RUNS", &subtitle);
        let shown = self.nav.visible(&l, runs.len());
        scroll_marks(gfx, &shown, runs.len(), l.unit);
        for (i, r) in shown {
            let state = RowState {
                selected: i == self.nav.selected,
                enabled: true,
            };
            menu_row(gfx, r, l.unit, &row_text(&runs[i]), "", state, ctx.time);
        }
        let body = match runs.get(self.nav.selected) {
            Some(run) => {
                let res = &run.replay.result;
                format!(
                    "{}\n{} lines · {} pieces · {} PPS\nplayed by {}{}\n\nEnter watches it. While watching, C continues from that frame in Zen: the same board, piece, hold, queue, back-to-back and combo.",
                    result_text(res),
                    res.lines,
                    res.pieces,
                    pps_text(res),
                    run.replay.name,
                    if run.paused {
                        "\nPaused during the run: not eligible as a personal best."
                    } else {
                        ""
                    }
                )
            }
            None => {
                "No finished runs of this mode yet. Every finished Sprint and Blitz is kept here."
                    .to_owned()
            }
        };
        let body = match self.notice() {
            Some(n) => format!("{body}\n\n{n}"),
            None => body,
        };
        // The panel's foot shows the mode's personal-best progression over the runs kept.
        let bests = progression(&self.runs.runs);
        let chart_h = l.unit * 5.0;
        let gap = l.unit * 0.5;
        if bests.len() > 1 && l.side.h >= chart_h * 3.0 {
            let text = Rect::new(l.side.x, l.side.y, l.side.w, l.side.h - chart_h - gap);
            let used = side_panel(gfx, text, l.unit, "Run", &body);
            let values: Vec<i64> = bests.iter().map(best_value).collect();
            let label = |v: i64| match self.mode {
                SoloMode::Sprint => clock(v.unsigned_abs()),
                _ => group_digits(v.unsigned_abs()),
            };
            let (first, last) = (values[0], values[values.len() - 1]);
            let caption = format!(
                "Personal bests: {} of {} runs · {} → {}",
                bests.len(),
                self.runs.runs.len(),
                label(first),
                label(last)
            );
            let chart = LineChart {
                caption: &caption,
                values: &values,
                label: &label,
                colour: theme::GOOD,
            };
            let r = Rect::new(l.side.x, used.bottom() + gap, l.side.w, chart_h);
            line_chart::draw(gfx, r, l.unit, &chart);
        } else {
            side_panel(gfx, l.side, l.unit, "Run", &body);
        }
        footer(
            gfx,
            l.footer,
            l.unit,
            "↑ ↓ choose   Enter watch   Esc back",
            "",
        );
    }
}

/// The runs of `runs` (newest first, as listed) that set a new personal best among them, oldest
/// first: the first eligible run, then each that beat the best before it (paused runs and
/// top-outs set none).
pub fn progression(runs: &[store::PastRun]) -> Vec<SoloResult> {
    let mut bests: Vec<SoloResult> = Vec::new();
    for run in runs.iter().rev().filter(|r| !r.paused) {
        let result = run.replay.result;
        let better = match bests.last() {
            Some(best) => beats(&result, best),
            None => result.ranked(),
        };
        if better {
            bests.push(result);
        }
    }
    bests
}

/// What the progression chart draws of a best: a Sprint's time (drawn falling as it
/// improves), a Blitz's score.
fn best_value(r: &SoloResult) -> i64 {
    match r.mode {
        SoloMode::Sprint => i64::from(r.frames),
        _ => i64::try_from(r.score).unwrap_or(i64::MAX),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sevenbag_core::SoloEnd;

    /// A kept Sprint run whose result is `frames` (or a top-out with `None`), paused or not.
    fn kept(frames: Option<u32>, paused: bool) -> store::PastRun {
        let mut replay = store::topped_out_sprint(1);
        if let Some(frames) = frames {
            replay.result.end = SoloEnd::Cleared;
            replay.result.frames = frames;
        }
        store::PastRun {
            path: "run.sbso".into(),
            replay,
            paused,
        }
    }

    #[test]
    fn the_progression_lists_each_run_that_set_a_new_best_oldest_first() {
        // Newest first, as the list holds them.
        let runs = [
            kept(Some(2_900), false),
            kept(Some(2_700), true),
            kept(None, false),
            kept(Some(3_100), false),
            kept(Some(3_000), false),
            kept(Some(3_400), false),
        ];
        let frames: Vec<u32> = progression(&runs).iter().map(|r| r.frames).collect();
        assert_eq!(
            frames,
            [3_400, 3_000, 2_900],
            "paused runs and top-outs set no best"
        );
    }

    #[test]
    fn dates_and_rates_read_as_people_write_them() {
        assert_eq!(when_text(0), "1970-01-01 00:00");
        assert_eq!(when_text(1_795_440_300), "2026-11-23 13:25");
        let r = SoloResult {
            mode: SoloMode::Sprint,
            end: SoloEnd::Cleared,
            frames: 3_600,
            lines: 40,
            pieces: 101,
            score: 0,
            splits: [None; 4],
        };
        assert_eq!(pps_text(&r), "1.68");
        assert_eq!(pps_text(&SoloResult { frames: 0, ..r }), "0.00");
    }
}
