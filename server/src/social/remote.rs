//! What this instance hears of the players connected to the other instances of a cluster, and
//! the [`Beyond`] hook through which the [`PresenceBook`](super::PresenceBook) tells them of its
//! own.
//!
//! Each other instance's word on a player ([`Seen`]) is kept per instance and lasts while that
//! instance is alive: every record from it, and its heartbeat, pushes its deadline one TTL
//! on; once the deadline passes (a crashed instance) or it says goodbye, everything it said
//! goes. A player's cluster-wide state is the busiest of this instance's and the live ones';
//! one instance saying the player appears offline hides them everywhere.

use std::collections::HashMap;
use std::fmt;
use std::time::Instant;

use sevenbag_protocol::social::{Notification, PresenceState};
use sevenbag_storage::PlayerId;

/// One instance's word on one of its players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Seen {
    /// Who.
    pub(crate) player: PlayerId,
    /// Their current name.
    pub(crate) name: String,
    /// Their state on that instance alone (`Offline` while they appear offline).
    pub(crate) state: PresenceState,
    /// Whether they asked to appear offline there.
    pub(crate) hidden: bool,
}

impl Seen {
    /// Whether this says the player is connected there (a hidden player is).
    pub(crate) fn connected(&self) -> bool {
        self.hidden || self.state != PresenceState::Offline
    }
}

/// Where the book sends what the other instances must hear. Called under the book's lock:
/// implementations only queue (never block or await).
pub(crate) trait Beyond: Send + Sync + fmt::Debug {
    /// A player's state on this instance changed (`Offline`, not hidden: none of their
    /// connections is left here).
    fn presence(&self, seen: &Seen);
    /// `a` and `b` became friends (`on`) or are friends no more.
    fn friends(&self, a: PlayerId, b: PlayerId, on: bool);
    /// A notification stored for `to`, who is connected elsewhere (or nowhere).
    fn notification(&self, to: PlayerId, notification: &Notification);
}

/// The ranking of states: a player shows their busiest.
pub(super) fn rank(state: &PresenceState) -> u8 {
    match state {
        PresenceState::Offline => 0,
        PresenceState::Away => 1,
        PresenceState::Online => 2,
        PresenceState::Spectating { .. } => 3,
        PresenceState::InMatch { .. } => 4,
    }
}

/// The other instances' players, as last heard.
#[derive(Debug, Default)]
pub(super) struct Remote {
    /// Player → instance → what it said.
    players: HashMap<PlayerId, HashMap<String, Seen>>,
    /// Instance → when its word lapses.
    deadlines: HashMap<String, Instant>,
}

impl Remote {
    /// `instance` is alive until `until`; whether it was unknown.
    pub(super) fn alive(&mut self, instance: &str, until: Instant) -> bool {
        self.deadlines.insert(instance.to_string(), until).is_none()
    }

    /// What `instance` says of `seen.player` now.
    pub(super) fn set(&mut self, instance: &str, seen: Seen) {
        let player = seen.player;
        if seen.connected() {
            self.players
                .entry(player)
                .or_default()
                .insert(instance.to_string(), seen);
        } else if let Some(by) = self.players.get_mut(&player) {
            by.remove(instance);
            if by.is_empty() {
                self.players.remove(&player);
            }
        }
    }

    /// `instance`'s whole word: `list` replaces what it said before. Every player whose word
    /// changed.
    pub(super) fn replace(&mut self, instance: &str, list: Vec<Seen>) -> Vec<PlayerId> {
        let mut touched = self.forget_words(instance);
        for seen in list {
            touched.push(seen.player);
            self.set(instance, seen);
        }
        touched.sort_unstable();
        touched.dedup();
        touched
    }

    /// `instance` is gone: everything it said goes. The players it spoke of.
    pub(super) fn drop_instance(&mut self, instance: &str) -> Vec<PlayerId> {
        self.deadlines.remove(instance);
        self.forget_words(instance)
    }

    fn forget_words(&mut self, instance: &str) -> Vec<PlayerId> {
        let mut touched = Vec::new();
        self.players.retain(|player, by| {
            if by.remove(instance).is_some() {
                touched.push(*player);
            }
            !by.is_empty()
        });
        touched
    }

    /// Drops the instances whose deadline passed by `now`; the players they spoke of.
    pub(super) fn expire(&mut self, now: Instant) -> Vec<PlayerId> {
        let lapsed: Vec<String> = self
            .deadlines
            .iter()
            .filter(|(_, until)| **until <= now)
            .map(|(id, _)| id.clone())
            .collect();
        let mut touched = Vec::new();
        for id in lapsed {
            tracing::info!(instance = %id, "an instance's heartbeat lapsed: its players are offline here");
            touched.extend(self.drop_instance(&id));
        }
        touched.sort_unstable();
        touched.dedup();
        touched
    }

    /// `player`'s busiest state elsewhere, and whether any instance hides them.
    pub(super) fn state(&self, player: PlayerId) -> (PresenceState, bool) {
        let Some(by) = self.players.get(&player) else {
            return (PresenceState::Offline, false);
        };
        let hidden = by.values().any(|s| s.hidden);
        let best = by
            .values()
            .map(|s| s.state.clone())
            .max_by_key(rank)
            .unwrap_or(PresenceState::Offline);
        (best, hidden)
    }

    /// Whether `player` is connected to another instance.
    pub(super) fn elsewhere(&self, player: PlayerId) -> bool {
        self.players.contains_key(&player)
    }

    /// `player`'s name as another instance last gave it.
    pub(super) fn name(&self, player: PlayerId) -> Option<&str> {
        self.players
            .get(&player)?
            .values()
            .next()
            .map(|s| s.name.as_str())
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn seen(state: PresenceState, hidden: bool) -> Seen {
        Seen {
            player: PlayerId(7),
            name: "ann".into(),
            state,
            hidden,
        }
    }

    #[test]
    fn the_busiest_word_wins_a_hidden_one_hides_and_a_lapsed_instance_says_nothing() {
        let mut remote = Remote::default();
        let now = Instant::now();
        assert!(remote.alive("a", now + Duration::from_secs(5)));
        assert!(remote.alive("b", now + Duration::from_secs(10)));
        assert!(!remote.alive("a", now + Duration::from_secs(5)));
        let playing = PresenceState::InMatch {
            kind: sevenbag_protocol::social::MatchKind::Versus,
            code: "ACDEF".into(),
        };
        remote.set("a", seen(PresenceState::Online, false));
        remote.set("b", seen(playing.clone(), false));
        assert_eq!(remote.state(PlayerId(7)), (playing, false));
        assert_eq!(
            remote.expire(now + Duration::from_secs(11)),
            vec![PlayerId(7)]
        );
        assert_eq!(remote.state(PlayerId(7)), (PresenceState::Offline, false));
        assert!(!remote.elsewhere(PlayerId(7)));

        remote.set("c", seen(PresenceState::Offline, true));
        assert!(remote.elsewhere(PlayerId(7)));
        assert_eq!(remote.state(PlayerId(7)), (PresenceState::Offline, true));
        assert_eq!(remote.replace("c", vec![]), vec![PlayerId(7)]);
        assert!(!remote.elsewhere(PlayerId(7)));
    }
}
