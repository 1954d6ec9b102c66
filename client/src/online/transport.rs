//! Opening connections: the process's network runtime and TLS trust, and the URL a typed
//! server address stands for.

use std::sync::{OnceLock, RwLock};

use sevenbag_netplay::TlsTrust;

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

/// `host:port` (or a full `ws://` URL) as the WebSocket URL the netplay task wants. An address
/// without a port gets the server's default port 7878 ([`crate::lan::DEFAULT_GAME_PORT`]), not
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
        format!("{scheme}://{host}:{}{path}", crate::lan::DEFAULT_GAME_PORT)
    }
}
