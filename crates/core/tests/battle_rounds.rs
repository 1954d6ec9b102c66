//! Knock-outs, placements, badges, teams and rounds in matches of more than two seats
//! (SPEC §10).

mod common;

use common::battle::{
    Ffa, doom, ffa, idle, knock_out, nobody, only, perfect_clear, seat, start, teams, tsd,
    with_options,
};
use sevenbag_core::{BattleOptions, Input, Phase, Targeting, Team, TopOut};

fn started(seats: u8) -> Ffa {
    let mut b = ffa(seats, Targeting::Even);
    start(&mut b);
    b
}

fn team(i: usize) -> Team {
    Team::new(i).expect("a team")
}

#[test]
fn a_knock_out_is_credited_to_the_seat_whose_garbage_rose_last() {
    let mut b = started(4);
    let f = b.frame().0;
    b.player_mut(seat(2)).receive_from(1, f - 30, 20, seat(0));

    knock_out(&mut b, seat(2), seat(3));

    assert_eq!(b.player(seat(2)).topped_out(), Some(TopOut::GarbageOut));
    assert_eq!(b.knocked_out_by(seat(2)), Some(seat(3)));
    assert_eq!((b.kos(seat(3)), b.kos(seat(0))), (1, 0));
}

#[test]
fn going_out_with_no_garbage_risen_credits_nobody() {
    let mut b = started(3);
    doom(&mut b, seat(1));
    b.step(&only(seat(1), Input::HARD_DROP));
    idle(&mut b, 1);

    assert_eq!(b.player(seat(1)).topped_out(), Some(TopOut::BlockOut));
    assert_eq!(b.knocked_out_by(seat(1)), None);
    assert_eq!(b.phase(), Phase::Playing);
}

#[test]
fn a_knocked_out_seats_pending_garbage_is_discarded() {
    let mut b = started(4);
    tsd(&mut b, seat(0));
    assert_eq!(b.player(seat(1)).garbage().total(), 4);

    doom(&mut b, seat(1));
    b.step(&nobody());

    assert_eq!(b.player(seat(1)).garbage().total(), 0);
    assert_eq!(b.discarded(seat(1)), 4);
}

#[test]
fn seats_that_are_out_receive_nothing_more() {
    let mut b = ffa(3, Targeting::Divide);
    start(&mut b);
    knock_out(&mut b, seat(1), seat(0));

    let sent = perfect_clear(&mut b, seat(0));

    assert_eq!(sent[..3], [0, 0, 10]);
    assert_eq!(b.player(seat(1)).garbage().total(), 0);
}

#[test]
fn the_last_seat_standing_wins_the_round() {
    let mut b = started(3);
    knock_out(&mut b, seat(0), seat(1));
    assert_eq!(b.phase(), Phase::Playing);

    knock_out(&mut b, seat(1), seat(2));

    assert_eq!(b.wins(), [0, 0, 1]);
    assert!(matches!(
        b.phase(),
        Phase::RoundOver {
            winner: Some(w),
            ..
        } if w == team(2)
    ));
    let places: Vec<_> = (0..3).map(|i| b.placement(seat(i))).collect();
    assert_eq!(places, [Some(3), Some(2), Some(1)]);
}

#[test]
fn seats_going_out_on_one_frame_are_placed_higher_seat_first_out() {
    let mut b = started(4);
    doom(&mut b, seat(1));
    doom(&mut b, seat(2));
    b.step(&only(seat(1), Input::HARD_DROP));

    assert_eq!(b.events().knocked_out.len(), 2);
    assert_eq!(b.placement(seat(2)), Some(4));
    assert_eq!(b.placement(seat(1)), Some(3));
    assert_eq!(b.placement(seat(0)), None, "still in");
}

#[test]
fn when_the_last_seats_go_out_together_the_lowest_numbered_wins() {
    let mut b = started(3);
    knock_out(&mut b, seat(0), seat(2));
    doom(&mut b, seat(1));
    doom(&mut b, seat(2));
    b.step(&nobody());

    assert_eq!(b.events().round_over, Some(Some(team(1))));
    assert_eq!(b.wins(), [0, 1, 0]);
    assert_eq!(b.placement(seat(1)), Some(1));
    assert_eq!(b.placement(seat(2)), Some(2));
}

#[test]
fn two_seats_going_out_together_draw_the_round_as_in_versus() {
    let mut b = started(2);
    doom(&mut b, seat(0));
    doom(&mut b, seat(1));
    b.step(&nobody());

    assert_eq!(b.events().round_over, Some(None));
    assert_eq!(b.wins(), [0, 0]);
}

