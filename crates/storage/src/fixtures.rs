//! Sample rows for tests: a player (or the `n`th of many), a ranked match between two players
//! and a solo run. Shared
//! by this crate's SQLite tests and the end-to-end check that both backends keep one contract
//! (`tests/tests/e2e/storage_backends.rs`), so the two cannot drift apart. Built only for tests and
//! with the `fixtures` feature.

use crate::{MatchRecord, MatchSeat, NewPlayer, Outcome, Player, PlayerStats, Rating};
use crate::{SoloBoard, SoloRun};

/// A new player whose key hash is 32 bytes of `key` and recovery hash 32 bytes of `!key`.
pub fn new_player(name: &str, key: u8) -> NewPlayer {
    NewPlayer {
        key_hash: vec![key; 32],
        recovery_hash: vec![key ^ 0xff; 32],
        name: name.into(),
        name_key: name.to_lowercase(),
        created_unix: 1,
        registered_from: None,
    }
}

/// The `n`th of many players named `name` with a number (for more players than
/// [`new_player`]'s 256 keys): its key hash and recovery hash are made from `n` and `tag`, so
/// players of different tags never share a key.
pub fn nth_player(name: &str, n: u32, tag: u8) -> NewPlayer {
    let key = |side: u8| {
        let mut hash = vec![tag, side];
        hash.extend_from_slice(&n.to_be_bytes());
        hash.resize(32, 0);
        hash
    };
    let name = format!("{name}{n:04}");
    NewPlayer {
        key_hash: key(1),
        recovery_hash: key(2),
        name_key: name.to_lowercase(),
        name,
        created_unix: 1,
        registered_from: None,
    }
}

/// A ranked match `a` won 3–1 against `b`, leaving them at the ratings `after`.
pub fn ranked(a: &Player, b: &Player, after: [Rating; 2]) -> MatchRecord {
    let seat = |p: &Player, after: Rating| MatchSeat {
        player: Some(p.id),
        name: p.name.clone(),
        before: Some(p.rating),
        after: Some(after),
        stats: PlayerStats {
            pieces: 100,
            ..PlayerStats::default()
        },
    };
    MatchRecord {
        ranked: true,
        outcome: Outcome::Won(0),
        reason: "top_out".into(),
        score: [3, 1],
        rules: "{}".into(),
        duration_frames: 6000,
        replay: Some("r1".into()),
        started_unix: 10,
        ended_unix: 110,
        seats: [seat(a, after[0]), seat(b, after[1])],
    }
}

/// A 40-line solo run by `player` on `board`, recorded at `at`, whose replay bytes encode its
/// board, frames and score (so a test can tell which run came back).
pub fn solo(player: &Player, board: SoloBoard, frames: u32, score: u64, at: u64) -> SoloRun {
    SoloRun {
        player: player.id,
        board,
        frames,
        lines: 40,
        pieces: 100,
        score,
        recorded_unix: at,
        replay: vec![board as u8, frames as u8, score as u8],
    }
}

/// A free-for-all of `players.len() + guests` seats (players first, then guests named
/// `Guest N`), won by seat 0: seat `i` placed `i + 1`th, with `i` knock-outs for seat 0 only.
pub fn battle(players: &[&Player], guests: usize) -> crate::BattleRecord {
    let n = players.len() + guests;
    let seats = (0..n)
        .map(|i| crate::BattleSeat {
            player: players.get(i).map(|p| p.id),
            name: players
                .get(i)
                .map_or_else(|| format!("Guest {i}"), |p| p.name.clone()),
            placement: i as u8 + 1,
            kos: if i == 0 { n as u32 - 1 } else { 0 },
            team: None,
            rounds_won: u8::from(i == 0),
            stats: PlayerStats {
                pieces: 50 + i as u32,
                attack: 10,
                ..PlayerStats::default()
            },
        })
        .collect();
    crate::BattleRecord {
        winner: Some(0),
        reason: "top_out".into(),
        rules: r#"{"targeting":"even"}"#.into(),
        targeting: "even".into(),
        duration_frames: 3600,
        replay: Some("b1".into()),
        started_unix: 200,
        ended_unix: 260,
        seats,
    }
}
