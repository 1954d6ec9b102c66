//! The match of a room of several seats: its start, every seat's inputs (checked, relayed,
//! simulated), the seats that play on without a player, state hashes and the result.

use sevenbag_core::Input;
use sevenbag_protocol::{
    AnyReplay, BattleReplay, BattleSimEvent, InputChange, TargetChange, check_targets,
};
use tracing::{debug, warn};

use super::*;
use crate::refusal::{random_u64, unready_for_drain};

/// A seat without a player is confirmed this many frames past the furthest seat, so it is
/// never the one the others wait for.
const GONE_LEAD: u32 = 120;
/// Most frames one batch for a seat without a player covers (two changes per drop: well
/// within a message's change limit).
const GONE_BATCH: u32 = 240;
/// A seat without a player hard-drops every this many frames.
const GONE_DROP_EVERY: u32 = 4;

impl BattleRoom {
    /// Starts a match when every seated player is ready and connected, at least two sit, and
    /// (in a team room) every seat is taken.
    pub(super) fn maybe_start(&mut self) {
        if self.running.is_some() {
            return;
        }
        let seated: Vec<usize> = (0..self.seats.len())
            .filter(|&s| self.seats[s].is_some())
            .collect();
        let all_ready = self
            .seats
            .iter()
            .flatten()
            .all(|s| s.ready && s.conn.is_some());
        let teams_full = self.options.battle.teams.is_none() || seated.len() == self.seats.len();
        if seated.len() < 2 || !all_ready || !teams_full {
            return;
        }
        if self.services.draining.is_draining() {
            let seats = self.seats.iter_mut().flatten();
            unready_for_drain(seats.map(|s| (&mut s.ready, s.conn.as_ref())));
            self.broadcast_state();
            return;
        }
        let slots: Vec<&Slot> = self.seats.iter().flatten().collect();
        let handling: Vec<Handling> = slots.iter().map(|s| s.handling).collect();
        let header = self.options.header(random_u64(), &handling, self.rules);
        let sim = match BattleSim::new(header) {
            Ok(sim) => sim,
            Err(e) => {
                warn!(room = %self.code, error = %e, "cannot start a match of several seats");
                return;
            }
        };
        let names: Vec<String> = slots.iter().map(|s| s.name.clone()).collect();
        let tokens: Vec<u64> = slots.iter().map(|s| s.resume).collect();
        let rtt_ms: Vec<u16> = slots.iter().map(|s| s.rtt_ms).collect();
        let players: Vec<_> = slots.iter().map(|s| s.player).collect();
        let room_seats: Vec<u8> = seated.iter().map(|&s| s as u8).collect();
        let delay = self.services.config.start_delay;
        let start_in_ms = delay.as_millis().min(u128::from(u32::MAX)) as u32;
        for slot in self.seats.iter_mut().flatten() {
            slot.ready = false;
        }
        self.ready_deadline = None;
        info!(room = %self.code, seed = header.seed, seats = names.len(), "match of several seats started");
        self.services.metrics.matches_started.inc();
        // Every seat's link first: each client picks its input delay from the worst.
        self.broadcast(&ServerMessage::BattleLinks { rtt_ms });
        self.broadcast(&ServerMessage::BattleStart {
            header: Box::new(header),
            names: names.clone(),
            room_seats: room_seats.clone(),
            start_in_ms,
        });
        let n = names.len();
        let log = self
            .services
            .room_logs
            .as_ref()
            .filter(|_| self.options.room.reconnect_seconds > 0)
            .map(|logs| {
                logs.begin_battle(
                    crate::durable::BattleOpen {
                        code: self.code.clone(),
                        options: self.options,
                        header,
                        names: names.clone(),
                        room_seats: room_seats.clone(),
                        tokens,
                        started_unix: super::super::unix_now(),
                        frame0_unix_ms: super::super::unix_now_ms()
                            .saturating_add(u64::from(start_in_ms)),
                        matches: self.matches,
                        accounts: players.iter().map(|p| p.map(|id| id.0)).collect(),
                        policy: self.policy,
                    },
                    true,
                )
            });
        self.peers_new_match(n);
        self.running = Some(Running {
            sim,
            names,
            room_seats,
            frame0: Instant::now() + delay,
            started_unix: super::super::unix_now(),
            desync_answered: vec![0; n],
            last_inputs: vec![Instant::now() + delay; n],
            gone: vec![false; n],
            warned: vec![None; n],
            desynced: false,
            log,
            players,
            _live: GaugeGuard::new(&self.services.metrics.matches_running),
        });
    }

