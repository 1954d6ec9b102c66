//! The browser's [`Link`]: a page WebSocket (`crate::platform::web::WebSocket`) speaking the same binary
//! protocol as the native task. Like it, this answers the server's `Ping` itself, sends our
//! `Hello` as soon as the socket opens, reports `Welcome` as [`NetEvent::Welcome`], and stamps
//! every event with the moment it was polled (a browser delivers socket events between frames,
//! so that is as close to arrival as the page can know).
//!
//! The datagram path, as natively: when the server hands out a ticket the page opens a
//! WebTransport session to the same host and port (`serverCertificateHashes` for the server's
//! self-signed certificate), and once it is up, inputs, hashes and clock probes go as datagrams
//! through netplay's [`DatagramLink`] (two-seat datagrams in a match, battle datagrams in a room
//! of several seats); everything else stays on the WebSocket. Where the page
//! has no WebTransport (not a secure context) or the session does not come up within
//! [`DATAGRAM_CONNECT_TIMEOUT`], or dies later, it stays on (or goes back to) the WebSocket.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;

use sevenbag_netplay::datagram::{DatagramLink, TransportPath};
use sevenbag_netplay::time::Instant;
use sevenbag_netplay::{Hello, NetError, NetEvent};
use sevenbag_protocol::datagram::{MAX_DATAGRAM_BYTES, SESSION_PATH, token_hex};
use sevenbag_protocol::{
    ClientMessage, MAX_MESSAGE_BYTES, ServerMessage, Widener, decode_server, encode,
};

use super::Link;
use crate::platform::web::{WebSocket, WebTransport, WsEvent, WtEvent};

/// How long the datagram session may take to come up (as the native client's).
const DATAGRAM_CONNECT_TIMEOUT: std::time::Duration = std::time::Duration::from_millis(1800);

/// The datagram session and where it stands.
#[derive(Debug)]
struct Datagrams {
    session: Option<WebTransport>,
    /// When opening gives up, while the session is not up yet.
    deadline: Option<Instant>,
    link: DatagramLink,
}

/// One page WebSocket to a server (see the module docs).
#[derive(Debug)]
pub struct WebLink {
    socket: WebSocket,
    url: String,
    hello: Hello,
    /// Set once the socket closed (or we closed it): nothing more is sent or reported.
    closed: Cell<bool>,
    datagrams: RefCell<Datagrams>,
    /// Messages from datagrams waiting to be reported.
    pending: VecDeque<NetEvent>,
    /// Reads gathered inputs into one form, chained ones from what came before.
    widener: RefCell<Widener>,
}

impl WebLink {
    /// Opens a socket to `url`; `hello` goes first once it is open.
    pub fn open(url: &str, hello: Hello) -> WebLink {
        WebLink {
            socket: WebSocket::open(url),
            url: url.to_owned(),
            hello,
            closed: Cell::new(false),
            datagrams: RefCell::new(Datagrams {
                session: None,
                deadline: None,
                link: battle_speaking_link(),
            }),
            pending: VecDeque::new(),
            widener: RefCell::new(Widener::new()),
        }
    }

    fn send_now(&self, message: &ClientMessage) -> Result<(), NetError> {
        if self.closed.get() {
            return Err(NetError::Closed);
        }
        let bytes = encode(message)?;
        if self.socket.send(&bytes) {
            Ok(())
        } else {
            Err(NetError::Closed)
        }
    }

    /// Opens the datagram session for a ticket: `https://` at the WebSocket's host and port.
    fn open_datagrams(&self, token: &[u8; 16], hash: Option<[u8; 32]>) {
        let mut d = self.datagrams.borrow_mut();
        if d.session.is_some() {
            return;
        }
        let Some(authority) = authority(&self.url) else {
            return;
        };
        let url = format!("https://{authority}{SESSION_PATH}{}", token_hex(token));
        d.session = Some(WebTransport::open(&url, hash));
        d.deadline = Some(Instant::now() + DATAGRAM_CONNECT_TIMEOUT);
    }

