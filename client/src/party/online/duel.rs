//! A room of two seats drawn as the versus match it is: the versus screen's view
//! ([`crate::versus::match_view`]) over the room's two-seat battle, so the two screens differ
//! in layout only where they differ in seats. Your board large on the left, the opponent
//! beside it, the round, score and first-to between them, the versus round verdicts ("ROUND
//! WON", "TOPPED OUT") and the result card; no targeting words and no target frame (with one
//! opponent every attack goes to them).

use sevenbag_core::{Phase, Seat};
use sevenbag_protocol::{EndReason, SeatStatus};

use super::PartyOnlineScreen;
use crate::input::Keyboard;
use crate::layout::{list_layout, match_layout};
use crate::match_source::{NetStatus, Peer, top_out_verdict, verdict_line};
use crate::net::battle::BattleOnline;
use crate::party::duel::{duel_names, is_duel};
use crate::render::fx::MatchFx;
use crate::render::key_buttons::KeyChoice;
use crate::render::theme;
use crate::render::widgets::modal;
use crate::screen::{Ctx, FrameIo};
use crate::versus::match_view::{
    Duel, OPPONENT_BUTTONS, OPPONENT_LINE, ResultCard, Scene, draw_match, draw_result_card,
};
use crate::versus::online::{CONFIRM_TITLE, confirm_options};
use macroquad::input::KeyCode;

/// The title line, in the versus screen's words: "ONLINE · ROOM CODE", a spectator's
/// "WATCHING · ROOM CODE", a match the queue `queue` made "ONLINE · RANKED MATCH".
pub fn duel_title(code: Option<&str>, spectator: bool, queue: Option<&str>) -> String {
    match queue {
        Some(queue) if !spectator => format!("ONLINE  ·  {queue}"),
        _ => {
            let verb = if spectator { "WATCHING" } else { "ONLINE" };
            format!("{verb}  ·  ROOM {}", code.unwrap_or("—"))
        }
    }
}

/// The result card's first line, its keys line and a touch screen's buttons for them: the
/// verdict of a match decided off the boards, else the versus card's question.
pub fn duel_card(
    verdict: Option<&str>,
    spectator: bool,
    ready: bool,
) -> (String, &'static str, Vec<KeyChoice<'static>>) {
    let leave = ("Leave", KeyCode::Escape);
    let (line1, keys, buttons) = if spectator {
        (
            "MATCH OVER",
            "Waiting for the next match   Esc  leave",
            vec![leave],
        )
    } else if ready {
        (
            "READY",
            "Waiting for your opponent   Esc  leave",
            vec![leave],
        )
    } else {
        (
            "REMATCH?",
            "Enter  ready again   G  stats   S  save replay   L  link   Esc  leave",
            vec![
                ("Ready again", KeyCode::Enter),
                ("Save replay", KeyCode::S),
                ("Stats", KeyCode::G),
                ("Copy link", KeyCode::L),
                leave,
            ],
        )
    };
    (verdict.unwrap_or(line1).to_owned(), keys, buttons)
}

/// The verdict of a match the server ended on the boards (a top-out) when ours stopped short
/// of its end (inputs that never came): the versus words, "ANN WINS  3 – 1", by the server's
/// count of rounds (`wins`, team by team). `None` while the boards may still show the end.
pub fn short_verdict(
    winner: Option<u8>,
    wins: &[u8],
    names: &[String; 2],
    stopped_short: bool,
) -> Option<String> {
    if !stopped_short {
        return None;
    }
    let winner = Seat::new(usize::from(winner?))?;
    let wins = [0, 1].map(|i| wins.get(i).copied().unwrap_or(0));
    Some(top_out_verdict(winner, wins, names))
}

/// How a match of `o` ended where its boards do not say: off the boards (a forfeit,
/// everyone gone, the server's end), or on the server's boards past where ours stopped; in
/// the versus banner's words. `None` while the boards decide it.
fn verdict(o: &BattleOnline) -> Option<String> {
    let r = o.result()?;
    let names = duel_names(o.names());
    if r.reason == EndReason::TopOut {
        let shown = matches!(Duel::phase(o.battle()), Phase::MatchOver { .. });
        let short = o.stopped_short() && !shown;
        return short_verdict(r.winner, &o.round_wins(), &names, short);
    }
    let winner = r.winner.and_then(|t| Seat::new(usize::from(t)));
    Some(verdict_line(r.reason, winner, &names))
}

/// Each seat's connection for the name plates: ours local, the other's as the room says.
fn peers(o: &BattleOnline) -> [Peer; 2] {
    let me = o.battle_seat();
    [Seat::First, Seat::Second].map(|seat| {
        if Some(seat) == me {
            return Peer::Local;
        }
        match o.room_seat_info(seat).map(|info| info.status) {
            Some(SeatStatus::Reconnecting { seconds_left }) => Peer::Reconnecting {
                seconds_left: u32::from(seconds_left),
            },
            Some(SeatStatus::Forfeited) | None => Peer::Left,
            Some(SeatStatus::Connected) => Peer::Connected,
        }
    })
}

/// The readout under the boards: round trip, path, delay, rollbacks and stalls.
fn net_status(o: &BattleOnline) -> NetStatus {
    let stats = o.session().map(|s| s.stats()).unwrap_or_default();
    NetStatus {
        online: Some(o.ping().map(|d| d.as_millis() as u32)),
        path: o.path(),
        rollback_frames: stats.max_rollback_depth,
        delay_frames: o.session().map_or(0, |s| s.options().input_delay),
        stalls: u32::try_from(stats.stall_frames).unwrap_or(u32::MAX),
        peers: peers(o),
        replay: None,
    }
}

