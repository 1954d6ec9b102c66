//! Per-client send queues: how anything in the server sends to a client without ever waiting
//! for it.
//!
//! Every connection has one [`Outbox`] (cloned into the rooms it is in) feeding one writer task
//! ([`write_loop`]) that owns the WebSocket's sending half.
//!
//! # Backpressure, and why a slow reader is cut instead of awaited
//! A room relays one player's inputs to the opponent and to every spectator. If the room
//! `await`ed a full queue, one spectator on a bad connection would stall the relay for both
//! players and everyone else watching. So senders only ever [`Outbox::send`], which uses
//! `try_send`: when a client's queue is full (it has fallen [`Limits::send_queue`] messages or
//! [`Limits::send_queue_bytes`] bytes behind) the client is **cut** with `SlowReader`, and the
//! sender moves on. The memory a client can pin is therefore bounded by those two limits.
//!
//! # Cutting
//! A [`Cut`] is stored once (the first reason wins) in a `watch` channel that both the writer
//! and the connection's reader task watch. The writer stops sending queued messages at once,
//! even in the middle of a send blocked on a full socket, then spends at most
//! [`Limits::close_grace`] delivering the final message (`Error` or `Shutdown`) and a Close frame
//! with a reason. The reader stops handling messages and tidies up (`crate::client`).
//!
//! [`Limits::send_queue`]: crate::Limits::send_queue
//! [`Limits::send_queue_bytes`]: crate::Limits::send_queue_bytes
//! [`Limits::close_grace`]: crate::Limits::close_grace

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use futures_util::{Sink, SinkExt};
use sevenbag_protocol::{ErrorCode, ServerMessage};
use tokio::sync::{mpsc, watch};
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::{Bytes, Message};

use crate::Limits;
use crate::gate::Gated;
use crate::metrics::Metrics;

/// A connection's id, unique for the life of the server (used in logs and room membership).
pub(crate) type ClientId = u64;

/// Why and how a connection is being closed.
#[derive(Clone, Debug)]
pub(crate) struct Cut {
    /// The last message the client gets (`Error` or `Shutdown`); `None` if the peer is gone.
    pub(crate) last: Option<ServerMessage>,
    /// The Close frame's code and reason; `None` to just drop the socket.
    pub(crate) close: Option<(CloseCode, String)>,
}

impl Cut {
    /// A fatal error: `Error { code, message, fatal: true }`, then Close with the message.
    pub(crate) fn error(code: ErrorCode, message: impl Into<String>) -> Cut {
        let message = message.into();
        let close_code = match code {
            ErrorCode::TooLarge => CloseCode::Size,
            ErrorCode::TextFrame => CloseCode::Unsupported,
            ErrorCode::Shutdown => CloseCode::Away,
            ErrorCode::ServerFull => CloseCode::Again,
            _ => CloseCode::Policy,
        };
        Cut {
            close: Some((close_code, close_reason(&message))),
            last: Some(ServerMessage::Error {
                code,
                message,
                fatal: true,
            }),
        }
    }

    /// The server is shutting down: `Shutdown { reason }`, then Close (going away).
    pub(crate) fn shutdown(reason: &str) -> Cut {
        Cut {
            last: Some(ServerMessage::Shutdown {
                reason: reason.to_string(),
            }),
            close: Some((CloseCode::Away, close_reason(reason))),
        }
    }

    /// The peer closed or vanished: nothing left to say.
    pub(crate) fn gone() -> Cut {
        Cut {
            last: None,
            close: None,
        }
    }

    /// The error code, if this cut is for an error.
    pub(crate) fn code(&self) -> Option<ErrorCode> {
        match &self.last {
            Some(ServerMessage::Error { code, .. }) => Some(*code),
            Some(ServerMessage::Shutdown { .. }) => Some(ErrorCode::Shutdown),
            _ => None,
        }
    }

    /// The reason for logs.
    pub(crate) fn reason(&self) -> &str {
        match &self.last {
            Some(ServerMessage::Error { message, .. }) => message,
            Some(ServerMessage::Shutdown { reason }) => reason,
            _ => "peer closed the connection",
        }
    }
}

/// A Close frame's reason must fit in 123 bytes; cut at a character boundary.
fn close_reason(text: &str) -> String {
    let mut end = text.len().min(123);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_string()
}

