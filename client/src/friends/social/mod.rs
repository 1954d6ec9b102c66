//! The connection behind the Friends screen: identifies with the player key, asks for the
//! friend list (page by page, as far as the player scrolls), the pending requests and the
//! unseen notifications, stays open while the screen does, and takes the server's `Presence`
//! and `Notification` pushes as they come. The screen's actions (send, answer, cancel, remove,
//! mark seen, write a message, who may ask, appear offline) go out on the same connection.

use sevenbag_protocol::moderation::{MAX_REPORT_CHARS, ReportCategory};
use sevenbag_protocol::social::{
    FriendEntry, MAX_FRIENDS_PER_PAGE, Notification, NotificationKind, PendingEntry, RequestAnswer,
    RequestPolicy, RequestResult,
};
use sevenbag_protocol::{ClientMessage, ErrorCode, ServerMessage};

use crate::net::online::error_text;
use crate::net::online::who::sent_text;
use crate::net::request::{Arrival, Exchange, Standing};

/// How close to the last friend loaded the cursor may come before the next page is asked for.
pub const PAGE_AHEAD: usize = 20;

/// Where the connection stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Connecting, saying hello, identifying.
    Connecting,
    /// Identified: the lists show and pushes arrive.
    Ready,
    /// The connection failed or the server refused, with a sentence for the screen.
    Failed(String),
}

impl Standing for Status {
    fn failed(why: String) -> Status {
        Status::Failed(why)
    }

    fn waiting(&self) -> bool {
        !matches!(self, Status::Failed(_))
    }
}

/// The friend list as far as it is loaded: the first `entries.len()` of `total`, in name order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FriendList {
    /// The friends loaded so far (pages from offset 0 on).
    pub entries: Vec<FriendEntry>,
    /// How many friends the server says there are.
    pub total: usize,
    /// The offset of the page asked for and not yet arrived.
    pub asking: Option<usize>,
}

impl FriendList {
    /// Takes a page that arrived: the first page starts the list again; a later one is added
    /// when it continues what is loaded, and dropped otherwise (a page of a list since
    /// restarted).
    pub fn take_page(&mut self, offset: usize, total: usize, friends: Vec<FriendEntry>) {
        if self.asking == Some(offset) {
            self.asking = None;
        }
        if offset == 0 {
            self.entries = friends;
        } else if offset == self.entries.len() {
            self.entries.extend(friends);
        } else {
            return;
        }
        self.total = total.max(self.entries.len());
    }

    /// The offset of the next page to ask for when the cursor is on friend `at`: only when it
    /// is within [`PAGE_AHEAD`] of the end of what is loaded, more remain, and no page is on
    /// its way.
    pub fn next_page(&self, at: usize) -> Option<usize> {
        let loaded = self.entries.len();
        (self.asking.is_none() && loaded < self.total && at + PAGE_AHEAD >= loaded)
            .then_some(loaded)
    }

    /// A friend's new presence (a push); a friend not loaded yet gets theirs with the page.
    pub fn set_presence(&mut self, name: &str, state: sevenbag_protocol::social::PresenceState) {
        if let Some(f) = self.entries.iter_mut().find(|f| f.name == name) {
            f.presence = state;
        }
    }

    /// Forgets `name` (removed).
    pub fn remove(&mut self, name: &str) {
        let before = self.entries.len();
        self.entries.retain(|f| f.name != name);
        if self.entries.len() < before {
            self.total = self.total.saturating_sub(1);
        }
    }
}

/// Your own settings as far as this connection knows them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct You {
    /// Whom you take friend requests from: `None` until set on this screen (the server
    /// answers the policy only when it is set).
    pub policy: Option<RequestPolicy>,
    /// Whether friends see you offline (a new connection starts seen).
    pub hidden: bool,
}

