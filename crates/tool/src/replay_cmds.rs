//! Replay subcommands: `replay verify FILE` re-simulates a replay and checks it, `replay info
//! FILE` describes it. The format is `docs/REPLAY.md`; decoding and verification live in
//! `sevenbag_protocol::replay`, so this module only reads the file and prints.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context;
use sevenbag_core::Seat;
use sevenbag_protocol::file::read_limited;
use sevenbag_protocol::replay::{MAX_REPLAY_BYTES, REPLAY_FORMAT_VERSION};
use sevenbag_protocol::{EndReason, Replay, RoundRecord, verify};

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
    /// Re-simulate a replay with the rules core and check every recorded hash, every round and
    /// the result. Exits non-zero if the file is corrupted or does not verify.
    Verify {
        /// The replay file.
        file: PathBuf,
    },
    /// Describe a replay (players, rules, rounds, result) without re-simulating it.
    Info {
        /// The replay file.
        file: PathBuf,
    },
}

/// Runs a replay subcommand.
pub fn run(command: ReplayCommand) -> anyhow::Result<()> {
    let ReplayCommand::Replay(action) = command;
    let out = match action {
        ReplayAction::Verify { file } => verify_file(&file)?,
        ReplayAction::Info { file } => describe(&file, &load(&file)?),
    };
    print!("{out}");
    Ok(())
}

fn load(file: &Path) -> anyhow::Result<Replay> {
    // A regular file of at most the format's limit: `/dev/zero` or a FIFO is a clear error.
    let bytes = read_limited(file, MAX_REPLAY_BYTES as u64)
        .with_context(|| format!("cannot read {}", file.display()))?;
    Replay::decode(&bytes).with_context(|| format!("{}", file.display()))
}

fn seat_name(replay: &Replay, seat: Option<Seat>) -> String {
    match seat {
        Some(s) => format!("{} (seat {})", replay.names[s.index()], s.index()),
        None => "nobody".to_string(),
    }
}

fn rounds_line(replay: &Replay, rounds: &[RoundRecord]) -> String {
    let each: Vec<String> = rounds
        .iter()
        .map(|r| {
            let who = match r.winner {
                Some(s) => replay.names[s.index()].clone(),
                None => "draw".to_string(),
            };
            format!("{}: {who} @{}", r.round + 1, r.frame)
        })
        .collect();
    format!("{} ({})", rounds.len(), each.join(", "))
}

fn result_line(replay: &Replay) -> String {
    let r = replay.result;
    match (r.winner, r.reason) {
        (Some(w), EndReason::TopOut) => format!(
            "{} won on the boards after {} frames",
            seat_name(replay, Some(w)),
            r.frames
        ),
        (Some(w), EndReason::Forfeit) => format!(
            "{} won by forfeit after {} frames",
            seat_name(replay, Some(w)),
            r.frames
        ),
        (_, reason) => format!("unfinished ({reason:?}) after {} frames", r.frames),
    }
}

/// The description `info` prints (and `verify` starts with).
fn describe(file: &Path, replay: &Replay) -> String {
    let h = &replay.header;
    let mut s = String::new();
    // Writing to a String cannot fail.
    let _ = writeln!(
        s,
        "file:    {} (format v{REPLAY_FORMAT_VERSION})",
        file.display()
    );
    let _ = writeln!(
        s,
        "match:   {} vs {}, seed {:#018x}, first to {}, created at unix {}",
        replay.names[0], replay.names[1], h.seed, h.rules.first_to, replay.created_unix
    );
    let _ = writeln!(
        s,
        "inputs:  {} / {} frames confirmed, {} / {} changes",
        replay.inputs[0].confirmed,
        replay.inputs[1].confirmed,
        replay.inputs[0].changes.len(),
        replay.inputs[1].changes.len()
    );
    let _ = writeln!(s, "rounds:  {}", rounds_line(replay, &replay.rounds));
    let _ = writeln!(s, "result:  {}", result_line(replay));
    let _ = writeln!(s, "hashes:  {} recorded", replay.hashes.len());
    s
}

fn verify_file(file: &Path) -> anyhow::Result<String> {
    let replay = load(file)?;
    let mut out = describe(file, &replay);
    let report =
        verify(&replay).with_context(|| format!("{}: verification failed", file.display()))?;
    let _ = writeln!(
        out,
        "verified: {} frames re-simulated, {} hashes checked, {} rounds and the result match; final hash {:#018x}",
        report.frames,
        report.hashes_checked,
        report.rounds.len(),
        report.final_hash
    );
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sevenbag_core::{Input, MatchHeader};
    use sevenbag_protocol::SeatInputs;

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
}
