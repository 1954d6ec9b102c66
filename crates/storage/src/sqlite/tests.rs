use std::time::Duration;

use rusqlite::params;

use super::connection::{QUICK_CHECK_LIMIT, quick_check};
use super::*;
use crate::HistoryEntry;
use crate::ModerationStorage;
use crate::fixtures::{battle, new_player, ranked, solo};
use crate::migrations::MIGRATIONS;

/// A temporary directory (removed on drop) and the database path inside it.
struct Temp(tempfile::TempDir);

impl Temp {
    fn new(tag: &str) -> Temp {
        let dir = tempfile::Builder::new()
            .prefix(&format!("sevenbag-storage-{tag}-"))
            .tempdir()
            .expect("temp dir");
        Temp(dir)
    }

    fn db(&self) -> PathBuf {
        self.0.path().join("test.db")
    }
}

#[test]
fn players_are_found_by_key_recovery_and_name() {
    let t = Temp::new("find");
    let s = SqliteStorage::open(&t.db()).expect("open");
    let p = s.create_player(&new_player("Alice", 1)).expect("create");
    assert_eq!(s.player_by_key(&[1; 32]).unwrap().unwrap().id, p.id);
    assert_eq!(s.player_by_recovery(&[0xfe; 32]).unwrap().unwrap().id, p.id);
    assert_eq!(
        s.player_by_name_key("alice").unwrap().unwrap().name,
        "Alice"
    );
    assert!(s.player_by_key(&[2; 32]).unwrap().is_none());
}

#[test]
fn a_taken_name_is_refused() {
    let t = Temp::new("taken");
    let s = SqliteStorage::open(&t.db()).expect("open");
    s.create_player(&new_player("Alice", 1)).expect("create");
    let err = s.create_player(&new_player("ALICE", 2)).unwrap_err();
    assert!(matches!(err, StorageError::NameTaken(_)), "{err}");
}

#[test]
fn a_match_updates_ratings_and_survives_reopening() {
    let t = Temp::new("reopen");
    let id = {
        let s = SqliteStorage::open(&t.db()).expect("open");
        let a = s.create_player(&new_player("Alice", 1)).unwrap();
        let b = s.create_player(&new_player("Bob", 2)).unwrap();
        let up = Rating {
            rating: 1662.3,
            deviation: 290.3,
            volatility: 0.06,
        };
        let down = Rating {
            rating: 1337.7,
            ..up
        };
        s.record_match(&ranked(&a, &b, [up, down])).expect("record")
    };
    let s = SqliteStorage::open(&t.db()).expect("reopen");
    let m = s.get_match(id).unwrap().expect("stored");
    assert_eq!(m.record.score, [3, 1]);
    let board = s.leaderboard(10, 0).unwrap();
    assert_eq!(board[0].player.name, "Alice");
    assert_eq!(board[0].player.wins, 1);
    assert_eq!(board[1].player.games, 1);
    assert_eq!(board[1].player.wins, 0);
    assert!((board[1].player.rating.rating - 1337.7).abs() < 1e-9);
    assert_eq!(s.place_of(board[1].player.id, 0).unwrap(), Some(2));
    assert_eq!(s.recent_matches(board[0].player.id, 5).unwrap().len(), 1);
}

#[test]
fn a_corrupt_file_is_reported_as_corrupt() {
    let t = Temp::new("corrupt");
    std::fs::write(t.db(), vec![0x5a; 8192]).unwrap();
    let err = SqliteStorage::open(&t.db()).unwrap_err();
    assert!(matches!(err, StorageError::Corrupt { .. }), "{err}");
}

