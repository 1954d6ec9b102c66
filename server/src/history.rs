//! How a free-for-all or team match shows in a player's history: its JSON for the HTTP API
//! (`crate::api`), its row in the game's profile (`crate::standings`, a [`RecentMatch`]) and
//! its table seat by seat ([`detail`], a [`MatchDetail`], which two-seat matches get too).
//! All read the same [`StoredBattle`]; a row's result is "3rd of 8".
//!
//! Stored matches are checked on read ([`unfit`]): a row the server would never write (fewer
//! than two seats, a name with a bidi override or another invisible character), which only a
//! damaged or hand-edited database holds, is left out of listings with a logged warning and
//! answers as no such match, rather than reaching clients.

use serde_json::{Value, json};
use sevenbag_protocol::{MAX_NAME_CHARS, MatchDetail, RecentMatch, SeatDetail};
use sevenbag_storage::{
    BattleRecord, HistoryEntry, Outcome, PlayerId, PlayerStats, StoredBattle, ordinal,
};

/// Why a stored match may not be shown to clients, if it may not: fewer than 2 or more than
/// [`MAX_SEATS`](sevenbag_core::MAX_SEATS) seats, or a seat name holding an invisible or
/// control character (`identity::is_invisible`).
pub(crate) fn unfit(m: &HistoryEntry) -> Option<String> {
    let names: Vec<&str> = match m {
        HistoryEntry::Versus(v) => v.record.seats.iter().map(|s| s.name.as_str()).collect(),
        HistoryEntry::Battle(b) => b.record.seats.iter().map(|s| s.name.as_str()).collect(),
    };
    if !(2..=sevenbag_core::MAX_SEATS).contains(&names.len()) {
        return Some(format!("{} seats", names.len()));
    }
    let seat = names
        .iter()
        .position(|n| n.chars().any(sevenbag_protocol::identity::is_invisible))?;
    Some(format!(
        "the name of seat {seat} holds an invisible or control character"
    ))
}

/// `entries` without those [`unfit`] to show, each left out with a logged warning.
pub(crate) fn fit_only(entries: Vec<HistoryEntry>) -> Vec<HistoryEntry> {
    entries
        .into_iter()
        .filter(|m| match unfit(m) {
            Some(why) => {
                let id = match m {
                    HistoryEntry::Versus(v) => v.id.0,
                    HistoryEntry::Battle(b) => b.id.0,
                };
                tracing::warn!(match_id = id, why, "a damaged stored match is not shown");
                false
            }
            None => true,
        })
        .collect()
}

/// A seat's stats as the API shows them (rates as decimals).
pub(crate) fn stats_json(s: &PlayerStats) -> Value {
    json!({
        "pieces": s.pieces,
        "attack": s.attack,
        "garbage_cleared": s.garbage_cleared,
        "t_spins": s.t_spins,
        "frames": s.frames,
        "pps": f64::from(s.pps_x100) / 100.0,
        "apm": f64::from(s.apm_x100) / 100.0,
        "vs": f64::from(s.vs_x100) / 100.0,
    })
}

/// "3rd of 8": the place of battle seat `seat` among the match's seats ("? of 8" while
/// undecided, a match cut short).
pub(crate) fn place_text(r: &BattleRecord, seat: usize) -> String {
    let n = r.seats.len();
    match r.seats.get(seat).map(|s| s.placement) {
        Some(place) if place > 0 => format!("{} of {n}", ordinal(place)),
        _ => format!("? of {n}"),
    }
}