    /// A batch from a member: checked (a spectator, too many changes, frames past the clock,
    /// a target that is not an opponent, a broken log: cut with the reason), then taken. With
    /// `from` (a datagram's window or a `BattleInputsFrom`) it may repeat what the room holds:
    /// only the part past it is taken, and one starting past it is dropped (a gap).
    pub(super) async fn inputs(
        &mut self,
        client: ClientId,
        from: Option<u32>,
        mut changes: Vec<InputChange>,
        mut targets: Vec<TargetChange>,
        confirmed: u32,
    ) {
        let Some(seat) = self.seat_of(client) else {
            self.cut(
                client,
                ErrorCode::BadInput,
                "spectators may not send inputs",
            );
            return;
        };
        let Some(run) = &self.running else {
            return;
        };
        let Some(b) = run.battle_seat(seat) else {
            self.cut(
                client,
                ErrorCode::BadInput,
                "inputs from a seat that does not play this match",
            );
            return;
        };
        let limits = &self.services.config.limits;
        let most = limits.max_changes_per_message;
        if changes.len() > most || targets.len() > most {
            let why = format!("more than {most} changes in one message");
            self.cut(client, ErrorCode::BadInput, why);
            return;
        }
        let clock = run.clock_frame(Instant::now());
        if confirmed > clock.saturating_add(limits.max_frames_ahead) {
            let why = format!(
                "inputs confirmed through frame {confirmed}, but the match clock is at frame {clock}"
            );
            self.cut(client, ErrorCode::BadInput, why);
            return;
        }
        if let Err(e) = check_targets(run.sim.game().header(), b as u8, &targets) {
            warn!(room = %self.code, seat, error = %e, "a lying target");
            self.cut(client, ErrorCode::BadInput, format!("bad target: {e}"));
            return;
        }
        if let Some(from) = from {
            let have = run.sim.log(b).map_or(0, |l| l.confirmed());
            if confirmed <= have {
                return;
            }
            if from > have {
                self.services.metrics.datagram_dropped("gap");
                return;
            }
            changes.retain(|c| c.frame >= have);
            targets.retain(|t| t.frame >= have);
        }
        self.take(b, changes, targets, confirmed, Some(client))
            .await;
    }

    /// Appends a checked batch of battle seat `b`, relays it to everyone else, and moves the
    /// simulation on. `from`: the sender, cut if its log refuses the batch.
    async fn take(
        &mut self,
        b: usize,
        changes: Vec<InputChange>,
        targets: Vec<TargetChange>,
        confirmed: u32,
        from: Option<ClientId>,
    ) {
        let Some(run) = &mut self.running else {
            return;
        };
        let base = run.sim.log(b).map_or(0, |l| l.confirmed());
        if let Err(e) = run.sim.extend(b, &changes, &targets, confirmed) {
            if let Some(client) = from {
                self.cut(client, ErrorCode::BadInput, format!("bad inputs: {e}"));
            }
            return;
        }
        if from.is_some() {
            run.last_inputs[b] = Instant::now();
        }
        if let Some(log) = &mut run.log {
            log.battle_inputs(b as u8, &changes, &targets, confirmed);
        }
        self.gather(b, base, &changes, &targets, confirmed);
        let Some(run) = &mut self.running else {
            return;
        };
        let events = run.sim.advance();
        if !events.is_empty() {
            // The inputs that ended a round go out before its result.
            self.flush_inputs();
        }
        for event in events {
            match event {
                BattleSimEvent::RoundOver(r) => {
                    debug!(room = %self.code, round = r.round, winner = ?r.winner, "round over");
                    self.broadcast(&ServerMessage::BattleRoundOver {
                        round: r.round,
                        winner: r.winner,
                        wins: r.wins,
                        placements: r.placements,
                        frame: r.frame,
                    });
                }
                BattleSimEvent::MatchOver { winner, .. } => {
                    self.finish(Some(winner), EndReason::TopOut).await;
                    return;
                }
            }
        }
        if from.is_some() {
            Box::pin(self.play_for_the_gone()).await;
        }
    }

