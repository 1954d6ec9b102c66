//! Playing the challenge by hand, as the original's play mode: the player steps the brick
//! (left, right, down, rotate), gravity moves it down on a timer that speeds up every 100
//! bricks, and it locks on the gravity tick that leaves it resting. The moves are recorded as a
//! record that replays to the same game.

use crate::record::{MAX_STEPS_PER_BRICK, Record};
use crate::replay::Game;
use crate::rules::Step;

/// Milliseconds between gravity ticks once `spawned` bricks have spawned: 1000, then 100 less
/// every 100 bricks, never under 100 (the original's `updateSpeed`).
pub fn gravity_ms(spawned: usize) -> u32 {
    1000u32
        .saturating_sub(100 * (spawned / 100) as u32)
        .max(100)
}

/// A game played by hand, with its record.
#[derive(Clone, Debug)]
pub struct Play {
    pub game: Game,
    /// The steps that moved each brick so far (skipped steps are not recorded: they change
    /// nothing on replay).
    bricks: Vec<Vec<Step>>,
}

impl Default for Play {
    fn default() -> Self {
        Self::new()
    }
}

impl Play {
    /// A new game with brick 1 in play.
    pub fn new() -> Self {
        let mut game = Game::new();
        game.new_brick();
        Play {
            game,
            bricks: vec![Vec::new()],
        }
    }

    /// Whether the game is over.
    pub fn over(&self) -> bool {
        self.game.ended.is_some()
    }

    /// A player's step. A brick that has used its 100 steps locks where it is.
    pub fn input(&mut self, step: Step) {
        if self.over() {
            return;
        }
        if self.game.step(step) {
            self.current().push(step);
        }
        if self.current().len() >= MAX_STEPS_PER_BRICK as usize {
            self.lock_and_spawn();
        }
    }

    /// A gravity tick: one step down, then the brick locks if it cannot fall further.
    pub fn gravity(&mut self) {
        if self.over() {
            return;
        }
        self.input(Step::Down);
        let resting = match self.game.piece {
            Some(p) => !self.game.board.fits(&Step::Down.apply(p)),
            None => true,
        };
        if resting && !self.over() {
            self.lock_and_spawn();
        }
    }

    fn current(&mut self) -> &mut Vec<Step> {
        if self.bricks.is_empty() {
            self.bricks.push(Vec::new());
        }
        let last = self.bricks.len() - 1;
        &mut self.bricks[last]
    }

    fn lock_and_spawn(&mut self) {
        // A brick that never moved still needs one op: a skipped down step changes nothing.
        if self.current().is_empty() {
            self.current().push(Step::Down);
        }
        self.game.new_brick();
        if !self.over() {
            self.bricks.push(Vec::new());
        }
    }

    /// The record of the bricks locked so far (the brick in play is left out): it replays to
    /// the same board and score.
    pub fn record(&self) -> Record {
        let locked = if self.over() {
            self.bricks.len()
        } else {
            self.bricks.len().saturating_sub(1)
        };
        let done: Vec<&[Step]> = self.bricks[..locked]
            .iter()
            .filter(|b| !b.is_empty())
            .map(|b| b.as_slice())
            .collect();
        Record::from_bricks(done)
    }
}
