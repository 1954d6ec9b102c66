//! An identified player's social requests, each answered with the reply the connection
//! sends or the refusal. The connection task (`crate::client`) checks identity, rate limits
//! and mutes first and only dispatches; every field is checked here as hostile input.

use std::sync::Arc;

use serde_json::json;
use sevenbag_protocol::social::{
    FriendEntry, MAX_FRIENDS_PER_PAGE, MAX_PENDING_PER_LIST, PendingEntry, RequestAnswer,
    RequestPolicy, RequestResult, clean_direct_message,
};
use sevenbag_protocol::{ClientMessage, ErrorCode, ServerMessage};
use sevenbag_storage::{
    self as storage, FriendState, NotificationKind, Page, PlayerId, RequestOutcome,
};

use super::idle;
use super::notify::{self, push};
use super::presence::PresenceBook;
use super::store::{self, db, named, run};
use crate::db::unix_now;
use crate::refusal::Refusal;
use crate::relay::{ClientId, Outbox};
use crate::services::Services;

/// The identified player making a request.
#[derive(Clone, Debug)]
pub(crate) struct Me {
    /// Their identity.
    pub(crate) id: PlayerId,
    /// Their name, as others see it.
    pub(crate) name: String,
}

fn not_yourself() -> Refusal {
    (
        ErrorCode::BadMessage,
        "that is yourself: name another player".to_string(),
    )
}

fn wire_result(outcome: RequestOutcome) -> RequestResult {
    match outcome {
        RequestOutcome::Sent => RequestResult::Sent,
        RequestOutcome::BecameFriends => RequestResult::BecameFriends,
        RequestOutcome::AlreadyFriends => RequestResult::AlreadyFriends,
        RequestOutcome::AlreadySent => RequestResult::AlreadySent,
    }
}

fn wire_policy(policy: storage::RequestPolicy) -> RequestPolicy {
    match policy {
        storage::RequestPolicy::Anyone => RequestPolicy::Anyone,
        storage::RequestPolicy::PlayedWith => RequestPolicy::PlayedWith,
        storage::RequestPolicy::Nobody => RequestPolicy::Nobody,
    }
}

fn stored_policy(policy: RequestPolicy) -> storage::RequestPolicy {
    match policy {
        RequestPolicy::Anyone => storage::RequestPolicy::Anyone,
        RequestPolicy::PlayedWith => storage::RequestPolicy::PlayedWith,
        RequestPolicy::Nobody => storage::RequestPolicy::Nobody,
    }
}

/// Answers `request`, one of the social `ClientMessage`s, for `me` on `outbox`. `room` is the
/// code of the room the connection is in, if any (an invite names it). The reply goes first,
/// then what others hear of it: the other player's notification, then both friends'
/// presence.
pub(crate) async fn handle(
    services: &Services,
    book: &PresenceBook,
    me: Me,
    room: Option<String>,
    outbox: &Outbox,
    request: ClientMessage,
) -> Result<(), Refusal> {
    let reply = answer(services, book, me, room, outbox, request).await?;
    if let Some(reply) = reply {
        outbox.send(&reply);
    }
    Ok(())
}