/// The friends connection.
pub struct Social {
    exchange: Exchange<Status>,
    key: [u8; 32],
    /// Your name on the server, once identified.
    me: Option<String>,
    friends: FriendList,
    incoming: Vec<PendingEntry>,
    outgoing: Vec<PendingEntry>,
    /// The notifications that arrived unseen while the screen is open, oldest first.
    notifications: Vec<Notification>,
    /// Ids of notifications shown and not yet marked seen.
    unmarked: Vec<u64>,
    notices: Vec<(String, bool)>,
    you: You,
    /// Friends whose direct message the server took, since the last call.
    delivered: Vec<String>,
    /// Notifications pushed live (not the unseen ones listed on identifying), since the
    /// last call.
    arrived: Vec<Notification>,
}

impl Social {
    /// Connects to `address` as `name` and identifies with `key`.
    pub fn connect(address: &str, name: &str, key: [u8; 32]) -> Social {
        Social::over(Exchange::connect(address, name, Status::Connecting), key)
    }

    fn over(exchange: Exchange<Status>, key: [u8; 32]) -> Social {
        Social {
            exchange,
            key,
            me: None,
            friends: FriendList::default(),
            incoming: Vec::new(),
            outgoing: Vec::new(),
            notifications: Vec::new(),
            unmarked: Vec::new(),
            notices: Vec::new(),
            you: You::default(),
            delivered: Vec::new(),
            arrived: Vec::new(),
        }
    }

    /// No connection: settled at `why` (no identity on this machine).
    pub fn refused(why: String) -> Social {
        Social::over(Exchange::settled(Status::Failed(why)), [0; 32])
    }

    /// Handles what arrived.
    pub fn poll(&mut self) {
        while let Some(arrival) = self.exchange.next() {
            match arrival {
                Arrival::Welcome => self
                    .exchange
                    .send(ClientMessage::Identify { key: self.key }),
                Arrival::Message(m) => self.on_message(m),
                Arrival::Gone(_) => {}
            }
        }
    }

    /// Handles one server message (the tests hand them in directly).
    pub fn on_message(&mut self, m: ServerMessage) {
        match m {
            ServerMessage::Identified { profile } => {
                self.me = Some(profile.name);
                self.exchange.set(Status::Ready);
                self.ask_friends(0);
                self.exchange.send(ClientMessage::GetFriendRequests);
                self.exchange.send(ClientMessage::GetRequestPolicy);
                self.exchange.send(ClientMessage::GetNotifications);
            }
            ServerMessage::Friends {
                offset,
                total,
                friends,
            } => self
                .friends
                .take_page(offset as usize, total as usize, friends),
            ServerMessage::FriendRequests { incoming, outgoing } => {
                self.incoming = incoming;
                self.outgoing = outgoing;
            }
            ServerMessage::Presence { name, state } => self.friends.set_presence(&name, state),
            ServerMessage::Notification { notification } => {
                if !self.notifications.iter().any(|n| n.id == notification.id) {
                    self.arrived.push(notification.clone());
                }
                self.take_notification(notification);
            }
            ServerMessage::Notifications { list } => {
                for n in list {
                    self.take_notification(n);
                }
            }
            ServerMessage::FriendRequestSent { name, result } => {
                let (text, good) = sent_text(&name, result);
                self.notices.push((text, good));
                self.exchange.send(ClientMessage::GetFriendRequests);
                if result == RequestResult::BecameFriends {
                    self.ask_friends(0);
                }
            }
            ServerMessage::FriendRequestAnswered { name, answer } => {
                self.incoming.retain(|p| p.name != name);
                if answer == RequestAnswer::Accept {
                    self.notices
                        .push((format!("You and {name} are friends now."), true));
                    self.ask_friends(0);
                }
            }
            ServerMessage::FriendRequestCancelled { name } => {
                self.outgoing.retain(|p| p.name != name);
            }
            ServerMessage::FriendRemoved { name } => {
                self.friends.remove(&name);
                self.notices
                    .push((format!("{name} is no longer your friend."), true));
            }
            // The first answer is to the screen's own question on opening: shown on the row,
            // not told as news.
            ServerMessage::RequestPolicySet { policy } if self.you.policy.is_none() => {
                self.you.policy = Some(policy);
            }
            ServerMessage::RequestPolicySet { policy } => {
                self.you.policy = Some(policy);
                self.notices.push((policy_text(policy).to_owned(), true));
            }
            ServerMessage::AppearingOffline { on } => {
                self.you.hidden = on;
                let text = if on {
                    "Friends see you offline now."
                } else {
                    "Friends see you again."
                };
                self.notices.push((text.to_owned(), true));
            }
            ServerMessage::Reported => self
                .notices
                .push((crate::net::online::who::REPORT_SENT.to_owned(), true)),
            ServerMessage::DirectMessageSent { to } => {
                self.notices.push((format!("Message sent to {to}."), true));
                self.delivered.push(to);
            }
            ServerMessage::Error { code, message, .. } => self.on_error(code, &message),
            _ => {}
        }
    }

