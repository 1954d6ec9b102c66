//! The tight wire form of gathered entries, [`TightSeats`], carried by
//! [`crate::ServerMessage::BattleInputsTight`]: the same [`SeatSteps`] as
//! [`crate::ServerMessage::BattleInputsGathered`] in about half the bytes of overhead.
//!
//! Serde's derived form spends a byte on the seat, one on each list's length (the target list
//! is almost always empty) and a varint on the base and on `frames`: about 6 bytes an entry
//! before its key changes, at eight seats for every batch of seven opponents. Here an entry is
//! one byte holding the seat (3 bits), whether targets follow (1 bit) and the number of key
//! changes (4 bits, `15`: the count follows as a varint), then LEB128 varints for the base
//! (from the message's `frame`) and `frames`, then each key change as the varint distance from
//! the previous one (the first from the base) and its key byte, then, when flagged, the target
//! count and each target as a distance and a byte (`255`: no target). The entries fill the
//! byte string; at most [`MAX_ROOM_SEATS`] of them.
//!
//! Distances make an unsorted list impossible to write; anything else a hostile server could
//! send (a varint or a distance past `u32`, a count longer than the bytes left, a seat's
//! target past the room, trailing bytes) fails the decode with a [`TightError`].

use serde::de::Visitor;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sevenbag_core::Input;

use crate::battle::MAX_ROOM_SEATS;
use crate::compact::InputStep;
use crate::gathered::{SeatSteps, TargetStep};
use crate::messages::ServerMessage;

/// Gathered entries (bases counted from the message's `frame`, as
/// [`crate::gathered::pack`] leaves them) in their tight wire form.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct TightSeats(pub Vec<SeatSteps>);

/// Why bytes are not a [`TightSeats`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TightError {
    /// The bytes end inside an entry.
    #[error("gathered inputs end inside an entry")]
    Truncated,
    /// A varint longer than a `u32`, or a frame past the largest.
    #[error("gathered inputs overflow a frame number")]
    Overflow,
    /// More entries than seats in a room.
    #[error("gathered inputs for more than {MAX_ROOM_SEATS} seats")]
    TooManySeats,
    /// A target that is neither a seat of a room nor "none".
    #[error("gathered inputs target seat {0}")]
    BadTarget(u8),
    /// An entry that cannot be written (a seat past 7 or a target past the room).
    #[error("an entry of seat {0} has no tight form")]
    Unwritable(u8),
}

const COUNT_FOLLOWS: u8 = 15;
const HAS_TARGETS: u8 = 1 << 3;
const NO_TARGET: u8 = 255;

impl TightSeats {
    /// The wire bytes of the entries.
    pub fn to_bytes(&self) -> Result<Vec<u8>, TightError> {
        let mut out = Vec::new();
        for e in &self.0 {
            if usize::from(e.seat) >= MAX_ROOM_SEATS {
                return Err(TightError::Unwritable(e.seat));
            }
            let count = e.steps.len();
            let short = u8::try_from(count).ok().filter(|&c| c < COUNT_FOLLOWS);
            let flag = if e.targets.is_empty() { 0 } else { HAS_TARGETS };
            out.push(e.seat | flag | (short.unwrap_or(COUNT_FOLLOWS) << 4));
            put(&mut out, e.base);
            write_rest(&mut out, e, short.is_none())?;
        }
        Ok(out)
    }

    /// The entries written in `bytes`.
    pub fn from_bytes(bytes: &[u8]) -> Result<TightSeats, TightError> {
        let mut r = Reader { bytes };
        let mut entries = Vec::new();
        while let Some(head) = r.byte_or_end() {
            if entries.len() == MAX_ROOM_SEATS {
                return Err(TightError::TooManySeats);
            }
            let mut e = SeatSteps::new(head & 7, r.varint()?);
            let count = match head >> 4 {
                COUNT_FOLLOWS => None,
                short => Some(u32::from(short)),
            };
            read_rest(&mut r, &mut e, count, head & HAS_TARGETS != 0)?;
            entries.push(e);
        }
        Ok(TightSeats(entries))
    }
}