/// Encodes a server message once, so a broadcast can share the bytes between recipients.
///
/// Returns `None` (and logs) if the message cannot be encoded, which only happens if the server
/// builds a message over the codec's limit: a server bug, not a client's doing.
pub(crate) fn encode(message: &ServerMessage) -> Option<Bytes> {
    match sevenbag_protocol::encode(message) {
        Ok(bytes) => Some(Bytes::from(bytes)),
        Err(e) => {
            tracing::error!(error = %e, "cannot encode a server message");
            None
        }
    }
}

/// State shared by every clone of an [`Outbox`] and its writer.
#[derive(Debug)]
struct Shared {
    /// Bytes queued and not yet handed to the socket.
    queued_bytes: AtomicUsize,
    /// [`Limits::send_queue_bytes`](crate::Limits::send_queue_bytes).
    max_bytes: usize,
    /// The cut, once decided. Set once: the first reason is the one the client hears.
    cut: watch::Sender<Option<Cut>>,
    /// Where sent messages, bytes and queue depths are counted.
    metrics: Metrics,
}

/// The sending side of one client's queue. Cheap to clone; never blocks.
#[derive(Clone, Debug)]
pub(crate) struct Outbox {
    /// The connection this queue belongs to.
    id: ClientId,
    /// Bounded by [`Limits::send_queue`](crate::Limits::send_queue): `try_send` failing with
    /// `Full` is how a slow reader is detected.
    tx: mpsc::Sender<Bytes>,
    shared: Arc<Shared>,
}

/// What the writer task needs: the receiving end of the queue.
pub(crate) struct Queue {
    rx: mpsc::Receiver<Bytes>,
    shared: Arc<Shared>,
}

/// A new client queue sized by `limits`, counted in `metrics`.
pub(crate) fn queue(id: ClientId, limits: &Limits, metrics: Metrics) -> (Outbox, Queue) {
    let (tx, rx) = mpsc::channel(limits.send_queue.max(1));
    let (cut, _) = watch::channel(None);
    let shared = Arc::new(Shared {
        queued_bytes: AtomicUsize::new(0),
        max_bytes: limits.send_queue_bytes,
        cut,
        metrics,
    });
    (
        Outbox {
            id,
            tx,
            shared: shared.clone(),
        },
        Queue { rx, shared },
    )
}

impl Outbox {
    /// The connection's id.
    pub(crate) fn id(&self) -> ClientId {
        self.id
    }

    /// Queues a message; `false` if it was not queued (client cut or gone).
    pub(crate) fn send(&self, message: &ServerMessage) -> bool {
        match encode(message) {
            Some(bytes) => self.send_bytes(bytes),
            None => false,
        }
    }

    /// Queues pre-encoded bytes (a broadcast); never waits. A full queue cuts the client.
    pub(crate) fn send_bytes(&self, bytes: Bytes) -> bool {
        if self.is_cut() {
            return false;
        }
        let len = bytes.len();
        let before = self.shared.queued_bytes.fetch_add(len, Ordering::Relaxed);
        // The byte limit applies to what is already waiting, so one large message (a replay
        // download) still goes out to a client that is keeping up.
        if before > 0 && before + len > self.shared.max_bytes {
            self.shared.queued_bytes.fetch_sub(len, Ordering::Relaxed);
            self.cut(slow_reader(format!("{before} bytes waiting")));
            return false;
        }
        let waiting = self.tx.max_capacity() - self.tx.capacity();
        self.shared.metrics.send_queue_depth.observe(waiting as f64);
        match self.tx.try_send(bytes) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.shared.queued_bytes.fetch_sub(len, Ordering::Relaxed);
                self.cut(slow_reader(format!(
                    "{} messages waiting",
                    self.tx.max_capacity()
                )));
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => {
                // The writer has finished: the connection is closing, nothing to do.
                self.shared.queued_bytes.fetch_sub(len, Ordering::Relaxed);
                false
            }
        }
    }

    /// Queues a WebSocket Ping control frame (in order with the messages). Browsers and
    /// WebSocket libraries answer it themselves, without the game: a page whose frame loop a
    /// background tab or a dark phone screen has stopped is still heard from.
    pub(crate) fn send_websocket_ping(&self) -> bool {
        self.send_bytes(Bytes::new())
    }

    /// Cuts the connection for `cut`, unless it was already cut (the first reason stands).
    pub(crate) fn cut(&self, cut: Cut) {
        self.shared.cut.send_if_modified(|current| {
            if current.is_none() {
                *current = Some(cut);
                true
            } else {
                false
            }
        });
    }

    /// Whether the connection has been cut.
    pub(crate) fn is_cut(&self) -> bool {
        self.shared.cut.borrow().is_some()
    }

    /// The cut, if any.
    pub(crate) fn current_cut(&self) -> Option<Cut> {
        self.shared.cut.borrow().clone()
    }

    /// A receiver that sees the cut when it happens.
    pub(crate) fn watch_cut(&self) -> watch::Receiver<Option<Cut>> {
        self.shared.cut.subscribe()
    }
}

