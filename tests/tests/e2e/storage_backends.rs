//! The storage interface behaves the same on both backends: the SQLite file (the default) and
//! a real PostgreSQL (`--postgres`, started by `sevenbag_tests::services`). Each check runs
//! on both; backend-specific ones (a corrupt SQLite file, a locked file) stay in
//! `crates/storage`'s own tests.

use sevenbag_storage::fixtures::{battle, new_player, ranked, solo};
use sevenbag_storage::{
    HistoryEntry, MatchId, PostgresStorage, Rating, SoloBoard, SqliteStorage, Storage, StorageError,
};
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

/// Free-for-all matches: stored with every seat, never rated, listed in a player's history
/// beside their two-seat matches (newest first), and not mistaken for a two-seat match.
fn the_battle_contract(s: &dyn Storage) {
    let a = s.create_player(&new_player("Ann", 11)).expect("create");
    let b = s.create_player(&new_player("Ben", 12)).expect("create");
    let versus = s
        .record_match(&ranked(&a, &b, [a.rating, b.rating]))
        .unwrap();
    let rated = s.player(b.id).unwrap().unwrap();
    let record = battle(&[&a, &b], 6);
    let id = s.record_battle(&record).expect("record a battle");
    assert_eq!(s.get_battle(id).unwrap().expect("stored").record, record);
    assert!(s.get_match(id).unwrap().is_none());
    assert!(s.get_battle(versus).unwrap().is_none());
    assert!(s.get_battle(MatchId(id.0 + 100)).unwrap().is_none());
    let by_replay = s
        .battle_by_replay("b1")
        .unwrap()
        .expect("found by its replay");
    assert_eq!(by_replay.id, id);
    assert!(
        s.battle_by_replay("r1").unwrap().is_none(),
        "a two-seat match's replay"
    );
    let history = s.recent_history(b.id, 10).unwrap();
    assert_eq!(history.len(), 2);
    let HistoryEntry::Battle(row) = &history[0] else {
        panic!("the battle comes first: {history:?}");
    };
    let seat = row.record.seat_of(b.id).expect("Ben played");
    let mine = &row.record.seats[seat];
    assert_eq!(
        (mine.placement, row.record.seats.len(), row.record.won(seat)),
        (2, 8, Some(false)),
        "Ben was 2nd of 8"
    );
    assert!(matches!(&history[1], HistoryEntry::Versus(m) if m.id == versus));
    assert_eq!(s.recent_history(b.id, 1).unwrap().len(), 1);
    assert_eq!(s.recent_matches(b.id, 10).unwrap().len(), 1);
    let after = s.player(b.id).unwrap().unwrap();
    assert_eq!((after.games, after.rating), (rated.games, rated.rating));
}

#[test]
fn sqlite_keeps_the_battle_contract() {
    let t = temp_dir("backends-sqlite-battles");
    let s = SqliteStorage::open(&t.path().join("sevenbag.db")).expect("open");
    the_battle_contract(&s);
}

#[test]
fn postgres_migrates_an_older_database_and_keeps_the_battle_contract() {
    let Some(pg) = Postgres::start() else {
        return;
    };
    let url = pg.url();
    // A database as the server before free-for-all history left it, with one match.
    PostgresStorage::migrate_to(&url, 3).expect("schema 3");
    let mut raw = postgres_raw(&url);
    raw.batch_execute(
        "INSERT INTO players (key_hash, recovery_hash, name, name_key, rating, deviation, \
         volatility, created_unix) VALUES ('\\x01', '\\x02', 'Old', 'old', 1500, 350, 0.06, 1);
         INSERT INTO matches (ranked, winner, reason, score_first, score_second, rules, \
         duration_frames, replay, started_unix, ended_unix) \
         VALUES (FALSE, 1, 'top_out', 0, 2, '{}', 600, 'old', 5, 15);
         INSERT INTO match_seats (match_id, seat, player_id, name, pieces, attack, \
         garbage_cleared, t_spins, frames, pps_x100, apm_x100, vs_x100) VALUES \
         (1, 0, 1, 'Old', 9, 0, 0, 0, 600, 0, 0, 0), (1, 1, NULL, 'Guest', 8, 0, 0, 0, 600, 0, 0, 0);",
    )
    .expect("old rows");
    let s = PostgresStorage::connect(&url).expect("connect and migrate");
    let version: i64 = raw
        .query_one("SELECT version FROM sevenbag_schema", &[])
        .and_then(|r| r.try_get(0))
        .unwrap();
    assert_eq!(version, 9);
    let old = s
        .get_match(MatchId(1))
        .unwrap()
        .expect("the old match reads as before");
    assert_eq!(
        (old.record.score, old.record.seats[1].name.as_str()),
        ([0, 2], "Guest")
    );
    let player = s.player_by_name_key("old").unwrap().unwrap();
    assert_eq!(s.recent_history(player.id, 5).unwrap().len(), 1);
    the_battle_contract(&s);
}

