use super::*;

/// A temporary directory, removed on drop.
struct Temp(PathBuf);

impl Temp {
    fn new(tag: &str) -> Temp {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir = std::env::temp_dir().join(format!(
            "sevenbag-storage-{tag}-{}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).expect("temp dir");
        Temp(dir)
    }

    fn db(&self) -> PathBuf {
        self.0.join("test.db")
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn new_player(name: &str, key: u8) -> NewPlayer {
    NewPlayer {
        key_hash: vec![key; 32],
        recovery_hash: vec![key ^ 0xff; 32],
        name: name.into(),
        name_key: name.to_lowercase(),
        created_unix: 1,
    }
}

fn ranked(a: &Player, b: &Player, after: [Rating; 2]) -> MatchRecord {
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
