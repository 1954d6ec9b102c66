//! One task per connection: the handshake, then every message the client sends, in order.
//!
//! The task owns the WebSocket's reading half; a writer task (`relay::write_loop`) owns the
//! sending half and drains the client's [`Outbox`]. The reader never writes to the socket
//! itself: replies go through the outbox like everything else, so ordering is simple (one
//! queue) and a slow reader is detected in one place.
//!
//! # How a connection ends
//! Whatever ends it — the client closing, a hostile frame, a timeout, a slow reader detected
//! by a room, a server shutdown — ends up as one [`Cut`] on the outbox. Then, in order:
//! 1. the task leaves its room (a seated player in a match gets the reconnect window) and the
//!    quick-match queue,
//! 2. the writer delivers the cut's `Error`/`Shutdown` message and a Close frame (bounded),
//! 3. the socket is closed lingering (`connection::linger`), and
//! 4. one log line says who, why and with which error code.
//!
//! # Files
//! - `session.rs`: the loop that reads the socket, with its timers and rate limit;
//! - `requests.rs`: every message after `Hello`, handed to the code that answers it;
//! - `account.rs`: `Hello` and the outcome of identity requests;
//! - `rooms.rs`: creating, joining, resuming and leaving rooms, the queues, chat;
//! - `friends.rs`: friends, presence and notifications handed to `crate::social`, and this
//!   connection's place reported to the presence book;
//! - `guards.rs`: the refusals those share (already in a room, banned, whom not to meet);
//! - `play.rs`: inputs and reports handed to the room, and the datagram path's ticket and route.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::stream::SplitStream;
use futures_util::{SinkExt, StreamExt};
use sevenbag_core::Handling;
use sevenbag_protocol::identity::{MAX_CHAT_CHARS, clean_chat, clean_display_name};
use sevenbag_protocol::{
    ClientMessage, ErrorCode, InputsUnpacker, JoinRole, PROTOCOL_VERSION, RoomOptions,
    ServerMessage,
};
use tokio::sync::{mpsc, oneshot, watch};
use tokio_tungstenite::tungstenite::Message;
use tracing::{debug, info};

use crate::connection::{self, Incoming, Ws};
use crate::datagram::{self, DatagramEvent, Deliver, Route};
use crate::identity;
use crate::limits::TokenBucket;
use crate::lobby::{self, Control, Membership, Refusal};
use crate::metrics::GaugeGuard;
use crate::moderation::{self, Notice, Tags};
use crate::quick_battle;
use crate::ranked::Identity;
use crate::relay::{self, ClientId, Cut, Outbox};
use crate::room::{Member, RoomCommand, RoomHandle};
use crate::shared::Shared;
use crate::shutdown::Shutdown;
use crate::skins;
use crate::social;
use crate::solo_boards;
use crate::solo_records;
use crate::standings;
use crate::waiting::Avoid;

mod account;
mod friends;
mod guards;
mod play;
mod requests;
mod rooms;
mod session;
mod skin_requests;

/// How long a connection waits for a room to answer a join or resume. A room answers at once
/// unless it is busy writing a replay; this only bounds the wait if it has just closed.
const ROOM_REPLY_TIMEOUT: Duration = Duration::from_secs(5);
/// Most bytes read and thrown away while closing a connection.
const LINGER_BYTES: usize = 1024 * 1024;

/// What the client told us in its `Hello`.
#[derive(Clone, Debug)]
struct Greeting {
    /// The name shown in rooms: the identity's once identified; before that the `Hello` name,
    /// marked as a guest's when the server keeps identities (`identity::guest_name`).
    name: String,
    /// The `Hello` name as typed (cleaned), to tell whether it reads as a registered one.
    typed: String,
    handling: Handling,
}

