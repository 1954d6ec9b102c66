//! The live traffic counters a connection's task keeps and its handle reads ([`NetStats`]), and
//! where its datagram path stands ([`DatagramStatus`]).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::datagram::TransportPath;
use crate::link::{MessageKind, NetStats};

/// The live counters behind [`NetStats`], shared with the task.
#[derive(Debug, Default)]
pub(super) struct Counters {
    pub(super) messages_out: AtomicU64,
    pub(super) bytes_out: AtomicU64,
    pub(super) messages_in: AtomicU64,
    pub(super) bytes_in: AtomicU64,
    pub(super) kinds_out: [AtomicU64; MessageKind::COUNT],
    pub(super) kinds_in: [AtomicU64; MessageKind::COUNT],
    pub(super) datagrams_out: AtomicU64,
    pub(super) datagrams_in: AtomicU64,
    pub(super) udp_bytes_out: AtomicU64,
    pub(super) udp_bytes_in: AtomicU64,
    /// Inputs travel as datagrams right now.
    pub(super) on_datagrams: AtomicBool,
    /// Where opening the datagram session stands ([`DatagramStatus`] as a number).
    pub(super) datagram_status: std::sync::atomic::AtomicU8,
}

/// Where a connection's datagram path stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DatagramStatus {
    /// The server offered none (yet): an older server, `--no-datagrams`, or before `Welcome`.
    #[default]
    NotOffered,
    /// Opening the session.
    Opening,
    /// Inputs go as datagrams.
    Open,
    /// It could not be opened (UDP blocked?) or it died: everything goes over the WebSocket.
    Failed,
}

impl DatagramStatus {
    fn from_u8(v: u8) -> DatagramStatus {
        match v {
            1 => DatagramStatus::Opening,
            2 => DatagramStatus::Open,
            3 => DatagramStatus::Failed,
            _ => DatagramStatus::NotOffered,
        }
    }
}

impl Counters {
    pub(super) fn sent(&self, kind: MessageKind, payload: usize) {
        self.kinds_out[kind as usize].fetch_add(1, Ordering::Relaxed);
        self.messages_out.fetch_add(1, Ordering::Relaxed);
        // Client frames are masked: 4 more header bytes than the server's.
        let bytes = payload + frame_header(payload) + 4;
        self.bytes_out.fetch_add(bytes as u64, Ordering::Relaxed);
    }

    pub(super) fn received(&self, kind: MessageKind, payload: usize) {
        self.kinds_in[kind as usize].fetch_add(1, Ordering::Relaxed);
        self.messages_in.fetch_add(1, Ordering::Relaxed);
        let bytes = payload + frame_header(payload);
        self.bytes_in.fetch_add(bytes as u64, Ordering::Relaxed);
    }

    pub(super) fn snapshot(&self) -> NetStats {
        NetStats {
            messages_out: self.messages_out.load(Ordering::Relaxed),
            bytes_out: self.bytes_out.load(Ordering::Relaxed),
            messages_in: self.messages_in.load(Ordering::Relaxed),
            bytes_in: self.bytes_in.load(Ordering::Relaxed),
            kinds_out: std::array::from_fn(|i| self.kinds_out[i].load(Ordering::Relaxed)),
            kinds_in: std::array::from_fn(|i| self.kinds_in[i].load(Ordering::Relaxed)),
            datagrams_out: self.datagrams_out.load(Ordering::Relaxed),
            datagrams_in: self.datagrams_in.load(Ordering::Relaxed),
            udp_bytes_out: self.udp_bytes_out.load(Ordering::Relaxed),
            udp_bytes_in: self.udp_bytes_in.load(Ordering::Relaxed),
            path: self.path(),
        }
    }

    pub(super) fn set_status(&self, status: DatagramStatus) {
        self.datagram_status.store(status as u8, Ordering::Relaxed);
        self.on_datagrams
            .store(status == DatagramStatus::Open, Ordering::Relaxed);
    }

    /// Where the datagram path stands.
    pub(super) fn status(&self) -> DatagramStatus {
        DatagramStatus::from_u8(self.datagram_status.load(Ordering::Relaxed))
    }

    pub(super) fn path(&self) -> TransportPath {
        if self.on_datagrams.load(Ordering::Relaxed) {
            TransportPath::Datagrams
        } else {
            TransportPath::WebSocket
        }
    }

    /// The session's UDP traffic so far (QUIC's own bytes included: what the network carries).
    pub(super) fn udp(&self, connection: &wtransport::Connection) {
        let stats = connection.quic_connection().stats();
        self.udp_bytes_out
            .store(stats.udp_tx.bytes, Ordering::Relaxed);
        self.udp_bytes_in
            .store(stats.udp_rx.bytes, Ordering::Relaxed);
    }
}

/// Size of an unmasked WebSocket frame header for a payload of `len` bytes (RFC 6455 §5.2).
fn frame_header(len: usize) -> usize {
    match len {
        0..=125 => 2,
        126..=65535 => 4,
        _ => 10,
    }
}
