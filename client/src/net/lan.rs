//! LAN play: the in-process server a host runs, and the UDP beacon that announces it.
//!
//! ## The beacon
//! A host broadcasts one datagram a second to UDP port [`BEACON_PORT`] (7879):
//!
//! | bytes | content |
//! | --- | --- |
//! | 0..4 | magic `SB7L` |
//! | 4 | beacon format version, 1 |
//! | 5..9 | protocol version (`sevenbag_protocol::PROTOCOL_VERSION`), u32 little-endian |
//! | 9..11 | the game server's TCP port, u16 little-endian |
//! | 11 | length of the room code, then its bytes (ASCII, at most 8) |
//! | .. | length of the host's name, then its bytes (UTF-8, at most 24 characters) |
//!
//! The host's address is the datagram's source address. Anything else on the port is ignored.
//! A joiner listens on the port and lists the hosts it heard in the last [`HOST_EXPIRY`].

use sevenbag_netplay::time::Instant;
use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};
use std::time::Duration;

/// UDP port the beacons go to.
pub const BEACON_PORT: u16 = 7879;
/// How often a host announces itself.
pub const BEACON_INTERVAL: Duration = Duration::from_secs(1);
/// A host not heard from for this long leaves the list.
pub const HOST_EXPIRY: Duration = Duration::from_secs(4);

const MAGIC: &[u8; 4] = b"SB7L";
const BEACON_VERSION: u8 = 1;

/// What a host announces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Beacon {
    /// The host's protocol version.
    pub protocol: u32,
    /// The host's game server port.
    pub port: u16,
    /// The room code to join.
    pub code: String,
    /// The host player's name.
    pub name: String,
}

impl Beacon {
    /// The datagram.
    pub fn encode(&self) -> Vec<u8> {
        let code: String = self.code.chars().take(8).collect();
        let name: String = self.name.chars().take(24).collect();
        let mut b = Vec::with_capacity(16 + code.len() + name.len());
        b.extend_from_slice(MAGIC);
        b.push(BEACON_VERSION);
        b.extend_from_slice(&self.protocol.to_le_bytes());
        b.extend_from_slice(&self.port.to_le_bytes());
        b.push(code.len() as u8);
        b.extend_from_slice(code.as_bytes());
        b.push(name.len() as u8);
        b.extend_from_slice(name.as_bytes());
        b
    }

    /// Reads a datagram; `None` for anything that is not a well-formed beacon.
    pub fn decode(bytes: &[u8]) -> Option<Beacon> {
        let rest = bytes.strip_prefix(MAGIC)?;
        let (&version, rest) = rest.split_first()?;
        if version != BEACON_VERSION || rest.len() < 6 {
            return None;
        }
        let protocol = u32::from_le_bytes(rest[0..4].try_into().ok()?);
        let port = u16::from_le_bytes(rest[4..6].try_into().ok()?);
        let rest = &rest[6..];
        let (code, rest) = take_str(rest)?;
        let (name, rest) = take_str(rest)?;
        if !rest.is_empty() || !code.chars().all(|c| c.is_ascii_alphanumeric()) {
            return None;
        }
        Some(Beacon {
            protocol,
            port,
            code,
            name,
        })
    }
}

fn take_str(b: &[u8]) -> Option<(String, &[u8])> {
    let (&len, rest) = b.split_first()?;
    let len = usize::from(len);
    if rest.len() < len {
        return None;
    }
    let s = std::str::from_utf8(&rest[..len]).ok()?;
    if s.chars().any(char::is_control) {
        return None;
    }
    Some((s.to_owned(), &rest[len..]))
}

/// This machine's address on the local network: the source address the OS would pick to reach
/// a private address. A UDP "connect" sends nothing; it only chooses a route.
pub fn lan_ip() -> Option<IpAddr> {
    let socket = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0)).ok()?;
    socket.connect((Ipv4Addr::new(10, 254, 254, 254), 1)).ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_unspecified()).then_some(ip)
}

/// Sends beacons from an ephemeral port.
#[derive(Debug)]
pub struct BeaconSender {
    socket: UdpSocket,
    to: SocketAddr,
    next: Instant,
}

impl BeaconSender {
    /// A sender broadcasting to `255.255.255.255:BEACON_PORT`.
    pub fn broadcast() -> std::io::Result<BeaconSender> {
        BeaconSender::to(SocketAddr::from((Ipv4Addr::BROADCAST, BEACON_PORT)))
    }

