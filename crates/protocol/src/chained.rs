//! The chained downlink of rooms of several seats, carried by
//! [`crate::ServerMessage::BattleInputsChained`]: the entries of a
//! [`crate::ServerMessage::BattleInputsTight`] without the frame numbers the receiver already
//! holds.
//!
//! On one WebSocket the server relays every batch of a seat in order, so an entry's base (the
//! seat's confirmation before it) is almost always the confirmation of the previous entry for
//! that seat on the same connection. Both ends keep that last confirmation per seat, a
//! [`Chain`], fed only by the chained messages of the connection (so both see the same
//! sequence); an entry that follows it leaves its base off the wire, and the message needs no
//! frame of its own. An entry that does not follow (the first of a connection, one after a
//! `BattleLog`, a new match) carries its base as a varint.
//!
//! An entry is one head byte: the seat (bits 0-2), whether targets follow (bit 3), whether the
//! base follows (bit 4) and the number of key changes (bits 5-7; `7`: the count follows as a
//! varint); then the base when flagged, then as in [`crate::tight`]: `frames`, the count when
//! long, each key change as a distance and a key byte, and the targets when flagged.

use serde::de::Visitor;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::battle::MAX_ROOM_SEATS;
use crate::gathered::SeatSteps;
use crate::messages::ServerMessage;
use crate::tight::{Reader, TightError, put, read_rest, write_rest};

const HAS_TARGETS: u8 = 1 << 3;
const HAS_BASE: u8 = 1 << 4;
const COUNT_FOLLOWS: u8 = 7;

/// One entry of a chained message.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ChainedEntry {
    /// The seat's keys and targets; its `base` is 0 when `follows` (it is not on the wire).
    pub entry: SeatSteps,
    /// The base is the seat's last confirmation on the connection ([`Chain`]).
    pub follows: bool,
}

/// The entries of a [`crate::ServerMessage::BattleInputsChained`] as they travel.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ChainedSeats(pub Vec<ChainedEntry>);

impl ChainedSeats {
    /// The wire bytes of the entries.
    pub fn to_bytes(&self) -> Result<Vec<u8>, TightError> {
        let mut out = Vec::new();
        for ChainedEntry { entry: e, follows } in &self.0 {
            if usize::from(e.seat) >= MAX_ROOM_SEATS {
                return Err(TightError::Unwritable(e.seat));
            }
            let count = e.steps.len();
            let short = u8::try_from(count).ok().filter(|&c| c < COUNT_FOLLOWS);
            let mut head = e.seat | (short.unwrap_or(COUNT_FOLLOWS) << 5);
            if !e.targets.is_empty() {
                head |= HAS_TARGETS;
            }
            if !follows {
                head |= HAS_BASE;
            }
            out.push(head);
            if !follows {
                put(&mut out, e.base);
            }
            write_rest(&mut out, e, short.is_none())?;
        }
        Ok(out)
    }

    /// The entries written in `bytes`.
    pub fn from_bytes(bytes: &[u8]) -> Result<ChainedSeats, TightError> {
        let mut r = Reader { bytes };
        let mut entries = Vec::new();
        while let Some(head) = r.byte_or_end() {
            if entries.len() == MAX_ROOM_SEATS {
                return Err(TightError::TooManySeats);
            }
            let follows = head & HAS_BASE == 0;
            let base = if follows { 0 } else { r.varint()? };
            let mut e = SeatSteps::new(head & 7, base);
            let count = match head >> 5 {
                COUNT_FOLLOWS => None,
                short => Some(u32::from(short)),
            };
            read_rest(&mut r, &mut e, count, head & HAS_TARGETS != 0)?;
            entries.push(ChainedEntry { entry: e, follows });
        }
        Ok(ChainedSeats(entries))
    }
}

/// Each seat's last confirmation sent (or received) on one connection in chained messages.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Chain {
    last: [Option<u32>; MAX_ROOM_SEATS],
}

impl Chain {
    /// Nothing sent yet.
    pub fn new() -> Chain {
        Chain::default()
    }

    /// The sender's side: `entries` (absolute bases) as chained entries, each that follows
    /// the seat's last confirmation without its base.
    pub fn link(&mut self, entries: &[SeatSteps]) -> ChainedSeats {
        ChainedSeats(
            entries
                .iter()
                .map(|e| {
                    let slot = self.last.get_mut(usize::from(e.seat));
                    let follows = slot.as_ref().is_some_and(|l| **l == Some(e.base));
                    if let Some(slot) = slot {
                        *slot = Some(e.confirmed());
                    }
                    let mut entry = e.clone();
                    if follows {
                        entry.base = 0;
                    }
                    ChainedEntry { entry, follows }
                })
                .collect(),
        )
    }

    /// The receiver's side: the entries with absolute bases. One that follows a seat of
    /// which nothing was received is left out (only a broken server sends it).
    pub fn unlink(&mut self, seats: ChainedSeats) -> Vec<SeatSteps> {
        let mut out = Vec::with_capacity(seats.0.len());
        for ChainedEntry { mut entry, follows } in seats.0 {
            let Some(slot) = self.last.get_mut(usize::from(entry.seat)) else {
                continue;
            };
            if follows {
                let Some(last) = *slot else {
                    continue;
                };
                entry.base = last;
            }
            *slot = Some(entry.confirmed());
            out.push(entry);
        }
        out
    }
}

/// The receiving end of one connection: turns both compact forms of gathered inputs into the
/// `BattleInputsGathered` they stand for, so only that form reaches a session.
#[derive(Clone, Debug, Default)]
pub struct Widener {
    chain: Chain,
}

impl Widener {
    /// A new connection's.
    pub fn new() -> Widener {
        Widener::default()
    }

    /// `message` widened ([`crate::tight::widen`] for the tight form, the chain for the
    /// chained form); anything else unchanged.
    pub fn widen(&mut self, message: ServerMessage) -> ServerMessage {
        match message {
            ServerMessage::BattleInputsChained { seats } => ServerMessage::BattleInputsGathered {
                frame: 0,
                seats: self.chain.unlink(seats),
            },
            other => crate::tight::widen(other),
        }
    }
}

impl Serialize for ChainedSeats {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let bytes = self.to_bytes().map_err(serde::ser::Error::custom)?;
        serializer.serialize_bytes(&bytes)
    }
}

impl<'de> Deserialize<'de> for ChainedSeats {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Bytes;
        impl Visitor<'_> for Bytes {
            type Value = ChainedSeats;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("the bytes of chained inputs")
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<ChainedSeats, E> {
                ChainedSeats::from_bytes(v).map_err(E::custom)
            }
        }
        deserializer.deserialize_byte_buf(Bytes)
    }
}

#[cfg(test)]
#[path = "chained_tests.rs"]
mod tests;
