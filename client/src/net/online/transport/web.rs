//! The browser's [`Link`]: a page WebSocket (`crate::platform::web::WebSocket`) speaking the same binary
//! protocol as the native task. Like it, this answers the server's `Ping` itself, sends our
//! `Hello` as soon as the socket opens, reports `Welcome` as [`NetEvent::Welcome`], and stamps
//! every event with the moment it was polled (a browser delivers socket events between frames,
//! so that is as close to arrival as the page can know).

use std::cell::Cell;

use sevenbag_netplay::time::Instant;
use sevenbag_netplay::{Hello, NetError, NetEvent};
use sevenbag_protocol::{ClientMessage, MAX_MESSAGE_BYTES, ServerMessage, decode_server, encode};

use super::Link;
use crate::platform::web::{WebSocket, WsEvent};

/// One page WebSocket to a server (see the module docs).
#[derive(Debug)]
pub struct WebLink {
    socket: WebSocket,
    hello: Hello,
    /// Set once the socket closed (or we closed it): nothing more is sent or reported.
    closed: Cell<bool>,
}

impl WebLink {
    /// Opens a socket to `url`; `hello` goes first once it is open.
    pub fn open(url: &str, hello: Hello) -> WebLink {
        WebLink {
            socket: WebSocket::open(url),
            hello,
            closed: Cell::new(false),
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
}

impl Link for WebLink {
    fn send(&self, message: ClientMessage) -> Result<(), NetError> {
        self.send_now(&message)
    }

    fn try_recv_stamped(&mut self) -> Option<(NetEvent, Instant)> {
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
                    NetEvent::Disconnected(reason)
                }
                WsEvent::Binary(bytes) => match decode_server(&bytes) {
                    Err(e) => NetEvent::Error(NetError::Decode(e)),
                    Ok(ServerMessage::Ping { nonce, .. }) => {
                        let _ = self.send_now(&ClientMessage::Pong { nonce });
                        continue;
                    }
                    Ok(ServerMessage::Welcome { version, server }) => {
                        NetEvent::Welcome { version, server }
                    }
                    Ok(m) => NetEvent::Message(m),
                },
            };
            return Some((event, now));
        }
    }

    fn close(&self) {
        self.closed.set(true);
        self.socket.close();
    }
}
