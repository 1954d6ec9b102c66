//! Helpers for matches of more than two seats: building one, starting it, making a seat send a
//! known attack or go out.

use sevenbag_core::{
    Battle, BattleHeader, BattleOptions, Board, Input, MAX_SEATS, Phase, PieceKind, Rotation, Seat,
    SeatInput, Targeting,
};

use super::{PERFECT_CLEAR_BOARD, TSD_BOARD, board_of, piece, tsd_t};

/// A match of up to eight seats.
pub type Ffa = Battle<MAX_SEATS>;

/// Seat `i`.
pub fn seat(i: usize) -> Seat {
    Seat::new(i).expect("a seat")
}

/// A match of `seats` seats with seed 11, versus rules and `targeting`.
pub fn ffa(seats: u8, targeting: Targeting) -> Ffa {
    with_options(
        seats,
        BattleOptions {
            targeting,
            ..BattleOptions::default()
        },
    )
}

/// A match of `seats` seats with seed 11, versus rules and `options`.
pub fn with_options(seats: u8, options: BattleOptions) -> Ffa {
    let mut header = BattleHeader::new(11, seats);
    header.options = options;
    Battle::new(header).expect("a valid header")
}

/// A team list for `BattleOptions::teams` from the first seats' teams.
pub fn teams(list: &[u8]) -> Option<[u8; MAX_SEATS]> {
    let mut teams = [0; MAX_SEATS];
    teams[..list.len()].copy_from_slice(list);
    Some(teams)
}

/// No keys for anyone.
pub fn nobody() -> [SeatInput; MAX_SEATS] {
    [SeatInput::NONE; MAX_SEATS]
}

/// Keys for one seat, none for the others.
pub fn only(seat: Seat, keys: Input) -> [SeatInput; MAX_SEATS] {
    let mut inputs = nobody();
    inputs[seat.index()].keys = keys;
    inputs
}

/// Steps through the countdown and the first frame of play.
pub fn start(b: &mut Ffa) {
    while b.phase() != Phase::Playing {
        b.step(&nobody());
    }
}

/// Steps `n` frames with no keys.
pub fn idle(b: &mut Ffa, n: usize) {
    for _ in 0..n {
        b.step(&nobody());
    }
}

/// Plays a T-spin double for `seat` (4 lines as a first clear) holding `target`; returns the
/// lines each seat was sent on the lock's frame.
pub fn tsd_at(b: &mut Ffa, from: Seat, target: Option<Seat>) -> [u16; MAX_SEATS] {
    let p = b.player_mut(from);
    p.set_board(Board::from_rows(&TSD_BOARD));
    p.set_active(tsd_t());
    lock_with(b, from, Input::ROTATE_CW, target)
}

/// Plays a T-spin double for `seat`; returns the lines each seat was sent.
pub fn tsd(b: &mut Ffa, from: Seat) -> [u16; MAX_SEATS] {
    tsd_at(b, from, None)
}

/// Plays a perfect clear for `seat` (10 lines as a first clear); returns the lines each seat
/// was sent.
pub fn perfect_clear(b: &mut Ffa, from: Seat) -> [u16; MAX_SEATS] {
    let p = b.player_mut(from);
    p.set_board(Board::from_rows(&PERFECT_CLEAR_BOARD));
    p.set_active(piece(PieceKind::I, Rotation::Spawn, 7, 0));
    lock_with(b, from, Input::NONE, None)
}

/// Presses `first` (if any), then hard drops, then releases, all holding `target`; returns the
/// lines each seat was sent on the lock's frame.
fn lock_with(b: &mut Ffa, from: Seat, first: Input, target: Option<Seat>) -> [u16; MAX_SEATS] {
    let with = |keys| {
        let mut inputs = only(from, keys);
        inputs[from.index()].target = target;
        inputs
    };
    if first != Input::NONE {
        b.step(&with(first));
    }
    b.step(&with(Input::HARD_DROP));
    let sent = b.events().sent[from.index()];
    b.step(&with(Input::NONE));
    sent
}

/// Makes `victim` go out by garbage from `by`: after the garbage already sent has had time to
/// arrive, a block sits in the top row, one line from `by` is queued last, and the victim's
/// piece locks without clearing.
pub fn knock_out(b: &mut Ffa, victim: Seat, by: Seat) {
    idle(b, usize::from(b.header().rules.garbage_travel));
    let p = b.player_mut(victim);
    p.set_board(board_of([(0, 39)]));
    p.receive_from(1, 0, 0, by);
    b.step(&only(victim, Input::HARD_DROP));
    assert!(b.events().knocked_out.contains(victim), "{victim:?} is out");
    b.step(&nobody());
}

/// Blocks `seat`'s spawn: its next piece blocks out (no garbage rose, so nobody is credited).
pub fn doom(b: &mut Ffa, seat: Seat) {
    b.player_mut(seat).set_board(board_of([(4, 20)]));
}

/// The seats that were sent lines, in order.
pub fn receivers(sent: [u16; MAX_SEATS]) -> Vec<usize> {
    (0..MAX_SEATS).filter(|&i| sent[i] > 0).collect()
}
