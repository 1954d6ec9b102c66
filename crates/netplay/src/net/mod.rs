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
mod counters;
mod datagrams;
mod task;

use std::sync::Arc;
use std::time::{Duration, Instant};

use sevenbag_protocol::ClientMessage;
use tokio::sync::mpsc;

use crate::datagram::TransportPath;
pub use crate::link::{Hello, MessageKind, NetError, NetEvent, NetStats};
use crate::tls::TlsTrust;
use counters::Counters;
pub use counters::DatagramStatus;
pub use datagrams::DATAGRAM_CONNECT_TIMEOUT;

/// How long connecting (TCP and the WebSocket handshake) may take.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

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
    let task = runtime.spawn(task::run(
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
        self.counters.status()
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
