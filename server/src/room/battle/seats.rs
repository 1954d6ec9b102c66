//! Who sits where in a room of several seats: joining, resuming, leaving, the reconnect window
//! and the silent-player rule.

use sevenbag_core::Seat;
use tracing::{debug, info, warn};

use super::*;
use crate::refusal::{no_spectator_place, random_u64};
use sevenbag_protocol::Leaver;

use super::super::stall::Judgement;

impl BattleRoom {
    /// Nobody seated or watching.
    pub(super) fn is_abandoned(&self) -> bool {
        self.seats.iter().all(Option::is_none) && self.spectators.is_empty()
    }

    pub(super) fn seat(&mut self, seat: usize, member: Member) {
        let resume = random_u64();
        self.directory.token_issued(resume, &self.code);
        self.seats[seat] = Some(Slot {
            name: member.name,
            handling: member.handling,
            resume,
            ready: false,
            conn: Some(member.outbox),
            deadline: None,
            rtt_ms: 0,
            player: member.identity.map(|i| i.id),
            tags: Some(member.tags),
        });
    }

    pub(super) fn vacate(&mut self, seat: usize) {
        if let Some(slot) = self.seats.get_mut(seat).and_then(Option::take) {
            self.directory.token_dropped(slot.resume);
        }
    }

    pub(super) fn send_joined(&self, seat: usize) {
        if let Some(Some(slot)) = self.seats.get(seat)
            && let Some(conn) = &slot.conn
        {
            conn.send(&ServerMessage::BattleJoined {
                code: self.code.clone(),
                seat: Some(seat as u8),
                resume: slot.resume,
                options: self.options,
            });
        }
    }

    pub(super) fn join(&mut self, member: Member, role: JoinRole) -> Result<Option<Seat>, Refusal> {
        match role {
            JoinRole::Player => {
                let free = self.seats.iter().position(Option::is_none);
                let Some(seat) = free.filter(|_| self.running.is_none()) else {
                    return Err(full(&self.code));
                };
                info!(room = %self.code, client = member.client, seat, "player joined");
                self.seat(seat, member);
                self.send_joined(seat);
                self.broadcast_state();
                Ok(Seat::new(seat))
            }
            JoinRole::Spectator => {
                if self.spectators.len() >= self.services.config.limits.max_spectators {
                    return Err(no_spectator_place(&self.code));
                }
                debug!(room = %self.code, client = member.client, "spectator joined");
                member.outbox.send(&ServerMessage::BattleJoined {
                    code: self.code.clone(),
                    seat: None,
                    resume: 0,
                    options: self.options,
                });
                // The state, then the log, then live inputs: one command at a time, so
                // nothing is relayed in between.
                self.spectators
                    .push(member.outbox.clone(), Some(member.tags.clone()));
                self.broadcast_state();
                if let Some(run) = &self.running {
                    member.outbox.send(&run.log_message(Instant::now()));
                }
                Ok(None)
            }
        }
    }

    /// A player back with its token: its seat again (`Some(Some)`), or, when the seat was
    /// played out while it was away, a place among the spectators with `SeatLost` saying why
    /// (`Some(None)`); `None` for a token this room does not know.
    pub(super) fn resume(&mut self, token: u64, member: Member) -> Option<Option<Seat>> {
        let Some(seat) = self
            .seats
            .iter()
            .position(|s| s.as_ref().is_some_and(|s| s.resume == token))
        else {
            return self
                .lost
                .contains(&token)
                .then(|| self.late_return(member))?;
        };
        let slot = self.seats[seat].as_mut()?;
        if let Some(old) = slot.conn.take() {
            old.cut(Cut::error(
                ErrorCode::BadResume,
                "this seat was resumed from another connection",
            ));
        }
        slot.conn = Some(member.outbox.clone());
        if let Some(before) = &slot.tags {
            member.tags.keep_skin_of(before);
        }
        slot.tags = Some(member.tags.clone());
        slot.deadline = None;
        info!(room = %self.code, client = member.client, seat, "player resumed");
        self.send_joined(seat);
        self.broadcast_state();
        if let Some(run) = &self.running {
            member.outbox.send(&self.links_message(run));
            member.outbox.send(&run.log_message(Instant::now()));
        }
        Some(Seat::new(seat))
    }

    /// A player whose seat was given up while away comes back: told `SeatLost` (not fatal)
    /// and seated among the spectators, so it sees the match (or the room) go on. `None` if
    /// the spectator places are full (the refusal says why).
    fn late_return(&mut self, member: Member) -> Option<Option<Seat>> {
        let running = self.running.is_some();
        let message = if running {
            "your seat was played out while you were away (the reconnect window passed): \
             you are watching the match"
        } else {
            "your seat was played out while you were away (the reconnect window passed) and \
             that match is over: you are watching the room; join it again to play"
        };
        info!(room = %self.code, client = member.client, running, "a late return watches");
        member.outbox.send(&ServerMessage::Error {
            code: ErrorCode::SeatLost,
            message: message.to_owned(),
            fatal: false,
        });
        let outbox = member.outbox.clone();
        match self.join(member, JoinRole::Spectator) {
            Ok(_) => {
                // The match it left is over: it hears how it ended, as the others did.
                if let (false, Some(over)) = (running, &self.last_over) {
                    outbox.send(over);
                }
                Some(None)
            }
            Err(_) => None,
        }
    }

