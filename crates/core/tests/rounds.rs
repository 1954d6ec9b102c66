//! Rounds and the match result (SPEC §5): a top out ends the round, the break, the next round's
//! own piece sequence, draws, and first to N.

mod common;

use common::{board_of, idle_until, start, step_n, versus_match};
use sevenbag_core::{Input, Match, MatchHeader, Phase, PieceQueue, Randomizer, Seat, TopOut};

/// Fills `seat`'s spawn cell so its next piece blocks out.
fn doom(m: &mut Match, seat: Seat) {
    m.player_mut(seat).set_board(board_of([(4, 20)]));
}

/// Plays one round in which `loser` blocks out on the first frame of play; returns the frame.
fn lose_round(m: &mut Match, loser: Seat) -> u32 {
    assert!(matches!(m.phase(), Phase::Countdown { .. }));
    doom(m, loser);
    start(m);
    m.frame().0 - 1
}

/// Steps until the match enters a new countdown (or at most `limit` frames).
fn until_countdown(m: &mut Match, limit: u32) {
    for _ in 0..limit {
        if matches!(m.phase(), Phase::Countdown { .. }) {
            return;
        }
        m.step([Input::NONE; 2]);
    }
}

#[test]
fn play_begins_when_the_countdown_ends() {
    let mut m = versus_match(11);
    step_n(&mut m, [Input::NONE; 2], 180);
    assert_eq!(m.countdown_left(), Some(0));
    assert!(m.player(Seat::First).active().is_none());

    m.step([Input::NONE; 2]);

    assert!(m.events().go);
    assert_eq!(m.phase(), Phase::Playing);
    assert!(m.player(Seat::First).events().spawned.is_some());
}

#[test]
fn keys_held_through_the_countdown_are_not_presses() {
    let mut m = versus_match(11);
    step_n(&mut m, [Input::HARD_DROP, Input::NONE], 181);

    assert!(m.player(Seat::First).events().locked.is_none());
    assert!(m.player(Seat::First).active().is_some());
}

#[test]
fn a_direction_held_through_the_countdown_is_charged_at_go() {
    let mut m = versus_match(11);
    step_n(&mut m, [Input::NONE, Input::LEFT], 180);
    let kind = m.player(Seat::Second).next()[0];

    // GO: the first piece auto-shifts at once (ARR 2) instead of waiting out DAS.
    step_n(&mut m, [Input::NONE, Input::LEFT], 7);

    let piece = m.player(Seat::Second).active().expect("in play");
    assert_eq!(piece.kind, kind);
    let leftmost = piece.cells().iter().map(|&(x, _)| x).min();
    assert_eq!(leftmost, Some(0), "at the left wall within 7 frames");
}

#[test]
fn a_top_out_ends_the_round_and_the_other_seat_wins_it() {
    let mut m = versus_match(11);

    let lost_at = lose_round(&mut m, Seat::First);

    assert_eq!(m.player(Seat::First).topped_out(), Some(TopOut::BlockOut));
    assert_eq!(m.events().round_over, Some(Some(Seat::Second)));
    assert_eq!(m.wins(), [0, 1]);
    assert_eq!(
        m.phase(),
        Phase::RoundOver {
            winner: Some(Seat::Second),
            next_at: lost_at + 1 + 180
        }
    );
}

#[test]
fn after_the_break_a_new_round_starts_with_its_own_piece_sequence() {
    let seed = 11;
    let mut m = versus_match(seed);
    let round_0 = m.player(Seat::First).next();
    let lost_at = lose_round(&mut m, Seat::Second);
    idle_until(&mut m, lost_at + 181);
    assert!(matches!(m.phase(), Phase::RoundOver { .. }));

    m.step([Input::NONE; 2]);

    assert!(m.events().new_round);
    assert_eq!(m.round(), 1);
    assert_eq!(
        m.phase(),
        Phase::Countdown {
            go_at: lost_at + 181 + 180
        }
    );
    let round_1 = PieceQueue::new(Randomizer::SevenBag, seed, 1).preview();
    assert_ne!(round_1, round_0);
    for seat in Seat::BOTH {
        let p = m.player(seat);
        assert_eq!(p.next(), round_1, "{seat:?}");
        assert!(p.board().is_empty());
        assert_eq!(p.topped_out(), None);
        assert_eq!(p.stats().pieces, 0);
    }
    assert_eq!(m.wins(), [1, 0]);
}

#[test]
fn both_seats_topping_out_on_one_frame_is_a_drawn_round() {
    let mut m = versus_match(11);
    doom(&mut m, Seat::First);

    lose_round(&mut m, Seat::Second);

    assert_eq!(m.events().round_over, Some(None));
    assert!(matches!(m.phase(), Phase::RoundOver { winner: None, .. }));
    assert_eq!(m.wins(), [0, 0]);
}

#[test]
fn the_first_seat_to_win_first_to_rounds_wins_the_match() {
    let mut header = MatchHeader::versus(11);
    header.rules.first_to = 2;
    let mut m = Match::new(header);

    lose_round(&mut m, Seat::First);
    until_countdown(&mut m, 1000);
    lose_round(&mut m, Seat::First);

    assert_eq!(m.events().match_over, Some(Seat::Second));
    assert_eq!(
        m.phase(),
        Phase::MatchOver {
            winner: Seat::Second
        }
    );
    assert_eq!(m.winner(), Some(Seat::Second));
    assert_eq!(m.wins(), [0, 2]);
}

#[test]
fn a_decided_match_stays_decided() {
    let mut header = MatchHeader::versus(11);
    header.rules.first_to = 1;
    let mut m = Match::new(header);
    lose_round(&mut m, Seat::Second);
    let frame = m.frame().0;

    step_n(&mut m, [Input::HARD_DROP, Input::NONE], 500);

    assert_eq!(
        m.phase(),
        Phase::MatchOver {
            winner: Seat::First
        }
    );
    assert_eq!(m.frame().0, frame + 500);
    assert_eq!(m.round(), 0);
}
