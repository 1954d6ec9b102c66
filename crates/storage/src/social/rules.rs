//! The decisions of the social calls, made once for both backends: each backend reads and
//! writes a pair's rows through [`Pairs`] inside the call's transaction, and these functions
//! say what to read, what to refuse and what to write.

use super::SocialError;
use super::types::{
    FriendState, MAX_CONTENT_BYTES, MAX_DIRECT_MESSAGE_CHARS, MAX_SUBJECT_CHARS, RequestOutcome,
    RequestPolicy, UnknownCode,
};
use crate::PlayerId;

/// A pair as one side's `friendships` row holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Link {
    /// Friends (stored code 0).
    Friends,
    /// This side sent a request (code 1).
    Sent,
    /// This side received a request (code 2).
    Received,
}

impl Link {
    /// Its stored code.
    pub(crate) const fn code(self) -> i64 {
        match self {
            Link::Friends => 0,
            Link::Sent => 1,
            Link::Received => 2,
        }
    }

    /// The link a stored code names.
    pub(crate) fn from_code(code: i64) -> Result<Link, UnknownCode> {
        match code {
            0 => Ok(Link::Friends),
            1 => Ok(Link::Sent),
            2 => Ok(Link::Received),
            _ => Err(UnknownCode {
                what: "friendship state",
                code,
            }),
        }
    }

    /// The same link as the other side's row holds it.
    pub(crate) const fn mirror(self) -> Link {
        match self {
            Link::Friends => Link::Friends,
            Link::Sent => Link::Received,
            Link::Received => Link::Sent,
        }
    }
}

/// The reads and writes of a pair's rows, on one backend's transaction (or reading
/// connection).
pub(crate) trait Pairs {
    /// `player`'s request policy; `None` when no player has that id.
    fn policy(&mut self, player: PlayerId) -> Result<Option<RequestPolicy>, SocialError>;
    /// Whether `blocker` blocks `blocked`.
    fn blocks(&mut self, blocker: PlayerId, blocked: PlayerId) -> Result<bool, SocialError>;
    /// The link `a`'s row holds for `b`.
    fn link(&mut self, a: PlayerId, b: PlayerId) -> Result<Option<Link>, SocialError>;
    /// Whether `a` and `b` sat in one stored match (a two-seat match or a battle).
    fn played_together(&mut self, a: PlayerId, b: PlayerId) -> Result<bool, SocialError>;
    /// Writes both rows of the pair, `link` on `a`'s and its mirror on `b`'s, dated
    /// `since_unix`.
    fn set_link(
        &mut self,
        a: PlayerId,
        b: PlayerId,
        link: Link,
        since_unix: u64,
    ) -> Result<(), SocialError>;
    /// Deletes both rows of the pair.
    fn unlink(&mut self, a: PlayerId, b: PlayerId) -> Result<(), SocialError>;
}

/// `b`'s request policy, once `a` may reach `b`: two players, both existing, neither
/// blocking the other. A missing player and a block are refused alike.
fn reach(p: &mut impl Pairs, a: PlayerId, b: PlayerId) -> Result<RequestPolicy, SocialError> {
    if a == b {
        return Err(SocialError::ToSelf);
    }
    let (Some(_), Some(policy)) = (p.policy(a)?, p.policy(b)?) else {
        return Err(SocialError::NoSuchPlayer);
    };
    if p.blocks(a, b)? || p.blocks(b, a)? {
        return Err(SocialError::NoSuchPlayer);
    }
    Ok(policy)
}

/// The link `a` may see for `b`: `None` when `b` is out of reach (missing, blocked, `a`).
fn visible(p: &mut impl Pairs, a: PlayerId, b: PlayerId) -> Result<Option<Link>, SocialError> {
    match reach(p, a, b) {
        Ok(_) => p.link(a, b),
        Err(SocialError::ToSelf | SocialError::NoSuchPlayer) => Ok(None),
        Err(e) => Err(e),
    }
}

/// `from` asks `to` to be friends (see [`super::SocialStorage::send_friend_request`]).
pub(crate) fn send_request(
    p: &mut impl Pairs,
    from: PlayerId,
    to: PlayerId,
    now_unix: u64,
) -> Result<RequestOutcome, SocialError> {
    let policy = reach(p, from, to)?;
    match p.link(from, to)? {
        Some(Link::Friends) => Ok(RequestOutcome::AlreadyFriends),
        Some(Link::Sent) => Ok(RequestOutcome::AlreadySent),
        Some(Link::Received) => {
            p.set_link(from, to, Link::Friends, now_unix)?;
            Ok(RequestOutcome::BecameFriends)
        }
        None => {
            match policy {
                RequestPolicy::Anyone => {}
                RequestPolicy::PlayedWith => {
                    if !p.played_together(from, to)? {
                        return Err(SocialError::NotPlayedWith);
                    }
                }
                RequestPolicy::Nobody => return Err(SocialError::RequestsClosed),
            }
            p.set_link(from, to, Link::Sent, now_unix)?;
            Ok(RequestOutcome::Sent)
        }
    }
}

/// How a player settles a link they have with another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Settle {
    /// Accept a received request, friends from this time on.
    Accept(u64),
    /// Decline a received request.
    Decline,
    /// Take back a sent request.
    Cancel,
    /// End a friendship.
    Remove,
}

