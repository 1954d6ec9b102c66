//! A player's statistics read the same on both storage backends (SQLite and a real
//! PostgreSQL): the rating after each ranked match, oldest first; the seat stats summed over
//! the latest matches of both kinds with their wins; the runs that raised a solo best; and a
//! database from before the run history (schema 8) starts each history with the best it kept.

use sevenbag_storage::fixtures::{battle, new_player, ranked, solo};
use sevenbag_storage::{
    MatchRecord, Outcome, Player, PlayerStats, PostgresStorage, Rating, SeatTotals, SoloBoard,
    SqliteStorage, Storage,
};
use sevenbag_tests::services::Postgres;
use sevenbag_tests::temp_dir;

/// A rating of `r` (deviation 290, volatility 0.06).
fn rated(r: f64) -> Rating {
    Rating {
        rating: r,
        deviation: 290.0,
        volatility: 0.06,
    }
}

/// A two-seat match `a` (seat 0) against `b` with `a`'s seat stats `stats`.
fn versus(a: &Player, b: &Player, after: [f64; 2], stats: PlayerStats) -> MatchRecord {
    let mut m = ranked(a, b, [rated(after[0]), rated(after[1])]);
    m.seats[0].stats = stats;
    m
}

fn stats(pieces: u32, attack: u32, pps_x100: u32, apm_x100: u32, vs_x100: u32) -> PlayerStats {
    PlayerStats {
        pieces,
        attack,
        garbage_cleared: 1,
        frames: 600,
        pps_x100,
        apm_x100,
        vs_x100,
        ..PlayerStats::default()
    }
}

fn the_stats_contract(s: &dyn Storage) {
    let a = s.create_player(&new_player("Ann", 1)).expect("ann");
    let b = s.create_player(&new_player("Ben", 2)).expect("ben");
    let c = s.create_player(&new_player("Cat", 3)).expect("cat");

    // Ann: three ranked wins, an unranked loss, a void ranked match (no rating after) and a
    // free-for-all she won, in that order.
    s.record_match(&versus(
        &a,
        &b,
        [1600.0, 1400.0],
        stats(100, 40, 200, 4000, 5000),
    ))
    .expect("1");
    s.record_match(&versus(
        &a,
        &b,
        [1650.0, 1350.0],
        stats(120, 50, 240, 5000, 6000),
    ))
    .expect("2");
    s.record_match(&versus(
        &a,
        &b,
        [1700.0, 1300.0],
        stats(140, 60, 280, 6000, 7000),
    ))
    .expect("3");
    let mut unranked = versus(&a, &b, [0.0, 0.0], stats(80, 20, 160, 2000, 3000));
    unranked.ranked = false;
    unranked.outcome = Outcome::Won(1);
    unranked.seats.iter_mut().for_each(|s| {
        s.before = None;
        s.after = None;
    });
    s.record_match(&unranked).expect("unranked");
    let mut void = versus(&a, &b, [0.0, 0.0], stats(10, 0, 100, 0, 0));
    void.outcome = Outcome::Void;
    void.seats.iter_mut().for_each(|s| s.after = None);
    s.record_match(&void).expect("void");
    s.record_battle(&battle(&[&a, &b], 2)).expect("battle");

    let history = s.rating_history(a.id, 10).expect("history");
    let ratings: Vec<f64> = history.iter().map(|p| p.rating.rating).collect();
    assert_eq!(
        ratings,
        [1600.0, 1650.0, 1700.0],
        "ranked, counted, oldest first"
    );
    assert!(history.windows(2).all(|w| w[0].match_id < w[1].match_id));
    assert_eq!(history[0].ended_unix, 110);
    assert_eq!(history[0].rating, rated(1600.0));
    let last_two: Vec<f64> = s
        .rating_history(a.id, 2)
        .unwrap()
        .iter()
        .map(|p| p.rating.rating)
        .collect();
    assert_eq!(last_two, [1650.0, 1700.0], "the latest two, oldest first");
    let bens: Vec<f64> = s
        .rating_history(b.id, 10)
        .unwrap()
        .iter()
        .map(|p| p.rating.rating)
        .collect();
    assert_eq!(bens, [1400.0, 1350.0, 1300.0]);

    // Six matches: the battle's seat 0 has 50 pieces, 10 attack and no rates or frames.
    let all = s.seat_totals(a.id, 200).expect("totals");
    assert_eq!(
        all,
        SeatTotals {
            matches: 6,
            wins: 4,
            pieces: 100 + 120 + 140 + 80 + 10 + 50,
            attack: 40 + 50 + 60 + 20 + 10,
            garbage_cleared: 5,
            frames: 5 * 600,
            pps_x100: 200 + 240 + 280 + 160 + 100,
            apm_x100: 4000 + 5000 + 6000 + 2000,
            vs_x100: 5000 + 6000 + 7000 + 3000,
        }
    );
    let latest = s.seat_totals(a.id, 3).expect("latest three");
    assert_eq!(
        (latest.matches, latest.wins),
        (3, 1),
        "battle won, void, unranked lost"
    );
    assert_eq!(latest.pieces, 50 + 10 + 80);
    // Ben lost every two-seat match he finished, won the unranked one, placed 2nd in the battle.
    let ben = s.seat_totals(b.id, 200).unwrap();
    assert_eq!((ben.matches, ben.wins, ben.pieces), (6, 1, 5 * 100 + 51));
    assert_eq!(s.seat_totals(c.id, 20).unwrap(), SeatTotals::default());
    assert!(s.rating_history(c.id, 20).unwrap().is_empty());

    // Sprint: 3000, a slower 3100, 2900, a tie at 2900 (no best), 2800.
    let sprint = SoloBoard::Sprint;
    for (frames, at) in [(3000, 10), (3100, 11), (2900, 12), (2900, 13), (2800, 14)] {
        s.record_solo(&solo(&a, sprint, frames, 0, at))
            .expect("run");
    }
    s.record_solo(&solo(&b, sprint, 2000, 0, 15))
        .expect("ben's");
    let blitz = SoloBoard::Blitz;
    s.record_solo(&solo(&a, blitz, 7200, 50_000, 20)).unwrap();
    s.record_solo(&solo(&a, blitz, 7200, 40_000, 21)).unwrap();
    let bests: Vec<(u32, u64)> = s
        .solo_progression(a.id, sprint, 100)
        .unwrap()
        .iter()
        .map(|r| (r.frames, r.recorded_unix))
        .collect();
    assert_eq!(bests, [(3000, 10), (2900, 12), (2800, 14)]);
    let last: Vec<u32> = s
        .solo_progression(a.id, sprint, 2)
        .unwrap()
        .iter()
        .map(|r| r.frames)
        .collect();
    assert_eq!(last, [2900, 2800]);
    let runs = s.solo_progression(a.id, blitz, 100).unwrap();
    assert_eq!(runs.len(), 1);
    assert_eq!(
        (runs[0].board, runs[0].score, runs[0].lines, runs[0].pieces),
        (blitz, 50_000, 40, 100)
    );
    assert!(runs[0].personal_best);
    assert_eq!(s.solo_progression(b.id, sprint, 100).unwrap().len(), 1);
    assert!(s.solo_progression(c.id, sprint, 100).unwrap().is_empty());
    // The best itself is what it was.
    let best = s.solo_best(a.id, sprint).unwrap().expect("a best");
    assert_eq!(best.run.frames, 2800);
}

