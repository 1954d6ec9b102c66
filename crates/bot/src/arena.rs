//! Bot games without a screen: versus matches between two bots on a real [`Match`], and solo
//! games on a lone [`Player`]. The tool's `botmatch`, the tests and the benchmarks use these.

use sevenbag_core::{Handling, Input, Match, MatchHeader, Player, Rules, Seat, StepContext};

use crate::bot::Bot;

/// Something that plays a seat of a [`Match`] one frame at a time: our [`Bot`], or an outside
/// bot behind an adapter (the `sevenbag-tbp` crate's TBP player).
pub trait Driver {
    /// The keys to hold on the next frame for `seat` of `m`.
    fn next_input(&mut self, m: &Match, seat: Seat) -> Input;

    /// Why the driver stopped playing, when it failed and the game should stop (an outside
    /// bot died or misbehaved).
    fn failure(&self) -> Option<String> {
        None
    }

    /// The name an outside bot gave itself.
    fn name(&self) -> Option<String> {
        None
    }
}

impl Driver for Bot {
    fn next_input(&mut self, m: &Match, seat: Seat) -> Input {
        Bot::next_input(self, m, seat)
    }
}

/// The outcome of one versus game (one round, first to 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameReport {
    /// The winner; `None` when the piece limit ended the game first (or both topped out).
    pub winner: Option<Seat>,
    /// Pieces placed by each seat.
    pub pieces: [u32; 2],
    /// Lines of attack produced by each seat (before cancelling).
    pub attack: [u32; 2],
    /// Lines cleared by each seat.
    pub lines: [u32; 2],
    /// Frames of play.
    pub frames: u32,
    /// Which seats topped out.
    pub topped_out: [bool; 2],
}

/// Plays one game between `first` (seat 0) and `second` (seat 1) under `header` (its
/// `first_to` is set to 1), until someone tops out or a seat has placed `max_pieces` pieces.
pub fn play_game(
    first: &mut dyn Driver,
    second: &mut dyn Driver,
    mut header: MatchHeader,
    max_pieces: u32,
) -> GameReport {
    header.rules.first_to = 1;
    let mut m = Match::new(header);
    let frame_limit = u32::from(header.rules.countdown_frames) + max_pieces.saturating_mul(600);
    while m.winner().is_none() && m.frame().0 < frame_limit {
        let pieces = Seat::BOTH.map(|s| m.player(s).stats().pieces);
        if pieces.iter().any(|&p| p >= max_pieces)
            || first.failure().is_some()
            || second.failure().is_some()
        {
            break;
        }
        let inputs = [
            first.next_input(&m, Seat::First),
            second.next_input(&m, Seat::Second),
        ];
        m.step(inputs);
        if matches!(m.events().round_over, Some(None)) {
            break;
        }
    }
    let stats = Seat::BOTH.map(|s| *m.player(s).stats());
    GameReport {
        winner: m.winner(),
        pieces: stats.map(|s| s.pieces),
        attack: stats.map(|s| s.attack),
        lines: stats.map(|s| s.lines),
        frames: stats[0].frames.max(stats[1].frames),
        topped_out: Seat::BOTH.map(|s| m.player(s).topped_out().is_some()),
    }
}

/// The outcome of a solo game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SoloReport {
    /// Pieces placed.
    pub pieces: u32,
    /// Lines cleared.
    pub lines: u32,
    /// Lines of attack produced.
    pub attack: u32,
    /// Frames played.
    pub frames: u32,
    /// Whether the bot topped out.
    pub topped_out: bool,
    /// Highest stack seen after a lock.
    pub max_height: i8,
}

/// Plays a solo game (no garbage) of up to `pieces` pieces on seed `seed`.
pub fn play_solo(
    bot: &mut Bot,
    rules: &Rules,
    handling: Handling,
    seed: u64,
    pieces: u32,
) -> SoloReport {
    let mut player = Player::new(rules, handling, seed, 0, 0);
    let mut report = SoloReport::default();
    let mut frame = 0u32;
    let frame_limit = pieces.saturating_mul(600);
    while player.stats().pieces < pieces && player.topped_out().is_none() && frame < frame_limit {
        let input: Input = bot.next_input_for(&player, rules, frame);
        let ctx = StepContext {
            rules,
            frame,
            play_frame: frame,
        };
        player.step(input, ctx);
        if player.events().locked.is_some() {
            report.max_height = report.max_height.max(player.board().stack_height());
        }
        frame += 1;
    }
    let s = player.stats();
    report.pieces = s.pieces;
    report.lines = s.lines;
    report.attack = s.attack;
    report.frames = s.frames;
    report.topped_out = player.topped_out().is_some();
    report
}
