//! A player's input log: the change list expanded to one mask per frame, validated.

use serde::{Deserialize, Serialize};
use sevenbag_core::Input;

use crate::messages::InputChange;

/// The longest match any log holds, in frames: six hours at 60 frames a second. Counts in
/// files and messages are checked against it before anything is allocated or simulated, so a
/// forged "4 billion frames confirmed" is refused at once instead of filling memory.
pub const MAX_MATCH_FRAMES: u32 = 6 * 60 * 60 * 60;

/// Why a batch of changes was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InputLogError {
    /// A change at or before an already confirmed frame.
    #[error("change at frame {frame} rewrites confirmed frames (confirmed through {confirmed})")]
    Rewrite {
        /// The offending change's frame.
        frame: u32,
        /// Frames already confirmed.
        confirmed: u32,
    },
    /// Changes out of order, or one at or past the new confirmation.
    #[error("change at frame {frame} is out of order or not below confirmed {confirmed}")]
    Order {
        /// The offending change's frame.
        frame: u32,
        /// The confirmation that came with it.
        confirmed: u32,
    },
    /// The confirmation claims more frames than any match may last.
    #[error("{confirmed} frames confirmed is more than a match may last ({max} frames)")]
    TooLong {
        /// The claimed confirmation.
        confirmed: u32,
        /// [`MAX_MATCH_FRAMES`].
        max: u32,
    },
    /// The confirmation went backwards.
    #[error("confirmation went back from {from} to {to}")]
    Backwards {
        /// Previous confirmation.
        from: u32,
        /// New confirmation.
        to: u32,
    },
}

/// One player's confirmed inputs, frame by frame.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputLog {
    masks: Vec<Input>,
    changes: Vec<InputChange>,
}

impl InputLog {
    /// An empty log.
    pub fn new() -> InputLog {
        InputLog::default()
    }

    /// Frames confirmed so far.
    pub fn confirmed(&self) -> u32 {
        self.masks.len() as u32
    }

    /// The mask at `frame`, if confirmed.
    pub fn get(&self, frame: u32) -> Option<Input> {
        self.masks.get(frame as usize).copied()
    }

    /// The last confirmed mask (or none held before frame 0).
    pub fn last(&self) -> Input {
        self.masks.last().copied().unwrap_or(Input::NONE)
    }

    /// Every change so far, in frame order.
    pub fn changes(&self) -> &[InputChange] {
        &self.changes
    }

    /// The changes at or after `frame`.
    pub fn changes_from(&self, frame: u32) -> &[InputChange] {
        let start = self.changes.partition_point(|c| c.frame < frame);
        &self.changes[start..]
    }

    /// Appends a batch: `changes` (increasing, each in `self.confirmed()..confirmed`) and the new
    /// confirmation. A refused batch leaves the log untouched.
    pub fn extend(&mut self, changes: &[InputChange], confirmed: u32) -> Result<(), InputLogError> {
        let have = self.confirmed();
        Self::check(changes, have, confirmed)?;
        let mut current = self.last();
        let mut next = changes.iter().peekable();
        for frame in have..confirmed {
            if let Some(c) = next.next_if(|c| c.frame == frame) {
                current = c.input;
            }
            self.masks.push(current);
        }
        let mut last = self.changes.last().map(|c| c.input).unwrap_or(Input::NONE);
        for c in changes {
            if c.input != last {
                self.changes.push(*c);
                last = c.input;
            }
        }
        Ok(())
    }

    /// Checks a batch against a log confirmed through `have` without touching anything:
    /// the confirmation is within [`MAX_MATCH_FRAMES`] and not behind `have`, and the changes
    /// increase strictly within `have..confirmed`.
    pub fn check(changes: &[InputChange], have: u32, confirmed: u32) -> Result<(), InputLogError> {
        if confirmed > MAX_MATCH_FRAMES {
            return Err(InputLogError::TooLong {
                confirmed,
                max: MAX_MATCH_FRAMES,
            });
        }
        if confirmed < have {
            return Err(InputLogError::Backwards {
                from: have,
                to: confirmed,
            });
        }
        let mut prev: Option<u32> = None;
        for c in changes {
            if c.frame < have {
                return Err(InputLogError::Rewrite {
                    frame: c.frame,
                    confirmed: have,
                });
            }
            if c.frame >= confirmed || prev.is_some_and(|p| c.frame <= p) {
                return Err(InputLogError::Order {
                    frame: c.frame,
                    confirmed,
                });
            }
            prev = Some(c.frame);
        }
        Ok(())
    }

    /// Builds a log from a full change list and confirmation (for replays and match logs).
    pub fn from_changes(
        changes: &[InputChange],
        confirmed: u32,
    ) -> Result<InputLog, InputLogError> {
        let mut log = InputLog::new();
        log.extend(changes, confirmed)?;
        Ok(log)
    }

    /// The change list that describes masks `from..to` given the mask before `from`.
    pub fn diff(masks: &[Input], from: u32, before: Input) -> Vec<InputChange> {
        let mut last = before;
        let mut out = Vec::new();
        for (i, &m) in masks.iter().enumerate() {
            if m != last {
                out.push(InputChange {
                    frame: from + i as u32,
                    input: m,
                });
                last = m;
            }
        }
        out
    }
}
