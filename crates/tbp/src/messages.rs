//! TBP messages (newline-delimited JSON), as the specification
//! (github.com/tetris-bot-protocol/tbp-spec) and Cold Clear 2 write them.
//!
//! Unknown message types decode to `Unknown` and unknown fields are ignored, as the
//! specification requires. The 7-bag state is sent under both `bag_state` (Cold Clear 2) and
//! `bag` (the specification's text), and either is accepted.

use serde::{Deserialize, Serialize};

/// Longest line accepted from the other end (a full start message is about 3 KB).
pub const MAX_LINE: usize = 64 * 1024;

/// A piece letter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TbpPiece {
    /// I
    I,
    /// O
    O,
    /// T
    T,
    /// L
    L,
    /// J
    J,
    /// S
    S,
    /// Z
    Z,
}

/// A rotation state, named for where the piece's "top" points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Orientation {
    /// Spawn state.
    North,
    /// One clockwise turn.
    East,
    /// A half turn.
    South,
    /// One counter-clockwise turn.
    West,
}

/// The spin of a placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum TbpSpin {
    /// No spin.
    #[default]
    None,
    /// A mini spin.
    Mini,
    /// A full spin.
    Full,
}

/// Where a piece locks: the cell of its rotation centre, row 0 at the bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PieceLocation {
    /// The piece.
    #[serde(rename = "type")]
    pub kind: TbpPiece,
    /// Its rotation state.
    pub orientation: Orientation,
    /// Column of the rotation centre (0 = left).
    pub x: i32,
    /// Row of the rotation centre (0 = bottom).
    pub y: i32,
}

/// A move: a final location and its spin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TbpMove {
    /// Where the piece locks.
    pub location: PieceLocation,
    /// The spin of the lock.
    #[serde(default)]
    pub spin: TbpSpin,
}

/// The randomizer extension: what the bot may assume about future pieces.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Randomizer {
    /// The 7-bag: the pieces left in the current bag after the last piece of the queue.
    SevenBag {
        /// Cold Clear 2's name for the bag state.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bag_state: Option<Vec<TbpPiece>>,
        /// The specification's name for the bag state.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bag: Option<Vec<TbpPiece>>,
    },
    /// Any other randomizer (nothing assumed).
    #[serde(other)]
    Unknown,
}

impl Randomizer {
    /// A 7-bag randomizer with `left` still in the bag, under both field names.
    pub fn seven_bag(left: Vec<TbpPiece>) -> Randomizer {
        Randomizer::SevenBag {
            bag_state: Some(left.clone()),
            bag: Some(left),
        }
    }

    /// The bag state, from whichever field was sent.
    pub fn bag_left(&self) -> Option<&[TbpPiece]> {
        match self {
            Randomizer::SevenBag { bag_state, bag } => bag_state.as_deref().or(bag.as_deref()),
            Randomizer::Unknown => None,
        }
    }
}

/// The `start` message: the whole game state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Start {
    /// 40 rows of 10 cells, row 0 at the bottom; `null` is empty, a letter (or `G`) filled.
    pub board: Vec<Vec<Option<char>>>,
    /// The current piece first, then the known next pieces (the hold piece is separate).
    pub queue: Vec<TbpPiece>,
    /// The hold slot.
    #[serde(default)]
    pub hold: Option<TbpPiece>,
    /// Consecutive line clears so far.
    #[serde(default)]
    pub combo: u32,
    /// Whether the last clear was difficult (back-to-back is on).
    #[serde(default)]
    pub back_to_back: bool,
    /// The randomizer extension.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub randomizer: Option<Randomizer>,
}

/// Statistics a bot may attach to a suggestion.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MoveInfo {
    /// Nodes searched.
    #[serde(default)]
    pub nodes: u64,
    /// Nodes per second.
    #[serde(default)]
    pub nps: f64,
    /// Free text.
    #[serde(default)]
    pub extra: String,
}

