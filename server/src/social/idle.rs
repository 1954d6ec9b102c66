//! Away after idle: a connection that sends nothing of its own for the server's
//! `away_after` reads `Away` to its friends (where it would read `Online`), and `Online`
//! again with its next message. One task per server looks over the book a few times per
//! `away_after`; the connection reports each message it hands on ([`counts`] says which).

use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use sevenbag_protocol::ClientMessage;
use tokio::sync::watch;

use super::presence::PresenceBook;

/// Whether `message` shows the player at the game: everything but what the game sends by
/// itself, the clock probes, link reports and a match's inputs and hashes (a player in a
/// match reads in a match anyway).
pub(crate) fn counts(message: &ClientMessage) -> bool {
    !matches!(
        message,
        ClientMessage::Ping { .. }
            | ClientMessage::Pong { .. }
            | ClientMessage::Datagrams { .. }
            | ClientMessage::LinkReport { .. }
            | ClientMessage::Inputs { .. }
            | ClientMessage::InputsSince { .. }
            | ClientMessage::InputsFrom { .. }
            | ClientMessage::StateHash { .. }
            | ClientMessage::BattleInputs { .. }
            | ClientMessage::BattleInputsSince { .. }
            | ClientMessage::BattleInputsFrom { .. }
            | ClientMessage::BattleKeysSince { .. }
            | ClientMessage::BattleStateHash { .. }
            | ClientMessage::BattleHash { .. }
    )
}

/// How often the book is looked over: an eighth of `after`, between 10 ms and 10 s, so a
/// connection goes away at most that late.
pub(crate) fn period(after: Duration) -> Duration {
    (after / 8).clamp(Duration::from_millis(10), Duration::from_secs(10))
}

/// Looks over `book` every [`period`] until the server shuts down or the book is gone;
/// `after` zero: never.
pub(crate) fn watch(
    book: &Arc<PresenceBook>,
    after: Duration,
    mut shutdown: watch::Receiver<bool>,
) {
    if after.is_zero() {
        return;
    }
    let book: Weak<PresenceBook> = Arc::downgrade(book);
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(period(after));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = tick.tick() => {}
                _ = shutdown.wait_for(|down| *down) => return,
            }
            let Some(book) = book.upgrade() else { return };
            book.mark_idle(Instant::now(), after);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_probes_and_inputs_do_not_count_and_a_request_does() {
        assert!(!counts(&ClientMessage::Pong { nonce: 1 }));
        assert!(!counts(&ClientMessage::Ping { nonce: 1 }));
        assert!(counts(&ClientMessage::GetFriendRequests));
        assert!(counts(&ClientMessage::LeaveRoom));
    }

    #[test]
    fn the_book_is_looked_over_a_few_times_per_setting_within_bounds() {
        assert_eq!(period(Duration::from_secs(300)), Duration::from_secs(10));
        assert_eq!(period(Duration::from_secs(8)), Duration::from_secs(1));
        assert_eq!(period(Duration::from_millis(20)), Duration::from_millis(10));
    }
}
