//! A short connection to the server for one request (the standings, an account request, a solo
//! upload): connect with the game's TLS trust, say hello, send, read what arrives, close. Each
//! user keeps only its own questions and answers, in an [`Exchange`] that also keeps where the
//! request stands and fails it when the connection does.

use sevenbag_netplay::{Hello, NetEvent};
use sevenbag_protocol::{ClientMessage, ServerMessage};

use crate::net::online::transport::{Link, open};
use crate::net::online::{reach_text, server_url};

/// Said when a send finds the connection gone.
pub const BROKEN: &str = "The connection to the server broke.";

/// Something that arrived on a [`Request`].
#[derive(Debug)]
pub enum Arrival {
    /// The server accepted the hello: requests can be sent.
    Welcome,
    /// A message from the server.
    Message(ServerMessage),
    /// The connection ended, with a sentence for the screen.
    Gone(String),
}

/// One short connection.
pub struct Request {
    url: String,
    net: Option<Box<dyn Link>>,
    welcomed: bool,
}

impl Request {
    /// Connects to `address` as `name` ("Player" when blank); the error is a sentence.
    pub fn connect(address: &str, name: &str) -> Result<Request, String> {
        let url = server_url(address);
        let name = match name.trim() {
            "" => "Player",
            name => name,
        };
        let net = open(&url, Hello::new(name))?;
        Ok(Request {
            url,
            net: Some(net),
            welcomed: false,
        })
    }

    /// The next thing that arrived, if any; after [`Arrival::Gone`] nothing more comes.
    pub fn next(&mut self) -> Option<Arrival> {
        loop {
            match self.net.as_mut()?.try_recv_stamped()?.0 {
                NetEvent::Welcome { .. } => {
                    self.welcomed = true;
                    return Some(Arrival::Welcome);
                }
                NetEvent::Message(m) => return Some(Arrival::Message(m)),
                NetEvent::Disconnected(reason) => {
                    self.net = None;
                    return Some(Arrival::Gone(if self.welcomed {
                        "The server closed the connection.".to_owned()
                    } else {
                        reach_text(&self.url, &reason)
                    }));
                }
                NetEvent::Connected | NetEvent::Error(_) => {}
            }
        }
    }

    /// Sends `message`; the error ([`BROKEN`]) means the connection is gone.
    pub fn send(&self, message: ClientMessage) -> Result<(), String> {
        match &self.net {
            Some(net) if net.send(message).is_ok() => Ok(()),
            _ => Err(BROKEN.to_owned()),
        }
    }

    /// Closes the connection (the request is done).
    pub fn close(&mut self) {
        if let Some(net) = self.net.take() {
            net.close();
        }
    }
}

impl Drop for Request {
    fn drop(&mut self) {
        self.close();
    }
}

/// Where a user of an [`Exchange`] stands: its own status type, which can say that the request
/// failed and whether answers are still awaited.
pub trait Standing {
    /// The request failed, with a sentence for the screen.
    fn failed(why: String) -> Self;
    /// True while answers are awaited: a connection lost then fails the request.
    fn waiting(&self) -> bool;
}

/// A [`Request`] and where its user stands: the connection while it is open, and the standing,
/// which fails when the connection cannot be opened, a send finds it broken, or it is lost
/// while answers are awaited.
pub struct Exchange<S> {
    request: Option<Request>,
    status: S,
}

impl<S: Standing> Exchange<S> {
    /// Connects to `address` as `name`, standing at `status` (or failed at once).
    pub fn connect(address: &str, name: &str, status: S) -> Exchange<S> {
        match Request::connect(address, name) {
            Ok(request) => Exchange {
                request: Some(request),
                status,
            },
            Err(e) => Exchange::settled(S::failed(e)),
        }
    }

    /// No connection: the request settled at `status` before it was sent.
    pub fn settled(status: S) -> Exchange<S> {
        Exchange {
            request: None,
            status,
        }
    }

    /// The next thing that arrived, if any. [`Arrival::Gone`] ends the exchange, and fails it
    /// when answers were awaited.
    pub fn next(&mut self) -> Option<Arrival> {
        let arrival = self.request.as_mut()?.next()?;
        if let Arrival::Gone(why) = &arrival {
            if self.status.waiting() {
                self.status = S::failed(why.clone());
            }
            self.request = None;
        }
        Some(arrival)
    }

    /// Sends `message`; a broken connection fails the request.
    pub fn send(&mut self, message: ClientMessage) {
        if let Some(Err(e)) = self.request.as_ref().map(|r| r.send(message)) {
            self.status = S::failed(e);
        }
    }

    /// Settles the request at `status` and closes the connection.
    pub fn finish(&mut self, status: S) {
        self.status = status;
        self.request = None;
    }

    /// Where the request stands.
    pub fn status(&self) -> &S {
        &self.status
    }

    /// Moves the request on to `status`, the connection staying open.
    pub fn set(&mut self, status: S) {
        self.status = status;
    }
}

/// A real server on 127.0.0.1:0 for the requests' tests, keeping its replays (and its database,
/// when `db`) under `dir`.
#[cfg(test)]
pub fn test_server(dir: &std::path::Path, db: bool) -> sevenbag_server::ServerHandle {
    let rt = crate::net::online::transport::runtime().expect("runtime");
    let config = sevenbag_server::Config {
        replay_dir: dir.join("replays"),
        db: db.then(|| dir.join("s.db")),
        ..sevenbag_server::Config::default()
    };
    rt.block_on(sevenbag_server::spawn(config)).expect("server")
}