    /// A sender to one address (the tests use loopback).
    pub fn to(to: SocketAddr) -> std::io::Result<BeaconSender> {
        let socket = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0))?;
        socket.set_broadcast(true)?;
        socket.set_nonblocking(true)?;
        Ok(BeaconSender {
            socket,
            to,
            next: Instant::now(),
        })
    }

    /// Sends `beacon` when a second has passed since the last one. Errors are ignored (a
    /// network without broadcast just finds nobody).
    pub fn tick(&mut self, now: Instant, beacon: &Beacon) {
        if now >= self.next {
            if let Err(e) = self.socket.send_to(&beacon.encode(), self.to) {
                tracing::debug!("beacon not sent: {e}");
            }
            self.next = now + BEACON_INTERVAL;
        }
    }
}

/// A host heard on the network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LanHost {
    /// Its game server, as `ip:port`.
    pub addr: SocketAddr,
    /// What it announced.
    pub beacon: Beacon,
    /// When we last heard it.
    pub seen: Instant,
}

/// Listens for beacons (non-blocking; poll it each frame).
#[derive(Debug)]
pub struct BeaconListener {
    socket: UdpSocket,
    hosts: HashMap<SocketAddr, LanHost>,
}

impl BeaconListener {
    /// Listens on `0.0.0.0:BEACON_PORT`.
    pub fn open() -> std::io::Result<BeaconListener> {
        BeaconListener::bind(SocketAddr::from((Ipv4Addr::UNSPECIFIED, BEACON_PORT)))
    }

    /// Listens on `addr` (the tests bind `127.0.0.1:0`).
    pub fn bind(addr: SocketAddr) -> std::io::Result<BeaconListener> {
        let socket = UdpSocket::bind(addr)?;
        socket.set_nonblocking(true)?;
        Ok(BeaconListener {
            socket,
            hosts: HashMap::new(),
        })
    }

    #[cfg_attr(not(test), allow(dead_code))] // the tests read it
    /// The address listened on.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.socket.local_addr()
    }

    /// Reads every datagram waiting and forgets hosts not heard for [`HOST_EXPIRY`].
    pub fn poll(&mut self, now: Instant) {
        let mut buf = [0u8; 256];
        while let Ok((n, from)) = self.socket.recv_from(&mut buf) {
            if let Some(beacon) = Beacon::decode(&buf[..n]) {
                let addr = SocketAddr::new(from.ip(), beacon.port);
                self.hosts.insert(
                    addr,
                    LanHost {
                        addr,
                        beacon,
                        seen: now,
                    },
                );
            }
        }
        self.hosts
            .retain(|_, h| now.saturating_duration_since(h.seen) < HOST_EXPIRY);
    }

    /// Hosts heard recently, by address.
    pub fn hosts(&self) -> Vec<LanHost> {
        let mut v: Vec<LanHost> = self.hosts.values().cloned().collect();
        v.sort_by_key(|h| h.addr);
        v
    }
}

/// The game server a LAN host runs in-process, on the network runtime.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Debug)]
pub struct HostedServer {
    port: u16,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

#[cfg(not(target_arch = "wasm32"))]
impl HostedServer {
    /// Binds `0.0.0.0:port` (an ephemeral port if that one is busy) and runs the server there;
    /// replays go to `replay_dir`.
    pub fn start(port: u16, replay_dir: std::path::PathBuf) -> Result<HostedServer, String> {
        HostedServer::start_on(Ipv4Addr::UNSPECIFIED, port, replay_dir)
    }

    /// As [`HostedServer::start`] on a chosen interface (`127.0.0.1` for the demo and tests).
    pub fn start_on(
        ip: Ipv4Addr,
        port: u16,
        replay_dir: std::path::PathBuf,
    ) -> Result<HostedServer, String> {
        HostedServer::start_keeping(ip, port, replay_dir, None)
    }

