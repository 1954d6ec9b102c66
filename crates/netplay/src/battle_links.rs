//! The input delay of a match of several seats, from the worst link that matters.
//!
//! Another seat's inputs reach us through the server: half its round trip up, half ours down.
//! In versus both halves are taken as ours (the round trip our clock measures). With several
//! seats the slowest seat still playing decides how late the inputs we wait for arrive, so
//! the delay is picked for `(our round trip + the worst other seat's) / 2`. Every client
//! reports its smoothed round trip (`LinkReport`); the room announces them per seat
//! (`BattleLinks`, 0 for unknown and for seats the room plays itself) before `BattleStart`.

use std::time::Duration;

use crate::session::SessionOptions;

/// Once this far apart, a newly measured round trip is reported again (milliseconds).
pub const REPORT_STEP_MS: u16 = 5;

/// The round trip a battle seat's input delay is picked for: ours and the worst other known
/// seat's, averaged. `own`: our clock's measure (else our reported entry); `links_ms`: the
/// room's `BattleLinks`; `me`: our battle seat. `None` when nothing is known.
pub fn battle_round_trip(own: Option<Duration>, links_ms: &[u16], me: usize) -> Option<Duration> {
    let ms = |m: u16| Duration::from_millis(u64::from(m));
    let own = own.or_else(|| links_ms.get(me).copied().filter(|&m| m > 0).map(ms));
    let worst = links_ms
        .iter()
        .enumerate()
        .filter(|&(s, &m)| s != me && m > 0)
        .map(|(_, &m)| ms(m))
        .max();
    match (own, worst) {
        (Some(a), Some(b)) => Some((a + b) / 2),
        (a, b) => a.or(b),
    }
}

/// The session options of battle seat `me`: [`SessionOptions::for_round_trip`] of
/// [`battle_round_trip`].
pub fn battle_options(
    own: Option<Duration>,
    links_ms: &[u16],
    me: usize,
    window: u32,
) -> SessionOptions {
    SessionOptions::for_round_trip(battle_round_trip(own, links_ms, me), window)
}

/// What a client reports of its round trip `rtt`, if it moved [`REPORT_STEP_MS`] from the
/// `last` report (or none was sent).
pub fn report_due(rtt: Option<Duration>, last: Option<u16>) -> Option<u16> {
    let ms = rtt?.as_millis().min(u128::from(u16::MAX)) as u16;
    match last {
        Some(l) if l.abs_diff(ms) < REPORT_STEP_MS => None,
        _ => Some(ms),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn the_worst_other_seat_decides_not_the_best() {
        let links = [20, 200, 40, 0];
        assert_eq!(battle_round_trip(Some(20 * MS), &links, 0), Some(110 * MS));
        // Our own slow link is ours to bear: the others' worst is 40 ms for seat 1.
        assert_eq!(battle_round_trip(Some(200 * MS), &links, 1), Some(120 * MS));
    }

    #[test]
    fn unknown_and_gone_seats_count_for_nothing() {
        assert_eq!(
            battle_round_trip(Some(30 * MS), &[0, 0, 0], 0),
            Some(30 * MS)
        );
        assert_eq!(battle_round_trip(None, &[0, 80, 0], 0), Some(80 * MS));
        assert_eq!(battle_round_trip(None, &[60, 100], 0), Some(80 * MS));
        assert_eq!(battle_round_trip(None, &[], 0), None);
    }

    #[test]
    fn a_slow_seat_raises_everyone_s_delay_as_a_slow_opponent_would_in_versus() {
        let fast = battle_options(Some(10 * MS), &[10, 10, 10], 0, 8).input_delay;
        let slowed = battle_options(Some(10 * MS), &[10, 10, 250], 0, 8).input_delay;
        assert!(slowed > fast, "{slowed} > {fast}");
        // Two seats both at 130 ms: the versus choice exactly.
        let versus = SessionOptions::for_round_trip(Some(130 * MS), 8);
        assert_eq!(battle_options(Some(130 * MS), &[130, 130], 0, 8), versus);
    }

    #[test]
    fn a_round_trip_is_reported_again_only_when_it_moved() {
        assert_eq!(report_due(None, None), None);
        assert_eq!(report_due(Some(42 * MS), None), Some(42));
        assert_eq!(report_due(Some(44 * MS), Some(42)), None);
        assert_eq!(report_due(Some(50 * MS), Some(42)), Some(50));
    }
}
