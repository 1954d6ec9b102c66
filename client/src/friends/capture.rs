//! `--screen friends`: the Friends screen against an embedded server on 127.0.0.1 (with a
//! database in a temporary folder) holding a few friends, each on a connection of its own so
//! their presence is real: two play a versus match, one watches it, one is online, the rest
//! offline; one player's request waits for you and yours for another; the match's players
//! invite you and another sends a message, unseen. Your identity there is a new key.
//! `--screen friend-picker`: the same server, with Invite a friend's box open for the match's
//! room, where three of those friends are already.

use std::time::Duration;

use sevenbag_netplay::time::Instant;
use sevenbag_protocol::social::RequestAnswer;
use sevenbag_protocol::{ClientMessage, JoinRole, RoomOptions, ServerMessage};

use crate::net::online::transport::runtime;
use crate::net::request::{Arrival, Request};

use super::FriendsScreen;
use super::picker::InvitePicker;
use super::social::Social;
use crate::screen::{Ctx, FrameIo, FriendPicker, Screen, Transition};

/// The friends made, by name; the first two play a match, the third watches it, the fourth is
/// online, the last two are offline.
const FRIENDS: [&str; 6] = ["ann", "ben", "cat", "dan", "gus", "hal"];

/// How long each step of the seeding may take.
const LIMIT: Duration = Duration::from_secs(10);

/// What the capture keeps alive: the server and the friends' connections.
struct Kept {
    _server: sevenbag_server::ServerHandle,
    _online: Vec<Request>,
}

/// The seeded server: its address, your name and key there, the room of the friends' match,
/// and what must stay alive.
struct Seeded {
    addr: String,
    me: String,
    key: [u8; 32],
    room: String,
    kept: Kept,
}

/// Starts the server, seeds it and opens the screen as `name` (a valid ranked name, else "you").
pub fn open(name: &str) -> Result<FriendsScreen, String> {
    let s = seed(name)?;
    Ok(FriendsScreen::with_key(
        &s.addr,
        &s.me,
        s.key,
        Box::new(s.kept),
    ))
}

/// Starts the server, seeds it and opens Invite a friend's box for the friends' room as
/// `name`.
pub fn open_picker(name: &str) -> Result<Box<dyn Screen>, String> {
    let s = seed(name)?;
    let social = Social::connect(&s.addr, &s.me, s.key);
    let picker = InvitePicker::over(social).in_room(Some(&s.room));
    Ok(Box::new(PickerCapture {
        picker,
        _kept: s.kept,
    }))
}

/// The picker's box over the backdrop, for the capture.
struct PickerCapture {
    picker: InvitePicker,
    _kept: Kept,
}

impl Screen for PickerCapture {
    fn update(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Transition {
        ctx.backdrop.advance(io.dt, io.width, io.height);
        self.picker.update(ctx, io);
        Transition::None
    }

    fn draw(&self, ctx: &Ctx, io: &FrameIo) {
        ctx.backdrop.draw();
        self.picker.draw(ctx, io);
    }

    fn name(&self) -> &'static str {
        "friend-picker"
    }
}

