//! The coalesced downlink of rooms of several seats,
//! [`crate::ServerMessage::BattleInputsGathered`]: the batches of several seats that arrived
//! within a few milliseconds, sent to each member as one message instead of one per batch.
//!
//! A relayed `BattleInputs` costs a message (its framing and tag), a seat byte and absolute
//! frame numbers (three bytes each past frame 250) for every batch of every opponent: at eight
//! seats, seven such messages for every batch a player sends. A [`SeatSteps`] carries one seat's
//! batches counted from `base`, the seat's confirmation before them, so every number after it
//! is a one-byte offset; successive batches of one seat merge into one entry (they follow each
//! other: every frame of a batch is at or after the previous confirmation). The bases travel in
//! the message, as one frame number and a small offset per entry ([`pack`], [`unpack`]), so
//! reading it needs no state of the connection (unlike the uplink's
//! [`crate::ClientMessage::InputsSince`]).

use serde::{Deserialize, Serialize};

use crate::battle::TargetChange;
use crate::compact::InputStep;
use crate::messages::InputChange;

/// A target change in a [`SeatSteps`]: `target` from frame `base + after` on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TargetStep {
    /// Frames after the base.
    pub after: u32,
    /// The chosen battle seat (`None`: no choice).
    pub target: Option<u8>,
}

/// One seat's keys and targets from frame `base` to `base + frames` (all final).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SeatSteps {
    /// Whose (battle seat).
    pub seat: u8,
    /// The seat's confirmation before these inputs; every offset counts from it. On the wire,
    /// counted from the message's `frame` ([`pack`]).
    pub base: u32,
    /// Key changes in increasing frame order.
    pub steps: Vec<InputStep>,
    /// Target changes in increasing frame order.
    pub targets: Vec<TargetStep>,
    /// Frames `0..base + frames` are final for that seat.
    pub frames: u32,
}

impl SeatSteps {
    /// An entry for `seat`, counted from its confirmation `base`, with nothing in it yet.
    pub fn new(seat: u8, base: u32) -> SeatSteps {
        SeatSteps {
            seat,
            base,
            steps: Vec::new(),
            targets: Vec::new(),
            frames: 0,
        }
    }

    /// Appends the next batch of this seat (every frame at or after the entry's confirmation).
    pub fn push(&mut self, changes: &[InputChange], targets: &[TargetChange], confirmed: u32) {
        let after = |frame: u32| frame.saturating_sub(self.base);
        self.steps.extend(changes.iter().map(|c| InputStep {
            after: after(c.frame),
            input: c.input,
        }));
        self.targets.extend(targets.iter().map(|t| TargetStep {
            after: after(t.frame),
            target: t.target,
        }));
        self.frames = self.frames.max(after(confirmed));
    }

    /// Key and target changes held.
    pub fn len(&self) -> usize {
        self.steps.len() + self.targets.len()
    }

    /// Whether it holds no change.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Frames `0..confirmed()` are final for the seat (saturating: a forged offset past the
    /// last frame makes a batch the input log refuses).
    pub fn confirmed(&self) -> u32 {
        self.base.saturating_add(self.frames)
    }

    /// The key changes with absolute frames.
    pub fn changes(&self) -> Vec<InputChange> {
        self.steps
            .iter()
            .map(|s| InputChange {
                frame: self.base.saturating_add(s.after),
                input: s.input,
            })
            .collect()
    }

    /// The target changes with absolute frames.
    pub fn target_changes(&self) -> Vec<TargetChange> {
        self.targets
            .iter()
            .map(|t| TargetChange {
                frame: self.base.saturating_add(t.after),
                target: t.target,
            })
            .collect()
    }
}

/// The batches waiting to be sent, one merged entry per seat in seat order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Gathering {
    pending: Vec<SeatSteps>,
}

impl Gathering {
    /// Nothing waiting.
    pub fn new() -> Gathering {
        Gathering::default()
    }

    /// Adds a batch of `seat`, whose confirmation was `base` before it.
    pub fn add(
        &mut self,
        seat: u8,
        base: u32,
        changes: &[InputChange],
        targets: &[TargetChange],
        confirmed: u32,
    ) {
        let at = match self.pending.binary_search_by_key(&seat, |e| e.seat) {
            Ok(at) => at,
            Err(at) => {
                self.pending.insert(at, SeatSteps::new(seat, base));
                at
            }
        };
        self.pending[at].push(changes, targets, confirmed);
    }

