//! Every limit the server enforces, in one struct, and the token bucket that rate-limits clients.
//!
//! The defaults are the ones `docs/PROTOCOL.md` ("Limits") promises; each is also a flag of the
//! binary. Durations are plain fields so tests can shrink them (a 15 s idle timeout would make a
//! test of it take 15 s).

use std::time::{Duration, Instant};

/// Limits on what clients may send and how much the server will hold for them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest WebSocket message (and frame) a client may send, in bytes.
    pub max_message_bytes: usize,
    /// Most input changes in one `Inputs` message.
    pub max_changes_per_message: usize,
    /// Messages per second a connection may send, sustained (token bucket refill rate).
    pub messages_per_second: u32,
    /// Messages a connection may send in a burst (token bucket size).
    pub message_burst: u32,
    /// Client `Ping`s answered per second; extra pings are ignored (not an error).
    pub client_pings_per_second: u32,
    /// Messages queued for one client before it is cut as a slow reader.
    pub send_queue: usize,
    /// Bytes queued for one client before it is cut as a slow reader (a single message larger
    /// than this is still accepted when the queue is empty).
    pub send_queue_bytes: usize,
    /// Concurrent connections; more are refused with `ServerFull`.
    pub max_connections: usize,
    /// Rooms open at once; more `CreateRoom`s are refused with `ServerFull`.
    pub max_rooms: usize,
    /// Spectators in one room.
    pub max_spectators: usize,
    /// How far (in frames) a player's confirmation may run past the server's match clock.
    pub max_frames_ahead: u32,
    /// How far (in frames) a connected player's confirmation may fall behind the server's match
    /// clock before they count as gone and forfeit (a client that stops sending inputs would
    /// otherwise stall the match for everyone).
    pub max_frames_behind: u32,
    /// A player that far behind who has sent no `Inputs` for this long has gone silent, and
    /// forfeits (the forfeit message says so).
    pub max_silence: Duration,
    /// A player still sending inputs but this many frames behind the match clock could not catch
    /// up, and forfeits. Between `max_frames_behind` and this they are warned (`Behind`) and
    /// given time.
    pub max_frames_behind_sending: u32,
    /// How often a player who is behind but sending is warned.
    pub behind_warning_every: Duration,
    /// Time allowed for the WebSocket handshake plus the `Hello`.
    pub hello_timeout: Duration,
    /// Time allowed for a TLS handshake (when the server serves TLS), before HTTP begins.
    pub tls_handshake_timeout: Duration,
    /// The server pings every connection this often.
    pub ping_interval: Duration,
    /// A connection silent (no frame at all) this long is dropped with `Timeout`.
    pub idle_timeout: Duration,
    /// How long the server keeps trying to deliver a final `Error`/`Shutdown` and Close frame,
    /// and then waits for the client to close, before it drops the socket.
    pub close_grace: Duration,
    /// Most replays listed by `ListReplays` (newest first).
    pub max_replay_list: usize,
    /// Chat lines a connection may send per second, sustained; lines over it are refused.
    pub chat_per_second: u32,
    /// Chat lines a connection may send in a burst.
    pub chat_burst: u32,
    /// Datagrams a connection may send per second, sustained, over its datagram session (one
    /// at a time; a replacing session takes the same bucket); one over the bucket is a flood
    /// and cuts the connection.
    pub datagrams_per_second: u32,
    /// Datagrams a connection may send in a burst.
    pub datagram_burst: u32,
    /// Datagram sessions (handshakes included) one address may hold at once; more are refused
    /// and those clients play over the WebSocket. 0: no limit.
    pub datagram_sessions_per_address: usize,
    /// Datagrams the sessions of one address may send per second between them, sustained; the
    /// session whose datagram finds the address over it is cut as a flood. 0: no limit.
    pub datagrams_per_address_per_second: u32,
    /// Datagrams one address may send in a burst.
    pub datagrams_per_address_burst: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_message_bytes: 64 * 1024,
            max_changes_per_message: sevenbag_protocol::MAX_CHANGES_PER_MESSAGE,
            messages_per_second: 120,
            message_burst: 240,
            client_pings_per_second: 4,
            send_queue: 1024,
            send_queue_bytes: 16 * 1024 * 1024,
            max_connections: 10_000,
            max_rooms: 5_000,
            max_spectators: 256,
            max_frames_ahead: 120,
            max_frames_behind: 900,
            max_silence: Duration::from_secs(10),
            max_frames_behind_sending: 45 * 60,
            behind_warning_every: Duration::from_secs(5),
            hello_timeout: Duration::from_secs(10),
            tls_handshake_timeout: Duration::from_secs(10),
            ping_interval: Duration::from_secs(5),
            idle_timeout: Duration::from_secs(15),
            close_grace: Duration::from_secs(2),
            max_replay_list: 200,
            chat_per_second: 1,
            chat_burst: 5,
            // A player sends about 30 a second (a repeat every 2 frames while anything is
            // unacknowledged); four times that is never reached in play.
            datagrams_per_second: 120,
            datagram_burst: 240,
            // A household or a LAN party; beyond it players still play, over the WebSocket.
            datagram_sessions_per_address: 32,
            // Forty players' 30 a second, or ten connections at their own limit.
            datagrams_per_address_per_second: 1200,
            datagrams_per_address_burst: 2400,
        }
    }
}

/// A token bucket: `rate` tokens per second up to `burst`; each event takes one.
///
/// Why a bucket and not a fixed window: a client may legitimately send a burst (reconnecting
/// and catching up on inputs) but not sustain it, and a bucket expresses exactly that.
#[derive(Clone, Debug)]
pub struct TokenBucket {
    rate: f64,
    burst: f64,
    tokens: f64,
    last: Instant,
}

impl TokenBucket {
    /// A full bucket.
    pub fn new(rate: u32, burst: u32, now: Instant) -> TokenBucket {
        let burst = f64::from(burst.max(1));
        TokenBucket {
            rate: f64::from(rate),
            burst,
            tokens: burst,
            last: now,
        }
    }

    /// Takes one token if there is one; `false` means the event is over the limit.
    pub fn take(&mut self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.rate).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn burst_then_refill() {
        let t0 = Instant::now();
        let mut b = TokenBucket::new(10, 5, t0);
        for _ in 0..5 {
            assert!(b.take(t0));
        }
        assert!(!b.take(t0));
        // 100 ms at 10/s refills one token.
        assert!(b.take(t0 + Duration::from_millis(100)));
        assert!(!b.take(t0 + Duration::from_millis(100)));
        // A long pause refills only up to the burst.
        let later = t0 + Duration::from_secs(60);
        for _ in 0..5 {
            assert!(b.take(later));
        }
        assert!(!b.take(later));
    }
}
