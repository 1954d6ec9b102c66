//! A two-player versus match: both boards, the garbage between them, rounds and the result.

use serde::{Deserialize, Serialize};

use crate::hash::StateHasher;
use crate::input::Input;
use crate::player::{Player, StepContext};
use crate::rules::MatchHeader;

/// A frame number of a match (60 per second, from 0).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct Frame(pub u32);

/// One of the two players of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Seat {
    /// The first player (seat 0).
    First,
    /// The second player (seat 1).
    Second,
}

impl Seat {
    /// Both seats in order.
    pub const BOTH: [Seat; 2] = [Seat::First, Seat::Second];

    /// 0 or 1.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The seat with index `i` (0 or 1).
    pub const fn from_index(i: usize) -> Option<Seat> {
        match i {
            0 => Some(Seat::First),
            1 => Some(Seat::Second),
            _ => None,
        }
    }

    /// The opponent's seat.
    pub const fn other(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
    }
}

/// Where a match stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase {
    /// "3, 2, 1": play begins at frame `go_at`.
    Countdown {
        /// The first frame of play.
        go_at: u32,
    },
    /// Both boards are live.
    Playing,
    /// A round just ended; the next countdown starts at `next_at`.
    RoundOver {
        /// Who won the round (`None` when both topped out on the same frame).
        winner: Option<Seat>,
        /// Frame the next round's countdown starts.
        next_at: u32,
    },
    /// The match is decided.
    MatchOver {
        /// The match winner.
        winner: Seat,
    },
}

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

/// The whole state of a versus match. A snapshot for rollback is a `clone()`: the type is `Copy`
/// in all but name, with no heap data.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Match {
    header: MatchHeader,
    frame: Frame,
    phase: Phase,
    round: u32,
    play_start: u32,
    wins: [u8; 2],
    players: [Player; 2],
    events: MatchEvents,
}

impl Match {
    /// A match at frame 0, in the first round's countdown.
    pub fn new(header: MatchHeader) -> Match {
        Match {
            header,
            frame: Frame(0),
            phase: Phase::Countdown {
                go_at: u32::from(header.rules.countdown_frames),
            },
            round: 0,
            play_start: 0,
            wins: [0; 2],
            players: Self::fresh_players(&header, 0),
            events: MatchEvents::default(),
        }
    }

    fn fresh_players(header: &MatchHeader, round: u32) -> [Player; 2] {
        let r = &header.rules;
        [
            Player::new(r, header.handling[0], header.seed, round, 0),
            Player::new(r, header.handling[1], header.seed, round, 1),
        ]
    }

    /// The header this match was built from.
    pub fn header(&self) -> &MatchHeader {
        &self.header
    }

    /// The next frame to be simulated (frames simulated so far).
    pub fn frame(&self) -> Frame {
        self.frame
    }

    /// Where the match stands.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The current round, from 0.
    pub fn round(&self) -> u32 {
        self.round
    }

    /// Rounds won by each seat.
    pub fn wins(&self) -> [u8; 2] {
        self.wins
    }

    /// The board of `seat`, read-only.
    pub fn player(&self, seat: Seat) -> &Player {
        &self.players[seat.index()]
    }

    /// What the match did during the last frame.
    pub fn events(&self) -> &MatchEvents {
        &self.events
    }

    /// The winner, once the match is over.
    pub fn winner(&self) -> Option<Seat> {
        match self.phase {
            Phase::MatchOver { winner } => Some(winner),
            _ => None,
        }
    }

    /// Frames of play left in the countdown, if one is running.
    pub fn countdown_left(&self) -> Option<u32> {
        match self.phase {
            Phase::Countdown { go_at } => Some(go_at.saturating_sub(self.frame.0)),
            _ => None,
        }
    }

    /// Incoming garbage lines of `seat`: (queued in total, ready to rise now).
    pub fn incoming(&self, seat: Seat) -> (u32, u32) {
        let g = self.player(seat).garbage();
        (g.total(), g.ready(self.frame.0))
    }

    /// Simulates one frame with both players' held keys.
    pub fn step(&mut self, inputs: [Input; 2]) {
        let f = self.frame.0;
        self.events = MatchEvents::default();
        match self.phase {
            Phase::Countdown { go_at } if f < go_at => {
                for (p, input) in self.players.iter_mut().zip(inputs) {
                    p.countdown(input);
                }
            }
            Phase::Countdown { .. } => {
                self.phase = Phase::Playing;
                self.play_start = f;
                self.events.go = true;
                self.play(inputs);
            }
            Phase::Playing => self.play(inputs),
            Phase::RoundOver { next_at, .. } if f >= next_at => {
                self.round += 1;
                self.players = Self::fresh_players(&self.header, self.round);
                let go_at = f + u32::from(self.header.rules.countdown_frames);
                self.phase = Phase::Countdown { go_at };
                self.events.new_round = true;
                self.idle(inputs);
            }
            Phase::RoundOver { .. } | Phase::MatchOver { .. } => self.idle(inputs),
        }
        self.frame = Frame(f + 1);
    }

    fn idle(&mut self, inputs: [Input; 2]) {
        for (p, input) in self.players.iter_mut().zip(inputs) {
            p.idle(input);
        }
    }

    fn play(&mut self, inputs: [Input; 2]) {
        let f = self.frame.0;
        let ctx = StepContext {
            rules: &self.header.rules,
            frame: f,
            play_frame: f - self.play_start,
        };
        for (p, input) in self.players.iter_mut().zip(inputs) {
            p.step(input, ctx);
        }
        let travel = self.header.rules.garbage_travel;
        let sent = [self.players[0].outgoing(), self.players[1].outgoing()];
        self.players[1].receive(sent[0], f, travel);
        self.players[0].receive(sent[1], f, travel);
        let lost = [
            self.players[0].topped_out().is_some(),
            self.players[1].topped_out().is_some(),
        ];
        let winner = match lost {
            [false, false] => return,
            [true, true] => None,
            [true, false] => Some(Seat::Second),
            [false, true] => Some(Seat::First),
        };
        self.events.round_over = Some(winner);
        if let Some(w) = winner {
            self.wins[w.index()] += 1;
            if self.wins[w.index()] >= self.header.rules.first_to {
                self.phase = Phase::MatchOver { winner: w };
                self.events.match_over = Some(w);
                return;
            }
        }
        let next_at = f + 1 + u32::from(self.header.rules.round_break_frames);
        self.phase = Phase::RoundOver { winner, next_at };
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
    /// counts are not hashed). Per-frame events are not hashed.
    pub fn state_hash(&self) -> u64 {
        let mut h = StateHasher::new();
        h.u32(self.frame.0);
        let seat_byte = |s: Option<Seat>| s.map_or(2, |s| s.index() as u8);
        match self.phase {
            Phase::Countdown { go_at } => {
                h.u8(0);
                h.u32(go_at);
            }
            Phase::Playing => h.u8(1),
            Phase::RoundOver { winner, next_at } => {
                h.u8(2);
                h.u8(seat_byte(winner));
                h.u32(next_at);
            }
            Phase::MatchOver { winner } => {
                h.u8(3);
                h.u8(seat_byte(Some(winner)));
            }
        }
        h.u32(self.round);
        h.u32(self.play_start);
        h.u8(self.wins[0]);
        h.u8(self.wins[1]);
        for p in &self.players {
            p.write_canonical(&mut h);
        }
        h.finish()
    }

    /// Test and tool hook: mutable access to a player's board and piece.
    pub fn player_mut(&mut self, seat: Seat) -> &mut Player {
        &mut self.players[seat.index()]
    }
}
