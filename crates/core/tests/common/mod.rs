//! Shared helpers for the core's integration tests: a one-board harness ([`Solo`]), match
//! helpers, named boards, the `sim` script format ([`script`]), helpers for matches of more
//! than two seats ([`battle`]) and a cheap bot for them ([`stacker`]).
//!
//! Each test binary uses a different subset, hence the `dead_code` allowance.
#![allow(dead_code)]

pub mod battle;
pub mod script;
pub mod stacker;
pub mod tapes;

use sevenbag_core::{
    Board, Handling, Input, Match, MatchHeader, Phase, Piece, PieceKind, Player, PlayerEvents,
    Rotation, Rules, Seat, StepContext,
};

/// Versus rules with gravity switched off, so a piece stays where a test puts it.
pub fn still_rules() -> Rules {
    Rules {
        gravity: 0,
        gravity_rise_per_second: 0,
        ..Rules::versus()
    }
}

/// A piece of `kind` in `rotation` with its rotation centre at (x, y).
pub fn piece(kind: PieceKind, rotation: Rotation, x: i8, y: i8) -> Piece {
    Piece {
        kind,
        rotation,
        x,
        y,
    }
}

/// The piece's cells, sorted, to compare shapes regardless of rotation state.
pub fn sorted_cells(p: &Piece) -> Vec<(i8, i8)> {
    let mut cells = p.cells().to_vec();
    cells.sort();
    cells
}

/// One board stepped frame by frame outside a match.
pub struct Solo {
    /// The rules every step uses.
    pub rules: Rules,
    /// The board under test.
    pub player: Player,
    /// The next frame number to simulate.
    pub frame: u32,
}

impl Solo {
    /// A board with these rules and handling; seed 0, round 0, seat 0.
    pub fn new(rules: Rules, handling: Handling) -> Solo {
        Solo {
            rules,
            player: Player::new(&rules, handling, 0, 0, 0),
            frame: 0,
        }
    }

    /// Versus rules and default handling.
    pub fn versus() -> Solo {
        Solo::new(Rules::versus(), Handling::default())
    }

    /// Versus rules without gravity, default handling.
    pub fn still() -> Solo {
        Solo::new(still_rules(), Handling::default())
    }

    /// Versus rules without gravity and this handling.
    pub fn still_with(handling: Handling) -> Solo {
        Solo::new(still_rules(), handling)
    }

    /// Replaces the board with text rows (top line first, last line is row 0).
    pub fn with_board(mut self, rows: &[&str]) -> Solo {
        self.player.set_board(Board::from_rows(rows));
        self
    }

    /// Replaces the board.
    pub fn set_board(&mut self, rows: &[&str]) {
        self.player.set_board(Board::from_rows(rows));
    }

    /// Puts a piece in play as if it had just spawned there.
    pub fn put(&mut self, kind: PieceKind, rotation: Rotation, x: i8, y: i8) {
        self.player.set_active(piece(kind, rotation, x, y));
    }

    /// Simulates one frame with `input` held; returns that frame's events.
    pub fn step(&mut self, input: Input) -> PlayerEvents {
        let ctx = StepContext {
            rules: &self.rules,
            frame: self.frame,
            play_frame: self.frame,
        };
        self.player.step(input, ctx);
        self.frame += 1;
        *self.player.events()
    }

    /// Simulates `n` frames with `input` held; returns each frame's events.
    pub fn steps(&mut self, input: Input, n: usize) -> Vec<PlayerEvents> {
        (0..n).map(|_| self.step(input)).collect()
    }

    /// Taps a key: held for one frame, then released for one. Returns the press frame's events.
    pub fn tap(&mut self, input: Input) -> PlayerEvents {
        let events = self.step(input);
        self.step(Input::NONE);
        events
    }

    /// The active piece; panics if none is in play.
    pub fn active(&self) -> Piece {
        self.player.active().expect("a piece in play")
    }
}

/// A versus match with `seed` and default handling.
pub fn versus_match(seed: u64) -> Match {
    Match::new(MatchHeader::versus(seed))
}