/// The reply to `request`, or `None` when it was sent already (before what others hear).
async fn answer(
    services: &Services,
    book: &PresenceBook,
    me: Me,
    room: Option<String>,
    outbox: &Outbox,
    request: ClientMessage,
) -> Result<Option<ServerMessage>, Refusal> {
    let db = db(services)?;
    let now = unix_now();
    let id = me.id;
    match request {
        ClientMessage::SendFriendRequest { name } => {
            let (to, to_name) = named(db, &name).await?;
            if to == id {
                return Err(not_yourself());
            }
            let outcome = run(db, true, move |s| s.send_friend_request(id, to, now)).await?;
            outbox.send(&ServerMessage::FriendRequestSent {
                name: to_name,
                result: wire_result(outcome),
            });
            let content = json!({ "from": me.name });
            match outcome {
                RequestOutcome::Sent => {
                    let kind = NotificationKind::FriendRequest;
                    push(db, book, to, kind, &me.name, content).await?;
                }
                RequestOutcome::BecameFriends => {
                    let kind = NotificationKind::FriendAccepted;
                    push(db, book, to, kind, &me.name, content).await?;
                    book.befriended(id, to);
                }
                RequestOutcome::AlreadyFriends | RequestOutcome::AlreadySent => {}
            }
            Ok(None)
        }
        ClientMessage::AnswerFriendRequest { name, answer } => {
            let (from, from_name) = named(db, &name).await?;
            if from == id {
                return Err(not_yourself());
            }
            match answer {
                RequestAnswer::Accept => {
                    run(db, true, move |s| s.accept_friend_request(id, from, now)).await?;
                }
                RequestAnswer::Decline => {
                    run(db, true, move |s| s.decline_friend_request(id, from)).await?;
                }
            }
            outbox.send(&ServerMessage::FriendRequestAnswered {
                name: from_name,
                answer,
            });
            if answer == RequestAnswer::Accept {
                let content = json!({ "from": me.name });
                let kind = NotificationKind::FriendAccepted;
                push(db, book, from, kind, &me.name, content).await?;
                book.befriended(id, from);
            }
            Ok(None)
        }
        ClientMessage::CancelFriendRequest { name } => {
            let (to, to_name) = named(db, &name).await?;
            run(db, true, move |s| s.cancel_friend_request(id, to)).await?;
            Ok(Some(ServerMessage::FriendRequestCancelled {
                name: to_name,
            }))
        }
        ClientMessage::RemoveFriend { name } => {
            let (other, other_name) = named(db, &name).await?;
            run(db, true, move |s| s.remove_friend(id, other)).await?;
            book.unfriended(id, other);
            Ok(Some(ServerMessage::FriendRemoved { name: other_name }))
        }
        ClientMessage::GetFriends { offset, limit } => {
            let limit = u32::from(limit);
            if !(1..=MAX_FRIENDS_PER_PAGE as u32).contains(&limit) {
                return Err((
                    ErrorCode::BadMessage,
                    format!("a page holds 1 to {MAX_FRIENDS_PER_PAGE} friends"),
                ));
            }
            let page = run(db, false, move |s| s.friends(id, Page { offset, limit })).await?;
            let friends = page
                .items
                .into_iter()
                .map(|f| FriendEntry {
                    presence: book.state_of(f.player),
                    name: f.name,
                    since_unix: f.since_unix,
                })
                .collect();
            Ok(Some(ServerMessage::Friends {
                offset,
                total: u32::try_from(page.total).unwrap_or(u32::MAX),
                friends,
            }))
        }
        ClientMessage::GetFriendRequests => {
            let pending = run(db, false, move |s| s.pending_requests(id)).await?;
            let rows = |list: Vec<storage::PendingRequest>| {
                list.into_iter()
                    .take(MAX_PENDING_PER_LIST)
                    .map(|r| PendingEntry {
                        name: r.name,
                        sent_unix: r.sent_unix,
                    })
                    .collect()
            };
            Ok(Some(ServerMessage::FriendRequests {
                incoming: rows(pending.incoming),
                outgoing: rows(pending.outgoing),
            }))
        }
        ClientMessage::SetRequestPolicy { policy } => {
            let stored = stored_policy(policy);
            run(db, true, move |s| s.set_request_policy(id, stored)).await?;
            Ok(Some(ServerMessage::RequestPolicySet { policy }))
        }
        ClientMessage::GetRequestPolicy => {
            let stored = run(db, false, move |s| s.request_policy(id)).await?;
            Ok(Some(ServerMessage::RequestPolicySet {
                policy: wire_policy(stored),
            }))
        }
        ClientMessage::AppearOffline { on } => {
            // Kept with the player, so it holds on their next connection too.
            run(db, true, move |s| s.set_appear_offline(id, on)).await?;
            book.hide(id, on);
            Ok(Some(ServerMessage::AppearingOffline { on }))
        }
        ClientMessage::GetNotifications => Ok(Some(ServerMessage::Notifications {
            list: notify::unseen(db, id).await?,
        })),
        ClientMessage::MarkNotificationsSeen { ids } => {
            let marked = notify::mark_seen(services, id, ids).await?;
            Ok(Some(ServerMessage::NotificationsSeen { marked }))
        }
        ClientMessage::MarkNotificationsShown { ids } => {
            let marked = notify::mark_shown(services, id, ids).await?;
            Ok(Some(ServerMessage::NotificationsSeen { marked }))
        }
        ClientMessage::DirectMessage { to, text } => {
            let text = clean_direct_message(&text).ok_or((
                ErrorCode::BadMessage,
                format!(
                    "a direct message is 1 to {} visible characters",
                    sevenbag_protocol::social::MAX_DIRECT_MESSAGE_CHARS
                ),
            ))?;
            let (friend, friend_name) = named(db, &to).await?;
            if friend == id {
                return Err(not_yourself());
            }
            let stored = text.clone();
            let message = run(db, true, move |s| {
                s.store_direct_message(id, friend, &stored, now)
            })
            .await?;
            outbox.send(&ServerMessage::DirectMessageSent { to: friend_name });
            let content = json!({ "from": me.name, "text": text, "message": message.0 });
            let kind = NotificationKind::DirectMessage;
            push(db, book, friend, kind, &me.name, content).await?;
            Ok(None)
        }
        ClientMessage::InviteFriend { name, code } => {
            let Some(code) = room.filter(|r| r.eq_ignore_ascii_case(code.trim())) else {
                return Err((
                    ErrorCode::NotInRoom,
                    "you can only invite into the room you are in".to_string(),
                ));
            };
            let (friend, friend_name) = named(db, &name).await?;
            if friend == id {
                return Err(not_yourself());
            }
            // Both sides: a block either way reads as a player that does not exist, as a
            // direct message's does.
            let states = run(db, false, move |s| {
                Ok((s.friendship(id, friend)?, s.friendship(friend, id)?))
            })
            .await?;
            match states {
                (FriendState::Blocked, _) | (_, FriendState::Blocked) => {
                    return Err(store::refused(sevenbag_storage::SocialError::NoSuchPlayer));
                }
                (FriendState::Friends, _) => {}
                _ => return Err((ErrorCode::NotFriends, "you are not friends".to_string())),
            }
            outbox.send(&ServerMessage::Invited {
                name: friend_name,
                code: code.clone(),
            });
            let content = json!({ "from": me.name, "code": code });
            let kind = NotificationKind::Invite;
            push(db, book, friend, kind, &me.name, content).await?;
            Ok(None)
        }
        _ => Err((ErrorCode::BadMessage, "not a social request".to_string())),
    }
}