fn seed(name: &str) -> Result<Seeded, String> {
    let me = if sevenbag_protocol::identity::validate_name(name).is_ok() {
        name
    } else {
        "you"
    };
    let dir = std::env::temp_dir().join(format!("sevenbag-friends-{}", std::process::id()));
    let config = sevenbag_server::Config {
        replay_dir: dir.join("replays"),
        db: Some(dir.join("friends.db")),
        start_delay: Duration::from_millis(200),
        countdown_frames: Some(30),
        // Every friend registers from 127.0.0.1.
        moderation: sevenbag_server::ModerationConfig::permissive(),
        ..sevenbag_server::Config::default()
    };
    let server = runtime()?
        .block_on(sevenbag_server::spawn(config))
        .map_err(|e| format!("the capture's server: {e}"))?;
    let addr = server.addr().to_string();
    let my_key = crate::identity::random_key()?;
    let mut mine = registered(&addr, me, my_key)?;
    let mut friends = Vec::new();
    for (n, friend) in FRIENDS.iter().enumerate() {
        let mut c = registered(&addr, friend, key(n as u8 + 1))?;
        ask(&mut c, friend_request(me), |m| {
            matches!(m, ServerMessage::FriendRequestSent { .. })
        })?;
        let answer = ClientMessage::AnswerFriendRequest {
            name: (*friend).to_owned(),
            answer: RequestAnswer::Accept,
        };
        ask(&mut mine, answer, |m| {
            matches!(m, ServerMessage::FriendRequestAnswered { .. })
        })?;
        friends.push(c);
    }
    // The requests that made them friends are old news.
    let ids = ask_for(&mut mine, ClientMessage::GetNotifications, |m| match m {
        ServerMessage::Notifications { list } => Some(list.iter().map(|n| n.id).collect()),
        _ => None,
    })?;
    ask(
        &mut mine,
        ClientMessage::MarkNotificationsSeen { ids },
        |m| matches!(m, ServerMessage::NotificationsSeen { .. }),
    )?;
    let mut eve = registered(&addr, "eve", key(20))?;
    ask(&mut eve, friend_request(me), |m| {
        matches!(m, ServerMessage::FriendRequestSent { .. })
    })?;
    let _fay = registered(&addr, "fay", key(21))?;
    ask(&mut mine, friend_request("fay"), |m| {
        matches!(m, ServerMessage::FriendRequestSent { .. })
    })?;
    drop(mine);
    // ann and ben play a match in ann's room; cat watches; ann invites you in.
    let create = ClientMessage::CreateRoom {
        options: RoomOptions::default(),
    };
    let code = ask_for(&mut friends[0], create, |m| match m {
        ServerMessage::Joined { code, .. } => Some(code.clone()),
        _ => None,
    })?;
    for (seat, role) in [(1, JoinRole::Player), (2, JoinRole::Spectator)] {
        let join = ClientMessage::JoinRoom {
            code: code.clone(),
            role,
        };
        ask(&mut friends[seat], join, |m| {
            matches!(m, ServerMessage::Joined { .. })
        })?;
    }
    friends[1].send(ClientMessage::Ready)?;
    ask(&mut friends[0], ClientMessage::Ready, |m| {
        matches!(m, ServerMessage::MatchStart { .. })
    })?;
    let invite = ClientMessage::InviteFriend {
        name: me.to_owned(),
        code: code.clone(),
    };
    ask(&mut friends[0], invite, |m| {
        matches!(m, ServerMessage::Invited { .. })
    })?;
    let message = ClientMessage::DirectMessage {
        to: me.to_owned(),
        text: "gg earlier! rematch tonight?".to_owned(),
    };
    ask(&mut friends[3], message, |m| {
        matches!(m, ServerMessage::DirectMessageSent { .. })
    })?;
    // Those after the fourth go offline.
    friends.truncate(4);
    let kept = Kept {
        _server: server,
        _online: friends,
    };
    Ok(Seeded {
        addr,
        me: me.to_owned(),
        key: my_key,
        room: code,
        kept,
    })
}

/// The capture's key number `n`.
pub(super) fn key(n: u8) -> [u8; 32] {
    let mut k = [n; 32];
    k[0] = 0xF5;
    k
}

fn friend_request(name: &str) -> ClientMessage {
    ClientMessage::SendFriendRequest {
        name: name.to_owned(),
    }
}

/// A connection to `addr` registered as `name` with `key`.
pub(super) fn registered(addr: &str, name: &str, key: [u8; 32]) -> Result<Request, String> {
    let mut c = Request::connect(addr, name)?;
    wait(&mut c, |a| matches!(a, Arrival::Welcome).then_some(()))?;
    let register = ClientMessage::Register {
        key,
        name: name.to_owned(),
    };
    ask(&mut c, register, |m| {
        matches!(m, ServerMessage::Registered { .. })
    })?;
    Ok(c)
}

/// Sends `m` and waits for a reply `done` accepts.
pub(super) fn ask(
    c: &mut Request,
    m: ClientMessage,
    done: impl Fn(&ServerMessage) -> bool,
) -> Result<(), String> {
    ask_for(c, m, |m| done(m).then_some(()))
}

/// Sends `m` and waits for the reply `pick` takes; an error reply fails, but one over the
/// server's rate for friend requests is sent again a second later.
pub(super) fn ask_for<T>(
    c: &mut Request,
    m: ClientMessage,
    mut pick: impl FnMut(&ServerMessage) -> Option<T>,
) -> Result<T, String> {
    let what = format!("{m:?}");
    for _ in 0..10 {
        c.send(m.clone())?;
        match wait(c, |a| match a {
            Arrival::Message(m) => pick(m),
            _ => None,
        }) {
            Err(e) if e.contains("are limited to") => {
                std::thread::sleep(Duration::from_millis(1100))
            }
            done => return done.map_err(|e| format!("{what}: {e}")),
        }
    }
    Err(format!("{what}: still over the server's rate"))
}

/// Waits for the arrival `pick` takes; an error message or the end of the connection fails.
fn wait<T>(c: &mut Request, mut pick: impl FnMut(&Arrival) -> Option<T>) -> Result<T, String> {
    let deadline = Instant::now() + LIMIT;
    while Instant::now() < deadline {
        while let Some(a) = c.next() {
            if let Some(t) = pick(&a) {
                return Ok(t);
            }
            match a {
                Arrival::Message(ServerMessage::Error { message, .. }) => return Err(message),
                Arrival::Gone(why) => return Err(why),
                _ => {}
            }
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    Err("no answer in time".to_owned())
}
