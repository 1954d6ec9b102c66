//! Who of the identified players is connected to this instance and where they are, and the
//! `Presence` pushes to their friends when that changes.
//!
//! Plain data behind a `std::sync::Mutex` (as the lobby): every critical section is a few map
//! operations and non-blocking `Outbox::send`s, and never awaits. A player's state is the
//! most telling of their connections' (in a match, then watching, then online); `Offline`
//! when none is left or while they appear offline. Only the players in a player's friend set
//! hear it; the set is read from the database when the player identifies and kept current by
//! this instance's own friend changes.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use sevenbag_protocol::ServerMessage;
use sevenbag_protocol::social::{MatchKind, PresenceState};
use sevenbag_storage::PlayerId;

use crate::relay::{ClientId, Outbox};

/// A connection's room, as its task knows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Place {
    /// The room's code.
    pub(crate) code: String,
    /// Watching, not seated.
    pub(crate) spectator: bool,
    /// Seated by the ranked queue.
    pub(crate) ranked: bool,
}

/// What a connection's outgoing messages said of its match (`super::watch`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MatchEvent {
    /// Seated or watching in a new room; no match yet.
    Entered,
    /// A two-seat match runs (`MatchStart`, `MatchLog`).
    Versus,
    /// A match of several seats runs (`BattleStart`, `BattleLog`).
    Battle,
    /// The match ended (`MatchOver`, `MatchVoid`, `BattleOver`).
    Over,
}

#[derive(Debug)]
struct Conn {
    player: PlayerId,
    outbox: Outbox,
    place: Option<Place>,
    /// The running match's kind as its messages told: `None` between matches.
    running: Option<MatchEvent>,
}

impl Conn {
    fn state(&self) -> PresenceState {
        let Some(place) = &self.place else {
            return PresenceState::Online;
        };
        if place.spectator {
            return PresenceState::Spectating {
                code: place.code.clone(),
            };
        }
        let kind = match self.running {
            Some(MatchEvent::Battle) => MatchKind::FreeForAll,
            Some(MatchEvent::Versus) if place.ranked => MatchKind::Ranked,
            Some(MatchEvent::Versus) => MatchKind::Versus,
            _ => return PresenceState::Online,
        };
        PresenceState::InMatch {
            kind,
            code: place.code.clone(),
        }
    }
}

#[derive(Debug)]
struct Player {
    name: String,
    conns: Vec<ClientId>,
    friends: HashSet<PlayerId>,
    hidden: bool,
    /// What friends were last told.
    shown: PresenceState,
}

#[derive(Debug, Default)]
struct Book {
    conns: HashMap<ClientId, Conn>,
    players: HashMap<PlayerId, Player>,
}

fn rank(state: &PresenceState) -> u8 {
    match state {
        PresenceState::Offline => 0,
        PresenceState::Away => 1,
        PresenceState::Online => 2,
        PresenceState::Spectating { .. } => 3,
        PresenceState::InMatch { .. } => 4,
    }
}

impl Book {
    /// What `player`'s friends see of them now.
    fn visible(&self, player: PlayerId) -> PresenceState {
        let Some(p) = self.players.get(&player) else {
            return PresenceState::Offline;
        };
        if p.hidden {
            return PresenceState::Offline;
        }
        p.conns
            .iter()
            .filter_map(|c| self.conns.get(c))
            .map(Conn::state)
            .max_by_key(rank)
            .unwrap_or(PresenceState::Offline)
    }

    /// Sends `message` to every connection of `player` on this instance.
    fn tell(&self, player: PlayerId, message: &ServerMessage) {
        let Some(p) = self.players.get(&player) else {
            return;
        };
        for conn in p.conns.iter().filter_map(|c| self.conns.get(c)) {
            conn.outbox.send(message);
        }
    }

    /// Pushes `player`'s state to their online friends if it changed since they were told.
    fn publish(&mut self, player: PlayerId) {
        let state = self.visible(player);
        let Some(p) = self.players.get_mut(&player) else {
            return;
        };
        if p.shown == state {
            return;
        }
        p.shown = state.clone();
        let message = ServerMessage::Presence {
            name: p.name.clone(),
            state,
        };
        let friends: Vec<PlayerId> = p.friends.iter().copied().collect();
        for friend in friends {
            self.tell(friend, &message);
        }
    }

    /// Tells `to` where `about` is, unless `about` reads as offline.
    fn show(&self, about: PlayerId, to: PlayerId) {
        let state = self.visible(about);
        if state == PresenceState::Offline {
            return;
        }
        if let Some(p) = self.players.get(&about) {
            let message = ServerMessage::Presence {
                name: p.name.clone(),
                state,
            };
            self.tell(to, &message);
        }
    }
}

/// This instance's identified connections and where each is.
#[derive(Debug, Default)]
pub(crate) struct PresenceBook {
    book: Mutex<Book>,
}

