//! A solo run being played: the core's [`Solo`] fed from the keyboard, plus what the screen keeps
//! around it (no rules here): the recorded inputs for the replay, finesse faults counted with the
//! bot's [`finesse`], and in Zen a bounded stack of snapshots for undo and redo.
//!
//! Undo restores the run exactly as it was when the previous piece locked (or at the start), so
//! the undone piece spawns again from the same queue: `Solo` is `Copy`, a snapshot is a copy.
//! Redo puts an undone piece back (the run as it was the moment that piece locked); placing a new
//! piece after an undo forgets what could be redone, as in any editor.
//!
//! A run that was paused is marked ([`SoloRun::was_paused`]): pausing hides the board, but a
//! paused Sprint or Blitz still never becomes a personal best or a server record (docs/CLIENT.md).

use std::collections::VecDeque;

use sevenbag_bot::finesse;
use sevenbag_core::{Board, Input, Solo, SoloHeader, SoloMode, SoloResult};
use sevenbag_protocol::SoloReplay;

use crate::input::{KeyMap, Keyboard, Latch};

/// The most pieces Zen can undo (about 1 KiB a snapshot).
pub const MAX_UNDO: usize = 1_000;

/// Finesse bookkeeping: the keys of the piece in play and the faults so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Finesse {
    /// Extra presses over the fewest that reach the same placements, summed over the run.
    pub faults: u32,
    /// Pieces placed with at least one extra press.
    pub faulty_pieces: u32,
    /// The piece in play: the board it spawned on, the keys held the frame before, and its keys.
    piece: Option<(Board, Input, Vec<Input>)>,
}

impl Finesse {
    /// Reads one simulated frame: `before` is the board before the step, `previous` the keys of
    /// the frame before, `keys` this frame's keys, and `solo` the run after the step.
    fn observe(&mut self, before: &Board, previous: Input, keys: Input, solo: &Solo) {
        let events = solo.events();
        // A hold brings another piece in: its keys start over too.
        if events.spawned.is_some() || events.held {
            self.piece = Some((*before, previous, Vec::new()));
        }
        if let Some((_, _, frames)) = &mut self.piece {
            frames.push(keys);
        }
        if let Some(lock) = events.locked
            && let Some((board, previous, frames)) = self.piece.take()
        {
            let allow_180 = solo.header().rules.allow_180;
            let used = finesse::presses(previous, &frames);
            if let Some(least) =
                finesse::min_presses(&board, lock.piece.kind, &lock.piece, allow_180)
                && used > least
            {
                self.faults += used - least;
                self.faulty_pieces += 1;
            }
        }
    }
}

/// A run and its history.
pub struct SoloRun {
    solo: Solo,
    latch: Latch,
    map: KeyMap,
    /// Inputs of every simulated frame until the run finished (Sprint and Blitz only).
    masks: Vec<Input>,
    finesse: Finesse,
    /// Zen: the run as it was when each earlier piece locked, newest last.
    undo: VecDeque<(Solo, Finesse)>,
    /// Zen: the run as it was when the last piece locked (what the next lock pushes).
    since: (Solo, Finesse),
    /// Zen: undone pieces, each as the run stood the moment it locked, the latest undo last.
    redo: Vec<(Solo, Finesse)>,
    /// The run was paused at least once.
    paused: bool,
}

impl SoloRun {
    /// A new run of `header`, played with `map`.
    pub fn new(header: SoloHeader, map: KeyMap) -> SoloRun {
        let solo = Solo::new(header);
        SoloRun {
            solo,
            latch: Latch::default(),
            map,
            masks: Vec::new(),
            finesse: Finesse::default(),
            undo: VecDeque::new(),
            since: (solo, Finesse::default()),
            redo: Vec::new(),
            paused: false,
        }
    }

