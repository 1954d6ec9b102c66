//! [`RawClient`]: the protocol spoken by hand over a real WebSocket, good and bad.

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::{Context, bail};
use futures_util::{SinkExt, StreamExt};
use sevenbag_core::Handling;
use sevenbag_protocol::{ClientMessage, ErrorCode, PROTOCOL_VERSION, Profile, ServerMessage};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio::time::Instant;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;

/// Default bound on every receive.
const RECV_TIMEOUT: Duration = Duration::from_secs(5);
/// Most messages skipped while looking for one (bounds every search loop by count).
const MAX_SKIPPED: usize = 100_000;

/// The secret key of test player `n`: distinct per `n`, never all zeros.
pub fn player_key(n: u8) -> [u8; 32] {
    let mut k = [0u8; 32];
    k[0] = n;
    k[31] = 0xa5;
    k
}

/// Test player `n` signing in as `name`: a `Register` when `register`, else an `Identify`.
pub fn sign_in(n: u8, name: &str, register: bool) -> ClientMessage {
    if register {
        ClientMessage::Register {
            key: player_key(n),
            name: name.into(),
        }
    } else {
        ClientMessage::Identify { key: player_key(n) }
    }
}

/// Something the server sent.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A protocol message.
    Message(ServerMessage),
    /// A Close frame (with its code and reason), or the end of the stream (`None`).
    Closed(Option<CloseFrame>),
}

/// A hand-driven protocol client over a real WebSocket on loopback.
#[derive(Debug)]
pub struct RawClient {
    ws: WebSocketStream<TcpStream>,
    /// Answer the server's `Ping { nonce }` with `Pong` while receiving (default `true`).
    pub auto_pong: bool,
    closed: bool,
    /// The latest datagram ticket the server offered (kept aside, not returned as a message:
    /// it follows every `Welcome` on a server with a datagram path).
    ticket: Option<([u8; 16], Option<[u8; 32]>)>,
}

impl RawClient {
    /// Connects (WebSocket handshake only; no `Hello`).
    pub async fn connect(addr: SocketAddr) -> anyhow::Result<RawClient> {
        let tcp = TcpStream::connect(addr).await.context("tcp connect")?;
        Self::handshake(addr, tcp).await
    }

    /// Connects with a small kernel receive buffer, so a client that stops reading fills the
    /// path to it quickly (for slow-reader tests).
    pub async fn connect_with_recv_buffer(
        addr: SocketAddr,
        bytes: u32,
    ) -> anyhow::Result<RawClient> {
        let socket = TcpSocket::new_v4().context("socket")?;
        socket.set_recv_buffer_size(bytes).context("SO_RCVBUF")?;
        let tcp = socket.connect(addr).await.context("tcp connect")?;
        Self::handshake(addr, tcp).await
    }

    async fn handshake(addr: SocketAddr, tcp: TcpStream) -> anyhow::Result<RawClient> {
        tcp.set_nodelay(true).context("TCP_NODELAY")?;
        let url = format!("ws://{addr}/");
        let (ws, _) = tokio::time::timeout(
            RECV_TIMEOUT,
            tokio_tungstenite::client_async_with_config(url, tcp, None),
        )
        .await
        .context("handshake timed out")?
        .context("WebSocket handshake")?;
        Ok(RawClient {
            ws,
            auto_pong: true,
            closed: false,
            ticket: None,
        })
    }

    /// Connects and greets as `name` (default handling), expecting `Welcome`.
    pub async fn hello(addr: SocketAddr, name: &str) -> anyhow::Result<RawClient> {
        let mut client = Self::connect(addr).await?;
        client.send(&Self::hello_message(name)).await?;
        match client.recv().await? {
            ServerMessage::Welcome { version, .. } if version == PROTOCOL_VERSION => Ok(client),
            other => bail!("expected Welcome, got {other:?}"),
        }
    }

    /// A `Hello` of this protocol version.
    pub fn hello_message(name: &str) -> ClientMessage {
        ClientMessage::Hello {
            version: PROTOCOL_VERSION,
            name: name.to_string(),
            handling: Handling::default(),
            resume: None,
        }
    }