impl PresenceBook {
    fn lock(&self) -> std::sync::MutexGuard<'_, Book> {
        self.book.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Connection `client` plays as `player` (called `name`, with `friends`) from now on: its
    /// friends hear it is online, and it hears where each online friend is.
    pub(crate) fn identified(
        &self,
        client: ClientId,
        player: PlayerId,
        name: &str,
        outbox: Outbox,
        friends: Vec<PlayerId>,
    ) {
        let mut book = self.lock();
        if let Some(old) = book.drop_conn(client).filter(|old| *old != player) {
            book.publish(old);
            if book.players.get(&old).is_some_and(|p| p.conns.is_empty()) {
                book.players.remove(&old);
            }
        }
        book.conns.insert(
            client,
            Conn {
                player,
                outbox,
                place: None,
                running: None,
            },
        );
        let friends: HashSet<PlayerId> = friends.into_iter().collect();
        let entry = book.players.entry(player).or_insert_with(|| Player {
            name: name.to_string(),
            conns: Vec::new(),
            friends: HashSet::new(),
            hidden: false,
            shown: PresenceState::Offline,
        });
        entry.name = name.to_string();
        entry.conns.push(client);
        entry.friends = friends.clone();
        for friend in &friends {
            if let Some(f) = book.players.get_mut(friend) {
                f.friends.insert(player);
            }
        }
        book.publish(player);
        for friend in friends {
            book.show(friend, player);
        }
    }

    /// Connection `client` closed (or plays as another identity now).
    pub(crate) fn left(&self, client: ClientId) {
        let mut book = self.lock();
        if let Some(player) = book.drop_conn(client) {
            book.publish(player);
            if book
                .players
                .get(&player)
                .is_some_and(|p| p.conns.is_empty())
            {
                book.players.remove(&player);
            }
        }
    }

    /// Connection `client` is in `place` now (`None`: in no room).
    pub(crate) fn place(&self, client: ClientId, place: Option<Place>) {
        let mut book = self.lock();
        let Some(conn) = book.conns.get_mut(&client) else {
            return;
        };
        if conn.place == place {
            return;
        }
        conn.place = place;
        let player = conn.player;
        book.publish(player);
    }

    /// Connection `client`'s match started or ended.
    pub(crate) fn match_event(&self, client: ClientId, event: MatchEvent) {
        let mut book = self.lock();
        let Some(conn) = book.conns.get_mut(&client) else {
            return;
        };
        conn.running = match event {
            MatchEvent::Entered | MatchEvent::Over => None,
            running => Some(running),
        };
        let player = conn.player;
        book.publish(player);
    }

    /// `player` appears offline (`hidden`) or is seen again.
    pub(crate) fn hide(&self, player: PlayerId, hidden: bool) {
        let mut book = self.lock();
        if let Some(p) = book.players.get_mut(&player) {
            p.hidden = hidden;
            book.publish(player);
        }
    }

    /// `a` and `b` became friends: each (if here) hears where the other is.
    pub(crate) fn befriended(&self, a: PlayerId, b: PlayerId) {
        let mut book = self.lock();
        for (x, y) in [(a, b), (b, a)] {
            if let Some(p) = book.players.get_mut(&x) {
                p.friends.insert(y);
            }
        }
        book.show(a, b);
        book.show(b, a);
    }

    /// `a` and `b` are friends no more (removed, or one blocks the other): neither hears of
    /// the other again.
    pub(crate) fn unfriended(&self, a: PlayerId, b: PlayerId) {
        let mut book = self.lock();
        for (x, y) in [(a, b), (b, a)] {
            if let Some(p) = book.players.get_mut(&x) {
                p.friends.remove(&y);
            }
        }
    }

    /// What `player`'s friends see of them now.
    pub(crate) fn state_of(&self, player: PlayerId) -> PresenceState {
        self.lock().visible(player)
    }

    /// Sends `message` to every connection of `player` here; whether there was one.
    pub(crate) fn send_to(&self, player: PlayerId, message: &ServerMessage) -> bool {
        let book = self.lock();
        let here = book
            .players
            .get(&player)
            .is_some_and(|p| !p.conns.is_empty());
        book.tell(player, message);
        here
    }
}

impl Book {
    /// Forgets connection `client`; the player it played as, if any.
    fn drop_conn(&mut self, client: ClientId) -> Option<PlayerId> {
        let conn = self.conns.remove(&client)?;
        if let Some(p) = self.players.get_mut(&conn.player) {
            p.conns.retain(|c| *c != client);
        }
        Some(conn.player)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;
    use crate::metrics::Metrics;

    fn outbox(id: ClientId) -> (Outbox, crate::relay::Queue) {
        crate::relay::queue(id, &Limits::default(), Metrics::new().expect("metrics"))
    }

    #[test]
    fn a_players_state_is_their_most_telling_connection_and_hidden_reads_offline() {
        let book = PresenceBook::default();
        let (a, _qa) = outbox(1);
        let (b, _qb) = outbox(2);
        book.identified(1, PlayerId(7), "ann", a, vec![]);
        book.identified(2, PlayerId(7), "ann", b, vec![]);
        assert_eq!(book.state_of(PlayerId(7)), PresenceState::Online);
        let place = Place {
            code: "ACDEF".into(),
            spectator: false,
            ranked: true,
        };
        book.place(2, Some(place));
        assert_eq!(book.state_of(PlayerId(7)), PresenceState::Online);
        book.match_event(2, MatchEvent::Versus);
        let in_match = PresenceState::InMatch {
            kind: MatchKind::Ranked,
            code: "ACDEF".into(),
        };
        assert_eq!(book.state_of(PlayerId(7)), in_match);
        book.hide(PlayerId(7), true);
        assert_eq!(book.state_of(PlayerId(7)), PresenceState::Offline);
        book.hide(PlayerId(7), false);
        book.match_event(2, MatchEvent::Over);
        book.left(1);
        assert_eq!(book.state_of(PlayerId(7)), PresenceState::Online);
        book.left(2);
        assert_eq!(book.state_of(PlayerId(7)), PresenceState::Offline);
    }
}