    /// Confirms frames for every seat whose player is gone, [`GONE_LEAD`] frames past the
    /// furthest seat, whenever it falls within half of that: a hard drop every
    /// [`GONE_DROP_EVERY`] frames and no target, so the seat tops out on its board within a
    /// couple of seconds (its forfeit, decided on the boards like any knock-out).
    pub(super) async fn play_for_the_gone(&mut self) {
        let Some(run) = &self.running else {
            return;
        };
        let n = run.names.len();
        let confirmed = |b: usize| run.sim.log(b).map_or(0, |l| l.confirmed());
        let furthest = (0..n).map(confirmed).max().unwrap_or(0);
        let clock = run.clock_frame(Instant::now());
        let target = furthest.max(clock).saturating_add(GONE_LEAD);
        let mut batches = Vec::new();
        for b in (0..n).filter(|&b| run.gone[b]) {
            let have = confirmed(b);
            if have + GONE_LEAD / 2 > target {
                continue;
            }
            let last = run.sim.log(b).map(|l| l.last()).unwrap_or_default();
            let upto = target.min(have + GONE_BATCH);
            let mut keys = Vec::new();
            let mut held = last.keys;
            for frame in have..upto {
                let want = if frame.is_multiple_of(GONE_DROP_EVERY) {
                    Input::HARD_DROP
                } else {
                    Input::NONE
                };
                if want != held {
                    keys.push(InputChange { frame, input: want });
                    held = want;
                }
            }
            let targets: Vec<TargetChange> = last
                .target
                .map(|_| TargetChange {
                    frame: have,
                    target: None,
                })
                .into_iter()
                .collect();
            batches.push((b, keys, targets, upto));
        }
        for (b, keys, targets, upto) in batches {
            if self.running.is_none() {
                return;
            }
            self.take(b, keys, targets, upto, None).await;
        }
    }

    /// Compares a member's hash at `frame` with the server's. With each seat's board hash
    /// (`BattleStateHash`, `boards`), a mismatch names the battle seats whose boards diverged,
    /// in the log, the metrics and the `BattleDesync` sent back; after a `BattleHash` the
    /// member is sent the server's board hashes (`BattleDesyncBoards`) to name them itself.
    /// Either way the member gets the whole match log to rebuild from, as in a two-seat room.
    pub(super) fn state_hash(
        &mut self,
        client: ClientId,
        frame: u32,
        hash: u64,
        report: HashReport,
    ) {
        let Some(seat) = self.seat_of(client) else {
            return;
        };
        let Some(run) = &mut self.running else {
            return;
        };
        let Some(b) = run.battle_seat(seat) else {
            return;
        };
        let Some(server_hash) = run.sim.hash_at(frame) else {
            return;
        };
        let diverged = match &report {
            HashReport::Boards(boards) => run.sim.diverged_seats(frame, boards),
            HashReport::Whole | HashReport::Compact => None,
        }
        .unwrap_or_default();
        if (server_hash == hash && diverged.is_empty()) || frame <= run.desync_answered[b] {
            return;
        }
        let names: Vec<&str> = diverged
            .iter()
            .filter_map(|&d| run.names.get(usize::from(d)).map(String::as_str))
            .collect();
        warn!(
            room = %self.code,
            seat,
            frame,
            diverged_seats = ?diverged,
            diverged_players = ?names,
            server_hash = format_args!("{server_hash:#018x}"),
            client_hash = format_args!("{hash:#018x}"),
            "desync"
        );
        run.desync_answered[b] = frame;
        run.desynced = true;
        self.services.metrics.desyncs.inc();
        for &d in &diverged {
            self.services.metrics.battle_desync_seat(d);
        }
        if let Some(conn) = self.seats[seat].as_ref().and_then(|s| s.conn.as_ref()) {
            match report {
                HashReport::Boards(_) => conn.send(&ServerMessage::BattleDesync {
                    frame,
                    server_hash,
                    your_hash: hash,
                    seats: diverged,
                }),
                HashReport::Compact => conn.send(&ServerMessage::BattleDesyncBoards {
                    frame,
                    server_hash,
                    your_hash: hash,
                    boards: run.sim.seat_hashes_at(frame).unwrap_or_default().to_vec(),
                }),
                HashReport::Whole => conn.send(&ServerMessage::Desync {
                    frame,
                    server_hash,
                    your_hash: hash,
                }),
            };
            conn.send(&run.log_message(Instant::now()));
        }
    }

