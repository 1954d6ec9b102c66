//! Versioned schema migrations. Version N is `MIGRATIONS[N - 1]`; `PRAGMA user_version` holds
//! the version a file is at. Append new migrations; never edit a published one.

/// Every migration, in order.
pub(crate) const MIGRATIONS: &[&str] = &[
    // 1: players, matches, seats.
    "CREATE TABLE players (
        id INTEGER PRIMARY KEY,
        key_hash BLOB NOT NULL UNIQUE,
        recovery_hash BLOB NOT NULL UNIQUE,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        volatility REAL NOT NULL,
        games INTEGER NOT NULL DEFAULT 0,
        wins INTEGER NOT NULL DEFAULT 0,
        created_unix INTEGER NOT NULL,
        last_played_unix INTEGER
    );
    CREATE INDEX players_by_rating ON players (rating DESC, id);
    CREATE TABLE matches (
        id INTEGER PRIMARY KEY,
        ranked INTEGER NOT NULL,
        winner INTEGER,
        reason TEXT NOT NULL,
        score_first INTEGER NOT NULL,
        score_second INTEGER NOT NULL,
        rules TEXT NOT NULL,
        duration_frames INTEGER NOT NULL,
        replay TEXT,
        started_unix INTEGER NOT NULL,
        ended_unix INTEGER NOT NULL
    );
    CREATE TABLE match_seats (
        match_id INTEGER NOT NULL REFERENCES matches (id),
        seat INTEGER NOT NULL,
        player_id INTEGER REFERENCES players (id),
        name TEXT NOT NULL,
        rating_before REAL, deviation_before REAL, volatility_before REAL,
        rating_after REAL, deviation_after REAL, volatility_after REAL,
        pieces INTEGER NOT NULL, attack INTEGER NOT NULL, garbage_cleared INTEGER NOT NULL,
        t_spins INTEGER NOT NULL, frames INTEGER NOT NULL,
        pps_x100 INTEGER NOT NULL, apm_x100 INTEGER NOT NULL, vs_x100 INTEGER NOT NULL,
        PRIMARY KEY (match_id, seat)
    );
    CREATE INDEX match_seats_by_player ON match_seats (player_id, match_id DESC);",
    // 2: solo records, one row per player and mode: their best accepted run (and its replay).
    "CREATE TABLE solo_records (
        player_id INTEGER NOT NULL REFERENCES players (id),
        mode TEXT NOT NULL,
        value INTEGER NOT NULL,
        frames INTEGER NOT NULL,
        lines INTEGER NOT NULL,
        pieces INTEGER NOT NULL,
        score INTEGER NOT NULL,
        recorded_unix INTEGER NOT NULL,
        replay BLOB NOT NULL,
        PRIMARY KEY (player_id, mode)
    );
    CREATE INDEX solo_records_by_value ON solo_records (mode, value, recorded_unix, player_id);",
];
