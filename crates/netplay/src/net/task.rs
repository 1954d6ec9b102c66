//! The network task's body: open the WebSocket, then move messages both ways (and over the
//! datagram session once it is up) until either side ends.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::Ordering;
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

use super::counters::{Counters, DatagramStatus};
use super::datagrams::{self, DATAGRAM_CONNECT_TIMEOUT};
use super::{CONNECT_TIMEOUT, Command, NetOptions};
use crate::datagram::{DatagramLink, TransportPath};
use crate::link::{MessageKind, NetError, NetEvent};
use crate::tls::TlsTrust;

/// Datagram sessions a connection tries to open in all: after one could not be opened, or
/// died, the next try waits [`DATAGRAM_RETRY_AFTER`] times the tries so far (the match goes on
/// over the WebSocket meanwhile).
const DATAGRAM_ATTEMPTS: u32 = 3;
/// See [`DATAGRAM_ATTEMPTS`].
const DATAGRAM_RETRY_AFTER: Duration = Duration::from_secs(10);

/// The task body: connect, then shuttle messages until either side ends; always reports
/// `Disconnected` last.
pub(super) async fn run(
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
