//! Losing the connection and taking it back: on purpose (tests), or automatically with backoff
//! within the room's reconnect window ([`super::HeadlessConfig::auto_reconnect`]).

use std::time::{Duration, Instant};

use super::{HeadlessClient, HeadlessError, LOBBY_TIMEOUT, RETRY_FIRST, RETRY_MAX};
use crate::net::{Hello, NetStats, connect_with};

/// A lost connection being retried.
#[derive(Clone, Copy, Debug)]
pub(super) struct Retry {
    /// When the connection was lost: the window runs from here.
    since: Instant,
    /// When the next attempt may start.
    next: Instant,
    /// The pause after the next failure.
    backoff: Duration,
    /// An attempt is under way (waiting for `Welcome` or its failure).
    attempting: bool,
}

impl HeadlessClient {
    /// Drops the connection without a word (as a network failure would). The session is kept
    /// and keeps stalling until [`HeadlessClient::reconnect`].
    pub fn drop_connection(&mut self) {
        self.net.abort();
        self.connected = false;
    }

    /// Connects again with our resume token and waits for `Welcome`; the server then sends
    /// `Joined` and the match log, which the run loop applies.
    pub async fn reconnect(&mut self) -> Result<(), HeadlessError> {
        self.start_reconnect()?;
        self.await_reply(LOBBY_TIMEOUT, |c| c.connected).await
    }

    /// Opens a new connection with our resume token (a spectator: none; it joins its room
    /// again once welcomed) without waiting.
    fn start_reconnect(&mut self) -> Result<(), HeadlessError> {
        let room = self
            .room
            .room()
            .ok_or(HeadlessError::State("no resume token: not in a room"))?;
        let resume = room.seat.map(|_| room.resume);
        let hello = Hello {
            name: self.config.name.clone(),
            handling: self.config.handling,
            resume,
        };
        let old = self.net.stats();
        self.past_traffic = add_traffic(self.past_traffic, old);
        self.net = connect_with(
            &tokio::runtime::Handle::current(),
            &self.url,
            hello,
            self.config.net_options(),
        );
        self.awaiting_log = self.driver.is_live();
        self.channel_open = true;
        self.connected = false;
        self.disconnect_reason = None;
        Ok(())
    }

    /// Automatic reconnection: notices a lost connection, retries with backoff within the
    /// window, and gives the match up when the window has passed.
    pub(super) fn retry_connection(&mut self, now: Instant) {
        let Some(window) = self.config.auto_reconnect else {
            return;
        };
        if self.connected {
            if self.retry.take().is_some() {
                self.reconnects += 1;
                tracing::info!(name = %self.config.name, "reconnected");
            }
            return;
        }
        if self.room.room().is_none() {
            self.retry = None;
            return;
        }
        let lost = self.disconnect_reason.is_some() || !self.channel_open;
        let retry = self.retry.get_or_insert(Retry {
            since: now,
            next: now,
            backoff: RETRY_FIRST,
            attempting: false,
        });
        if retry.attempting {
            if !lost {
                return;
            }
            // This attempt failed: wait, then try again.
            retry.attempting = false;
            retry.next = now + retry.backoff;
            retry.backoff = (retry.backoff * 2).min(RETRY_MAX);
        }
        if now < retry.next {
            return;
        }
        if now.saturating_duration_since(retry.since) > window {
            tracing::warn!(name = %self.config.name, ?window, "could not reconnect within the window; the match is lost");
            self.retry = None;
            self.driver.stop();
            self.forget_room();
            return;
        }
        retry.attempting = true;
        tracing::debug!(name = %self.config.name, "reconnecting");
        if self.start_reconnect().is_err() {
            self.retry = None;
        }
    }

    /// Connections lost and taken back by [`super::HeadlessConfig::auto_reconnect`].
    pub fn reconnects(&self) -> u32 {
        self.reconnects
    }
}

pub(super) fn add_traffic(a: NetStats, b: NetStats) -> NetStats {
    a.plus(&b)
}
