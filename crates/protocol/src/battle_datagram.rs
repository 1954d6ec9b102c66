//! Inputs of rooms of several seats over unreliable datagrams: the design of
//! [`crate::datagram`] (every input step the peer has not acknowledged repeated, at most
//! [`WINDOW_FRAMES`] frames of it, acknowledgements back, a match tag), with each seat's target
//! changes beside its keys and battle seats as bytes (up to [`MAX_ROOM_SEATS`]).
//!
//! - Client → server: [`BattleUplink`]: our keys and targets from the server's last
//!   acknowledgement (the seat comes from the connection, never from the datagram), what we
//!   hold of every other seat, a clock probe.
//! - Server → client: [`BattleDownlink`]: every opponent's new inputs from what the client
//!   acknowledged, coalesced in one datagram per send, how much of the client's own inputs the
//!   server holds, and a clock answer.
//!
//! A window is a [`SeatSteps`] (the coalesced relay's entry: a seat, a base, key and target
//! steps counted from it, and the frames it makes final), so a window read from a datagram and
//! an entry of `BattleInputsTight` reach a session in one form.
//!
//! A battle datagram's first byte is [`BATTLE_MARK`] (255), which no two-seat datagram starts
//! with (it would be bincode's varint of the `u32` sequence number or the `u16` tag, and 255
//! begins none), so one session reads both kinds ([`decode_uplink`], [`decode_downlink`]) and the
//! two-seat encodings are byte for byte what they were.
//!
//! A state hash (the whole match's, as `BattleHash` carries it on the WebSocket) rides in the
//! next uplink after it is taken: such an uplink starts with [`HASHED_MARK`] (254, which begins
//! no bincode varint either) and ends with the hash's frame and value. It is sent once, not
//! repeated until acknowledged: a lost hash costs nothing, as boards that diverged stay apart
//! and the next one (every `HASH_INTERVAL` frames) shows it.

use serde::{Deserialize, Serialize};

use crate::battle::{MAX_ROOM_SEATS, SeatLog, TargetChange};
use crate::compact::InputStep;
use crate::datagram::{
    Applied, DatagramError, Downlink, MAX_WINDOW_STEPS, Pong, Uplink, WINDOW_FRAMES, decode, encode,
};
use crate::gathered::{SeatSteps, TargetStep};
use crate::inputs::InputLogError;
use crate::messages::InputChange;

/// The first byte of every battle datagram without a state hash.
pub const BATTLE_MARK: u8 = 0xFF;

/// The first byte of a battle uplink carrying a state hash after its fields.
pub const HASHED_MARK: u8 = 0xFE;

/// A datagram from a player in a room of several seats to the server.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleUplink {
    /// Increases with every datagram of the session: a repeat or an older one is dropped.
    pub seq: u32,
    /// [`crate::datagram::match_tag`] of the match (0 outside a match).
    pub tag: u16,
    /// What the acknowledgements count from: the least of them.
    pub acks_from: u32,
    /// Frames of each battle seat's inputs we hold, in seat order, less `acks_from` (one byte
    /// each while the seats are within 250 frames of each other; our own seat's is not read).
    pub acks: Vec<u32>,
    /// Our keys and targets the server has not acknowledged (its `seat` is not read).
    pub inputs: Option<SeatSteps>,
    /// A clock probe to answer with a [`Pong`].
    pub ping: Option<u64>,
    /// Our `Battle::state_hash` at a frame, `(frame, hash)`: written after the fields above,
    /// under [`HASHED_MARK`].
    #[serde(skip)]
    pub hash: Option<(u32, u64)>,
}

/// A datagram from the server to a player in a room of several seats.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleDownlink {
    /// [`crate::datagram::match_tag`] of the match (0: none in this datagram).
    pub tag: u16,
    /// Frames of the player's own inputs the server holds.
    pub ack: u32,
    /// Every opponent's inputs the player has not acknowledged, one window per seat.
    pub inputs: Vec<SeatSteps>,
    /// The answer to the player's clock probe.
    pub pong: Option<Pong>,
}

/// A window with absolute frames, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BattleSpan {
    /// Whose (battle seat).
    pub seat: u8,
    /// Every change in `from..confirmed` is listed.
    pub from: u32,
    /// Key changes, increasing, all in `from..confirmed`.
    pub changes: Vec<InputChange>,
    /// Target changes, increasing, all in `from..confirmed`.
    pub targets: Vec<TargetChange>,
    /// Frames `0..confirmed` are final.
    pub confirmed: u32,
}