    /// "Continue from here": a Zen run (untimed, endless, with undo) that starts from `from`'s
    /// board, piece in play, hold, queue and bag, back-to-back and combo exactly as they stand,
    /// after Zen's usual countdown. The recording's handling comes along with its player.
    pub fn continue_from(from: &Solo, map: KeyMap) -> SoloRun {
        let header = SoloHeader {
            mode: SoloMode::Zen,
            ..*from.header()
        };
        let mut run = SoloRun::new(header, map);
        *run.solo.player_mut() = *from.player();
        // Nothing to undo to before the point we start from.
        run.since = (run.solo, Finesse::default());
        run
    }

    /// The run.
    pub fn solo(&self) -> &Solo {
        &self.solo
    }

    /// Finesse faults so far.
    pub fn finesse(&self) -> &Finesse {
        &self.finesse
    }

    /// Pieces that can be undone (always 0 outside Zen).
    pub fn undo_depth(&self) -> usize {
        self.undo.len()
    }

    /// Undone pieces that can be put back.
    pub fn redo_depth(&self) -> usize {
        self.redo.len()
    }

    /// Marks the run as paused (for good: see the module docs) and forgets held keys, so keys
    /// held through the pause are not presses when play resumes.
    pub fn pause(&mut self) {
        self.paused = true;
        self.latch.reset();
    }

    /// Whether the run was ever paused.
    pub fn was_paused(&self) -> bool {
        self.paused
    }

    /// Records one rendered frame of keys.
    pub fn sample(&mut self, keyboard: &Keyboard) {
        self.latch.sample(&self.map, keyboard);
    }

    /// Simulates one frame with the latched keys.
    pub fn step(&mut self) {
        let keys = self.latch.take();
        self.step_with(keys);
    }

    /// Simulates one frame with `keys` (the keyboard-free half of [`SoloRun::step`]).
    pub fn step_with(&mut self, keys: Input) {
        let finished = self.solo.result().is_some();
        let before = *self.solo.player().board();
        let previous = self.solo.player().last_input();
        self.solo.step(keys);
        if finished {
            return;
        }
        if self.solo.header().mode != SoloMode::Zen {
            self.masks.push(keys);
        }
        self.finesse.observe(&before, previous, keys, &self.solo);
        if self.solo.header().mode == SoloMode::Zen && self.solo.events().locked.is_some() {
            let now = (self.solo, self.finesse.clone());
            let earlier = std::mem::replace(&mut self.since, now);
            if self.undo.len() == MAX_UNDO {
                self.undo.pop_front();
            }
            self.undo.push_back(earlier);
            // A new piece: what was undone before it cannot be redone any more.
            self.redo.clear();
        }
    }

    /// Zen: takes back the last locked piece, restoring the run exactly as it was before it.
    /// Returns false when there is nothing to undo.
    pub fn undo(&mut self) -> bool {
        let Some(earlier) = self.undo.pop_back() else {
            return false;
        };
        self.solo = earlier.0;
        self.finesse = earlier.1.clone();
        let undone = std::mem::replace(&mut self.since, earlier);
        self.redo.push(undone);
        self.latch.reset();
        true
    }

    /// Zen: puts back the last undone piece, restoring the run exactly as it was the moment that
    /// piece locked. Returns false when there is nothing to redo.
    pub fn redo(&mut self) -> bool {
        let Some(later) = self.redo.pop() else {
            return false;
        };
        self.solo = later.0;
        self.finesse = later.1.clone();
        let earlier = std::mem::replace(&mut self.since, later);
        if self.undo.len() == MAX_UNDO {
            self.undo.pop_front();
        }
        self.undo.push_back(earlier);
        self.latch.reset();
        true
    }

    /// The result, once the run is over.
    pub fn result(&self) -> Option<SoloResult> {
        self.solo.result()
    }

