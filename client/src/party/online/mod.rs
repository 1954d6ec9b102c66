//! A free-for-all room on a server: its lobby (code, who sits where, ready), the match played
//! (or watched) through netplay's `BattleSession` and drawn by the same view as practice,
//! knock-outs, places and the results table, then a rematch or leaving.
//!
//! Your keys go into your seat; Tab (Shift+Tab back), the number keys 1–8 or a click or tap on
//! a board choose your target, which goes out with your keys (the core uses it under the
//! `manual` rule). During a match Esc asks first (you forfeit); Enter after the match (on a
//! touch screen the results table's Rematch button) readies you for the rematch. T opens the room's chat ([`talk`]); a lost connection is taken back
//! under a banner, and a player back too late to keep the seat watches the rest.

mod after;
pub mod crowd;
mod duel;
#[cfg(test)]
mod handoff_tests;
mod lobby;
mod outage;
mod status;
mod talk;

use after::results_keys;
#[cfg(test)]
pub use status::touch_texts;

use macroquad::input::KeyCode;
use sevenbag_core::{Battle, Phase, Seat};
use sevenbag_netplay::time::Instant;

use super::game::Figures;
use super::source::{PartyMatch, Tally};
use super::view::{PartyScene, draw_party};
use crate::fetched_replay::Wanted;
use crate::input::Latch;
use crate::layout::party::party_layout;
use crate::net::battle::{BattleOnline, BattleStage};
use crate::net::links::Link;
use crate::opponent::{AutoPlayer, Opponent, Planning, SeatView};
use crate::party::follow::Watch;
use crate::render::fx::{SeatFx, count_sound};
use crate::render::key_buttons::KeyChoice;
use crate::render::theme;
use crate::screen::{Ctx, FrameIo, Screen, Transition};
use crate::sound::sfx::Sfx;
use sevenbag_core::Handling;

/// The number keys that choose seats 1 to 8 as your target.
const SEAT_KEYS: &[KeyCode] = crate::input::DIGIT_KEYS
    .split_at(sevenbag_core::MAX_SEATS)
    .0;

/// The room's match as the view sees it: the session's predicted battle, and the figures of
/// past rounds tallied from its confirmed one.
pub struct OnlineParty {
    online: BattleOnline,
    tally: Tally,
    /// The board a spectator sees large (the leader by VS, or one picked).
    watch: Watch,
}

impl OnlineParty {
    /// Live opponents of `me`, in seat order.
    fn live_opponents(&self, me: Seat) -> Vec<Seat> {
        let b = self.online.battle();
        b.alive().without(b.members(b.team_of(me))).iter().collect()
    }
}

impl PartyMatch for OnlineParty {
    fn battle(&self) -> &Battle {
        self.online.battle()
    }

    fn me(&self) -> Seat {
        self.online
            .battle_seat()
            .unwrap_or_else(|| self.watch.shown())
    }

    fn watching(&self) -> bool {
        self.online.battle_seat().is_none()
    }

    fn figures(&self, seat: Seat) -> Figures {
        self.tally.figures(self.online.battle(), seat)
    }

    fn board_skin(&self, seat: Seat) -> crate::match_source::BoardSkin<'_> {
        self.online.board_skin(seat)
    }

    fn results_keys(&self) -> &str {
        if self.watching() {
            "G  stats   Esc  leave the room"
        } else {
            results_keys(self.online.ready_sent(), self.online.came_from_queue())
        }
    }

    fn results_buttons(&self) -> Vec<KeyChoice<'static>> {
        if self.watching() {
            return vec![("Stats", KeyCode::G), ("Leave", KeyCode::Escape)];
        }
        let mut v = if self.online.ready_sent() {
            Vec::new()
        } else {
            vec![
                ("Rematch", KeyCode::Enter),
                ("Save replay", KeyCode::S),
                ("Stats", KeyCode::G),
                ("Copy link", KeyCode::L),
            ]
        };
        if self.online.came_from_queue() {
            v.push(("Requeue", KeyCode::Q));
        }
        v.push(("Leave", KeyCode::Escape));
        v
    }
}

