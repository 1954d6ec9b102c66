//! Rooms of 2 to 8 seats (free-for-all and teams; a two-seat room is the general kind's
//! smallest, played to the same hashes as a versus match): the records their messages carry,
//! the bounds checked on decode, and each seat's log of keys and targets.
//!
//! A seat travels as a plain byte (`u8`), not as [`sevenbag_core::Seat`]: that type's wire
//! form accepts only seats 0 and 1, which every two-seat format relies on. Every byte and every
//! list here is checked against [`MAX_ROOM_SEATS`] when a message is decoded
//! ([`at_most_seats`]) and against the match's seat count where one is known
//! ([`BattleMessageError`]).

use serde::{Deserialize, Deserializer, Serialize};
use sevenbag_core::{BattleHeader, BattleOptions, Input, MAX_SEATS, Seat, SeatInput};

use crate::inputs::{InputLog, InputLogError};
use crate::messages::{InputChange, MAX_CHANGES_PER_MESSAGE, RoomOptions};

/// The most seats a room holds: the core's [`MAX_SEATS`].
pub const MAX_ROOM_SEATS: usize = MAX_SEATS;
/// The fewest seats a room holds: two, a versus match.
pub const MIN_ROOM_SEATS: usize = 2;

/// The options of a room of several seats, chosen by its creator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BattleRoomOptions {
    /// Rules, rounds, garbage and reconnect window, as in a two-seat room.
    pub room: RoomOptions,
    /// Seats in the room, [`MIN_ROOM_SEATS`] to [`MAX_ROOM_SEATS`]. A match starts with the seated players
    /// (at least 2); a team room starts only when every seat is taken.
    pub seats: u8,
    /// Targeting, badges, teams (by room seat) and the team boost.
    pub battle: BattleOptions,
}

impl BattleRoomOptions {
    /// A free-for-all room of `seats` seats with the versus rules and even targeting.
    pub fn ffa(seats: u8) -> BattleRoomOptions {
        BattleRoomOptions {
            room: RoomOptions::default(),
            seats,
            battle: BattleOptions::default(),
        }
    }

    /// Checks the seat count, the rules and, for a team room, the teams (against a full room).
    pub fn validate(&self) -> Result<(), BattleMessageError> {
        if !(MIN_ROOM_SEATS..=MAX_ROOM_SEATS).contains(&usize::from(self.seats)) {
            return Err(BattleMessageError::SeatCount(self.seats));
        }
        let mut header = BattleHeader::new(0, self.seats);
        header.rules = self.room.rules();
        header.options = self.battle;
        header
            .validate()
            .map_err(|e| BattleMessageError::Options(e.to_string()))
    }

    /// The header of a match of `seats` players on `seed`, with their handlings in battle-seat
    /// order. A free-for-all room's teams do not depend on who sits: `None` is kept.
    pub fn header(
        &self,
        seed: u64,
        handling: &[sevenbag_core::Handling],
        rules: sevenbag_core::Rules,
    ) -> BattleHeader {
        let seats = handling.len().min(MAX_ROOM_SEATS);
        let mut header = BattleHeader::new(seed, seats as u8);
        header.rules = rules;
        header.handling[..seats].copy_from_slice(&handling[..seats]);
        header.options = self.battle;
        header
    }
}

/// A seat's manual target changed to `target` (a battle seat, `None`: no choice) from frame
/// `frame` on; held like a key until the next change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TargetChange {
    /// First frame with the new target.
    pub frame: u32,
    /// The chosen seat.
    pub target: Option<u8>,
}

/// A message of several seats that breaks the bounds of its match.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BattleMessageError {
    /// A room of fewer than 2 or more than 8 seats.
    #[error("{0} seats: a room has {MIN_ROOM_SEATS} to {MAX_ROOM_SEATS}")]
    SeatCount(u8),
    /// The options do not make a match.
    #[error("room options refused: {0}")]
    Options(String),
    /// A target that is not a seat of another team in this match.
    #[error("target {target} is not an opponent of seat {seat}")]
    Target {
        /// The sender.
        seat: u8,
        /// The target named.
        target: u8,
    },
    /// More changes than one message may carry.
    #[error("{0} changes in one message (at most {MAX_CHANGES_PER_MESSAGE})")]
    TooManyChanges(usize),
    /// The keys or targets broke the input-log rules.
    #[error(transparent)]
    Log(#[from] InputLogError),
}