    /// Whether nothing waits.
    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }

    /// The most changes any one seat's entry holds.
    pub fn largest(&self) -> usize {
        self.pending.iter().map(SeatSteps::len).max().unwrap_or(0)
    }

    /// Takes every waiting entry, in seat order.
    pub fn take(&mut self) -> Vec<SeatSteps> {
        std::mem::take(&mut self.pending)
    }
}

/// The entries to send as one message: the smallest base, and every entry's base made an
/// offset from it.
pub fn pack(mut entries: Vec<SeatSteps>) -> (u32, Vec<SeatSteps>) {
    let frame = entries.iter().map(|e| e.base).min().unwrap_or(0);
    for e in &mut entries {
        e.base -= frame;
    }
    (frame, entries)
}

/// The entries of a received message with absolute bases again (saturating: a forged offset
/// makes a batch the input log refuses).
pub fn unpack(frame: u32, entries: &[SeatSteps]) -> impl Iterator<Item = SeatSteps> + '_ {
    entries.iter().map(move |e| SeatSteps {
        base: e.base.saturating_add(frame),
        ..e.clone()
    })
}

#[cfg(test)]
mod tests {
    use sevenbag_core::Input;

    use super::*;
    use crate::{ServerMessage, decode_server, encode};

    fn keys(list: &[(u32, u8)]) -> Vec<InputChange> {
        list.iter()
            .map(|&(frame, m)| InputChange {
                frame,
                input: Input(m),
            })
            .collect()
    }

    #[test]
    fn batches_of_one_seat_merge_and_read_back_as_they_were_sent() {
        let mut gathering = Gathering::new();
        let target = [TargetChange {
            frame: 70_003,
            target: Some(2),
        }];
        gathering.add(5, 70_000, &keys(&[(70_001, 1)]), &target, 70_004);
        gathering.add(1, 9, &keys(&[]), &[], 12);
        gathering.add(5, 70_004, &keys(&[(70_004, 0), (70_006, 3)]), &[], 70_008);
        let entries = gathering.take();
        assert!(gathering.is_empty());
        assert_eq!(entries.iter().map(|e| e.seat).collect::<Vec<_>>(), [1, 5]);
        let five = &entries[1];
        assert_eq!(
            five.changes(),
            keys(&[(70_001, 1), (70_004, 0), (70_006, 3)])
        );
        assert_eq!(five.target_changes(), target.to_vec());
        assert_eq!(five.confirmed(), 70_008);
        assert_eq!(entries[0].confirmed(), 12);
    }

    #[test]
    fn one_gathered_message_is_smaller_than_the_relays_it_replaces() {
        let mut gathering = Gathering::new();
        let mut relays = 0;
        for seat in 1..8u8 {
            let changes = keys(&[(70_001, seat)]);
            relays += encode(&ServerMessage::BattleInputs {
                seat,
                changes: changes.clone(),
                targets: Vec::new(),
                confirmed: 70_004,
            })
            .unwrap()
            .len();
            gathering.add(seat, 70_000, &changes, &[], 70_004);
        }
        let sent = gathering.take();
        let (frame, seats) = pack(sent.clone());
        let message = ServerMessage::BattleInputsGathered { frame, seats };
        let bytes = encode(&message).unwrap();
        assert!(bytes.len() * 5 < relays * 3, "{} vs {relays}", bytes.len());
        let ServerMessage::BattleInputsGathered { frame, seats } = decode_server(&bytes).unwrap()
        else {
            panic!("another message");
        };
        assert_eq!(unpack(frame, &seats).collect::<Vec<_>>(), sent);
    }

    #[test]
    fn more_than_eight_seats_in_one_message_is_refused_on_decode() {
        let nine = ServerMessage::BattleInputsGathered {
            frame: 0,
            seats: (0..9).map(|s| SeatSteps::new(s, 0)).collect(),
        };
        let bytes = encode(&nine).unwrap();
        assert!(decode_server(&bytes).is_err());
    }
}
