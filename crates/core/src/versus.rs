//! A two-seat versus match: both boards, the garbage between them, rounds and the result.
//!
//! `Match` is the two-seat face of [`Battle`]: one set of rules plays every seat count, and a
//! two-seat [`Battle`] with the default options is exactly the versus match of SPEC §5.

use crate::battle::{Battle, BattleHeader, SeatInput};
use crate::input::Input;
use crate::player::Player;
use crate::rules::MatchHeader;
use crate::seat::{Seat, Team};

pub use crate::phase::{Frame, Phase};

/// What the match as a whole did during the last frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MatchEvents {
    /// Play began (end of a countdown).
    pub go: bool,
    /// A round ended with this winner (`Some(None)` for a draw).
    pub round_over: Option<Option<Seat>>,
    /// The match ended with this winner.
    pub match_over: Option<Seat>,
    /// A new round's countdown began.
    pub new_round: bool,
}

/// In a two-seat match each seat is its own team, numbered as the seat.
fn seat_of(team: Team) -> Seat {
    Seat::raw(team.index() as u8)
}

/// The whole state of a versus match. A snapshot for rollback is a `clone()`: the type is `Copy`
/// in all but name, with no heap data.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Match {
    header: MatchHeader,
    battle: Battle<2>,
    events: MatchEvents,
}

impl Match {
    /// A match at frame 0, in the first round's countdown.
    pub fn new(header: MatchHeader) -> Match {
        Match {
            header,
            battle: Battle::two_seats(BattleHeader::versus(&header)),
            events: MatchEvents::default(),
        }
    }

    /// The header this match was built from.
    pub fn header(&self) -> &MatchHeader {
        &self.header
    }

    /// The same match seen as a match of any seat count: knock-outs, placements, per-seat
    /// hashes.
    pub fn battle(&self) -> &Battle<2> {
        &self.battle
    }

    /// The next frame to be simulated (frames simulated so far).
    pub fn frame(&self) -> Frame {
        self.battle.frame()
    }

    /// Where the match stands.
    pub fn phase(&self) -> Phase {
        self.battle.phase().map(seat_of)
    }

    /// The current round, from 0.
    pub fn round(&self) -> u32 {
        self.battle.round()
    }

    /// Rounds won by each seat.
    pub fn wins(&self) -> [u8; 2] {
        let w = self.battle.wins();
        [w[0], w[1]]
    }

    /// The board of `seat`, read-only.
    pub fn player(&self, seat: Seat) -> &Player {
        self.battle.player(seat)
    }

    /// What the match did during the last frame.
    pub fn events(&self) -> &MatchEvents {
        &self.events
    }

    /// The winner, once the match is over.
    pub fn winner(&self) -> Option<Seat> {
        self.battle.winner().map(seat_of)
    }

    /// Frames of play left in the countdown, if one is running.
    pub fn countdown_left(&self) -> Option<u32> {
        self.battle.countdown_left()
    }

    /// Incoming garbage lines of `seat`: (queued in total, ready to rise now).
    pub fn incoming(&self, seat: Seat) -> (u32, u32) {
        self.battle.incoming(seat)
    }

    /// Simulates one frame with both players' held keys.
    pub fn step(&mut self, inputs: [Input; 2]) {
        self.battle.step(&inputs.map(SeatInput::from));
        let e = self.battle.events();
        self.events = MatchEvents {
            go: e.go,
            round_over: e.round_over.map(|w| w.map(seat_of)),
            match_over: e.match_over.map(seat_of),
            new_round: e.new_round,
        };
    }

    /// The state hash: FNV-1a 64 (see [`crate::hash`]) over these canonical bytes, in order:
    /// frame (u32); phase tag (u8: 0 countdown, 1 playing, 2 round over, 3 match over) and its
    /// data (go_at u32 | winner u8 (0, 1, 2 = none) and next_at u32 | winner u8); round (u32);
    /// play start (u32); wins (2 × u8); then each player: 40 colour rows (u64, 4 bits a cell,
    /// 0 empty, 1..=7 piece I O T S Z J L, 8 garbage), active piece, hold, hold used, queue
    /// (randomizer, stream position, buffered pieces, history), garbage (entries, stream
    /// position), combo, back-to-back, last keys, auto-shift state, gravity, lock timer, ground
    /// moves, spin kick, top out, and the stats counters pieces, lines, attack, sent, garbage
    /// received, garbage cleared and frames (u32 each; max combo, T-spin, quad and perfect-clear
    /// counts are not hashed). Per-frame events are not hashed. (It is
    /// [`Battle::state_hash`] of two seats.)
    pub fn state_hash(&self) -> u64 {
        self.battle.state_hash()
    }

    /// Test and tool hook: mutable access to a player's board and piece.
    pub fn player_mut(&mut self, seat: Seat) -> &mut Player {
        self.battle.player_mut(seat)
    }
}
