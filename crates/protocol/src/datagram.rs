//! Inputs over unreliable datagrams (WebTransport beside the WebSocket): the two datagram
//! formats, their limits, and how a window of inputs is applied to a log.
//!
//! A lost TCP segment holds back everything behind it until it is retransmitted (a round trip,
//! or 200 ms and more), so on a lossy link every loss is a stall. Datagrams are not held back:
//! each one repeats **every input step the peer has not acknowledged yet** (an [`InputWindow`],
//! at most [`WINDOW_FRAMES`] frames of it), so a lost datagram costs one send interval, not a
//! retransmission. Each side acknowledges what it holds; both ends keep their own log, and a
//! window that overlaps what a log already has simply extends it ([`apply_window`]).
//!
//! - Client → server: [`Uplink`]: our own inputs from the server's last acknowledgement, the
//!   latest state hash not yet acknowledged, a clock probe, and what we hold of the other seats.
//! - Server → client: [`Downlink`]: the other seats' inputs from what the client acknowledged,
//!   how much of the client's own inputs the server holds, the last hash it took, a clock answer.
//!
//! Datagrams carry a match tag ([`match_tag`], from the match header's seed), so one that
//! arrives after its match ended (a rematch has started) is recognised and dropped: datagrams
//! have no order with the WebSocket's `MatchOver`/`MatchStart`. Everything else about a match
//! (rooms, results, replays, the match log) stays on the WebSocket. The encoding is the
//! codec's (bincode 2, varints) under [`MAX_DATAGRAM_BYTES`].

use serde::{Deserialize, Serialize};
use sevenbag_core::Seat;

use crate::compact::InputStep;
use crate::inputs::{InputLog, InputLogError};
use crate::messages::InputChange;

/// Largest datagram either side sends or accepts, in bytes: below the smallest datagram any
/// QUIC path carries (1200-byte packets less headers), so nothing is ever fragmented.
pub const MAX_DATAGRAM_BYTES: usize = 1000;
/// Most frames a window repeats: inputs older than this behind the newest are not repeated;
/// a peer that far behind is caught up over the WebSocket instead.
pub const WINDOW_FRAMES: u32 = 32;
/// Most input steps one window may carry (a window of [`WINDOW_FRAMES`] frames has at most
/// that many changes; a reliable catch-up is not a datagram).
pub const MAX_WINDOW_STEPS: usize = 64;
/// Most windows one [`Downlink`] carries, and acknowledgements one [`Uplink`] carries.
pub const MAX_SEATS: usize = 8;
/// Bytes in a datagram ticket's token.
pub const TOKEN_BYTES: usize = 16;
/// The path of the WebTransport session: `https://HOST:PORT/datagrams/TOKEN-IN-HEX`.
pub const SESSION_PATH: &str = "/datagrams/";

/// The tag that ties a datagram to one match: the low 16 bits of its header's seed.
pub fn match_tag(seed: u64) -> u16 {
    seed as u16
}

/// The token as the hex string in the session's path.
pub fn token_hex(token: &[u8; TOKEN_BYTES]) -> String {
    token.iter().map(|b| format!("{b:02x}")).collect()
}

/// The token in a session path (`/datagrams/<hex>`, query ignored), if it is one.
pub fn token_from_path(path: &str) -> Option<[u8; TOKEN_BYTES]> {
    let hex = path.strip_prefix(SESSION_PATH)?;
    let hex = hex.split(['?', '#']).next()?;
    if hex.len() != TOKEN_BYTES * 2 || !hex.is_ascii() {
        return None;
    }
    let mut token = [0u8; TOKEN_BYTES];
    for (i, byte) in token.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(token)
}

/// A stretch of one seat's inputs: every change in `from..from + frames`, and those frames
/// final. Steps count from `from`, so each number is small (one byte each for a recent window).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputWindow {
    /// The first frame the window speaks for.
    pub from: u32,
    /// The changes, as offsets from `from`, increasing, each below `frames`.
    pub steps: Vec<InputStep>,
    /// Frames the window covers; `from + frames` is the new confirmation.
    pub frames: u32,
}

/// A window of inputs as absolute frames.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Window {
    /// The first frame it speaks for: every change in `from..confirmed` is listed.
    pub from: u32,
    /// The changes, increasing, all in `from..confirmed`.
    pub changes: Vec<InputChange>,
    /// Frames `0..confirmed` are final.
    pub confirmed: u32,
}

