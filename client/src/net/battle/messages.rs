//! What a [`BattleOnline`] does with each server message, and how a match starts.

use sevenbag_core::{BattleHeader, Seat};
use sevenbag_netplay::battle_links::report_due;
use sevenbag_netplay::time::Instant;
use sevenbag_netplay::{BattleSession, DEFAULT_WINDOW, Pacer, SessionOptions, battle_options};
use sevenbag_protocol::{ClientMessage, ErrorCode, SeatInfo, ServerMessage};

use super::{BattleOnline, BattleResult, BattleStage};
use crate::net::battle_queue::QueueWait;
use crate::net::online::BOT_MARK;
use crate::net::online::reconnect::SEAT_GONE;
use crate::net::online::texts::{error_text, peer_notice};

impl BattleOnline {
    pub(super) fn on_message(&mut self, m: ServerMessage, at: Instant) {
        if self.hear_social(&m) {
            return;
        }
        match m {
            ServerMessage::BattleJoined {
                code,
                seat,
                options,
                resume,
            } => {
                if seat.is_none() {
                    self.watch_instead();
                }
                self.code = Some(code);
                self.seat = seat;
                self.resume = seat.map(|_| resume);
                self.redirects.reset();
                self.room = vec![None; usize::from(options.seats)];
                self.options = Some(options);
                self.stage = BattleStage::InRoom;
            }
            ServerMessage::Redirect { url } => self.follow_redirect(&url),
            ServerMessage::BattleRoomState { seats, spectators } => {
                let me_ready = self
                    .seat
                    .and_then(|s| seats.get(usize::from(s)).cloned().flatten())
                    .is_some_and(|s| s.ready);
                self.ready_sent = me_ready || (self.ready_sent && self.result.is_none());
                let heard = peer_notices(&self.room, &seats, self.seat);
                self.notices.extend(heard);
                self.room = seats;
                self.spectators = spectators;
            }
            ServerMessage::BattleStart {
                header,
                names,
                room_seats,
                start_in_ms,
            } => {
                self.start(*header, names, room_seats, None);
                self.pacer = Some(Pacer::from_match_start(
                    at,
                    start_in_ms,
                    self.clock.rtt(),
                    DEFAULT_WINDOW,
                ));
            }
            ServerMessage::BattleLog {
                header,
                names,
                room_seats,
                changes,
                targets,
                confirmed,
                now_frame,
            } => {
                // A match log ends a reconnect, whatever it holds.
                let resumed = self.reconnect.take().is_some();
                let same = self
                    .session
                    .as_ref()
                    .is_some_and(|s| *s.header() == *header);
                if same && let Some(session) = &mut self.session {
                    if let Err(e) = session.apply_log(&changes, &targets, &confirmed) {
                        self.notices.push(format!("The match log was refused: {e}"));
                    }
                    if resumed {
                        // Paced again from the server's frame: the frozen seconds are gone.
                        let rtt = self.clock.rtt();
                        self.pacer =
                            Some(Pacer::from_now_frame(at, now_frame, rtt, DEFAULT_WINDOW));
                    }
                    return;
                }
                self.start(
                    *header,
                    names,
                    room_seats,
                    Some((changes, targets, confirmed)),
                );
                self.pacer = Some(Pacer::from_now_frame(
                    at,
                    now_frame,
                    self.clock.rtt(),
                    DEFAULT_WINDOW,
                ));
            }
            ServerMessage::BattleInputs { .. }
            | ServerMessage::BattleInputsGathered { .. }
            | ServerMessage::Desync { .. }
            | ServerMessage::BattleDesync { .. }
            | ServerMessage::BattleDesyncBoards { .. } => {
                if let Some(session) = &mut self.session
                    && let Err(e) = session.handle(&m)
                {
                    tracing::warn!("relayed inputs refused: {e}");
                }
            }
            ServerMessage::BattleRoundOver { wins, .. } => self.round_wins = wins,
            ServerMessage::BattleOver {
                winner,
                reason,
                placements,
                replay,
            } => {
                // A result ends a reconnect too: a late return after the match ended hears it.
                self.reconnect = None;
                self.ready_sent = false;
                self.result = Some(BattleResult {
                    winner,
                    reason,
                    placements,
                    replay,
                });
                self.flush();
            }
            ServerMessage::Pong { nonce, server_ms } => {
                self.clock.pong(nonce, server_ms, at);
                if let Some(rtt_ms) = report_due(self.clock.rtt(), self.links.1)
                    && self.seat.is_some()
                {
                    self.send(ClientMessage::LinkReport { rtt_ms });
                    self.links.1 = Some(rtt_ms);
                }
            }
            ServerMessage::BattleLinks { rtt_ms } => self.links.0 = rtt_ms,
            ServerMessage::Replay { id, bytes } => self.replay = Some((id, bytes)),
            ServerMessage::QuickBattleQueue {
                waiting,
                needed,
                most,
                starts_in_ms,
            } if self.code.is_none() => {
                // Queued: the request was served (a later move counts afresh).
                self.redirects.reset();
                let wait = QueueWait::heard(waiting, needed, most, starts_in_ms, at);
                self.stage = BattleStage::Queued(wait);
            }
            ServerMessage::Error {
                code: ErrorCode::BadResume,
                ..
            } if self.reconnect.is_some() => self.give_up(SEAT_GONE),
            ServerMessage::Chat { from, seat, text } => {
                self.chat.hear(from, seat, text, Instant::now());
            }
            ServerMessage::BotChat { from, seat, text } => {
                let from = format!("{from} {BOT_MARK}");
                self.chat.hear(from, seat, text, Instant::now());
            }
            ServerMessage::Error {
                code,
                message,
                fatal,
            } => {
                let text = error_text(code, &message);
                if fatal || self.code.is_none() {
                    self.stage = BattleStage::Failed(text);
                } else {
                    self.notices.push(text);
                }
            }
            ServerMessage::Joined { .. } => {
                self.stage = BattleStage::Failed(
                    "That code is a versus room: join it with Join room by code.".to_owned(),
                );
                self.leave();
            }
            ServerMessage::Shutdown { reason } if self.can_resume() => {
                // A drained server keeps the match's room log and takes it up when it starts
                // again: the connection loss that follows starts the usual reconnect.
                self.notices.push(format!(
                    "The server is restarting ({reason}); reconnecting…"
                ));
            }
            ServerMessage::Shutdown { reason } => {
                self.stage = BattleStage::Failed(format!("The server is shutting down: {reason}."));
            }
            _ => {}
        }
    }

