//! Leaf helpers the lobby and the rooms share without importing each other: how a request is
//! refused, the refusal during a drain (and a room's seats told it), and the server's random
//! numbers.

use std::sync::atomic::{AtomicU64, Ordering};

use sevenbag_protocol::{ErrorCode, ServerMessage};

use crate::relay::Outbox;

/// An error for the client: its code and text.
pub(crate) type Refusal = (ErrorCode, String);

/// What a client hears when it asks for a room, a queue or a match while the server drains.
pub(crate) const DRAINING: &str =
    "the server is restarting: no new rooms or matches here; try again shortly";

/// The refusal during a drain (a non-fatal `Shutdown` error, `docs/PROTOCOL.md`).
pub(crate) fn draining() -> Refusal {
    (ErrorCode::Shutdown, DRAINING.to_string())
}

/// A spectator refused: room `code` has no spectator places left.
pub(crate) fn no_spectator_place(code: &str) -> Refusal {
    (
        ErrorCode::RoomFull,
        format!("room {code} has no spectator places left"),
    )
}

/// A room that would start while the server drains: each seat (its ready flag and its
/// connection, if any) is no longer ready and hears [`draining`] as a non-fatal error.
pub(crate) fn unready_for_drain<'a>(
    seats: impl Iterator<Item = (&'a mut bool, Option<&'a Outbox>)>,
) {
    let (code, message) = draining();
    for (ready, conn) in seats {
        *ready = false;
        if let Some(conn) = conn {
            conn.send(&ServerMessage::Error {
                code,
                message: message.clone(),
                fatal: false,
            });
        }
    }
}

/// 64 bits from the OS's entropy source (match seeds, resume tokens, room codes).
pub(crate) fn random_u64() -> u64 {
    match getrandom::u64() {
        Ok(v) => v,
        Err(e) => {
            // Practically unreachable on supported systems; keep serving with a weaker value.
            static COUNTER: AtomicU64 = AtomicU64::new(0);
            tracing::error!(error = %e, "OS entropy unavailable; using a clock-derived value");
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64);
            splitmix(nanos ^ COUNTER.fetch_add(1, Ordering::Relaxed).rotate_left(32))
        }
    }
}

fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}
