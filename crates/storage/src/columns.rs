//! The column lists both dialects (`sqlite`, `postgres`) name in their SQL, kept once so that
//! a column of the schema is read and written the same way everywhere; and the one `INSERT`
//! of a `match_seats` row, in either dialect's placeholders.

use crate::{PlayerStats, Rating};

/// A `players` row, in the order each dialect's `player_row` reads it.
pub(crate) const PLAYER_COLUMNS: &str = "id, name, rating, deviation, volatility, games, wins, \
                                         created_unix, last_played_unix";

/// Who the leaderboards list: neither bots nor players an operator took off the boards.
pub(crate) const LISTED: &str = "bot = 0 AND delisted = 0";

/// A `notifications` row, in the order each dialect's `notification_row` reads it.
pub(crate) const NOTIFICATION_COLUMNS: &str = "id, kind, subject, content, created_unix, seen";

/// A `direct_messages` row, in the order each dialect's `message_row` reads it.
pub(crate) const MESSAGE_COLUMNS: &str = "id, from_id, low_id, high_id, text, sent_unix";

/// A friend or request row (`friendships f`) with the other player's current name
/// (`players p`): the other's id, name and the row's date.
pub(crate) const FRIEND_FROM: &str = "friendships f JOIN players p ON p.id = f.other_id";

/// Neither player of the `friendships f` row's pair blocks the other (a blocked pair is
/// never listed).
pub(crate) const UNBLOCKED: &str = "NOT EXISTS (SELECT 1 FROM blocks b WHERE \
     (b.blocker_id = f.player_id AND b.blocked_id = f.other_id) OR \
     (b.blocker_id = f.other_id AND b.blocked_id = f.player_id))";

/// A seat's stats in `match_seats`, in [`PlayerStats`]'s field order ([`stats_values`]).
pub(crate) const SEAT_STATS: &str =
    "pieces, attack, garbage_cleared, t_spins, frames, pps_x100, apm_x100, vs_x100";

/// A two-seat match seat's rating before and after (rating, deviation, volatility each).
pub(crate) const SEAT_RATINGS: &str = "rating_before, deviation_before, volatility_before, \
                                       rating_after, deviation_after, volatility_after";

/// What a seat of a battle adds.
pub(crate) const BATTLE_SEAT: &str = "placement, kos, team, rounds_won";

/// The `INSERT` of one `match_seats` row: `match_id, seat, player_id, name`, the stats
/// ([`SEAT_STATS`]), then `extra` columns; placeholders numbered from 1 after `mark` (`?` for
/// SQLite, `$` for PostgreSQL).
pub(crate) fn insert_seat_sql(mark: char, extra: &str) -> String {
    let columns = format!("match_id, seat, player_id, name, {SEAT_STATS}, {extra}");
    let values: Vec<String> = (1..=columns.split(',').count())
        .map(|n| format!("{mark}{n}"))
        .collect();
    format!(
        "INSERT INTO match_seats ({columns}) VALUES ({})",
        values.join(", ")
    )
}

/// The stats as [`SEAT_STATS`] lists them.
pub(crate) fn stats_values(s: &PlayerStats) -> [u32; 8] {
    [
        s.pieces,
        s.attack,
        s.garbage_cleared,
        s.t_spins,
        s.frames,
        s.pps_x100,
        s.apm_x100,
        s.vs_x100,
    ]
}

/// The stats read back in [`SEAT_STATS`]'s order.
pub(crate) fn stats_from(v: [u32; 8]) -> PlayerStats {
    let [
        pieces,
        attack,
        garbage_cleared,
        t_spins,
        frames,
        pps_x100,
        apm_x100,
        vs_x100,
    ] = v;
    PlayerStats {
        pieces,
        attack,
        garbage_cleared,
        t_spins,
        frames,
        pps_x100,
        apm_x100,
        vs_x100,
    }
}

/// A two-seat match seat's ratings as [`SEAT_RATINGS`] lists them (`None` where not rated).
pub(crate) fn ratings_values(before: Option<Rating>, after: Option<Rating>) -> [Option<f64>; 6] {
    let three = |r: Option<Rating>| {
        [
            r.map(|r| r.rating),
            r.map(|r| r.deviation),
            r.map(|r| r.volatility),
        ]
    };
    let ([b0, b1, b2], [a0, a1, a2]) = (three(before), three(after));
    [b0, b1, b2, a0, a1, a2]
}

/// A seat's rating from its three columns: `None` unless all three are set.
pub(crate) fn rating_of(
    rating: Option<f64>,
    deviation: Option<f64>,
    volatility: Option<f64>,
) -> Option<Rating> {
    Some(Rating {
        rating: rating?,
        deviation: deviation?,
        volatility: volatility?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_insert_has_one_placeholder_per_column() {
        assert_eq!(
            insert_seat_sql('?', BATTLE_SEAT),
            "INSERT INTO match_seats (match_id, seat, player_id, name, pieces, attack, \
             garbage_cleared, t_spins, frames, pps_x100, apm_x100, vs_x100, placement, kos, \
             team, rounds_won) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, \
             ?14, ?15, ?16)"
        );
        assert!(insert_seat_sql('$', SEAT_RATINGS).ends_with("$17, $18)"));
    }

    #[test]
    fn ratings_read_back_as_written() {
        let r = Rating {
            rating: 1600.0,
            deviation: 80.0,
            volatility: 0.06,
        };
        let v = ratings_values(None, Some(r));
        assert_eq!(v[..3], [None, None, None]);
        assert_eq!(rating_of(v[3], v[4], v[5]), Some(r));
    }

    #[test]
    fn stats_read_back_as_written() {
        let s = PlayerStats {
            pieces: 1,
            attack: 2,
            garbage_cleared: 3,
            t_spins: 4,
            frames: 5,
            pps_x100: 6,
            apm_x100: 7,
            vs_x100: 8,
        };
        assert_eq!(stats_from(stats_values(&s)), s);
    }
}
