//! A match of a profile's history as the results table of the free-for-all screen
//! ([`crate::render::results_table`]): every seat, best place first, with what the server kept
//! (knock-outs, lines sent, garbage cleared, pace, rounds; a two-seat ranked match's rating
//! changes). Built from the server's [`MatchDetail`]; the profile screen draws it.

use sevenbag_protocol::MatchDetail;

use crate::render::results_table::{ResultsTable, TEAMS, TableRow};
use crate::render::theme;
use crate::render::{hundredths, tenths};
use crate::text::ordinal;
use crate::text::utc_stamp;

/// The keys line under a stored match's table with a replay, and without one.
pub const KEYS: &str = "Enter  watch the replay      Esc  back";
/// The keys line of a match whose replay the server did not keep.
pub const KEYS_NO_REPLAY: &str = "no replay kept      Esc  back";

/// `d` as a table; `viewed` is the profile's player (their row stands out). `upright`: a
/// phone held upright, whose table leaves out garbage cleared, APM, the targeting rule and the
/// date so the rest reads larger.
pub fn stored_table(d: &MatchDetail, viewed: Option<&str>, upright: bool) -> ResultsTable {
    let wide = !upright;
    let teams = d.teams();
    let rating = d.seats.iter().any(|s| s.rating_change.is_some());
    let mut heads = vec!["PLACE", "PLAYER"];
    if d.battle {
        heads.push("KOs");
    }
    heads.push("SENT");
    if wide {
        heads.push("CLEARED");
    }
    heads.push("PPS");
    if wide {
        heads.push("APM");
    }
    heads.push("ROUNDS");
    if rating {
        heads.push("RATING");
    }
    // Figures right-aligned, evenly from just past the middle to the right edge.
    let figures = heads.len() - 2;
    let mut columns = vec![0.035, 0.12];
    let (first, last) = (0.47, 0.965);
    columns.extend(
        (0..figures).map(|i| first + (last - first) * i as f32 / (figures - 1).max(1) as f32),
    );
    let mut order: Vec<usize> = (0..d.seats.len()).collect();
    order.sort_by_key(|&i| match d.seats[i].placement {
        0 => (u8::MAX, i),
        p => (p, i),
    });
    let rows = order
        .into_iter()
        .map(|i| {
            let s = &d.seats[i];
            let mine = viewed == Some(s.name.as_str()) && !s.guest;
            let colour = if mine {
                theme::ACCENT2
            } else if let Some(t) = s.team.filter(|_| teams) {
                TEAMS[usize::from(t) % TEAMS.len()]
            } else {
                theme::TEXT
            };
            let mark = if s.bot {
                " [BOT]"
            } else if s.guest {
                " (guest)"
            } else {
                ""
            };
            let mut cells = vec![
                match s.placement {
                    0 => "—".to_owned(),
                    p => ordinal(p),
                },
                format!("{}{mark}", s.name),
            ];
            if d.battle {
                cells.push(s.kos.to_string());
            }
            cells.push(s.attack.to_string());
            if wide {
                cells.push(s.garbage_cleared.to_string());
            }
            cells.push(hundredths(s.pps_x100));
            if wide {
                cells.push(tenths(s.apm_x100));
            }
            cells.push(s.rounds_won.to_string());
            if rating {
                cells.push(s.rating_change.map_or("—".to_owned(), |c| format!("{c:+}")));
            }
            TableRow { cells, colour }
        })
        .collect();
    let keys = if d.replay.is_some() {
        KEYS
    } else {
        KEYS_NO_REPLAY
    };
    let keys = if wide {
        format!(
            "{}  ·  {}      {keys}",
            utc_stamp(d.ended_unix),
            clock(d.duration_frames)
        )
    } else {
        keys.to_owned()
    };
    ResultsTable {
        title: title(d, wide),
        heads,
        columns,
        rows,
        keys,
        buttons: Vec::new(),
        width_rows: if wide { 31.0 } else { 22.0 },
    }
}

/// The table's first line: what kind of match (its targeting rule too when `wide`), and who
/// won.
pub fn title(d: &MatchDetail, wide: bool) -> String {
    let n = d.seats.len();
    // "kos" targets by knock-outs: "KO TARGETING" reads better than "KOS".
    let rule = match d.targeting.as_str() {
        "kos" => "KO".to_owned(),
        other => other.to_uppercase(),
    };
    let rule = if wide {
        format!("  ·  {rule} TARGETING")
    } else {
        String::new()
    };
    let kind = match (d.battle, d.teams(), d.ranked) {
        (true, true, _) => format!("TEAMS OF {n}{rule}"),
        (true, false, _) => format!("FREE-FOR-ALL OF {n}{rule}"),
        (false, _, true) => "RANKED MATCH".to_owned(),
        (false, _, false) => "MATCH".to_owned(),
    };
    let winners: Vec<String> = (0..n)
        .filter(|&i| d.won(i) == Some(true))
        .map(|i| d.seats[i].name.to_uppercase())
        .collect();
    let result = match winners.len() {
        0 => format!("NO WINNER ({})", d.reason.replace('_', " ").to_uppercase()),
        1 => format!("{} WINS", winners[0]),
        _ => format!("{} WIN", winners.join(" + ")),
    };
    format!("{kind}  ·  {result}")
}

