//! A profile's rating over its latest ranked matches (drawn by
//! [`crate::account::profile_charts`]): the path is worked back from the rating now and each
//! recent match's rating change, so it needs nothing beyond the profile the server sends.

use sevenbag_protocol::RecentMatch;

/// The rating before the oldest of `recent`'s rated matches and after each of them, oldest
/// first, ending at `now` (`recent` is newest first, as the server lists it; matches that
/// moved no rating are skipped). One point when none moved it.
pub fn rating_path(now: u32, recent: &[RecentMatch]) -> Vec<i64> {
    let mut at = i64::from(now);
    let mut path = vec![at];
    for change in recent.iter().filter_map(|m| m.rating_change) {
        at -= i64::from(change);
        path.push(at);
    }
    path.reverse();
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rated(change: Option<i32>) -> RecentMatch {
        RecentMatch {
            id: 1,
            opponent: "bob".into(),
            won: Some(change.is_some_and(|c| c > 0)),
            score: [3, 1],
            ranked: change.is_some(),
            rating_change: change,
            ended_unix: 0,
            replay: None,
        }
    }

    #[test]
    fn the_path_runs_back_from_the_rating_now_through_each_change() {
        // Newest first: +12 last, −8 before it, an unranked match, +20 first.
        let recent = [
            rated(Some(12)),
            rated(Some(-8)),
            rated(None),
            rated(Some(20)),
        ];
        assert_eq!(rating_path(1524, &recent), [1500, 1520, 1512, 1524]);
    }

    #[test]
    fn a_profile_without_rated_matches_is_one_point() {
        assert_eq!(rating_path(1500, &[rated(None)]), [1500]);
    }
}
