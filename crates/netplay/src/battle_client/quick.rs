//! Quick play of several seats for [`BattleClient`]: wait in the server's free-for-all queue
//! until it seats us in a room, then carry on as a joiner by code would.

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
        self.net.send(ClientMessage::QuickBattle { on: true })?;
        self.wait(LOBBY_TIMEOUT, |c| c.queue.is_some() || c.code.is_some())
            .await
    }

    /// Leaves the free-for-all queue.
    pub fn leave_queue(&mut self) -> Result<(), HeadlessError> {
        self.queue = None;
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

    /// The room's code, once in one.
    pub fn room_code(&self) -> Option<&str> {
        self.code.as_deref()
    }
}