/// `me` settles their link with `other` as `how` says, or is refused when there is no such
/// link (a blocked pair has none).
pub(crate) fn settle(
    p: &mut impl Pairs,
    me: PlayerId,
    other: PlayerId,
    how: Settle,
) -> Result<(), SocialError> {
    let (wanted, missing) = match how {
        Settle::Accept(_) | Settle::Decline => (Link::Received, SocialError::NoSuchRequest),
        Settle::Cancel => (Link::Sent, SocialError::NoSuchRequest),
        Settle::Remove => (Link::Friends, SocialError::NotFriends),
    };
    if visible(p, me, other)? != Some(wanted) {
        return Err(missing);
    }
    match how {
        Settle::Accept(now_unix) => p.set_link(me, other, Link::Friends, now_unix),
        Settle::Decline | Settle::Cancel | Settle::Remove => p.unlink(me, other),
    }
}

/// Refuses a direct message unless `from` and `to` are friends and neither blocks the other.
pub(crate) fn may_message(
    p: &mut impl Pairs,
    from: PlayerId,
    to: PlayerId,
) -> Result<(), SocialError> {
    reach(p, from, to)?;
    match p.link(from, to)? {
        Some(Link::Friends) => Ok(()),
        _ => Err(SocialError::NotFriends),
    }
}

/// What `b` is to `a`, as `a` sees it (see [`super::SocialStorage::friendship`]).
pub(crate) fn friendship(
    p: &mut impl Pairs,
    a: PlayerId,
    b: PlayerId,
) -> Result<FriendState, SocialError> {
    if a == b {
        return Ok(FriendState::None);
    }
    if p.blocks(a, b)? {
        return Ok(FriendState::Blocked);
    }
    if p.blocks(b, a)? {
        return Ok(FriendState::None);
    }
    Ok(match p.link(a, b)? {
        None => FriendState::None,
        Some(Link::Friends) => FriendState::Friends,
        Some(Link::Sent) => FriendState::RequestSent,
        Some(Link::Received) => FriendState::RequestReceived,
    })
}

/// Refuses a notification's subject or content over its limit.
pub(crate) fn check_notification(subject: &str, content: &str) -> Result<(), SocialError> {
    if subject.chars().count() > MAX_SUBJECT_CHARS {
        return Err(SocialError::TooLong {
            what: "subject",
            max: MAX_SUBJECT_CHARS,
            unit: "characters",
        });
    }
    if content.len() > MAX_CONTENT_BYTES {
        return Err(SocialError::TooLong {
            what: "content",
            max: MAX_CONTENT_BYTES,
            unit: "bytes",
        });
    }
    Ok(())
}

/// Refuses an empty direct message, or one over its limit.
pub(crate) fn check_message(text: &str) -> Result<(), SocialError> {
    if text.is_empty() {
        return Err(SocialError::Empty("message"));
    }
    if text.chars().count() > MAX_DIRECT_MESSAGE_CHARS {
        return Err(SocialError::TooLong {
            what: "message",
            max: MAX_DIRECT_MESSAGE_CHARS,
            unit: "characters",
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::types::{MAX_PAGE, NotificationKind, Page};
    use super::*;

    #[test]
    fn every_link_reads_back_from_its_code_and_mirrors_twice_to_itself() {
        for link in [Link::Friends, Link::Sent, Link::Received] {
            assert_eq!(Link::from_code(link.code()), Ok(link));
            assert_eq!(link.mirror().mirror(), link);
        }
        assert!(Link::from_code(3).is_err());
    }

    #[test]
    fn every_notification_kind_and_policy_reads_back_from_its_code() {
        for kind in NotificationKind::ALL {
            assert_eq!(NotificationKind::from_code(kind.code()), Ok(kind));
        }
        for policy in [
            RequestPolicy::Anyone,
            RequestPolicy::PlayedWith,
            RequestPolicy::Nobody,
        ] {
            assert_eq!(RequestPolicy::from_code(policy.code()), Ok(policy));
        }
        let unknown = NotificationKind::from_code(99).unwrap_err();
        assert_eq!(unknown.to_string(), "unknown notification kind code 99");
    }

    #[test]
    fn a_page_is_at_most_a_thousand_rows_and_knows_the_next_one() {
        assert_eq!(Page::first(5000).size(), MAX_PAGE);
        let page = Page::first(500);
        assert_eq!(
            page.next(1200),
            Some(Page {
                offset: 500,
                limit: 500
            })
        );
        assert_eq!(
            Page {
                offset: 1000,
                limit: 500
            }
            .next(1200),
            None
        );
        assert_eq!(Page::first(0).next(10), None, "an empty page leads nowhere");
    }

    #[test]
    fn a_subject_is_counted_in_characters_and_content_in_bytes() {
        let subject = "é".repeat(MAX_SUBJECT_CHARS);
        assert!(check_notification(&subject, "{}").is_ok());
        let err = check_notification(&format!("{subject}é"), "{}").unwrap_err();
        assert!(matches!(
            err,
            SocialError::TooLong {
                what: "subject",
                ..
            }
        ));
        let content = "é".repeat(MAX_CONTENT_BYTES / 2 + 1);
        let err = check_notification("hi", &content).unwrap_err();
        assert_eq!(err.to_string(), "the content is longer than 4096 bytes");
    }

    #[test]
    fn a_message_is_one_to_two_hundred_characters() {
        assert!(matches!(check_message(""), Err(SocialError::Empty(_))));
        assert!(check_message(&"x".repeat(MAX_DIRECT_MESSAGE_CHARS)).is_ok());
        assert!(matches!(
            check_message(&"x".repeat(MAX_DIRECT_MESSAGE_CHARS + 1)),
            Err(SocialError::TooLong { .. })
        ));
    }
}