impl InputWindow {
    /// The window of `changes` (increasing, all in `from..confirmed`) from `from`.
    pub fn new(from: u32, changes: &[InputChange], confirmed: u32) -> InputWindow {
        InputWindow {
            from,
            steps: changes
                .iter()
                .map(|c| InputStep {
                    after: c.frame.saturating_sub(from),
                    input: c.input,
                })
                .collect(),
            frames: confirmed.saturating_sub(from),
        }
    }

    /// The window with absolute frames, checked: no overflow, at most [`MAX_WINDOW_STEPS`]
    /// steps, increasing and below the end.
    pub fn resolve(&self) -> Result<Window, DatagramError> {
        if self.steps.len() > MAX_WINDOW_STEPS {
            return Err(DatagramError::TooManySteps(self.steps.len()));
        }
        let confirmed = self
            .from
            .checked_add(self.frames)
            .ok_or(DatagramError::Overflow)?;
        let mut prev = None;
        let mut changes = Vec::with_capacity(self.steps.len());
        for step in &self.steps {
            if step.after >= self.frames || prev.is_some_and(|p| step.after <= p) {
                return Err(DatagramError::Order);
            }
            prev = Some(step.after);
            changes.push(InputChange {
                frame: self.from + step.after,
                input: step.input,
            });
        }
        Ok(Window {
            from: self.from,
            changes,
            confirmed,
        })
    }
}

/// A client's clock probe answered: the nonce and the server's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pong {
    /// The client's nonce.
    pub nonce: u64,
    /// Server time in milliseconds since its own epoch (as in `ServerMessage::Pong`).
    pub server_ms: u64,
}

/// A datagram from a player to the server.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Uplink {
    /// Increases with every datagram of the session: a repeat or an older one is dropped.
    pub seq: u32,
    /// [`match_tag`] of the match the inputs and acknowledgements are for (0 outside a match).
    pub tag: u16,
    /// Frames of each other seat's inputs we hold.
    pub acks: Vec<(Seat, u32)>,
    /// Our inputs the server has not acknowledged (at most [`WINDOW_FRAMES`] frames).
    pub inputs: Option<InputWindow>,
    /// Our latest state hash the server has not acknowledged: (frames simulated, hash).
    pub hash: Option<(u32, u64)>,
    /// A clock probe to answer with a [`Pong`].
    pub ping: Option<u64>,
}

/// A datagram from the server to a player.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Downlink {
    /// [`match_tag`] of the match the inputs and acknowledgements are for (0: none in this
    /// datagram).
    pub tag: u16,
    /// Frames of the player's own inputs the server holds.
    pub ack: u32,
    /// The frame of the latest state hash the server took from the player (0: none).
    pub hash_ack: u32,
    /// Other seats' inputs the player has not acknowledged.
    pub inputs: Vec<(Seat, InputWindow)>,
    /// The answer to the player's clock probe.
    pub pong: Option<Pong>,
}

/// A datagram that could not be read.
#[derive(Debug, thiserror::Error)]
pub enum DatagramError {
    /// More bytes than [`MAX_DATAGRAM_BYTES`].
    #[error("datagram of {0} bytes is over the {MAX_DATAGRAM_BYTES}-byte limit")]
    TooLarge(usize),
    /// Bytes left over after the datagram.
    #[error("{0} stray bytes after the datagram")]
    Trailing(usize),
    /// Malformed bytes.
    #[error("malformed datagram: {0}")]
    Malformed(#[from] bincode::error::DecodeError),
    /// A window with more steps than [`MAX_WINDOW_STEPS`].
    #[error("a window of {0} steps (at most {MAX_WINDOW_STEPS})")]
    TooManySteps(usize),
    /// More seats than [`MAX_SEATS`].
    #[error("{0} seats in one datagram (at most {MAX_SEATS})")]
    TooManySeats(usize),
    /// Steps out of order or past the window's end.
    #[error("window steps out of order or past its end")]
    Order,
    /// A frame number past `u32::MAX`.
    #[error("window overflows the frame number")]
    Overflow,
    /// A seat (or a target) past the largest room.
    #[error("seat {0} in a datagram (rooms have at most 8)")]
    BadSeat(u8),
    /// Not a battle datagram (its first byte is not the battle mark).
    #[error("not a datagram of a room of several seats")]
    NotBattle,
    /// The datagram could not be encoded (a bug: too long).
    #[error("cannot encode a datagram: {0}")]
    Encode(String),
}

type Config = bincode::config::Configuration<
    bincode::config::LittleEndian,
    bincode::config::Varint,
    bincode::config::Limit<MAX_DATAGRAM_BYTES>,
>;

const fn config() -> Config {
    bincode::config::standard().with_limit::<MAX_DATAGRAM_BYTES>()
}

pub(crate) fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>, DatagramError> {
    let bytes = bincode::serde::encode_to_vec(value, config())
        .map_err(|e| DatagramError::Encode(e.to_string()))?;
    if bytes.len() > MAX_DATAGRAM_BYTES {
        return Err(DatagramError::TooLarge(bytes.len()));
    }
    Ok(bytes)
}

pub(crate) fn decode<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, DatagramError> {
    if bytes.len() > MAX_DATAGRAM_BYTES {
        return Err(DatagramError::TooLarge(bytes.len()));
    }
    let (value, used) = bincode::serde::decode_from_slice(bytes, config())?;
    if used != bytes.len() {
        return Err(DatagramError::Trailing(bytes.len() - used));
    }
    Ok(value)
}

impl Uplink {
    /// The datagram's bytes.
    pub fn encode(&self) -> Result<Vec<u8>, DatagramError> {
        encode(self)
    }

