//! One player of the social load on its own task: registers, befriends its ring, makes its
//! presence changes on schedule, invites a friend into a room it made, and takes up the
//! invite it gets; meanwhile it matches every `Presence` and `Notification` it hears to what
//! was sent, in the shared [`Ledger`].

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use sevenbag_netplay::{NetEvent, NetHandle};
use sevenbag_protocol::social::{NotificationKind, PresenceState, RequestAnswer, RequestResult};
use sevenbag_protocol::{ClientMessage, RoomOptions, ServerMessage};
use tokio::sync::watch;

use super::join::{self, close, until, welcomed};
use super::ledger::{CHANGES, Ledger, Stage};
use super::ring;

/// What every player of a run shares.
#[derive(Debug)]
pub(super) struct Ctx {
    /// Players.
    pub(super) n: usize,
    /// The run's name tag ([`ring::name`]).
    pub(super) tag: String,
    /// The run's seed, for the keys.
    pub(super) seed: u64,
    /// The servers; player `i` connects to `urls[i % len]`.
    pub(super) urls: Vec<String>,
    /// The shared counts.
    pub(super) ledger: Ledger,
    /// When the first player connects.
    pub(super) t0: Instant,
    /// Over how long connections start.
    pub(super) ramp: Duration,
    /// Until when registering may take.
    pub(super) setup_deadline: Instant,
    /// Over how long the presence changes are spread.
    pub(super) presence_span: Duration,
    /// Over how long the invites are spread.
    pub(super) invite_span: Duration,
    /// How long an invited friend's join may take.
    pub(super) join_limit: Duration,
}

impl Ctx {
    /// Where player `i` stands in each spread: the same fraction of 0..1 in each.
    fn offset(&self, i: usize) -> f64 {
        (i as f64 * 0.618_033_988_75).fract()
    }
}

/// Runs player `i` until the stage is [`Stage::Stop`]; an error says why it failed.
pub(super) async fn run(
    ctx: Arc<Ctx>,
    i: usize,
    stage: watch::Receiver<Stage>,
) -> Result<(), String> {
    let start = ctx.t0 + ctx.ramp.mul_f64(i as f64 / ctx.n as f64);
    tokio::time::sleep_until(start.into()).await;
    let mut player = match Player::register(Arc::clone(&ctx), i).await {
        Ok(p) => p,
        Err(e) => return Err(fail(&ctx, i, e)),
    };
    let result = player.live(stage).await;
    ctx.ledger
        .add_latencies(std::mem::take(&mut player.latencies));
    close(player.handle, Instant::now() + Duration::from_secs(2)).await;
    result.map_err(|e| fail(&ctx, i, e))
}

fn fail(ctx: &Ctx, i: usize, why: String) -> String {
    ctx.ledger.failed.add(1);
    ctx.ledger.moved();
    format!("{}: {why}", ring::name(i, &ctx.tag))
}

struct Player {
    ctx: Arc<Ctx>,
    i: usize,
    url: String,
    handle: NetHandle,
    asks: Vec<usize>,
    asked_by: Vec<usize>,
    friends: usize,
    requested: bool,
    requests_sent: usize,
    answered: usize,
    requests_heard: HashSet<usize>,
    accepted_by: HashSet<usize>,
    befriended: bool,
    /// The next change of each friend to hear.
    next_change: HashMap<usize, usize>,
    changes: usize,
    invite_started: bool,
    room: Option<String>,
    invited: bool,
    room_done: bool,
    invite_heard: bool,
    latencies: Vec<Duration>,
}

impl Player {
    /// Connects and registers a fresh identity.
    async fn register(ctx: Arc<Ctx>, i: usize) -> Result<Player, String> {
        let n = ctx.n;
        let url = ctx.urls[i % ctx.urls.len()].clone();
        let name = ring::name(i, &ctx.tag);
        let deadline = ctx.setup_deadline;
        let mut handle = welcomed(&url, &name, deadline).await?;
        let key = ring::key(ctx.seed, i);
        handle
            .send(ClientMessage::Register { key, name })
            .map_err(|e| e.to_string())?;
        until(&mut handle, deadline, "Registered", |e| {
            matches!(e, NetEvent::Message(ServerMessage::Registered { .. })).then_some(())
        })
        .await?;
        ctx.ledger.registered.add(1);
        ctx.ledger.moved();
        Ok(Player {
            asks: ring::asks(i, n),
            asked_by: ring::asked_by(i, n),
            friends: ring::friends(i, n).len(),
            next_change: ring::friends(i, n).into_iter().map(|f| (f, 0)).collect(),
            ctx,
            i,
            url,
            handle,
            requested: false,
            requests_sent: 0,
            answered: 0,
            requests_heard: HashSet::new(),
            accepted_by: HashSet::new(),
            befriended: false,
            changes: 0,
            invite_started: false,
            room: None,
            invited: false,
            room_done: false,
            invite_heard: false,
            latencies: Vec::new(),
        })
    }