/// Deserializes a list of at most [`MAX_ROOM_SEATS`] entries (one per seat): used on every
/// per-seat list of the room messages, so a forged count is refused on decode.
pub fn at_most_seats<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    let list = Vec::<T>::deserialize(d)?;
    if list.len() > MAX_ROOM_SEATS {
        return Err(serde::de::Error::invalid_length(
            list.len(),
            &"at most 8 entries, one per seat",
        ));
    }
    Ok(list)
}

/// Checks every target of a batch from `seat` of `header`'s match: a seat of another team.
/// A target that is out already is allowed (the sender may not have seen the knock-out yet);
/// the core sends that attack by the `even` rule instead.
pub fn check_targets(
    header: &BattleHeader,
    seat: u8,
    targets: &[TargetChange],
) -> Result<(), BattleMessageError> {
    let n = usize::from(header.seats);
    let team = |s: u8| header.options.teams.map_or(s, |t| t[usize::from(s)]);
    for t in targets {
        if let Some(target) = t.target {
            let fits = usize::from(target) < n && usize::from(seat) < n;
            if !fits || team(target) == team(seat) {
                return Err(BattleMessageError::Target { seat, target });
            }
        }
    }
    Ok(())
}

/// One seat's final keys and targets, frame by frame. Both lists share one confirmation.
///
/// Targets are kept in an [`InputLog`] too (the target byte `t + 1`, 0 for none), so they pass
/// exactly the checks keys pass.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatLog {
    keys: InputLog,
    targets: InputLog,
}

fn target_byte(target: Option<u8>) -> Input {
    Input(target.map_or(0, |t| t.saturating_add(1)))
}

fn target_of(byte: Input) -> Option<u8> {
    byte.0.checked_sub(1)
}

impl SeatLog {
    /// An empty log.
    pub fn new() -> SeatLog {
        SeatLog::default()
    }

    /// Builds a log from full lists (for match logs and replays).
    pub fn from_lists(
        keys: &[InputChange],
        targets: &[TargetChange],
        confirmed: u32,
    ) -> Result<SeatLog, InputLogError> {
        let mut log = SeatLog::new();
        log.extend(keys, targets, confirmed)?;
        Ok(log)
    }

    /// Frames confirmed so far.
    pub fn confirmed(&self) -> u32 {
        self.keys.confirmed()
    }

    /// The keys and target at `frame`, if confirmed.
    pub fn get(&self, frame: u32) -> Option<SeatInput> {
        let keys = self.keys.get(frame)?;
        let target = self.targets.get(frame).map_or(0, |b| b.0);
        Some(SeatInput {
            keys,
            target: target
                .checked_sub(1)
                .and_then(|t| Seat::new(usize::from(t))),
        })
    }

    /// The last confirmed keys and target (the prediction for frames not yet heard).
    pub fn last(&self) -> SeatInput {
        SeatInput {
            keys: self.keys.last(),
            target: target_of(self.targets.last()).and_then(|t| Seat::new(usize::from(t))),
        }
    }

    /// The key changes so far.
    pub fn key_changes(&self) -> &[InputChange] {
        self.keys.changes()
    }

    /// The target changes so far.
    pub fn target_changes(&self) -> Vec<TargetChange> {
        Self::targets_from(self.targets.changes())
    }

    /// Key and target changes at or after `frame`.
    pub fn changes_from(&self, frame: u32) -> (&[InputChange], Vec<TargetChange>) {
        (
            self.keys.changes_from(frame),
            Self::targets_from(self.targets.changes_from(frame)),
        )
    }

    fn targets_from(changes: &[InputChange]) -> Vec<TargetChange> {
        changes
            .iter()
            .map(|c| TargetChange {
                frame: c.frame,
                target: target_of(c.input),
            })
            .collect()
    }

