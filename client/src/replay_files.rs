//! Replay files on this machine and their playback.
//!
//! The file helpers list the replay folders and save what a server sends, refusing anything
//! that does not decode; [`ReplaySession`] plays a two-seat replay (`session.rs`) with the
//! playback clock both replay kinds share (`clock.rs`). Files of either format
//! version are read through `sevenbag_protocol::replay_file::open` ([`load_any`]); a replay of
//! several seats plays in `crate::replays::battle`.

use std::path::{Path, PathBuf};

use sevenbag_core::Seat;
use sevenbag_protocol::replay::{MAX_REPLAY_BYTES, Replay};
use sevenbag_protocol::replay_file::{OpenedReplay, open, open_two_seats};
use sevenbag_protocol::{EndReason, ReplayListing};

use crate::text::utc_stamp;

pub mod clock;
mod session;

pub use session::ReplaySession;

/// Playback speeds offered, slowest first.
pub const SPEEDS: [f32; 5] = [0.25, 0.5, 1.0, 2.0, 4.0];
/// How far one ← or → seeks, in frames (5 seconds).
pub const SEEK_FRAMES: u32 = 300;
/// Extension of replay files.
pub const EXTENSION: &str = "sbrp";

/// Folders searched for replay files: `./replays` and `<data dir>/sevenbag/replays`.
pub fn replay_dirs() -> Vec<PathBuf> {
    let mut dirs = vec![PathBuf::from("replays")];
    if let Some(d) = save_dir() {
        dirs.push(d);
    }
    dirs
}

/// Where downloaded and saved replays go: `<data dir>/sevenbag/replays`.
pub fn save_dir() -> Option<PathBuf> {
    crate::platform::folders::data_dir().map(|d| d.join("sevenbag").join("replays"))
}

/// Replay files in `dirs`, newest name first.
pub fn list_files(dirs: &[PathBuf]) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = dirs
        .iter()
        .filter_map(|d| crate::platform::files::files_in(d).ok())
        .flatten()
        .filter(|p| p.extension().is_some_and(|e| e == EXTENSION))
        .collect();
    files.sort_by(|a, b| b.file_name().cmp(&a.file_name()));
    files.dedup();
    files
}

/// A replay file as the list shows it, decoded once when the list is made.
pub struct Listed {
    /// The file.
    pub path: PathBuf,
    /// The row: "ann vs bo · ann won · 1:23 · 2026-11-23 10:31", or the file's name when it
    /// cannot be played.
    pub label: String,
    /// The replay's description, or why it cannot be played.
    pub detail: Result<String, String>,
}

/// The replay files of `dirs` (as [`list_files`]), each described for the list.
pub fn list_described(dirs: &[PathBuf]) -> Vec<Listed> {
    list_files(dirs)
        .into_iter()
        .map(|path| {
            let stem = path
                .file_stem()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let (label, detail) = match load_any(&path) {
                Ok(r) => {
                    let d = describe_any(&r);
                    (format!("{d} · {}", utc_stamp(r.replay.created_unix)), Ok(d))
                }
                Err(e) => (format!("{stem} (cannot be played)"), Err(e)),
            };
            Listed {
                path,
                label,
                detail,
            }
        })
        .collect()
}

/// A server replay's row: "2026-11-23 10:31 · ann 2–1 bo · 3:05 · RANKED", so that two
/// matches of the same players tell apart by when, how long and how they went; a match of
/// several seats as "2026-11-23 10:31 · 8 players · ann won · 3:05".
pub fn listing_label(l: &ReplayListing) -> String {
    let [a, b] = &l.names;
    let [sa, sb] = l.score;
    let outcome = match (l.several_seats(), l.winner, l.reason) {
        (Some(n), ..) => format!("{n} players · {}", several_result(l)),
        (None, winner, reason) => two_seat_outcome(a, b, [sa, sb], winner, reason),
    };
    let ranked = if l.ranked { " · RANKED" } else { "" };
    format!(
        "{} · {outcome} · {}{ranked}",
        utc_stamp(l.created_unix),
        mmss(l.frames)
    )
}

/// How a match of several seats went, from its list row (which names the winner first):
/// "ann won", "ann won (forfeit)", "no result" or "unfinished".
fn several_result(l: &ReplayListing) -> String {
    match (l.winner, l.reason) {
        (Some(_), EndReason::Forfeit) => format!("{} won (forfeit)", l.names[0]),
        (Some(_), _) => format!("{} won", l.names[0]),
        (None, EndReason::Abandoned) => "no result".to_owned(),
        (None, _) => "unfinished".to_owned(),
    }
}