/// The screen.
pub struct PartyOnlineScreen {
    party: OnlineParty,
    latch: Latch,
    /// Plays our seat instead of the keys (the `--screen party-online` capture).
    autopilot: Option<Box<dyn AutoPlayer>>,
    /// "Leave the match? You forfeit." is asked.
    confirm_leave: bool,
    /// The last match's replay was asked for, and what for (saved, or its statistics shown).
    fetching: Option<Wanted>,
    /// Matches seen started (a new one resets the tally).
    matches_seen: u32,
    /// The lobby's selected row.
    lobby_row: usize,
    /// Every seat's flashes and popups.
    fx: Vec<SeatFx>,
    /// The countdown number last heard.
    last_count: Option<u32>,
    /// Seconds since "GO!", while the two-seat view shows it.
    go: Option<f32>,
    /// The other seats' bots and the embedded server of a capture (`--screen party-online`).
    crowd: Option<crowd::Crowd>,
    /// The relay the shown seat's connection runs through (`--screen party-reconnect`).
    outage: Option<outage::Outage>,
    /// The lobby's Invite a friend box, while it is open.
    picker: Option<Box<dyn crate::screen::FriendPicker>>,
    /// The server and beacon of a room this machine hosts on the LAN.
    lan: Option<crate::net::lan::LanHosting>,
    time: f32,
}

impl PartyOnlineScreen {
    /// A screen over `online` (creating a room, or handed over by the two-seat controller).
    pub fn new(online: BattleOnline) -> PartyOnlineScreen {
        PartyOnlineScreen {
            party: OnlineParty {
                online,
                tally: Tally::default(),
                watch: Watch::default(),
            },
            latch: Latch::default(),
            autopilot: None,
            confirm_leave: false,
            fetching: None,
            matches_seen: 0,
            lobby_row: 0,
            fx: Vec::new(),
            last_count: None,
            go: None,
            crowd: None,
            outage: None,
            picker: None,
            lan: None,
            time: 0.0,
        }
    }

    /// The screen of a room this machine hosts on the LAN: shows its address and advertises
    /// it on the network while it waits for players; the server stops with the screen.
    pub fn hosting(mut self, lan: crate::net::lan::LanHosting) -> PartyOnlineScreen {
        self.lan = Some(lan);
        self
    }

    /// The LAN address others type, when this machine hosts the room.
    pub(super) fn lan_address(&self) -> Option<&str> {
        self.lan.as_ref().map(|l| l.address.as_str())
    }

    /// Advertises a hosted room on the LAN while it waits for players.
    fn advertise(&mut self) {
        let o = &self.party.online;
        if let (Some(lan), Some(code), BattleStage::InRoom) = (&mut self.lan, o.code(), o.stage())
            && !o.is_live()
        {
            let host = o.room().first().and_then(Option::as_ref);
            lan.advertise(code, host.map_or("", |s| s.name.as_str()));
        }
    }

    /// A room of `setup`'s seats on a server started here, every seat a bot's, watched as a
    /// spectator: `--screen party-watch`.
    pub fn watch_crowd(setup: &super::PartySetup) -> Result<PartyOnlineScreen, String> {
        let mut crowd = crowd::Crowd::start(setup.seats(), setup.level)?;
        let code = crowd.host(room_options(setup))?;
        let online = BattleOnline::join(
            crowd.addr(),
            "Watcher",
            Handling::default(),
            &code,
            sevenbag_protocol::JoinRole::Spectator,
        );
        let mut screen = PartyOnlineScreen::new(online);
        screen.crowd = Some(crowd);
        Ok(screen)
    }

    /// A room of `setup`'s seats on a server started here, every seat (ours too) played by a
    /// bot through its own connection: `--screen party-online`.
    pub fn crowd(setup: &super::PartySetup, seed: u64) -> Result<PartyOnlineScreen, String> {
        let crowd = crowd::Crowd::start(setup.seats(), setup.level)?;
        Ok(PartyOnlineScreen::among(crowd, setup, seed))
    }

