//! The network task: one WebSocket to the server on a tokio task, behind two channels.
//!
//! [`connect`] spawns the task and returns a [`NetHandle`] at once; the connection's progress
//! arrives as [`NetEvent`]s. The handle is built for two kinds of callers:
//! - a render loop that must never block polls [`NetHandle::try_recv_stamped`] once per frame and
//!   sends with [`NetHandle::send`] (both plain, non-async calls);
//! - tokio code awaits [`NetHandle::recv`].
//!
//! The task encodes and decodes messages ([`sevenbag_protocol::codec`]), answers the server's
//! `Ping` with `Pong` itself (so a client that is busy loading still looks alive), sets
//! `TCP_NODELAY` (an input batch is a few bytes; Nagle would hold it for the previous one's ACK),
//! and counts bytes and messages both ways for the net-stats overlay and the load tester.
//!
//! Every event is stamped with the [`Instant`] the task received it, so a caller that polls once
//! per rendered frame still knows when a message really arrived: a `Pong` read 30 ms later by a
//! slow frame measures the network's round trip, not the frame's.
//!
//! Datagrams: when the server hands out a ticket (`DatagramTicket`, right after `Welcome`), the
//! task opens a WebTransport session to the same host and port ([`datagrams`]) and, once it is
//! up, carries inputs, hashes and clock probes as datagrams ([`crate::datagram::DatagramLink`]);
//! everything else stays on the WebSocket. Where UDP is blocked the session never comes up and
//! the task stays on the WebSocket ([`DATAGRAM_CONNECT_TIMEOUT`]); a session that dies later
//! falls back to the WebSocket by itself. [`NetHandle::path`] says which is in use.
//!
//! Both channels are unbounded on purpose: outgoing traffic is a few dozen small messages a second
//! produced by our own frame loop, and incoming traffic is bounded by the server's per-connection
//! send queue (it cuts readers that fall behind), so neither side can grow without limit.

mod datagrams;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use sevenbag_protocol::{
    ClientMessage, InputsPacker, MAX_MESSAGE_BYTES, ServerMessage, Widener, decode_server, encode,
};
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Message, client::IntoClientRequest};
use tokio_tungstenite::{Connector, MaybeTlsStream};

use crate::datagram::{DatagramLink, TransportPath};
pub use crate::link::{Hello, MessageKind, NetError, NetEvent, NetStats};
use crate::tls::TlsTrust;
pub use datagrams::DATAGRAM_CONNECT_TIMEOUT;

/// How long connecting (TCP and the WebSocket handshake) may take.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// Datagram sessions a connection tries to open in all: after one could not be opened, or
/// died, the next try waits [`DATAGRAM_RETRY_AFTER`] times the tries so far (the match goes on
/// over the WebSocket meanwhile).
const DATAGRAM_ATTEMPTS: u32 = 3;
/// See [`DATAGRAM_ATTEMPTS`].
const DATAGRAM_RETRY_AFTER: Duration = Duration::from_secs(10);

/// The live counters behind [`NetStats`], shared with the task.
#[derive(Debug, Default)]
struct Counters {
    messages_out: AtomicU64,
    bytes_out: AtomicU64,
    messages_in: AtomicU64,
    bytes_in: AtomicU64,
    kinds_out: [AtomicU64; MessageKind::COUNT],
    kinds_in: [AtomicU64; MessageKind::COUNT],
    datagrams_out: AtomicU64,
    datagrams_in: AtomicU64,
    udp_bytes_out: AtomicU64,
    udp_bytes_in: AtomicU64,
    /// Inputs travel as datagrams right now.
    on_datagrams: AtomicBool,
    /// Where opening the datagram session stands ([`DatagramStatus`] as a number).
    datagram_status: std::sync::atomic::AtomicU8,
}

/// Where a connection's datagram path stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DatagramStatus {
    /// The server offered none (yet): an older server, `--no-datagrams`, or before `Welcome`.
    #[default]
    NotOffered,
    /// Opening the session.
    Opening,
    /// Inputs go as datagrams.
    Open,
    /// It could not be opened (UDP blocked?) or it died: everything goes over the WebSocket.
    Failed,
}