#[test]
fn postgres_refuses_another_programs_schema_and_leaves_it_untouched() {
    let Some(pg) = Postgres::start() else {
        return;
    };
    let url = pg.url();
    let mut raw = postgres_raw(&url);
    raw.batch_execute("CREATE TABLE t (x BIGINT); INSERT INTO t VALUES (1);")
        .expect("another program's table");
    let err = PostgresStorage::connect(&url).unwrap_err();
    assert!(matches!(err, StorageError::NotOurs { .. }), "{err}");
    assert!(
        err.to_string()
            .contains("not a Sevenbag database (it holds other tables: t)"),
        "{err}"
    );
    let tables: i64 = raw
        .query_one(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()",
            &[],
        )
        .and_then(|r| r.try_get(0))
        .expect("count tables");
    assert_eq!(tables, 1, "nothing was added beside the foreign table");
}

fn postgres_raw(url: &str) -> postgres::Client {
    postgres::Client::connect(url, postgres::NoTls).expect("raw connection")
}

/// Moderation's side of the storage (sanctions, the audit log, reports, blocks, bot marks,
/// flags, registration counts), the same on both backends.
fn the_moderation_contract(s: &dyn Storage) {
    use sevenbag_storage::{
        Action, Audit, AuditId, MatchFlag, NewPlayer, NewReport, Openness, PairLimit, PlayerFilter,
        PlayerSearch, ReportId,
    };
    let now = 1_000_000;
    let from = |name: &str, key: u8, at: u64| NewPlayer {
        created_unix: at,
        registered_from: Some("v4:203.0.113.7".into()),
        ..new_player(name, key)
    };
    let a = s.create_player(&from("Alice", 1, now - 10)).expect("alice");
    let b = s.create_player(&from("Bob", 2, now - 4000)).expect("bob");
    let c = s.create_player(&new_player("Carol", 3)).expect("carol");
    assert_eq!(
        s.registrations_since("v4:203.0.113.7", now - 3600).unwrap(),
        1
    );
    assert_eq!(s.registrations_since("v4:203.0.113.7", 0).unwrap(), 2);
    assert_eq!(s.registrations_since("v4:198.51.100.1", 0).unwrap(), 0);

    let audit = |action: &str, reason: &str, at: u64| Audit {
        actor: "ops".into(),
        action: action.into(),
        target: String::new(),
        reason: reason.into(),
        detail: "{}".into(),
        at_unix: at,
    };
    assert_eq!(s.audit_head().unwrap(), AuditId(0));
    let ban = Action::Ban {
        player: b.id,
        reason: "farming".into(),
        until_unix: Some(now + 100),
    };
    let first = s.moderate(&ban, &audit("ban", "farming", now)).unwrap();
    let mute = Action::Mute {
        player: a.id,
        reason: "spam".into(),
        until_unix: None,
    };
    let second = s.moderate(&mute, &audit("mute", "spam", now)).unwrap();
    assert!(second > first);
    assert_eq!(s.audit_head().unwrap(), second);
    let net = Action::BanAddress {
        network: "198.51.100.0/24".into(),
        reason: "ban evasion".into(),
        until_unix: None,
    };
    s.moderate(&net, &audit("ban_address", "evasion", now))
        .unwrap();

    let force = s.in_force(now).unwrap();
    assert_eq!(force.bans.len(), 1);
    assert_eq!(
        (force.bans[0].player, force.bans[0].reason.as_str()),
        (b.id, "farming")
    );
    assert_eq!(force.mutes.len(), 1);
    assert_eq!(force.address_bans[0].network, "198.51.100.0/24");
    assert!(
        s.in_force(now + 100).unwrap().bans.is_empty(),
        "a ban runs out"
    );

    let record = s.player_record(b.id, now).unwrap().expect("bob");
    assert_eq!(
        record.ban.as_ref().map(|x| x.until_unix),
        Some(Some(now + 100))
    );
    assert_eq!(record.registered_from.as_deref(), Some("v4:203.0.113.7"));
    let banned = s
        .search_players(
            &PlayerSearch {
                filter: PlayerFilter::Banned,
                limit: 10,
                ..PlayerSearch::default()
            },
            now,
        )
        .unwrap();
    assert_eq!(banned.len(), 1);
    let found = s
        .search_players(
            &PlayerSearch {
                name_key: Some("aro".into()),
                limit: 10,
                ..PlayerSearch::default()
            },
            now,
        )
        .unwrap();
    assert_eq!(found[0].player.name, "Carol");
    // A LIKE wildcard in the search is a plain character.
    let none = PlayerSearch {
        name_key: Some("%".into()),
        limit: 10,
        ..PlayerSearch::default()
    };
    assert!(s.search_players(&none, now).unwrap().is_empty());

    // A missing player is refused, and nothing is written (no audit entry either).
    let head = s.audit_head().unwrap();
    let ghost = Action::Ban {
        player: sevenbag_storage::PlayerId(999),
        reason: "x".into(),
        until_unix: None,
    };
    let err = s.moderate(&ghost, &audit("ban", "x", now)).unwrap_err();
    assert!(matches!(err, StorageError::NoSuchPlayer), "{err}");
    let rename = Action::Rename {
        player: c.id,
        name: "Alice".into(),
        name_key: "alice".into(),
    };
    let err = s.moderate(&rename, &audit("rename", "x", now)).unwrap_err();
    assert!(matches!(err, StorageError::NameTaken(_)), "{err}");
    assert_eq!(s.audit_head().unwrap(), head);
    s.moderate(
        &Action::Unban { player: b.id },
        &audit("unban", "appeal", now + 1),
    )
    .unwrap();
    assert!(s.in_force(now + 2).unwrap().bans.is_empty());
    assert_eq!(s.sanctions_of(b.id).unwrap().len(), 1);
    let log = s.audit_log(None, 10).unwrap();
    assert_eq!(log.len(), 4);
    assert_eq!(log[0].audit.action, "unban", "newest first");
    assert_eq!(s.audit_since(first, 10).unwrap().len(), 3);

    // Off the boards, and back.
    let delist = Action::Listed {
        player: a.id,
        listed: false,
    };
    s.moderate(&delist, &audit("delist", "x", now)).unwrap();
    assert!(s.player_record(a.id, now).unwrap().unwrap().delisted);

    // Bots.
    s.declare_bot(c.id).unwrap();
    assert_eq!(s.bots_among(&[a.id, c.id]).unwrap(), vec![c.id]);

    // Reports: filed, counted, listed open with names, closed once.
    let report = NewReport {
        id: ReportId(0x1234_5678_9abc),
        reporter: a.id,
        reported: b.id,
        category: "cheating".into(),
        text: "too fast".into(),
        replay: Some("r1".into()),
        created_unix: now,
    };
    s.file_report(&report).unwrap();
    assert_eq!(s.reports_filed_since(a.id, now - 10).unwrap(), 1);
    assert!(s.open_report_between(a.id, b.id).unwrap());
    let open = s.reports(Openness::Open, 10).unwrap();
    assert_eq!(open.len(), 1);
    assert_eq!(
        (
            open[0].reporter_name.as_str(),
            open[0].reported_name.as_str()
        ),
        ("Alice", "Bob")
    );
    assert_eq!(open[0].match_id, None, "no match has that replay yet");
    let close = Action::CloseReport {
        report: report.id,
        resolution: "dismissed".into(),
    };
    s.moderate(&close, &audit("close_report", "fine", now))
        .unwrap();
    let err = s
        .moderate(&close, &audit("close_report", "again", now))
        .unwrap_err();
    assert!(matches!(err, StorageError::NotFound(_)), "{err}");
    assert!(s.reports(Openness::Open, 10).unwrap().is_empty());
    let closed = s.report(report.id).unwrap().expect("kept");
    assert_eq!(closed.closed.map(|c| c.by), Some("ops".to_string()));

    // Blocks, their limit, and who must not meet.
    s.block(a.id, b.id, now, 1).unwrap();
    s.block(a.id, b.id, now, 1).unwrap();
    let err = s.block(a.id, c.id, now, 1).unwrap_err();
    assert!(matches!(err, StorageError::Full(_)), "{err}");
    assert_eq!(s.blocks_of(a.id).unwrap(), vec![(b.id, "Bob".to_string())]);
    assert_eq!(s.avoided_by(b.id, None).unwrap(), vec![a.id], "both ways");
    s.unblock(a.id, b.id).unwrap();
    assert!(s.avoided_by(a.id, None).unwrap().is_empty());

    // Ranked pairs: twice against each other, with a limit of two a day.
    let rated = Rating::default();
    let m1 = s.record_match(&ranked(&a, &b, [rated, rated])).unwrap();
    let mut again = ranked(&b, &a, [rated, rated]);
    again.replay = Some("r2".into());
    s.record_match(&again).unwrap();
    let limit = |max| Some(PairLimit { max, since_unix: 0 });
    assert_eq!(s.avoided_by(a.id, limit(2)).unwrap(), vec![b.id]);
    assert!(s.avoided_by(a.id, limit(3)).unwrap().is_empty());
    assert_eq!(s.match_by_replay("r1").unwrap().map(|m| m.id), Some(m1));
    assert_eq!(
        s.report(report.id).unwrap().and_then(|r| r.match_id),
        Some(m1),
        "the report finds its match once stored"
    );

    // Flags: kept, listed, reviewed once.
    let flag = MatchFlag {
        match_id: m1,
        seat: 1,
        player: Some(b.id),
        rule: "taps".into(),
        detail: "every key held one frame".into(),
        created_unix: now,
    };
    s.flag_match(&flag).unwrap();
    s.flag_match(&flag).unwrap();
    let flagged = s.flagged(Openness::Open, 10).unwrap();
    assert_eq!(flagged.len(), 1);
    assert_eq!(
        (flagged[0].flag.rule.as_str(), flagged[0].name.as_str()),
        ("taps", "Bob")
    );
    let review = Action::ReviewFlag {
        match_id: m1,
        verdict: "human".into(),
    };
    s.moderate(&review, &audit("review_flag", "ok", now))
        .unwrap();
    assert!(s.flagged(Openness::Open, 10).unwrap().is_empty());
    assert_eq!(s.flagged(Openness::Closed, 10).unwrap().len(), 1);

    // Bots and delisted players are off the boards.
    assert!(
        s.leaderboard(10, 0)
            .unwrap()
            .iter()
            .all(|r| r.player.name == "Bob")
    );
    assert_eq!(s.place_of(a.id, 0).unwrap(), None);
}

