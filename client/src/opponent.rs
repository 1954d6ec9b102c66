//! Automatic players: anything that can choose a seat's keys frame by frame.
//!
//! [`AutoPlayer`] is the one seam between the client and whatever plays automatically. Today it
//! has two implementations: [`Stacker`], a random placer that needs nothing but the views, and
//! [`BotPlayer`], which wraps `sevenbag_bot::Bot`. Choosing which one a seat gets is one line in
//! [`Opponent::player`].

use sevenbag_bot::{Bot, Level};
use sevenbag_core::{Input, Match, Phase, Seat};

/// Something that presses keys for one seat.
pub trait AutoPlayer {
    /// The keys to hold on the next simulated frame of `m` for `seat` (called once per frame).
    fn next_input(&mut self, m: &Match, seat: Seat) -> Input;
}

/// The opponent choices offered to the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// The random stacker: places pieces anywhere, at a steady pace.
    Stacker,
    /// The real bot at a difficulty level.
    Bot(Level),
}

impl Opponent {
    /// Every choice, in the order the setup screen cycles them.
    pub fn all() -> Vec<Opponent> {
        let mut v = vec![Opponent::Stacker];
        v.extend(Level::ALL.into_iter().map(Opponent::Bot));
        v
    }

    /// Its name in the settings file: "stacker" or the bot level's name.
    pub fn key(self) -> &'static str {
        match self {
            Opponent::Stacker => "stacker",
            Opponent::Bot(level) => level.name(),
        }
    }

    /// Its name on screen.
    pub fn label(self) -> String {
        match self {
            Opponent::Stacker => "Random stacker".to_owned(),
            Opponent::Bot(level) => {
                let name = level.name();
                let mut c = name.chars();
                let first = c.next().map(|f| f.to_ascii_uppercase()).unwrap_or(' ');
                format!("Bot · {first}{}", c.as_str())
            }
        }
    }

    /// A fresh player of this kind (`seed` varies the stacker's choices).
    pub fn player(self, seed: u64) -> Box<dyn AutoPlayer> {
        match self {
            Opponent::Stacker => Box::new(Stacker::new(seed, 9)),
            Opponent::Bot(level) => Box::new(BotPlayer(Bot::new(level))),
        }
    }
}

/// `sevenbag_bot::Bot` behind the [`AutoPlayer`] seam.
pub struct BotPlayer(pub Bot);

impl AutoPlayer for BotPlayer {
    fn next_input(&mut self, m: &Match, seat: Seat) -> Input {
        self.0.next_input(m, seat)
    }
}

/// A random placer: for each piece it picks a rotation and aims at one of the lowest columns,
/// then taps the keys there and hard drops. It reads only the public views (active piece, column
/// heights) and presses keys like a person; the rules stay in `sevenbag-core`.
pub struct Stacker {
    rng: u64,
    /// Frames between key taps.
    pace: u32,
    plan: Option<Plan>,
    wait: u32,
    last: Input,
}

#[derive(Clone, Copy, Debug)]
struct Plan {
    /// Which piece the plan is for: (pieces locked so far, kind, hold used).
    key: (u32, u8, bool),
    turns: u8,
    target_x: i8,
    /// Last x seen, to notice a move that hit something.
    last_x: i8,
    stuck: u8,
}

impl Stacker {
    /// A stacker whose choices come from `seed`, tapping a key every `pace` frames.
    pub fn new(seed: u64, pace: u32) -> Stacker {
        Stacker {
            rng: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
            pace: pace.max(2),
            plan: None,
            wait: 0,
            last: Input::NONE,
        }
    }

    fn next_u32(&mut self) -> u32 {
        // xorshift64*: plenty for choosing columns.
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        (self.rng.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32) as u32
    }

    fn below(&mut self, n: u32) -> u32 {
        self.next_u32() % n.max(1)
    }
}

impl AutoPlayer for Stacker {
    fn next_input(&mut self, m: &Match, seat: Seat) -> Input {
        let p = m.player(seat);
        let out = match (m.phase(), p.active()) {
            (Phase::Playing, Some(piece)) => {
                let key = (p.stats().pieces, piece.kind.index() as u8, p.hold_used());
                if self.plan.is_none_or(|plan| plan.key != key) {
                    let board = p.board();
                    let lowest = (0..10).map(|x| board.column_height(x)).min().unwrap_or(0);
                    let low: Vec<i8> = (0..10)
                        .filter(|&x| board.column_height(x) <= lowest + 1)
                        .collect();
                    let target_x = low[self.below(low.len() as u32) as usize];
                    self.plan = Some(Plan {
                        key,
                        turns: self.below(4) as u8,
                        target_x,
                        last_x: piece.x,
                        stuck: 0,
                    });
                    self.wait = self.pace;
                }
                if self.wait > 0 || !self.last.is_empty() {
                    // Think, or release the key tapped last frame so the next tap is a new press.
                    self.wait = self.wait.saturating_sub(1);
                    Input::NONE
                } else if let Some(plan) = &mut self.plan {
                    self.wait = self.pace / 2;
                    if plan.turns > 0 {
                        plan.turns -= 1;
                        Input::ROTATE_CW
                    } else if piece.x != plan.target_x && plan.stuck < 2 {
                        if piece.x == plan.last_x {
                            plan.stuck += 1;
                        }
                        plan.last_x = piece.x;
                        if piece.x < plan.target_x {
                            Input::RIGHT
                        } else {
                            Input::LEFT
                        }
                    } else {
                        Input::HARD_DROP
                    }
                } else {
                    Input::NONE
                }
            }
            _ => {
                self.plan = None;
                Input::NONE
            }
        };
        self.last = out;
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sevenbag_core::MatchHeader;

    #[test]
    fn two_stackers_fill_both_boards() {
        let mut m = Match::new(MatchHeader::versus(7));
        let mut a = Stacker::new(1, 6);
        let mut b = Stacker::new(2, 6);
        for _ in 0..900 {
            let inputs = [
                a.next_input(&m, Seat::First),
                b.next_input(&m, Seat::Second),
            ];
            m.step(inputs);
        }
        for seat in Seat::BOTH {
            assert!(
                m.player(seat).stats().pieces >= 15,
                "{seat:?} placed only {}",
                m.player(seat).stats().pieces
            );
        }
    }

    #[test]
    fn labels() {
        assert_eq!(Opponent::Bot(Level::Medium).label(), "Bot · Medium");
        assert_eq!(Opponent::all().len(), 6);
    }
}