impl DatagramStatus {
    fn from_u8(v: u8) -> DatagramStatus {
        match v {
            1 => DatagramStatus::Opening,
            2 => DatagramStatus::Open,
            3 => DatagramStatus::Failed,
            _ => DatagramStatus::NotOffered,
        }
    }
}

impl Counters {
    fn sent(&self, kind: MessageKind, payload: usize) {
        self.kinds_out[kind as usize].fetch_add(1, Ordering::Relaxed);
        self.messages_out.fetch_add(1, Ordering::Relaxed);
        // Client frames are masked: 4 more header bytes than the server's.
        let bytes = payload + frame_header(payload) + 4;
        self.bytes_out.fetch_add(bytes as u64, Ordering::Relaxed);
    }

    fn received(&self, kind: MessageKind, payload: usize) {
        self.kinds_in[kind as usize].fetch_add(1, Ordering::Relaxed);
        self.messages_in.fetch_add(1, Ordering::Relaxed);
        let bytes = payload + frame_header(payload);
        self.bytes_in.fetch_add(bytes as u64, Ordering::Relaxed);
    }

    fn snapshot(&self) -> NetStats {
        NetStats {
            messages_out: self.messages_out.load(Ordering::Relaxed),
            bytes_out: self.bytes_out.load(Ordering::Relaxed),
            messages_in: self.messages_in.load(Ordering::Relaxed),
            bytes_in: self.bytes_in.load(Ordering::Relaxed),
            kinds_out: std::array::from_fn(|i| self.kinds_out[i].load(Ordering::Relaxed)),
            kinds_in: std::array::from_fn(|i| self.kinds_in[i].load(Ordering::Relaxed)),
            datagrams_out: self.datagrams_out.load(Ordering::Relaxed),
            datagrams_in: self.datagrams_in.load(Ordering::Relaxed),
            udp_bytes_out: self.udp_bytes_out.load(Ordering::Relaxed),
            udp_bytes_in: self.udp_bytes_in.load(Ordering::Relaxed),
            path: self.path(),
        }
    }

    fn set_status(&self, status: DatagramStatus) {
        self.datagram_status.store(status as u8, Ordering::Relaxed);
        self.on_datagrams
            .store(status == DatagramStatus::Open, Ordering::Relaxed);
    }

    fn path(&self) -> TransportPath {
        if self.on_datagrams.load(Ordering::Relaxed) {
            TransportPath::Datagrams
        } else {
            TransportPath::WebSocket
        }
    }

    /// The session's UDP traffic so far (QUIC's own bytes included: what the network carries).
    fn udp(&self, connection: &wtransport::Connection) {
        let stats = connection.quic_connection().stats();
        self.udp_bytes_out
            .store(stats.udp_tx.bytes, Ordering::Relaxed);
        self.udp_bytes_in
            .store(stats.udp_rx.bytes, Ordering::Relaxed);
    }
}

/// Size of an unmasked WebSocket frame header for a payload of `len` bytes (RFC 6455 §5.2).
fn frame_header(len: usize) -> usize {
    match len {
        0..=125 => 2,
        126..=65535 => 4,
        _ => 10,
    }
}

/// What the handle asks of the task.
#[derive(Debug)]
enum Command {
    /// Send this message.
    Send(ClientMessage),
    /// Close politely (a WebSocket Close frame) and end.
    Close,
    /// Drop the socket without a word, as a lost connection would.
    Abort,
}

/// A cheap, cloneable way to send on a connection from anywhere.
#[derive(Clone, Debug)]
pub struct NetSender {
    commands: mpsc::UnboundedSender<Command>,
}

impl NetSender {
    /// Queues a message; fails only once the connection is gone.
    pub fn send(&self, message: ClientMessage) -> Result<(), NetError> {
        self.commands
            .send(Command::Send(message))
            .map_err(|_| NetError::Closed)
    }
}

/// One connection to a server (see the module docs). Dropping it closes the connection.
#[derive(Debug)]
pub struct NetHandle {
    sender: NetSender,
    events: mpsc::UnboundedReceiver<(NetEvent, Instant)>,
    counters: Arc<Counters>,
    task: tokio::task::AbortHandle,
}

