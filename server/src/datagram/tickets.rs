//! Datagram tickets: one-time tokens, each bound to the WebSocket connection it was sent on.
//!
//! A connection holds at most one live ticket; a ticket works once, within
//! [`TICKET_TTL`](super::TICKET_TTL). The map is small (one entry per connection waiting to
//! open its session) and swept of expired entries as tickets are issued.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::Instant;

use sevenbag_protocol::datagram::TOKEN_BYTES;

use super::{Binding, TICKET_TTL};
use crate::relay::ClientId;

/// A token's bytes.
pub(super) type Token = [u8; TOKEN_BYTES];

#[derive(Debug, Default)]
struct Inner {
    live: HashMap<Token, (Binding, Instant)>,
    /// Tokens in the order they were issued, for expiry.
    order: VecDeque<(Instant, Token)>,
    /// Each connection's live token.
    by_client: HashMap<ClientId, Token>,
}

/// The live tickets.
#[derive(Debug, Default)]
pub(super) struct Tickets {
    inner: Mutex<Inner>,
}

impl Tickets {
    /// A fresh token for `binding`'s connection (its earlier one stops working).
    pub(super) fn issue(&self, binding: Binding) -> Token {
        let token = random_token();
        let now = Instant::now();
        let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        inner.sweep(now);
        if let Some(old) = inner.by_client.insert(binding.client, token) {
            inner.live.remove(&old);
        }
        inner.live.insert(token, (binding, now));
        inner.order.push_back((now, token));
        token
    }

    /// Takes the ticket of `token` if it is live (once).
    pub(super) fn claim(&self, token: &Token) -> Option<Binding> {
        let now = Instant::now();
        let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        inner.sweep(now);
        let (binding, _) = inner.live.remove(token)?;
        inner.by_client.remove(&binding.client);
        Some(binding)
    }

    /// `client`'s ticket, if unused, stops working.
    pub(super) fn forget(&self, client: ClientId) {
        let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(token) = inner.by_client.remove(&client) {
            inner.live.remove(&token);
        }
    }
}

impl Inner {
    fn sweep(&mut self, now: Instant) {
        while let Some(&(issued, token)) = self.order.front() {
            if now.saturating_duration_since(issued) < TICKET_TTL {
                break;
            }
            self.order.pop_front();
            if let Some((binding, _)) = self.live.remove(&token) {
                self.by_client.remove(&binding.client);
            }
        }
        // Tokens claimed or replaced early leave their place in `order` behind; it never holds
        // more than one entry per ticket issued in the last `TICKET_TTL`.
    }
}

/// 16 bytes from the operating system's generator.
fn random_token() -> Token {
    let mut token = [0u8; TOKEN_BYTES];
    if getrandom::fill(&mut token).is_err() {
        // Never seen in practice; two independent 64-bit draws through the same fallback.
        token[..8].copy_from_slice(&crate::refusal::random_u64().to_le_bytes());
        token[8..].copy_from_slice(&crate::refusal::random_u64().to_le_bytes());
    }
    token
}
