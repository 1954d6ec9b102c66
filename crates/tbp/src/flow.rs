//! What the frontend tells a TBP bot before asking about a piece.
//!
//! The protocol's flow is `start` once, then per piece `play` (the move the frontend made) and
//! `new_piece` (each piece that joined the queue); an asynchronous bot such as Cold Clear 2 keeps
//! its search between pieces. The frontend sends `stop` and a fresh `start` only when the game
//! no longer matches the bot's picture of it: garbage rose, the board, hold or queue differ, or
//! the combo or back-to-back the bot worked out from its own move is not the real one.
//! [`Restart::EveryPiece`] restarts at every piece instead (the bot loses its search each time).

use sevenbag_core::PieceKind;

use crate::convert::{ROWS, combo_to_tbp};
use crate::game::TbpGame;

/// When the frontend restarts a bot with `stop` + `start`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Restart {
    /// TBP's standard flow: `start` once, `play` + `new_piece` per piece, a restart only when
    /// the game no longer matches the bot's picture.
    #[default]
    OnMismatch,
    /// `stop` + `start` at every piece.
    EveryPiece,
}

impl Restart {
    /// Both, in the order the command line lists them.
    pub const ALL: [Restart; 2] = [Restart::OnMismatch, Restart::EveryPiece];

    /// The command-line name: `on-mismatch` or `every-piece`.
    pub fn name(self) -> &'static str {
        match self {
            Restart::OnMismatch => "on-mismatch",
            Restart::EveryPiece => "every-piece",
        }
    }

    /// The policy called `name`.
    pub fn from_name(name: &str) -> Option<Restart> {
        Restart::ALL.into_iter().find(|r| r.name() == name)
    }

    /// How tables and logs name the flow.
    pub fn describe(self) -> &'static str {
        match self {
            Restart::OnMismatch => {
                "standard (start once, then play + new_piece; stop + start on a mismatch)"
            }
            Restart::EveryPiece => "restart every piece (stop + start before every piece)",
        }
    }
}

/// Why the game no longer matches the bot's picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mismatch {
    /// Garbage rose since the bot was last told about the board.
    Garbage,
    /// The board differs otherwise (our placement was not the bot's, say).
    Board,
    /// The hold slot differs.
    Hold,
    /// The queue is not the bot's queue followed by new pieces.
    Queue,
    /// Combo or back-to-back differ (the bot judged its move's spin differently).
    Chain,
}

impl Mismatch {
    /// All of them, in the order [`FlowCounts`] keeps them.
    pub const ALL: [Mismatch; 5] = [
        Mismatch::Garbage,
        Mismatch::Board,
        Mismatch::Hold,
        Mismatch::Queue,
        Mismatch::Chain,
    ];

    /// A short name for logs.
    pub fn name(self) -> &'static str {
        match self {
            Mismatch::Garbage => "garbage",
            Mismatch::Board => "board",
            Mismatch::Hold => "hold",
            Mismatch::Queue => "queue",
            Mismatch::Chain => "chain",
        }
    }
}

/// What to send before asking about the current piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// The first `start` of the game.
    Start,
    /// `stop` + `start`: for this reason, or (`None`) because every piece restarts.
    Restart(Option<Mismatch>),
    /// The picture still holds: send these pieces as `new_piece`, in order.
    Continue(Vec<PieceKind>),
}

/// Decides the step for the game as it is (`now`), given the bot's picture (`told`, `None`
/// before the first start) and whether garbage rose since the bot was last told.
pub fn step(told: Option<&TbpGame>, now: &TbpGame, garbage_rose: bool, policy: Restart) -> Step {
    let Some(told) = told else {
        return Step::Start;
    };
    if policy == Restart::EveryPiece {
        return Step::Restart(None);
    }
    match mismatch(told, now, garbage_rose) {
        Some(why) => Step::Restart(Some(why)),
        None => Step::Continue(now.queue[told.queue.len()..].to_vec()),
    }
}

/// Where the game differs from the picture; the board first, so risen garbage is named as such.
fn mismatch(told: &TbpGame, now: &TbpGame, garbage_rose: bool) -> Option<Mismatch> {
    let rows = 0..ROWS as i8;
    if rows
        .into_iter()
        .any(|y| told.board.row(y) != now.board.row(y))
    {
        return Some(if garbage_rose {
            Mismatch::Garbage
        } else {
            Mismatch::Board
        });
    }
    if told.hold != now.hold {
        return Some(Mismatch::Hold);
    }
    if !now.queue.starts_with(&told.queue) {
        return Some(Mismatch::Queue);
    }
    let chain = |g: &TbpGame| (combo_to_tbp(&g.chain), g.chain.b2b > 0);
    if chain(told) != chain(now) {
        return Some(Mismatch::Chain);
    }
    None
}

/// The messages of a flow, counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlowCounts {
    /// First `start`s (one a game).
    pub starts: u64,
    /// `stop` + `start` for a mismatch, by [`Mismatch::ALL`]'s order.
    pub restarts: [u64; 5],
    /// `stop` + `start` because every piece restarts.
    pub every_piece: u64,
    /// `play` messages.
    pub plays: u64,
    /// `new_piece` messages.
    pub new_pieces: u64,
}