/// Connects to `url` (`ws://host:port/`, or `wss://` trusting the public web's certificate
/// authorities) on the current tokio runtime and sends `hello` first.
///
/// Returns at once; watch for [`NetEvent::Connected`] and [`NetEvent::Welcome`], or
/// [`NetEvent::Disconnected`] if it fails. Must be called from within a tokio runtime; from a
/// plain thread use [`connect_on`].
pub fn connect(url: &str, hello: Hello) -> NetHandle {
    connect_on(&tokio::runtime::Handle::current(), url, hello)
}

/// [`connect`] on the given runtime, for callers outside it (a render loop's thread).
pub fn connect_on(runtime: &tokio::runtime::Handle, url: &str, hello: Hello) -> NetHandle {
    connect_trusting(runtime, url, hello, TlsTrust::default())
}

/// [`connect_on`], with `trust` deciding which certificates a `wss://` server may present.
pub fn connect_trusting(
    runtime: &tokio::runtime::Handle,
    url: &str,
    hello: Hello,
    trust: TlsTrust,
) -> NetHandle {
    connect_with(
        runtime,
        url,
        hello,
        NetOptions {
            trust,
            datagrams: true,
        },
    )
}

/// How a connection is made.
#[derive(Clone, Debug)]
pub struct NetOptions {
    /// Which certificates a `wss://` server (and its datagram session) may present.
    pub trust: TlsTrust,
    /// Use the server's datagram path when it offers one (the default); `false` keeps
    /// everything on the WebSocket.
    pub datagrams: bool,
}

impl Default for NetOptions {
    fn default() -> Self {
        NetOptions {
            trust: TlsTrust::default(),
            datagrams: true,
        }
    }
}

/// [`connect_on`] with every option.
pub fn connect_with(
    runtime: &tokio::runtime::Handle,
    url: &str,
    hello: Hello,
    options: NetOptions,
) -> NetHandle {
    let (command_tx, command_rx) = mpsc::unbounded_channel();
    let (event_tx, event_rx) = mpsc::unbounded_channel();
    let counters = Arc::new(Counters::default());
    let task = runtime.spawn(run(
        url.to_owned(),
        options,
        hello.message(),
        command_rx,
        event_tx,
        Arc::clone(&counters),
    ));
    NetHandle {
        sender: NetSender {
            commands: command_tx,
        },
        events: event_rx,
        counters,
        task: task.abort_handle(),
    }
}

impl NetHandle {
    /// Queues a message for the server (non-blocking).
    pub fn send(&self, message: ClientMessage) -> Result<(), NetError> {
        self.sender.send(message)
    }

    /// A cloneable sender for the same connection.
    pub fn sender(&self) -> NetSender {
        self.sender.clone()
    }

    /// The next event if one is waiting (non-blocking, usable outside tokio).
    pub fn try_recv(&mut self) -> Option<NetEvent> {
        self.try_recv_stamped().map(|(event, _)| event)
    }

    /// The next event if one is waiting, with the moment the network task received it (which
    /// can be well before this call when the caller polls once per rendered frame).
    pub fn try_recv_stamped(&mut self) -> Option<(NetEvent, Instant)> {
        self.events.try_recv().ok()
    }

    /// Waits for the next event; `None` once the task has ended and every event was taken.
    pub async fn recv(&mut self) -> Option<NetEvent> {
        self.events.recv().await.map(|(event, _)| event)
    }

    /// Closes the connection politely (queued after messages already sent).
    pub fn close(&self) {
        let _ = self.sender.commands.send(Command::Close);
    }

    /// Drops the socket at once without a Close frame, as a cut cable would.
    pub fn abort(&self) {
        let _ = self.sender.commands.send(Command::Abort);
    }

    /// Traffic so far.
    pub fn stats(&self) -> NetStats {
        self.counters.snapshot()
    }

    /// Which path carries inputs now: the WebSocket, or datagrams.
    pub fn path(&self) -> TransportPath {
        self.counters.path()
    }

    /// Where the datagram path stands (offered, opening, open, given up).
    pub fn datagram_status(&self) -> DatagramStatus {
        DatagramStatus::from_u8(self.counters.datagram_status.load(Ordering::Relaxed))
    }

    /// Whether the task is still running.
    pub fn is_open(&self) -> bool {
        !self.task.is_finished()
    }
}