#[test]
fn sqlite_keeps_the_moderation_contract() {
    let t = temp_dir("backends-moderation-sqlite");
    let s = SqliteStorage::open(&t.path().join("sevenbag.db")).expect("open");
    the_moderation_contract(&s);
}

#[test]
fn postgres_keeps_the_moderation_contract() {
    let Some(pg) = Postgres::start() else {
        return;
    };
    let s = PostgresStorage::connect(&pg.url()).expect("connect and migrate");
    the_moderation_contract(&s);
}

/// The social side of the storage (friend requests and friendships, blocks hiding a pair,
/// request policies, paging by name, notifications, direct messages), the same on both
/// backends.
fn the_social_contract(s: &dyn Storage) {
    use sevenbag_storage::fixtures::nth_player;
    use sevenbag_storage::{
        FriendState, NotificationKind, Page, PlayerId, RequestOutcome, RequestPolicy, SocialError,
    };
    let ann = s.create_player(&new_player("Ann", 1)).expect("ann");
    let ben = s.create_player(&new_player("Ben", 2)).expect("ben");
    let cat = s.create_player(&new_player("Cat", 3)).expect("cat");
    let nobody = PlayerId(ann.id.0 + 10_000);

    // A request, answered; crossing requests; decline, cancel, remove.
    assert_eq!(
        s.send_friend_request(ann.id, ben.id, 10).unwrap(),
        RequestOutcome::Sent
    );
    assert_eq!(
        s.send_friend_request(ann.id, ben.id, 11).unwrap(),
        RequestOutcome::AlreadySent
    );
    let waiting = s.pending_requests(ben.id).unwrap();
    assert_eq!(
        (
            waiting.incoming[0].name.as_str(),
            waiting.incoming[0].sent_unix
        ),
        ("Ann", 10)
    );
    assert_eq!(
        s.friendship(ben.id, ann.id).unwrap(),
        FriendState::RequestReceived
    );
    s.accept_friend_request(ben.id, ann.id, 20).unwrap();
    assert_eq!(s.friendship(ann.id, ben.id).unwrap(), FriendState::Friends);
    let friends = s.friends(ann.id, Page::first(10)).unwrap();
    assert_eq!(
        (
            friends.total,
            friends.items[0].name.as_str(),
            friends.items[0].since_unix
        ),
        (1, "Ben", 20)
    );
    s.send_friend_request(cat.id, ann.id, 30).unwrap();
    assert_eq!(
        s.send_friend_request(ann.id, cat.id, 31).unwrap(),
        RequestOutcome::BecameFriends
    );
    s.remove_friend(cat.id, ann.id).unwrap();
    assert_eq!(s.friendship(ann.id, cat.id).unwrap(), FriendState::None);
    s.send_friend_request(cat.id, ben.id, 40).unwrap();
    s.decline_friend_request(ben.id, cat.id).unwrap();
    s.send_friend_request(cat.id, ben.id, 41).unwrap();
    s.cancel_friend_request(cat.id, ben.id).unwrap();
    assert_eq!(s.friendship(ben.id, cat.id).unwrap(), FriendState::None);
    let err = s.accept_friend_request(ben.id, cat.id, 42).unwrap_err();
    assert!(matches!(err, SocialError::NoSuchRequest), "{err}");
    let err = s.send_friend_request(ann.id, ann.id, 43).unwrap_err();
    assert!(matches!(err, SocialError::ToSelf), "{err}");

    // A block reads as a player who does not exist, and hides the friendship.
    let missing = s.send_friend_request(cat.id, nobody, 50).unwrap_err();
    s.block(ann.id, cat.id, 50, 10).unwrap();
    let blocked = s.send_friend_request(cat.id, ann.id, 51).unwrap_err();
    assert!(matches!(blocked, SocialError::NoSuchPlayer), "{blocked}");
    assert_eq!(blocked.to_string(), missing.to_string());
    assert_eq!(s.friendship(cat.id, ann.id).unwrap(), FriendState::None);
    assert_eq!(s.friendship(ann.id, cat.id).unwrap(), FriendState::Blocked);
    s.block(ben.id, ann.id, 52, 10).unwrap();
    assert_eq!(s.friends(ann.id, Page::first(10)).unwrap().total, 0);
    s.unblock(ben.id, ann.id).unwrap();
    s.unblock(ann.id, cat.id).unwrap();
    assert_eq!(s.friends(ann.id, Page::first(10)).unwrap().total, 1);

    // Policies: no one; only players met in a stored match.
    s.set_request_policy(cat.id, RequestPolicy::Nobody).unwrap();
    let err = s.send_friend_request(ben.id, cat.id, 60).unwrap_err();
    assert!(matches!(err, SocialError::RequestsClosed), "{err}");
    s.set_request_policy(cat.id, RequestPolicy::PlayedWith)
        .unwrap();
    assert_eq!(s.request_policy(cat.id).unwrap(), RequestPolicy::PlayedWith);
    let err = s.send_friend_request(ben.id, cat.id, 61).unwrap_err();
    assert!(matches!(err, SocialError::NotPlayedWith), "{err}");
    s.record_battle(&battle(&[&ben, &cat], 0)).unwrap();
    assert_eq!(
        s.send_friend_request(ben.id, cat.id, 62).unwrap(),
        RequestOutcome::Sent
    );

    // Paging by name: created out of name order, read back once each, in order.
    for i in 0..25u32 {
        let f = s.create_player(&nth_player("F", (i * 7) % 25, 5)).unwrap();
        s.send_friend_request(ben.id, f.id, 70).unwrap();
        s.accept_friend_request(f.id, ben.id, 71).unwrap();
    }
    let mut names = Vec::new();
    let mut page = Some(Page::first(10));
    while let Some(at) = page {
        let read = s.friends(ben.id, at).unwrap();
        assert_eq!(read.total, 26);
        names.extend(read.items.into_iter().map(|f| f.name));
        page = read.next;
    }
    let mut expected = vec!["Ann".to_string()];
    expected.extend((0..25).map(|n| format!("F{n:04}")));
    assert_eq!(names, expected);

    // Notifications: kept until seen, marked only by their owner, bounded in size.
    let kind = NotificationKind::FriendRequest;
    let first = s
        .push_notification(ann.id, kind, "Ben", "{\"id\":2}", 80)
        .unwrap();
    let second = s
        .push_notification(ann.id, NotificationKind::Invite, "room", "{}", 81)
        .unwrap();
    let bens = s
        .push_notification(ben.id, NotificationKind::DirectMessage, "hi", "{}", 82)
        .unwrap();
    let unseen = s.unseen_notifications(ann.id, 10).unwrap();
    assert_eq!(
        unseen.iter().map(|n| n.id).collect::<Vec<_>>(),
        [first, second]
    );
    assert_eq!(
        (unseen[0].kind, unseen[0].content.as_str()),
        (Ok(kind), "{\"id\":2}")
    );
    assert_eq!(s.mark_seen(ann.id, &[first, bens]).unwrap(), 1);
    assert_eq!(s.unseen_notifications(ben.id, 10).unwrap()[0].id, bens);
    let all = s.notifications(ann.id, Page::first(10)).unwrap();
    assert_eq!(all.total, 2);
    assert_eq!(
        all.items.iter().map(|n| (n.id, n.seen)).collect::<Vec<_>>(),
        [(second, false), (first, true)]
    );
    let err = s
        .push_notification(ann.id, kind, &"s".repeat(201), "{}", 83)
        .unwrap_err();
    assert!(
        matches!(
            err,
            SocialError::TooLong {
                what: "subject",
                ..
            }
        ),
        "{err}"
    );
    let err = s
        .push_notification(ann.id, kind, "s", &"c".repeat(4097), 83)
        .unwrap_err();
    assert!(
        matches!(
            err,
            SocialError::TooLong {
                what: "content",
                ..
            }
        ),
        "{err}"
    );

    // Direct messages: between friends only, newest first.
    let err = s
        .store_direct_message(ann.id, cat.id, "hi", 90)
        .unwrap_err();
    assert!(matches!(err, SocialError::NotFriends), "{err}");
    let hi = s.store_direct_message(ann.id, ben.id, "hi", 91).unwrap();
    let back = s.store_direct_message(ben.id, ann.id, "hello", 92).unwrap();
    let read = s.direct_messages(ann.id, ben.id, None, 10).unwrap();
    assert_eq!(read.iter().map(|m| m.id).collect::<Vec<_>>(), [back, hi]);
    assert_eq!(
        (read[0].from, read[0].to, read[0].text.as_str()),
        (ben.id, ann.id, "hello")
    );
    assert_eq!(
        s.direct_messages(ben.id, ann.id, Some(back), 10)
            .unwrap()
            .len(),
        1
    );
}

#[test]
fn sqlite_keeps_the_social_contract() {
    let t = temp_dir("backends-social-sqlite");
    let s = SqliteStorage::open(&t.path().join("sevenbag.db")).expect("open");
    the_social_contract(&s);
}

#[test]
fn postgres_keeps_the_social_contract() {
    let Some(pg) = Postgres::start() else {
        return;
    };
    let s = PostgresStorage::connect(&pg.url()).expect("connect and migrate");
    the_social_contract(&s);
}
