//! The queues for [`BattleClient`]: quick play of several seats, quick match and ranked (wait
//! until the server seats us in a room, then carry on as a joiner by code would); and the
//! lobby requests a cluster may redirect to another instance.

use std::time::Duration;

use sevenbag_protocol::ClientMessage;

use super::BattleClient;
use crate::headless::{HeadlessError, LOBBY_TIMEOUT};

/// The free-for-all queue as the server last described it (`QuickBattleQueue`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueueState {
    /// Players waiting, us included.
    pub waiting: u16,
    /// Players a room needs before its countdown runs.
    pub needed: u8,
    /// Players that start a room at once.
    pub most: u8,
    /// Milliseconds until a room starts, when the countdown runs.
    pub starts_in_ms: Option<u32>,
}

impl BattleClient {
    /// Joins the free-for-all queue and waits for the server's answer (the queue's state, or
    /// at once a room).
    pub async fn quick_play(&mut self) -> Result<(), HeadlessError> {
        self.queue = None;
        self.lobby(ClientMessage::QuickBattle { on: true })?;
        self.wait(LOBBY_TIMEOUT, |c| c.queue.is_some() || c.code.is_some())
            .await
    }

    /// Queues for a quick match (two seats) and waits up to `timeout` to be seated; the match
    /// then starts without `Ready`. Returns our room seat.
    pub async fn quick_match(&mut self, timeout: Duration) -> Result<Option<u8>, HeadlessError> {
        self.seated_by(&[ClientMessage::QuickMatch], timeout).await
    }

    /// Identifies with `key` (registered before) and queues for a ranked match, waiting up to
    /// `timeout` to be seated; a redirect repeats both on the other instance.
    pub async fn ranked_match(
        &mut self,
        key: [u8; 32],
        timeout: Duration,
    ) -> Result<Option<u8>, HeadlessError> {
        let requests = [ClientMessage::Identify { key }, ClientMessage::RankedMatch];
        self.seated_by(&requests, timeout).await
    }

    /// Sends `requests` (the last is the lobby request a redirect repeats) and waits up to
    /// `timeout` for a seat; a refusal heard meanwhile is the error.
    async fn seated_by(
        &mut self,
        requests: &[ClientMessage],
        timeout: Duration,
    ) -> Result<Option<u8>, HeadlessError> {
        let heard = self.errors.len();
        for (i, request) in requests.iter().enumerate() {
            if i + 1 == requests.len() {
                self.lobby(request.clone())?;
            } else {
                self.send(request.clone())?;
            }
        }
        self.wait(timeout, |c| c.code.is_some() || c.errors.len() > heard)
            .await?;
        match self.errors.get(heard) {
            Some(refusal) if self.code.is_none() => Err(HeadlessError::Server {
                code: refusal.code,
                message: refusal.message.clone(),
            }),
            _ => Ok(self.seat),
        }
    }

    /// Leaves the free-for-all queue.
    pub fn leave_queue(&mut self) -> Result<(), HeadlessError> {
        self.queue = None;
        self.lobby_request = None;
        Ok(self.net.send(ClientMessage::QuickBattle { on: false })?)
    }

    /// Waits up to `timeout` for the queue to seat us in a room; returns its code.
    pub async fn wait_for_room(&mut self, timeout: Duration) -> Result<String, HeadlessError> {
        self.wait(timeout, |c| c.code.is_some()).await?;
        Ok(self.code.clone().unwrap_or_default())
    }

    /// Reads messages for `duration` (staying in the queue or the room).
    pub async fn idle_for(&mut self, duration: Duration) {
        let _ = self.wait(duration, |_| false).await;
    }

    /// The queue's state as last heard (`None` before joining, or once seated).
    pub fn queue_state(&self) -> Option<QueueState> {
        self.queue.filter(|_| self.code.is_none())
    }

    /// The server this client talks to now (another instance's after a redirect).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Sends a lobby request, kept to be asked again after a redirect.
    pub(super) fn lobby(&mut self, request: ClientMessage) -> Result<(), HeadlessError> {
        self.redirects.reset();
        self.lobby_request = Some(request.clone());
        Ok(self.net.send(request)?)
    }

    /// Follows a `Redirect` heard: a fresh connection to its URL (no resume token), where the
    /// identity and the lobby request are given again once welcomed. A bad URL or too many
    /// redirects in a row is an error.
    pub(super) fn follow_redirect(&mut self) -> Result<(), HeadlessError> {
        if let Some(url) = self.redirect.take() {
            let url = self
                .redirects
                .follow(&url)
                .map_err(HeadlessError::Redirect)?;
            tracing::debug!(name = %self.name, %url, "redirected");
            self.net.close();
            self.net = Self::open(&url, &self.name, self.handling, None, self.datagrams);
            self.url = url;
            self.welcomed = false;
            self.disconnected = None;
            self.queue = None;
            let identify = self.identity.map(|key| ClientMessage::Identify { key });
            self.after_welcome = identify
                .into_iter()
                .chain(self.lobby_request.clone())
                .collect();
        }
        if self.welcomed {
            for request in std::mem::take(&mut self.after_welcome) {
                self.net.send(request)?;
            }
        }
        Ok(())
    }

    /// The room's code, once in one.
    pub fn room_code(&self) -> Option<&str> {
        self.code.as_deref()
    }
}