    /// Our bot-played seat creating the room of `setup` on `crowd`'s server.
    fn among(crowd: crowd::Crowd, setup: &super::PartySetup, seed: u64) -> PartyOnlineScreen {
        let options = room_options(setup);
        let online = BattleOnline::create(crowd.addr(), "You (bot)", Handling::default(), options);
        let mut screen = PartyOnlineScreen::new(online);
        screen.autopilot = Some(Opponent::Bot(setup.level).player_with(seed, Planning::Inline));
        screen.crowd = Some(crowd);
        screen
    }

    /// As [`PartyOnlineScreen::crowd`], every other seat's bot wearing a built-in skin it
    /// publishes to the server (`--screen party-skins`): the other boards drawn in their
    /// players' skins.
    pub fn skinned_crowd(
        setup: &super::PartySetup,
        seed: u64,
    ) -> Result<PartyOnlineScreen, String> {
        let crowd = crowd::Crowd::start_in_skins(setup.seats(), setup.level)?;
        Ok(PartyOnlineScreen::among(crowd, setup, seed))
    }

    /// As [`PartyOnlineScreen::crowd`], our connection through a relay that goes down
    /// mid-match for longer than the room's reconnect window, then comes back:
    /// `--screen party-reconnect` (the reconnecting banner, then watching).
    pub fn reconnect_crowd(
        setup: &super::PartySetup,
        seed: u64,
    ) -> Result<PartyOnlineScreen, String> {
        let crowd = crowd::Crowd::start(setup.seats(), setup.level)?;
        let server = crowd.addr().parse().map_err(|e| format!("{e}"))?;
        let outage = outage::Outage::start(server).map_err(|e| format!("relay: {e}"))?;
        let mut options = room_options(setup);
        options.room.reconnect_seconds = outage::WINDOW_SECONDS;
        let online =
            BattleOnline::create(&outage.addr(), "You (bot)", Handling::default(), options);
        let mut screen = PartyOnlineScreen::new(online);
        screen.autopilot = Some(Opponent::Bot(setup.level).player_with(seed, Planning::Inline));
        screen.crowd = Some(crowd);
        screen.outage = Some(outage);
        Ok(screen)
    }

    /// Quick play on a server started here, `others` bots queued beside us (each through its
    /// own connection), our seat played by a bot once the room starts: `--screen party-queue`.
    pub fn queue_crowd(others: usize, seed: u64) -> Result<PartyOnlineScreen, String> {
        let level = sevenbag_bot::Level::Medium;
        let mut crowd = crowd::Crowd::start(others + 1, level)?;
        crowd.queue(others);
        let online = BattleOnline::quick(crowd.addr(), "You (bot)", Handling::default());
        let mut screen = PartyOnlineScreen::new(online);
        screen.autopilot = Some(Opponent::Bot(level).player_with(seed, Planning::Inline));
        screen.crowd = Some(crowd);
        Ok(screen)
    }

    /// The connection and match shown.
    pub fn online(&self) -> &BattleOnline {
        &self.party.online
    }

    fn online_mut(&mut self) -> &mut BattleOnline {
        &mut self.party.online
    }

    /// Whether the boards are up: a match running, or just over and not readied again.
    fn in_match(&self) -> bool {
        let o = self.online();
        !matches!(o.stage(), BattleStage::Failed(_))
            && o.matches_started() > 0
            && (o.is_live() || !o.ready_sent())
    }

    /// Whether leaving now forfeits a match we play.
    fn leaving_forfeits(&self) -> bool {
        let o = self.online();
        o.is_live()
            && o.battle_seat().is_some()
            && !matches!(o.battle().phase(), Phase::MatchOver { .. })
    }

    fn leave(&mut self) -> Transition {
        self.online_mut().leave();
        Transition::Pop
    }

    /// The room's link: the seat's `/room/CODE`, or a spectator's `/watch/CODE`.
    fn room_link(&self) -> Option<Link> {
        let o = self.online();
        let code = o.code()?.to_owned();
        Some(if o.seat().is_some() {
            Link::Room(code)
        } else {
            Link::Watch(code)
        })
    }

