//! The statistics of the golden replays, against a re-count of their own events.

use sevenbag_core::{Battle, MAX_SEATS, Seat, SeatInput};
use sevenbag_protocol::SeatLog;

use super::*;

fn golden(bytes: &[u8]) -> BattleReplay {
    sevenbag_protocol::replay_file::open(bytes)
        .expect("a golden replay opens")
        .replay
}

/// Pieces locked per seat, counted straight from the core's events.
fn pieces_by_events(replay: &BattleReplay) -> Vec<u32> {
    let logs: Vec<SeatLog> = replay.seat_logs().expect("inputs");
    let end = logs.iter().map(SeatLog::confirmed).min().unwrap_or(0);
    let mut game: Box<Battle> = Box::new(Battle::new(replay.header).expect("header"));
    let mut pieces = vec![0; game.seats()];
    while game.winner().is_none() && game.frame().0 < end {
        let f = game.frame().0;
        let mut inputs = [SeatInput::NONE; MAX_SEATS];
        for (slot, log) in inputs.iter_mut().zip(&logs) {
            *slot = log.get(f).unwrap_or_default();
        }
        game.step(&inputs);
        for (seat, n) in pieces.iter_mut().enumerate() {
            let seat = Seat::new(seat).expect("a seat");
            *n += u32::from(game.player(seat).events().locked.is_some());
        }
    }
    pieces
}

#[test]
fn a_replay_of_several_seats_counts_every_seats_pieces_as_its_events() {
    let replay = golden(include_bytes!(
        "../../../crates/protocol/tests/golden/replay_v2.sbrp"
    ));
    let stats = MatchStats::of(&replay).expect("counted");
    let counted: Vec<u32> = stats.seats.iter().map(|s| s.report.counts.pieces).collect();
    assert_eq!(counted, pieces_by_events(&replay));
    assert_eq!(stats.seats.len(), replay.names.len());
    assert_eq!(stats.seats[0].report.name, replay.names[0]);
}

#[test]
fn a_two_seat_replay_counts_both_seats_and_charts_every_second() {
    let replay = golden(include_bytes!(
        "../../../crates/protocol/tests/golden/replay_v1.sbrp"
    ));
    let stats = MatchStats::of(&replay).expect("counted");
    let counted: Vec<u32> = stats.seats.iter().map(|s| s.report.counts.pieces).collect();
    assert_eq!(counted, pieces_by_events(&replay));
    for seat in &stats.seats {
        let seconds = seat.report.counts.frames.div_ceil(60) as usize;
        assert_eq!(seat.points.len(), seconds, "a point a second of play");
    }
}

#[test]
fn every_top_out_is_a_mark_in_frame_order() {
    let replay = golden(include_bytes!(
        "../../../crates/protocol/tests/golden/replay_v2.sbrp"
    ));
    let stats = MatchStats::of(&replay).expect("counted");
    let outs = stats
        .marks
        .iter()
        .filter(|m| m.kind == MarkKind::Out)
        .count();
    let deaths: usize = stats
        .seats
        .iter()
        .map(|s| s.report.counts.deaths.len())
        .sum();
    assert_eq!(outs, deaths);
    assert!(stats.marks.windows(2).all(|w| w[0].frame <= w[1].frame));
}

fn with_marks(frames: &[u32]) -> MatchStats {
    MatchStats {
        seats: Vec::new(),
        frames: 10_000,
        marks: frames
            .iter()
            .map(|&frame| Mark {
                frame,
                seat: 0,
                kind: MarkKind::Out,
            })
            .collect(),
        rounds: Vec::new(),
    }
}

#[test]
fn next_mark_jumps_a_little_before_the_next_moment() {
    let s = with_marks(&[1000, 3000]);
    assert_eq!(s.next_mark(0), Some(1000 - LEAD_FRAMES));
    assert_eq!(s.next_mark(1000 - LEAD_FRAMES), Some(3000 - LEAD_FRAMES));
    assert_eq!(s.next_mark(3000), None, "past the last mark");
}

#[test]
fn previous_mark_skips_the_one_just_jumped_to() {
    let s = with_marks(&[1000, 3000]);
    assert_eq!(
        s.previous_mark(3000 - LEAD_FRAMES),
        Some(1000 - LEAD_FRAMES)
    );
    assert_eq!(s.previous_mark(2000), Some(1000 - LEAD_FRAMES));
    assert_eq!(s.previous_mark(1000 - LEAD_FRAMES), None);
}