/// Checks a window (seat and targets within a room, at most [`MAX_WINDOW_STEPS`] steps of
/// each kind, increasing and below its end, no overflow) and gives it with absolute frames.
pub fn resolve(window: &SeatSteps) -> Result<BattleSpan, DatagramError> {
    let seat = window.seat;
    if usize::from(seat) >= MAX_ROOM_SEATS {
        return Err(DatagramError::BadSeat(seat));
    }
    let most = window.steps.len().max(window.targets.len());
    if most > MAX_WINDOW_STEPS {
        return Err(DatagramError::TooManySteps(most));
    }
    let confirmed = window
        .base
        .checked_add(window.frames)
        .ok_or(DatagramError::Overflow)?;
    let increasing = |afters: Vec<u32>| {
        afters.windows(2).all(|w| w[0] < w[1]) && afters.last().is_none_or(|&a| a < window.frames)
    };
    if !increasing(window.steps.iter().map(|s| s.after).collect())
        || !increasing(window.targets.iter().map(|t| t.after).collect())
    {
        return Err(DatagramError::Order);
    }
    if let Some(bad) = window
        .targets
        .iter()
        .filter_map(|t| t.target)
        .find(|&t| usize::from(t) >= MAX_ROOM_SEATS)
    {
        return Err(DatagramError::BadSeat(bad));
    }
    Ok(BattleSpan {
        seat,
        from: window.base,
        changes: window.changes(),
        targets: window.target_changes(),
        confirmed,
    })
}

/// The window of `seat`'s log from `from` (no earlier than `confirmed - WINDOW_FRAMES`) to its
/// end: what to repeat to a peer that acknowledged `from` frames. A burst of more changes than
/// a window carries (never in play) stops the window at the first change it cannot carry.
pub fn window_of(seat: u8, log: &SeatLog, from: u32) -> SeatSteps {
    let confirmed = log.confirmed();
    let from = from
        .max(confirmed.saturating_sub(WINDOW_FRAMES))
        .min(confirmed);
    let (keys, targets) = log.changes_from(from);
    let end = [
        keys.get(MAX_WINDOW_STEPS).map(|c| c.frame),
        targets.get(MAX_WINDOW_STEPS).map(|c| c.frame),
    ]
    .into_iter()
    .flatten()
    .min()
    .unwrap_or(confirmed)
    .min(confirmed);
    window_from(seat, from, keys, &targets, end)
}

/// The window of `changes` and `targets` (increasing, at or after `from`) in `from..confirmed`.
pub fn window_from(
    seat: u8,
    from: u32,
    changes: &[InputChange],
    targets: &[TargetChange],
    confirmed: u32,
) -> SeatSteps {
    SeatSteps {
        seat,
        base: from,
        steps: changes
            .iter()
            .take_while(|c| c.frame < confirmed)
            .map(|c| InputStep {
                after: c.frame.saturating_sub(from),
                input: c.input,
            })
            .collect(),
        targets: targets
            .iter()
            .take_while(|t| t.frame < confirmed)
            .map(|t| TargetStep {
                after: t.frame.saturating_sub(from),
                target: t.target,
            })
            .collect(),
        frames: confirmed.saturating_sub(from),
    }
}

/// Applies a span to a log as [`crate::datagram::apply_window`] does: the part past what the
/// log holds extends it, the overlap is a repeat, a span starting past the end is a gap.
pub fn apply_span(log: &mut SeatLog, span: &BattleSpan) -> Result<Applied, InputLogError> {
    let have = log.confirmed();
    if span.confirmed <= have {
        return Ok(Applied::Old);
    }
    if span.from > have {
        return Ok(Applied::Gap);
    }
    let keys = &span.changes[span.changes.partition_point(|c| c.frame < have)..];
    let targets = &span.targets[span.targets.partition_point(|t| t.frame < have)..];
    log.extend(keys, targets, span.confirmed)?;
    Ok(Applied::Extended)
}

fn with_mark<T: Serialize>(mark: u8, value: &T) -> Result<Vec<u8>, DatagramError> {
    let body = encode(value)?;
    let mut bytes = Vec::with_capacity(body.len() + 1);
    bytes.push(mark);
    bytes.extend_from_slice(&body);
    if bytes.len() > crate::datagram::MAX_DATAGRAM_BYTES {
        return Err(DatagramError::TooLarge(bytes.len()));
    }
    Ok(bytes)
}