/// A stored battle for the API; `bots`: which of its players are declared bots.
pub(crate) fn battle_json(m: &StoredBattle, bots: &[PlayerId]) -> Value {
    let r = &m.record;
    let players: Vec<Value> = r
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| {
            json!({
                "name": s.name,
                "bot": s.player.is_some_and(|p| bots.contains(&p)),
                "ranked_player": s.player.is_some(),
                "placement": s.placement,
                "place": place_text(r, i),
                "won": r.won(i),
                "kos": s.kos,
                "team": s.team,
                "rounds_won": s.rounds_won,
                "stats": stats_json(&s.stats),
            })
        })
        .collect();
    json!({
        "id": m.id.0,
        "kind": "battle",
        "ranked": false,
        "seats": r.seats.len(),
        "winner": r.winner,
        "void": r.winner.is_none(),
        "reason": r.reason,
        "targeting": r.targeting,
        "teams": r.seats.iter().any(|s| s.team.is_some()),
        "rules": serde_json::from_str::<Value>(&r.rules).unwrap_or(Value::Null),
        "duration_frames": r.duration_frames,
        "duration_seconds": (f64::from(r.duration_frames) / 6.0).round() / 10.0,
        "replay": r.replay.as_ref().map(|_| format!("/api/matches/{}/replay", m.id.0)),
        "started_unix": r.started_unix,
        "ended_unix": r.ended_unix,
        "players": players,
    })
}

/// A battle as a row of the game's profile, from the side of `me` (`None` if they did not
/// play): the opponent column reads "7 others · 3rd of 8", the score is their team's rounds
/// won beside the winner's; never ranked.
pub(crate) fn battle_row(m: &StoredBattle, me: PlayerId) -> Option<RecentMatch> {
    let r = &m.record;
    let mine = r.seat_of(me)?;
    let others = r.seats.len() - 1;
    let winner_rounds = r
        .seats
        .iter()
        .enumerate()
        .find(|&(i, _)| r.won(i) == Some(true))
        .map_or(0, |(_, s)| s.rounds_won);
    Some(RecentMatch {
        id: u64::try_from(m.id.0).unwrap_or_default(),
        opponent: format!("{others} others · {}", place_text(r, mine)),
        won: r.won(mine),
        score: [r.seats[mine].rounds_won, winner_rounds],
        ranked: false,
        rating_change: None,
        ended_unix: r.ended_unix,
        replay: r.replay.clone(),
    })
}

/// A stored match of either kind seat by seat, for `GetMatchDetail`; `bots`: which of its
/// players are declared bots. A two-seat match places its winner 1st (nobody when void).
pub(crate) fn detail(m: &HistoryEntry, bots: &[PlayerId]) -> MatchDetail {
    let bot = |p: Option<PlayerId>| p.is_some_and(|p| bots.contains(&p));
    match m {
        HistoryEntry::Battle(b) => {
            let r = &b.record;
            MatchDetail {
                id: u64::try_from(b.id.0).unwrap_or_default(),
                battle: true,
                ranked: false,
                targeting: short(&r.targeting),
                reason: short(&r.reason),
                winner: r.winner,
                duration_frames: r.duration_frames,
                ended_unix: r.ended_unix,
                replay: r.replay.clone(),
                seats: r
                    .seats
                    .iter()
                    .map(|s| SeatDetail {
                        team: s.team,
                        placement: s.placement,
                        kos: s.kos,
                        rounds_won: s.rounds_won,
                        ..seat_detail(&s.name, s.player, bot(s.player), &s.stats)
                    })
                    .collect(),
            }
        }
        HistoryEntry::Versus(v) => {
            let r = &v.record;
            let winner = match r.outcome {
                Outcome::Won(seat) => Some(seat),
                Outcome::Void => None,
            };
            MatchDetail {
                id: u64::try_from(v.id.0).unwrap_or_default(),
                battle: false,
                ranked: r.ranked,
                targeting: String::new(),
                reason: short(&r.reason),
                winner,
                duration_frames: r.duration_frames,
                ended_unix: r.ended_unix,
                replay: r.replay.clone(),
                seats: r
                    .seats
                    .iter()
                    .enumerate()
                    .map(|(i, s)| SeatDetail {
                        placement: winner.map_or(0, |w| if usize::from(w) == i { 1 } else { 2 }),
                        rounds_won: r.score[i],
                        rating_change: s
                            .before
                            .zip(s.after)
                            .map(|(b, a)| (a.rating - b.rating).round() as i32),
                        ..seat_detail(&s.name, s.player, bot(s.player), &s.stats)
                    })
                    .collect(),
            }
        }
    }
}

