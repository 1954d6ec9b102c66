//! Who sits where: joining, resuming a seat, leaving and the reconnect grace running out.

use super::*;

impl Room {
    /// Nobody seated, watching, or due back.
    pub(super) fn is_abandoned(&self) -> bool {
        self.seats.iter().all(Option::is_none) && self.spectators.is_empty()
    }

    /// Puts `member` in `seat` with a fresh resume token.
    pub(super) fn seat(&mut self, seat: Seat, member: Member) -> Seat {
        let resume = random_u64();
        self.directory.token_issued(resume, &self.code);
        self.seat_tags[seat.index()] = Some(member.tags.clone());
        self.seats[seat.index()] = Some(SeatSlot {
            name: member.name,
            handling: member.handling,
            resume,
            ready: false,
            conn: Some(member.outbox),
            deadline: None,
            player: member.identity.map(|i| i.id),
        });
        seat
    }

    pub(super) fn vacate(&mut self, seat: Seat) {
        if let Some(slot) = self.seats[seat.index()].take() {
            self.directory.token_dropped(slot.resume);
        }
    }

    pub(super) fn send_joined(&self, seat: Seat) {
        if let Some(slot) = &self.seats[seat.index()]
            && let Some(conn) = &slot.conn
        {
            conn.send(&ServerMessage::Joined {
                code: self.code.clone(),
                seat: Some(seat),
                resume: slot.resume,
                options: self.options,
            });
        }
    }

    pub(super) fn join(&mut self, member: Member, role: JoinRole) -> Result<Option<Seat>, Refusal> {
        match role {
            JoinRole::Player => {
                let free = Seat::BOTH
                    .into_iter()
                    .find(|s| self.seats[s.index()].is_none());
                let Some(seat) = free.filter(|_| self.running.is_none()) else {
                    return Err((
                        ErrorCode::RoomFull,
                        format!(
                            "both seats of room {} are taken; join as a spectator",
                            self.code
                        ),
                    ));
                };
                info!(room = %self.code, client = member.client, ?seat, "player joined");
                self.seat(seat, member);
                self.send_joined(seat);
                self.broadcast_state();
                Ok(Some(seat))
            }
            JoinRole::Spectator => {
                if self.spectators.len() >= self.services.config.limits.max_spectators {
                    return Err(no_spectator_place(&self.code));
                }
                debug!(room = %self.code, client = member.client, "spectator joined");
                member.outbox.send(&ServerMessage::Joined {
                    code: self.code.clone(),
                    seat: None,
                    resume: 0,
                    options: self.options,
                });
                if let Some(run) = &self.running {
                    // The state first, then the log, then live inputs: the room handles one
                    // command at a time, so nothing can be relayed between these.
                    self.spectators
                        .push(member.outbox.clone(), Some(member.tags.clone()));
                    self.broadcast_state();
                    member.outbox.send(&run.log_message(Instant::now()));
                } else {
                    self.spectators.push(member.outbox, Some(member.tags));
                    self.broadcast_state();
                }
                Ok(None)
            }
        }
    }

    pub(super) fn resume(&mut self, token: u64, member: Member) -> Option<Seat> {
        let seat = Seat::BOTH.into_iter().find(|s| {
            self.seats[s.index()]
                .as_ref()
                .is_some_and(|slot| slot.resume == token)
        })?;
        let slot = self.seats[seat.index()].as_mut()?;
        if let Some(old) = slot.conn.take() {
            // The old connection is still open (its drop not noticed yet): the token holder
            // is the player, so the new connection wins.
            old.cut(Cut::error(
                ErrorCode::BadResume,
                "this seat was resumed from another connection",
            ));
        }
        slot.conn = Some(member.outbox.clone());
        slot.deadline = None;
        // A bot's seat stays a bot's whoever takes it back with its token.
        if self.seat_tags[seat.index()]
            .as_ref()
            .is_some_and(|t| t.is_bot())
        {
            member.tags.set_bot(true);
        }
        if let Some(before) = &self.seat_tags[seat.index()] {
            member.tags.keep_skin_of(before);
        }
        self.seat_tags[seat.index()] = Some(member.tags.clone());
        info!(room = %self.code, client = member.client, ?seat, "player resumed");
        self.send_joined(seat);
        self.broadcast_state();
        if let Some(run) = &self.running {
            member.outbox.send(&run.log_message(Instant::now()));
            self.broadcast_except(
                &ServerMessage::SeatStatus {
                    seat,
                    status: SeatStatus::Connected,
                },
                Some(member.client),
            );
        }
        Some(seat)
    }

