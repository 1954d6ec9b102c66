//! Replay subcommands: `replay verify FILE` re-simulates a replay and checks it, `replay info
//! FILE` describes it, `replay stats FILE` re-simulates it and prints every seat's statistics
//! ([`stats`], charts in [`plot`]; solo runs too). Verify and info read either format version (two seats or several) through
//! `sevenbag_protocol::replay_file::open`, which gives one model of N seats; the format is
//! `docs/REPLAY.md`, and decoding and verification live in `sevenbag_protocol`, so this module
//! only reads the file and prints.

// `replay stats`: re-simulation with a statistics recorder, and its text, JSON and CSV.
mod stats;
// `replay stats --plot`: the charts as a PNG, and their text.
mod glyphs;
mod plot;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context;
use sevenbag_protocol::file::read_limited;
use sevenbag_protocol::replay::MAX_REPLAY_BYTES;
use sevenbag_protocol::replay_file::{OpenedReplay, open};
use sevenbag_protocol::{BattleReplay, EndReason};

/// Subcommands over replay files.
#[derive(clap::Subcommand, Debug)]
pub enum ReplayCommand {
    /// Work with replay files (`.sbrp`, as the server writes them).
    #[command(subcommand)]
    Replay(ReplayAction),
}

/// What to do with a replay file.
#[derive(clap::Subcommand, Debug)]
pub enum ReplayAction {
    /// Re-simulate a replay (two seats or several) with the rules core and check every
    /// recorded hash, every round and the result. Exits non-zero if the file is corrupted or
    /// does not verify.
    Verify {
        /// The replay file.
        file: PathBuf,
    },
    /// Describe a replay (seats, rules, rounds, each seat's place, result) without
    /// re-simulating it.
    Info {
        /// The replay file.
        file: PathBuf,
    },
    /// Re-simulate a replay (two seats, several, or a solo run; verified first) and print every
    /// seat's statistics: pieces, PPS, APM, VS, clears, T-spins, attack and garbage, finesse
    /// faults, top-outs (docs/STATS.md).
    Stats {
        /// The replay file (`.sbrp` or a solo `.sbso`).
        file: PathBuf,
        /// Print one JSON object with a `seats` array.
        #[arg(long, conflicts_with_all = ["csv", "plot"])]
        json: bool,
        /// Print CSV: a header row, then one row per seat.
        #[arg(long, conflicts_with = "plot")]
        csv: bool,
        /// Draw APM, PPS, VS and attack sent and received over time, per seat, into this PNG
        /// (the text report is printed too).
        #[arg(long, value_name = "OUT.png")]
        plot: Option<PathBuf>,
    },
}

/// Runs a replay subcommand.
pub fn run(command: ReplayCommand) -> anyhow::Result<()> {
    let ReplayCommand::Replay(action) = command;
    let out = match action {
        ReplayAction::Verify { file } => verify_file(&file)?,
        ReplayAction::Info { file } => describe(&file, &load(&file)?),
        ReplayAction::Stats {
            file,
            json,
            csv,
            plot,
        } => {
            let report = stats::compute(&file)?;
            if json {
                let mut out = serde_json::to_string_pretty(&report)?;
                out.push('\n');
                out
            } else if csv {
                stats::csv(&report)
            } else {
                if let Some(png) = &plot {
                    plot::write_png(&report, png)?;
                }
                stats::text(&report)
            }
        }
    };
    print!("{out}");
    Ok(())
}

fn load(file: &Path) -> anyhow::Result<OpenedReplay> {
    // A regular file of at most the format's limit: `/dev/zero` or a FIFO is a clear error.
    let bytes = read_limited(file, MAX_REPLAY_BYTES as u64)
        .with_context(|| format!("cannot read {}", file.display()))?;
    open(&bytes).with_context(|| format!("{}", file.display()))
}

/// The seats of `team` (each seat its own team unless the match has teams).
fn team_seats(replay: &BattleReplay, team: u8) -> Vec<usize> {
    (0..replay.names.len())
        .filter(|&s| {
            replay
                .header
                .options
                .teams
                .map_or(s == usize::from(team), |t| t[s] == team)
        })
        .collect()
}

