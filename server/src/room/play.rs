//! The match: starting it, inputs and state hashes from the seats, stalls and forfeits, and
//! the result with its record.

use super::stall::Judgement;
use super::*;

impl Room {
    /// The slow-or-silent rule ([`super::stall`]): a lagging seat is warned, or forfeits.
    /// While the opponent is away reconnecting, nobody is judged: the reconnect window decides.
    pub(super) async fn check_stalled(&mut self, now: Instant) {
        let Some(running) = &mut self.running else {
            return;
        };
        if self
            .seats
            .iter()
            .any(|s| s.as_ref().is_none_or(|s| s.conn.is_none()))
        {
            return;
        }
        let clock = running.clock_frame(now);
        let limits = &self.services.config.limits;
        let confirmed = Seat::BOTH.map(|s| running.sim.log(s).confirmed());
        for seat in Seat::BOTH {
            let standing = super::stall::Standing {
                clock,
                confirmed: confirmed[seat.index()],
                furthest_other: confirmed[seat.other().index()],
                quiet: now.saturating_duration_since(running.last_inputs[seat.index()]),
                warned: running.warned[seat.index()],
            };
            let conn = self.seats[seat.index()]
                .as_ref()
                .and_then(|s| s.conn.clone());
            let (code, message) = match super::stall::judge(
                standing,
                now,
                limits,
                "you forfeit the match",
            ) {
                Judgement::Fine => continue,
                Judgement::Warn(message) => {
                    running.warned[seat.index()] = Some(now);
                    info!(room = %self.code, ?seat, clock, confirmed = standing.confirmed, "player behind but sending: warned");
                    if let Some(conn) = &conn {
                        conn.send(&ServerMessage::Error {
                            code: ErrorCode::Behind,
                            message,
                            fatal: false,
                        });
                    }
                    continue;
                }
                Judgement::GiveUp(code, message) => (code, message),
            };
            warn!(room = %self.code, ?seat, clock, confirmed = standing.confirmed, ?code, "player too far behind: forfeit");
            if let Some(conn) = &conn {
                conn.send(&ServerMessage::Error {
                    code,
                    message,
                    fatal: false,
                });
            }
            self.forfeit(seat).await;
            return;
        }
    }

    /// `seat` loses the running match without playing it out, and leaves its seat.
    pub(super) async fn forfeit(&mut self, seat: Seat) {
        // A player the server forfeits while still connected (the idle rule) is told the
        // result too, so every player sees the end: who won and why.
        let conn = self.seats[seat.index()]
            .as_ref()
            .and_then(|s| s.conn.clone());
        self.broadcast(&ServerMessage::SeatStatus {
            seat,
            status: SeatStatus::Forfeited,
        });
        self.vacate(seat);
        let over = self.finish(Some(seat.other()), EndReason::Forfeit).await;
        if let (Some(conn), Some(over)) = (conn, over) {
            conn.send(&over);
        }
    }

    pub(super) fn maybe_start(&mut self) {
        if self.running.is_some() {
            return;
        }
        let [Some(a), Some(b)] = &self.seats else {
            return;
        };
        if !(a.ready && b.ready && a.conn.is_some() && b.conn.is_some()) {
            return;
        }
        if self.services.draining.is_draining() {
            let seats = self.seats.iter_mut().flatten();
            unready_for_drain(seats.map(|s| (&mut s.ready, s.conn.as_ref())));
            self.broadcast_state();
            return;
        }
        let header = MatchHeader {
            rules: self.rules,
            seed: random_u64(),
            handling: [a.handling, b.handling],
        };
        let names = [a.name.clone(), b.name.clone()];
        let players = [a.player, b.player];
        let tokens = [a.resume, b.resume];
        let delay = self.services.config.start_delay;
        let start_in_ms = delay.as_millis().min(u128::from(u32::MAX)) as u32;
        for slot in self.seats.iter_mut().flatten() {
            slot.ready = false;
        }
        info!(room = %self.code, seed = header.seed, "match started");
        self.services.metrics.matches_started.inc();
        self.broadcast(&ServerMessage::MatchStart {
            header,
            names: names.clone(),
            start_in_ms,
        });
        let log = self
            .services
            .room_logs
            .as_ref()
            .filter(|_| self.options.reconnect_seconds > 0)
            .map(|logs| {
                logs.begin(MatchOpen {
                    code: self.code.clone(),
                    options: self.options,
                    ranked: self.ranked,
                    header,
                    names: names.clone(),
                    tokens,
                    players: players.map(|p| p.map(|p| p.0)),
                    started_unix: unix_now(),
                    frame0_unix_ms: unix_now_ms()
                        .saturating_add(delay.as_millis().min(u128::from(u32::MAX)) as u64),
                    matches: self.matches,
                })
            });
        self.peers.new_match();
        self.running = Some(Running {
            sim: ConfirmedSim::new(header),
            names,
            frame0: Instant::now() + delay,
            started_unix: unix_now(),
            desync_answered: [0; 2],
            tally: Tally::new(self.ranked, players),
            last_inputs: [Instant::now() + delay; 2],
            warned: [None; 2],
            _live: GaugeGuard::new(&self.services.metrics.matches_running),
            log,
            tokens,
        });
    }

