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
    // 3: moderation (docs/MODERATION.md): bot and leaderboard marks and the registration
    // address on players; sanctions, address bans, the audit log, reports, block lists and
    // flagged matches; matches found by replay id (reports name replays).
    "ALTER TABLE players ADD COLUMN bot INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE players ADD COLUMN delisted INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE players ADD COLUMN registered_from TEXT;
    CREATE INDEX players_by_registration ON players (registered_from, created_unix);
    CREATE INDEX matches_by_replay ON matches (replay);
    CREATE TABLE sanctions (
        id INTEGER PRIMARY KEY,
        player_id INTEGER NOT NULL REFERENCES players (id),
        kind TEXT NOT NULL,
        reason TEXT NOT NULL,
        created_unix INTEGER NOT NULL,
        until_unix INTEGER,
        lifted_unix INTEGER
    );
    CREATE INDEX sanctions_by_player ON sanctions (player_id, kind);
    CREATE INDEX sanctions_in_force ON sanctions (kind, lifted_unix);
    CREATE TABLE address_bans (
        id INTEGER PRIMARY KEY,
        network TEXT NOT NULL,
        reason TEXT NOT NULL,
        created_unix INTEGER NOT NULL,
        until_unix INTEGER,
        lifted_unix INTEGER
    );
    CREATE TABLE audit_log (
        id INTEGER PRIMARY KEY,
        at_unix INTEGER NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        target TEXT NOT NULL,
        reason TEXT NOT NULL,
        detail TEXT NOT NULL
    );
    CREATE TABLE reports (
        id INTEGER PRIMARY KEY,
        reporter_id INTEGER NOT NULL REFERENCES players (id),
        reported_id INTEGER NOT NULL REFERENCES players (id),
        category TEXT NOT NULL,
        text TEXT NOT NULL,
        replay TEXT,
        created_unix INTEGER NOT NULL,
        closed_unix INTEGER,
        closed_by TEXT,
        resolution TEXT
    );
    CREATE INDEX reports_by_reporter ON reports (reporter_id, created_unix);
    CREATE INDEX reports_by_state ON reports (closed_unix, created_unix);
    CREATE TABLE blocks (
        blocker_id INTEGER NOT NULL REFERENCES players (id),
        blocked_id INTEGER NOT NULL REFERENCES players (id),
        created_unix INTEGER NOT NULL,
        PRIMARY KEY (blocker_id, blocked_id)
    );
    CREATE INDEX blocks_by_blocked ON blocks (blocked_id);
    CREATE TABLE flagged_matches (
        match_id INTEGER NOT NULL REFERENCES matches (id),
        seat INTEGER NOT NULL,
        player_id INTEGER REFERENCES players (id),
        rule TEXT NOT NULL,
        detail TEXT NOT NULL,
        created_unix INTEGER NOT NULL,
        reviewed_unix INTEGER,
        reviewed_by TEXT,
        verdict TEXT,
        PRIMARY KEY (match_id, seat)
    );",
    // 4: free-for-all and team matches (`battle.rs`) in the same tables: the match's kind
    // ('versus' for every older row) and targeting; each seat's place, knock-outs, team and
    // rounds won (NULL on two-seat rows).
    "ALTER TABLE matches ADD COLUMN kind TEXT NOT NULL DEFAULT 'versus';
    ALTER TABLE matches ADD COLUMN targeting TEXT;
    ALTER TABLE match_seats ADD COLUMN placement INTEGER;
    ALTER TABLE match_seats ADD COLUMN kos INTEGER;
    ALTER TABLE match_seats ADD COLUMN team INTEGER;
    ALTER TABLE match_seats ADD COLUMN rounds_won INTEGER;",
    // 5: social (`social/`): whom a player takes friend requests from (a `RequestPolicy`
    // code); friendships and requests, two rows a pair (each side's `Link` code), listed by
    // a player's index range and sorted by the friends' names; notifications (a
    // `NotificationKind` code) kept until seen, read unseen-first by player; direct messages,
    // each filed under its pair (the lower id first) so a conversation is one index range.
    "ALTER TABLE players ADD COLUMN friend_requests INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE friendships (
        player_id INTEGER NOT NULL REFERENCES players (id),
        other_id INTEGER NOT NULL REFERENCES players (id),
        state INTEGER NOT NULL,
        since_unix INTEGER NOT NULL,
        PRIMARY KEY (player_id, other_id)
    );
    CREATE INDEX friendships_by_state ON friendships (player_id, state, since_unix);
    CREATE TABLE notifications (
        id INTEGER PRIMARY KEY,
        player_id INTEGER NOT NULL REFERENCES players (id),
        kind INTEGER NOT NULL,
        subject TEXT NOT NULL,
        content TEXT NOT NULL,
        created_unix INTEGER NOT NULL,
        seen INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX notifications_by_player ON notifications (player_id, seen, id);
    CREATE TABLE direct_messages (
        id INTEGER PRIMARY KEY,
        low_id INTEGER NOT NULL REFERENCES players (id),
        high_id INTEGER NOT NULL REFERENCES players (id),
        from_id INTEGER NOT NULL REFERENCES players (id),
        text TEXT NOT NULL,
        sent_unix INTEGER NOT NULL
    );
    CREATE INDEX direct_messages_by_pair ON direct_messages (low_id, high_id, id);",
    // 6: whether a player appears offline to friends (0 or 1), kept past their connections.
    "ALTER TABLE players ADD COLUMN appear_offline INTEGER NOT NULL DEFAULT 0;",
    // 7: whether a notification was shown to its player (as a toast), 0 or 1: an unseen one
    // already shown is listed but not sent again when the player comes back.
    "ALTER TABLE notifications ADD COLUMN shown INTEGER NOT NULL DEFAULT 0;",
    // 8: published block skins (`skins.rs`): the canonical PNG under its content address, the
    // identity that published it, when (its newest publishing), and when the operators
    // removed it (the row stays, without its bytes, so the pixels are not published again).
    "CREATE TABLE skins (
        id TEXT PRIMARY KEY,
        png BLOB NOT NULL,
        owner_id INTEGER NOT NULL REFERENCES players (id),
        published_unix INTEGER NOT NULL,
        removed_unix INTEGER
    );
    CREATE INDEX skins_by_owner ON skins (owner_id, published_unix);",
    // 9: every accepted solo run (`stats.rs`), without its replay, marked with whether it beat
    // the player's best before it (0 or 1); the bests already kept start each history.
    "CREATE TABLE solo_runs (
        id INTEGER PRIMARY KEY,
        player_id INTEGER NOT NULL REFERENCES players (id),
        mode TEXT NOT NULL,
        value INTEGER NOT NULL,
        frames INTEGER NOT NULL,
        lines INTEGER NOT NULL,
        pieces INTEGER NOT NULL,
        score INTEGER NOT NULL,
        recorded_unix INTEGER NOT NULL,
        personal_best INTEGER NOT NULL
    );
    CREATE INDEX solo_runs_by_player ON solo_runs (player_id, mode, personal_best, id);
    INSERT INTO solo_runs (player_id, mode, value, frames, lines, pieces, score, recorded_unix,
        personal_best)
        SELECT player_id, mode, value, frames, lines, pieces, score, recorded_unix, 1
        FROM solo_records ORDER BY recorded_unix, player_id;",
];