    /// The replay of the finished run (`None` before it ends, and for Zen, whose undo breaks
    /// the input record).
    pub fn replay(&self, name: &str, created_unix: u64) -> Option<SoloReplay> {
        if self.solo.header().mode == SoloMode::Zen {
            return None;
        }
        SoloReplay::record(&self.solo, name, &self.masks, created_unix)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sevenbag_core::Handling;
    use sevenbag_protocol::verify_solo;

    fn header(mode: SoloMode) -> SoloHeader {
        let mut h = SoloHeader::new(mode, 11);
        h.rules.countdown_frames = 2;
        h.handling = Handling {
            sdf: 0,
            ..Handling::default()
        };
        h
    }

    /// Waits for a piece, presses `keys` once, then hard drops it: the run stops on the frame of
    /// the lock (the state an undo of the next piece returns to).
    fn place(run: &mut SoloRun, keys: Input) {
        let pieces = run.solo().player().stats().pieces;
        while run.solo().player().active().is_none() {
            run.step_with(Input::NONE);
        }
        run.step_with(keys);
        run.step_with(Input::NONE);
        run.step_with(Input::HARD_DROP);
        assert_eq!(run.solo().player().stats().pieces, pieces + 1);
    }

    #[test]
    fn undo_restores_the_exact_state_from_before_the_piece() {
        let mut run = SoloRun::new(header(SoloMode::Zen), KeyMap::guideline());
        place(&mut run, Input::LEFT);
        let before_second = run.solo().state_hash();
        place(&mut run, Input::RIGHT);
        let before_third = run.solo().state_hash();
        place(&mut run, Input::ROTATE_CW);
        assert_eq!(run.undo_depth(), 3);
        assert!(run.undo());
        assert_eq!(run.solo().state_hash(), before_third);
        assert!(run.undo());
        assert_eq!(run.solo().state_hash(), before_second);
        // Playing on after an undo locks again and can be undone again.
        place(&mut run, Input::ROTATE_CCW);
        assert!(run.undo());
        assert_eq!(run.solo().state_hash(), before_second);
        assert!(run.undo());
        assert_eq!(run.solo().player().stats().pieces, 0);
        assert!(!run.undo(), "nothing left to undo");
    }

    #[test]
    fn redo_puts_undone_pieces_back_exactly_and_a_new_piece_clears_it() {
        let mut run = SoloRun::new(header(SoloMode::Zen), KeyMap::guideline());
        place(&mut run, Input::LEFT);
        let after_first = run.solo().state_hash();
        place(&mut run, Input::RIGHT);
        let after_second = run.solo().state_hash();
        assert!(!run.redo(), "nothing undone yet");
        assert!(run.undo());
        assert!(run.undo());
        assert_eq!(run.redo_depth(), 2);
        assert!(run.redo());
        assert_eq!(run.solo().state_hash(), after_first);
        assert!(run.redo());
        assert_eq!(run.solo().state_hash(), after_second);
        assert!(!run.redo());
        // Undo and redo as often as you like: the same two states come back.
        for _ in 0..3 {
            assert!(run.undo());
            assert!(run.redo());
        }
        assert_eq!(run.solo().state_hash(), after_second);
        assert_eq!(run.undo_depth(), 2);
        // A new piece after an undo forgets the redo.
        assert!(run.undo());
        place(&mut run, Input::ROTATE_CW);
        assert_eq!(run.redo_depth(), 0);
        assert!(!run.redo());
        assert!(run.undo());
        assert_eq!(run.solo().state_hash(), after_first);
    }

    #[test]
    fn continuing_from_a_frame_starts_from_its_exact_player_state() {
        let replay = SoloReplay::decode(crate::solo::SAMPLE).expect("sample");
        let masks = replay.masks().expect("masks");
        let mut solo = Solo::new(replay.header);
        for keys in &masks[..masks.len() / 2] {
            solo.step(*keys);
        }
        assert!(solo.player().stats().pieces > 10, "mid-run");
        let run = SoloRun::continue_from(&solo, KeyMap::guideline());
        assert_eq!(run.solo().header().mode, SoloMode::Zen);
        assert_eq!(
            run.solo().player().state_hash(),
            solo.player().state_hash(),
            "board, piece, hold, queue and bag, B2B and combo"
        );
        assert_eq!(run.solo().player().b2b(), solo.player().b2b());
        assert_eq!(run.solo().player().combo(), solo.player().combo());
        assert_eq!(run.undo_depth(), 0);
        // It plays on from there.
        let mut run = run;
        let pieces = solo.player().stats().pieces;
        let mut frames = 0;
        while run.solo().player().stats().pieces == pieces && frames < 2_000 {
            run.step_with(if frames % 2 == 0 {
                Input::HARD_DROP
            } else {
                Input::NONE
            });
            frames += 1;
        }
        assert_eq!(run.solo().player().stats().pieces, pieces + 1);
        assert!(run.undo(), "the continued piece can be undone");
        assert_eq!(run.solo().player().state_hash(), solo.player().state_hash());
    }

    #[test]
    fn a_paused_run_says_so() {
        let mut run = SoloRun::new(header(SoloMode::Sprint), KeyMap::guideline());
        assert!(!run.was_paused());
        run.pause();
        assert!(run.was_paused());
    }

    #[test]
    fn undo_after_a_zen_top_out_plays_on() {
        let mut run = SoloRun::new(header(SoloMode::Zen), KeyMap::guideline());
        let mut frames = 0;
        while run.result().is_none() && frames < 20_000 {
            run.step_with(if frames % 2 == 0 {
                Input::HARD_DROP
            } else {
                Input::NONE
            });
            frames += 1;
        }
        assert!(run.result().is_some(), "hard drops in the middle top out");
        let pieces = run.solo().player().stats().pieces;
        assert!(run.undo());
        assert!(run.result().is_none(), "the run is alive again");
        assert_eq!(run.solo().player().stats().pieces, pieces - 1);
        assert!(run.replay("me", 1).is_none(), "Zen records no replay");
    }

    #[test]
    fn only_zen_keeps_undo_snapshots() {
        let mut run = SoloRun::new(header(SoloMode::Sprint), KeyMap::guideline());
        place(&mut run, Input::LEFT);
        assert_eq!(run.undo_depth(), 0);
        assert!(!run.undo());
    }

    #[test]
    fn extra_presses_count_as_finesse_faults() {
        let mut run = SoloRun::new(header(SoloMode::Zen), KeyMap::guideline());
        place(&mut run, Input::NONE);
        assert_eq!(run.finesse().faults, 0, "a straight drop is perfect");
        // Left then right again: two presses where none were needed.
        while run.solo().player().active().is_none() {
            run.step_with(Input::NONE);
        }
        for keys in [Input::LEFT, Input::NONE, Input::RIGHT, Input::NONE] {
            run.step_with(keys);
        }
        run.step_with(Input::HARD_DROP);
        run.step_with(Input::NONE);
        assert_eq!(run.finesse().faults, 2);
        assert_eq!(run.finesse().faulty_pieces, 1);
        assert!(run.undo());
        assert_eq!(run.finesse().faults, 0, "undo takes the fault back too");
    }

    #[test]
    fn a_finished_sprint_records_a_replay_that_verifies() {
        let mut h = header(SoloMode::Sprint);
        // A short, doomed run: hard drops in the middle until the stack tops out.
        h.rules.countdown_frames = 1;
        let mut run = SoloRun::new(h, KeyMap::guideline());
        let mut frames = 0;
        while run.result().is_none() && frames < 20_000 {
            let keys = if frames % 2 == 0 {
                Input::HARD_DROP
            } else {
                Input::NONE
            };
            run.step_with(keys);
            frames += 1;
        }
        let result = run.result().expect("topped out");
        assert!(!result.ranked());
        let replay = run.replay("me", 1).expect("a Sprint records");
        let report = verify_solo(&replay).expect("the recording verifies");
        assert_eq!(report.result, result);
    }
}