    fn name_of(&self, i: usize) -> String {
        ring::name(i, &self.ctx.tag)
    }

    fn send(&self, message: ClientMessage) -> Result<(), String> {
        self.handle.send(message).map_err(|e| e.to_string())
    }

    /// When the next change is due in the presence stage starting at `start`.
    fn change_due(&self, start: Instant) -> Instant {
        let step = self.ctx.presence_span.div_f64(CHANGES as f64);
        start + step.mul_f64(self.changes as f64 + self.ctx.offset(self.i))
    }

    /// Does what the stage asks now; returns when to look again (`None`: on events only).
    fn act(&mut self, stage: Stage, now: Instant) -> Result<Option<Instant>, String> {
        match stage {
            Stage::Befriend if !self.requested => {
                self.requested = true;
                for &j in &self.asks {
                    self.send(ClientMessage::SendFriendRequest {
                        name: self.name_of(j),
                    })?;
                }
                Ok(None)
            }
            Stage::Presence(start) if self.changes < CHANGES => {
                let due = self.change_due(start);
                if now < due {
                    return Ok(Some(due));
                }
                let k = self.changes;
                self.ctx.ledger.sending(self.i, k, self.friends);
                self.send(ClientMessage::AppearOffline {
                    on: k.is_multiple_of(2),
                })?;
                self.changes += 1;
                if self.changes == CHANGES {
                    self.ctx.ledger.changed.add(1);
                    self.ctx.ledger.moved();
                    return Ok(None);
                }
                Ok(Some(self.change_due(start)))
            }
            Stage::Invite(start) if !self.invite_started => {
                let due = start + self.ctx.invite_span.mul_f64(self.ctx.offset(self.i));
                if now < due {
                    return Ok(Some(due));
                }
                self.invite_started = true;
                self.send(ClientMessage::CreateRoom {
                    options: RoomOptions::default(),
                })?;
                Ok(None)
            }
            _ => Ok(None),
        }
    }

    /// Follows the stages until [`Stage::Stop`].
    async fn live(&mut self, mut stage: watch::Receiver<Stage>) -> Result<(), String> {
        loop {
            let now_stage = *stage.borrow_and_update();
            if now_stage == Stage::Stop {
                break;
            }
            let due = self.act(now_stage, Instant::now())?;
            let wake = due.unwrap_or_else(|| Instant::now() + Duration::from_secs(3600));
            tokio::select! {
                event = self.handle.recv() => match event {
                    Some(event) => self.on_event(event)?,
                    None => return Err("the connection ended".into()),
                },
                changed = stage.changed() => if changed.is_err() {
                    break;
                },
                () = tokio::time::sleep_until(wake.into()) => {}
            }
        }
        let mut missing = Vec::new();
        if !self.befriended {
            missing.push("its friendships");
        }
        if self.changes < CHANGES {
            missing.push("its presence changes");
        }
        if !self.invited {
            missing.push("its invite");
        }
        if !missing.is_empty() {
            return Err(format!("did not finish {}", missing.join(", ")));
        }
        Ok(())
    }

    fn on_event(&mut self, event: NetEvent) -> Result<(), String> {
        match event {
            NetEvent::Message(m) => self.on_message(m),
            NetEvent::Disconnected(why) => Err(format!("disconnected ({why})")),
            _ => Ok(()),
        }
    }

