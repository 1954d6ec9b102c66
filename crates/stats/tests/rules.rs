//! The counting rules, one behaviour each, on hand-built boards and key sequences played
//! through a real versus match (gravity off, instant soft drop and auto-repeat, so a piece goes
//! only where the keys send it).

use sevenbag_core::{
    Board, Input, Match, MatchHeader, Phase, PieceKind, Seat, Solo, SoloHeader, SoloMode,
};
use sevenbag_stats::{BattleStats, Cause, Rates, SeatStats, SoloStats, timeline};

/// A T-spin double slot at column 4 (the core's test board): a T turned clockwise, soft
/// dropped and turned again fills it; row 3 keeps the clear from being perfect.
const TSD_BOARD: [&str; 4] = ["#.........", "...#......", "###...####", "####.#####"];
/// Four rows with column 0 open under a junk cell, for a quad that is no perfect clear.
const QUAD_BOARD: [&str; 5] = [
    ".........#",
    ".#########",
    ".#########",
    ".#########",
    ".#########",
];

/// A versus match past its countdown, and its statistics.
struct Game {
    m: Match,
    stats: BattleStats,
}

impl Game {
    fn new() -> Game {
        let mut header = MatchHeader::versus(3);
        header.rules.gravity = 0;
        header.rules.gravity_rise_per_second = 0;
        for h in &mut header.handling {
            h.sdf = 0;
            h.arr = 0;
        }
        let mut m = Match::new(header);
        let mut stats = BattleStats::for_match(&m);
        while matches!(m.phase(), Phase::Countdown { .. }) {
            stats.step_match(&mut m, [Input::NONE; 2]);
        }
        Game { m, stats }
    }

    /// The next piece of `seat` is `kind`, on a board of these rows; it spawns on the next frame.
    fn next(&mut self, seat: Seat, kind: PieceKind, rows: &[&str]) {
        let p = self.m.player_mut(seat);
        p.set_board(Board::from_rows(rows));
        p.set_spawn_next(kind, Input::NONE);
        self.hold(seat, Input::NONE, 1);
    }

    /// `seat` holds `keys` for `frames` frames (the other seat holds nothing).
    fn hold(&mut self, seat: Seat, keys: Input, frames: usize) {
        let mut inputs = [Input::NONE; 2];
        inputs[seat.index()] = keys;
        for _ in 0..frames {
            self.stats.step_match(&mut self.m, inputs);
        }
    }

    /// `seat` presses each of `keys` for one frame and releases it for one.
    fn taps(&mut self, seat: Seat, keys: &[Input]) {
        for &k in keys {
            self.hold(seat, k, 1);
            self.hold(seat, Input::NONE, 1);
        }
    }

    /// `seat` plays the T-spin double of [`TSD_BOARD`] from the spawn with the fewest presses.
    fn tsd(&mut self, seat: Seat) {
        self.next(seat, PieceKind::T, &TSD_BOARD);
        self.taps(
            seat,
            &[
                Input::ROTATE_CW,
                Input::SOFT_DROP,
                Input::ROTATE_CW,
                Input::HARD_DROP,
            ],
        );
    }

    /// `seat` plays the quad of [`QUAD_BOARD`]: an I turned upright, moved to the wall, dropped.
    fn quad(&mut self, seat: Seat) {
        self.next(seat, PieceKind::I, &QUAD_BOARD);
        self.taps(seat, &[Input::ROTATE_CCW]);
        self.hold(seat, Input::LEFT, 20);
        self.taps(seat, &[Input::HARD_DROP]);
    }

    fn seat(&self, seat: Seat) -> SeatStats {
        self.stats.seats()[seat.index()].clone()
    }
}

const ME: Seat = Seat::First;
const THEM: Seat = Seat::Second;

#[test]
fn a_t_spin_double_counts_once_as_a_t_spin_double() {
    let mut g = Game::new();
    g.tsd(ME);
    let s = g.seat(ME);
    assert_eq!(s.spins.full, [0, 0, 1, 0]);
    assert_eq!(s.spins.mini, [0; 4]);
    assert_eq!((s.singles, s.doubles, s.triples, s.quads), (0, 0, 0, 0));
    assert_eq!((s.lines, s.pieces, s.attack), (2, 1, 4));
}

