//! Formats of matches of several seats that cannot drift: a committed replay of format version
//! 2 (`golden/replay_v2.sbrp`, four seats) and a committed room log of format version 2
//! (`golden/room_log_v2.sbrl`), each decoded, re-simulated to a pinned state hash and written
//! again byte for byte. A reordered field, a changed enum, a rules change that moves a hash, or
//! a dependency bump that changes the encoding fails here instead of breaking saved files.
//!
//! `SEVENBAG_BLESS=1 cargo test -p sevenbag-protocol --test golden_battle` writes a missing
//! golden file; an existing one is never rewritten (see `tests/golden.rs`).

use std::path::PathBuf;

use sevenbag_core::{BattleHeader, Handling, Input, MatchHeader, Targeting};
use sevenbag_protocol::battle_replay::BATTLE_REPLAY_VERSION;
use sevenbag_protocol::battle_room_log::{
    BATTLE_LOG_VERSION, BattleOpen, BattleRecord, append_battle, battle_head, log_version,
    read_battle,
};
use sevenbag_protocol::*;

/// `Battle::state_hash` at the last frame of the version-2 replay.
const REPLAY_V2_FINAL_HASH: u64 = 0x04e9_a94c_b784_cb9a;
/// `Battle::state_hash` of the version-2 room log's match, stepped through every record.
const ROOM_LOG_V2_HASH: u64 = 0x3da4_c3cc_9d45_a000;

fn golden(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name)
}

/// The committed file `name`, written from `make` first when blessing and it is missing.
fn committed(name: &str, make: impl FnOnce() -> Vec<u8>) -> Vec<u8> {
    let path = golden(name);
    if !path.exists() && std::env::var_os("SEVENBAG_BLESS").is_some() {
        std::fs::write(&path, make()).expect("bless the golden file");
    }
    std::fs::read(&path).unwrap_or_else(|e| panic!("golden {name} (bless to create it): {e}"))
}

/// Seat `s` hard-drops every `period` frames and taps `extra` on the next two.
fn masks(period: u32, extra: Input, frames: u32) -> Vec<Input> {
    (0..frames)
        .map(|f| match f % period {
            0 => Input::HARD_DROP,
            1 | 2 => extra,
            _ => Input::NONE,
        })
        .collect()
}

/// Four seats, manual targeting, first to 1: seat `s` drops every `16 + 5s` frames, aims at the
/// next seat and switches to the one after at frame 300, so the file holds key changes, target
/// changes, hashes, a round with placements and a result.
fn sample_replay() -> BattleReplay {
    let mut header = BattleHeader::new(0x5EED_0002, 4);
    header.rules.first_to = 1;
    header.rules.countdown_frames = 10;
    header.options.targeting = Targeting::Manual;
    let mut sim = BattleSim::new(header).expect("a valid header");
    let frames = 1500;
    for s in 0..4u8 {
        let extra = if s % 2 == 0 {
            Input::LEFT
        } else {
            Input::RIGHT
        };
        let changes = InputLog::diff(&masks(16 + 5 * u32::from(s), extra, frames), 0, Input::NONE);
        let targets = [
            TargetChange {
                frame: 0,
                target: Some((s + 1) % 4),
            },
            TargetChange {
                frame: 300,
                target: Some((s + 2) % 4),
            },
        ];
        sim.extend(usize::from(s), &changes, &targets, frames)
            .expect("valid lists");
    }
    sim.advance();
    let names = ["ann", "bob", "cy", "dee"].map(String::from).to_vec();
    let winner = sim.winner();
    let placements = sim.placements();
    BattleReplay::record(
        &sim,
        names,
        winner,
        EndReason::TopOut,
        placements,
        1_700_000_000,
    )
}

#[test]
fn the_version_2_replay_file_decodes_verifies_and_re_encodes_byte_for_byte() {
    assert_eq!(
        BATTLE_REPLAY_VERSION, 2,
        "add a golden file for the new version"
    );
    let bytes = committed("replay_v2.sbrp", || {
        sample_replay().encode().expect("encodes")
    });
    assert_eq!(&bytes[..6], b"SBRP\x02\x00");
    let replay = BattleReplay::decode(&bytes).expect("the v2 file decodes");
    assert_eq!(
        replay,
        sample_replay(),
        "the v2 file no longer means the same match"
    );
    assert_eq!(
        replay.encode().expect("encodes"),
        bytes,
        "the v2 file re-encodes differently"
    );
    assert_eq!(replay.names.len(), 4);
    assert!(replay.inputs.iter().all(|i| i.targets.len() == 2));
    assert!(replay.hashes.len() >= 5 && replay.rounds.len() == 1);
    assert_eq!(replay.result.reason, EndReason::TopOut);
    let mut places = replay.result.placements.clone();
    places.sort_unstable();
    assert_eq!(places, [1, 2, 3, 4], "every seat placed");
    let report = verify_battle(&replay).expect("the v2 file verifies");
    assert_eq!(report.hashes_checked, replay.hashes.len());
    assert_eq!(report.frames, replay.result.frames);
    assert_eq!(
        report.final_hash, REPLAY_V2_FINAL_HASH,
        "the v2 match ends on another state: the rules moved"
    );
}