    /// Reads and checks an uplink datagram (sizes, window order and bounds).
    pub fn decode(bytes: &[u8]) -> Result<Uplink, DatagramError> {
        let up: Uplink = decode(bytes)?;
        if up.acks.len() > MAX_SEATS {
            return Err(DatagramError::TooManySeats(up.acks.len()));
        }
        if let Some(window) = &up.inputs {
            window.resolve()?;
        }
        Ok(up)
    }
}

impl Downlink {
    /// The datagram's bytes.
    pub fn encode(&self) -> Result<Vec<u8>, DatagramError> {
        encode(self)
    }

    /// Reads and checks a downlink datagram (sizes, window order and bounds).
    pub fn decode(bytes: &[u8]) -> Result<Downlink, DatagramError> {
        let down: Downlink = decode(bytes)?;
        if down.inputs.len() > MAX_SEATS {
            return Err(DatagramError::TooManySeats(down.inputs.len()));
        }
        for (_, window) in &down.inputs {
            window.resolve()?;
        }
        Ok(down)
    }
}

/// What [`apply_window`] did with a window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applied {
    /// The log grew to the window's confirmation.
    Extended,
    /// Nothing new: the log already holds every frame of it (a repeat).
    Old,
    /// The window starts past the log's end: frames between are missing, nothing was taken.
    Gap,
}

/// Applies a window to a log: the part past what the log holds extends it; what overlaps is
/// already known (a repeat) and is not looked at again. A window starting past the log's end
/// leaves a gap and is not taken. The part taken is checked as [`InputLog::extend`] checks a
/// batch (order, length), so a refused window leaves the log untouched.
pub fn apply_window(
    log: &mut InputLog,
    from: u32,
    changes: &[InputChange],
    confirmed: u32,
) -> Result<Applied, InputLogError> {
    let have = log.confirmed();
    if confirmed <= have {
        return Ok(Applied::Old);
    }
    if from > have {
        return Ok(Applied::Gap);
    }
    let start = changes.partition_point(|c| c.frame < have);
    log.extend(&changes[start..], confirmed)?;
    Ok(Applied::Extended)
}

