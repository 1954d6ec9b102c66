//! Difficulty levels: a pieces-per-second cap and a search budget for each.

use sevenbag_core::Handling;

use crate::eval::Weights;
use crate::search::Budget;

/// The handling a bot plays best with: short DAS, instant auto-repeat and instant soft drop, so
/// its speed is set by its level's cap rather than by key repeat. Clients that add a bot to a
/// match may put this in the header for the bot's seat; any other handling works too.
pub const BOT_HANDLING: Handling = Handling {
    das: 6,
    arr: 0,
    dcd: 0,
    sdf: 0,
    irs: true,
    ihs: true,
};

/// How strong and how fast the bot plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// The El-Tetris baseline at half a piece a second: a first opponent.
    Beginner,
    /// A casual player's pace, two pieces of look-ahead.
    Easy,
    /// A club player's pace, a narrow search of the queue.
    Medium,
    /// Two and a half pieces a second, a wide search of the whole queue.
    Hard,
    /// Four pieces a second, the widest beam: 96 played 0.024 attack per piece above 32 against
    /// El-Tetris on 3,000 fresh games (BENCHMARKS.md).
    Max,
}

/// What a bot does each piece: how it chooses, and how fast it may play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BotConfig {
    /// The chooser.
    pub planner: Planner,
    /// Evaluation weights for the search planner.
    pub weights: Weights,
    /// Pieces per second ×100 at most (`None`: as fast as the inputs allow).
    pub pps_cap_x100: Option<u32>,
}

/// How the bot chooses a placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Planner {
    /// Beam search over the queue with the bot's evaluation.
    Search(Budget),
    /// The El-Tetris baseline: greedy, no hold, hard drops only.
    ElTetris,
}

impl BotConfig {
    /// Fewest frames from one spawn to the next that respects the pieces-per-second cap.
    pub fn min_frames_per_piece(&self) -> u32 {
        match self.pps_cap_x100 {
            Some(pps) if pps > 0 => 6000u32.div_ceil(pps),
            _ => 0,
        }
    }
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 5] = [
        Level::Beginner,
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Max,
    ];

    /// The level's name as typed by users ("beginner", "easy", "medium", "hard", "max").
    pub const fn name(self) -> &'static str {
        match self {
            Level::Beginner => "beginner",
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Max => "max",
        }
    }

    /// The level called `name` (case-insensitive).
    pub fn from_name(name: &str) -> Option<Level> {
        Self::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(name))
    }

    /// The speed cap, planner and weights of the level.
    ///
    /// Beginner is the El-Tetris baseline at half a piece a second: it survives for ever and
    /// hardly attacks. (A one-piece greedy search with the versus weights refuses plain clears
    /// and topped out within 250 pieces on every seed tried.) Easy searches two pieces with the
    /// [`Weights::DEFENSIVE`] set; Medium and up use [`Weights::DEFAULT`].
    pub const fn config(self) -> BotConfig {
        let (beam, depth, pps) = match self {
            Level::Beginner => {
                return BotConfig {
                    planner: Planner::ElTetris,
                    weights: Weights::DEFENSIVE,
                    pps_cap_x100: Some(50),
                };
            }
            Level::Easy => (4, 2, Some(100)),
            Level::Medium => (12, 4, Some(150)),
            Level::Hard => (32, 6, Some(250)),
            Level::Max => (96, 6, Some(400)),
        };
        let weights = match self {
            Level::Easy => Weights::DEFENSIVE,
            _ => Weights::DEFAULT,
        };
        BotConfig {
            planner: Planner::Search(Budget { beam, depth }),
            weights,
            pps_cap_x100: pps,
        }
    }
}