/// "ann 2–1 bo", "ann 1–0 bo (forfeit)", "ann vs bo, no result" or "ann vs bo, unfinished".
fn two_seat_outcome(
    a: &str,
    b: &str,
    [sa, sb]: [u8; 2],
    winner: Option<Seat>,
    reason: EndReason,
) -> String {
    match (winner, reason) {
        (Some(_), EndReason::Forfeit) => format!("{a} {sa}–{sb} {b} (forfeit)"),
        (Some(_), _) => format!("{a} {sa}–{sb} {b}"),
        (None, EndReason::Abandoned) => format!("{a} vs {b}, no result"),
        (None, _) => format!("{a} vs {b}, unfinished"),
    }
}

/// The side panel's text for a server replay.
pub fn listing_detail(l: &ReplayListing) -> String {
    let [a, b] = &l.names;
    let (players, result) = match l.several_seats() {
        Some(n) => {
            let result = match (l.winner, l.reason) {
                (Some(_), _) => format!("{}.", several_result(l)),
                (None, EndReason::Abandoned) => "No result: every player left.".to_owned(),
                (None, _) => "Unfinished (the server stopped).".to_owned(),
            };
            (format!("{n} players: {a} and {b}"), result)
        }
        None => (format!("{a} vs {b}"), two_seat_result(l)),
    };
    format!(
        "{players}\n{result}\nPlayed {} UTC, {} long\n{}\n\nEnter saves it here; it then appears in the list above. L copies its link.",
        utc_stamp(l.created_unix),
        mmss(l.frames),
        if l.ranked { "Ranked" } else { "Unranked" }
    )
}

/// The result line of a two-seat server replay's side panel.
fn two_seat_result(l: &ReplayListing) -> String {
    match l.winner {
        Some(w) => format!(
            "{} won {}–{}{}",
            l.names[w.index()],
            l.score[w.index()],
            l.score[w.other().index()],
            if l.reason == EndReason::Forfeit {
                " by forfeit"
            } else {
                ""
            }
        ),
        None if l.reason == EndReason::Abandoned => {
            "No result: neither player came back.".to_owned()
        }
        None => "Unfinished (the server stopped).".to_owned(),
    }
}

/// Reads a two-seat replay file of either version as the two-seat model; the error is a
/// sentence for the screen.
#[cfg_attr(not(test), allow(dead_code))]
pub fn load(path: &Path) -> Result<Replay, String> {
    open_two_seats(&read_file(path)?).map_err(|e| format!("corrupted replay: {e}"))
}

/// Reads a replay file of either format version (two seats or several) into one model of N
/// seats; the error is a sentence for the screen.
pub fn load_any(path: &Path) -> Result<OpenedReplay, String> {
    open(&read_file(path)?).map_err(|e| format!("corrupted replay: {e}"))
}