#[test]
fn a_file_damaged_beyond_its_header_is_refused_at_open_like_a_bad_header() {
    let t = Temp::new("damaged");
    {
        let s = SqliteStorage::open(&t.db()).expect("open");
        for key in 0..200u8 {
            s.create_player(&new_player(&format!("player{key}"), key))
                .expect("create");
        }
    }
    let (page_size, root): (i64, i64) = {
        let c = Connection::open(t.db()).unwrap();
        let page_size = c.query_row("PRAGMA page_size", [], |r| r.get(0)).unwrap();
        let root = c
            .query_row(
                "SELECT rootpage FROM sqlite_master WHERE name = 'players_by_rating'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        (page_size, root)
    };
    // The index's root page, not the header (page 1), is overwritten.
    assert!(root > 1);
    let mut bytes = std::fs::read(t.db()).unwrap();
    let at = ((root - 1) * page_size) as usize;
    bytes[at..at + page_size as usize].fill(0xa5);
    std::fs::write(t.db(), &bytes).unwrap();

    let err = SqliteStorage::open(&t.db()).unwrap_err();
    assert!(matches!(err, StorageError::Corrupt { .. }), "{err}");
    let text = err.to_string();
    assert!(
        text.contains("not a Sevenbag database or corrupt (quick_check: "),
        "{text}"
    );
}

#[test]
fn an_intact_file_passes_the_check_even_with_a_short_limit() {
    let t = Temp::new("intact");
    drop(SqliteStorage::open(&t.db()).expect("create"));
    let c = Connection::open(t.db()).unwrap();
    // Cut short or finished, the check never refuses an intact file.
    quick_check(&t.db(), &c, Duration::ZERO).expect("not refused");
    quick_check(&t.db(), &c, QUICK_CHECK_LIMIT).expect("checked whole");
}

#[test]
fn a_locked_file_is_reported_as_locked() {
    let t = Temp::new("locked");
    drop(SqliteStorage::open(&t.db()).expect("create"));
    // Another process would hold the same lock; a second connection is enough to take it.
    let holder = Connection::open(t.db()).unwrap();
    holder
        .execute_batch("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE;")
        .unwrap();
    let err = SqliteStorage::open(&t.db()).unwrap_err();
    assert!(matches!(err, StorageError::Locked { .. }), "{err}");
}

#[test]
fn a_newer_schema_is_refused() {
    let t = Temp::new("newer");
    let c = Connection::open(t.db()).unwrap();
    c.execute_batch("PRAGMA user_version = 99;").unwrap();
    drop(c);
    let err = SqliteStorage::open(&t.db()).unwrap_err();
    assert!(
        matches!(err, StorageError::TooNew { found: 99, .. }),
        "{err}"
    );
}

#[test]
fn another_programs_database_is_refused_and_left_untouched() {
    let t = Temp::new("foreign");
    {
        let c = Connection::open(t.db()).unwrap();
        c.execute_batch("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);")
            .unwrap();
    }
    let before = std::fs::read(t.db()).unwrap();
    let err = SqliteStorage::open(&t.db()).unwrap_err();
    assert!(matches!(err, StorageError::NotOurs { .. }), "{err}");
    assert!(
        err.to_string()
            .contains("not a Sevenbag database (it holds other tables: t)"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(t.db()).unwrap(),
        before,
        "the file is not changed"
    );
}

#[test]
fn a_database_with_a_version_but_no_players_table_is_refused() {
    let t = Temp::new("foreign-version");
    {
        let c = Connection::open(t.db()).unwrap();
        c.execute_batch("CREATE TABLE accounts (x INTEGER); PRAGMA user_version = 2;")
            .unwrap();
    }
    let err = SqliteStorage::open(&t.db()).unwrap_err();
    assert!(matches!(err, StorageError::NotOurs { .. }), "{err}");
}

#[test]
fn a_damaged_rating_is_left_off_the_leaderboard_and_the_rest_is_listed() {
    let t = Temp::new("damaged");
    let s = SqliteStorage::open(&t.db()).unwrap();
    let a = s.create_player(&new_player("Ann", 1)).unwrap();
    let b = s.create_player(&new_player("Ben", 2)).unwrap();
    let c = s.create_player(&new_player("Cat", 3)).unwrap();
    s.write()
        .execute_batch(&format!(
            "UPDATE players SET games = 5; \
             UPDATE players SET rating = 1700 WHERE id = {}; \
             UPDATE players SET rating = 'not a number' WHERE id = {}; \
             UPDATE players SET rating = 1600 WHERE id = {};",
            a.id.0, b.id.0, c.id.0
        ))
        .unwrap();
    let board = s
        .leaderboard(10, 1)
        .expect("served without the damaged row");
    let shown: Vec<(u64, &str)> = board
        .iter()
        .map(|r| (r.place, r.player.name.as_str()))
        .collect();
    assert_eq!(shown, [(1, "Ann"), (2, "Cat")]);
}

#[test]
fn an_empty_file_is_taken_as_new() {
    let t = Temp::new("empty");
    std::fs::write(t.db(), b"").unwrap();
    SqliteStorage::open(&t.db()).expect("an empty file is a new database");
    SqliteStorage::open(&t.db()).expect("and ours when opened again");
}

#[test]
fn a_sprint_board_ranks_the_lowest_time_first_with_one_best_per_player() {
    let t = Temp::new("sprint");
    let s = SqliteStorage::open(&t.db()).expect("open");
    let a = s.create_player(&new_player("Alice", 1)).unwrap();
    let b = s.create_player(&new_player("Bob", 2)).unwrap();
    let c = s.create_player(&new_player("Cy", 3)).unwrap();
    let sprint = SoloBoard::Sprint;
    let first = s.record_solo(&solo(&a, sprint, 3000, 0, 10)).unwrap();
    assert_eq!(
        first,
        SoloRecordOutcome {
            personal_best: true,
            place: 1
        }
    );
    // Faster: Bob takes first place.
    let bob = s.record_solo(&solo(&b, sprint, 2500, 0, 11)).unwrap();
    assert_eq!((bob.personal_best, bob.place), (true, 1));
    // Slower than her best: kept out, and her place is still reported.
    let slower = s.record_solo(&solo(&a, sprint, 3100, 0, 12)).unwrap();
    assert_eq!((slower.personal_best, slower.place), (false, 2));
    // A tie with her own best is not a new best (the older run stays).
    let tie = s.record_solo(&solo(&a, sprint, 3000, 0, 13)).unwrap();
    assert!(!tie.personal_best);
    // Cy ties Alice's time later: Alice keeps the earlier place.
    s.record_solo(&solo(&c, sprint, 3000, 0, 14)).unwrap();
    let board = s.solo_leaderboard(sprint, 10).unwrap();
    let rows: Vec<(u64, &str, u32, u64)> = board
        .iter()
        .map(|r| (r.place, r.name.as_str(), r.run.frames, r.run.recorded_unix))
        .collect();
    assert_eq!(
        rows,
        vec![
            (1, "Bob", 2500, 11),
            (2, "Alice", 3000, 10),
            (3, "Cy", 3000, 14)
        ]
    );
    assert_eq!(board[1].run.replay, vec![0, 3000u32 as u8, 0]);
    // A faster run replaces the best: one row per player.
    let better = s.record_solo(&solo(&a, sprint, 2000, 0, 15)).unwrap();
    assert_eq!((better.personal_best, better.place), (true, 1));
    let board = s.solo_leaderboard(sprint, 10).unwrap();
    assert_eq!(board.len(), 3);
    assert_eq!(board[0].name, "Alice");
    assert_eq!(s.solo_leaderboard(sprint, 1).unwrap().len(), 1);
    let best = s.solo_best(b.id, sprint).unwrap().expect("Bob's best");
    assert_eq!((best.place, best.run.frames), (2, 2500));
    // The boards are separate.
    assert!(s.solo_best(a.id, SoloBoard::Blitz).unwrap().is_none());
    assert!(s.solo_leaderboard(SoloBoard::Blitz, 10).unwrap().is_empty());
}

#[test]
fn a_blitz_board_ranks_the_highest_score_first() {
    let t = Temp::new("blitz");
    let s = SqliteStorage::open(&t.db()).expect("open");
    let a = s.create_player(&new_player("Alice", 1)).unwrap();
    let b = s.create_player(&new_player("Bob", 2)).unwrap();
    let blitz = SoloBoard::Blitz;
    s.record_solo(&solo(&a, blitz, 7200, 50_000, 10)).unwrap();
    let bob = s.record_solo(&solo(&b, blitz, 7200, 80_000, 11)).unwrap();
    assert_eq!((bob.personal_best, bob.place), (true, 1));
    let lower = s.record_solo(&solo(&b, blitz, 7200, 10_000, 12)).unwrap();
    assert_eq!((lower.personal_best, lower.place), (false, 1));
    let higher = s.record_solo(&solo(&a, blitz, 7200, 90_000, 13)).unwrap();
    assert_eq!((higher.personal_best, higher.place), (true, 1));
    let board = s.solo_leaderboard(blitz, 10).unwrap();
    let scores: Vec<(&str, u64)> = board
        .iter()
        .map(|r| (r.name.as_str(), r.run.score))
        .collect();
    assert_eq!(scores, vec![("Alice", 90_000), ("Bob", 80_000)]);
}

#[test]
fn a_version_1_database_gains_the_solo_and_moderation_tables_and_keeps_its_players() {
    let t = Temp::new("migrate");
    {
        let c = Connection::open(t.db()).unwrap();
        c.execute_batch(&format!(
            "BEGIN; {}; PRAGMA user_version = 1; COMMIT;",
            MIGRATIONS[0]
        ))
        .unwrap();
        c.execute(
            "INSERT INTO players (key_hash, recovery_hash, name, name_key, rating, deviation, \
             volatility, created_unix) VALUES (?1, ?2, 'Old', 'old', 1500, 350, 0.06, 1)",
            params![vec![1u8; 32], vec![2u8; 32]],
        )
        .unwrap();
    }
    let s = SqliteStorage::open(&t.db()).expect("migrates");
    let version: i64 = s
        .read()
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, MIGRATIONS.len() as i64);
    assert_eq!(version, 9);
    let old = s.player_by_name_key("old").unwrap().expect("kept");
    let record = s.player_record(old.id, 2).unwrap().expect("kept");
    assert!(!record.bot && !record.delisted && record.registered_from.is_none());
    let done = s
        .record_solo(&solo(&old, SoloBoard::Sprint, 4000, 0, 20))
        .unwrap();
    assert_eq!(done.place, 1);
}

#[test]
fn a_version_3_database_keeps_its_matches_and_takes_free_for_all_matches() {
    let t = Temp::new("migrate-battles");
    {
        let c = Connection::open(t.db()).unwrap();
        for (i, sql) in MIGRATIONS[..3].iter().enumerate() {
            c.execute_batch(&format!(
                "BEGIN; {sql}; PRAGMA user_version = {}; COMMIT;",
                i + 1
            ))
            .unwrap();
        }
        c.execute_batch(
            "INSERT INTO players (key_hash, recovery_hash, name, name_key, rating, deviation, \
             volatility, games, wins, created_unix) VALUES \
             (x'01', x'02', 'Ann', 'ann', 1600, 300, 0.06, 1, 1, 1), \
             (x'03', x'04', 'Ben', 'ben', 1400, 300, 0.06, 1, 0, 1);
             INSERT INTO matches (ranked, winner, reason, score_first, score_second, rules, \
             duration_frames, replay, started_unix, ended_unix) \
             VALUES (1, 0, 'top_out', 2, 1, '{}', 600, 'old', 5, 15);
             INSERT INTO match_seats (match_id, seat, player_id, name, pieces, attack, \
             garbage_cleared, t_spins, frames, pps_x100, apm_x100, vs_x100) VALUES \
             (1, 0, 1, 'Ann', 9, 0, 0, 0, 600, 0, 0, 0), (1, 1, 2, 'Ben', 8, 0, 0, 0, 600, 0, 0, 0);",
        )
        .unwrap();
    }
    let s = SqliteStorage::open(&t.db()).expect("migrates");
    let old = s
        .get_match(MatchId(1))
        .unwrap()
        .expect("the old match reads as before");
    assert_eq!(
        (old.record.score, old.record.seats[1].name.as_str()),
        ([2, 1], "Ben")
    );
    let ann = s.player_by_name_key("ann").unwrap().unwrap();
    let ben = s.player_by_name_key("ben").unwrap().unwrap();
    let record = battle(&[&ben, &ann], 6);
    let id = s.record_battle(&record).expect("a battle is recorded");
    assert_eq!(s.get_battle(id).unwrap().expect("stored").record, record);
    assert!(
        s.get_match(id).unwrap().is_none(),
        "a battle is not a two-seat match"
    );
    assert!(s.get_battle(MatchId(1)).unwrap().is_none());
    let history = s.recent_history(ann.id, 10).unwrap();
    let kinds: Vec<&str> = history
        .iter()
        .map(|h| match h {
            HistoryEntry::Versus(_) => "versus",
            HistoryEntry::Battle(_) => "battle",
        })
        .collect();
    assert_eq!(kinds, ["battle", "versus"], "newest first");
    assert_eq!(s.recent_matches(ann.id, 10).unwrap().len(), 1);
    let after = s.player(ann.id).unwrap().unwrap();
    assert_eq!(
        (after.rating, after.games),
        (ann.rating, ann.games),
        "battles are unrated"
    );
}

#[test]
fn a_version_8_database_starts_the_run_history_with_the_best_it_kept() {
    let t = Temp::new("migrate-runs");
    {
        let c = Connection::open(t.db()).unwrap();
        for (i, sql) in MIGRATIONS[..8].iter().enumerate() {
            c.execute_batch(&format!(
                "BEGIN; {sql}; PRAGMA user_version = {}; COMMIT;",
                i + 1
            ))
            .unwrap();
        }
        c.execute_batch(
            "INSERT INTO players (key_hash, recovery_hash, name, name_key, rating, deviation, \
             volatility, created_unix) VALUES (x'01', x'02', 'Old', 'old', 1500, 350, 0.06, 1); \
             INSERT INTO solo_records (player_id, mode, value, frames, lines, pieces, score, \
             recorded_unix, replay) VALUES (1, 'blitz', 60000, 7200, 50, 140, 60000, 77, x'00');",
        )
        .unwrap();
    }
    let s = SqliteStorage::open(&t.db()).expect("migrates");
    let old = s.player_by_name_key("old").unwrap().expect("kept");
    let blitz = SoloBoard::Blitz;
    s.record_solo(&solo(&old, blitz, 7200, 50_000, 80)).unwrap();
    s.record_solo(&solo(&old, blitz, 7200, 70_000, 81)).unwrap();
    let scores: Vec<(u64, u64)> = s
        .solo_progression(old.id, blitz, 10)
        .unwrap()
        .iter()
        .map(|r| (r.score, r.recorded_unix))
        .collect();
    assert_eq!(scores, [(60_000, 77), (70_000, 81)]);
}
