//! Who of the identified players is connected to this instance and where they are, and the
//! `Presence` pushes to their friends when that changes.
//!
//! Plain data behind a `std::sync::Mutex` (as the lobby): every critical section is a few map
//! operations and non-blocking `Outbox::send`s, and never awaits. A player's state is the
//! most telling of their connections' (in a match, then watching, then online), here and on
//! the other instances of a cluster (`super::remote`); `Offline` when none is left or while
//! they appear offline on any instance. A connection that sent nothing of its own for the
//! server's `away_after` reads `Away` where it would read `Online` (`super::idle`). Only the players here who count the player among
//! their friends hear it: each player's friend set is read from the database when they
//! identify and kept current by friend changes, this instance's and those heard from the
//! others.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use sevenbag_protocol::ServerMessage;
use sevenbag_protocol::social::{MatchKind, Notification, PresenceState};
use sevenbag_storage::PlayerId;

use super::remote::{Beyond, Remote, Seen, rank};
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
    /// A room of two seats: its match is a versus match, whichever room kind plays it.
    pub(crate) versus: bool,
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
    /// When the client last sent a message of its own (`super::idle::counts`).
    heard: Instant,
    /// Silent for `away_after`: `Away` rather than `Online`.
    away: bool,
}

impl Conn {
    fn state(&self) -> PresenceState {
        match self.busy() {
            PresenceState::Online if self.away => PresenceState::Away,
            state => state,
        }
    }