    fn on_error(&mut self, code: ErrorCode, message: &str) {
        let failed = match code {
            ErrorCode::UnknownKey => Some(
                "This server does not know your identity: play a Ranked match on it first, or import your recovery code in Settings › Account.",
            ),
            ErrorCode::Unavailable => {
                Some("This server keeps no identities, so it has no friends lists.")
            }
            _ => None,
        };
        match failed {
            Some(why) => self.exchange.finish(Status::Failed(why.to_owned())),
            None => self.notices.push((refusal_text(code, message), false)),
        }
    }

    fn take_notification(&mut self, n: Notification) {
        if self.notifications.iter().any(|old| old.id == n.id) {
            return;
        }
        match n.kind {
            NotificationKind::FriendRequest => self.exchange.send(ClientMessage::GetFriendRequests),
            NotificationKind::FriendAccepted => {
                self.exchange.send(ClientMessage::GetFriendRequests);
                self.ask_friends(0);
            }
            _ => {}
        }
        self.unmarked.push(n.id);
        self.notifications.push(n);
    }

    fn ask_friends(&mut self, offset: usize) {
        self.friends.asking = Some(offset);
        self.exchange.send(ClientMessage::GetFriends {
            offset: offset as u32,
            limit: MAX_FRIENDS_PER_PAGE as u16,
        });
    }

    /// Asks for the next page when the cursor is on friend `at` near the end of what is loaded.
    pub fn scrolled_to(&mut self, at: usize) {
        if let Some(offset) = self.friends.next_page(at) {
            self.ask_friends(offset);
        }
    }

    /// The notifications pushed live since the last call (what a toast says).
    pub fn take_arrived(&mut self) -> Vec<Notification> {
        std::mem::take(&mut self.arrived)
    }

    /// Takes notification `id` off the list (a declined invite); it is still marked seen
    /// on the server with the others shown.
    pub fn dismiss(&mut self, id: u64) {
        self.notifications.retain(|n| n.id != id);
    }

    /// Marks every notification shown so far as seen on the server (they stay on screen).
    pub fn mark_shown(&mut self) {
        if self.unmarked.is_empty() || *self.status() != Status::Ready {
            return;
        }
        let ids = std::mem::take(&mut self.unmarked);
        for chunk in ids.chunks(sevenbag_protocol::social::MAX_NOTIFICATIONS_PER_MESSAGE) {
            self.exchange.send(ClientMessage::MarkNotificationsSeen {
                ids: chunk.to_vec(),
            });
        }
    }

    /// Marks notification `id` seen on the server now and takes it off the list (an invite
    /// answered from its toast).
    pub fn settle(&mut self, id: u64) {
        self.unmarked.retain(|i| *i != id);
        self.dismiss(id);
        let ids = vec![id];
        self.exchange
            .send(ClientMessage::MarkNotificationsSeen { ids });
    }

    /// Tells the server these notifications were shown as toasts: it does not push them
    /// again on the next connection (they stay unseen in the list).
    pub fn mark_toasted(&mut self, ids: &[u64]) {
        for chunk in ids.chunks(sevenbag_protocol::social::MAX_NOTIFICATIONS_PER_MESSAGE) {
            let ids = chunk.to_vec();
            self.exchange
                .send(ClientMessage::MarkNotificationsShown { ids });
        }
    }

    /// Asks `name` to be friends.
    pub fn send_request(&mut self, name: &str) {
        self.exchange.send(ClientMessage::SendFriendRequest {
            name: name.to_owned(),
        });
    }

