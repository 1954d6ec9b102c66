//! `replay stats FILE [--json | --csv | --plot OUT.png]`: re-simulates a replay of any kind (two
//! seats or several, format version 1 or 2, or a solo run) on the core with a
//! `sevenbag_stats` recorder around every step, and prints every seat's numbers
//! (docs/STATS.md). The file is verified first (hashes, rounds and result, as `replay verify`),
//! so the numbers are those of the match that was played.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Context;
use sevenbag_core::Solo;
use sevenbag_protocol::file::read_limited;
use sevenbag_protocol::replay::MAX_REPLAY_BYTES;
use sevenbag_protocol::replay_file::{OpenedReplay, open};
use sevenbag_protocol::solo_replay::{MAX_SOLO_BYTES, SOLO_MAGIC, clock};
use sevenbag_protocol::{SeatLog, SoloReplay, verify_solo};
use sevenbag_stats::{BattleStats, SeatReport, SoloStats};

/// A re-simulated replay: what kind of game it was, and every seat's report.
#[derive(Debug, serde::Serialize)]
pub struct StatsReport {
    /// The file read.
    pub file: String,
    /// `versus` (two seats), `battle` (three or more, or two with options) or `solo`.
    pub kind: &'static str,
    /// The solo mode (`sprint`, `blitz`, `zen`), for a solo run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<&'static str>,
    /// Frames re-simulated, countdowns and breaks included.
    pub frames: u32,
    /// One report per seat, in seat order.
    pub seats: Vec<SeatReport>,
}

/// Reads, verifies and re-simulates `file`.
pub fn compute(file: &Path) -> anyhow::Result<StatsReport> {
    let limit = MAX_REPLAY_BYTES.max(MAX_SOLO_BYTES) as u64;
    let bytes =
        read_limited(file, limit).with_context(|| format!("cannot read {}", file.display()))?;
    let name = file.display().to_string();
    if bytes.starts_with(&SOLO_MAGIC) {
        let replay = SoloReplay::decode(&bytes).with_context(|| name.clone())?;
        verify_solo(&replay).with_context(|| format!("{name}: verification failed"))?;
        return solo(name, &replay);
    }
    let opened = open(&bytes).with_context(|| name.clone())?;
    opened
        .verify()
        .with_context(|| format!("{name}: verification failed"))?;
    battle(name, &opened)
}

fn battle(file: String, opened: &OpenedReplay) -> anyhow::Result<StatsReport> {
    let r = &opened.replay;
    let logs = r
        .seat_logs()
        .map_err(|(seat, e)| anyhow::Error::new(e).context(format!("seat {seat}'s inputs")))?;
    let end = logs.iter().map(SeatLog::confirmed).min().unwrap_or(0);
    // The same frames as the replay's own re-simulation: every confirmed one until decided.
    let (counts, frames) = BattleStats::replay(r.header, end, |seat, f| {
        logs.get(seat).and_then(|l| l.get(f)).unwrap_or_default()
    })
    .context("the match header")?;
    let kind = if opened.seats() == 2 && r.to_versus().is_some() {
        "versus"
    } else {
        "battle"
    };
    let seats = counts
        .into_iter()
        .enumerate()
        .map(|(i, s)| SeatReport::new(r.names.get(i).map_or("?", String::as_str), s))
        .collect();
    Ok(StatsReport {
        file,
        kind,
        mode: None,
        frames,
        seats,
    })
}

fn solo(file: String, replay: &SoloReplay) -> anyhow::Result<StatsReport> {
    let masks = replay.masks().context("the run's inputs")?;
    let mut game = Solo::new(replay.header);
    let mut stats = SoloStats::new(&game);
    for &keys in &masks {
        if game.result().is_some() {
            break;
        }
        stats.step(&mut game, keys);
    }
    Ok(StatsReport {
        file,
        kind: "solo",
        mode: Some(replay.header.mode.name()),
        frames: game.frame(),
        seats: vec![SeatReport::new(&replay.name, stats.into_stats())],
    })
}

