//! Room chat, the same in every room: a line goes to every member who does not block its
//! sender (a hidden line is counted), and a declared bot's line is marked `BotChat`.

use sevenbag_core::Seat;
use sevenbag_protocol::ServerMessage;

use crate::metrics::Metrics;
use crate::moderation::Tags;
use crate::relay::{self, Outbox};

/// One chat line: who says it (a seat's player, or a spectator) and what.
pub(super) struct Line {
    pub(super) from: String,
    pub(super) seat: Option<Seat>,
    pub(super) text: String,
}

/// Sends `line` from `sender` to each listener (its outbox and, when known, its moderation
/// facts) that hears the sender; encodes once.
pub(super) fn relay<'a>(
    metrics: &Metrics,
    sender: &Tags,
    line: Line,
    listeners: impl Iterator<Item = (&'a Outbox, Option<&'a Tags>)>,
) {
    let Line { from, seat, text } = line;
    let message = if sender.is_bot() {
        ServerMessage::BotChat { from, seat, text }
    } else {
        ServerMessage::Chat { from, seat, text }
    };
    let Some(bytes) = relay::encode(&message) else {
        return;
    };
    for (outbox, tags) in listeners {
        if tags.is_none_or(|t| t.hears(sender)) {
            outbox.send_bytes(bytes.clone());
        } else {
            metrics.moderation("chat_hidden");
        }
    }
}