/// The mark and the rest of a battle datagram.
fn without_mark(bytes: &[u8]) -> Result<(u8, &[u8]), DatagramError> {
    if bytes.len() > crate::datagram::MAX_DATAGRAM_BYTES {
        return Err(DatagramError::TooLarge(bytes.len()));
    }
    match bytes.split_first() {
        Some((&mark, rest)) if mark == BATTLE_MARK || mark == HASHED_MARK => Ok((mark, rest)),
        _ => Err(DatagramError::NotBattle),
    }
}

impl BattleUplink {
    /// The acknowledgements of `held` (each battle seat's frames held, in seat order).
    pub fn acks_of(held: &[u32]) -> (u32, Vec<u32>) {
        let from = held.iter().copied().min().unwrap_or(0);
        (from, held.iter().map(|&h| h - from).collect())
    }

    /// Each battle seat's frames held, as acknowledged.
    pub fn held(&self) -> impl Iterator<Item = (u8, u32)> + '_ {
        (self.acks.iter().enumerate()).map(|(s, &a)| (s as u8, self.acks_from.saturating_add(a)))
    }

    /// The datagram's bytes.
    pub fn encode(&self) -> Result<Vec<u8>, DatagramError> {
        match self.hash {
            None => with_mark(BATTLE_MARK, self),
            Some((frame, hash)) => with_mark(HASHED_MARK, &(self, frame, hash)),
        }
    }

    /// Reads and checks a battle uplink datagram.
    pub fn decode(bytes: &[u8]) -> Result<BattleUplink, DatagramError> {
        let up = match without_mark(bytes)? {
            (HASHED_MARK, rest) => {
                let (mut up, frame, hash): (BattleUplink, u32, u64) = decode(rest)?;
                up.hash = Some((frame, hash));
                up
            }
            (_, rest) => decode(rest)?,
        };
        if up.acks.len() > MAX_ROOM_SEATS {
            return Err(DatagramError::TooManySeats(up.acks.len()));
        }
        if up
            .acks
            .iter()
            .any(|&a| up.acks_from.checked_add(a).is_none())
        {
            return Err(DatagramError::Overflow);
        }
        if let Some(window) = &up.inputs {
            resolve(window)?;
        }
        Ok(up)
    }
}

impl BattleDownlink {
    /// The datagram's bytes.
    pub fn encode(&self) -> Result<Vec<u8>, DatagramError> {
        with_mark(BATTLE_MARK, self)
    }

    /// Reads and checks a battle downlink datagram (never hashed).
    pub fn decode(bytes: &[u8]) -> Result<BattleDownlink, DatagramError> {
        let down: BattleDownlink = match without_mark(bytes)? {
            (BATTLE_MARK, rest) => decode(rest)?,
            _ => return Err(DatagramError::NotBattle),
        };
        if down.inputs.len() > MAX_ROOM_SEATS {
            return Err(DatagramError::TooManySeats(down.inputs.len()));
        }
        for window in &down.inputs {
            resolve(window)?;
        }
        Ok(down)
    }
}

/// An uplink datagram of either kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyUplink {
    /// A two-seat match's.
    Pair(Uplink),
    /// A room of several seats'.
    Battle(BattleUplink),
}

/// A downlink datagram of either kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyDownlink {
    /// A two-seat match's (or a bare clock answer).
    Pair(Downlink),
    /// A room of several seats'.
    Battle(BattleDownlink),
}

/// Reads an uplink datagram of either kind (by its first byte).
pub fn decode_uplink(bytes: &[u8]) -> Result<AnyUplink, DatagramError> {
    match bytes.first() {
        Some(&BATTLE_MARK | &HASHED_MARK) => BattleUplink::decode(bytes).map(AnyUplink::Battle),
        _ => Uplink::decode(bytes).map(AnyUplink::Pair),
    }
}

/// Reads a downlink datagram of either kind (by its first byte).
pub fn decode_downlink(bytes: &[u8]) -> Result<AnyDownlink, DatagramError> {
    match bytes.first() {
        Some(&BATTLE_MARK) => BattleDownlink::decode(bytes).map(AnyDownlink::Battle),
        _ => Downlink::decode(bytes).map(AnyDownlink::Pair),
    }
}