#[test]
fn a_quad_then_a_quad_is_one_back_to_back() {
    let mut g = Game::new();
    g.quad(ME);
    assert_eq!(g.seat(ME).max_b2b, 0);
    g.quad(ME);
    let s = g.seat(ME);
    assert_eq!(s.quads, 2);
    assert_eq!((s.max_b2b, s.b2b_clears), (1, 1));
    // 4 + (4 + 1 back-to-back) + 1 for the combo of the second clear.
    assert_eq!(s.attack, 10);
    assert_eq!(s.max_combo, 1);
}

#[test]
fn a_clear_that_leaves_the_board_empty_is_a_perfect_clear() {
    let mut g = Game::new();
    g.next(ME, PieceKind::I, &["######...."]);
    g.hold(ME, Input::RIGHT, 20);
    g.taps(ME, &[Input::HARD_DROP]);
    let s = g.seat(ME);
    assert_eq!((s.perfect_clears, s.singles, s.attack), (1, 1, 10));
}

#[test]
fn a_piece_dropped_with_the_fewest_keys_has_no_fault() {
    let mut g = Game::new();
    g.tsd(ME);
    g.quad(ME);
    g.next(ME, PieceKind::T, &[]);
    g.taps(ME, &[Input::HARD_DROP]);
    let s = g.seat(ME);
    assert_eq!((s.pieces, s.finesse_faults, s.faulty_pieces), (3, 0, 0));
    assert_eq!(s.unmeasured_pieces, 0);
}

#[test]
fn a_needless_left_and_right_is_two_faults() {
    let mut g = Game::new();
    g.next(ME, PieceKind::T, &[]);
    g.taps(ME, &[Input::LEFT, Input::RIGHT, Input::HARD_DROP]);
    let s = g.seat(ME);
    assert_eq!((s.finesse_faults, s.faulty_pieces), (2, 1));
}

#[test]
fn tapping_to_the_wall_is_a_fault_per_extra_tap_where_one_held_press_would_do() {
    let mut g = Game::new();
    g.next(ME, PieceKind::O, &[]);
    // The O spawns over columns 4 and 5: four taps reach the wall, one held press would.
    g.taps(ME, &[Input::LEFT, Input::LEFT, Input::LEFT, Input::LEFT]);
    g.taps(ME, &[Input::HARD_DROP]);
    assert_eq!(g.seat(ME).finesse_faults, 3);
}

#[test]
fn a_hold_starts_the_next_piece_count_afresh_and_is_no_press() {
    let mut g = Game::new();
    g.next(ME, PieceKind::T, &[]);
    g.taps(ME, &[Input::LEFT, Input::HOLD, Input::HARD_DROP]);
    let s = g.seat(ME);
    assert_eq!((s.holds, s.pieces, s.finesse_faults), (1, 1, 0));
}

#[test]
fn cancelled_garbage_is_counted_as_cancelled_not_tanked() {
    let mut g = Game::new();
    g.tsd(THEM);
    // Within the garbage's 20 frames of travel, my T-spin double cancels all of it.
    g.tsd(ME);
    g.hold(ME, Input::NONE, 30);
    g.next(ME, PieceKind::O, &[]);
    g.taps(ME, &[Input::HARD_DROP]);
    let me = g.seat(ME);
    assert_eq!(
        (me.received, me.attack, me.cancelled, me.sent),
        (4, 4, 4, 0)
    );
    assert_eq!(me.tanked, 0);
    assert_eq!(g.seat(THEM).received, 0);
}

#[test]
fn garbage_that_rises_is_tanked() {
    let mut g = Game::new();
    g.tsd(THEM);
    g.hold(ME, Input::NONE, 30);
    g.next(ME, PieceKind::O, &[]);
    g.taps(ME, &[Input::HARD_DROP]);
    let me = g.seat(ME);
    assert_eq!((me.received, me.cancelled, me.tanked), (4, 0, 4));
    assert_eq!(g.seat(THEM).sent, 4);
}