/// The opponent of the seat we play, by name (`None` for a spectator).
fn opponent(o: &BattleOnline) -> Option<String> {
    let me = o.battle_seat()?;
    let other = Seat::all(2).find(|&s| s != me)?;
    o.names().get(other.index()).cloned()
}

impl PartyOnlineScreen {
    /// After the match, as on the versus card: A asks the opponent to be friends, R opens the
    /// chat field on `/report NAME ` for the player to say what happened, B blocks the
    /// opponent at once.
    pub(super) fn update_duel_card(&mut self, ctx: &mut Ctx, kb: &Keyboard) {
        let Some(name) = opponent(self.online()) else {
            return;
        };
        if kb.pressed(KeyCode::R) {
            let command = format!("/report {name} ");
            self.online_mut().chat_mut().open_with(&command);
            ctx.notify(
                "Say what happened (first word may be cheating, abuse, name or boosting); Enter sends",
                theme::ACCENT2,
            );
        } else if kb.pressed(KeyCode::B) {
            self.online_mut().block(&name, true);
        } else if kb.pressed(KeyCode::A) {
            self.online_mut().befriend(&name);
        }
    }

    /// Whether this room is drawn as a versus match.
    pub(super) fn duel(&self) -> bool {
        is_duel(self.online().battle().seats())
    }

    /// Draws the match as the versus screen does, with the chat strip, the reconnect banner
    /// and "leave the match?" over it.
    pub(super) fn draw_duel(&self, ctx: &Ctx, io: &FrameIo) {
        let o = self.online();
        let l = match_layout(io.width, io.height);
        let mut fx = MatchFx::default();
        for (slot, seat) in fx.seats.iter_mut().zip(&self.fx) {
            *slot = seat.clone();
        }
        fx.go = self.go;
        let names = duel_names(o.names());
        let me = o.battle_seat();
        let local = [Seat::First, Seat::Second].map(|s| Some(s) == me);
        let net = net_status(o);
        let title = duel_title(o.code(), o.is_spectator() || o.seat_lost(), o.queue_title());
        let verdict = verdict(o);
        let scene = Scene {
            m: o.battle(),
            fx: &fx,
            names: &names,
            net: &net,
            title: &title,
            local,
            skins: [Seat::First, Seat::Second].map(|s| o.board_skin(s)),
            time: self.time,
            verdict: verdict.as_deref(),
            finesse: [None; 2],
        };
        draw_match(&ctx.gfx, &l, &scene);
        if o.result().is_some() && !self.confirm_leave {
            let (line1, keys, buttons) =
                duel_card(verdict.as_deref(), me.is_none(), o.ready_sent());
            let card = ResultCard {
                line1: &line1,
                keys,
                buttons: &buttons,
                extra: me
                    .is_some()
                    .then_some((OPPONENT_LINE, &OPPONENT_BUTTONS[..])),
            };
            draw_result_card(&ctx.gfx, io, &card);
        }
        self.draw_match_talk(ctx, io, l.title);
        if self.confirm_leave {
            let unit = list_layout(io.width, io.height, 1).unit;
            modal(
                &ctx.gfx,
                io.width,
                io.height,
                unit,
                CONFIRM_TITLE,
                &confirm_options(),
                0,
                ctx.time,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_title_names_the_room_without_targeting_words() {
        for spectator in [false, true] {
            let t = duel_title(Some("ABCDE"), spectator, None);
            assert!(t.ends_with("ROOM ABCDE"), "{t}");
            assert!(!t.contains("TARGET") && !t.contains("FREE-FOR-ALL"), "{t}");
        }
        assert_eq!(
            duel_title(Some("ABCDE"), true, None),
            "WATCHING  ·  ROOM ABCDE"
        );
        assert_eq!(
            duel_title(Some("ABCDE"), false, Some("RANKED MATCH")),
            "ONLINE  ·  RANKED MATCH",
            "a queue's match is named by its queue, as the versus screen did"
        );
    }

    #[test]
    fn the_card_asks_for_a_rematch_until_ready_and_shows_an_off_board_verdict() {
        let (line, keys, buttons) = duel_card(None, false, false);
        assert_eq!(line, "REMATCH?");
        assert!(keys.starts_with("Enter"));
        assert_eq!(buttons[0].1, KeyCode::Enter);
        assert_eq!(duel_card(None, false, true).0, "READY");
        assert_eq!(duel_card(None, true, false).0, "MATCH OVER");
        let (line, ..) = duel_card(Some("ANN WINS BY FORFEIT"), false, false);
        assert_eq!(line, "ANN WINS BY FORFEIT");
    }

    #[test]
    fn boards_stopped_short_of_a_top_out_end_get_the_servers_winner_by_rounds() {
        let names = ["Ann".to_owned(), "Bob".to_owned()];
        assert_eq!(
            short_verdict(Some(1), &[1, 3], &names, true).as_deref(),
            Some("BOB WINS  3 – 1")
        );
        // Boards that may still reach the end show it themselves.
        assert_eq!(short_verdict(Some(1), &[1, 3], &names, false), None);
        // A draw has no winner to name.
        assert_eq!(short_verdict(None, &[1, 1], &names, true), None);
    }
}