#[cfg(test)]
mod tests {
    use sevenbag_core::Input;

    use super::*;

    fn key(frame: u32, m: u8) -> InputChange {
        InputChange {
            frame,
            input: Input(m),
        }
    }

    fn aim(frame: u32, t: Option<u8>) -> TargetChange {
        TargetChange { frame, target: t }
    }

    #[test]
    fn no_two_seat_datagram_starts_with_the_battle_mark() {
        let mut bytes = vec![BATTLE_MARK];
        bytes.extend_from_slice(&[0; 12]);
        assert!(Uplink::decode(&bytes).is_err());
        assert!(Downlink::decode(&bytes).is_err());
        let big = Uplink {
            seq: u32::MAX,
            tag: u16::MAX,
            ..Uplink::default()
        };
        assert_ne!(big.encode().unwrap()[0], BATTLE_MARK);
        let down = Downlink {
            tag: u16::MAX,
            ..Downlink::default()
        };
        assert_ne!(down.encode().unwrap()[0], BATTLE_MARK);
    }

    #[test]
    fn battle_datagrams_round_trip_and_are_told_from_two_seat_ones() {
        let (acks_from, acks) = BattleUplink::acks_of(&[500, 0, 498, 499, 500, 500, 501, 501]);
        assert_eq!((acks_from, acks.len()), (0, 8));
        let up = BattleUplink {
            seq: 9,
            tag: 77,
            acks_from,
            acks,
            inputs: Some(window_from(
                0,
                490,
                &[key(492, 3)],
                &[aim(495, Some(4))],
                502,
            )),
            ping: Some(1),
            hash: None,
        };
        let bytes = up.encode().unwrap();
        assert_eq!(decode_uplink(&bytes).unwrap(), AnyUplink::Battle(up));
        let pair = Uplink {
            seq: 3,
            ..Uplink::default()
        };
        assert_eq!(
            decode_uplink(&pair.encode().unwrap()).unwrap(),
            AnyUplink::Pair(pair)
        );
        let down = BattleDownlink {
            tag: 77,
            ack: 502,
            inputs: (1..8)
                .map(|s| window_from(s, 495, &[key(497, 1)], &[], 500))
                .collect(),
            pong: None,
        };
        let bytes = down.encode().unwrap();
        assert!(
            bytes.len() < 100,
            "{} bytes for seven opponents",
            bytes.len()
        );
        assert_eq!(decode_downlink(&bytes).unwrap(), AnyDownlink::Battle(down));
    }

    #[test]
    fn an_uplink_of_eight_seats_costs_a_byte_an_acknowledgement() {
        let held = [5000, 5004, 4998, 5001, 5003, 5000, 4999, 5002];
        let (acks_from, acks) = BattleUplink::acks_of(&held);
        let up = BattleUplink {
            seq: 100_000,
            tag: 0xbeef,
            acks_from,
            acks,
            inputs: Some(window_from(3, 4996, &[key(4999, 2)], &[], 5006)),
            ping: None,
            hash: None,
        };
        let bytes = up.encode().unwrap();
        assert!(bytes.len() <= 32, "{} bytes", bytes.len());
        let back = BattleUplink::decode(&bytes).unwrap();
        assert_eq!(back.held().map(|(_, h)| h).collect::<Vec<_>>(), held);
    }

    /// The bytes of the fuzz corpus's seeds (fuzz/corpus/datagram/battle-*): the mark, then
    /// bincode's varints field by field.
    #[test]
    fn the_wire_form_is_the_mark_then_the_fields_in_order() {
        let up = BattleUplink {
            seq: 5,
            tag: 7,
            acks_from: 10,
            acks: vec![0, 2, 1],
            inputs: Some(window_from(1, 10, &[key(12, 3)], &[aim(14, Some(2))], 18)),
            ping: None,
            hash: None,
        };
        let bytes = [
            0xFF, 5, 7, 10, 3, 0, 2, 1, 1, 1, 10, 1, 2, 3, 1, 4, 1, 2, 8, 0,
        ];
        assert_eq!(up.encode().unwrap(), bytes);
        assert_eq!(BattleUplink::decode(&bytes).unwrap(), up);
        let down = BattleDownlink {
            tag: 7,
            ack: 12,
            inputs: vec![
                window_from(0, 10, &[key(11, 5)], &[], 14),
                window_from(2, 11, &[], &[aim(11, Some(3))], 13),
            ],
            pong: Some(Pong {
                nonce: 9,
                server_ms: 100,
            }),
        };
        let bytes = [
            0xFF, 7, 12, 2, 0, 10, 1, 1, 5, 0, 4, 2, 11, 0, 1, 0, 1, 3, 2, 1, 9, 100,
        ];
        assert_eq!(down.encode().unwrap(), bytes);
    }

