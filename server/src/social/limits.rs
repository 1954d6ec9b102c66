//! Per-connection rate limits on what reaches other players: friend request changes,
//! invites and direct messages, each a [`TokenBucket`] as chat's. One over its bucket is
//! refused (`RateLimited`, the connection stays); a connection that keeps flooding after
//! [`STRIKES`] refusals in quick succession is cut.

use std::time::Instant;

use sevenbag_protocol::ErrorCode;

use crate::limits::TokenBucket;

/// Friend request changes (send, answer, cancel, remove) per second, sustained.
pub(crate) const REQUESTS_PER_SECOND: u32 = 1;
/// ... and in a burst.
pub(crate) const REQUEST_BURST: u32 = 5;
/// Invites per second, sustained.
pub(crate) const INVITES_PER_SECOND: u32 = 1;
/// ... and in a burst.
pub(crate) const INVITE_BURST: u32 = 5;
/// Direct messages per second, sustained (as chat lines).
pub(crate) const MESSAGES_PER_SECOND: u32 = 1;
/// ... and in a burst.
pub(crate) const MESSAGE_BURST: u32 = 5;
/// Refusals for flooding a connection may collect (one more back each second) before it is
/// cut.
pub(crate) const STRIKES: u32 = 20;

/// Which bucket a request takes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Sending, answering, cancelling a friend request; removing a friend.
    Request,
    /// An invite into a room.
    Invite,
    /// A direct message.
    Message,
}

/// What an over-limit request gets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Flood {
    /// Refused; the connection stays.
    Refused(String),
    /// Refused too often: cut the connection with this reason.
    Cut(String),
}

/// One connection's social buckets.
#[derive(Clone, Debug)]
pub(crate) struct Buckets {
    requests: TokenBucket,
    invites: TokenBucket,
    messages: TokenBucket,
    strikes: TokenBucket,
}

impl Buckets {
    /// Full buckets.
    pub(crate) fn new(now: Instant) -> Buckets {
        Buckets {
            requests: TokenBucket::new(REQUESTS_PER_SECOND, REQUEST_BURST, now),
            invites: TokenBucket::new(INVITES_PER_SECOND, INVITE_BURST, now),
            messages: TokenBucket::new(MESSAGES_PER_SECOND, MESSAGE_BURST, now),
            strikes: TokenBucket::new(1, STRIKES, now),
        }
    }

    /// Takes a token for a request of `kind`.
    pub(crate) fn take(&mut self, kind: Kind, now: Instant) -> Result<(), Flood> {
        let (bucket, what, rate, burst) = match kind {
            Kind::Request => (
                &mut self.requests,
                "friend requests",
                REQUESTS_PER_SECOND,
                REQUEST_BURST,
            ),
            Kind::Invite => (
                &mut self.invites,
                "invites",
                INVITES_PER_SECOND,
                INVITE_BURST,
            ),
            Kind::Message => (
                &mut self.messages,
                "direct messages",
                MESSAGES_PER_SECOND,
                MESSAGE_BURST,
            ),
        };
        if bucket.take(now) {
            return Ok(());
        }
        let text = format!("{what} are limited to {rate} per second (burst {burst}); dropped");
        if self.strikes.take(now) {
            Err(Flood::Refused(text))
        } else {
            Err(Flood::Cut(format!("{text}, and the flood went on")))
        }
    }
}

/// The error code of a refused flood.
pub(crate) const CODE: ErrorCode = ErrorCode::RateLimited;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_passes_a_flood_is_refused_and_a_long_flood_cut() {
        let t0 = Instant::now();
        let mut b = Buckets::new(t0);
        for _ in 0..REQUEST_BURST {
            assert_eq!(b.take(Kind::Request, t0), Ok(()));
        }
        // Invites have their own bucket.
        assert_eq!(b.take(Kind::Invite, t0), Ok(()));
        for _ in 0..STRIKES {
            assert!(matches!(b.take(Kind::Request, t0), Err(Flood::Refused(_))));
        }
        assert!(matches!(b.take(Kind::Request, t0), Err(Flood::Cut(_))));
    }
}
