//! The statistics screen of one match (after it, from its replay): a table of every seat's
//! totals, the rounds' winners, and a chart of one rate over time with the spikes marked.
//! ← → (or 1 to 5, or the chart buttons) change the chart; Esc goes back.

use std::rc::Rc;

use macroquad::input::KeyCode;
use macroquad::math::Rect;

use crate::layout::list_layout;
use crate::match_stats::MatchStats;
use crate::match_stats::chart::{self, Metric, seat_colour};
use crate::render::gfx::{Align, Weight, background, fill};
use crate::render::key_buttons::{KeyChoice, footer_keys};
use crate::render::theme::{self, alpha};
use crate::render::widgets::heading;
use crate::screen::{Ctx, FrameIo, Screen, Transition};
use crate::sound::sfx::Sfx;
use crate::text::mmss;
use sevenbag_stats::SeatReport;

/// The footer's key hints.
pub const FOOTER: &str = "← →  chart   1–5  APM PPS VS sent received   Esc  back";

/// The buttons a touch screen shows for the keys.
const BUTTONS: [KeyChoice<'static>; 2] = [("◂ Chart", KeyCode::Left), ("Chart ▸", KeyCode::Right)];

/// A column of the totals table: its head, its width in units, and its cell for a seat.
struct Column {
    head: &'static str,
    units: f32,
    cell: fn(&SeatReport) -> String,
}

/// A column of `head`, `units` wide, whose cell reads `cell`.
const fn col(head: &'static str, units: f32, cell: fn(&SeatReport) -> String) -> Column {
    Column { head, units, cell }
}

/// The table's columns, most wanted first: a narrow screen shows as many as fit.
const COLUMNS: [Column; 14] = [
    col("PPS", 3.4, |r| format!("{:.2}", r.rates.pps)),
    col("APM", 3.6, |r| format!("{:.1}", r.rates.apm)),
    col("VS", 3.8, |r| format!("{:.1}", r.rates.vs)),
    col("SENT", 3.2, |r| r.counts.sent.to_string()),
    col("RECV", 3.2, |r| r.counts.received.to_string()),
    col("FIN", 2.8, |r| r.counts.finesse_faults.to_string()),
    col("APP", 3.2, |r| format!("{:.2}", r.rates.app)),
    col("ATK", 3.0, |r| r.counts.attack.to_string()),
    col("LINES", 3.4, |r| r.counts.lines.to_string()),
    col("TSPIN", 3.6, |r| r.counts.spins.clearing().to_string()),
    col("QUAD", 3.2, |r| r.counts.quads.to_string()),
    col("PC", 2.4, |r| r.counts.perfect_clears.to_string()),
    col("COMBO", 3.8, |r| r.counts.max_combo.to_string()),
    col("B2B", 3.0, |r| r.counts.max_b2b.to_string()),
];

/// How many of [`COLUMNS`] fit in `width` beside a name column of `name_units`, at `unit`.
pub fn columns_that_fit(width: f32, unit: f32, name_units: f32) -> usize {
    let mut left = width - name_units * unit;
    let mut n = 0;
    for c in &COLUMNS {
        left -= c.units * unit;
        if left < 0.0 {
            break;
        }
        n += 1;
    }
    n
}

/// The statistics screen of one match.
pub struct StatsScreen {
    stats: Rc<MatchStats>,
    metric: Metric,
}

impl StatsScreen {
    /// The screen of `stats`, charting APM first.
    pub fn new(stats: Rc<MatchStats>) -> StatsScreen {
        StatsScreen {
            stats,
            metric: Metric::Apm,
        }
    }

    /// The subtitle: seats, length, and each round's winner.
    fn subtitle(&self) -> String {
        let s = &self.stats;
        let mut line = format!("{} players  ·  {}", s.seats.len(), mmss(s.frames));
        if s.rounds.len() > 1 {
            let rounds: Vec<String> = s
                .rounds
                .iter()
                .enumerate()
                .map(|(i, r)| format!("R{} {}", i + 1, r.winner.as_deref().unwrap_or("draw")))
                .collect();
            line.push_str("  ·  ");
            line.push_str(&rounds.join("  "));
        }
        line
    }
}

impl Screen for StatsScreen {
    fn update(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Transition {
        let kb = &io.keyboard;
        if kb.pressed_any(&[KeyCode::Escape, KeyCode::Backspace]) {
            return Transition::Pop;
        }
        let before = self.metric;
        if kb.pressed_any(&[KeyCode::Right, KeyCode::Tab]) {
            self.metric = self.metric.step(1);
        }
        if kb.pressed(KeyCode::Left) {
            self.metric = self.metric.step(-1);
        }
        for (key, metric) in crate::input::DIGIT_KEYS.iter().zip(Metric::ALL) {
            if kb.pressed(*key) {
                self.metric = metric;
            }
        }
        if self.metric != before {
            ctx.play(Sfx::Move);
        }
        Transition::None
    }

    fn draw(&self, ctx: &Ctx, io: &FrameIo) {
        let gfx = &ctx.gfx;
        background(io.width, io.height);
        let l = list_layout(io.width, io.height, 0);
        let unit = l.unit;
        heading(gfx, l.title, unit, "Match statistics", &self.subtitle());
        let left = l.title.x;
        let width = l.title.w;
        let top = l.title.bottom() + unit * 0.8;
        let row_h = unit * 1.45;
        let name_units = 7.5;
        let shown = columns_that_fit(width, unit, name_units);
        let size = unit * 0.8;
        let rows = self.stats.seats.len() + 1;
        let table = Rect::new(left, top, width, row_h * rows as f32 + unit * 0.4);
        fill(table, alpha(theme::PANEL, 0.92));
        // Column anchors: right edges, from the table's right end leftwards.
        let mut anchors = Vec::with_capacity(shown);
        let mut x = left + name_units * unit;
        for c in COLUMNS.iter().take(shown) {
            x += c.units * unit;
            anchors.push(x - unit * 0.4);
        }
        let head_y = top + row_h * 0.8;
        gfx.text(
            "PLAYER",
            left + unit * 0.5,
            head_y,
            size * 0.85,
            Weight::Bold,
            Align::Left,
            theme::TEXT_DIM,
        );
        for (c, &ax) in COLUMNS.iter().zip(&anchors) {
            gfx.text(
                c.head,
                ax,
                head_y,
                size * 0.85,
                Weight::Bold,
                Align::Right,
                theme::TEXT_DIM,
            );
        }
        for (i, seat) in self.stats.seats.iter().enumerate() {
            let y = top + row_h * (i as f32 + 1.8);
            let name = gfx.fit(
                &seat.report.name,
                (name_units - 1.0) * unit,
                size,
                Weight::Bold,
            );
            fill(
                Rect::new(left + unit * 0.2, y - size * 0.8, unit * 0.2, size),
                seat_colour(i),
            );
            gfx.text(
                &name,
                left + unit * 0.6,
                y,
                size,
                Weight::Bold,
                Align::Left,
                theme::TEXT,
            );
            for (c, &ax) in COLUMNS.iter().zip(&anchors) {
                gfx.text(
                    &(c.cell)(&seat.report),
                    ax,
                    y,
                    size,
                    Weight::Regular,
                    Align::Right,
                    theme::TEXT,
                );
            }
        }
        let chart_top = table.bottom() + unit * 0.8;
        let chart_rect = Rect::new(
            left,
            chart_top,
            width,
            (l.footer.y - unit * 0.6 - chart_top).max(unit * 6.0),
        );
        chart::draw(gfx, chart_rect, unit, &self.stats.seats, self.metric);
        footer_keys(gfx, l.footer, unit, FOOTER, &BUTTONS, self.metric.caption());
    }

    fn calm(&self) -> bool {
        true
    }

    fn name(&self) -> &'static str {
        "match-stats"
    }
}
