//! How the game talks to a server: the [`Link`] every connection is (send a message, poll the
//! events stamped with their arrival time, close), [`open`] to get one, and the URL a typed
//! server address stands for.
//!
//! Natively a link is netplay's tokio network task ([`sevenbag_netplay::NetHandle`], on the
//! process's one network thread, [`runtime`], trusting [`set_trust`]'s certificates for
//! `wss://`). In the browser it is a page WebSocket ([`web::WebLink`], through
//! `client/web/sevenbag.js`): the same [`NetEvent`]s, so the controller, the sessions, the
//! driver and the pacing are the same code on both.

use sevenbag_netplay::time::Instant;
use sevenbag_netplay::{Hello, NetError, NetEvent, Redirects, TransportPath};
use sevenbag_protocol::ClientMessage;

#[cfg(not(target_arch = "wasm32"))]
pub use native::{runtime, set_trust, trust};

/// One connection to a server, whatever carries it (see the module docs). Dropping it closes it.
pub trait Link: std::fmt::Debug {
    /// Queues a message; fails once the connection is gone.
    fn send(&self, message: ClientMessage) -> Result<(), NetError>;
    /// The next event and when it arrived, if one is waiting. Never blocks.
    fn try_recv_stamped(&mut self) -> Option<(NetEvent, Instant)>;
    /// Closes politely.
    fn close(&self);
    /// Which path carries our inputs now (datagrams once their session is up; the WebSocket
    /// before, and for good where it could not open or died).
    fn path(&self) -> TransportPath;
    /// Drops the connection without a word, as a lost network would (tests).
    #[cfg_attr(not(test), allow(dead_code))]
    fn abort(&self) {
        self.close();
    }
}

/// A connection being opened to `url` that says `hello` first; its progress arrives as events.
/// Fails only when the machinery itself cannot start (natively: the network thread).
pub fn open(url: &str, hello: Hello) -> Result<Box<dyn Link>, String> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        let rt = runtime()?;
        Ok(Box::new(sevenbag_netplay::connect_trusting(
            rt.handle(),
            url,
            hello,
            trust(),
        )))
    }
    #[cfg(target_arch = "wasm32")]
    {
        Ok(Box::new(web::WebLink::open(url, hello)))
    }
}

/// Why a cluster's `Redirect` was not followed.
#[derive(Debug)]
pub enum RedirectError {
    /// The address or one redirect too many in a row, refused; the old link is untouched.
    Refused(String),
    /// The old link is closed and the new one could not open.
    Open(String),
}

/// Follows a cluster's `Redirect` to `url`: checks it with `redirects`, closes `old` and opens
/// a fresh link there that says `hello` (no resume token). Returns the link and its URL.
pub fn redirect(
    redirects: &mut Redirects,
    old: Option<&dyn Link>,
    url: &str,
    hello: Hello,
) -> Result<(Box<dyn Link>, String), RedirectError> {
    let url = redirects.follow(url).map_err(RedirectError::Refused)?;
    tracing::info!(%url, "redirected to another server instance");
    if let Some(net) = old {
        net.close();
    }
    let link = open(&url, hello).map_err(RedirectError::Open)?;
    Ok((link, url))
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::sync::{OnceLock, RwLock};

    use sevenbag_netplay::time::Instant;
    use sevenbag_netplay::{NetError, NetEvent, NetHandle, TlsTrust, TransportPath};
    use sevenbag_protocol::ClientMessage;

    use super::Link;

    impl Link for NetHandle {
        fn send(&self, message: ClientMessage) -> Result<(), NetError> {
            NetHandle::send(self, message)
        }
        fn try_recv_stamped(&mut self) -> Option<(NetEvent, Instant)> {
            NetHandle::try_recv_stamped(self)
        }
        fn close(&self) {
            NetHandle::close(self);
        }
        fn path(&self) -> TransportPath {
            NetHandle::path(self)
        }
        fn abort(&self) {
            NetHandle::abort(self);
        }
    }

    /// Which certificates `wss://` servers may present, for every connection the game makes. Like
    /// the runtime below it is the process's: set at start-up ([`set_trust`]) from `--trust-cert`
    /// or the settings file, so the many places that connect need not carry it.
    static TRUST: RwLock<Option<TlsTrust>> = RwLock::new(None);

    /// Trusts the PEM certificate at `path` (besides the public web's authorities) for every later
    /// `wss://` connection; `None` trusts the web's authorities only.
    pub fn set_trust(path: Option<&std::path::Path>) -> Result<(), String> {
        let trust = match path {
            Some(path) => TlsTrust::default()
                .with_cert_file(path)
                .map_err(|e| e.to_string())?,
            None => TlsTrust::default(),
        };
        *TRUST.write().unwrap_or_else(|p| p.into_inner()) = Some(trust);
        Ok(())
    }

    /// The trust [`set_trust`] chose (the web's authorities if it was never called).
    pub fn trust() -> TlsTrust {
        TRUST
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
            .unwrap_or_default()
    }

    /// The process's network runtime: one tokio worker thread, started on first use. The render loop
    /// never blocks on it; it only polls channels.
    pub fn runtime() -> Result<&'static tokio::runtime::Runtime, String> {
        static RUNTIME: OnceLock<Result<tokio::runtime::Runtime, String>> = OnceLock::new();
        RUNTIME
            .get_or_init(|| {
                tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(1)
                    .thread_name("sevenbag-net")
                    .enable_all()
                    .build()
                    .map_err(|e| format!("cannot start the network thread: {e}"))
            })
            .as_ref()
            .map_err(Clone::clone)
    }
}

#[cfg(target_arch = "wasm32")]
pub mod web;

/// In a browser the page's WebSocket trusts what the browser trusts: a certificate file cannot
/// be added (and the page has no files).
#[cfg(target_arch = "wasm32")]
pub fn set_trust(path: Option<&std::path::Path>) -> Result<(), String> {
    match path {
        None => Ok(()),
        Some(_) => Err(
            "In a browser, wss:// trusts the browser's certificates: leave this empty.".to_owned(),
        ),
    }
}

/// The TCP port a game server listens on unless told otherwise: the port an address without one
/// gets, and a LAN host's first choice.
pub const DEFAULT_GAME_PORT: u16 = 7878;

/// `host:port` (or a full `ws://` URL) as the WebSocket URL the netplay task wants. An address
/// without a port gets the server's default port 7878 ([`DEFAULT_GAME_PORT`]), not
/// the web's 80, wherever it was typed (quick match, rooms, spectating, LAN join).
pub fn server_url(address: &str) -> String {
    let a = address.trim();
    let (scheme, rest) = match a.split_once("://") {
        Some((scheme @ ("ws" | "wss"), rest)) => (scheme, rest),
        _ => ("ws", a),
    };
    let (host, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let path = if path.is_empty() { "/" } else { path };
    // The port follows the last ':' outside an IPv6 literal's brackets.
    let has_port = match host.rfind(']') {
        Some(close) => host[close..].contains(':'),
        None => host.contains(':') && host.matches(':').count() == 1,
    };
    let host = if !host.starts_with('[') && host.matches(':').count() > 1 {
        format!("[{host}]")
    } else {
        host.to_owned()
    };
    if has_port {
        format!("{scheme}://{host}{path}")
    } else {
        format!("{scheme}://{host}:{}{path}", DEFAULT_GAME_PORT)
    }
}
