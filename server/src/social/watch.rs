//! Whether a connection's match runs, read from what it is sent: the writer's sink is
//! wrapped in [`Watched`], which looks at the first byte of each binary frame (a server
//! message's variant index: bincode writes it first, as one byte below 251) and reports the
//! frames that enter a room, start a match or end it to the [`PresenceBook`].
//!
//! Rooms keep no presence of their own: they already tell each member when its match starts
//! and ends, in order with everything else, so this reads the same facts the client does.

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use futures_util::Sink;
use tokio_tungstenite::tungstenite::Message;

use super::presence::{MatchEvent, PresenceBook};
use crate::relay::ClientId;

/// `ServerMessage` variant indexes (pinned by the protocol's golden bytes; checked below).
const JOINED: u8 = 2;
const MATCH_START: u8 = 4;
const MATCH_LOG: u8 = 5;
const MATCH_OVER: u8 = 9;
const MATCH_VOID: u8 = 23;
const BATTLE_JOINED: u8 = 34;
const BATTLE_START: u8 = 36;
const BATTLE_LOG: u8 = 37;
const BATTLE_OVER: u8 = 40;

/// What a frame starting with `first` says of the match, if anything.
fn event_of(first: u8) -> Option<MatchEvent> {
    match first {
        JOINED | BATTLE_JOINED => Some(MatchEvent::Entered),
        MATCH_START | MATCH_LOG => Some(MatchEvent::Versus),
        BATTLE_START | BATTLE_LOG => Some(MatchEvent::Battle),
        MATCH_OVER | MATCH_VOID | BATTLE_OVER => Some(MatchEvent::Over),
        _ => None,
    }
}

/// A connection's sink that tells the presence book when its match starts and ends.
pub(crate) struct Watched<S> {
    inner: S,
    client: ClientId,
    book: Arc<PresenceBook>,
}

impl<S> Watched<S> {
    /// `inner`, watched for connection `client`.
    pub(crate) fn new(inner: S, client: ClientId, book: Arc<PresenceBook>) -> Watched<S> {
        Watched {
            inner,
            client,
            book,
        }
    }

    /// The sink itself again.
    pub(crate) fn into_inner(self) -> S {
        self.inner
    }
}

impl<S: Sink<Message> + Unpin> Sink<Message> for Watched<S> {
    type Error = S::Error;

    fn poll_ready(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        Pin::new(&mut self.inner).poll_ready(cx)
    }

    fn start_send(mut self: Pin<&mut Self>, item: Message) -> Result<(), S::Error> {
        if let Message::Binary(bytes) = &item
            && let Some(event) = bytes.first().copied().and_then(event_of)
        {
            self.book.match_event(self.client, event);
        }
        Pin::new(&mut self.inner).start_send(item)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_close(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        Pin::new(&mut self.inner).poll_close(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sevenbag_core::{MatchHeader, Seat};
    use sevenbag_protocol::{EndReason, RoomOptions, ServerMessage, encode};

    fn first(m: &ServerMessage) -> u8 {
        encode(m).expect("encodes")[0]
    }

    #[test]
    fn the_indexes_are_those_of_the_messages() {
        let joined = ServerMessage::Joined {
            code: "ACDEF".into(),
            seat: None,
            resume: 1,
            options: RoomOptions::default(),
        };
        assert_eq!(first(&joined), JOINED);
        let start = ServerMessage::MatchStart {
            header: MatchHeader::versus(1),
            names: ["a".into(), "b".into()],
            start_in_ms: 0,
        };
        assert_eq!(first(&start), MATCH_START);
        let over = ServerMessage::MatchOver {
            winner: Seat::First,
            reason: EndReason::TopOut,
            replay: None,
        };
        assert_eq!(first(&over), MATCH_OVER);
        let void = ServerMessage::MatchVoid {
            reason: EndReason::Abandoned,
            replay: None,
        };
        assert_eq!(first(&void), MATCH_VOID);
        let battle_over = ServerMessage::BattleOver {
            winner: None,
            reason: EndReason::TopOut,
            placements: vec![],
            replay: None,
        };
        assert_eq!(first(&battle_over), BATTLE_OVER);
        // The rest sit beside these in the enum's order.
        assert_eq!(MATCH_LOG, MATCH_START + 1);
        assert_eq!(
            (BATTLE_START, BATTLE_LOG),
            (BATTLE_JOINED + 2, BATTLE_JOINED + 3)
        );
        assert_eq!(BATTLE_OVER, BATTLE_JOINED + 6);
    }
}