    /// Ends the running match: saves its replay (format version 2), tells the room the result
    /// (unless the server is shutting down), and waits for `Ready` again.
    pub(super) async fn finish(&mut self, winner: Option<u8>, reason: EndReason) {
        // Players on datagrams get what they lack of the match reliably, before its result.
        self.catch_up_everyone();
        let Some(mut run) = self.running.take() else {
            return;
        };
        self.matches += 1;
        self.services.metrics.matches_finished.inc();
        let placements = match (reason, winner) {
            // Decided off the boards: the side that stayed is first, the other second.
            (EndReason::Forfeit, Some(team)) => {
                let game = run.sim.game();
                Seat::all(game.seats())
                    .map(|s| {
                        if game.team_of(s).index() == usize::from(team) {
                            1
                        } else {
                            2
                        }
                    })
                    .collect()
            }
            _ => run.sim.placements(),
        };
        let replay = BattleReplay::record(
            &run.sim,
            run.names.clone(),
            winner,
            reason,
            placements.clone(),
            super::super::unix_now(),
        );
        // A two-seat match is a versus match: named as one (`-ranked` when rated), so the
        // list tells ranked replays apart.
        let kind = match (self.policy.rated, run.names.len()) {
            (true, _) => "-ranked",
            (false, 2) => "",
            _ => "-ffa",
        };
        let base = format!("{}-{}-{}{kind}", run.started_unix, self.code, self.matches);
        let id = self
            .services
            .replays
            .save_any(&base, &AnyReplay::Battle(Box::new(replay)))
            .await;
        info!(room = %self.code, ?winner, ?reason, frames = run.sim.frame(), replay = ?id, "match of several seats over");
        let mut resumes = false;
        if let (Some(logs), Some(log)) = (&self.services.room_logs, run.log.take()) {
            if reason == EndReason::Shutdown {
                // Kept: a restart with the same flags takes the match up again (its last
                // records go with the writer's final round when the logs close).
                resumes = true;
            } else {
                logs.remove(log);
            }
        }
        // Stored once: a match that resumes after a restart is stored when it ends there.
        if !resumes {
            self.report(&run, winner, reason, id.clone());
        }
        if reason != EndReason::Shutdown {
            let over = ServerMessage::BattleOver {
                winner,
                reason,
                placements,
                replay: id,
            };
            self.broadcast(&over);
            self.last_over = Some(over);
        }
        for seat in 0..self.seats.len() {
            if self.seats[seat].as_ref().is_some_and(|s| s.conn.is_none()) {
                self.lose(seat);
            }
        }
        for slot in self.seats.iter_mut().flatten() {
            slot.ready = false;
        }
        self.broadcast_state();
    }
}
