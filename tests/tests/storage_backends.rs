//! The storage interface behaves the same on both backends: the SQLite file (the default) and
//! a real PostgreSQL (`--postgres`, started by `sevenbag_tests::services`). Each check runs
//! on both; backend-specific ones (a corrupt SQLite file, a locked file) stay in
//! `crates/storage`'s own tests.

use sevenbag_storage::fixtures::{new_player, ranked, solo};
use sevenbag_storage::{PostgresStorage, Rating, SoloBoard, SqliteStorage, Storage, StorageError};
use sevenbag_tests::services::Postgres;
use sevenbag_tests::temp_dir;

/// Players, names, keys, a ranked match, the leaderboard, history and both solo boards, on a
/// fresh store; then `reopen` gives a new handle on the same data, which must see it all.
fn the_storage_contract(s: &dyn Storage, reopen: &dyn Fn() -> Box<dyn Storage>) {
    let a = s.create_player(&new_player("Alice", 1)).expect("create");
    let b = s.create_player(&new_player("Bob", 2)).expect("create");
    assert_eq!(s.player_by_key(&[1; 32]).unwrap().unwrap().id, a.id);
    assert_eq!(s.player_by_recovery(&[0xfe; 32]).unwrap().unwrap().id, a.id);
    assert_eq!(s.player_by_name_key("bob").unwrap().unwrap().name, "Bob");
    assert!(s.player_by_key(&[9; 32]).unwrap().is_none());
    let err = s.create_player(&new_player("ALICE", 3)).unwrap_err();
    assert!(matches!(err, StorageError::NameTaken(_)), "{err}");
    let err = s.create_player(&new_player("Carol", 1)).unwrap_err();
    assert!(matches!(err, StorageError::KeyTaken), "{err}");
    let err = s.rename(b.id, "Alice", "alice").unwrap_err();
    assert!(matches!(err, StorageError::NameTaken(_)), "{err}");
    s.rename(b.id, "Bobby", "bobby").expect("rename");
    s.rekey(b.id, &[7; 32], &[8; 32]).expect("rekey");
    assert_eq!(s.player_by_key(&[7; 32]).unwrap().unwrap().name, "Bobby");
    let b = s.player(b.id).unwrap().expect("bob");

    let up = Rating {
        rating: 1662.3,
        deviation: 290.3,
        volatility: 0.06,
    };
    let down = Rating {
        rating: 1337.7,
        ..up
    };
    let record = ranked(&a, &b, [up, down]);
    let id = s.record_match(&record).expect("record");

    let sprint = SoloBoard::Sprint;
    assert_eq!(
        s.record_solo(&solo(&a, sprint, 3000, 0, 10)).unwrap().place,
        1
    );
    let bob = s.record_solo(&solo(&b, sprint, 2500, 0, 11)).unwrap();
    assert_eq!((bob.personal_best, bob.place), (true, 1));
    let slower = s.record_solo(&solo(&a, sprint, 3100, 0, 12)).unwrap();
    assert_eq!((slower.personal_best, slower.place), (false, 2));
    let blitz = SoloBoard::Blitz;
    s.record_solo(&solo(&a, blitz, 7200, 50_000, 10)).unwrap();
    s.record_solo(&solo(&b, blitz, 7200, 80_000, 11)).unwrap();

    let s = reopen();
    let m = s.get_match(id).unwrap().expect("stored");
    assert_eq!(m.record, record);
    let board = s.leaderboard(10, 0).unwrap();
    assert_eq!(board[0].player.name, "Alice");
    assert_eq!((board[0].player.games, board[0].player.wins), (1, 1));
    assert_eq!((board[1].player.games, board[1].player.wins), (1, 0));
    assert!((board[1].player.rating.rating - 1337.7).abs() < 1e-9);
    assert_eq!(s.place_of(b.id, 0).unwrap(), Some(2));
    assert_eq!(s.place_of(b.id, 5).unwrap(), None);
    assert!(s.leaderboard(10, 5).unwrap().is_empty());
    assert_eq!(s.recent_matches(a.id, 5).unwrap().len(), 1);
    assert_eq!(s.all_players().unwrap().len(), 2);
    let rows: Vec<(u64, String, u32)> = s
        .solo_leaderboard(sprint, 10)
        .unwrap()
        .into_iter()
        .map(|r| (r.place, r.name, r.run.frames))
        .collect();
    assert_eq!(
        rows,
        vec![
            (1, "Bobby".to_string(), 2500),
            (2, "Alice".to_string(), 3000)
        ]
    );
    let best = s.solo_best(a.id, blitz).unwrap().expect("alice's blitz");
    assert_eq!((best.place, best.run.score), (2, 50_000));
    assert_eq!(best.run.replay, vec![1, 7200u32 as u8, 50_000u64 as u8]);
}

#[test]
fn sqlite_keeps_the_storage_contract() {
    let t = temp_dir("backends-sqlite");
    let path = t.path().join("sevenbag.db");
    let s = SqliteStorage::open(&path).expect("open");
    the_storage_contract(&s, &|| {
        Box::new(SqliteStorage::open(&path).expect("reopen"))
    });
}

#[test]
fn postgres_keeps_the_storage_contract_and_refuses_a_newer_schema() {
    let Some(pg) = Postgres::start() else {
        return;
    };
    let url = pg.url();
    let s = PostgresStorage::connect(&url).expect("connect and migrate");
    the_storage_contract(&s, &|| {
        Box::new(PostgresStorage::connect(&url).expect("reconnect"))
    });
    // Connecting again migrates nothing and keeps everything.
    drop(s);
    let again = PostgresStorage::connect(&url).expect("connect again");
    assert_eq!(again.all_players().unwrap().len(), 2);

    // A database from a newer server is refused, untouched.
    let mut raw = postgres_raw(&url);
    raw.execute("UPDATE sevenbag_schema SET version = 99", &[])
        .expect("bump version");
    let err = PostgresStorage::connect(&url).unwrap_err();
    assert!(
        matches!(err, StorageError::TooNew { found: 99, .. }),
        "{err}"
    );
    // An address with nothing behind it is a clear error, not a hang.
    let dead = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = dead.local_addr().expect("addr").port();
    drop(dead);
    let err = PostgresStorage::connect(&format!("postgres://x@127.0.0.1:{port}/x")).unwrap_err();
    assert!(matches!(err, StorageError::Open { .. }), "{err}");
}

fn postgres_raw(url: &str) -> postgres::Client {
    postgres::Client::connect(url, postgres::NoTls).expect("raw connection")
}