/// The report for a person: one block per seat.
pub fn text(report: &StatsReport) -> String {
    let mut s = String::new();
    let what = match report.mode {
        Some(mode) => format!("solo {mode}"),
        None => format!("{}, {} seats", report.kind, report.seats.len()),
    };
    // Writing to a String cannot fail.
    let _ = writeln!(
        s,
        "file:  {} ({what}, {} frames re-simulated)",
        report.file, report.frames
    );
    for (i, seat) in report.seats.iter().enumerate() {
        let (r, c) = (&seat.rates, &seat.counts);
        let _ = writeln!(s, "seat {i}: {}", seat.name);
        let _ = writeln!(
            s,
            "  time {} ({} frames of play), {} pieces: {:.2} PPS, {:.2} APM, {:.2} VS, {:.2} APP, {:.2} DS/s",
            clock(u64::from(c.frames)),
            c.frames,
            c.pieces,
            r.pps,
            r.apm,
            r.vs,
            r.app,
            r.ds_per_second
        );
        let (m, f) = (&c.spins.mini, &c.spins.full);
        let _ = writeln!(
            s,
            "  lines {}: {} singles, {} doubles, {} triples, {} quads; T-spins {} (full 0/1/2/3 lines: {}/{}/{}/{}, mini 0/1/2: {}/{}/{}); {} perfect clears",
            c.lines,
            c.singles,
            c.doubles,
            c.triples,
            c.quads,
            c.spins.clearing(),
            f[0],
            f[1],
            f[2],
            f[3],
            m[0],
            m[1],
            m[2],
            c.perfect_clears
        );
        let _ = writeln!(
            s,
            "  longest combo {}, longest back-to-back {} ({} back-to-back clears)",
            c.max_combo, c.max_b2b, c.b2b_clears
        );
        let _ = writeln!(
            s,
            "  attack {} (sent {}, cancelled {}); received {} (tanked {}, discarded {}); garbage cleared {}",
            c.attack, c.sent, c.cancelled, c.received, c.tanked, c.discarded, c.garbage_cleared
        );
        let _ = writeln!(
            s,
            "  finesse {} faults on {} pieces; {} holds",
            c.finesse_faults, c.faulty_pieces, c.holds
        );
        for d in &c.deaths {
            let by = match d.by {
                Some(k) => {
                    let who = report.seats.get(usize::from(k)).map_or("?", |s| &s.name);
                    format!(", knocked out by seat {k} ({who})")
                }
                None => String::new(),
            };
            let _ = writeln!(
                s,
                "  out: {} in round {} at {} of play{by}",
                d.cause.words(),
                d.round + 1,
                clock(u64::from(d.played))
            );
        }
    }
    s
}

/// The columns of `--csv`, in order (docs/STATS.md).
const CSV_HEADER: &str = "seat,name,seconds,frames,pieces,pps,apm,vs,app,ds_per_second,\
ds_per_piece,attack,sent,cancelled,received,tanked,discarded,garbage_cleared,lines,singles,\
doubles,triples,quads,tspin_full_0,tspin_full_1,tspin_full_2,tspin_full_3,tspin_mini_0,\
tspin_mini_1,tspin_mini_2,perfect_clears,max_combo,max_b2b,b2b_clears,holds,finesse_faults,\
faulty_pieces,deaths";

/// A CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180), and a name
/// that a spreadsheet would take for a formula is prefixed with a quote character.
fn csv_field(text: &str) -> String {
    let text = if text.starts_with(['=', '+', '-', '@']) {
        format!("'{text}")
    } else {
        text.to_string()
    };
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

/// One header row, then one row per seat.
pub fn csv(report: &StatsReport) -> String {
    let mut s = String::new();
    s.push_str(CSV_HEADER);
    s.push('\n');
    for (i, seat) in report.seats.iter().enumerate() {
        let (r, c) = (&seat.rates, &seat.counts);
        let (m, f) = (&c.spins.mini, &c.spins.full);
        let rates = [
            r.seconds,
            r.pps,
            r.apm,
            r.vs,
            r.app,
            r.ds_per_second,
            r.ds_per_piece,
        ];
        let counts = [
            c.attack,
            c.sent,
            c.cancelled,
            c.received,
            c.tanked,
            c.discarded,
            c.garbage_cleared,
            c.lines,
            c.singles,
            c.doubles,
            c.triples,
            c.quads,
            f[0],
            f[1],
            f[2],
            f[3],
            m[0],
            m[1],
            m[2],
            c.perfect_clears,
            c.max_combo,
            c.max_b2b,
            c.b2b_clears,
            c.holds,
            c.finesse_faults,
            c.faulty_pieces,
            c.deaths.len() as u32,
        ];
        let _ = write!(s, "{i},{}", csv_field(&seat.name));
        let _ = write!(s, ",{},{},{}", rates[0], c.frames, c.pieces);
        for x in &rates[1..] {
            let _ = write!(s, ",{x}");
        }
        for x in counts {
            let _ = write!(s, ",{x}");
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_with_a_comma_or_a_formula_stays_one_plain_field() {
        assert_eq!(csv_field("ann"), "ann");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\","), "\"say \"\"hi\"\",\"");
        assert_eq!(csv_field("=1+1"), "'=1+1");
    }

    #[test]
    fn the_csv_header_and_rows_have_the_same_columns() {
        let report = StatsReport {
            file: "x".into(),
            kind: "solo",
            mode: Some("zen"),
            frames: 0,
            seats: vec![SeatReport::new("a,b", Default::default())],
        };
        let out = csv(&report);
        let lines: Vec<&str> = out.lines().collect();
        let columns = CSV_HEADER.split(',').count();
        assert_eq!(lines.len(), 2);
        // The quoted name holds one comma.
        assert_eq!(lines[1].split(',').count(), columns + 1);
    }
}