/// `name (seat N)` for a team of one, `team T (a & b)` for a team of several.
fn team_name(replay: &BattleReplay, team: Option<u8>) -> String {
    let Some(team) = team else {
        return "nobody".to_string();
    };
    let seats = team_seats(replay, team);
    match seats.as_slice() {
        [s] => format!("{} (seat {s})", replay.names[*s]),
        _ => {
            let names: Vec<&str> = seats.iter().map(|&s| replay.names[s].as_str()).collect();
            format!("team {team} ({})", names.join(" & "))
        }
    }
}

fn rounds_line(replay: &BattleReplay) -> String {
    let each: Vec<String> = replay
        .rounds
        .iter()
        .map(|r| {
            let who = match r.winner {
                Some(t) => {
                    let seats = team_seats(replay, t);
                    let names: Vec<&str> =
                        seats.iter().map(|&s| replay.names[s].as_str()).collect();
                    names.join(" & ")
                }
                None => "draw".to_string(),
            };
            format!("{}: {who} @{}", r.round + 1, r.frame)
        })
        .collect();
    format!("{} ({})", replay.rounds.len(), each.join(", "))
}

fn result_line(replay: &BattleReplay) -> String {
    let r = &replay.result;
    let who = team_name(replay, r.winner);
    match (r.winner, r.reason) {
        (Some(_), EndReason::TopOut) => {
            format!("{who} won on the boards after {} frames", r.frames)
        }
        (Some(_), EndReason::Forfeit) => format!("{who} won by forfeit after {} frames", r.frames),
        (None, EndReason::Abandoned) => {
            format!("no result: no player came back after {} frames", r.frames)
        }
        (_, reason) => format!("unfinished ({reason:?}) after {} frames", r.frames),
    }
}

/// The description `info` prints (and `verify` starts with): `seats: N`, then one line per
/// seat with its name and place, for files of either version.
fn describe(file: &Path, opened: &OpenedReplay) -> String {
    let replay = &opened.replay;
    let h = &replay.header;
    let mut s = String::new();
    // Writing to a String cannot fail.
    let _ = writeln!(
        s,
        "file:    {} (format v{})",
        file.display(),
        opened.version
    );
    let who = if replay.names.len() == 2 {
        format!("{} vs {}", replay.names[0], replay.names[1])
    } else {
        format!("{} players", replay.names.len())
    };
    let _ = writeln!(
        s,
        "match:   {who}, seed {:#018x}, first to {}, targeting {:?}{}, created at unix {}",
        h.seed,
        h.rules.first_to,
        h.options.targeting,
        if h.options.teams.is_some() {
            ", teams"
        } else {
            ""
        },
        replay.created_unix
    );
    let _ = writeln!(s, "seats: {}", opened.seats());
    for seat in opened.standings() {
        let team = match h.options.teams {
            Some(_) => format!(" (team {})", seat.team),
            None => String::new(),
        };
        let place = match seat.placement {
            Some(p) => format!("place {p}"),
            None => "no place".to_string(),
        };
        let won = if seat.won { ", won" } else { "" };
        let inputs = &replay.inputs[seat.seat];
        let _ = writeln!(
            s,
            "seat {}: {}{team}, {place}{won}; {} frames confirmed, {} changes, {} target changes",
            seat.seat,
            seat.name,
            inputs.confirmed,
            inputs.changes.len(),
            inputs.targets.len()
        );
    }
    let _ = writeln!(s, "rounds:  {}", rounds_line(replay));
    let _ = writeln!(s, "result:  {}", result_line(replay));
    let _ = writeln!(s, "hashes:  {} recorded", replay.hashes.len());
    s
}