/// The bytes of a replay file, refusing one over the format's limit before reading it.
fn read_file(path: &Path) -> Result<Vec<u8>, String> {
    let too_big = |len| len > MAX_REPLAY_BYTES as u64;
    if crate::platform::files::len(path).is_ok_and(too_big) {
        return Err(format!("larger than {MAX_REPLAY_BYTES} bytes"));
    }
    crate::platform::files::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// Saves replay `bytes` (checked first: either format version) as `<dir>/<id>.sbrp`; returns
/// the path.
pub fn save(dir: &Path, id: &str, bytes: &[u8]) -> Result<PathBuf, String> {
    open(bytes).map_err(|e| format!("the server sent a corrupted replay: {e}"))?;
    let name: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(80)
        .collect();
    let name = if name.is_empty() {
        "replay".into()
    } else {
        name
    };
    crate::platform::files::create_dir_all(dir)
        .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let path = dir.join(format!("{name}.{EXTENSION}"));
    crate::platform::files::write(&path, bytes)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

/// A replay file the player opened from elsewhere (the page's file picker, a drop): checked,
/// kept in `dir` (the replay folder) under its name, and read (either format version) ready
/// to play with [`super::playback`]. The error is a sentence.
#[cfg_attr(not(any(test, target_arch = "wasm32")), allow(dead_code))]
pub fn open_bytes(dir: Option<&Path>, name: &str, bytes: &[u8]) -> Result<OpenedReplay, String> {
    let replay = open(bytes).map_err(|e| format!("{name}: not a replay we can play ({e})"))?;
    let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
    if let Some(dir) = dir {
        save(dir, stem, bytes)?;
    }
    Ok(replay)
}

pub(crate) use crate::text::mmss;

/// The seats' names and the result line of a replay of either version, for the list: a
/// two-seat one as [`describe`], one of several seats as "4 players · dee won · 0:05".
pub fn describe_any(opened: &OpenedReplay) -> String {
    if let Some(versus) = opened.replay.to_versus() {
        return describe(&versus);
    }
    let r = &opened.replay;
    let winners: Vec<&str> = opened
        .standings()
        .into_iter()
        .filter(|s| s.won)
        .map(|s| &r.names[s.seat][..])
        .collect();
    let winner = if winners.is_empty() {
        "no winner".to_owned()
    } else {
        format!("{} won", winners.join(" & "))
    };
    format!(
        "{} players · {winner} · {}",
        opened.seats(),
        mmss(r.result.frames)
    )
}

/// The seats' names and the result line of a replay, for the list.
pub fn describe(replay: &Replay) -> String {
    let winner = replay.result.winner.map_or("no winner".to_owned(), |s| {
        format!("{} won", replay.names[usize::from(s == Seat::Second)])
    });
    format!(
        "{} vs {} · {winner} · {}",
        replay.names[0],
        replay.names[1],
        mmss(replay.result.frames)
    )
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::match_source::MatchSource;
    use sevenbag_core::{Input, MatchHeader};
    use sevenbag_protocol::InputLog;
    use sevenbag_protocol::replay::{ConfirmedSim, MatchResult};

    /// A replay recorded the way the server records one: a `ConfirmedSim` over scripted inputs.
    pub(crate) fn recorded(frames: u32) -> (Replay, ConfirmedSim) {
        let header = MatchHeader::versus(77);
        let mut sim = ConfirmedSim::new(header);
        for seat in [Seat::First, Seat::Second] {
            let masks: Vec<Input> = (0..frames)
                .map(|f| match (f + 5 * seat.index() as u32) % 20 {
                    0..=1 => Input::LEFT,
                    7 => Input::ROTATE_CW,
                    15 => Input::HARD_DROP,
                    _ => Input::NONE,
                })
                .collect();
            let changes = InputLog::diff(&masks, 0, Input::NONE);
            sim.extend(seat, &changes, frames).expect("valid inputs");
        }
        sim.advance();
        let replay = Replay {
            header,
            names: ["ana".into(), "bo".into()],
            inputs: sim.seat_inputs(),
            hashes: sim.hashes().to_vec(),
            rounds: sim.rounds().to_vec(),
            result: MatchResult {
                winner: sim.winner(),
                reason: EndReason::Shutdown,
                frames: sim.frame(),
            },
            created_unix: 0,
        };
        (replay, sim)
    }

    #[test]
    fn a_replay_ended_by_forfeit_shows_its_verdict_at_the_end_only() {
        let (mut replay, _) = recorded(300);
        replay.result.winner = Some(Seat::Second);
        replay.result.reason = EndReason::Forfeit;
        let mut s = ReplaySession::new(replay).expect("valid replay");
        assert_eq!(s.verdict(), None, "not before the end");
        while s.step() {}
        assert_eq!(s.verdict().as_deref(), Some("BO WINS BY FORFEIT"));
    }

    #[test]
    fn list_load_play_and_seek() {
        let (replay, sim) = recorded(900);
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().to_path_buf();
        let bytes = replay.encode().expect("encode");
        let path = save(&dir, "123-ABCDE-1", &bytes).expect("save");
        assert_eq!(list_files(std::slice::from_ref(&dir)), vec![path.clone()]);
        let mut s = ReplaySession::new(load(&path).expect("load")).expect("session");
        assert_eq!(s.end(), sim.frame());
        // Play at 1×: 60 clock steps are 60 frames.
        let n = s.pump(60);
        for _ in 0..n {
            assert!(s.step());
        }
        assert_eq!(s.frame(), 60);
        assert_eq!(Some(s.current().state_hash()), sim.hash_at(60));
        // Seek forward, back, and to the start: the same states as the recording.
        s.seek(600);
        assert_eq!(Some(s.current().state_hash()), sim.hash_at(600));
        s.seek(120);
        assert_eq!(Some(s.current().state_hash()), sim.hash_at(120));
        s.clock_mut().change_speed(2);
        assert_eq!(s.clock().speed(), 4.0);
        assert_eq!(s.pump(1), 4);
        s.clock_mut().toggle_pause();
        assert!(s.clock().paused());
        assert_eq!(s.pump(10), 0);
        s.seek(u32::MAX);
        assert!(s.finished());
        assert!(!s.step(), "nothing past the end");
        assert_eq!(s.current().state_hash(), sim.game().state_hash());
        assert!(s.title().is_some_and(|t| t.contains("PAUSED")));
    }

    #[test]
    fn corrupt_files_are_refused_with_a_message() {
        let (replay, _) = recorded(120);
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().to_path_buf();
        let mut bytes = replay.encode().expect("encode");
        let mid = bytes.len() / 2;
        bytes[mid] ^= 0x40;
        assert!(
            save(&dir, "bad", &bytes).is_err(),
            "a corrupt download is not saved"
        );
        let path = dir.join("bad.sbrp");
        std::fs::write(&path, &bytes).expect("write");
        let err = load(&path).err().unwrap_or_default();
        assert!(err.starts_with("corrupted replay"), "{err}");
        std::fs::write(&path, b"nonsense").expect("write");
        assert!(load(&path).is_err());
    }

    /// A forged replay whose seats claim 4,294,967,294 confirmed frames (checksum
    /// recomputed) is refused by the loading path at once, not expanded frame by frame.
    #[test]
    fn a_forged_frame_count_is_refused_at_once() {
        let (mut replay, _) = recorded(120);
        for seat in &mut replay.inputs {
            seat.confirmed = u32::MAX - 1;
        }
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().to_path_buf();
        let path = dir.join("forged.sbrp");
        std::fs::write(&path, replay.encode().expect("encode")).expect("write");
        let started = sevenbag_netplay::time::Instant::now();
        let err = load(&path)
            .and_then(ReplaySession::new)
            .err()
            .unwrap_or_default();
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
        assert!(err.contains("more than a match may last"), "{err}");
        assert!(
            save(&dir, "forged-download", &replay.encode().expect("encode")).is_err(),
            "a forged download is not saved"
        );
    }

    #[test]
    fn an_opened_file_is_kept_under_its_name_and_a_bad_one_is_named() {
        let dir = tempfile::tempdir().expect("temp dir");
        let err = open_bytes(Some(dir.path()), "notes.sbrp", b"nonsense").expect_err("refused");
        assert!(err.starts_with("notes.sbrp: not a replay"), "{err}");
        assert!(
            list_files(&[dir.path().to_path_buf()]).is_empty(),
            "nothing kept"
        );
    }

    fn listing(created_unix: u64, ranked: bool) -> ReplayListing {
        ReplayListing {
            id: format!("{created_unix}-ACDEF-1"),
            names: ["Alice".into(), "Bob".into()],
            winner: Some(Seat::First),
            reason: EndReason::TopOut,
            score: [3, 0],
            frames: 60 * 151,
            created_unix,
            ranked,
        }
    }

    #[test]
    fn server_replays_of_the_same_players_tell_apart_by_date_length_and_ranked() {
        let a = listing_label(&listing(1_795_369_103, false));
        let b = listing_label(&listing(1_795_372_703, true));
        assert_eq!(a, "2026-11-22 17:38 · Alice 3–0 Bob · 2:31");
        assert_eq!(b, "2026-11-22 18:38 · Alice 3–0 Bob · 2:31 · RANKED");
        let void = ReplayListing {
            winner: None,
            reason: EndReason::Abandoned,
            ..listing(1_795_369_103, false)
        };
        assert!(listing_label(&void).contains("Alice vs Bob, no result"));
        assert!(listing_detail(&void).contains("neither player came back"));
    }

    /// A free-for-all's row (the server fits it into two names: the winner and "7 others")
    /// reads as its seat count and its winner, not as a 0–0 score between two players.
    #[test]
    fn a_server_replay_of_several_seats_reads_as_its_players_and_winner() {
        let ffa = ReplayListing {
            names: ["p3".into(), "7 others".into()],
            score: [0, 0],
            ..listing(1_795_369_103, false)
        };
        assert_eq!(
            listing_label(&ffa),
            "2026-11-22 17:38 · 8 players · p3 won · 2:31"
        );
        let detail = listing_detail(&ffa);
        assert!(
            detail.starts_with("8 players: p3 and 7 others\np3 won.\n"),
            "{detail}"
        );
        let void = ReplayListing {
            names: ["p0".into(), "3 others".into()],
            winner: None,
            reason: EndReason::Abandoned,
            ..ffa
        };
        assert_eq!(
            listing_label(&void),
            "2026-11-22 17:38 · 4 players · no result · 2:31"
        );
        assert!(listing_detail(&void).contains("every player left"));
    }
}