    /// Answers `name`'s request.
    pub fn answer(&mut self, name: &str, answer: RequestAnswer) {
        self.exchange.send(ClientMessage::AnswerFriendRequest {
            name: name.to_owned(),
            answer,
        });
    }

    /// Takes back the request to `name`.
    pub fn cancel(&mut self, name: &str) {
        self.exchange.send(ClientMessage::CancelFriendRequest {
            name: name.to_owned(),
        });
    }

    /// Stops being friends with `name`.
    pub fn remove(&mut self, name: &str) {
        self.exchange.send(ClientMessage::RemoveFriend {
            name: name.to_owned(),
        });
    }

    /// Sends `text` to friend `to` (answered `DirectMessageSent`, then in
    /// [`Social::take_delivered`]).
    pub fn send_message(&mut self, to: &str, text: String) {
        self.exchange.send(ClientMessage::DirectMessage {
            to: to.to_owned(),
            text,
        });
    }

    /// Reports `name` to the server's operators as abuse in a direct message, `text` quoted
    /// (answered `Reported`, a notice).
    pub fn report_message(&mut self, name: &str, text: &str) {
        let quoted: String = format!("Direct message: \"{text}\"")
            .chars()
            .take(MAX_REPORT_CHARS)
            .collect();
        self.exchange.send(ClientMessage::Report {
            name: name.to_owned(),
            replay: None,
            category: ReportCategory::Abuse,
            text: quoted,
        });
    }

    /// Takes friend requests from `policy`'s players only.
    pub fn set_policy(&mut self, policy: RequestPolicy) {
        self.exchange
            .send(ClientMessage::SetRequestPolicy { policy });
    }

    /// Appears offline to friends (`on`) or is seen again.
    pub fn appear_offline(&mut self, on: bool) {
        self.exchange.send(ClientMessage::AppearOffline { on });
    }

    /// The friends whose message the server took since the last call.
    pub fn take_delivered(&mut self) -> Vec<String> {
        std::mem::take(&mut self.delivered)
    }

    /// Your settings as this connection knows them.
    pub fn you(&self) -> You {
        self.you
    }

    /// Sentences for the player since the last call, each with whether it is good news.
    pub fn take_notices(&mut self) -> Vec<(String, bool)> {
        std::mem::take(&mut self.notices)
    }

    /// Where the connection stands.
    pub fn status(&self) -> &Status {
        self.exchange.status()
    }

    /// Your name on the server, once identified.
    pub fn me(&self) -> Option<&str> {
        self.me.as_deref()
    }

    /// The friend list as loaded.
    pub fn friends(&self) -> &FriendList {
        &self.friends
    }

    /// Requests to you, newest first.
    pub fn incoming(&self) -> &[PendingEntry] {
        &self.incoming
    }

    /// Your requests waiting for an answer, newest first.
    pub fn outgoing(&self) -> &[PendingEntry] {
        &self.outgoing
    }

    /// The notifications that arrived while the screen is open, oldest first.
    pub fn notifications(&self) -> &[Notification] {
        &self.notifications
    }
}

/// What the server says a policy now is, as a sentence.
pub fn policy_text(policy: RequestPolicy) -> &'static str {
    match policy {
        RequestPolicy::Anyone => "Anyone may send you friend requests.",
        RequestPolicy::PlayedWith => "Only players you have played may send you friend requests.",
        RequestPolicy::Nobody => "Nobody may send you friend requests now.",
    }
}

/// A refusal of one of the screen's requests, as a sentence.
pub fn refusal_text(code: ErrorCode, message: &str) -> String {
    match code {
        ErrorCode::NoSuchPlayer => "No player has that name on this server.".to_owned(),
        ErrorCode::RequestsClosed => "That player takes no friend requests.".to_owned(),
        ErrorCode::NotFriends => "You are not friends with that player.".to_owned(),
        ErrorCode::NoSuchRequest => "That request is no longer waiting.".to_owned(),
        ErrorCode::RateLimited => "Too many requests at once: wait a moment.".to_owned(),
        ErrorCode::BadMessage => format!("The server refused that: {message}."),
        _ => error_text(code, message),
    }
}

#[cfg(test)]
mod tests;