    pub(super) async fn inputs(
        &mut self,
        client: ClientId,
        changes: Vec<InputChange>,
        confirmed: u32,
    ) {
        let Some(seat) = self.seat_of(client) else {
            if let Some(spectator) = self.spectators.iter().find(|o| o.id() == client) {
                spectator.cut(Cut::error(
                    ErrorCode::BadInput,
                    "spectators may not send inputs",
                ));
            }
            return;
        };
        let Some(run) = &mut self.running else {
            // Inputs of a match that just ended, still in flight: harmless, dropped.
            return;
        };
        // The seat's outbox is looked up (not cloned) only to cut it: this runs for every
        // input message.
        let Some(conn) = self.seats[seat.index()]
            .as_ref()
            .and_then(|s| s.conn.as_ref())
        else {
            return;
        };
        let limits = &self.services.config.limits;
        if changes.len() > limits.max_changes_per_message {
            conn.cut(Cut::error(
                ErrorCode::BadInput,
                format!(
                    "{} input changes in one message; the limit is {}",
                    changes.len(),
                    limits.max_changes_per_message
                ),
            ));
            return;
        }
        let clock = run.clock_frame(Instant::now());
        let allowed = clock.saturating_add(limits.max_frames_ahead);
        if confirmed > allowed {
            conn.cut(Cut::error(
                ErrorCode::BadInput,
                format!(
                    "inputs confirmed through frame {confirmed}, but the match clock is at frame {clock} (at most {} ahead)",
                    limits.max_frames_ahead
                ),
            ));
            return;
        }
        self.take_inputs(seat, changes, confirmed).await;
    }

    /// Takes a checked batch of `seat`'s inputs (from `Inputs`, or the new part of a window):
    /// appends it to the match (refused batches cut the sender), logs it, relays it at once
    /// (to a player on datagrams as a datagram, else over the WebSocket; to spectators over
    /// the WebSocket), and moves the server's simulation on.
    pub(super) async fn take_inputs(
        &mut self,
        seat: Seat,
        changes: Vec<InputChange>,
        confirmed: u32,
    ) {
        let Some(run) = &mut self.running else {
            return;
        };
        let Some(conn) = self.seats[seat.index()]
            .as_ref()
            .and_then(|s| s.conn.as_ref())
        else {
            return;
        };
        if let Err(e) = run.sim.extend(seat, &changes, confirmed) {
            conn.cut(Cut::error(ErrorCode::BadInput, format!("bad inputs: {e}")));
            return;
        }
        run.last_inputs[seat.index()] = Instant::now();
        if let Some(log) = &mut run.log {
            log.inputs(seat, &changes, confirmed);
        }
        // Relay at once, unchanged, encoded once for every recipient on the WebSocket.
        let opponent = seat.other();
        if self.on_datagrams(opponent) {
            self.send_downlink(opponent, Instant::now());
        }
        let to_opponent = !self.on_datagrams(opponent);
        if let Some(bytes) = relay::encode(&ServerMessage::Inputs {
            seat,
            changes,
            confirmed,
        }) {
            if to_opponent
                && let Some(opponent) = self.seats[opponent.index()]
                    .as_ref()
                    .and_then(|s| s.conn.as_ref())
            {
                opponent.send_bytes(bytes.clone());
            }
            for spectator in &self.spectators {
                spectator.send_bytes(bytes.clone());
            }
        }
        let Some(run) = &mut self.running else {
            return;
        };
        let events = run.sim.advance();
        for event in events {
            match event {
                SimEvent::RoundOver(r) => {
                    debug!(room = %self.code, round = r.round, winner = ?r.winner, "round over");
                    self.broadcast(&ServerMessage::RoundOver {
                        round: r.round,
                        winner: r.winner,
                        wins: r.wins,
                        frame: r.frame,
                    });
                }
                SimEvent::MatchOver { winner, .. } => {
                    self.finish(Some(winner), EndReason::TopOut).await;
                }
            }
        }
    }

    pub(super) fn state_hash(&mut self, client: ClientId, frame: u32, hash: u64) {
        if let Some(seat) = self.seat_of(client) {
            self.state_hash_checked(seat, frame, hash);
        }
    }

    /// Compares `seat`'s hash at `frame` with the server's; returns whether it was looked at
    /// (false: the server has not simulated that far yet, or the frame is off the interval).
    pub(super) fn state_hash_checked(&mut self, seat: Seat, frame: u32, hash: u64) -> bool {
        let Some(run) = &mut self.running else {
            return false;
        };
        let Some(server_hash) = run.sim.hash_at(frame) else {
            debug!(room = %self.code, ?seat, frame, "hash for a frame not simulated (or off the interval); ignored");
            return false;
        };
        // A repeat of an answered (or earlier) frame is ignored: no log flood, no log resend.
        if server_hash == hash || frame <= run.desync_answered[seat.index()] {
            return true;
        }
        warn!(
            room = %self.code,
            ?seat,
            frame,
            server_hash = format_args!("{server_hash:#018x}"),
            client_hash = format_args!("{hash:#018x}"),
            "desync"
        );
        run.desync_answered[seat.index()] = frame;
        run.tally.desync();
        self.services.metrics.desyncs.inc();
        if let Some(conn) = self.seats[seat.index()]
            .as_ref()
            .and_then(|s| s.conn.as_ref())
        {
            conn.send(&ServerMessage::Desync {
                frame,
                server_hash,
                your_hash: hash,
            });
            conn.send(&run.log_message(Instant::now()));
        }
        true
    }

