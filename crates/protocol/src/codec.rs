//! The one place the byte format lives: bincode 2 (serde path, standard config) with a limit.
//!
//! Decoding is bounded twice: a message longer than [`MAX_MESSAGE_BYTES`] is refused before any
//! decoding, and bincode's own limit stops a length prefix from allocating past it.

use bincode::config::{self, Configuration, Limit, LittleEndian, Varint};
use serde::Serialize;

use crate::messages::{ClientMessage, ServerMessage};

/// Largest encoded message either side accepts (a full replay download is the largest).
pub const MAX_MESSAGE_BYTES: usize = 4 * 1024 * 1024;

type Config = Configuration<LittleEndian, Varint, Limit<MAX_MESSAGE_BYTES>>;

const fn config() -> Config {
    config::standard().with_limit::<MAX_MESSAGE_BYTES>()
}

/// A message that could not be decoded.
#[derive(Debug, thiserror::Error)]
pub enum DecodeError {
    /// More bytes than the limit.
    #[error("message of {got} bytes is over the {limit}-byte limit")]
    TooLarge {
        /// Bytes received.
        got: usize,
        /// The limit in force.
        limit: usize,
    },
    /// Bytes left over after one message.
    #[error("{0} stray bytes after the message")]
    Trailing(usize),
    /// Malformed bytes.
    #[error("malformed message: {0}")]
    Malformed(#[from] bincode::error::DecodeError),
}

/// A message that could not be encoded.
#[derive(Debug, thiserror::Error)]
pub enum EncodeError {
    /// The encoded message is longer than [`MAX_MESSAGE_BYTES`], so no peer would accept it.
    #[error("message of {got} bytes is over the {limit}-byte limit")]
    TooLarge {
        /// Bytes the message encodes to.
        got: usize,
        /// [`MAX_MESSAGE_BYTES`].
        limit: usize,
    },
    /// bincode refused the value.
    #[error("cannot encode message: {0}")]
    Bincode(#[from] bincode::error::EncodeError),
}

/// Encodes any message (either direction), refusing one over [`MAX_MESSAGE_BYTES`]. bincode
/// 2.0.1 does not apply the configured limit when encoding, so the length is checked here.
pub fn encode<M: Serialize>(message: &M) -> Result<Vec<u8>, EncodeError> {
    let bytes = bincode::serde::encode_to_vec(message, config())?;
    if bytes.len() > MAX_MESSAGE_BYTES {
        return Err(EncodeError::TooLarge {
            got: bytes.len(),
            limit: MAX_MESSAGE_BYTES,
        });
    }
    Ok(bytes)
}

fn decode<M: serde::de::DeserializeOwned>(bytes: &[u8], limit: usize) -> Result<M, DecodeError> {
    if bytes.len() > limit {
        return Err(DecodeError::TooLarge {
            got: bytes.len(),
            limit,
        });
    }
    let (message, used) = bincode::serde::decode_from_slice(bytes, config())?;
    if used != bytes.len() {
        return Err(DecodeError::Trailing(bytes.len() - used));
    }
    Ok(message)
}

/// Decodes a client's message; the server passes its own (smaller) limit.
pub fn decode_client(bytes: &[u8], limit: usize) -> Result<ClientMessage, DecodeError> {
    decode(bytes, limit.min(MAX_MESSAGE_BYTES))
}

/// Decodes a server's message.
pub fn decode_server(bytes: &[u8]) -> Result<ServerMessage, DecodeError> {
    decode(bytes, MAX_MESSAGE_BYTES)
}