#[test]
fn the_first_to_win_first_to_rounds_wins_the_match() {
    let mut header = sevenbag_core::BattleHeader::new(11, 3);
    header.rules.first_to = 2;
    let mut b: Ffa = sevenbag_core::Battle::new(header).expect("valid");
    for round in 0..2 {
        start(&mut b);
        assert_eq!(b.round(), round);
        knock_out(&mut b, seat(0), seat(1));
        knock_out(&mut b, seat(2), seat(1));
    }

    assert_eq!(b.winner(), Some(team(1)));
    assert_eq!(b.events().match_over, None, "reported on its frame");
    assert_eq!(b.phase(), Phase::MatchOver { winner: team(1) });
}

#[test]
fn a_new_round_starts_everyone_afresh() {
    let mut b = started(3);
    tsd(&mut b, seat(0));
    knock_out(&mut b, seat(1), seat(0));
    knock_out(&mut b, seat(2), seat(0));

    start(&mut b);

    assert_eq!(b.round(), 1);
    for i in 0..3 {
        let s = seat(i);
        assert_eq!(b.player(s).topped_out(), None);
        assert_eq!((b.kos(s), b.received(s), b.placement(s)), (0, 0, None));
    }
    assert_eq!(b.wins(), [1, 0, 0]);
}

#[test]
fn badges_take_the_victims_points_plus_one() {
    let mut b = with_options(
        5,
        BattleOptions {
            badges: true,
            ..BattleOptions::default()
        },
    );
    start(&mut b);
    knock_out(&mut b, seat(2), seat(1));
    assert_eq!(b.badges(seat(1)), 1);

    knock_out(&mut b, seat(1), seat(0));

    assert_eq!(b.badges(seat(0)), 2);
}

#[test]
fn two_badge_points_add_a_quarter_to_attack_rounded_down() {
    let mut b = with_options(
        4,
        BattleOptions {
            badges: true,
            ..BattleOptions::default()
        },
    );
    start(&mut b);
    knock_out(&mut b, seat(1), seat(0));
    knock_out(&mut b, seat(2), seat(0));

    let sent = tsd(&mut b, seat(0));

    assert_eq!(sent[3], 5, "4 × 1.25");
    assert_eq!(b.player(seat(0)).stats().attack, 5);
}

#[test]
fn knock_outs_without_the_badges_option_multiply_nothing() {
    let mut b = started(4);
    knock_out(&mut b, seat(1), seat(0));
    knock_out(&mut b, seat(2), seat(0));

    assert_eq!(tsd(&mut b, seat(0))[3], 4);
}

#[test]
fn a_team_is_out_only_when_all_its_seats_are() {
    let mut b = with_options(
        4,
        BattleOptions {
            teams: teams(&[0, 1, 0, 1]),
            ..BattleOptions::default()
        },
    );
    start(&mut b);
    knock_out(&mut b, seat(1), seat(0));
    assert_eq!(b.phase(), Phase::Playing);

    knock_out(&mut b, seat(3), seat(2));

    assert_eq!(b.events().round_over, None, "reported on its frame");
    assert_eq!(b.wins(), [1, 0]);
    let places: Vec<_> = (0..4).map(|i| b.placement(seat(i))).collect();
    assert_eq!(places, [Some(1), Some(4), Some(1), Some(3)]);
}

#[test]
fn the_team_boost_multiplies_a_smaller_teams_attack() {
    let mut b = with_options(
        4,
        BattleOptions {
            teams: teams(&[0, 0, 0, 1]),
            team_boost: true,
            ..BattleOptions::default()
        },
    );
    start(&mut b);

    assert_eq!(tsd(&mut b, seat(3))[0], 12, "4 × 3 ÷ 1");
    assert_eq!(tsd(&mut b, seat(1))[3], 4, "4 × 3 ÷ 3");
}

#[test]
fn garbage_sent_on_one_frame_is_ready_travel_frames_later_whatever_the_seat_order() {
    let mut b = started(3);
    for s in [seat(0), seat(2)] {
        let p = b.player_mut(s);
        p.set_board(sevenbag_core::Board::from_rows(&common::TSD_BOARD));
        p.set_active(common::tsd_t());
    }
    let mut both = only(seat(0), Input::ROTATE_CW);
    both[2].keys = Input::ROTATE_CW;
    b.step(&both);
    let mut drop = only(seat(0), Input::HARD_DROP);
    drop[2].keys = Input::HARD_DROP;
    let f = b.frame().0;
    b.step(&drop);

    assert_eq!(b.events().sent[0][1], 4);
    assert_eq!(b.events().sent[2][0], 4);
    assert_eq!(b.player(seat(1)).garbage().entries()[0].ready_at, f + 20);
    assert_eq!(b.player(seat(0)).garbage().entries()[0].ready_at, f + 20);
}
