//! A room's spectators, the same in every room: each connection with its moderation facts
//! (whom it blocks, for the chat relay), in the order they came.

use std::sync::Arc;

use crate::moderation::Tags;
use crate::relay::{ClientId, Outbox};

/// The connections watching a room.
#[derive(Debug, Default)]
pub(super) struct Spectators {
    list: Vec<Spectator>,
}

#[derive(Debug)]
struct Spectator {
    outbox: Outbox,
    /// `None` for a connection whose facts are not known (one moved here from a lost seat
    /// restored from a room log).
    tags: Option<Arc<Tags>>,
}

impl Spectators {
    pub(super) fn len(&self) -> usize {
        self.list.len()
    }

    pub(super) fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Adds a spectator (last).
    pub(super) fn push(&mut self, outbox: Outbox, tags: Option<Arc<Tags>>) {
        self.list.push(Spectator { outbox, tags });
    }

    /// Removes connection `client`; whether it was watching.
    pub(super) fn remove(&mut self, client: ClientId) -> bool {
        match self.list.iter().position(|s| s.outbox.id() == client) {
            Some(i) => {
                self.list.swap_remove(i);
                true
            }
            None => false,
        }
    }

    /// Every spectator's outbox.
    pub(super) fn iter(&self) -> impl Iterator<Item = &Outbox> {
        self.list.iter().map(|s| &s.outbox)
    }

    /// The moderation facts of spectator `client`, when it watches and they are known.
    pub(super) fn tags_of(&self, client: ClientId) -> Option<Arc<Tags>> {
        self.list
            .iter()
            .find(|s| s.outbox.id() == client)
            .and_then(|s| s.tags.clone())
    }

    /// Every spectator as a chat listener (`super::chat::relay`).
    pub(super) fn listeners(&self) -> impl Iterator<Item = (&Outbox, Option<&Tags>)> {
        self.list.iter().map(|s| (&s.outbox, s.tags.as_deref()))
    }
}

impl<'a> IntoIterator for &'a Spectators {
    type Item = &'a Outbox;
    type IntoIter = Box<dyn Iterator<Item = &'a Outbox> + 'a>;

    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Limits;
    use crate::metrics::Metrics;

    fn outbox(id: ClientId) -> (Outbox, crate::relay::Queue) {
        crate::relay::queue(id, &Limits::default(), Metrics::new().expect("metrics"))
    }

    #[test]
    fn a_spectator_who_leaves_is_gone_and_a_stranger_is_not_removed() {
        let mut watching = Spectators::default();
        let (a, _qa) = outbox(1);
        let (b, _qb) = outbox(2);
        watching.push(a, None);
        watching.push(b, None);
        assert!(!watching.remove(3));
        assert!(watching.remove(1));
        assert_eq!(watching.iter().map(Outbox::id).collect::<Vec<_>>(), [2]);
        assert!(watching.tags_of(2).is_none());
    }
}