    /// Chooses `seat` as our target if it is a live opponent.
    fn choose(&mut self, seat: Seat) -> bool {
        let Some(me) = self.online().battle_seat() else {
            return false;
        };
        let ok = self.party.live_opponents(me).contains(&seat);
        if ok {
            self.online_mut().set_target(Some(seat));
        }
        ok
    }

    /// Moves our target to the next live opponent (`step` 1) or the one before (-1).
    fn cycle_target(&mut self, step: i32) {
        let Some(me) = self.online().battle_seat() else {
            return;
        };
        let live = self.party.live_opponents(me);
        if live.is_empty() {
            return;
        }
        let n = live.len() as i32;
        let at = self
            .online()
            .target()
            .and_then(|t| live.iter().position(|&s| s == t))
            .map_or(if step > 0 { -1 } else { 0 }, |i| i as i32);
        let next = live[(at + step).rem_euclid(n) as usize];
        self.online_mut().set_target(Some(next));
    }

    /// The targeting keys, taps on boards, and a target that went out dropped.
    fn update_target(&mut self, ctx: &mut Ctx, io: &FrameIo) {
        let Some(me) = self.online().battle_seat() else {
            return;
        };
        if let Some(t) = self.online().target()
            && !self.party.live_opponents(me).contains(&t)
        {
            self.online_mut().set_target(None);
        }
        let kb = &io.keyboard;
        if kb.pressed(KeyCode::Tab) {
            let back = kb.down.contains(&KeyCode::LeftShift);
            self.cycle_target(if back { -1 } else { 1 });
            ctx.play(Sfx::Move);
        }
        if io.mouse.clicked {
            let l = party_layout(io.width, io.height, self.online().battle().seats());
            let hit = l.others.iter().position(|m| io.mouse.over(m.slot));
            let seat = hit.and_then(|i| self.party.others().get(i).copied());
            if let Some(seat) = seat
                && self.choose(seat)
            {
                ctx.play(Sfx::Move);
            }
        }
        for (i, key) in SEAT_KEYS.iter().enumerate() {
            if kb.pressed(*key) && Seat::new(i).is_some_and(|s| self.choose(s)) {
                ctx.play(Sfx::Move);
            }
        }
    }

    /// A spectator's keys: Tab (Shift+Tab back), 1–8 or a tap on a small board pick the
    /// board shown large; F, or a tap on the large board, follows the leader by VS again.
    fn update_watch(&mut self, ctx: &mut Ctx, io: &FrameIo) {
        if self.online().battle_seat().is_some() {
            return;
        }
        let seats = self.online().battle().seats();
        let kb = &io.keyboard;
        let before = self.party.watch;
        if kb.pressed(KeyCode::Tab) {
            let back = kb.down.contains(&KeyCode::LeftShift);
            self.party.watch.pick_next(seats, if back { -1 } else { 1 });
        }
        for (i, key) in SEAT_KEYS.iter().enumerate().take(seats) {
            if kb.pressed(*key)
                && let Some(seat) = Seat::new(i)
            {
                self.party.watch = Watch::Picked(seat);
            }
        }
        if kb.pressed(KeyCode::F) {
            self.party.watch.follow_leader();
        }
        if io.mouse.clicked {
            let l = party_layout(io.width, io.height, seats);
            let hit = l.others.iter().position(|m| io.mouse.over(m.slot));
            if let Some(seat) = hit.and_then(|i| self.party.others().get(i).copied()) {
                self.party.watch = Watch::Picked(seat);
            } else if io.mouse.over(l.own.board) {
                self.party.watch.follow_leader();
            }
        }
        if self.party.watch != before {
            ctx.play(Sfx::Move);
        }
    }