    /// Vacates a seat whose player is away; its token stays known to the lobby, so a late
    /// return is told and watches instead of being refused.
    pub(super) fn lose(&mut self, seat: usize) {
        let Some(token) = self
            .seats
            .get_mut(seat)
            .and_then(Option::take)
            .map(|s| s.resume)
        else {
            return;
        };
        self.lost.push_back(token);
        while self.lost.len() > MAX_LOST_TOKENS {
            if let Some(old) = self.lost.pop_front() {
                self.directory.token_dropped(old);
            }
        }
    }

    /// Each battle seat's last reported round trip; 0 for a seat without a connected player
    /// (the room plays a gone seat with no delay at all).
    pub(super) fn links_message(&self, run: &Running) -> ServerMessage {
        let rtt_ms = run
            .room_seats
            .iter()
            .map(|&s| {
                self.seats[usize::from(s)]
                    .as_ref()
                    .filter(|slot| slot.conn.is_some())
                    .map_or(0, |slot| slot.rtt_ms)
            })
            .collect();
        ServerMessage::BattleLinks { rtt_ms }
    }

    /// A member goes: `left` for `LeaveRoom`, otherwise its connection dropped (a player in a
    /// match gets the reconnect window).
    pub(super) async fn leave(&mut self, client: ClientId, left: bool) {
        self.chains.retain(|(id, _)| *id != client);
        if self.spectators.remove(client) {
            self.broadcast_state();
            return;
        }
        let Some(seat) = self.seat_of(client) else {
            return;
        };
        let playing = self
            .running
            .as_ref()
            .and_then(|r| r.battle_seat(seat))
            .is_some();
        let window = u64::from(self.options.room.reconnect_seconds);
        // A connection the server cut for what it sent is not coming back: no window.
        let for_cause = self.seats[seat]
            .as_ref()
            .and_then(|s| s.conn.as_ref())
            .and_then(|c| c.current_cut())
            .and_then(|c| c.code())
            .is_some_and(|code| {
                matches!(
                    code,
                    ErrorCode::BadInput
                        | ErrorCode::BadMessage
                        | ErrorCode::RateLimited
                        | ErrorCode::TooLarge
                        | ErrorCode::TextFrame
                )
            });
        if !playing || left || window == 0 || for_cause {
            info!(room = %self.code, client, seat, playing, "player left");
            self.give_up(seat).await;
            return;
        }
        let now = Instant::now();
        if let Some(slot) = &mut self.seats[seat] {
            slot.conn = None;
            slot.deadline = Some(now + Duration::from_secs(window));
            info!(room = %self.code, client, seat, window, "player dropped; waiting for a reconnect");
        }
        self.broadcast_state();
    }

    /// Room seat `seat` is given up: vacated, and in a running match its battle seat is played
    /// by the room (hard drops until it tops out). A match with nobody connected left has no result.
    pub(super) async fn give_up(&mut self, seat: usize) {
        let away = self.seats[seat]
            .as_ref()
            .filter(|s| s.conn.is_none() && s.deadline.is_some())
            .map(|s| s.resume);
        // A player given up while still connected (gone silent) hears the result too.
        let conn = self.seats[seat].as_ref().and_then(|s| s.conn.clone());
        match away {
            Some(_) => self.lose(seat),
            None => self.vacate(seat),
        }
        if let Some(b) = self.running.as_ref().and_then(|r| r.battle_seat(seat)) {
            if let Some(winner) = self.forfeit_winner(b) {
                info!(room = %self.code, seat, "the seat forfeits: the match ends");
                self.broadcast_state();
                self.finish(Some(winner), EndReason::Forfeit).await;
                if let (Some(conn), Some(over)) = (conn, &self.last_over) {
                    conn.send(over);
                }
                return;
            }
            if let Some(run) = &mut self.running {
                run.gone[b] = true;
            }
        }
        self.broadcast_state();
        let anyone = self.seats.iter().flatten().any(|s| s.conn.is_some());
        if self.running.is_some() && !anyone {
            info!(room = %self.code, "every player is gone: no result");
            self.finish(None, EndReason::Abandoned).await;
            return;
        }
        self.play_for_the_gone().await;
    }

    /// The team that wins when battle seat `b` leaves, if the room's leaver forfeits and one
    /// other side is left to win (two seats, or two teams); otherwise the seat is played out.
    fn forfeit_winner(&self, b: usize) -> Option<u8> {
        if self.policy.leaver != Leaver::Forfeits {
            return None;
        }
        let game = self.running.as_ref()?.sim.game();
        if game.teams() != 2 {
            return None;
        }
        let leaver = game.team_of(Seat::new(b)?).index();
        Some(1 - leaver as u8)
    }

