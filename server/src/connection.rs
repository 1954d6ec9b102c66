//! WebSocket frames ↔ protocol messages: the handshake, the size limits, what each kind of frame
//! means, and the lingering close.
//!
//! Like mini-redis's `Connection`, this layer knows bytes and frames and nothing about rooms.
//! Every way a frame can be bad maps to one [`Cut`] here, with the message the client will read.

use std::time::Duration;

use hyper::upgrade::Upgraded;
use hyper_util::rt::TokioIo;
use sevenbag_protocol::{ClientMessage, DecodeError, ErrorCode, PROTOCOL_VERSION};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::protocol::{Role, WebSocketConfig};
use tokio_tungstenite::tungstenite::{self, Message};

use crate::Limits;
use crate::relay::Cut;

/// A WebSocket as the server accepts them: the IO that hyper hands over after the HTTP upgrade
/// (`crate::http`). `Upgraded` erases the transport, so a TLS stream (`crate::tls`) is served
/// by this module and the relay exactly like a plain socket.
pub(crate) type Ws = WebSocketStream<TokioIo<Upgraded>>;

/// What one read from a client amounted to.
#[derive(Debug)]
pub(crate) enum Incoming {
    /// One decoded message.
    Message(ClientMessage),
    /// A WebSocket-level ping or pong (tungstenite answers pings itself): only proof of life.
    Control,
    /// The client sent a Close frame or the stream ended.
    Closed,
}

/// The WebSocket on an upgraded HTTP connection (hyper answered the handshake), with the
/// client's message limits set in tungstenite too, so an oversized frame is refused from its
/// header before it is buffered.
///
/// The read buffer is 512 bytes instead of tungstenite's 128 KiB: tungstenite zero-fills it
/// before every socket read (`FrameCodec::read_in`), which cost a quarter of the CPU under load
/// at 128 KiB and still 17% of the server's instructions at 4 KiB (callgrind,
/// docs/history). Our messages are small (an `Inputs` message is about 15 bytes, a `Hello` a few
/// hundred); a larger one still arrives, over several reads.
pub(crate) async fn websocket(io: Upgraded, limits: &Limits) -> Ws {
    let config = WebSocketConfig::default()
        .read_buffer_size(512)
        .max_message_size(Some(limits.max_message_bytes))
        .max_frame_size(Some(limits.max_message_bytes));
    WebSocketStream::from_raw_socket(TokioIo::new(io), Role::Server, Some(config)).await
}

/// Turns one item of the WebSocket stream into an [`Incoming`], or the [`Cut`] it deserves.
/// `greeted` says whether the client's `Hello` was accepted (before it, an undecodable message
/// may be a newer client's `Hello`, which deserves the version message).
pub(crate) fn classify(
    item: Option<Result<Message, tungstenite::Error>>,
    limits: &Limits,
    greeted: bool,
) -> Result<Incoming, Box<Cut>> {
    let message = match item {
        None => return Ok(Incoming::Closed),
        Some(Ok(message)) => message,
        Some(Err(e)) => return Err(Box::new(read_error(e, limits))),
    };
    match message {
        Message::Binary(bytes) => {
            match sevenbag_protocol::decode_client(&bytes, limits.max_message_bytes) {
                Ok(message) => Ok(Incoming::Message(message)),
                Err(e) => Err(Box::new(decode_error(&bytes, &e, limits, greeted))),
            }
        }
        Message::Text(_) => Err(Box::new(Cut::error(
            ErrorCode::TextFrame,
            "text frames are not part of the protocol: send binary frames",
        ))),
        Message::Ping(_) | Message::Pong(_) => Ok(Incoming::Control),
        Message::Close(_) => Ok(Incoming::Closed),
        // Only produced when writing raw frames; never by a read.
        Message::Frame(_) => Ok(Incoming::Control),
    }
}

fn read_error(e: tungstenite::Error, limits: &Limits) -> Cut {
    use tungstenite::Error as E;
    match e {
        E::Capacity(c) => Cut::error(
            ErrorCode::TooLarge,
            format!(
                "message too large ({c}); the limit is {} bytes",
                limits.max_message_bytes
            ),
        ),
        E::Protocol(p) => match p {
            tungstenite::error::ProtocolError::ResetWithoutClosingHandshake => Cut::gone(),
            p => Cut::error(
                ErrorCode::BadMessage,
                format!("WebSocket protocol error: {p}"),
            ),
        },
        E::Utf8(_) => Cut::error(
            ErrorCode::TextFrame,
            "text frames are not part of the protocol: send binary frames",
        ),
        // I/O errors, a closed connection: the peer is gone, there is no one to tell.
        _ => Cut::gone(),
    }
}

fn decode_error(bytes: &[u8], e: &DecodeError, limits: &Limits, greeted: bool) -> Cut {
    if let DecodeError::TooLarge { got, .. } = e {
        return Cut::error(
            ErrorCode::TooLarge,
            format!(
                "message of {got} bytes is over the {}-byte limit",
                limits.max_message_bytes
            ),
        );
    }
    if !greeted
        && let Some(version) = hello_version(bytes)
        && version != PROTOCOL_VERSION
    {
        return version_mismatch(version);
    }
    Cut::error(ErrorCode::BadMessage, format!("undecodable message: {e}"))
}

/// The cut for a client of another protocol version.
pub(crate) fn version_mismatch(theirs: u32) -> Cut {
    Cut::error(
        ErrorCode::Version,
        format!("server is version {PROTOCOL_VERSION}, you have {theirs}"),
    )
}

/// The version field of what looks like a `Hello` of any protocol version.
///
/// A newer client's `Hello` may not decode as ours, but every version keeps `Hello` as variant 0
/// with `version: u32` first, so the first two varints of the message are enough to tell the
/// user which version they have. (This is the one place outside the protocol crate that knows
/// the byte format; it reads only those two numbers.)
fn hello_version(bytes: &[u8]) -> Option<u32> {
    let config = bincode::config::standard().with_limit::<64>();
    let ((variant, version), _): ((u32, u32), usize) =
        bincode::decode_from_slice(bytes, config).ok()?;
    (variant == 0).then_some(version)
}

/// Closes the TCP side politely after the Close frame went out: shut down our write half (FIN)
/// and read and discard what the client still sends until it closes, `grace` passes, or
/// `max_bytes` were discarded. Closing a socket with unread input would make the kernel send a
/// reset, which can destroy the final `Error` before the client reads it.
pub(crate) async fn linger(ws: Ws, grace: Duration, max_bytes: usize) {
    let mut tcp = ws.into_inner();
    let drain = async {
        let _ = tcp.shutdown().await;
        let mut buf = [0u8; 4096];
        let mut total = 0usize;
        while total < max_bytes {
            match tcp.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => total += n,
            }
        }
    };
    let _ = tokio::time::timeout(grace, drain).await;
}

#[cfg(test)]
mod tests {
    use super::*;
    use sevenbag_core::Handling;

    #[test]
    fn hello_version_reads_our_own_hello() {
        let hello = ClientMessage::Hello {
            version: 77,
            name: "x".into(),
            handling: Handling::default(),
            resume: None,
        };
        let bytes = sevenbag_protocol::encode(&hello).unwrap();
        assert_eq!(hello_version(&bytes), Some(77));
        let other = sevenbag_protocol::encode(&ClientMessage::Ready).unwrap();
        assert_eq!(hello_version(&other), None);
        assert_eq!(hello_version(&[]), None);
    }
}