    /// Steps every due frame with our keys (or the autopilot's), with every board's effects;
    /// your board's sounds and the countdown's play.
    fn step_due(&mut self, ctx: &Ctx, io: &FrameIo) {
        self.latch.sample(&ctx.config.keys, &io.keyboard);
        if self.autopilot.is_some() {
            crowd::aim(&mut self.party.online);
        }
        let now = Instant::now();
        let latch = &mut self.latch;
        let auto = &mut self.autopilot;
        let online = &mut self.party.online;
        let me = online.battle_seat();
        let counting = self.crowd.is_some();
        let mut sounds = Vec::new();
        while online.frames_due() > 0 {
            let n = online.battle().seats();
            self.fx.resize(n, SeatFx::default());
            for seat in Seat::all(n) {
                self.fx[seat.index()].before_step(online.battle().player(seat));
            }
            let stepped = online.advance(now, &mut |b, seat| match auto {
                Some(bot) => bot.next_for(SeatView::of_battle(b, seat)),
                None => latch.take(),
            });
            if !stepped {
                break;
            }
            if counting {
                crowd::count_frame();
            }
            let b = online.battle();
            for seat in Seat::all(n) {
                let heard = self.fx[seat.index()].after_step(b.player(seat));
                if Some(seat) == me {
                    sounds.extend(heard);
                }
            }
            count_sound(&mut self.last_count, b.countdown_left(), &mut sounds);
            if b.events().go {
                sounds.push(Sfx::Go);
                self.go = Some(0.0);
            }
            if let Some(winner) = b.events().match_over {
                let won = me.is_none_or(|me| b.team_of(me) == winner);
                sounds.push(if won { Sfx::Win } else { Sfx::Lose });
            }
            if b.events().new_round {
                self.fx.iter_mut().for_each(|fx| *fx = SeatFx::default());
            }
        }
        for fx in &mut self.fx {
            fx.advance(io.dt);
        }
        self.go = self.go.map(|t| t + io.dt).filter(|&t| t <= 0.8);
        sounds.dedup();
        for s in sounds {
            ctx.play(s);
        }
        if let Some(s) = self.party.online.session() {
            self.party.tally.observe(s.confirmed());
        }
    }
}

impl Screen for PartyOnlineScreen {
    fn update(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Transition {
        self.time += io.dt;
        if let Some(crowd) = &mut self.crowd {
            crowd.note_result(&self.party.online);
            crowd.drive(self.party.online.code());
            if !self.party.online.is_live() && crowd::full(&self.party.online) {
                self.party.online.ready();
            }
        }
        if let Some(outage) = &mut self.outage {
            outage.drive(self.party.online.is_live());
        }
        self.online_mut().poll(Instant::now());
        self.advertise();
        for n in self.online_mut().take_notices() {
            ctx.notify(n, theme::BAD);
        }
        if let Some(stats) = self.land_fetched_replay(ctx) {
            return Transition::Push(stats);
        }
        // While the chat field has the keyboard, the lobby and the match run without keys.
        let quiet = self.update_chat(ctx, io);
        let io = quiet.as_ref().unwrap_or(io);
        let started = self.online().matches_started();
        if started != self.matches_seen {
            self.matches_seen = started;
            self.party.tally = Tally::default();
            self.fx.clear();
            self.last_count = None;
            self.go = None;
            self.latch.reset();
            self.confirm_leave = false;
        }
        if !self.in_match() {
            return self.update_lobby(ctx, io);
        }
        let kb = &io.keyboard;
        if self.confirm_leave {
            if kb.pressed_any(&[
                KeyCode::Escape,
                KeyCode::Enter,
                KeyCode::KpEnter,
                KeyCode::Y,
            ]) {
                ctx.play(Sfx::Select);
                return self.leave();
            }
            if !kb.pressed.is_empty() {
                self.confirm_leave = false;
            }
        } else if kb.pressed(KeyCode::Escape) {
            if !self.leaving_forfeits() {
                return self.leave();
            }
            ctx.play(Sfx::Move);
            self.confirm_leave = true;
        }
        if self.online().result().is_some()
            && let Some(next) = self.update_after(ctx, io)
        {
            return next;
        }
        // With one opponent there is nobody else to choose.
        if !self.duel() {
            self.update_target(ctx, io);
            self.update_watch(ctx, io);
        }
        self.step_due(ctx, io);
        if self.online().battle_seat().is_none() && !self.duel() {
            let party = &mut self.party;
            party.watch.update(party.online.battle());
        }
        Transition::None
    }

    fn draw(&self, ctx: &Ctx, io: &FrameIo) {
        if !self.in_match() {
            self.draw_lobby(ctx, io);
            return;
        }
        if self.duel() {
            self.draw_duel(ctx, io);
            return;
        }
        let seats = self.online().battle().seats();
        let l = party_layout(io.width, io.height, seats);
        let status = self.status();
        let title = self.title();
        // One effects slot a seat, also before the first frame was stepped.
        let mut fx = self.fx.clone();
        fx.resize(seats.max(fx.len()), SeatFx::default());
        let scene = PartyScene {
            game: &self.party,
            names: self.online().names(),
            title: &title,
            status: &status,
            fx: &fx,
            time: self.time,
        };
        draw_party(&ctx.gfx, &l, &scene);
        self.draw_match_talk(ctx, io, l.title);
    }

    fn plays_by_touch(&self) -> bool {
        self.in_match() && self.online().is_live() && self.online().battle_seat().is_some()
    }

    fn text_fields(&self, _ctx: &Ctx, io: &FrameIo) -> Vec<crate::screen::TextField> {
        self.chat_fields(
            io,
            lobby::rows(self.online(), self.lan_address().is_some()).len(),
        )
    }

    fn field_keys(&self) -> &'static [KeyCode] {
        // R opens the chat field on `/report NAME ` after a two-seat match, as in versus.
        if self.duel() {
            &[KeyCode::T, KeyCode::R]
        } else {
            &[KeyCode::T]
        }
    }