    /// Ends the running match: writes its replay, tells everyone (unless unfinished), and goes
    /// back to waiting for `Ready`.
    /// Ends the running match, saves its replay and tells the room; returns the `MatchOver`
    /// sent (if there is a winner), for a forfeited player who is no longer seated.
    pub(super) async fn finish(
        &mut self,
        winner: Option<Seat>,
        reason: EndReason,
    ) -> Option<ServerMessage> {
        self.catch_up_before_verdict();
        let mut run = self.running.take()?;
        self.matches += 1;
        self.services.metrics.matches_finished.inc();
        let replay = Replay::record(&run.sim, run.names.clone(), winner, reason, unix_now());
        // A ranked match's id says so: the replay file does not, and the list shows it.
        let ranked = if self.ranked { "-ranked" } else { "" };
        let base = format!(
            "{}-{}-{}{ranked}",
            run.started_unix, self.code, self.matches
        );
        // The room waits for the write (a few milliseconds) so that `MatchOver` names a file
        // that already exists: a client may ask for it the moment it hears.
        let id = self.services.replays.save(&base, &replay).await;
        info!(room = %self.code, ?winner, ?reason, frames = run.sim.frame(), replay = ?id, "match over");
        if let (Some(logs), Some(log)) = (&self.services.room_logs, run.log.take()) {
            if reason == EndReason::Shutdown {
                // Kept for a restart with the same flags, which takes the match up again (its
                // last records go with the writer's final round when the logs close).
                info!(room = %self.code, dir = %logs.dir().display(), "room log kept: the match resumes when the server starts again");
            } else {
                logs.remove(log);
            }
        }
        let tokens = run.tokens;
        self.report(run, winner, reason, id.clone());
        let over = winner.map(|winner| ServerMessage::MatchOver {
            winner,
            reason,
            replay: id.clone(),
        });
        // No winner and not a shutdown (whose match resumes after a restart): the match is
        // void, and everyone still here is told so.
        let void = (winner.is_none() && reason != EndReason::Shutdown)
            .then_some(ServerMessage::MatchVoid { reason, replay: id });
        if let Some(verdict) = over.as_ref().or(void.as_ref()) {
            self.broadcast(verdict);
            // Players who come back after the end hear the same verdict.
            self.directory.match_ended(tokens, verdict.clone());
        }
        // Players who dropped and never came back have nothing to come back to.
        for seat in Seat::BOTH {
            if self.seats[seat.index()]
                .as_ref()
                .is_some_and(|s| s.conn.is_none())
            {
                self.vacate(seat);
            }
        }
        for slot in self.seats.iter_mut().flatten() {
            slot.ready = false;
        }
        self.broadcast_state();
        over
    }

    /// Hands the match to the database writer (never waits on it).
    pub(super) fn report(
        &self,
        run: Running,
        winner: Option<Seat>,
        reason: EndReason,
        replay: Option<String>,
    ) {
        let Some(db) = &self.services.db else {
            return;
        };
        let outboxes = [0, 1].map(|i| self.seats[i].as_ref().and_then(|s| s.conn.clone()));
        let away = self.seats.iter().flatten().any(|s| s.deadline.is_some());
        let Running {
            sim,
            names,
            started_unix,
            tally,
            ..
        } = run;
        // Summing the rounds plays the match again: on the writer thread, not the room's.
        db.record(move || {
            tally.result(
                &sim,
                &names,
                winner,
                reason,
                replay,
                started_unix,
                outboxes,
                away,
            )
        });
    }

    /// Relays a chat line from a member to everyone in the room who does not block them; a
    /// declared bot's line is marked (`BotChat`).
    pub(super) fn chat(&self, client: ClientId, name: String, text: String) {
        let seat = self.seat_of(client);
        let sender = match seat {
            Some(s) => self.seat_tags[s.index()].clone(),
            None => self.spectators.tags_of(client),
        };
        let Some(sender) = sender else {
            return;
        };
        let seated = Seat::BOTH.into_iter().filter_map(|s| {
            let conn = self.seats[s.index()].as_ref()?.conn.as_ref()?;
            Some((conn, self.seat_tags[s.index()].as_deref()))
        });
        let watching = self.spectators.listeners();
        let line = super::chat::Line {
            from: name,
            seat,
            text,
        };
        super::chat::relay(
            &self.services.metrics,
            &sender,
            line,
            seated.chain(watching),
        );
    }
}