#[test]
fn a_spawn_into_the_stack_is_a_block_out_with_its_time() {
    let mut g = Game::new();
    let full = ["#########."; 23];
    g.next(ME, PieceKind::T, &full);
    let s = g.seat(ME);
    assert_eq!(s.deaths.len(), 1);
    let death = s.deaths[0];
    assert_eq!(
        (death.round, death.cause, death.by),
        (0, Cause::BlockOut, None)
    );
    assert_eq!(death.played, s.frames);
    assert!(g.seat(THEM).deaths.is_empty());
}

#[test]
fn frames_count_only_play_and_rates_follow_the_formulas() {
    let mut g = Game::new();
    // The first frame of play was stepped at the end of the countdown.
    assert_eq!(g.seat(ME).frames, 1);
    g.hold(ME, Input::NONE, 599);
    assert_eq!(g.seat(ME).frames, 600);
    let r = Rates::from_counts(3600, 150, 60, 30);
    assert_eq!((r.seconds, r.pps, r.apm), (60.0, 2.5, 60.0));
    assert_eq!((r.vs, r.app, r.ds_per_second), (150.0, 0.4, 0.5));
    assert_eq!(r.ds_per_piece, 0.2);
    // DS/s = VS/100 − APM/60, APP = APM / (PPS × 60).
    assert_eq!(r.ds_per_second, r.vs / 100.0 - r.apm / 60.0);
    assert_eq!(r.app, r.apm / (r.pps * 60.0));
    assert_eq!(Rates::from_counts(0, 0, 0, 0), Rates::default());
}

#[test]
fn the_series_cover_every_second_played_and_add_up_to_the_counts() {
    let mut g = Game::new();
    g.tsd(ME);
    g.hold(ME, Input::NONE, 100);
    g.quad(ME);
    let s = g.seat(ME);
    let seconds = s.frames.div_ceil(60) as usize;
    assert_eq!(s.series.pieces.len(), seconds);
    assert_eq!(s.series.pieces.iter().sum::<u32>(), s.pieces);
    assert_eq!(s.series.attack.iter().sum::<u32>(), s.attack);
    let points = timeline(&s);
    assert_eq!(points.len(), seconds);
    let last = points.last().expect("a point");
    assert_eq!(last.rates, Rates::of(&s));
    assert_eq!(last.attack, s.attack);
}

/// A solo Sprint played by hard dropping every other frame until it ends.
fn solo_run() -> (Solo, SeatStats) {
    let mut solo = Solo::new(SoloHeader::new(SoloMode::Sprint, 11));
    let mut stats = SoloStats::new(&solo);
    let mut f = 0u32;
    while solo.result().is_none() && f < 20_000 {
        let keys = if f.is_multiple_of(2) {
            Input::HARD_DROP
        } else {
            Input::NONE
        };
        stats.step(&mut solo, keys);
        f += 1;
    }
    (solo, stats.into_stats())
}

#[test]
fn a_solo_run_counts_its_pieces_and_frames_of_play_as_its_result() {
    let (solo, s) = solo_run();
    let result = solo.result().expect("the run ended");
    assert_eq!(
        (s.pieces, s.lines, s.frames),
        (result.pieces, result.lines, result.frames)
    );
    assert_eq!(s.deaths.len(), 1, "hard drops in one column top out");
    assert_eq!(s.received, 0);
}

#[test]
fn the_same_inputs_give_the_same_counts() {
    assert_eq!(solo_run().1, solo_run().1);
}

#[test]
fn attack_in_quick_succession_is_one_spike_from_its_first_lock() {
    let mut g = Game::new();
    g.quad(ME);
    let first = g.seat(ME);
    assert!(first.spikes.is_empty(), "4 lines are no spike");
    g.quad(ME);
    let s = g.seat(ME);
    assert_eq!(s.spikes.len(), 1);
    let spike = s.spikes[0];
    assert_eq!((spike.round, spike.lines), (0, 10));
    assert!(spike.played <= first.frames, "it starts at the first quad");
}

#[test]
fn attack_more_than_a_second_apart_is_no_spike() {
    let mut g = Game::new();
    g.quad(ME);
    g.hold(ME, Input::NONE, 120);
    g.quad(ME);
    let s = g.seat(ME);
    assert_eq!(s.attack, 10);
    assert!(s.spikes.is_empty(), "{:?}", s.spikes);
}