/// Messages from the frontend (the game) to the bot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FrontendMessage {
    /// The game's rules (the randomizer extension only says which randomizer).
    Rules {
        /// `"seven_bag"` when the 7-bag extension is in use.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        randomizer: Option<String>,
    },
    /// A new game state; the bot starts thinking.
    Start(Start),
    /// Stop thinking; a `start` follows.
    Stop,
    /// Ask for moves.
    Suggest,
    /// The move the frontend played.
    Play {
        /// The move.
        #[serde(rename = "move")]
        mv: TbpMove,
    },
    /// A new piece entered the queue.
    NewPiece {
        /// The piece.
        piece: TbpPiece,
    },
    /// Exit.
    Quit,
    /// A message this version does not know (ignored).
    #[serde(other)]
    Unknown,
}

/// Messages from the bot to the frontend.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum BotMessage {
    /// Sent first: who the bot is and which extensions it supports.
    Info {
        /// Bot name.
        name: String,
        /// Bot version.
        version: String,
        /// Author.
        author: String,
        /// Extensions supported.
        #[serde(default)]
        features: Vec<String>,
    },
    /// The bot accepts the rules.
    Ready,
    /// The bot cannot play these rules.
    Error {
        /// Why (the specification uses `"unsupported_rules"`).
        #[serde(default)]
        reason: String,
    },
    /// Moves, best first (may be empty while an asynchronous bot is still thinking).
    Suggestion {
        /// Candidate moves.
        moves: Vec<TbpMove>,
        /// Optional statistics.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        move_info: Option<MoveInfo>,
    },
    /// A message this version does not know (ignored).
    #[serde(other)]
    Unknown,
}

/// Why a line could not be read as a message.
#[derive(Debug, thiserror::Error)]
pub enum ParseError {
    /// The line is longer than [`MAX_LINE`].
    #[error("line of {0} bytes is longer than the {MAX_LINE}-byte limit")]
    TooLong(usize),
    /// The line is not a TBP message.
    #[error("not a TBP message: {0}")]
    Json(#[from] serde_json::Error),
}

/// Decodes one line (without its newline) as a message of type `T`.
pub fn parse_line<T: serde::de::DeserializeOwned>(line: &str) -> Result<T, ParseError> {
    if line.len() > MAX_LINE {
        return Err(ParseError::TooLong(line.len()));
    }
    Ok(serde_json::from_str(line.trim())?)
}

/// Encodes a message as one line, newline included.
pub fn encode_line<T: Serialize>(msg: &T) -> String {
    // Serialising these types cannot fail: no maps with non-string keys, no custom serialisers.
    let mut s = serde_json::to_string(msg).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_message_types_and_fields_are_ignored() {
        let m: FrontendMessage = parse_line(r#"{"type":"hello","x":1}"#).unwrap();
        assert_eq!(m, FrontendMessage::Unknown);
        let m: FrontendMessage = parse_line(r#"{"type":"suggest","extra":[1,2]}"#).unwrap();
        assert_eq!(m, FrontendMessage::Suggest);
    }

    #[test]
    fn bag_and_bag_state_are_both_accepted() {
        for field in ["bag", "bag_state"] {
            let line = format!(r#"{{"type":"seven_bag","{field}":["T","I"]}}"#);
            let r: Randomizer = parse_line(&line).unwrap();
            assert_eq!(r.bag_left(), Some(&[TbpPiece::T, TbpPiece::I][..]));
        }
    }

    #[test]
    fn the_bag_is_sent_under_both_names() {
        let line = encode_line(&Randomizer::seven_bag(vec![TbpPiece::O]));
        assert!(line.contains(r#""bag_state":["O"]"#), "{line}");
        assert!(line.contains(r#""bag":["O"]"#), "{line}");
    }

    #[test]
    fn overlong_lines_are_refused() {
        let line = " ".repeat(MAX_LINE + 1);
        assert!(matches!(
            parse_line::<FrontendMessage>(&line),
            Err(ParseError::TooLong(_))
        ));
    }

    #[test]
    fn a_cold_clear_suggestion_decodes() {
        let line = r#"{"type":"suggestion","moves":[{"location":{"type":"T","orientation":"south","x":4,"y":1},"spin":"full"}],"move_info":{"nodes":10,"nps":1.5,"extra":""}}"#;
        let m: BotMessage = parse_line(line).unwrap();
        let BotMessage::Suggestion { moves, .. } = m else {
            panic!("not a suggestion")
        };
        assert_eq!(moves[0].location.orientation, Orientation::South);
        assert_eq!(moves[0].spin, TbpSpin::Full);
    }
}
