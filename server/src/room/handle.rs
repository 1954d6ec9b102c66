//! How connections reach a room: its bounded inbox, and for a two-seat room its state itself,
//! behind an async lock, for the messages a match sends dozens of times a second.
//!
//! A relayed `Inputs` batch takes two tasks: the sender's reader, which decoded the match
//! message, takes the room's lock and runs the room's own handler for it
//! ([`RoomHandle::send`]), and the opponent's writer sends the result. Handing the batch to the
//! room's task instead would cost a channel push, a wake-up of another task (often on the other
//! worker thread) and a poll of the room's `select!`, for every message. The room's task keeps
//! everything else (joins, resumes, leaves, readiness, chat, datagram events, timers, shutdown).
//!
//! The lock orders commands as an inbox would: one at a time, each run to the end, so every
//! function of the room sees its state whole, and a desync answer's `MatchLog` or a
//! spectator's catch-up is taken under the same lock as the inputs it must cover. A reader's
//! own messages stay in order because it awaits each one before reading the next (a match
//! message waits for the lock as an inbox command waits for room in the inbox); a
//! connection's match messages and its rare inbox commands are not ordered with each other,
//! and none of those commands depends on that order (see [`is_direct`]).

use std::sync::Arc;

use tokio::sync::{Mutex, MutexGuard, Notify, mpsc};

use super::{Room, RoomCommand};

/// A room's state shared between its task and the connections that run match messages on it.
pub(super) struct Direct {
    room: Mutex<Room>,
    /// Wakes the room's task after a directly run command changed what its loop waits for
    /// (the match ended, or the room emptied).
    wake: Notify,
}

impl Direct {
    pub(super) fn new(room: Room) -> Direct {
        Direct {
            room: Mutex::new(room),
            wake: Notify::new(),
        }
    }

    pub(super) async fn lock(&self) -> MutexGuard<'_, Room> {
        self.room.lock().await
    }

    /// Resolves when a directly run command asked the room's task to look again.
    pub(super) async fn woken(&self) {
        self.wake.notified().await;
    }
}

/// The room has closed: its inbox is gone, or its state says so.
#[derive(Debug)]
pub(crate) struct Closed;

/// Where connections send room commands. Cheap to clone.
#[derive(Clone)]
pub(crate) struct RoomHandle {
    inbox: mpsc::Sender<RoomCommand>,
    /// A two-seat room's state, for match messages run by the sender (`None`: everything
    /// goes through the inbox, as for rooms of several seats).
    direct: Option<Arc<Direct>>,
    /// The room's seat count (two: its match is a versus match).
    seats: u8,
}

impl std::fmt::Debug for RoomHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RoomHandle")
            .field("direct", &self.direct.is_some())
            .finish_non_exhaustive()
    }
}

/// Whether `command` is a match message a connection runs on the room itself: inputs and
/// reports, which follow `MatchStart` (the room's answer to both seats' `Ready`, already
/// handled) and need no timer of the room's loop. Joins, resumes and leaves change the seats
/// and the reconnect deadlines the loop sleeps on, so they go through the inbox.
fn is_direct(command: &RoomCommand) -> bool {
    matches!(
        command,
        RoomCommand::Inputs { .. }
            | RoomCommand::InputsFrom { .. }
            | RoomCommand::StateHash { .. }
            | RoomCommand::BattleStateHash { .. }
            | RoomCommand::BattleInputs { .. }
            | RoomCommand::LinkReport { .. }
    )
}

impl RoomHandle {
    /// A room of `seats` seats reached through its inbox only.
    pub(crate) fn inbox(inbox: mpsc::Sender<RoomCommand>, seats: u8) -> RoomHandle {
        RoomHandle {
            inbox,
            direct: None,
            seats,
        }
    }

    /// A two-seat room: match messages run on `direct`, the rest through `inbox`.
    pub(super) fn with_direct(inbox: mpsc::Sender<RoomCommand>, direct: Arc<Direct>) -> RoomHandle {
        RoomHandle {
            inbox,
            direct: Some(direct),
            seats: 2,
        }
    }

    /// The room's seat count.
    pub(crate) fn seats(&self) -> u8 {
        self.seats
    }

    /// Hands `command` to the room: a match message is run at once under the room's lock;
    /// anything else waits for room in the inbox (pushing back on the sender's socket).
    pub(crate) async fn send(&self, command: RoomCommand) -> Result<(), Closed> {
        if let Some(direct) = &self.direct
            && is_direct(&command)
        {
            let mut room = direct.lock().await;
            if room.closed {
                return Err(Closed);
            }
            room.handle(command).await;
            if room.running.is_none() || room.is_abandoned() {
                direct.wake.notify_one();
            }
            return Ok(());
        }
        self.inbox.send(command).await.map_err(|_| Closed)
    }

    /// Queues `command` without waiting; `false` if the inbox is full or the room closed.
    pub(crate) fn try_send(&self, command: RoomCommand) -> bool {
        self.inbox.try_send(command).is_ok()
    }

    /// Whether both handles reach the same room.
    pub(crate) fn same_room(&self, other: &RoomHandle) -> bool {
        self.inbox.same_channel(&other.inbox)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs() -> RoomCommand {
        RoomCommand::Inputs {
            client: 1,
            changes: Vec::new(),
            confirmed: 0,
        }
    }

    #[test]
    fn match_messages_run_directly_and_seat_changes_go_through_the_inbox() {
        assert!(is_direct(&inputs()));
        assert!(is_direct(&RoomCommand::StateHash {
            client: 1,
            frame: 0,
            hash: 0
        }));
        assert!(is_direct(&RoomCommand::LinkReport {
            client: 1,
            rtt_ms: 0
        }));
        for command in [
            RoomCommand::Ready { client: 1 },
            RoomCommand::Leave { client: 1 },
            RoomCommand::Disconnected { client: 1 },
            RoomCommand::SkinChanged,
        ] {
            assert!(!is_direct(&command), "{command:?}");
        }
    }

    #[tokio::test]
    async fn a_room_without_direct_state_gets_match_messages_in_its_inbox() {
        let (tx, mut rx) = mpsc::channel(4);
        let handle = RoomHandle::inbox(tx, 3);
        handle.send(inputs()).await.unwrap();
        assert!(matches!(rx.try_recv(), Ok(RoomCommand::Inputs { .. })));
        drop(rx);
        assert!(
            handle.send(inputs()).await.is_err(),
            "a closed room says so"
        );
        assert!(!handle.try_send(inputs()));
    }
}
