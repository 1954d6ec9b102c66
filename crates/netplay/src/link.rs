//! What a connection to the server reports and says first, whatever carries it: the native
//! network task ([`crate::net`], tokio and tungstenite) or a browser's WebSocket (the game's
//! web build). Both fill the same [`NetEvent`]s, so the sessions, the driver and the game's
//! online controller do not know which one runs.

use std::time::Duration;

use sevenbag_core::Handling;
use sevenbag_protocol::{ClientMessage, DecodeError, EncodeError, PROTOCOL_VERSION, ServerMessage};

/// What the first message of a connection says about us.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hello {
    /// Display name (1..=24 characters).
    pub name: String,
    /// Our handling; it goes into the match header.
    pub handling: Handling,
    /// A resume token from `Joined`, to take back a dropped seat.
    pub resume: Option<u64>,
}

impl Hello {
    /// A hello with default handling and no resume token.
    pub fn new(name: impl Into<String>) -> Hello {
        Hello {
            name: name.into(),
            handling: Handling::default(),
            resume: None,
        }
    }

    /// The wire message.
    pub fn message(&self) -> ClientMessage {
        ClientMessage::Hello {
            version: PROTOCOL_VERSION,
            name: self.name.clone(),
            handling: self.handling,
            resume: self.resume,
        }
    }
}

/// Something the network task has to report.
#[derive(Debug)]
pub enum NetEvent {
    /// The WebSocket is open and our `Hello` is on its way.
    Connected,
    /// The server accepted our `Hello`.
    Welcome {
        /// The server's protocol version.
        version: u32,
        /// The server's name and build.
        server: String,
    },
    /// Any other server message (the server's `Ping` is answered by the task and not reported).
    Message(ServerMessage),
    /// A problem that did not end the connection (a message that did not decode, a text frame).
    Error(NetError),
    /// The connection is gone, with why; this is the last event.
    Disconnected(String),
}