impl Drop for NetHandle {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The task body: connect, then shuttle messages until either side ends; always reports
/// `Disconnected` last.
async fn run(
    url: String,
    options: NetOptions,
    hello: ClientMessage,
    commands: mpsc::UnboundedReceiver<Command>,
    events: mpsc::UnboundedSender<(NetEvent, Instant)>,
    counters: Arc<Counters>,
) {
    let reason = match pump(&url, &options, hello, commands, &events, &counters).await {
        Ok(reason) => reason,
        Err(e) => e.to_string(),
    };
    if counters.path() == TransportPath::Datagrams {
        counters.set_status(DatagramStatus::Failed);
    }
    tracing::debug!(%url, %reason, "disconnected");
    let _ = events.send((NetEvent::Disconnected(reason), Instant::now()));
}

/// WebSocket settings: tungstenite zero-fills its whole read buffer (128 KiB by default) before
/// every socket read, which made `memset` a quarter of a load-test client's CPU. Our messages are
/// a few bytes (a replay download is the large exception, and the buffer grows for it), so
/// 4 KiB reads are plenty.
///
/// Messages and frames from the server are capped at the codec's [`MAX_MESSAGE_BYTES`] (the
/// largest message any server may send, a replay download): tungstenite refuses a larger one
/// from its header, before buffering it, just as the server does with its own (smaller) limit.
fn ws_config() -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(READ_BUFFER)
        .max_message_size(Some(MAX_MESSAGE_BYTES))
        .max_frame_size(Some(MAX_MESSAGE_BYTES))
}

/// Bytes read from the socket at a time.
const READ_BUFFER: usize = 4 * 1024;

/// A client WebSocket, over TLS for `wss://`.
type ClientWs = tokio_tungstenite::WebSocketStream<MaybeTlsStream<TcpStream>>;

/// Opens the connection (TCP with `TCP_NODELAY`, TLS for `wss://`, then the WebSocket
/// handshake); returns it with the host and port it reached.
async fn open(url: &str, trust: &TlsTrust) -> Result<(ClientWs, String, u16), NetError> {
    let bad = |reason: &str| NetError::BadUrl {
        url: url.to_owned(),
        reason: reason.to_owned(),
    };
    let request = url.into_client_request().map_err(|e| bad(&e.to_string()))?;
    let host = request.uri().host().ok_or_else(|| bad("no host"))?;
    // IPv6 literals arrive in brackets from the URI.
    let host = host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_owned();
    let secure = request.uri().scheme_str() == Some("wss");
    let port = request
        .uri()
        .port_u16()
        .unwrap_or(if secure { 443 } else { 80 });
    let reached = (host.clone(), port);
    // The root store is built only for a secure address: it is a few hundred certificates.
    let connector = if secure {
        Connector::Rustls(trust.client_config()?)
    } else {
        Connector::Plain
    };
    let connecting = async {
        let tcp = TcpStream::connect((host.as_str(), port)).await?;
        tcp.set_nodelay(true)?;
        let (ws, _response) = tokio_tungstenite::client_async_tls_with_config(
            request,
            tcp,
            Some(ws_config()),
            Some(connector),
        )
        .await?;
        Ok::<_, NetError>(ws)
    };
    let ws = tokio::time::timeout(CONNECT_TIMEOUT, connecting)
        .await
        .map_err(|_| NetError::Timeout(CONNECT_TIMEOUT))??;
    Ok((ws, reached.0, reached.1))
}

/// A datagram session being opened.
type Opening = Pin<Box<dyn Future<Output = Result<datagrams::DatagramSession, String>> + Send>>;

/// Waits for the next datagram of the session, if there is one.
async fn next_datagram(
    session: &Option<datagrams::DatagramSession>,
) -> Result<wtransport::datagram::Datagram, wtransport::error::ConnectionError> {
    match session {
        Some(s) => s.connection.receive_datagram().await,
        None => std::future::pending().await,
    }
}