/// Frames as "m:ss".
fn clock(frames: u32) -> String {
    let s = frames / 60;
    format!("{}:{:02}", s / 60, s % 60)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sevenbag_protocol::SeatDetail;

    fn seat(name: &str, placement: u8) -> SeatDetail {
        SeatDetail {
            kos: u32::from(placement == 1) * 2,
            rounds_won: u8::from(placement == 1),
            pieces: 80,
            attack: 21,
            garbage_cleared: 6,
            t_spins: 1,
            pps_x100: 187,
            apm_x100: 4_012,
            ..SeatDetail::new(name, placement)
        }
    }

    fn ffa() -> MatchDetail {
        MatchDetail {
            id: 12,
            battle: true,
            ranked: false,
            targeting: "even".into(),
            reason: "top_out".into(),
            winner: Some(1),
            duration_frames: 3_725,
            ended_unix: 0,
            replay: Some("b12".into()),
            seats: vec![seat("ann", 3), seat("bo", 1), seat("cy", 2)],
        }
    }

    #[test]
    fn a_free_for_all_lists_every_seat_best_place_first() {
        let t = stored_table(&ffa(), Some("ann"), false);
        assert_eq!(
            t.heads,
            [
                "PLACE", "PLAYER", "KOs", "SENT", "CLEARED", "PPS", "APM", "ROUNDS"
            ]
        );
        assert_eq!(t.columns.len(), t.heads.len());
        let firsts: Vec<&str> = t.rows.iter().map(|r| r.cells[1].as_str()).collect();
        assert_eq!(firsts, ["bo", "cy", "ann"]);
        assert_eq!(
            t.rows[0].cells,
            ["1st", "bo", "2", "21", "6", "1.87", "40.1", "1"]
        );
        assert_eq!(t.rows[2].colour, theme::ACCENT2, "the profile's player");
        assert_eq!(t.rows[0].colour, theme::TEXT);
        assert_eq!(t.title, "FREE-FOR-ALL OF 3  ·  EVEN TARGETING  ·  BO WINS");
        assert_eq!(t.keys, format!("1970-01-01 00:00  ·  1:02      {KEYS}"));
    }

    #[test]
    fn an_upright_phone_gets_fewer_columns_and_a_shorter_title() {
        let t = stored_table(&ffa(), None, true);
        assert_eq!(t.heads, ["PLACE", "PLAYER", "KOs", "SENT", "PPS", "ROUNDS"]);
        assert!(t.rows.iter().all(|r| r.cells.len() == t.heads.len()));
        assert_eq!(t.title, "FREE-FOR-ALL OF 3  ·  BO WINS");
        assert_eq!(t.keys, KEYS);
    }

    #[test]
    fn guests_bots_and_undecided_seats_are_marked() {
        let mut d = ffa();
        d.seats[0].guest = true;
        d.seats[2].bot = true;
        d.seats[0].placement = 0;
        d.replay = None;
        let t = stored_table(&d, Some("ann"), false);
        assert_eq!(t.rows[2].cells[..2], ["—", "ann (guest)"]);
        assert_eq!(t.rows[1].cells[1], "cy [BOT]");
        assert_ne!(
            t.rows[2].colour,
            theme::ACCENT2,
            "a guest is nobody's profile"
        );
        assert!(t.keys.ends_with(KEYS_NO_REPLAY), "{}", t.keys);
    }

    #[test]
    fn a_team_match_colours_its_teams_and_names_every_winner() {
        let mut d = ffa();
        for (s, t) in d.seats.iter_mut().zip([1, 1, 0]) {
            s.team = Some(t);
        }
        let t = stored_table(&d, None, false);
        assert_eq!(t.title, "TEAMS OF 3  ·  EVEN TARGETING  ·  ANN + BO WIN");
        assert_eq!(t.rows[0].colour, TEAMS[1]);
        assert_eq!(t.rows[1].colour, TEAMS[0]);
    }

    #[test]
    fn a_ranked_two_seat_match_shows_rating_changes_and_no_knock_outs() {
        let mut d = ffa();
        d.battle = false;
        d.ranked = true;
        d.targeting.clear();
        d.winner = Some(0);
        d.seats = vec![seat("ann", 1), seat("bo", 2)];
        d.seats[0].rating_change = Some(12);
        d.seats[1].rating_change = Some(-10);
        let t = stored_table(&d, Some("bo"), false);
        assert_eq!(
            t.heads,
            [
                "PLACE", "PLAYER", "SENT", "CLEARED", "PPS", "APM", "ROUNDS", "RATING"
            ]
        );
        assert_eq!(t.rows[1].cells.last().map(String::as_str), Some("-10"));
        assert_eq!(t.rows[0].cells.last().map(String::as_str), Some("+12"));
        assert_eq!(t.title, "RANKED MATCH  ·  ANN WINS");
    }

    #[test]
    fn a_match_nobody_won_says_why() {
        let mut d = ffa();
        d.winner = None;
        d.reason = "shutdown".into();
        d.targeting = "kos".into();
        assert_eq!(
            title(&d, true),
            "FREE-FOR-ALL OF 3  ·  KO TARGETING  ·  NO WINNER (SHUTDOWN)"
        );
    }
}