/// A connection's state, owned by its task.
struct Client {
    shared: Arc<Shared>,
    id: ClientId,
    peer: SocketAddr,
    outbox: Outbox,
    hello: Option<Greeting>,
    room: Option<Membership>,
    queued: bool,
    /// Quick match tells a queued client its room through here.
    control_tx: mpsc::Sender<Control>,
    control_rx: mpsc::Receiver<Control>,
    /// Every frame the client sends takes a token.
    messages: TokenBucket,
    /// Client `Ping`s beyond this rate go unanswered.
    pings: TokenBucket,
    /// Chat lines beyond this rate are refused.
    chat: TokenBucket,
    /// Who the client plays as, once identified.
    identity: Option<Identity>,
    next_nonce: u64,
    /// Reads `InputsSince` back as the `Inputs` it stands for (`sevenbag_protocol::compact`).
    inputs: InputsUnpacker,
    /// Moderation's facts about this connection (address, bot mark, block list), shared with
    /// its rooms.
    tags: Arc<Tags>,
    /// Set when this connection tried to identify as a banned identity: it may then not
    /// play at all (as a guest either), and hears this.
    banned: Option<String>,
    /// Where this connection's datagram session delivers: its room, as it changes. Dropped
    /// (closing the session) when the connection ends or gives datagrams up.
    route: watch::Sender<Route>,
    /// The room handle `route` was last published for.
    route_key: Option<RoomHandle>,
    /// The datagram rate limit, kept across this connection's sessions.
    datagram_bucket: datagram::ConnectionBucket,
    /// Friend requests, invites and direct messages beyond their rates are refused.
    social: social::Buckets,
    /// Skin publishes and fetches beyond their rates are refused.
    skin_buckets: skin_requests::SkinBuckets,
    /// Waiting in the ranked queue (the room it seats us in is a ranked one).
    ranked_queued: bool,
    /// The code of the room the ranked queue seated us in.
    ranked_room: Option<String>,
    /// The place last reported to the presence book.
    shown_place: Option<social::Place>,
}

/// Serves one upgraded WebSocket connection from its first message to close. The HTTP layer
/// (`crate::http`) did the handshake and holds the connection's permit while this runs.
pub(crate) async fn serve(shared: Arc<Shared>, ws: Ws, peer: SocketAddr) {
    let limits = shared.config.limits.clone();
    let id = shared.next_client_id();
    let mut shutdown = Shutdown::new(shared.shutdown.clone());
    debug!(client = id, %peer, "connected");
    let (sink, mut stream) = ws.split();
    let _open = GaugeGuard::new(&shared.metrics.connections);
    let (outbox, queue) = relay::queue(id, &limits, shared.metrics.clone());
    let sink = social::Watched::new(sink, id, shared.presence.clone());
    let writer = tokio::spawn(relay::write_loop(sink, queue, limits.close_grace));

    let now = Instant::now();
    let (control_tx, control_rx) = mpsc::channel(4);
    let mut client = Client {
        shared: shared.clone(),
        id,
        peer,
        outbox: outbox.clone(),
        hello: None,
        room: None,
        queued: false,
        control_tx,
        control_rx,
        messages: TokenBucket::new(limits.messages_per_second, limits.message_burst, now),
        pings: TokenBucket::new(
            limits.client_pings_per_second,
            limits.client_pings_per_second,
            now,
        ),
        chat: TokenBucket::new(limits.chat_per_second, limits.chat_burst, now),
        inputs: InputsUnpacker::new(),
        identity: None,
        next_nonce: 1,
        tags: Arc::new(Tags::new(peer.ip())),
        banned: None,
        route: watch::channel(None).0,
        route_key: None,
        datagram_bucket: datagram::connection_bucket(&limits),
        social: social::Buckets::new(now),
        skin_buckets: skin_requests::SkinBuckets::new(now),
        ranked_queued: false,
        ranked_room: None,
        shown_place: None,
    };
    client.run(&mut stream, &mut shutdown).await;
    if let Some(datagrams) = &shared.datagrams {
        datagrams.forget(id);
    }
    let shutting_down = shutdown.is_shutdown();
    client.leave_everything(shutting_down).await;

    // If nothing cut the connection, the client closed it: stop the writer quietly.
    outbox.cut(Cut::gone());
    let cut = outbox.current_cut().unwrap_or_else(Cut::gone);

    // The writer gives up on its farewell after `close_grace`; this bound is a backstop.
    let mut writer = writer;
    let sink = tokio::select! {
        joined = &mut writer => joined.ok(),
        _ = tokio::time::sleep(limits.close_grace * 2 + Duration::from_secs(1)) => {
            writer.abort();
            None
        }
    };
    if let Some(Ok(mut ws)) = sink.map(|sink| stream.reunite(sink.into_inner())) {
        // Sends a pending reply to the client's own Close frame, if there is one.
        let _ = tokio::time::timeout(limits.close_grace, ws.flush()).await;
        connection::linger(ws, limits.close_grace, LINGER_BYTES).await;
    }

    if let Some(code) = cut.code().filter(|c| *c != ErrorCode::Shutdown) {
        shared.metrics.cut(&format!("{code:?}"));
    }
    match cut.code() {
        Some(code) => info!(client = id, %peer, ?code, reason = cut.reason(), "connection closed"),
        None => debug!(client = id, %peer, "connection closed by the client"),
    }
}