/// Steps a match through its countdown and its first frame of play (both pieces spawn).
pub fn start(m: &mut Match) {
    while matches!(m.phase(), Phase::Countdown { .. }) {
        m.step([Input::NONE; 2]);
    }
}

/// Steps a match `n` frames with the same keys held.
pub fn step_n(m: &mut Match, inputs: [Input; 2], n: usize) {
    for _ in 0..n {
        m.step(inputs);
    }
}

/// Steps with no keys until the match reaches frame `frame` (the next frame to simulate).
pub fn idle_until(m: &mut Match, frame: u32) {
    assert!(m.frame().0 <= frame, "already past frame {frame}");
    while m.frame().0 < frame {
        m.step([Input::NONE; 2]);
    }
}

/// Keys for one seat, none for the other.
pub fn only(seat: Seat, input: Input) -> [Input; 2] {
    let mut inputs = [Input::NONE; 2];
    inputs[seat.index()] = input;
    inputs
}

/// A T-spin double slot at column 4: the T goes in pointing down with its centre at (4, 1).
/// The overhang at (3, 2) makes it a spin; row 3 keeps the board from being cleared perfectly.
pub const TSD_BOARD: [&str; 4] = ["#.........", "...#......", "###...####", "####.#####"];

/// The T placed for [`TSD_BOARD`]: state R with its centre at (4, 1), one CW turn from the slot.
pub fn tsd_t() -> Piece {
    piece(PieceKind::T, Rotation::Right, 4, 1)
}

/// Plays the T-spin double of [`TSD_BOARD`] for `seat`: sets the board and the T, turns it
/// clockwise, hard drops it. Leaves both keys released. Returns the frame the T locked on.
pub fn play_tsd(m: &mut Match, seat: Seat) -> u32 {
    let p = m.player_mut(seat);
    p.set_board(Board::from_rows(&TSD_BOARD));
    p.set_active(tsd_t());
    m.step(only(seat, Input::ROTATE_CW));
    m.step(only(seat, Input::HARD_DROP));
    let locked_at = m.frame().0 - 1;
    m.step([Input::NONE; 2]);
    locked_at
}

/// A board where an I laid flat with its centre at (7, 0) clears row 0 and leaves nothing:
/// a perfect clear.
pub const PERFECT_CLEAR_BOARD: [&str; 1] = ["######...."];

/// Plays the perfect clear of [`PERFECT_CLEAR_BOARD`] for `seat` (a single, 10 lines).
/// Leaves both keys released. Returns the frame the I locked on.
pub fn play_perfect_clear(m: &mut Match, seat: Seat) -> u32 {
    let p = m.player_mut(seat);
    p.set_board(Board::from_rows(&PERFECT_CLEAR_BOARD));
    p.set_active(piece(PieceKind::I, Rotation::Spawn, 7, 0));
    m.step(only(seat, Input::HARD_DROP));
    let locked_at = m.frame().0 - 1;
    m.step([Input::NONE; 2]);
    locked_at
}

/// Hard drops whatever `seat` has in play on an otherwise empty board corner (a lock that
/// clears nothing), then releases the key. Returns the frame it locked on.
pub fn plain_lock(m: &mut Match, seat: Seat) -> u32 {
    m.step(only(seat, Input::HARD_DROP));
    let locked_at = m.frame().0 - 1;
    m.step([Input::NONE; 2]);
    locked_at
}

/// A board with garbage in exactly these (x, y) cells; for boards taller than a few rows.
pub fn board_of(cells: impl IntoIterator<Item = (i8, i8)>) -> Board {
    let mut board = Board::new();
    for (x, y) in cells {
        board.set(x, y, sevenbag_core::CellKind::Garbage);
    }
    board
}

/// Steps `input` until the piece locks; returns how many frames that took, counting the
/// locking frame. Panics after 1,000 frames.
pub fn frames_until_lock(solo: &mut Solo, input: Input) -> usize {
    for n in 1..=1000 {
        if solo.step(input).locked.is_some() {
            return n;
        }
    }
    panic!("no lock within 1000 frames");
}
