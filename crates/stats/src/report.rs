//! Rates derived from the counts, only when reporting: [`Rates::of`], [`SeatReport`] (what the
//! tool prints as JSON) and [`timeline`] (the rates second by second, for graphs).
//!
//! With `seconds = frames / 60` (frames of play of the seat):
//!
//! | rate | formula |
//! | --- | --- |
//! | PPS | `pieces / seconds` |
//! | APM | `attack / seconds × 60` |
//! | VS | `(attack + garbage_cleared) / seconds × 100` (TETR.IO's versus score) |
//! | APP | `attack / pieces` (= APM / (PPS × 60)) |
//! | DS/s | `garbage_cleared / seconds` (= VS / 100 − APM / 60) |
//! | DS/piece | `garbage_cleared / pieces` |
//!
//! A rate over zero seconds or zero pieces is 0. Rates are rounded to 2 decimals (half away
//! from zero); the counts they come from are exact integers.

use serde::Serialize;

use crate::counts::{FRAMES_PER_SECOND, SeatStats};

/// `x` rounded to 2 decimals.
fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// `num / den`, 0 when `den` is 0.
fn ratio(num: f64, den: f64) -> f64 {
    if den == 0.0 { 0.0 } else { num / den }
}

/// The derived rates of one seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Rates {
    /// Frames of play / 60.
    pub seconds: f64,
    /// Pieces per second.
    pub pps: f64,
    /// Attack per minute.
    pub apm: f64,
    /// Versus score.
    pub vs: f64,
    /// Attack per piece.
    pub app: f64,
    /// Garbage cleared per second.
    pub ds_per_second: f64,
    /// Garbage cleared per piece.
    pub ds_per_piece: f64,
}

impl Rates {
    /// The rates of `s`, rounded to 2 decimals.
    pub fn of(s: &SeatStats) -> Rates {
        Rates::from_counts(s.frames, s.pieces, s.attack, s.garbage_cleared)
    }

    /// The rates of these counts (frames of play, pieces, attack, garbage cleared).
    pub fn from_counts(frames: u32, pieces: u32, attack: u32, garbage_cleared: u32) -> Rates {
        let seconds = f64::from(frames) / f64::from(FRAMES_PER_SECOND);
        let (pieces, attack, ds) = (
            f64::from(pieces),
            f64::from(attack),
            f64::from(garbage_cleared),
        );
        Rates {
            seconds: round2(seconds),
            pps: round2(ratio(pieces, seconds)),
            apm: round2(ratio(attack * 60.0, seconds)),
            vs: round2(ratio((attack + ds) * 100.0, seconds)),
            app: round2(ratio(attack, pieces)),
            ds_per_second: round2(ratio(ds, seconds)),
            ds_per_piece: round2(ratio(ds, pieces)),
        }
    }
}

/// One seat's report: its name, the rates, then every count (flattened into one JSON object).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatReport {
    /// The player's name.
    pub name: String,
    /// The derived rates.
    #[serde(flatten)]
    pub rates: Rates,
    /// The counts.
    #[serde(flatten)]
    pub counts: SeatStats,
}

impl SeatReport {
    /// The report of `counts` for the player called `name`.
    pub fn new(name: &str, counts: SeatStats) -> SeatReport {
        SeatReport {
            name: name.to_string(),
            rates: Rates::of(&counts),
            counts,
        }
    }
}

/// One point of a [`timeline`]: the seat's figures from its first frame of play to the end of
/// a second.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TimePoint {
    /// Seconds of play at the point (the last point may fall inside a second).
    pub seconds: f64,
    /// The rates over everything up to the point.
    pub rates: Rates,
    /// Attack produced up to the point.
    pub attack: u32,
    /// Attack sent on up to the point.
    pub sent: u32,
    /// Garbage routed to the seat up to the point.
    pub received: u32,
}

/// The rates as they stood at the end of every second of the seat's play, from its series:
/// cumulative from its first frame of play, as a live stats panel shows them.
pub fn timeline(s: &SeatStats) -> Vec<TimePoint> {
    let series = &s.series;
    let (mut pieces, mut attack, mut sent, mut received, mut ds) = (0, 0, 0, 0, 0);
    (0..series.attack.len())
        .map(|k| {
            pieces += series.pieces[k];
            attack += series.attack[k];
            sent += series.sent[k];
            received += series.received[k];
            ds += series.garbage_cleared[k];
            let frames = (FRAMES_PER_SECOND * (k as u32 + 1)).min(s.frames);
            TimePoint {
                seconds: round2(f64::from(frames) / f64::from(FRAMES_PER_SECOND)),
                rates: Rates::from_counts(frames, pieces, attack, ds),
                attack,
                sent,
                received,
            }
        })
        .collect()
}