    /// A new match (or a running one joined through its log).
    pub(super) fn start(
        &mut self,
        header: BattleHeader,
        names: Vec<String>,
        room_seats: Vec<u8>,
        log: Option<LogLists>,
    ) {
        self.names = names;
        self.room_seats = room_seats;
        self.result = None;
        self.round_wins.clear();
        self.ready_sent = false;
        self.target = None;
        self.tuner = sevenbag_netplay::DelayTuner::default();
        let local = self.battle_seat().map(Seat::index);
        let options = match local {
            Some(me) => battle_options(self.clock.rtt(), &self.links.0, me, DEFAULT_WINDOW),
            // Spectators predict every seat a little, for a smooth picture.
            None => SessionOptions {
                window: DEFAULT_WINDOW,
                input_delay: 0,
            },
        };
        let made = match log {
            None => BattleSession::new(header, local, options),
            Some((changes, targets, confirmed)) => {
                BattleSession::from_log(header, local, options, &changes, &targets, &confirmed)
            }
        };
        match made {
            Ok(session) => {
                self.session = Some(session);
                self.matches_started += 1;
            }
            Err(e) => self.notices.push(format!("The match could not start: {e}")),
        }
    }
}

/// What we are told of the other seats' connections between two room states (`before`,
/// `after`): a drop and a return, as in a two-seat room; our own seat `me` is not told.
fn peer_notices(
    before: &[Option<SeatInfo>],
    after: &[Option<SeatInfo>],
    me: Option<u8>,
) -> Vec<String> {
    before
        .iter()
        .zip(after)
        .enumerate()
        .filter(|&(seat, _)| me != u8::try_from(seat).ok())
        .filter_map(|(_, pair)| match pair {
            (Some(b), Some(a)) if b.name == a.name => peer_notice(&a.name, b.status, a.status),
            _ => None,
        })
        .collect()
}

/// A match log's per-seat lists: key changes, target changes, confirmed frames.
type LogLists = (
    Vec<Vec<sevenbag_protocol::InputChange>>,
    Vec<Vec<sevenbag_protocol::TargetChange>>,
    Vec<u32>,
);

#[cfg(test)]
mod tests {
    use super::*;
    use sevenbag_protocol::SeatStatus;

    fn seat(name: &str, status: SeatStatus) -> Option<SeatInfo> {
        Some(SeatInfo {
            name: name.to_owned(),
            ready: true,
            status,
        })
    }

    #[test]
    fn another_seat_dropping_and_coming_back_is_told_ours_is_not() {
        let up = SeatStatus::Connected;
        let down = SeatStatus::Reconnecting { seconds_left: 15 };
        let before = [seat("Ann", up), seat("Bea", up)];
        let after = [seat("Ann", down), seat("Bea", down)];
        assert_eq!(
            peer_notices(&before, &after, Some(0)),
            vec!["Bea lost connection: waiting up to 15 s for them.".to_owned()]
        );
        assert_eq!(
            peer_notices(&after, &before, Some(0)),
            vec!["Bea is back.".to_owned()]
        );
        assert_eq!(
            peer_notices(&before, &before, Some(0)),
            Vec::<String>::new()
        );
        assert_eq!(
            peer_notices(&before, &after, None).len(),
            2,
            "a spectator hears both"
        );
    }
}