/// After `Identify` (or `Register`, `Recover`, `Rename`): `me`'s connection `client` joins
/// the presence book with its friends, and, when the identity is `fresh` on it (not a
/// rename), hears its unseen notifications not yet shown, less invites to rooms for which
/// `open` says no (closed). The first identified connection starts the idle watch
/// (`super::idle`).
pub(crate) async fn on_identified(
    services: &Services,
    book: &Arc<PresenceBook>,
    client: ClientId,
    outbox: &Outbox,
    me: Me,
    fresh: bool,
    open: &(dyn Fn(&str) -> bool + Sync),
) {
    let Some(db) = &services.db else { return };
    let id = me.id;
    let mut friends = Vec::new();
    let mut page = Some(Page::first(storage::social::MAX_PAGE));
    while let Some(p) = page {
        match run(db, false, move |s| s.friends(id, p)).await {
            Ok(read) => {
                friends.extend(read.items.iter().map(|f| f.player));
                page = read.next;
            }
            Err((_, why)) => {
                tracing::warn!(player = id.0, %why, "cannot read a player's friends");
                break;
            }
        }
    }
    // Read before joining the book, so a player who appears offline is never shown online.
    let hidden = match run(db, false, move |s| s.appear_offline(id)).await {
        Ok(hidden) => hidden,
        Err((_, why)) => {
            tracing::warn!(player = id.0, %why, "cannot read whether a player appears offline");
            false
        }
    };
    book.identified_hidden(client, id, &me.name, outbox.clone(), friends, hidden);
    if hidden && fresh {
        outbox.send(&ServerMessage::AppearingOffline { on: true });
    }
    if book.first_idle_watch() {
        idle::watch(book, services.config.away_after, services.shutdown.clone());
    }
    if !fresh {
        return;
    }
    match notify::untold(db, id, open).await {
        Ok(list) => {
            for notification in list {
                outbox.send(&ServerMessage::Notification { notification });
            }
        }
        Err((_, why)) => tracing::warn!(player = id.0, %why, "cannot read notifications"),
    }
}

/// After `me` blocked `name`: their presence is neither shown nor heard here any more.
pub(crate) async fn blocked(services: &Services, book: &PresenceBook, me: PlayerId, name: &str) {
    let Ok(db) = db(services) else { return };
    if let Ok((other, _)) = named(db, name).await {
        book.unfriended(me, other);
    }
}