/// The opening record of the version-2 room log: a room of five seats, three seated.
fn sample_open() -> BattleOpen {
    let options = BattleRoomOptions::ffa(5);
    let handling = [Handling::default(); 3];
    BattleOpen {
        code: "ACDEF".into(),
        options,
        header: options.header(0x5EED_0003, &handling, options.room.rules()),
        names: ["ann", "bob", "cy"].map(String::from).to_vec(),
        room_seats: vec![0, 2, 4],
        tokens: vec![11, 12, 13],
        started_unix: 1_700_000_000,
        frame0_unix_ms: 1_700_000_000_500,
        matches: 2,
        accounts: vec![Some(4), None, Some(9)],
        policy: RoomPolicy::FREE_FOR_ALL,
    }
}

/// The records of the version-2 room log: open, accounts, then batches of every seat.
fn sample_log() -> Vec<u8> {
    let mut out = battle_head();
    let open = sample_open();
    let records = [
        BattleRecord::Open(Box::new(open.clone())),
        BattleRecord::Accounts(open.accounts.clone()),
    ];
    for r in &records {
        append_battle(&mut out, r).expect("encodes");
    }
    for (from, to) in [(0u32, 120u32), (120, 240)] {
        for seat in 0..3u8 {
            let all = masks(6 + u32::from(seat), Input::LEFT, to);
            let before = from.checked_sub(1).map_or(Input::NONE, |f| all[f as usize]);
            let changes = InputLog::diff(&all[from as usize..], from, before);
            let batch = BattleRecord::Inputs {
                seat,
                changes,
                targets: Vec::new(),
                confirmed: to,
            };
            append_battle(&mut out, &batch).expect("encodes");
        }
    }
    out
}

#[test]
fn the_version_2_room_log_reads_back_to_its_match_and_is_written_byte_for_byte() {
    assert_eq!(
        BATTLE_LOG_VERSION, 2,
        "add a golden file for the new version"
    );
    let stored = committed("room_log_v2.sbrl", sample_log);
    assert_eq!(stored, sample_log(), "room log format version 2 changed");
    assert_eq!(log_version(&stored), Some(2));
    let loaded = read_battle(&stored).expect("the v2 log reads");
    assert_eq!(loaded.truncated, None);
    assert_eq!(loaded.good_len, stored.len() as u64);
    assert_eq!(loaded.open, sample_open());
    assert_eq!(loaded.sim.frame(), 240);
    assert_eq!(
        loaded.sim.game().state_hash(),
        ROOM_LOG_V2_HASH,
        "the v2 log's match stands elsewhere: the rules moved"
    );
}

/// A two-seat match played as a battle of two seats (its header through
/// `BattleHeader::versus`, its keys unchanged, no targets) records the very hashes, rounds and
/// end the versus replay does: the committed version-1 file re-simulated both ways.
#[test]
fn the_version_1_golden_match_played_as_a_battle_of_two_ends_on_the_same_hashes() {
    let bytes = std::fs::read(golden("replay_v1.sbrp")).expect("golden replay_v1.sbrp");
    let versus = Replay::decode(&bytes).expect("decodes");
    let header: MatchHeader = versus.header;
    let mut sim = BattleSim::new(BattleHeader::versus(&header)).expect("a valid header");
    for (seat, i) in versus.inputs.iter().enumerate() {
        sim.extend(seat, &i.changes, &[], i.confirmed)
            .expect("valid lists");
    }
    sim.advance();
    assert_eq!(sim.hashes(), versus.hashes.as_slice());
    assert_eq!(sim.frame(), versus.result.frames);
    assert_eq!(
        sim.winner(),
        versus.result.winner.map(|s| s.index() as u8),
        "the same winner"
    );
    let rounds: Vec<(u32, Option<u8>, Vec<u8>, u32)> = sim
        .rounds()
        .iter()
        .map(|r| (r.round, r.winner, r.wins.clone(), r.frame))
        .collect();
    let want: Vec<(u32, Option<u8>, Vec<u8>, u32)> = versus
        .rounds
        .iter()
        .map(|r| {
            (
                r.round,
                r.winner.map(|s| s.index() as u8),
                r.wins.to_vec(),
                r.frame,
            )
        })
        .collect();
    assert_eq!(rounds, want);
    let report = verify(&versus).expect("verifies");
    assert_eq!(sim.game().state_hash(), report.final_hash);
}