fn verify_file(file: &Path) -> anyhow::Result<String> {
    let opened = load(file)?;
    let mut out = describe(file, &opened);
    let report = opened
        .verify()
        .with_context(|| format!("{}: verification failed", file.display()))?;
    let _ = writeln!(
        out,
        "verified: {} seats, {} frames re-simulated, {} hashes checked, {} rounds and the result match; final hash {:#018x}",
        opened.seats(),
        report.frames,
        report.hashes_checked,
        report.rounds,
        report.final_hash
    );
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sevenbag_core::{Input, MatchHeader};
    use sevenbag_protocol::{Replay, SeatInputs};

    fn recorded() -> Replay {
        let mut header = MatchHeader::versus(7);
        header.rules.first_to = 1;
        header.rules.countdown_frames = 10;
        let inputs = [5u32, 11].map(|period| {
            let masks: Vec<Input> = (0..3000)
                .map(|f| {
                    if f % period == 0 {
                        Input::HARD_DROP
                    } else {
                        Input::NONE
                    }
                })
                .collect();
            SeatInputs::from_masks(&masks)
        });
        let names = ["ann".into(), "ben".into()];
        Replay::play_out(header, &inputs, names, EndReason::TopOut, 1).expect("valid script")
    }

    fn temp(dir: &tempfile::TempDir, name: &str, bytes: &[u8]) -> PathBuf {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).expect("temp file");
        path
    }

    #[test]
    fn verify_prints_hashes_and_a_corrupted_file_is_an_error() {
        let bytes = recorded().encode().expect("encodes");
        let dir = tempfile::tempdir().expect("temp dir");
        let good = temp(&dir, "good.sbrp", &bytes);
        let out = verify_file(&good).expect("verifies");
        assert!(out.contains("hashes checked"), "{out}");
        assert!(out.contains("ben (seat 1) won"), "{out}");

        let mut bad = bytes.clone();
        let mid = bad.len() / 2;
        bad[mid] ^= 0x20;
        let corrupt = temp(&dir, "bad.sbrp", &bad);
        let err = verify_file(&corrupt).expect_err("corrupted");
        assert!(
            format!("{err:#}").contains("corrupted: checksum mismatch"),
            "{err:#}"
        );

        let missing = verify_file(Path::new("/nonexistent/sevenbag.sbrp")).expect_err("missing");
        assert!(format!("{missing:#}").contains("cannot read"));
    }

    fn golden(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../protocol/tests/golden")
            .join(name)
    }

    #[test]
    fn info_on_a_two_seat_file_names_two_seats_and_each_place() {
        let bytes = recorded().encode().expect("encodes");
        let dir = tempfile::tempdir().expect("temp dir");
        let file = temp(&dir, "two.sbrp", &bytes);
        let out = describe(&file, &load(&file).expect("opens"));
        assert!(out.contains("(format v1)"), "{out}");
        assert!(out.contains("\nseats: 2\n"), "{out}");
        assert!(out.contains("\nseat 0: ann, place 2;"), "{out}");
        assert!(out.contains("\nseat 1: ben, place 1, won;"), "{out}");
    }

    #[test]
    fn the_golden_files_of_both_versions_verify_through_the_one_reader() {
        let v1 = verify_file(&golden("replay_v1.sbrp")).expect("v1 verifies");
        assert!(
            v1.contains("seats: 2\n") && v1.contains("verified: 2 seats"),
            "{v1}"
        );
        let v2 = verify_file(&golden("replay_v2.sbrp")).expect("v2 verifies");
        assert!(v2.contains("(format v2)"), "{v2}");
        assert!(v2.contains("\nseats: 4\n"), "{v2}");
        for (seat, name) in ["ann", "bob", "cy", "dee"].iter().enumerate() {
            assert!(
                v2.contains(&format!("\nseat {seat}: {name}, place ")),
                "{v2}"
            );
        }
        assert_eq!(v2.matches(", won;").count(), 1, "{v2}");
        assert!(v2.contains("verified: 4 seats"), "{v2}");
    }

    #[test]
    fn a_tampered_several_seat_file_fails_verification() {
        let mut replay = sevenbag_protocol::BattleReplay::decode(
            &std::fs::read(golden("replay_v2.sbrp")).expect("golden"),
        )
        .expect("decodes");
        replay.hashes[1].hash ^= 1;
        let dir = tempfile::tempdir().expect("temp dir");
        let file = temp(&dir, "tampered.sbrp", &replay.encode().expect("encodes"));
        let err = verify_file(&file).expect_err("does not verify");
        assert!(
            format!("{err:#}").contains("state hash mismatch at frame 120"),
            "{err:#}"
        );
    }
}