    fn on_message(&mut self, message: ServerMessage) -> Result<(), String> {
        let ctx = Arc::clone(&self.ctx);
        let ledger = &ctx.ledger;
        match message {
            ServerMessage::Presence { name, state } => self.heard_presence(&name, &state),
            ServerMessage::Notification { notification } => {
                let from = ring::index(&notification.subject, &self.ctx.tag, self.ctx.n);
                match (notification.kind, from) {
                    (NotificationKind::FriendRequest, Some(j))
                        if self.asked_by.contains(&j) && self.requests_heard.insert(j) =>
                    {
                        ledger.notifications_delivered.add(1);
                        self.send(ClientMessage::AnswerFriendRequest {
                            name: self.name_of(j),
                            answer: RequestAnswer::Accept,
                        })?;
                    }
                    (NotificationKind::FriendAccepted, Some(j))
                        if self.asks.contains(&j) && self.accepted_by.insert(j) =>
                    {
                        ledger.notifications_delivered.add(1);
                    }
                    (NotificationKind::Invite, Some(j))
                        if j == (self.i + self.ctx.n - 1) % self.ctx.n && !self.invite_heard =>
                    {
                        self.invite_heard = true;
                        ledger.notifications_delivered.add(1);
                        let code = invite_code(&notification.content)
                            .ok_or_else(|| format!("an invite without a code: {notification:?}"))?;
                        ledger.invites_received.add(1);
                        self.take_up(code);
                    }
                    _ => {}
                }
                ledger.moved();
            }
            ServerMessage::FriendRequestSent { name, result } => {
                if result != RequestResult::Sent {
                    return Err(format!("the request to {name} was answered {result:?}"));
                }
                self.requests_sent += 1;
                ledger.notifications_sent.add(1);
            }
            ServerMessage::FriendRequestAnswered { .. } => {
                self.answered += 1;
                ledger.notifications_sent.add(1);
            }
            ServerMessage::Joined { code, .. } if self.invite_started && self.room.is_none() => {
                self.send(ClientMessage::InviteFriend {
                    name: self.name_of(self.asks[0]),
                    code: code.clone(),
                })?;
                self.room = Some(code);
            }
            ServerMessage::Invited { .. } => {
                self.invited = true;
                ledger.invites_sent.add(1);
                ledger.notifications_sent.add(1);
                ledger.moved();
            }
            ServerMessage::RoomState { seats, .. }
                if self.room.is_some() && !self.room_done && seats.iter().all(Option::is_some) =>
            {
                // The friend sits: the room has done its job.
                self.room_done = true;
                self.send(ClientMessage::LeaveRoom)?;
            }
            ServerMessage::Error {
                code,
                message,
                fatal,
            } => {
                let fatal = if fatal { " (fatal)" } else { "" };
                return Err(format!("server error {code:?}{fatal}: {message}"));
            }
            _ => {}
        }
        if !self.befriended
            && self.requests_sent == self.asks.len()
            && self.answered == self.asked_by.len()
            && self.accepted_by.len() == self.asks.len()
        {
            self.befriended = true;
            ledger.befriended.add(1);
            ledger.moved();
        }
        Ok(())
    }

    /// Matches a friend's `Presence` to the next change of theirs this player should hear:
    /// change `k` reads `Offline` for even `k`, `Online` for odd. Anything else (where a
    /// friend is on becoming friends, or on a second connection identifying) is not a change.
    fn heard_presence(&mut self, name: &str, state: &PresenceState) {
        let Some(j) = ring::index(name, &self.ctx.tag, self.ctx.n) else {
            return;
        };
        let Some(next) = self.next_change.get_mut(&j) else {
            return;
        };
        let k = *next;
        let expected = if k.is_multiple_of(2) {
            PresenceState::Offline
        } else {
            PresenceState::Online
        };
        if k >= CHANGES || *state != expected {
            return;
        }
        let Some(sent) = self.ctx.ledger.sent_at(j, k) else {
            return;
        };
        *next += 1;
        self.latencies.push(sent.elapsed());
        self.ctx.ledger.presence_delivered.add(1);
        self.ctx.ledger.moved();
    }

    /// Takes up an invite into room `code` on a second connection of this player's.
    fn take_up(&self, code: String) {
        let ctx = Arc::clone(&self.ctx);
        let (url, i) = (self.url.clone(), self.i);
        let name = self.name_of(i);
        tokio::spawn(async move {
            let key = ring::key(ctx.seed, i);
            match join::join(url, name.clone(), key, code.clone(), ctx.join_limit).await {
                Ok(()) => ctx.ledger.joins.add(1),
                Err(e) => {
                    eprintln!("{name}: joining the invite's room {code}: {e}");
                    ctx.ledger.failed.add(1);
                }
            }
            ctx.ledger.moved();
        });
    }
}

/// The room code of an invite's content (`{"from", "code"}`).
fn invite_code(content: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(content).ok()?;
    value.get("code")?.as_str().map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_invite_names_its_code() {
        assert_eq!(
            invite_code(r#"{"from":"s0001","code":"ACDEF"}"#).as_deref(),
            Some("ACDEF")
        );
        assert_eq!(invite_code("{}"), None);
        assert_eq!(invite_code("not json"), None);
    }
}