    /// Where the connection is, idle or not.
    fn busy(&self) -> PresenceState {
        let Some(place) = &self.place else {
            return PresenceState::Online;
        };
        if place.spectator {
            return PresenceState::Spectating {
                code: place.code.clone(),
            };
        }
        let kind = match self.running {
            Some(MatchEvent::Battle) if !place.versus => MatchKind::FreeForAll,
            Some(_) if place.ranked => MatchKind::Ranked,
            Some(MatchEvent::Versus | MatchEvent::Battle) => MatchKind::Versus,
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
    /// What the other instances were last told of this player's state here.
    told: Option<(PresenceState, bool)>,
}

#[derive(Debug, Default)]
struct Book {
    conns: HashMap<ClientId, Conn>,
    players: HashMap<PlayerId, Player>,
    /// Player → the players here who count them among their friends.
    fans: HashMap<PlayerId, HashSet<PlayerId>>,
    /// What friends were last told of each player not `Offline`, with the name they heard.
    shown: HashMap<PlayerId, (String, PresenceState)>,
    /// The other instances' players.
    remote: Remote,
    /// Where the other instances hear of this one's players (a cluster only).
    beyond: Option<Arc<dyn Beyond>>,
}

impl Book {
    /// Where `player` is on this instance alone (`Offline` while hidden).
    fn local(&self, player: PlayerId) -> PresenceState {
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

    /// What `player`'s friends see of them now, across the cluster.
    fn visible(&self, player: PlayerId) -> PresenceState {
        let (elsewhere, hidden_elsewhere) = self.remote.state(player);
        let hidden_here = self.players.get(&player).is_some_and(|p| p.hidden);
        if hidden_here || hidden_elsewhere {
            return PresenceState::Offline;
        }
        let here = self.local(player);
        if rank(&elsewhere) > rank(&here) {
            elsewhere
        } else {
            here
        }
    }

    /// `player`'s current name, as this instance or another knows it.
    fn name_of(&self, player: PlayerId) -> Option<String> {
        if let Some(p) = self.players.get(&player) {
            return Some(p.name.clone());
        }
        if let Some(name) = self.remote.name(player) {
            return Some(name.to_string());
        }
        self.shown.get(&player).map(|(name, _)| name.clone())
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

    /// Tells the other instances `player`'s state here, if it changed since they were told.
    fn announce(&mut self, player: PlayerId) {
        let state = self.local(player);
        let Some(beyond) = self.beyond.clone() else {
            return;
        };
        let Some(p) = self.players.get_mut(&player) else {
            return;
        };
        // A player with no connection left here is not hiding here any more.
        let hidden = p.hidden && !p.conns.is_empty();
        if p.told.as_ref() == Some(&(state.clone(), hidden)) {
            return;
        }
        if p.told.is_none() && state == PresenceState::Offline && !hidden {
            return;
        }
        p.told = Some((state.clone(), hidden));
        beyond.presence(&Seen {
            player,
            name: p.name.clone(),
            state,
            hidden,
        });
    }

    /// Pushes `player`'s state to their friends here if it changed since they were told, and
    /// their state here to the other instances if that changed.
    fn publish(&mut self, player: PlayerId) {
        self.announce(player);
        let state = self.visible(player);
        let before = self.shown.get(&player).map(|(_, s)| s.clone());
        if before.as_ref().unwrap_or(&PresenceState::Offline) == &state {
            return;
        }
        let Some(name) = self.name_of(player) else {
            return;
        };
        if state == PresenceState::Offline {
            self.shown.remove(&player);
        } else {
            self.shown.insert(player, (name.clone(), state.clone()));
        }
        let message = ServerMessage::Presence { name, state };
        let fans: Vec<PlayerId> = self
            .fans
            .get(&player)
            .map(|f| f.iter().copied().collect())
            .unwrap_or_default();
        for fan in fans {
            self.tell(fan, &message);
        }
    }

    /// Tells `to` where `about` is, unless `about` reads as offline.
    fn show(&self, about: PlayerId, to: PlayerId) {
        let state = self.visible(about);
        if state == PresenceState::Offline {
            return;
        }
        if let Some(name) = self.name_of(about) {
            self.tell(to, &ServerMessage::Presence { name, state });
        }
    }

    /// `fan`, if here, counts `friend` among their friends from now on.
    fn link(&mut self, fan: PlayerId, friend: PlayerId) {
        if let Some(p) = self.players.get_mut(&fan) {
            p.friends.insert(friend);
            self.fans.entry(friend).or_default().insert(fan);
        }
    }

    /// `fan` no longer counts `friend` among their friends.
    fn unlink(&mut self, fan: PlayerId, friend: PlayerId) {
        if let Some(p) = self.players.get_mut(&fan) {
            p.friends.remove(&friend);
        }
        if let Some(fans) = self.fans.get_mut(&friend) {
            fans.remove(&fan);
            if fans.is_empty() {
                self.fans.remove(&friend);
            }
        }
    }

    /// Forgets `player` if none of their connections is left here.
    fn forget_if_gone(&mut self, player: PlayerId) {
        if !self
            .players
            .get(&player)
            .is_some_and(|p| p.conns.is_empty())
        {
            return;
        }
        if let Some(p) = self.players.remove(&player) {
            for friend in p.friends {
                if let Some(fans) = self.fans.get_mut(&friend) {
                    fans.remove(&player);
                    if fans.is_empty() {
                        self.fans.remove(&friend);
                    }
                }
            }
        }
    }

    /// `a` and `b` are friends (`on`) or not any more, as this instance knows it.
    fn befriend(&mut self, a: PlayerId, b: PlayerId, on: bool) {
        for (x, y) in [(a, b), (b, a)] {
            if on {
                self.link(x, y);
            } else {
                self.unlink(x, y);
            }
        }
        if on {
            self.show(a, b);
            self.show(b, a);
        }
    }
}

/// This instance's identified connections and where each is.
#[derive(Debug, Default)]
pub(crate) struct PresenceBook {
    book: Mutex<Book>,
    /// Set once the idle watch (`super::idle`) runs, started by the first identified connection.
    idle: std::sync::OnceLock<()>,
}

impl PresenceBook {
    fn lock(&self) -> std::sync::MutexGuard<'_, Book> {
        self.book.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// From now on the other instances hear of this instance's players through `beyond`.
    pub(crate) fn attach(&self, beyond: Arc<dyn Beyond>) {
        self.lock().beyond = Some(beyond);
    }

    /// Connection `client` plays as `player` (called `name`, with `friends`) from now on: its
    /// friends hear it is online, and it hears where each online friend is.
    #[cfg(test)]
    pub(crate) fn identified(
        &self,
        client: ClientId,
        player: PlayerId,
        name: &str,
        outbox: Outbox,
        friends: Vec<PlayerId>,
    ) {
        self.join(client, player, name, outbox, friends, None);
    }

    /// [`PresenceBook::identified`] for a player whose stored word is that they appear
    /// offline (`hidden`) or not: it holds from the first thing their friends hear.
    pub(crate) fn identified_hidden(
        &self,
        client: ClientId,
        player: PlayerId,
        name: &str,
        outbox: Outbox,
        friends: Vec<PlayerId>,
        hidden: bool,
    ) {
        self.join(client, player, name, outbox, friends, Some(hidden));
    }

    fn join(
        &self,
        client: ClientId,
        player: PlayerId,
        name: &str,
        outbox: Outbox,
        friends: Vec<PlayerId>,
        hidden: Option<bool>,
    ) {
        let mut book = self.lock();
        if let Some(old) = book.drop_conn(client).filter(|old| *old != player) {
            book.publish(old);
            book.forget_if_gone(old);
        }
        book.conns.insert(
            client,
            Conn {
                player,
                outbox,
                place: None,
                running: None,
                heard: Instant::now(),
                away: false,
            },
        );
        let friends: HashSet<PlayerId> = friends.into_iter().collect();
        let entry = book.players.entry(player).or_insert_with(|| Player {
            name: name.to_string(),
            conns: Vec::new(),
            friends: HashSet::new(),
            hidden: false,
            told: None,
        });
        entry.name = name.to_string();
        entry.conns.push(client);
        if let Some(hidden) = hidden {
            entry.hidden = hidden;
        }
        let stale: Vec<PlayerId> = entry.friends.difference(&friends).copied().collect();
        for friend in stale {
            book.unlink(player, friend);
        }
        for &friend in &friends {
            book.link(player, friend);
            book.link(friend, player);
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
            book.forget_if_gone(player);
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

    /// Whether this is the first call: the idle watch (`super::idle`) is started once.
    pub(crate) fn first_idle_watch(&self) -> bool {
        self.idle.set(()).is_ok()
    }

    /// Connection `client` sent a message of its own at `now`: no longer away.
    pub(crate) fn heard_from(&self, client: ClientId, now: Instant) {
        let mut book = self.lock();
        let Some(conn) = book.conns.get_mut(&client) else {
            return;
        };
        conn.heard = now;
        if conn.away {
            conn.away = false;
            let player = conn.player;
            book.publish(player);
        }
    }

    /// Marks away every connection silent for `after` by `now`, and tells their friends.
    pub(crate) fn mark_idle(&self, now: Instant, after: Duration) {
        let mut book = self.lock();
        let mut changed = Vec::new();
        for conn in book.conns.values_mut() {
            if !conn.away && now.saturating_duration_since(conn.heard) >= after {
                conn.away = true;
                changed.push(conn.player);
            }
        }
        changed.sort_unstable_by_key(|p| p.0);
        changed.dedup();
        for player in changed {
            book.publish(player);
        }
    }

    /// `player` appears offline (`hidden`) or is seen again.
    pub(crate) fn hide(&self, player: PlayerId, hidden: bool) {
        let mut book = self.lock();
        if let Some(p) = book.players.get_mut(&player) {
            p.hidden = hidden;
            book.publish(player);
        }
    }

    /// `a` and `b` became friends: each (if here) hears where the other is, and so do the
    /// other instances.
    pub(crate) fn befriended(&self, a: PlayerId, b: PlayerId) {
        let mut book = self.lock();
        book.befriend(a, b, true);
        if let Some(beyond) = &book.beyond {
            beyond.friends(a, b, true);
        }
    }

    /// `a` and `b` are friends no more (removed, or one blocks the other): neither hears of
    /// the other again, here or on the other instances.
    pub(crate) fn unfriended(&self, a: PlayerId, b: PlayerId) {
        let mut book = self.lock();
        book.befriend(a, b, false);
        if let Some(beyond) = &book.beyond {
            beyond.friends(a, b, false);
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

    /// Delivers a just stored `notification` to `to`: at once to their connections here, and
    /// to the other instances when `to` is not here or is connected elsewhere too.
    pub(crate) fn notify(&self, to: PlayerId, notification: Notification) {
        let book = self.lock();
        let here = book.players.get(&to).is_some_and(|p| !p.conns.is_empty());
        if let Some(beyond) = &book.beyond
            && (!here || book.remote.elsewhere(to))
        {
            beyond.notification(to, &notification);
        }
        book.tell(to, &ServerMessage::Notification { notification });
    }

    /// Every player here, with their state here, for the other instances.
    pub(crate) fn snapshot(&self) -> Vec<Seen> {
        let book = self.lock();
        book.players
            .iter()
            .filter(|(_, p)| !p.conns.is_empty())
            .map(|(&player, p)| Seen {
                player,
                name: p.name.clone(),
                state: book.local(player),
                hidden: p.hidden,
            })
            .collect()
    }

    /// `instance` is alive until `until`; whether it was unknown here.
    pub(crate) fn heard_alive(&self, instance: &str, until: Instant) -> bool {
        self.lock().remote.alive(instance, until)
    }

    /// `instance` says `seen` of one of its players.
    pub(crate) fn heard(&self, instance: &str, seen: Seen, until: Instant) {
        let mut book = self.lock();
        book.remote.alive(instance, until);
        let player = seen.player;
        book.remote.set(instance, seen);
        book.publish(player);
    }

    /// `instance` lists all of its players.
    pub(crate) fn heard_all(&self, instance: &str, list: Vec<Seen>, until: Instant) {
        let mut book = self.lock();
        book.remote.alive(instance, until);
        for player in book.remote.replace(instance, list) {
            book.publish(player);
        }
    }

    /// `instance` stopped: its players are offline unless connected elsewhere.
    pub(crate) fn heard_gone(&self, instance: &str) {
        let mut book = self.lock();
        for player in book.remote.drop_instance(instance) {
            book.publish(player);
        }
    }

    /// Another instance made `a` and `b` friends (`on`) or unmade them.
    pub(crate) fn heard_friends(&self, a: PlayerId, b: PlayerId, on: bool) {
        self.lock().befriend(a, b, on);
    }

    /// Forgets what the instances whose heartbeat lapsed by `now` said.
    pub(crate) fn expire(&self, now: Instant) {
        let mut book = self.lock();
        for player in book.remote.expire(now) {
            book.publish(player);
        }
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
            versus: true,
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

    #[test]
    fn a_silent_connection_reads_away_until_it_speaks_and_a_match_outranks_it() {
        let book = PresenceBook::default();
        let (a, _qa) = outbox(1);
        let (b, _qb) = outbox(2);
        book.identified(1, PlayerId(7), "ann", a, vec![]);
        let after = Duration::from_secs(300);
        let start = Instant::now();
        book.mark_idle(start + after / 2, after);
        assert_eq!(book.state_of(PlayerId(7)), PresenceState::Online);
        book.mark_idle(start + after * 2, after);
        assert_eq!(book.state_of(PlayerId(7)), PresenceState::Away);
        book.heard_from(1, start + after * 2);
        assert_eq!(book.state_of(PlayerId(7)), PresenceState::Online);
        // A second connection that speaks keeps the player online; one in a match shows it.
        book.identified(2, PlayerId(7), "ann", b, vec![]);
        book.heard_from(2, start + after * 4);
        book.mark_idle(start + after * 4, after);
        assert_eq!(book.state_of(PlayerId(7)), PresenceState::Online);
        let place = Place {
            code: "ACDEF".into(),
            spectator: false,
            ranked: false,
            versus: true,
        };
        book.place(1, Some(place));
        book.match_event(1, MatchEvent::Versus);
        book.left(2);
        assert!(matches!(
            book.state_of(PlayerId(7)),
            PresenceState::InMatch { .. }
        ));
        book.match_event(1, MatchEvent::Over);
        assert_eq!(book.state_of(PlayerId(7)), PresenceState::Away);
    }

    #[test]
    fn another_instances_word_counts_until_it_lapses_and_its_hiding_hides() {
        use std::time::Duration;
        let book = PresenceBook::default();
        let (a, _qa) = outbox(1);
        book.identified(1, PlayerId(1), "ann", a, vec![PlayerId(2)]);
        let now = Instant::now();
        let ben = |state, hidden| Seen {
            player: PlayerId(2),
            name: "ben".into(),
            state,
            hidden,
        };
        book.heard(
            "b",
            ben(PresenceState::Online, false),
            now + Duration::from_secs(5),
        );
        assert_eq!(book.state_of(PlayerId(2)), PresenceState::Online);
        book.heard(
            "b",
            ben(PresenceState::Offline, true),
            now + Duration::from_secs(5),
        );
        assert_eq!(book.state_of(PlayerId(2)), PresenceState::Offline);
        book.heard_all(
            "b",
            vec![ben(PresenceState::Online, false)],
            now + Duration::from_secs(5),
        );
        assert_eq!(book.state_of(PlayerId(2)), PresenceState::Online);
        book.expire(now + Duration::from_secs(4));
        assert_eq!(book.state_of(PlayerId(2)), PresenceState::Online);
        book.expire(now + Duration::from_secs(6));
        assert_eq!(book.state_of(PlayerId(2)), PresenceState::Offline);
        // Ann's own state here is what the others get in a snapshot.
        let listed = book.snapshot();
        assert_eq!(listed.len(), 1);
        assert_eq!(
            (listed[0].player, &listed[0].state),
            (PlayerId(1), &PresenceState::Online)
        );
    }
}