/// A network failure.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    /// The URL is not a `ws://host:port/` address.
    #[error("bad server address {url:?}: {reason}")]
    BadUrl {
        /// The address given.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// TCP connect failed.
    #[error("cannot connect: {0}")]
    Connect(#[from] std::io::Error),
    /// Connecting took longer than [`CONNECT_TIMEOUT`](crate::net::CONNECT_TIMEOUT).
    #[error("connecting timed out after {0:?}")]
    Timeout(Duration),
    /// The WebSocket layer failed.
    #[cfg(feature = "native")]
    #[error("websocket: {0}")]
    WebSocket(#[from] tokio_tungstenite::tungstenite::Error),
    /// The server sent bytes that are not a message.
    #[error("undecodable message from the server: {0}")]
    Decode(#[from] DecodeError),
    /// A message could not be encoded.
    #[error(transparent)]
    Encode(#[from] EncodeError),
    /// The server sent a text frame, which the protocol does not use.
    #[error("the server sent a text frame")]
    TextFrame,
    /// The connection is closed: nothing can be sent.
    #[error("not connected")]
    Closed,
    /// The TLS settings for a `wss://` address could not be built.
    #[cfg(feature = "native")]
    #[error(transparent)]
    Tls(#[from] crate::tls::TlsTrustError),
}

/// Traffic counters of one connection: the WebSocket's at its level (payload plus frame header;
/// TCP/IP headers not included), the datagram session's as UDP payload.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NetStats {
    /// Messages sent.
    pub messages_out: u64,
    /// Bytes sent.
    pub bytes_out: u64,
    /// Messages received.
    pub messages_in: u64,
    /// Bytes received.
    pub bytes_in: u64,
    /// Messages sent, by [`MessageKind`] (indexed by `kind as usize`).
    pub kinds_out: [u64; MessageKind::COUNT],
    /// Messages received, by [`MessageKind`].
    pub kinds_in: [u64; MessageKind::COUNT],
    /// Datagrams sent (inputs, hashes and pings on the datagram path).
    pub datagrams_out: u64,
    /// Datagrams received.
    pub datagrams_in: u64,
    /// Bytes of UDP payload the datagram session sent (QUIC's own bytes included).
    pub udp_bytes_out: u64,
    /// Bytes of UDP payload the datagram session received.
    pub udp_bytes_in: u64,
    /// The path carrying inputs when the counters were read.
    pub path: crate::datagram::TransportPath,
}

impl NetStats {
    /// `self - earlier`, field by field (counters only grow).
    pub fn since(&self, earlier: &NetStats) -> NetStats {
        let mut kinds_out = self.kinds_out;
        let mut kinds_in = self.kinds_in;
        for i in 0..MessageKind::COUNT {
            kinds_out[i] -= earlier.kinds_out[i];
            kinds_in[i] -= earlier.kinds_in[i];
        }
        NetStats {
            messages_out: self.messages_out - earlier.messages_out,
            bytes_out: self.bytes_out - earlier.bytes_out,
            messages_in: self.messages_in - earlier.messages_in,
            bytes_in: self.bytes_in - earlier.bytes_in,
            kinds_out,
            kinds_in,
            datagrams_out: self.datagrams_out - earlier.datagrams_out,
            datagrams_in: self.datagrams_in - earlier.datagrams_in,
            udp_bytes_out: self.udp_bytes_out - earlier.udp_bytes_out,
            udp_bytes_in: self.udp_bytes_in - earlier.udp_bytes_in,
            path: self.path,
        }
    }

    /// `self + other`, field by field (two connections of one player).
    pub fn plus(&self, other: &NetStats) -> NetStats {
        let mut kinds_out = self.kinds_out;
        let mut kinds_in = self.kinds_in;
        for i in 0..MessageKind::COUNT {
            kinds_out[i] += other.kinds_out[i];
            kinds_in[i] += other.kinds_in[i];
        }
        NetStats {
            messages_out: self.messages_out + other.messages_out,
            bytes_out: self.bytes_out + other.bytes_out,
            messages_in: self.messages_in + other.messages_in,
            bytes_in: self.bytes_in + other.bytes_in,
            kinds_out,
            kinds_in,
            datagrams_out: self.datagrams_out + other.datagrams_out,
            datagrams_in: self.datagrams_in + other.datagrams_in,
            udp_bytes_out: self.udp_bytes_out + other.udp_bytes_out,
            udp_bytes_in: self.udp_bytes_in + other.udp_bytes_in,
            // The later connection's path is the one in use.
            path: other.path,
        }
    }
}

/// The kinds of message a match's traffic is made of, counted apart so a load test can say
/// what the relay spends its messages on (fewer messages is the big lever on server CPU).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MessageKind {
    /// Inputs either way: `Inputs` and its compact and catch-up forms, and the battle forms
    /// (`BattleInputs`, `BattleInputsSince`, `BattleInputsFrom`, gathered and tight relays).
    Inputs,
    /// `StateHash` (client to server).
    StateHash,
    /// `Ping` either way.
    Ping,
    /// `Pong` either way.
    Pong,
    /// Everything else (lobby, room state, match start and end...).
    Other,
}

impl MessageKind {
    /// How many kinds there are.
    pub const COUNT: usize = 5;
    /// Every kind, in index order.
    pub const ALL: [MessageKind; MessageKind::COUNT] = [
        MessageKind::Inputs,
        MessageKind::StateHash,
        MessageKind::Ping,
        MessageKind::Pong,
        MessageKind::Other,
    ];

    /// The kind's name, as the message is called.
    pub fn name(self) -> &'static str {
        match self {
            MessageKind::Inputs => "Inputs",
            MessageKind::StateHash => "StateHash",
            MessageKind::Ping => "Ping",
            MessageKind::Pong => "Pong",
            MessageKind::Other => "other",
        }
    }

    /// The kind of a client's message.
    pub fn of_client(message: &sevenbag_protocol::ClientMessage) -> MessageKind {
        use sevenbag_protocol::ClientMessage as C;
        match message {
            C::Inputs { .. }
            | C::InputsSince { .. }
            | C::InputsFrom { .. }
            | C::BattleInputs { .. }
            | C::BattleInputsSince { .. }
            | C::BattleKeysSince { .. }
            | C::BattleInputsFrom { .. } => MessageKind::Inputs,
            C::StateHash { .. } | C::BattleStateHash { .. } | C::BattleHash { .. } => {
                MessageKind::StateHash
            }
            C::Ping { .. } => MessageKind::Ping,
            C::Pong { .. } => MessageKind::Pong,
            _ => MessageKind::Other,
        }
    }

    /// The kind of a server's message.
    pub fn of_server(message: &sevenbag_protocol::ServerMessage) -> MessageKind {
        use sevenbag_protocol::ServerMessage as S;
        match message {
            S::Inputs { .. }
            | S::InputsFrom { .. }
            | S::BattleInputs { .. }
            | S::BattleInputsGathered { .. }
            | S::BattleInputsTight { .. }
            | S::BattleInputsChained { .. } => MessageKind::Inputs,
            S::Ping { .. } => MessageKind::Ping,
            S::Pong { .. } => MessageKind::Pong,
            _ => MessageKind::Other,
        }
    }
}
