//! What moderation attaches to one connection and shares with the rooms it joins: its address,
//! whether it declared itself a bot, its identity, whom its player blocks, and the published
//! skin it wears. Rooms read it to mark bots' names, to keep a blocked player's chat from the
//! blocker, and to tell everyone which skin each seat's boards are drawn in.

use std::collections::BTreeSet;
use std::net::IpAddr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};

use sevenbag_protocol::SkinId;
use sevenbag_storage::PlayerId;

/// One connection's moderation facts. Shared (`Arc`) between its task and its rooms.
#[derive(Debug)]
pub(crate) struct Tags {
    /// The peer's address (canonical).
    ip: IpAddr,
    /// [`super::address::key`] of it.
    key: String,
    bot: AtomicBool,
    /// The identity's row id, 0 for a guest.
    player: AtomicI64,
    /// Players whose chat this connection is not sent.
    blocks: Mutex<BTreeSet<PlayerId>>,
    /// The published skin this connection wears: its rooms show it on its boards
    /// (`SeatSkins`; `crate::skins`).
    skin: Mutex<Option<SkinId>>,
}

impl Tags {
    /// A guest's tags, connected from `ip`.
    pub(crate) fn new(ip: IpAddr) -> Tags {
        let ip = super::address::canonical(ip);
        Tags {
            ip,
            key: super::address::key(ip),
            bot: AtomicBool::new(false),
            player: AtomicI64::new(0),
            blocks: Mutex::new(BTreeSet::new()),
            skin: Mutex::new(None),
        }
    }

    /// The published skin the connection wears.
    pub(crate) fn skin(&self) -> Option<SkinId> {
        self.skin.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// A connection taking back a seat goes on wearing the skin the seat's last connection
    /// wore, until it publishes its own (a reconnect resumes before it can).
    pub(crate) fn keep_skin_of(&self, before: &Tags) {
        let worn = before.skin();
        let mut skin = self.skin.lock().unwrap_or_else(|p| p.into_inner());
        if skin.is_none() {
            *skin = worn;
        }
    }

    /// The connection wears `skin` (`None`: the default blocks).
    pub(crate) fn wear(&self, skin: Option<SkinId>) {
        *self.skin.lock().unwrap_or_else(|p| p.into_inner()) = skin;
    }

    /// The peer's address.
    pub(crate) fn ip(&self) -> IpAddr {
        self.ip
    }

    /// The address as the limits compare it (`v4:…`, or the IPv6 /64).
    pub(crate) fn address_key(&self) -> &str {
        &self.key
    }

    /// Whether the connection is a declared bot.
    pub(crate) fn is_bot(&self) -> bool {
        self.bot.load(Ordering::Relaxed)
    }

    /// Marks the connection a bot, or not.
    pub(crate) fn set_bot(&self, bot: bool) {
        self.bot.store(bot, Ordering::Relaxed);
    }

    /// The identity the connection plays as.
    pub(crate) fn player(&self) -> Option<PlayerId> {
        match self.player.load(Ordering::Relaxed) {
            0 => None,
            id => Some(PlayerId(id)),
        }
    }

    /// The connection now plays as `player`, blocking `blocks`.
    pub(crate) fn identified(&self, player: PlayerId, blocks: impl IntoIterator<Item = PlayerId>) {
        self.player.store(player.0, Ordering::Relaxed);
        *self.lock_blocks() = blocks.into_iter().collect();
    }

    /// Whether this connection's player blocks `player`.
    pub(crate) fn blocks(&self, player: PlayerId) -> bool {
        self.lock_blocks().contains(&player)
    }

    /// Starts or stops hiding `player`'s chat.
    pub(crate) fn set_blocked(&self, player: PlayerId, blocked: bool) {
        let mut blocks = self.lock_blocks();
        if blocked {
            blocks.insert(player);
        } else {
            blocks.remove(&player);
        }
    }

    fn lock_blocks(&self) -> std::sync::MutexGuard<'_, BTreeSet<PlayerId>> {
        self.blocks.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether a chat line from `sender` reaches this connection.
    pub(crate) fn hears(&self, sender: &Tags) -> bool {
        sender.player().is_none_or(|p| !self.blocks(p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blocked_players_chat_is_not_heard_and_guests_always_are() {
        let me = Tags::new("203.0.113.1".parse().unwrap());
        let them = Tags::new("203.0.113.2".parse().unwrap());
        let guest = Tags::new("203.0.113.3".parse().unwrap());
        them.identified(PlayerId(7), []);
        me.identified(PlayerId(1), [PlayerId(7)]);
        assert!(!me.hears(&them) && me.hears(&guest) && them.hears(&me));
        me.set_blocked(PlayerId(7), false);
        assert!(me.hears(&them));
    }
}