    /// As [`HostedServer::start_on`], keeping identities (and published skins) in the SQLite
    /// file `db` when given.
    pub fn start_keeping(
        ip: Ipv4Addr,
        port: u16,
        replay_dir: std::path::PathBuf,
        db: Option<std::path::PathBuf>,
    ) -> Result<HostedServer, String> {
        let rt = crate::net::online::transport::runtime()?;
        let listener = std::net::TcpListener::bind((ip, port))
            .or_else(|_| std::net::TcpListener::bind((ip, 0)))
            .map_err(|e| format!("cannot open a port for the server: {e}"))?;
        listener
            .set_nonblocking(true)
            .map_err(|e| format!("cannot set up the server socket: {e}"))?;
        let port = listener
            .local_addr()
            .map_err(|e| format!("cannot read the server's port: {e}"))?
            .port();
        let _guard = rt.enter();
        let listener = tokio::net::TcpListener::from_std(listener)
            .map_err(|e| format!("cannot set up the server socket: {e}"))?;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let config = sevenbag_server::Config {
            replay_dir,
            db,
            server_name: "sevenbag LAN host".to_owned(),
            ..sevenbag_server::Config::default()
        };
        rt.spawn(async move {
            let shutdown = async move {
                let _ = stopped.await;
            };
            if let Err(e) = sevenbag_server::run(listener, config, shutdown).await {
                tracing::warn!("LAN server stopped: {e}");
            }
        });
        Ok(HostedServer {
            port,
            stop: Some(stop),
        })
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Drop for HostedServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// In a browser there is no server to host (no listening sockets, no tokio): no value of this
/// type exists, and the menu does not offer LAN play (docs/CLIENT.md, "In the browser").
#[cfg(target_arch = "wasm32")]
#[derive(Debug)]
pub enum HostedServer {}

#[cfg(target_arch = "wasm32")]
impl HostedServer {
    /// Always refuses: a page cannot host.
    pub fn start(_port: u16, _replay_dir: std::path::PathBuf) -> Result<HostedServer, String> {
        Err(NO_HOSTING.to_owned())
    }

    /// Always refuses: a page cannot host.
    #[allow(dead_code)]
    pub fn start_on(
        _ip: Ipv4Addr,
        _port: u16,
        _replay_dir: std::path::PathBuf,
    ) -> Result<HostedServer, String> {
        Err(NO_HOSTING.to_owned())
    }

    /// Always refuses: a page cannot host.
    pub fn start_keeping(
        _ip: Ipv4Addr,
        _port: u16,
        _replay_dir: std::path::PathBuf,
        _db: Option<std::path::PathBuf>,
    ) -> Result<HostedServer, String> {
        Err(NO_HOSTING.to_owned())
    }

    /// Never called: no value exists.
    pub fn port(&self) -> u16 {
        match *self {}
    }
}

/// Why the browser build hosts nothing.
#[cfg(target_arch = "wasm32")]
const NO_HOSTING: &str = "A browser page cannot host a game: use the desktop game for LAN play.";

/// A LAN host's extras, kept alive by the room's screen: the server it runs, the address
/// others type, and its beacon.
pub struct LanHosting {
    /// The in-process server (stops when dropped).
    pub server: HostedServer,
    /// The address others type, `ip:port`.
    pub address: String,
    /// The beacon sender, if the socket opened.
    pub beacon: Option<BeaconSender>,
}

impl LanHosting {
    /// Advertises room `code`, hosted by `name`, while it waits for players (call every frame:
    /// the sender keeps its own pace).
    pub fn advertise(&mut self, code: &str, name: &str) {
        let port = self.server.port();
        if let Some(beacon) = &mut self.beacon {
            let b = Beacon {
                protocol: sevenbag_protocol::PROTOCOL_VERSION,
                port,
                code: code.to_owned(),
                name: name.to_owned(),
            };
            beacon.tick(Instant::now(), &b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sevenbag_protocol::PROTOCOL_VERSION;

    fn beacon() -> Beacon {
        Beacon {
            protocol: PROTOCOL_VERSION,
            port: 7878,
            code: "QX7KD".into(),
            name: "Ana".into(),
        }
    }

    #[test]
    fn encode_decode_round_trip_and_junk_is_refused() {
        let b = beacon();
        let bytes = b.encode();
        assert_eq!(&bytes[..4], b"SB7L");
        assert_eq!(Beacon::decode(&bytes), Some(b));
        for n in 0..bytes.len() {
            assert_eq!(Beacon::decode(&bytes[..n]), None, "truncated at {n}");
        }
        let mut extra = bytes.clone();
        extra.push(0);
        assert_eq!(Beacon::decode(&extra), None);
        assert_eq!(Beacon::decode(b"hello world"), None);
    }

    #[test]
    fn beacon_round_trip_over_loopback() {
        let mut listener = BeaconListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
            .expect("bind loopback");
        let to = listener.local_addr().expect("local addr");
        let mut sender = BeaconSender::to(to).expect("sender");
        let b = beacon();
        let start = Instant::now();
        sender.tick(start, &b);
        let mut hosts = Vec::new();
        for _ in 0..200 {
            listener.poll(Instant::now());
            hosts = listener.hosts();
            if !hosts.is_empty() {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(hosts.len(), 1, "the beacon arrived");
        assert_eq!(hosts[0].beacon, b);
        assert_eq!(hosts[0].addr, SocketAddr::from((Ipv4Addr::LOCALHOST, 7878)));
        // Not heard again: gone after the expiry.
        listener.poll(Instant::now() + HOST_EXPIRY + Duration::from_millis(10));
        assert!(listener.hosts().is_empty());
    }
}