    #[test]
    fn a_hash_rides_after_the_fields_under_its_own_mark() {
        let plain = BattleUplink {
            seq: 5,
            tag: 7,
            acks_from: 10,
            acks: vec![0, 2, 1],
            ..BattleUplink::default()
        };
        let hashed = BattleUplink {
            hash: Some((600, 0xdead_beef)),
            ..plain.clone()
        };
        let (p, h) = (plain.encode().unwrap(), hashed.encode().unwrap());
        assert_eq!(h[0], HASHED_MARK);
        assert_eq!(h[1..p.len()], p[1..]);
        assert_eq!(h.len(), p.len() + 3 + 5);
        assert_eq!(decode_uplink(&h).unwrap(), AnyUplink::Battle(hashed));
        assert_eq!(decode_uplink(&p).unwrap(), AnyUplink::Battle(plain));
        // A hashed mark on a downlink, or a hashed uplink cut short, is refused.
        let mut down = BattleDownlink::default().encode().unwrap();
        down[0] = HASHED_MARK;
        assert!(BattleDownlink::decode(&down).is_err());
        assert!(BattleUplink::decode(&h[..h.len() - 1]).is_err());
        let mut bytes = vec![HASHED_MARK];
        bytes.extend_from_slice(&[0; 12]);
        assert!(Uplink::decode(&bytes).is_err());
        // The fuzz corpus's seed (fuzz/corpus/datagram/battle-uplink-hashed).
        let seed = [
            0xFE, 5, 7, 10, 3, 0, 2, 1, 1, 1, 10, 1, 2, 3, 1, 4, 1, 2, 8, 0, 60, 252, 0x78, 0x56,
            0x34, 0x12,
        ];
        let up = BattleUplink::decode(&seed).unwrap();
        assert_eq!(up.hash, Some((60, 0x1234_5678)));
        assert_eq!(up.encode().unwrap(), seed);
    }

    #[test]
    fn bad_battle_windows_are_refused() {
        let mut w = window_from(9, 10, &[], &[], 12);
        assert!(matches!(resolve(&w), Err(DatagramError::BadSeat(9))));
        w.seat = 1;
        w.targets = vec![TargetStep {
            after: 1,
            target: Some(8),
        }];
        assert!(matches!(resolve(&w), Err(DatagramError::BadSeat(8))));
        w.targets = vec![TargetStep {
            after: 2,
            target: Some(3),
        }];
        assert!(matches!(resolve(&w), Err(DatagramError::Order)));
        let up = BattleUplink {
            acks: vec![1; 9],
            ..BattleUplink::default()
        };
        assert!(BattleUplink::decode(&up.encode().unwrap()).is_err());
        let up = BattleUplink {
            acks_from: u32::MAX,
            acks: vec![1],
            ..BattleUplink::default()
        };
        assert!(BattleUplink::decode(&up.encode().unwrap()).is_err());
        assert!(BattleUplink::decode(&[1, 2, 3]).is_err());
    }

    #[test]
    fn a_span_extends_a_log_with_only_its_new_part() {
        let mut log = SeatLog::from_lists(&[key(2, 1)], &[aim(3, Some(2))], 10).unwrap();
        let full = SeatLog::from_lists(
            &[key(2, 1), key(12, 5)],
            &[aim(3, Some(2)), aim(11, None)],
            20,
        )
        .unwrap();
        let span = resolve(&window_of(1, &full, 5)).unwrap();
        assert_eq!(apply_span(&mut log, &span), Ok(Applied::Extended));
        assert_eq!(log, full);
        assert_eq!(apply_span(&mut log, &span), Ok(Applied::Old));
        let later = resolve(&window_from(1, 25, &[], &[], 30)).unwrap();
        assert_eq!(apply_span(&mut log, &later), Ok(Applied::Gap));
    }
}