    /// Sends one message.
    pub async fn send(&mut self, message: &ClientMessage) -> anyhow::Result<()> {
        let bytes = sevenbag_protocol::encode(message)?;
        self.send_binary(bytes).await
    }

    /// Queues one message without flushing (for floods; call [`Self::flush`]).
    pub async fn feed(&mut self, message: &ClientMessage) -> anyhow::Result<()> {
        let bytes = sevenbag_protocol::encode(message)?;
        self.ws.feed(Message::Binary(bytes.into())).await?;
        Ok(())
    }

    /// Flushes fed messages.
    pub async fn flush(&mut self) -> anyhow::Result<()> {
        self.ws.flush().await?;
        Ok(())
    }

    /// Sends arbitrary bytes as one binary frame.
    pub async fn send_binary(&mut self, bytes: Vec<u8>) -> anyhow::Result<()> {
        tokio::time::timeout(RECV_TIMEOUT, self.ws.send(Message::Binary(bytes.into())))
            .await
            .context("send timed out")??;
        Ok(())
    }

    /// Sends a text frame (which the protocol does not allow).
    pub async fn send_text(&mut self, text: &str) -> anyhow::Result<()> {
        self.ws.send(Message::Text(text.into())).await?;
        Ok(())
    }

    /// The next event within `limit`, answering server pings if [`Self::auto_pong`].
    pub async fn next_event(&mut self, limit: Duration) -> anyhow::Result<Event> {
        self.poll_event(limit)
            .await?
            .context("timed out waiting for the server")
    }

    /// Like [`Self::next_event`], but `Ok(None)` when `limit` passes with nothing received.
    pub async fn poll_event(&mut self, limit: Duration) -> anyhow::Result<Option<Event>> {
        let deadline = Instant::now() + limit;
        for _ in 0..MAX_SKIPPED {
            if self.closed {
                return Ok(Some(Event::Closed(None)));
            }
            // Cancel-safe: tokio-tungstenite keeps partial frames in the stream.
            let Ok(item) = tokio::time::timeout_at(deadline, self.ws.next()).await else {
                return Ok(None);
            };
            let message = match item {
                None => {
                    self.closed = true;
                    return Ok(Some(Event::Closed(None)));
                }
                Some(Err(e)) => {
                    // A reset after the server's Close is an end like any other.
                    self.closed = true;
                    tracing::debug!(error = %e, "raw client read error");
                    return Ok(Some(Event::Closed(None)));
                }
                Some(Ok(m)) => m,
            };
            match message {
                Message::Binary(bytes) => {
                    let m = sevenbag_protocol::decode_server(&bytes)
                        .context("server sent an undecodable message")?;
                    if let (ServerMessage::Ping { nonce }, true) = (&m, self.auto_pong) {
                        let nonce = *nonce;
                        self.send(&ClientMessage::Pong { nonce }).await.ok();
                        continue;
                    }
                    if let ServerMessage::DatagramTicket { token, cert_hash } = m {
                        self.ticket = Some((token, cert_hash));
                        continue;
                    }
                    return Ok(Some(Event::Message(m)));
                }
                Message::Close(frame) => {
                    self.closed = true;
                    return Ok(Some(Event::Closed(frame)));
                }
                Message::Text(t) => bail!("server sent a text frame: {t}"),
                Message::Ping(_) | Message::Pong(_) | Message::Frame(_) => continue,
            }
        }
        bail!("more than {MAX_SKIPPED} frames without an event")
    }