impl FlowCounts {
    /// Counts the messages of `step`.
    pub fn record(&mut self, step: &Step) {
        match step {
            Step::Start => self.starts += 1,
            Step::Restart(None) => self.every_piece += 1,
            Step::Restart(Some(why)) => self.restarts[*why as usize] += 1,
            Step::Continue(pieces) => self.new_pieces += pieces.len() as u64,
        }
    }

    /// All restarts, whatever the reason.
    pub fn total_restarts(&self) -> u64 {
        self.restarts.iter().sum::<u64>() + self.every_piece
    }

    /// Adds another game's counts.
    pub fn add(&mut self, other: &FlowCounts) {
        self.starts += other.starts;
        for (a, b) in self.restarts.iter_mut().zip(other.restarts) {
            *a += b;
        }
        self.every_piece += other.every_piece;
        self.plays += other.plays;
        self.new_pieces += other.new_pieces;
    }

    /// One line for logs: `starts 1, restarts 3 (garbage 3), plays 120, new_piece 119`.
    pub fn summary(&self) -> String {
        let reasons: Vec<String> = Mismatch::ALL
            .iter()
            .zip(self.restarts)
            .filter(|(_, n)| *n > 0)
            .map(|(m, n)| format!("{} {n}", m.name()))
            .chain((self.every_piece > 0).then(|| format!("every piece {}", self.every_piece)))
            .collect();
        let why = if reasons.is_empty() {
            String::new()
        } else {
            format!(" ({})", reasons.join(", "))
        };
        format!(
            "starts {}, restarts {}{why}, plays {}, new_piece {}",
            self.starts,
            self.total_restarts(),
            self.plays,
            self.new_pieces
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use PieceKind::*;
    use sevenbag_core::attack::Chain;
    use sevenbag_core::{Board, CellKind};

    fn game(queue: &[PieceKind]) -> TbpGame {
        TbpGame {
            board: Board::from_rows(&["#####.####"]),
            queue: queue.to_vec(),
            hold: Some(I),
            chain: Chain::default(),
            bag_left: None,
        }
    }

    #[test]
    fn the_first_piece_starts_the_bot() {
        let now = game(&[T, O, S]);
        assert_eq!(step(None, &now, false, Restart::OnMismatch), Step::Start);
        assert_eq!(step(None, &now, false, Restart::EveryPiece), Step::Start);
    }

    #[test]
    fn a_matching_game_sends_only_the_new_pieces() {
        let told = game(&[T, O]);
        let now = game(&[T, O, S, Z]);
        let s = step(Some(&told), &now, false, Restart::OnMismatch);
        assert_eq!(s, Step::Continue(vec![S, Z]));
    }

    #[test]
    fn risen_garbage_restarts_the_bot() {
        let told = game(&[T, O]);
        let mut now = game(&[T, O, S]);
        now.board.push_garbage(1, 3);
        let s = step(Some(&told), &now, true, Restart::OnMismatch);
        assert_eq!(s, Step::Restart(Some(Mismatch::Garbage)));
    }

    #[test]
    fn a_board_that_differs_without_garbage_is_a_board_mismatch() {
        let told = game(&[T, O]);
        let mut now = game(&[T, O, S]);
        now.board.set(0, 5, CellKind::Garbage);
        let s = step(Some(&told), &now, false, Restart::OnMismatch);
        assert_eq!(s, Step::Restart(Some(Mismatch::Board)));
    }

    #[test]
    fn another_hold_piece_restarts_the_bot() {
        let told = game(&[T, O]);
        let mut now = game(&[T, O, S]);
        now.hold = Some(L);
        let s = step(Some(&told), &now, false, Restart::OnMismatch);
        assert_eq!(s, Step::Restart(Some(Mismatch::Hold)));
    }

    #[test]
    fn a_spawned_piece_that_contradicts_the_queue_restarts_the_bot() {
        let told = game(&[T, O]);
        let now = game(&[O, T, S]);
        let s = step(Some(&told), &now, false, Restart::OnMismatch);
        assert_eq!(s, Step::Restart(Some(Mismatch::Queue)));
        // A queue shorter than the bot's is no continuation either.
        let s = step(Some(&told), &game(&[T]), false, Restart::OnMismatch);
        assert_eq!(s, Step::Restart(Some(Mismatch::Queue)));
    }

    #[test]
    fn another_back_to_back_restarts_the_bot() {
        let told = game(&[T, O]);
        let mut now = game(&[T, O, S]);
        now.chain.b2b = 1;
        let s = step(Some(&told), &now, false, Restart::OnMismatch);
        assert_eq!(s, Step::Restart(Some(Mismatch::Chain)));
    }

    #[test]
    fn every_piece_restarts_even_a_matching_game() {
        let told = game(&[T, O]);
        let now = game(&[T, O, S]);
        let s = step(Some(&told), &now, false, Restart::EveryPiece);
        assert_eq!(s, Step::Restart(None));
    }

    #[test]
    fn counts_name_the_reasons_of_restarts() {
        let mut c = FlowCounts::default();
        c.record(&Step::Start);
        c.record(&Step::Continue(vec![S]));
        c.record(&Step::Restart(Some(Mismatch::Garbage)));
        c.plays = 2;
        assert_eq!(
            c.summary(),
            "starts 1, restarts 1 (garbage 1), plays 2, new_piece 1"
        );
        assert_eq!(Restart::from_name("every-piece"), Some(Restart::EveryPiece));
        assert_eq!(Restart::from_name("sometimes"), None);
    }
}