    /// Sends the datagrams due now, catches up over the WebSocket, and gives the path up when
    /// it is dead or never came up.
    fn pump_datagrams(&mut self, now: Instant) {
        let mut to_ws = Vec::new();
        {
            let mut d = self.datagrams.borrow_mut();
            let Datagrams {
                session,
                deadline,
                link,
            } = &mut *d;
            let Some(s) = session.as_ref() else {
                return;
            };
            let mut give_up = deadline.is_some_and(|at| now >= at);
            while let Some(event) = s.next(MAX_DATAGRAM_BYTES) {
                match event {
                    WtEvent::Ready => {
                        *deadline = None;
                        give_up = false;
                        link.activate(now);
                    }
                    WtEvent::Datagram(bytes) => {
                        if let Ok(messages) = link.from_datagram(&bytes, now) {
                            self.pending
                                .extend(messages.into_iter().map(NetEvent::Message));
                        }
                    }
                    WtEvent::Closed(reason) => {
                        tracing::info!(%reason, "no datagram path; on the WebSocket");
                        give_up = true;
                    }
                }
            }
            if link.is_dead(now) {
                give_up = true;
            }
            if give_up {
                to_ws.extend(link.fall_back());
                if deadline.take().is_some() {
                    // It never came up: the server may forget the ticket.
                    to_ws.push(ClientMessage::Datagrams { on: false });
                }
                *session = None;
            } else if let Some(s) = session.as_ref() {
                while let Some(up) = link.poll_datagram(now) {
                    if let Ok(bytes) = up {
                        s.send(&bytes);
                    }
                }
                to_ws.extend(link.catch_up(now, None));
            }
        }
        for message in to_ws {
            let _ = self.send_now(&message);
        }
    }
}

/// A datagram link that sends what [`DatagramLink::poll_datagram`] gives, so a room of several
/// seats has its inputs on datagrams too (two-seat datagrams otherwise).
fn battle_speaking_link() -> DatagramLink {
    let mut link = DatagramLink::new();
    link.speak_battles();
    link
}

/// `host:port` of a `ws://`/`wss://` URL (the default port for the scheme when none is given).
fn authority(url: &str) -> Option<String> {
    let (secure, rest) = match url.split_once("://")? {
        ("wss", rest) => (true, rest),
        ("ws", rest) => (false, rest),
        _ => return None,
    };
    let host = rest.split('/').next()?;
    let has_port = match host.rfind(']') {
        Some(close) => host[close..].contains(':'),
        None => host.contains(':'),
    };
    Some(if has_port {
        host.to_owned()
    } else {
        format!("{host}:{}", if secure { 443 } else { 80 })
    })
}

impl Link for WebLink {
    fn send(&self, message: ClientMessage) -> Result<(), NetError> {
        let message = {
            let mut d = self.datagrams.borrow_mut();
            let out = d.link.outgoing(message);
            if out.is_none() && d.session.is_some() {
                // A new batch or a ping goes at once.
                let now = Instant::now();
                let mut due = Vec::new();
                while let Some(up) = d.link.poll_datagram(now) {
                    if let Ok(bytes) = up {
                        due.push(bytes);
                    }
                }
                if let Some(s) = &d.session {
                    for bytes in &due {
                        s.send(bytes);
                    }
                }
            }
            out
        };
        match message {
            Some(m) => self.send_now(&m),
            None => Ok(()),
        }
    }

    fn try_recv_stamped(&mut self) -> Option<(NetEvent, Instant)> {
        self.pump_datagrams(Instant::now());
        if let Some(event) = self.pending.pop_front() {
            return Some((event, Instant::now()));
        }
        loop {
            if self.closed.get() {
                return None;
            }
            let event = self.socket.next(MAX_MESSAGE_BYTES)?;
            let now = Instant::now();
            let event = match event {
                WsEvent::Open => {
                    let _ = self.send_now(&self.hello.message());
                    NetEvent::Connected
                }
                WsEvent::Text => NetEvent::Error(NetError::TextFrame),
                WsEvent::Closed(reason) => {
                    self.closed.set(true);
                    self.datagrams.borrow_mut().session = None;
                    NetEvent::Disconnected(reason)
                }
                WsEvent::Binary(bytes) => match decode_server(&bytes)
                    .map(|m| self.widener.borrow_mut().widen(m))
                {
                    Err(e) => NetEvent::Error(NetError::Decode(e)),
                    Ok(ServerMessage::Ping { nonce, .. }) => {
                        let _ = self.send_now(&ClientMessage::Pong { nonce });
                        continue;
                    }
                    Ok(ServerMessage::DatagramTicket { token, cert_hash }) => {
                        self.open_datagrams(&token, cert_hash);
                        continue;
                    }
                    Ok(ServerMessage::Welcome { version, server }) => {
                        NetEvent::Welcome { version, server }
                    }
                    Ok(m) => NetEvent::Message(self.datagrams.borrow_mut().link.from_websocket(m)),
                },
            };
            return Some((event, now));
        }
    }

    fn close(&self) {
        self.closed.set(true);
        self.datagrams.borrow_mut().session = None;
        self.socket.close();
    }

    fn path(&self) -> TransportPath {
        self.datagrams.borrow().link.path()
    }
}