    /// The datagram ticket the server offered (waits up to `limit` for one).
    pub async fn datagram_ticket(
        &mut self,
        limit: Duration,
    ) -> anyhow::Result<([u8; 16], Option<[u8; 32]>)> {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(ticket) = self.ticket.take() {
                return Ok(ticket);
            }
            let now = Instant::now();
            if now >= deadline {
                bail!("no datagram ticket within {limit:?}");
            }
            // Short polls: a ticket is kept aside by `poll_event`, which goes on waiting.
            let step = deadline
                .saturating_duration_since(now)
                .min(Duration::from_millis(20));
            if let Some(Event::Closed(frame)) = self.poll_event(step).await? {
                bail!("closed before a ticket: {frame:?}");
            }
        }
    }

    /// The next message (5 s bound); an error if the connection closes first.
    pub async fn recv(&mut self) -> anyhow::Result<ServerMessage> {
        self.recv_within(RECV_TIMEOUT).await
    }

    /// The next message within `limit`.
    pub async fn recv_within(&mut self, limit: Duration) -> anyhow::Result<ServerMessage> {
        match self.next_event(limit).await? {
            Event::Message(m) => Ok(m),
            Event::Closed(frame) => bail!("connection closed: {frame:?}"),
        }
    }

    /// Skips messages until `pick` returns `Some`, within `limit`.
    pub async fn recv_until<T>(
        &mut self,
        limit: Duration,
        mut pick: impl FnMut(&ServerMessage) -> Option<T>,
    ) -> anyhow::Result<T> {
        let deadline = Instant::now() + limit;
        for _ in 0..MAX_SKIPPED {
            let left = deadline.saturating_duration_since(Instant::now());
            let m = self.recv_within(left).await?;
            if let Some(t) = pick(&m) {
                return Ok(t);
            }
        }
        bail!("more than {MAX_SKIPPED} messages without the one expected")
    }

    /// The profile of the next `Identified` or `Registered` reply, within `limit`; an `Error`
    /// reply first is an error naming its code.
    pub async fn profile_reply(&mut self, limit: Duration) -> anyhow::Result<Profile> {
        self.recv_until(limit, |m| match m {
            ServerMessage::Identified { profile } | ServerMessage::Registered { profile, .. } => {
                Some(Ok(profile.clone()))
            }
            ServerMessage::Error { code, message, .. } => {
                Some(Err(anyhow::anyhow!("{code:?}: {message}")))
            }
            _ => None,
        })
        .await?
    }

    /// The code of the next `Error` reply, within `limit` (other messages are skipped).
    pub async fn error_reply(&mut self, limit: Duration) -> anyhow::Result<ErrorCode> {
        self.recv_until(limit, |m| match m {
            ServerMessage::Error { code, .. } => Some(*code),
            _ => None,
        })
        .await
    }

    /// Reads until the server cuts this client: a fatal `Error` then a Close frame (or the end
    /// of the stream). Returns the error's code and message and the Close frame. Messages
    /// before the error are skipped.
    pub async fn expect_cut(
        &mut self,
        limit: Duration,
    ) -> anyhow::Result<(ErrorCode, String, Option<CloseFrame>)> {
        let deadline = Instant::now() + limit;
        let mut error = None;
        for _ in 0..MAX_SKIPPED {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_event(left).await? {
                Event::Message(ServerMessage::Error {
                    code,
                    message,
                    fatal: true,
                }) => error = Some((code, message)),
                Event::Message(m) if error.is_some() => bail!("message after a fatal error: {m:?}"),
                Event::Message(_) => {}
                Event::Closed(frame) => {
                    let (code, message) =
                        error.context("connection closed without a fatal Error")?;
                    return Ok((code, message, frame));
                }
            }
        }
        bail!("more than {MAX_SKIPPED} messages without being cut")
    }

    /// Whether the connection has ended.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// Closes politely (Close frame), ignoring errors.
    pub async fn close(mut self) {
        let _ = tokio::time::timeout(Duration::from_secs(1), self.ws.close(None)).await;
    }
}

/// Writes `bytes` on a plain TCP connection (no WebSocket) and reads until the server closes
/// it, within `limit`. Returns what was read.
pub async fn raw_tcp_exchange(
    addr: SocketAddr,
    bytes: &[u8],
    limit: Duration,
) -> anyhow::Result<Vec<u8>> {
    let mut tcp = TcpStream::connect(addr).await?;
    tcp.write_all(bytes).await?;
    let mut out = Vec::new();
    let read = async {
        let mut buf = [0u8; 4096];
        while out.len() < 1 << 20 {
            match tcp.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => out.extend_from_slice(&buf[..n]),
            }
        }
    };
    tokio::time::timeout(limit, read)
        .await
        .context("the server did not close the connection")?;
    Ok(out)
}