    fn name(&self) -> &'static str {
        "party-online"
    }
}

/// The room a free-for-all form asks for: `setup`'s seats (bots counted as seats for people),
/// targeting, teams by seat, badges and rounds, on the versus rules. The form offers 3 to 8
/// seats; a capture's two make a versus room of the general kind.
pub fn room_options(setup: &super::PartySetup) -> sevenbag_protocol::BattleRoomOptions {
    let seats = setup.seats().clamp(
        sevenbag_protocol::MIN_ROOM_SEATS,
        sevenbag_protocol::MAX_ROOM_SEATS,
    ) as u8;
    let mut options = sevenbag_protocol::BattleRoomOptions::ffa(seats);
    let header = super::PartySetup {
        bots: seats - 1,
        ..*setup
    }
    .header(0, sevenbag_core::Handling::default());
    options.battle = header.options;
    options.room.first_to = setup.first_to.max(1);
    options
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::party::PartySetup;
    use sevenbag_core::Targeting;

    #[test]
    fn the_online_form_makes_a_valid_room_of_its_seats_rule_teams_and_rounds() {
        let setup = PartySetup {
            bots: 5,
            targeting: Targeting::Manual,
            teams: 3,
            badges: false,
            first_to: 2,
            ..PartySetup::default()
        };
        let o = room_options(&setup);
        assert_eq!(o.seats, 6);
        assert_eq!(o.battle.targeting, Targeting::Manual);
        assert!(!o.battle.badges);
        assert_eq!(o.room.first_to, 2);
        let teams = o.battle.teams.expect("teams");
        assert_eq!(&teams[..6], &[0, 1, 2, 0, 1, 2]);
        o.validate().expect("a room the server takes");
        assert_eq!(
            lobby::rules_line(&o),
            "6 seats  ·  targeting manual  ·  3 teams  ·  first to 2"
        );
    }

    #[test]
    fn one_bot_asks_for_a_room_of_two_seats_the_server_takes() {
        let o = room_options(&PartySetup {
            bots: 1,
            ..PartySetup::default()
        });
        assert_eq!(o.seats, 2);
        o.validate().expect("valid");
    }

    #[test]
    fn a_room_of_two_seats_says_versus_and_no_targeting() {
        let mut o = sevenbag_protocol::BattleRoomOptions::ffa(2);
        o.room.first_to = 3;
        assert_eq!(lobby::rules_line(&o), "versus  ·  first to 3");
    }
}