/// A seat's name and figures, with no place, team or rounds yet.
fn seat_detail(name: &str, player: Option<PlayerId>, bot: bool, s: &PlayerStats) -> SeatDetail {
    let name: String = name.chars().take(MAX_NAME_CHARS).collect();
    SeatDetail {
        name: if name.is_empty() { "?".into() } else { name },
        guest: player.is_none(),
        bot,
        team: None,
        placement: 0,
        kos: 0,
        rounds_won: 0,
        pieces: s.pieces,
        attack: s.attack,
        garbage_cleared: s.garbage_cleared,
        t_spins: s.t_spins,
        pps_x100: s.pps_x100,
        apm_x100: s.apm_x100,
        rating_change: None,
    }
}

/// A stored word cut to what a [`MatchDetail`] carries.
fn short(word: &str) -> String {
    let max = sevenbag_protocol::match_detail::MAX_DETAIL_WORD;
    word.char_indices()
        .take_while(|(i, c)| i + c.len_utf8() <= max)
        .map(|(_, c)| c)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use sevenbag_storage::{BattleSeat, MatchId};

    /// Eight seats, the first three players 1 to 3, placed in seat order; seat 0 won.
    fn eight() -> StoredBattle {
        let seats = (0..8u8)
            .map(|i| BattleSeat {
                player: (i < 3).then_some(PlayerId(i64::from(i) + 1)),
                name: format!("P{i}"),
                placement: i + 1,
                kos: 0,
                team: None,
                rounds_won: u8::from(i == 0),
                stats: PlayerStats::default(),
            })
            .collect();
        StoredBattle {
            id: MatchId(9),
            record: BattleRecord {
                winner: Some(0),
                reason: "top_out".into(),
                rules: "{}".into(),
                targeting: "even".into(),
                duration_frames: 600,
                replay: None,
                started_unix: 0,
                ended_unix: 0,
                seats,
            },
        }
    }

    #[test]
    fn a_stored_match_of_one_seat_or_a_bidi_name_is_not_shown() {
        let mut one = eight();
        one.record.seats.truncate(1);
        let mut bidi = eight();
        bidi.record.seats[3].name = "ev\u{202E}il".into();
        let entries = vec![
            HistoryEntry::Battle(eight()),
            HistoryEntry::Battle(one),
            HistoryEntry::Battle(bidi),
        ];
        assert_eq!(unfit(&entries[1]).as_deref(), Some("1 seats"));
        assert!(unfit(&entries[2]).is_some_and(|w| w.contains("seat 3")));
        assert_eq!(fit_only(entries).len(), 1);
    }

    #[test]
    fn a_battle_row_reads_third_of_eight() {
        let m = eight();
        let row = battle_row(&m, PlayerId(3)).expect("seat 2 played");
        assert_eq!(row.opponent, "7 others · 3rd of 8");
        assert_eq!(
            (row.won, row.score, row.ranked),
            (Some(false), [0, 1], false)
        );
        let winner = battle_row(&m, PlayerId(1)).unwrap();
        assert_eq!(
            (winner.won, winner.opponent.as_str()),
            (Some(true), "7 others · 1st of 8")
        );
        assert!(battle_row(&m, PlayerId(4)).is_none());
        let json = battle_json(&m, &[]);
        assert_eq!(json["players"][2]["place"], "3rd of 8");
        assert_eq!(
            (json["kind"].as_str(), json["seats"].as_u64()),
            (Some("battle"), Some(8))
        );
    }

    #[test]
    fn a_battle_detail_lists_every_seat_and_passes_its_own_checks() {
        let m = HistoryEntry::Battle(eight());
        let d = detail(&m, &[PlayerId(2)]);
        assert_eq!(d.validate(), Ok(()));
        assert_eq!((d.id, d.battle, d.seats.len()), (9, true, 8));
        assert_eq!(
            (d.seats[1].bot, d.seats[1].guest, d.seats[7].guest),
            (true, false, true)
        );
        assert_eq!(d.seats[2].placement, 3);
    }
}
