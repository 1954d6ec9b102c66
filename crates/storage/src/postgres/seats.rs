//! `match_seats` rows on PostgreSQL, for two-seat matches and battles alike: one seat written
//! with the shared columns ([`crate::columns`]) and its kind's own, and the parts read back.

use postgres::types::ToSql;
use postgres::{Row, Transaction};

use super::u32_of;
use crate::columns::{insert_seat_sql, rating_of, stats_from, stats_values};
use crate::{PlayerId, PlayerStats, Rating};

/// Inserts the seat at `seat` of match `match_id`: player, name and stats, then
/// `extra_columns` with their `extra` values, in order.
#[allow(clippy::too_many_arguments)]
pub(super) fn insert_seat(
    tx: &mut Transaction<'_>,
    match_id: i64,
    seat: usize,
    player: Option<PlayerId>,
    name: &str,
    stats: &PlayerStats,
    extra_columns: &str,
    extra: &[&(dyn ToSql + Sync)],
) -> Result<u64, postgres::Error> {
    let seat = seat as i64;
    let player = player.map(|p| p.0);
    let stats = stats_values(stats).map(i64::from);
    let mut values: Vec<&(dyn ToSql + Sync)> = vec![&match_id, &seat, &player, &name];
    values.extend(stats.iter().map(|v| v as &(dyn ToSql + Sync)));
    values.extend_from_slice(extra);
    tx.execute(&insert_seat_sql('$', extra_columns), &values)
}

/// The stats of a seat row, from column `at` on (`crate::columns::SEAT_STATS`).
pub(super) fn stats_at(row: &Row, at: usize) -> Result<PlayerStats, postgres::Error> {
    let mut v = [0u32; 8];
    for (k, slot) in v.iter_mut().enumerate() {
        *slot = u32_of(row.try_get(at + k)?);
    }
    Ok(stats_from(v))
}

/// A rating from columns `at`, `at + 1`, `at + 2` (`None` unless all three are set).
pub(super) fn seat_rating(row: &Row, at: usize) -> Result<Option<Rating>, postgres::Error> {
    Ok(rating_of(
        row.try_get(at)?,
        row.try_get(at + 1)?,
        row.try_get(at + 2)?,
    ))
}