/// Moves messages both ways until the connection ends; returns why it ended.
async fn pump(
    url: &str,
    options: &NetOptions,
    hello: ClientMessage,
    mut commands: mpsc::UnboundedReceiver<Command>,
    events: &mpsc::UnboundedSender<(NetEvent, Instant)>,
    counters: &Counters,
) -> Result<String, NetError> {
    let (ws, host, port) = open(url, &options.trust).await?;
    let (mut sink, mut stream) = ws.split();
    if events.send((NetEvent::Connected, Instant::now())).is_err() {
        return Ok("handle dropped".into());
    }
    let bytes = encode(&hello)?;
    counters.sent(MessageKind::Other, bytes.len());
    // `Inputs` go out as `InputsSince` where they can (`sevenbag_protocol::compact`): this task
    // sends every message of the connection in order, so it keeps the packer's one number.
    let mut packer = InputsPacker::new();
    // Gathered inputs reach the sessions in one form; the chained form counts on what this
    // connection received before.
    let mut widener = Widener::new();
    sink.send(Message::binary(bytes)).await?;
    // The datagram path: the link sees every message either way; the session, once open.
    let mut link = DatagramLink::new();
    link.speak_battles();
    let mut opening: Option<Opening> = None;
    let mut session: Option<datagrams::DatagramSession> = None;
    let mut attempts = 0u32;
    let mut retry_at: Option<Instant> = None;
    let retry_later = |attempts: u32| {
        (attempts < DATAGRAM_ATTEMPTS).then(|| Instant::now() + DATAGRAM_RETRY_AFTER * attempts)
    };
    loop {
        let wake = link.next_wake();
        let mut to_ws: Vec<ClientMessage> = Vec::new();
        tokio::select! {
            command = commands.recv() => {
                let mut next = command;
                // Feed everything already queued, then flush once: one syscall per burst.
                loop {
                    match next {
                        Some(Command::Send(message)) => {
                            if let Some(message) = link.outgoing(message) {
                                to_ws.push(message);
                            }
                        }
                        Some(Command::Close) => {
                            send_all(&mut sink, &mut packer, counters, std::mem::take(&mut to_ws)).await?;
                            close_session(&mut session, "closed by the client");
                            let _ = sink.close().await;
                            return Ok("closed by us".into());
                        }
                        Some(Command::Abort) => return Ok("dropped by us".into()),
                        None => {
                            close_session(&mut session, "closed by the client");
                            let _ = sink.close().await;
                            return Ok("handle dropped".into());
                        }
                    }
                    match commands.try_recv() {
                        Ok(command) => next = Some(command),
                        Err(_) => break,
                    }
                }
            }
            frame = stream.next() => {
                let frame = match frame {
                    None => return Ok("connection closed by the server".into()),
                    Some(frame) => frame?,
                };
                let arrived = Instant::now();
                let event = match frame {
                    Message::Binary(bytes) => {
                        let decoded = decode_server(&bytes).map(|m| widener.widen(m));
                        let kind = decoded.as_ref().map_or(MessageKind::Other, MessageKind::of_server);
                        counters.received(kind, bytes.len());
                        match decoded {
                            Ok(ServerMessage::Ping { nonce }) => {
                                let bytes = encode(&ClientMessage::Pong { nonce })?;
                                counters.sent(MessageKind::Pong, bytes.len());
                                sink.send(Message::binary(bytes)).await?;
                                continue;
                            }
                            Ok(ServerMessage::DatagramTicket { token, cert_hash }) => {
                                if options.datagrams && session.is_none() && opening.is_none() {
                                    attempts += 1;
                                    counters.set_status(DatagramStatus::Opening);
                                    let (host, trust) = (host.clone(), options.trust.clone());
                                    opening = Some(Box::pin(async move {
                                        tokio::time::timeout(
                                            DATAGRAM_CONNECT_TIMEOUT,
                                            datagrams::open(&host, port, &token, cert_hash, &trust),
                                        )
                                        .await
                                        .map_err(|_| format!("no answer over UDP within {DATAGRAM_CONNECT_TIMEOUT:?}"))?
                                    }));
                                }
                                continue;
                            }
                            Ok(ServerMessage::Welcome { version, server }) => {
                                NetEvent::Welcome { version, server }
                            }
                            Ok(message) => NetEvent::Message(link.from_websocket(message)),
                            Err(e) => {
                                tracing::warn!("undecodable message from the server: {e}");
                                NetEvent::Error(NetError::Decode(e))
                            }
                        }
                    }
                    Message::Text(_) => NetEvent::Error(NetError::TextFrame),
                    Message::Close(close) => {
                        let reason = close
                            .map(|c| format!("closed by the server: {}", c.reason))
                            .unwrap_or_else(|| "closed by the server".into());
                        close_session(&mut session, "the WebSocket closed");
                        return Ok(reason);
                    }
                    // Control frames: tungstenite answers pings itself.
                    _ => continue,
                };
                if events.send((event, arrived)).is_err() {
                    return Ok("handle dropped".into());
                }
            }
            opened = async { opening.as_mut().expect("guarded").await }, if opening.is_some() => {
                opening = None;
                match opened {
                    Ok(s) => {
                        tracing::debug!(%url, "datagram session open: inputs go as datagrams");
                        link.activate(Instant::now());
                        counters.set_status(DatagramStatus::Open);
                        session = Some(s);
                    }
                    Err(reason) => {
                        tracing::info!(%url, %reason, "no datagram path; staying on the WebSocket");
                        counters.set_status(DatagramStatus::Failed);
                        // Tell the server to forget the ticket's session, should it come up late.
                        to_ws.push(ClientMessage::Datagrams { on: false });
                        retry_at = retry_later(attempts);
                    }
                }
            }
            datagram = next_datagram(&session) => {
                let arrived = Instant::now();
                match datagram {
                    Ok(datagram) => {
                        counters.datagrams_in.fetch_add(1, Ordering::Relaxed);
                        match link.from_datagram(&datagram.payload(), arrived) {
                            Ok(messages) => {
                                for message in messages {
                                    if events.send((NetEvent::Message(message), arrived)).is_err() {
                                        return Ok("handle dropped".into());
                                    }
                                }
                            }
                            Err(e) => tracing::warn!("undecodable datagram from the server: {e}"),
                        }
                    }
                    Err(e) => {
                        tracing::info!(%url, error = %e, "datagram session ended; back to the WebSocket");
                        session = None;
                        to_ws.extend(link.fall_back());
                        counters.set_status(DatagramStatus::Failed);
                        retry_at = retry_later(attempts);
                    }
                }
            }
            _ = sleep_until_opt(wake) => {}
            _ = sleep_until_opt(retry_at) => {
                // Another try: a fresh ticket, then a new session.
                retry_at = None;
                if options.datagrams && session.is_none() && opening.is_none() {
                    to_ws.push(ClientMessage::Datagrams { on: true });
                }
            }
        }
        if let Some(s) = &session {
            let now = Instant::now();
            while let Some(up) = link.poll_datagram(now) {
                match up {
                    Ok(bytes) => {
                        if let Err(e) = s.connection.send_datagram(bytes) {
                            tracing::debug!(error = %e, "datagram not sent");
                        }
                        counters.datagrams_out.fetch_add(1, Ordering::Relaxed);
                    }
                    Err(e) => tracing::error!("cannot encode a datagram: {e}"),
                }
            }
            counters.udp(&s.connection);
            to_ws.extend(link.catch_up(now, Some(s.connection.rtt())));
            if link.is_dead(now) {
                tracing::info!(%url, "no answer over the datagram path; back to the WebSocket");
                to_ws.extend(link.fall_back());
                close_session(&mut session, "no answer");
                counters.set_status(DatagramStatus::Failed);
                retry_at = retry_later(attempts);
            }
        }
        send_all(&mut sink, &mut packer, counters, to_ws).await?;
    }
}

/// Sends `messages` over the WebSocket in order, flushing once.
async fn send_all(
    sink: &mut futures_util::stream::SplitSink<ClientWs, Message>,
    packer: &mut InputsPacker,
    counters: &Counters,
    messages: Vec<ClientMessage>,
) -> Result<(), NetError> {
    if messages.is_empty() {
        return Ok(());
    }
    for message in messages {
        let message = packer.pack(message);
        let bytes = encode(&message)?;
        counters.sent(MessageKind::of_client(&message), bytes.len());
        sink.feed(Message::binary(bytes)).await?;
    }
    sink.flush().await?;
    Ok(())
}

/// Closes the datagram session, if any, with `reason`.
fn close_session(session: &mut Option<datagrams::DatagramSession>, reason: &str) {
    if let Some(s) = session.take() {
        s.connection.close(0u32.into(), reason.as_bytes());
    }
}

async fn sleep_until_opt(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at.into()).await,
        None => std::future::pending().await,
    }
}