    /// A member goes: `forfeit` for `LeaveRoom` (a player in a match loses at once), otherwise
    /// the connection dropped (a player in a match gets the reconnect window).
    pub(super) async fn leave(&mut self, client: ClientId, forfeit: bool) {
        if self.spectators.remove(client) {
            self.broadcast_state();
            return;
        }
        let Some(seat) = self.seat_of(client) else {
            return;
        };
        if self.running.is_none() {
            info!(room = %self.code, client, ?seat, "player left");
            self.vacate(seat);
            self.broadcast_state();
            return;
        }
        let window = u64::from(self.options.reconnect_seconds);
        if forfeit || window == 0 {
            info!(room = %self.code, client, ?seat, "player left the match: forfeit");
            self.forfeit(seat).await;
            return;
        }
        let now = Instant::now();
        if let Some(slot) = &mut self.seats[seat.index()] {
            slot.conn = None;
            slot.deadline = Some(now + Duration::from_secs(window));
            info!(room = %self.code, client, ?seat, window, "player dropped; waiting for a reconnect");
            let status = slot.status(now);
            self.broadcast(&ServerMessage::SeatStatus { seat, status });
        }
    }

    /// Reconnect windows that have run out forfeit their seat, unless the opponent is away too:
    /// then the seat has lapsed (shown as forfeited) and the match waits for the opponent's own
    /// window. An opponent who comes back in it wins ([`Room::settle_lapsed`]); if neither
    /// player comes back (a restart longer than the window, both connections lost), the match
    /// has no winner ([`EndReason::Abandoned`]), whoever's seat happens to come first.
    pub(super) async fn expire(&mut self, now: Instant) {
        for seat in Seat::BOTH {
            let due = self.seats[seat.index()]
                .as_ref()
                .and_then(|s| s.deadline)
                .is_some_and(|d| d <= now);
            if !due || self.running.is_none() {
                continue;
            }
            let other = self.seats[seat.other().index()].as_ref();
            let other_away = other.is_some_and(|s| s.conn.is_none());
            if !other_away {
                info!(room = %self.code, ?seat, "reconnect window passed: forfeit");
                self.forfeit(seat).await;
                return;
            }
            if other.is_some_and(|s| s.deadline.is_none_or(|d| d <= now)) {
                info!(room = %self.code, "reconnect windows passed with neither player back: no result");
                self.finish(None, EndReason::Abandoned).await;
                return;
            }
            if let Some(slot) = &mut self.seats[seat.index()] {
                slot.deadline = None;
            }
            info!(room = %self.code, ?seat, "reconnect window passed with the opponent away too: the seat has lapsed");
            self.broadcast(&ServerMessage::SeatStatus {
                seat,
                status: SeatStatus::Forfeited,
            });
        }
    }

    /// A player came back while the opponent's seat had lapsed: the opponent forfeits now.
    pub(super) async fn settle_lapsed(&mut self) {
        if self.running.is_none() {
            return;
        }
        let lapsed = |s: &Option<SeatSlot>| {
            s.as_ref()
                .is_some_and(|s| s.conn.is_none() && s.deadline.is_none())
        };
        for seat in Seat::BOTH {
            let back = self.seats[seat.other().index()]
                .as_ref()
                .is_some_and(|s| s.conn.is_some());
            if lapsed(&self.seats[seat.index()]) && back {
                info!(room = %self.code, ?seat, "the opponent came back: the lapsed seat forfeits");
                self.forfeit(seat).await;
                return;
            }
        }
    }
}
