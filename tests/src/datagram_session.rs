//! A raw datagram session for the hostile-sender tests: a WebTransport session opened with a
//! ticket, through which a test sends whatever bytes it likes.

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::Context;
use sevenbag_protocol::datagram::{SESSION_PATH, token_hex};
use wtransport::tls::Sha256Digest;
use wtransport::{ClientConfig, Connection, Endpoint};

use crate::RawClient;

/// How long opening a session (or getting its ticket) may take.
pub const OPEN_TIMEOUT: Duration = Duration::from_secs(15);

/// Opens a datagram session with `token` (and the server's announced certificate hash).
pub async fn open(
    addr: SocketAddr,
    token: &[u8; 16],
    hash: Option<[u8; 32]>,
) -> anyhow::Result<Connection> {
    let hash = hash.context("a self-signed server announces its hash")?;
    let config = ClientConfig::builder()
        .with_bind_address("127.0.0.1:0".parse()?)
        .with_server_certificate_hashes([Sha256Digest::new(hash)])
        .build();
    let endpoint = Endpoint::client(config)?;
    let url = format!(
        "https://127.0.0.1:{}{SESSION_PATH}{}",
        addr.port(),
        token_hex(token)
    );
    let connection = tokio::time::timeout(OPEN_TIMEOUT, endpoint.connect(url))
        .await
        .context("connect timed out")??;
    Ok(connection)
}

/// Returns once the server has handled every message `client` sent before (a Ping's Pong: a
/// connection's messages are handled in order). After a join, the connection's datagrams reach
/// the room it joined: the server routes them there before it reads the next message.
pub async fn routed(client: &mut RawClient) -> anyhow::Result<()> {
    client
        .send(&sevenbag_protocol::ClientMessage::Ping { nonce: 0x5eed })
        .await?;
    client
        .recv_until(OPEN_TIMEOUT, |m| {
            matches!(
                m,
                sevenbag_protocol::ServerMessage::Pong { nonce: 0x5eed, .. }
            )
            .then_some(())
        })
        .await
}

/// A greeted WebSocket client with its datagram session open.
pub async fn with_session(addr: SocketAddr, name: &str) -> anyhow::Result<(RawClient, Connection)> {
    let mut client = RawClient::hello(addr, name).await?;
    let (token, hash) = client.datagram_ticket(OPEN_TIMEOUT).await?;
    let session = open(addr, &token, hash).await?;
    Ok((client, session))
}