/// Waits until the connection is cut. (The `watch` guard is dropped here, not held across the
/// caller's awaits, which would make the caller's future `!Send`.)
pub(crate) async fn cut_happened(rx: &mut watch::Receiver<Option<Cut>>) {
    let _ = rx.wait_for(Option::is_some).await;
}

fn slow_reader(detail: String) -> Cut {
    Cut::error(
        ErrorCode::SlowReader,
        format!("you are not reading fast enough ({detail}); disconnecting"),
    )
}

/// The most queued messages written with one flush.
const MAX_BATCH: usize = 64;

/// The writer task: sends queued messages in order until the connection is cut, then delivers
/// the cut's last message and Close frame within `grace`. Returns the sink so the connection
/// can reunite it with the reading half for a lingering close.
pub(crate) async fn write_loop<S>(mut sink: S, queue: Queue, grace: Duration) -> S
where
    S: Sink<Message> + Unpin,
{
    let Queue { mut rx, shared } = queue;
    let mut cut_rx = shared.cut.subscribe();
    // One wait for the cut, polled by both `select!`s below for the life of the loop: a fresh
    // `wait_for` per message re-registered with the watch channel's `Notify` every time, which
    // was about a sixth of the server's instructions (callgrind, docs/history).
    // Gated, so the burst of messages it wakes for does not poll it again each time.
    let mut cut_wait = Gated::new(cut_happened(&mut cut_rx));
    // The burst being written, reused for the life of the connection: no allocation per wake.
    let mut batch: Vec<Bytes> = Vec::with_capacity(MAX_BATCH);
    loop {
        let bytes = tokio::select! {
            // `biased`: a cut wins over queued messages, which a cut client no longer gets.
            biased;
            _ = &mut cut_wait => break,
            next = rx.recv() => match next {
                Some(bytes) => bytes,
                // Every outbox is gone: nobody can send any more, so we are done.
                None => break,
            },
        };
        // Everything else already queued goes out in the same socket write: one flush (one
        // system call, usually) for a burst of relayed inputs instead of one per message.
        batch.clear();
        batch.push(bytes);
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(more) => batch.push(more),
                Err(_) => break,
            }
        }
        let len: usize = batch.iter().map(Bytes::len).sum();
        // Empty bytes are a WebSocket ping ([`Outbox::send_websocket_ping`]): no protocol
        // message is ever empty.
        let count = batch.iter().filter(|b| !b.is_empty()).count();
        let write = async {
            for bytes in batch.drain(..) {
                let frame = if bytes.is_empty() {
                    Message::Ping(bytes)
                } else {
                    Message::Binary(bytes)
                };
                sink.feed(frame).await?;
            }
            sink.flush().await
        };
        tokio::select! {
            biased;
            // A send blocked on a full socket is abandoned when the client is cut. If the
            // frame was partly written, tungstenite keeps the rest in its buffer and writes
            // it before the next frame, so the stream stays well-formed.
            _ = &mut cut_wait => break,
            sent = write => {
                shared.queued_bytes.fetch_sub(len, Ordering::Relaxed);
                if sent.is_ok() {
                    shared.metrics.messages_out.inc_by(count as u64);
                    shared.metrics.bytes_out.inc_by(len as u64);
                }
                if sent.is_err() {
                    // The socket failed: the peer is gone. Tell everyone who holds an outbox.
                    shared.cut.send_if_modified(|c| {
                        if c.is_none() {
                            *c = Some(Cut::gone());
                            true
                        } else {
                            false
                        }
                    });
                    break;
                }
            }
        }
    }
    // From here on `try_send`s fail as `Closed`, and nothing queued is sent.
    rx.close();
    let cut = shared.cut.borrow().clone();
    if let Some(cut) = cut {
        let last = cut.last.as_ref().and_then(encode);
        let farewell = async {
            if let Some(bytes) = last {
                sink.send(Message::Binary(bytes)).await.ok()?;
            }
            if let Some((code, reason)) = cut.close {
                let frame = CloseFrame {
                    code,
                    reason: reason.into(),
                };
                sink.send(Message::Close(Some(frame))).await.ok()?;
            }
            Some(())
        };
        // Bounded: a client that does not read at all never gets these, and we do not wait.
        let _ = tokio::time::timeout(grace, farewell).await;
    }
    sink
}