    /// Reconnect windows that ran out give their seat up.
    pub(super) async fn expire(&mut self, now: Instant) {
        let due: Vec<usize> = (0..self.seats.len())
            .filter(|&s| {
                self.seats[s]
                    .as_ref()
                    .and_then(|slot| slot.deadline)
                    .is_some_and(|d| d <= now)
            })
            .collect();
        for seat in due {
            info!(room = %self.code, seat, "reconnect window passed: the room plays the seat out");
            self.give_up(seat).await;
        }
    }

    /// The slow-or-silent rule ([`super::super::stall`]): a lagging seat is warned, or given up
    /// (played out or forfeited, as the room's policy says). While a player is away
    /// reconnecting, nobody is judged: the others wait on that seat, and its window decides.
    pub(super) async fn check_silent(&mut self, now: Instant) {
        let away = self.seats.iter().flatten().any(|s| s.deadline.is_some());
        let Some(run) = &mut self.running else {
            return;
        };
        if away {
            return;
        }
        let limits = &self.services.config.limits;
        let outcome = match self.policy.leaver {
            Leaver::Forfeits => "you forfeit the match",
            Leaver::PlayedOut => "your seat is played out",
        };
        let clock = run.clock_frame(now);
        let confirmed: Vec<u32> = (0..run.names.len())
            .map(|b| run.sim.log(b).map_or(0, |l| l.confirmed()))
            .collect();
        let mut given_up = Vec::new();
        for (b, &room_seat) in run.room_seats.iter().enumerate() {
            let connected = self.seats[usize::from(room_seat)]
                .as_ref()
                .and_then(|s| s.conn.clone());
            let Some(conn) = connected else { continue };
            // Seats the room plays run ahead of everyone: they are nobody's measure.
            let furthest_other = (0..confirmed.len())
                .filter(|&o| o != b && !run.gone[o])
                .map(|o| confirmed[o])
                .max()
                .unwrap_or(clock);
            let standing = super::super::stall::Standing {
                clock,
                confirmed: confirmed[b],
                furthest_other,
                quiet: now.saturating_duration_since(run.last_inputs[b]),
                warned: run.warned[b],
            };
            match super::super::stall::judge(standing, now, limits, outcome) {
                Judgement::Fine => {}
                Judgement::Warn(message) => {
                    run.warned[b] = Some(now);
                    info!(room = %self.code, seat = room_seat, clock, confirmed = confirmed[b], "player behind but sending: warned");
                    conn.send(&ServerMessage::Error {
                        code: ErrorCode::Behind,
                        message,
                        fatal: false,
                    });
                }
                Judgement::GiveUp(code, message) => {
                    warn!(room = %self.code, seat = room_seat, clock, confirmed = confirmed[b], ?code, "player too far behind: given up");
                    conn.send(&ServerMessage::Error {
                        code,
                        message,
                        fatal: false,
                    });
                    given_up.push(usize::from(room_seat));
                }
            }
        }
        for seat in given_up {
            self.give_up(seat).await;
        }
    }
}

impl BattleRoom {
    /// Takes up a match read back from its room log: every seat keeps its name, handling and
    /// token and waits for its player for the reconnect window; the match clock keeps the
    /// wall-clock time of frame 0.
    pub(super) fn restore(&mut self, loaded: BattleLoaded) {
        let BattleLoaded { open, sim, .. } = loaded;
        let now = Instant::now();
        let window = Duration::from_secs(u64::from(self.options.room.reconnect_seconds.max(1)));
        // Each battle seat's account as the log names it (none: a guest, or an older log).
        let players: Vec<Option<sevenbag_storage::PlayerId>> = (0..open.names.len())
            .map(|b| {
                open.accounts
                    .get(b)
                    .copied()
                    .flatten()
                    .map(sevenbag_storage::PlayerId)
            })
            .collect();
        for (b, &room_seat) in open.room_seats.iter().enumerate() {
            let (Some(slot), Some(&token)) = (
                self.seats.get_mut(usize::from(room_seat)),
                open.tokens.get(b),
            ) else {
                continue;
            };
            self.directory.token_issued(token, &self.code);
            *slot = Some(Slot {
                name: open.names.get(b).cloned().unwrap_or_default(),
                handling: open.header.handling[b],
                resume: token,
                ready: false,
                conn: None,
                deadline: Some(now + window),
                rtt_ms: 0,
                player: players[b],
                tags: None,
            });
        }
        self.matches = open.matches;
        let since =
            Duration::from_millis(super::super::unix_now_ms().saturating_sub(open.frame0_unix_ms));
        let frame0 = now.checked_sub(since).unwrap_or(now);
        let n = open.names.len();
        info!(room = %self.code, seats = n, frames = sim.confirmed(), "match of several seats restored from its room log");
        self.running = Some(Running {
            sim,
            names: open.names,
            room_seats: open.room_seats,
            frame0,
            started_unix: open.started_unix,
            desync_answered: vec![0; n],
            last_inputs: vec![now; n],
            gone: vec![false; n],
            warned: vec![None; n],
            desynced: false,
            players,
            log: self
                .services
                .room_logs
                .as_ref()
                .map(|l| l.resume(&crate::durable::log_stem(&self.code, true, self.policy))),
            _live: GaugeGuard::new(&self.services.metrics.matches_running),
        });
    }
}