/// Writes what follows an entry's base: `frames`, the key count when `count_follows`, the
/// key changes, and the target changes when there are any (shared with [`crate::chained`]).
pub(crate) fn write_rest(
    out: &mut Vec<u8>,
    e: &SeatSteps,
    count_follows: bool,
) -> Result<(), TightError> {
    put(out, e.frames);
    if count_follows {
        put(out, e.steps.len() as u32);
    }
    let mut last = 0u32;
    for s in &e.steps {
        put(out, s.after.wrapping_sub(last));
        out.push(s.input.0);
        last = s.after;
    }
    if !e.targets.is_empty() {
        put(out, e.targets.len() as u32);
        let mut last = 0u32;
        for t in &e.targets {
            put(out, t.after.wrapping_sub(last));
            out.push(match t.target {
                None => NO_TARGET,
                Some(s) if usize::from(s) < MAX_ROOM_SEATS => s,
                Some(_) => return Err(TightError::Unwritable(e.seat)),
            });
            last = t.after;
        }
    }
    Ok(())
}

/// Reads what [`write_rest`] writes into `e` (`count`: the key count from the head byte,
/// `None` when it follows).
pub(crate) fn read_rest(
    r: &mut Reader,
    e: &mut SeatSteps,
    count: Option<u32>,
    has_targets: bool,
) -> Result<(), TightError> {
    e.frames = r.varint()?;
    let count = match count {
        Some(count) => count,
        None => r.varint()?,
    };
    e.steps = r.list(count, |after, byte| {
        Ok(InputStep {
            after,
            input: Input(byte),
        })
    })?;
    if has_targets {
        let count = r.varint()?;
        e.targets = r.list(count, |after, byte| {
            let target = match byte {
                NO_TARGET => None,
                s if usize::from(s) < MAX_ROOM_SEATS => Some(s),
                s => return Err(TightError::BadTarget(s)),
            };
            Ok(TargetStep { after, target })
        })?;
    }
    Ok(())
}

/// Appends `value` as an LEB128 varint (7 bits a byte, low first).
pub(crate) fn put(out: &mut Vec<u8>, mut value: u32) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Reads the bytes of a [`TightSeats`] front to back.
pub(crate) struct Reader<'a> {
    pub(crate) bytes: &'a [u8],
}

impl Reader<'_> {
    pub(crate) fn byte_or_end(&mut self) -> Option<u8> {
        let (&first, rest) = self.bytes.split_first()?;
        self.bytes = rest;
        Some(first)
    }

    fn byte(&mut self) -> Result<u8, TightError> {
        self.byte_or_end().ok_or(TightError::Truncated)
    }

    pub(crate) fn varint(&mut self) -> Result<u32, TightError> {
        let mut value = 0u32;
        for shift in (0..35).step_by(7) {
            let b = self.byte()?;
            let bits = u32::from(b & 0x7f);
            if shift == 28 && bits > 0x0f {
                return Err(TightError::Overflow);
            }
            value |= bits << shift;
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(TightError::Overflow)
    }

    /// `count` items of a distance and a byte, made by `item` from the running offset.
    fn list<T>(
        &mut self,
        count: u32,
        item: impl Fn(u32, u8) -> Result<T, TightError>,
    ) -> Result<Vec<T>, TightError> {
        // Every item takes at least two bytes: a longer count is a lie, refused before
        // anything is allocated for it.
        if count as usize > self.bytes.len() / 2 {
            return Err(TightError::Truncated);
        }
        let mut items = Vec::with_capacity(count as usize);
        let mut at = 0u32;
        for _ in 0..count {
            at = at.checked_add(self.varint()?).ok_or(TightError::Overflow)?;
            items.push(item(at, self.byte()?)?);
        }
        Ok(items)
    }
}

impl Serialize for TightSeats {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let bytes = self.to_bytes().map_err(serde::ser::Error::custom)?;
        serializer.serialize_bytes(&bytes)
    }
}

impl<'de> Deserialize<'de> for TightSeats {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Bytes;
        impl Visitor<'_> for Bytes {
            type Value = TightSeats;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("the bytes of gathered inputs")
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<TightSeats, E> {
                TightSeats::from_bytes(v).map_err(E::custom)
            }
        }
        deserializer.deserialize_byte_buf(Bytes)
    }
}

/// `message` with a [`crate::ServerMessage::BattleInputsTight`] turned into the
/// `BattleInputsGathered` it stands for; anything else unchanged. A receiver calls it on every
/// message so that only one form of gathered inputs reaches a session.
pub fn widen(message: ServerMessage) -> ServerMessage {
    match message {
        ServerMessage::BattleInputsTight { frame, seats } => ServerMessage::BattleInputsGathered {
            frame,
            seats: seats.0,
        },
        other => other,
    }
}

#[cfg(test)]
#[path = "tight_tests.rs"]
mod tests;