#[test]
fn sqlite_keeps_the_stats_contract() {
    let t = temp_dir("stats-sqlite");
    let s = SqliteStorage::open(&t.path().join("sevenbag.db")).expect("open");
    the_stats_contract(&s);
}

#[test]
fn postgres_keeps_the_stats_contract() {
    let Some(pg) = Postgres::start() else {
        return;
    };
    let s = PostgresStorage::connect(&pg.url()).expect("connect and migrate");
    the_stats_contract(&s);
}

#[test]
fn postgres_from_schema_8_starts_the_run_history_with_the_kept_best() {
    let Some(pg) = Postgres::start() else {
        return;
    };
    let url = pg.url();
    PostgresStorage::migrate_to(&url, 8).expect("schema 8");
    let mut raw = postgres::Client::connect(&url, postgres::NoTls).expect("raw connection");
    raw.batch_execute(
        "INSERT INTO players (key_hash, recovery_hash, name, name_key, rating, deviation, \
         volatility, created_unix) VALUES ('\\x01', '\\x02', 'Old', 'old', 1500, 350, 0.06, 1);
         INSERT INTO solo_records (player_id, mode, value, frames, lines, pieces, score, \
         recorded_unix, replay) VALUES (1, 'sprint', 3000, 3000, 40, 100, 9000, 77, '\\x00');",
    )
    .expect("old rows");
    let s = PostgresStorage::connect(&url).expect("connect and migrate");
    let old = s.player_by_name_key("old").unwrap().expect("kept");
    let runs = s.solo_progression(old.id, SoloBoard::Sprint, 10).unwrap();
    let runs: Vec<(u32, u64, u64)> = runs
        .iter()
        .map(|r| (r.frames, r.score, r.recorded_unix))
        .collect();
    assert_eq!(runs, [(3000, 9000, 77)]);
    s.record_solo(&solo(&old, SoloBoard::Sprint, 2500, 0, 80))
        .unwrap();
    s.record_solo(&solo(&old, SoloBoard::Sprint, 2600, 0, 81))
        .unwrap();
    let frames: Vec<u32> = s
        .solo_progression(old.id, SoloBoard::Sprint, 10)
        .unwrap()
        .iter()
        .map(|r| r.frames)
        .collect();
    assert_eq!(frames, [3000, 2500]);
}
