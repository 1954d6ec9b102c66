//! Match traffic: inputs and reports handed to the room, and the datagram path's ticket and
//! route (which room a datagram session delivers to).

use super::*;

/// A room as a datagram session's destination: its events go to the room's inbox without
/// waiting (a datagram that finds the inbox full is dropped, as the network might have).
#[derive(Debug)]
struct RoomRoute {
    client: ClientId,
    handle: RoomHandle,
}

impl Deliver for RoomRoute {
    fn deliver(&self, event: DatagramEvent) -> bool {
        self.handle.try_send(RoomCommand::Datagram {
            client: self.client,
            event,
        })
    }
}

impl Client {
    /// Hands inputs to the room; a client in no room that sends inputs is cut.
    pub(super) async fn send_inputs(&mut self, command: RoomCommand) {
        if self.room.is_none() {
            self.outbox.cut(Cut::error(
                ErrorCode::BadInput,
                "inputs from a client that is not in a match",
            ));
            return;
        }
        self.send_room(command).await;
    }

    /// Sends a command to the client's room; if the room has closed, says so.
    pub(super) async fn send_room(&mut self, command: RoomCommand) {
        let Some(m) = &self.room else { return };
        // Waiting here while the room is busy (its lock taken, or its inbox full) is
        // deliberate: it stops reading this client's socket, which is where the pressure belongs.
        if m.handle.send(command).await.is_err() {
            let code = m.code.clone();
            self.room = None;
            self.error(ErrorCode::NoSuchRoom, format!("room {code} has closed"));
        }
    }

    /// Sends a seated player's report (state hash, link) to its room; from anyone else it is
    /// dropped without a word, as a spectator's or a late one's would be.
    pub(super) async fn send_seated(&mut self, command: RoomCommand) {
        if self.room.as_ref().is_some_and(|m| m.seat.is_some()) {
            self.send_room(command).await;
        }
    }

    /// Sends a datagram ticket for this connection, if the server has a datagram path.
    pub(super) fn offer_datagrams(&mut self) {
        let Some(datagrams) = &self.shared.datagrams else {
            return;
        };
        let binding = datagram::Binding {
            client: self.id,
            outbox: self.outbox.clone(),
            route: self.route.subscribe(),
            bucket: self.datagram_bucket.clone(),
        };
        let ticket = datagrams.ticket(binding);
        self.outbox.send(&ticket);
    }

    /// `Datagrams { on }`: a new ticket, or the datagram session given up (closed; the room
    /// carries on over the WebSocket). A connection has one session at most: `on` ends the
    /// open session (and voids an unused ticket) first, so its new session replaces the old.
    pub(super) fn datagrams(&mut self, on: bool) {
        if on && self.shared.datagrams.is_none() {
            self.error(ErrorCode::Unavailable, "this server has no datagram path");
            return;
        }
        if let Some(datagrams) = &self.shared.datagrams {
            datagrams.forget(self.id);
        }
        // Dropping the sender ends the session; the next ticket gets a fresh one.
        let current = self.route.borrow().clone();
        self.route = watch::channel(current).0;
        if on {
            self.offer_datagrams();
        }
    }

    /// Tells this connection's datagram session (if any) which room it is in now.
    pub(super) fn publish_route(&mut self) {
        let handle = self.room.as_ref().map(|m| &m.handle);
        let same = match (handle, &self.route_key) {
            (None, None) => true,
            (Some(h), Some(k)) => h.same_room(k),
            _ => false,
        };
        if same {
            return;
        }
        let route: Route = handle.map(|h| {
            let route: std::sync::Arc<dyn Deliver> = std::sync::Arc::new(RoomRoute {
                client: self.id,
                handle: h.clone(),
            });
            route
        });
        self.route_key = handle.cloned();
        self.route.send_replace(route);
    }
}