    /// Appends a batch of keys and targets with one confirmation; a refused batch (by either
    /// list) changes nothing.
    pub fn extend(
        &mut self,
        keys: &[InputChange],
        targets: &[TargetChange],
        confirmed: u32,
    ) -> Result<(), InputLogError> {
        let targets: Vec<InputChange> = targets
            .iter()
            .map(|t| InputChange {
                frame: t.frame,
                input: target_byte(t.target),
            })
            .collect();
        let have = self.confirmed();
        InputLog::check(keys, have, confirmed)?;
        InputLog::check(&targets, have, confirmed)?;
        self.keys.extend(keys, confirmed)?;
        self.targets.extend(&targets, confirmed)
    }

    /// Whether this log agrees with every frame `short` has confirmed.
    pub fn extends(&self, short: &SeatLog) -> bool {
        self.confirmed() >= short.confirmed()
            && (0..short.confirmed()).all(|f| self.get(f) == short.get(f))
    }
}

/// The target-change list for a seat that held `targets[f]` on frame `f` (from `from` on,
/// after holding `before`).
pub fn target_diff(targets: &[Option<u8>], from: u32, before: Option<u8>) -> Vec<TargetChange> {
    let mut last = before;
    let mut out = Vec::new();
    for (i, &t) in targets.iter().enumerate() {
        if t != last {
            out.push(TargetChange {
                frame: from + i as u32,
                target: t,
            });
            last = t;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_log_holds_keys_and_targets_with_one_confirmation() {
        let mut log = SeatLog::new();
        let keys = [InputChange {
            frame: 2,
            input: Input::LEFT,
        }];
        let targets = [TargetChange {
            frame: 3,
            target: Some(4),
        }];
        log.extend(&keys, &targets, 5).expect("valid");
        assert_eq!(log.confirmed(), 5);
        assert_eq!(log.get(1), Some(SeatInput::NONE));
        assert_eq!(log.get(3).and_then(|i| i.target), Seat::new(4));
        assert_eq!(log.get(3).map(|i| i.keys), Some(Input::LEFT));
        assert_eq!(log.target_changes(), targets.to_vec());
        assert_eq!(log.get(5), None);
    }

    #[test]
    fn a_target_change_that_rewrites_the_past_refuses_the_whole_batch() {
        let mut log = SeatLog::new();
        log.extend(&[], &[], 5).expect("valid");
        let targets = [TargetChange {
            frame: 4,
            target: Some(1),
        }];
        assert!(log.extend(&[], &targets, 8).is_err());
        assert_eq!(log.confirmed(), 5);
    }

    #[test]
    fn a_target_must_be_a_seat_of_another_team() {
        let mut header = BattleHeader::new(1, 4);
        let at = |target| {
            [TargetChange {
                frame: 0,
                target: Some(target),
            }]
        };
        assert!(check_targets(&header, 0, &at(3)).is_ok());
        assert!(check_targets(&header, 0, &at(0)).is_err(), "itself");
        assert!(check_targets(&header, 0, &at(4)).is_err(), "past the seats");
        assert!(check_targets(&header, 9, &at(1)).is_err(), "a bad sender");
        header.options.teams = Some([0, 1, 0, 1, 0, 0, 0, 0]);
        assert!(check_targets(&header, 0, &at(2)).is_err(), "a teammate");
        assert!(check_targets(&header, 0, &at(1)).is_ok());
    }

    #[test]
    fn room_options_need_2_to_8_seats() {
        assert!(BattleRoomOptions::ffa(2).validate().is_ok());
        assert!(BattleRoomOptions::ffa(8).validate().is_ok());
        assert!(BattleRoomOptions::ffa(1).validate().is_err());
        assert!(BattleRoomOptions::ffa(0).validate().is_err());
        assert!(BattleRoomOptions::ffa(9).validate().is_err());
    }
}

#[cfg(test)]
mod wire_tests {
    use crate::{ServerMessage, decode_server, encode};

    #[test]
    fn a_room_state_of_nine_seats_is_refused_on_decode() {
        let state = |n| ServerMessage::BattleRoomState {
            seats: vec![None; n],
            spectators: 0,
        };
        let eight = encode(&state(8)).expect("encodes");
        assert_eq!(decode_server(&eight).expect("eight fit"), state(8));
        let nine = encode(&state(9)).expect("encodes");
        let err = decode_server(&nine).expect_err("nine do not");
        assert!(err.to_string().contains("at most 8"), "{err}");
    }
}