/// The window a log gives from `from` (no earlier than `confirmed - WINDOW_FRAMES`) to its
/// end: what to repeat to a peer that acknowledged `from` frames.
pub fn window_of(log: &InputLog, from: u32) -> InputWindow {
    let confirmed = log.confirmed();
    let from = from
        .max(confirmed.saturating_sub(WINDOW_FRAMES))
        .min(confirmed);
    let changes = log.changes_from(from);
    let end = changes.partition_point(|c| c.frame < confirmed);
    let changes = &changes[..end.min(MAX_WINDOW_STEPS)];
    let confirmed = if end > MAX_WINDOW_STEPS {
        // Only after a burst of more than 64 changes in 32 frames, which no player makes: the
        // window stops at the first change it cannot carry.
        changes.last().map_or(confirmed, |c| c.frame + 1)
    } else {
        confirmed
    };
    InputWindow::new(from, changes, confirmed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sevenbag_core::Input;

    fn change(frame: u32, m: u8) -> InputChange {
        InputChange {
            frame,
            input: Input(m),
        }
    }

    #[test]
    fn a_window_overlapping_the_log_extends_it_with_only_the_new_part() {
        let mut log = InputLog::from_changes(&[change(2, 1)], 10).unwrap();
        let applied = apply_window(&mut log, 5, &[change(7, 2), change(12, 3)], 15).unwrap();
        assert_eq!(applied, Applied::Extended);
        assert_eq!(log.confirmed(), 15);
        assert_eq!(log.get(9), Some(Input(1)), "the overlap is not rewritten");
        assert_eq!(log.get(12), Some(Input(3)));
        assert_eq!(log.get(11), Some(Input(1)));
    }

    #[test]
    fn a_repeat_is_old_and_a_window_past_the_end_is_a_gap() {
        let mut log = InputLog::from_changes(&[], 10).unwrap();
        assert_eq!(apply_window(&mut log, 2, &[], 8), Ok(Applied::Old));
        assert_eq!(apply_window(&mut log, 11, &[], 20), Ok(Applied::Gap));
        assert_eq!(log.confirmed(), 10);
    }

    #[test]
    fn window_of_a_log_repeats_at_most_the_window_and_round_trips() {
        let changes: Vec<_> = (0..100).map(|f| change(f * 2, (f % 3) as u8)).collect();
        let log = InputLog::from_changes(&changes, 200).unwrap();
        let w = window_of(&log, 10);
        assert_eq!(w.from, 200 - WINDOW_FRAMES);
        let resolved = w.resolve().unwrap();
        let early: Vec<_> = changes.iter().copied().filter(|c| c.frame < 168).collect();
        let mut copy = InputLog::from_changes(&early, 168).unwrap();
        assert_eq!(
            apply_window(
                &mut copy,
                resolved.from,
                &resolved.changes,
                resolved.confirmed
            ),
            Ok(Applied::Extended)
        );
        assert_eq!(copy, log);
        let recent = window_of(&log, 195);
        assert_eq!((recent.from, recent.frames), (195, 5));
    }

    #[test]
    fn datagrams_round_trip_and_stay_small() {
        let up = Uplink {
            seq: 1000,
            tag: match_tag(0xdead_beef),
            acks: vec![(Seat::Second, 5000)],
            inputs: Some(InputWindow::new(4990, &[change(4995, 9)], 5004)),
            hash: None,
            ping: None,
        };
        let bytes = up.encode().unwrap();
        assert!(bytes.len() <= 24, "{} bytes", bytes.len());
        assert_eq!(Uplink::decode(&bytes).unwrap(), up);
        let down = Downlink {
            tag: 7,
            ack: 5004,
            hash_ack: 4980,
            inputs: vec![(Seat::First, InputWindow::new(4990, &[], 5000))],
            pong: Some(Pong {
                nonce: 3,
                server_ms: 123_456,
            }),
        };
        assert_eq!(Downlink::decode(&down.encode().unwrap()).unwrap(), down);
    }

    #[test]
    fn bad_windows_and_oversized_datagrams_are_refused() {
        let mut up = Uplink {
            inputs: Some(InputWindow {
                from: 10,
                steps: vec![
                    InputStep {
                        after: 3,
                        input: Input(1),
                    },
                    InputStep {
                        after: 3,
                        input: Input(2),
                    },
                ],
                frames: 5,
            }),
            ..Uplink::default()
        };
        assert!(matches!(
            Uplink::decode(&up.encode().unwrap()),
            Err(DatagramError::Order)
        ));
        up.inputs = Some(InputWindow {
            from: u32::MAX,
            steps: vec![],
            frames: 2,
        });
        assert!(matches!(
            Uplink::decode(&up.encode().unwrap()),
            Err(DatagramError::Overflow)
        ));
        assert!(matches!(
            Uplink::decode(&[0u8; MAX_DATAGRAM_BYTES + 1]),
            Err(DatagramError::TooLarge(_))
        ));
        assert!(Uplink::decode(&[0xff; 12]).is_err());
    }

    #[test]
    fn tokens_round_trip_through_the_path() {
        let token = [0xa5; TOKEN_BYTES];
        let path = format!("{SESSION_PATH}{}", token_hex(&token));
        assert_eq!(token_from_path(&path), Some(token));
        assert_eq!(token_from_path(&format!("{path}?x=1")), Some(token));
        assert_eq!(token_from_path("/datagrams/abc"), None);
        assert_eq!(token_from_path("/elsewhere/"), None);
    }
}
