//! Automatic players as the sessions see them: a seat's keys chosen frame by frame
//! ([`AutoPlayer`]) from what it sees of its seat ([`SeatView`]). The players themselves (the
//! stacker, the bots, outside bots) are `crate::opponent`'s.

use sevenbag_core::{Battle, Input, Match, Phase, Player, Rules, Seat};

/// What an automatic player sees of its seat: the match's phase, the seat's board, the rules
/// and the frame about to be simulated. Made from a two-seat [`Match`] or from one seat of a
/// [`Battle`] of any size, so one driver plays versus and free-for-all alike.
#[derive(Clone, Copy, Debug)]
pub struct SeatView<'a> {
    /// Where the match stands (who won is not the player's business).
    pub phase: Phase<()>,
    /// The seat's board and piece.
    pub player: &'a Player,
    /// The match's rules.
    pub rules: &'a Rules,
    /// The frame about to be simulated.
    pub frame: u32,
}

impl<'a> SeatView<'a> {
    /// `seat` of a versus match.
    pub fn of_match(m: &'a Match, seat: Seat) -> SeatView<'a> {
        SeatView::of_battle(m.battle(), seat)
    }

    /// `seat` of a match of any size.
    pub fn of_battle<const CAP: usize>(b: &'a Battle<CAP>, seat: Seat) -> SeatView<'a> {
        SeatView {
            phase: b.phase().map(|_| ()),
            player: b.player(seat),
            rules: &b.header().rules,
            frame: b.frame().0,
        }
    }
}

/// Something that presses keys for one seat.
pub trait AutoPlayer {
    /// The keys to hold on the next simulated frame for the seat `view` shows (called once
    /// per frame).
    fn next_for(&mut self, view: SeatView<'_>) -> Input;

    /// The keys to hold on the next simulated frame of `m` for `seat` (called once per frame).
    fn next_input(&mut self, m: &Match, seat: Seat) -> Input {
        self.next_for(SeatView::of_match(m, seat))
    }

    /// Why it stopped playing (an outside bot that died or misbehaved), once it has.
    fn failure(&self) -> Option<String> {
        None
    }

    /// The match jumped to another position (a practice undo or redo): forget any plan and
    /// answer still on its way, and plan afresh from the next position seen.
    fn resync(&mut self) {}
}