impl Client {
    fn on_control(&mut self, control: Control) {
        match control {
            Control::Seated(membership) => {
                self.queued = false;
                self.ranked_room = self.ranked_queued.then(|| membership.code.clone());
                self.ranked_queued = false;
                self.room = Some(membership);
            }
            Control::Redirect(url) => {
                self.queued = false;
                self.outbox.send(&ServerMessage::Redirect { url });
            }
            Control::Moderation(notice) => self.on_notice(notice),
            Control::Unqueued => self.queued = false,
        }
    }

    /// An operator acted on this connection's identity.
    fn on_notice(&mut self, notice: Notice) {
        match notice {
            Notice::Banned(text) => {
                // The connection closes; on the way out it leaves its queue and its room as
                // with `LeaveRoom` (a match in play is forfeited and the seat vacated, so its
                // resume token stops working): see `leave_everything`.
                self.banned = Some(text.clone());
                self.outbox.cut(Cut::error(ErrorCode::Banned, text));
            }
            Notice::Muted(text) => self.error(ErrorCode::Muted, text),
            Notice::Renamed { name } => {
                if let Some(hello) = &mut self.hello {
                    hello.name = name.clone();
                }
                self.error(
                    ErrorCode::BadName,
                    format!("a moderator changed this identity's name to {name}"),
                );
            }
            Notice::Bot(bot) => self.tags.set_bot(bot),
        }
    }

    /// A non-fatal error: the client stays connected.
    fn error(&self, code: ErrorCode, message: impl Into<String>) {
        self.outbox.send(&ServerMessage::Error {
            code,
            message: message.into(),
            fatal: false,
        });
    }

    fn member(&self) -> Option<Member> {
        let hello = self.hello.as_ref()?;
        Some(Member {
            client: self.id,
            name: hello.name.clone(),
            handling: hello.handling,
            outbox: self.outbox.clone(),
            identity: self.identity,
            tags: self.tags.clone(),
        })
    }

    fn unqueue(&mut self) {
        self.ranked_queued = false;
        if self.queued {
            lobby::unqueue(&self.shared.lobby, self.id);
            self.queued = false;
        }
    }

    /// The connection is ending: out of the queue, and out of the room.
    async fn leave_everything(&mut self, shutting_down: bool) {
        if let Some(identity) = self.identity {
            self.shared.moderation.detach(identity.id, self.id);
        }
        self.shared.presence.left(self.id);
        self.unqueue();
        // Also take a seat that quick match assigned just now.
        while let Ok(control) = self.control_rx.try_recv() {
            self.on_control(control);
        }
        if let Some(m) = self.room.take() {
            if shutting_down {
                return;
            }
            // A banned player leaves for good (forfeits); anyone else gets the reconnect window.
            let command = if self.banned.is_some() {
                RoomCommand::Leave { client: self.id }
            } else {
                RoomCommand::Disconnected { client: self.id }
            };
            // Bounded: a room that has closed drops the command at once; a busy one takes it
            // within milliseconds. The bound only guards against a stuck room.
            let _ = tokio::time::timeout(ROOM_REPLY_TIMEOUT, m.handle.send(command)).await;
        }
    }
}
