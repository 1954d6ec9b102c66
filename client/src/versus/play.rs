//! The match screen: plays or watches any [`MatchSource`] and draws it with the match view.
//!
//! Per frame: hand the keyboard to the session, run the simulation steps the fixed clock says are
//! due (bracketing each with the effects' before/after hooks, since events last one frame), age the
//! effects, then handle pause, rematch and leaving.

use std::rc::Rc;

use macroquad::input::KeyCode;
use sevenbag_core::{Match, MatchHeader, Phase, Seat};

use macroquad::math::Rect;

use crate::config::Config;
use crate::drill::{Drill, Verdict};
use crate::input::taps;
use crate::layout::{match_layout, result_card};
use crate::match_source::MatchSource;
use crate::match_stats::{MatchStats, timeline};
use crate::opponent::Opponent;
use crate::render::fx::MatchFx;
use crate::render::gfx::{Align, Weight, center};
use crate::render::key_buttons::{KeyChoice, button_row};
use crate::render::theme;
use crate::screen::{Ctx, FrameIo, Screen, Transition};
use crate::solo::{key_text, redo_key, restart_key, undo_key};
use crate::sound::sfx::Sfx;
use crate::stats_screen::StatsScreen;
use crate::versus::local_session::{Control, LocalSession};
use crate::versus::match_view::{
    OPPONENT_BUTTONS, OPPONENT_LINE, ResultCard, Scene, draw_match, draw_result_card,
};
use crate::versus::pause_menu::{PauseChoice, draw_pause, update_pause};

/// What kind of match this is (for the title and what Escape does).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayMode {
    /// You against an automatic opponent.
    Practice,
    /// Two people on one keyboard.
    Local,
    /// Two automatic players; restarts by itself.
    Demo,
    /// Played or watched through a server (the online screen wraps this one).
    Online,
    /// A recorded match played back.
    Replay,
}

/// The match screen, over any [`MatchSource`]. A screen that wraps one and needs its concrete
/// session (the online screen needs its [`crate::net::online::Online`]) names the type, so it never
/// downcasts; the others use the default, a boxed `dyn MatchSource`.
pub struct PlayScreen<S: MatchSource + ?Sized = dyn MatchSource> {
    session: Box<S>,
    mode: PlayMode,
    fx: MatchFx,
    names: [String; 2],
    title: String,
    /// The pause menu's selection, while paused.
    paused: Option<usize>,
    /// Seconds since the match ended (demo restarts on its own).
    over_for: f32,
    /// Seconds since the screen opened.
    time: f32,
    /// After an online match from a queue: the result card offers Q, back in the queue.
    requeue: bool,
    /// A replay's statistics: G opens their screen, and the timeline marks their spikes and
    /// top-outs.
    stats: Option<Rc<MatchStats>>,
    /// Practice: what a piece placed with finesse faults brings.
    drill: Drill,
}

impl PlayScreen {
    /// You (left, keyboard) against `opponent` (right), trained by `drill`.
    pub fn practice(
        header: MatchHeader,
        opponent: Opponent,
        config: &Config,
        drill: Drill,
    ) -> PlayScreen {
        let session = LocalSession::new(
            header,
            [
                Control::keys(config.keys),
                Control::Auto(opponent.player(header.seed ^ 0x5EED)),
            ],
        )
        .with_undo();
        let mut screen = Self::new(
            Box::new(session),
            PlayMode::Practice,
            [config.player_name.clone(), opponent.label()],
            format!("PRACTICE  ·  VS {}", opponent.label().to_uppercase()),
        );
        screen.drill = drill;
        screen
    }

    /// "Continue from here": you take the left seat of `m` as it stands, the opponent from the
    /// last practice setup takes the right; it opens paused, so you can get ready.
    pub fn continue_from(m: Match, config: &Config) -> PlayScreen {
        let opponent = Opponent::all(&config.bots)
            .into_iter()
            .find(|o| o.key() == config.setup.opponent)
            .unwrap_or(Opponent::Bot(sevenbag_bot::Level::Medium));
        let seed = m.header().seed;
        let session = LocalSession::from_match(
            m,
            [
                Control::keys(config.keys),
                Control::Auto(opponent.player(seed ^ 0xC0)),
            ],
        )
        .with_undo();
        let mut screen = Self::new(
            Box::new(session),
            PlayMode::Practice,
            [config.player_name.clone(), opponent.label()],
            format!("FROM A REPLAY  ·  VS {}", opponent.label().to_uppercase()),
        );
        screen.paused = Some(0);
        screen
    }

    /// Two people on one keyboard.
    pub fn local(header: MatchHeader, config: &Config) -> PlayScreen {
        let session = LocalSession::new(
            header,
            [
                Control::keys(config.local_left),
                Control::keys(config.local_right),
            ],
        );
        Self::new(
            Box::new(session),
            PlayMode::Local,
            [config.player_name.clone(), "Player 2".to_owned()],
            "LOCAL  ·  2 PLAYERS".to_owned(),
        )
    }

    /// Two automatic players.
    pub fn demo(header: MatchHeader, players: [Opponent; 2]) -> PlayScreen {
        let session = LocalSession::new(
            header,
            [
                Control::Auto(players[0].player(header.seed ^ 0xA)),
                Control::Auto(players[1].player(header.seed ^ 0xB)),
            ],
        );
        Self::new(
            Box::new(session),
            PlayMode::Demo,
            [players[0].label(), players[1].label()],
            "DEMO  ·  ESC FOR THE MENU".to_owned(),
        )
    }
}

impl<S: MatchSource + ?Sized> PlayScreen<S> {
    /// A screen for any session.
    pub fn new(session: Box<S>, mode: PlayMode, names: [String; 2], title: String) -> Self {
        PlayScreen {
            session,
            mode,
            fx: MatchFx::default(),
            names,
            title,
            paused: None,
            over_for: 0.0,
            time: 0.0,
            requeue: false,
            stats: None,
            drill: Drill::Off,
        }
    }

    /// The screen of a replay whose statistics are `stats` (G opens them, the timeline
    /// marks them).
    pub fn with_stats(mut self, stats: Rc<MatchStats>) -> Self {
        self.stats = Some(stats);
        self
    }

    /// Lets the result card of an online match offer Requeue (Q): the screen that owns this
    /// one does it (a queue's connection, quick match or ranked).
    pub fn offer_requeue(&mut self) {
        self.requeue = true;
    }

    /// The session being played.
    pub fn session(&self) -> &S {
        &self.session
    }

    /// The session being played.
    pub fn session_mut(&mut self) -> &mut S {
        &mut self.session
    }

    /// Forgets the effects of the last match (a new online match starts in the same view).
    pub fn reset_fx(&mut self) {
        self.fx = MatchFx::default();
        self.over_for = 0.0;
    }

    fn me(&self) -> Option<Seat> {
        match self.session.local_seats() {
            [true, false] => Some(Seat::First),
            [false, true] => Some(Seat::Second),
            _ => None,
        }
    }

    fn rematch(&mut self) {
        self.session.rematch(crate::platform::clock::random_seed());
        self.fx = MatchFx::default();
        self.over_for = 0.0;
    }

    fn update_pause(&mut self, ctx: &mut Ctx, io: &FrameIo, sel: usize) -> Transition {
        self.paused = None;
        match update_pause(ctx, io, sel) {
            PauseChoice::Stay(sel) => self.paused = Some(sel),
            PauseChoice::Resume => {}
            PauseChoice::Restart => self.rematch(),
            PauseChoice::Leave => return Transition::Pop,
        }
        // Keys held while paused must not count as presses when play resumes.
        self.session.sample(&crate::input::Keyboard::default());
        Transition::None
    }
}

impl<S: MatchSource + ?Sized> PlayScreen<S> {
    /// The result card's first line, its key line, and the buttons a touch screen shows for
    /// those keys.
    fn result_lines<'a>(
        &self,
        replay_verdict: Option<&'a str>,
        ready: bool,
        spectator: bool,
    ) -> (&'a str, &'static str, Vec<KeyChoice<'static>>) {
        let leave = ("Leave", KeyCode::Escape);
        match self.mode {
            PlayMode::Demo => (
                "NEXT DEMO MATCH SOON",
                "Esc  menu",
                vec![("Menu", KeyCode::Escape)],
            ),
            PlayMode::Replay => (
                replay_verdict.unwrap_or("END OF REPLAY"),
                "Enter  watch again   G  stats   ← →  seek   Esc  list",
                vec![
                    ("Watch again", KeyCode::Enter),
                    ("Stats", KeyCode::G),
                    ("−5 s", KeyCode::Left),
                    ("List", KeyCode::Escape),
                ],
            ),
            PlayMode::Online if spectator => (
                "MATCH OVER",
                "Waiting for the next match   Esc  leave",
                vec![leave],
            ),
            PlayMode::Online if ready => (
                "READY",
                "Waiting for your opponent   Esc  leave",
                vec![leave],
            ),
            PlayMode::Online if self.requeue => (
                "REMATCH?",
                "Enter  ready again   Q  requeue   G  stats   S  save replay   L  link   Esc  leave",
                vec![
                    ("Ready again", KeyCode::Enter),
                    ("Requeue", KeyCode::Q),
                    leave,
                ],
            ),
            PlayMode::Online => (
                "REMATCH?",
                "Enter  ready again   G  stats   S  save replay   L  link   Esc  leave",
                vec![("Ready again", KeyCode::Enter), leave],
            ),
            _ => (
                "REMATCH?",
                "Enter  play again      Esc  menu",
                vec![("Play again", KeyCode::Enter), ("Menu", KeyCode::Escape)],
            ),
        }
    }
}

impl<S: MatchSource + ?Sized + 'static> Screen for PlayScreen<S> {
    /// Handles the frame.
    fn update(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Transition {
        self.time += io.dt;
        let kb = &io.keyboard;
        if let Some(sel) = self.paused {
            return self.update_pause(ctx, io, sel);
        }
        let over = matches!(self.session.current().phase(), Phase::MatchOver { .. });
        if kb.pressed(KeyCode::Escape) {
            if self.mode == PlayMode::Demo || over || !self.session.can_pause() {
                return Transition::Pop;
            }
            self.paused = Some(0);
            return Transition::None;
        }
        // Practice: undo, redo and reset (the session says whether it keeps a history).
        if self.session.history().is_some() {
            let keys = &ctx.config.keys;
            let jumped = (kb.pressed(undo_key(keys)) && self.session.undo())
                || (kb.pressed(redo_key(keys)) && self.session.redo());
            if jumped {
                ctx.play(Sfx::Move);
                self.reset_fx();
                return Transition::None;
            }
            if kb.pressed(restart_key(keys)) {
                ctx.play(Sfx::Select);
                self.rematch();
                return Transition::None;
            }
        }
        if let Some(stats) = &self.stats
            && kb.pressed(KeyCode::G)
        {
            ctx.play(Sfx::Select);
            return Transition::Push(Box::new(StatsScreen::new(stats.clone())));
        }
        if self.mode == PlayMode::Replay && kb.pressed(KeyCode::C) && !over {
            ctx.play(Sfx::Select);
            let m = self.session.current().clone();
            let practice = PlayScreen::continue_from(m, &ctx.config);
            return Transition::Push(Box::new(practice));
        }
        if over {
            self.over_for += io.dt;
            let again = kb.pressed_any(&[KeyCode::Enter, KeyCode::KpEnter])
                || (io.mouse.clicked && io.mouse.over(rematch_box(io)));
            if again || (self.mode == PlayMode::Demo && self.over_for > 5.0) {
                ctx.play(Sfx::Select);
                self.rematch();
            }
        }
        // Simulate: the keys of this rendered frame, then each due step.
        self.session.sample(kb);
        let loud = self.session.local_seats();
        let loud = if loud == [false, false] {
            [true, false]
        } else {
            loud
        };
        let me = self.me();
        let mut sounds = Vec::new();
        let steps = self.session.pump(io.steps);
        let mut verdict = None;
        for _ in 0..steps {
            self.fx.before_step(self.session.current());
            let faults = self.session.finesse().map(|c| c.faults);
            if !self.session.step() {
                break;
            }
            self.fx
                .after_step(self.session.current(), loud, me, &mut sounds);
            if let (Some(before), Some(after)) = (faults, self.session.finesse()) {
                let can_undo = self.session.history().is_some();
                verdict = self.drill.judge(can_undo, before, after.faults);
                if verdict.is_some() {
                    break;
                }
            }
        }
        self.fx.advance(io.dt);
        sounds.dedup();
        for s in sounds {
            ctx.play(s);
        }
        if let Some(verdict) = verdict {
            ctx.notify(verdict.notice(), theme::BAD);
            match verdict {
                Verdict::Redo(_) => {
                    self.session.undo();
                    self.reset_fx();
                }
                Verdict::Restart(_) => self.rematch(),
            }
        }
        Transition::None
    }

    /// Draws the screen.
    fn draw(&self, ctx: &Ctx, io: &FrameIo) {
        let gfx = &ctx.gfx;
        // `draw_match` draws the background, with the wells and side boxes cut out of it.
        let l = match_layout(io.width, io.height);
        let m = self.session.current();
        let net = self.session.net();
        let title = self.session.title().unwrap_or_else(|| self.title.clone());
        let names = self.session.names().unwrap_or_else(|| self.names.clone());
        let verdict = self.session.verdict();
        let scene = Scene {
            m,
            fx: &self.fx,
            names: &names,
            net: &net,
            title: &title,
            local: self.session.local_seats(),
            skins: Seat::BOTH.map(|s| self.session.board_skin(s)),
            time: self.time,
            verdict: verdict.as_deref(),
            finesse: Seat::BOTH.map(|s| {
                let mine = self.me() == Some(s);
                self.session.finesse().filter(|_| mine).map(|c| c.faults)
            }),
        };
        draw_match(gfx, &l, &scene);
        if let Some(stats) = &self.stats {
            timeline::draw(
                timeline::under_title(l.title, l.cell),
                m.frame().0,
                stats.frames,
                &stats.marks,
            );
        }
        // A replay that ends by forfeit has no MatchOver on its boards: its verdict takes the
        // prompt's first line (online play draws its own verdict box with the rematch keys).
        let replay_verdict = verdict.as_deref().filter(|_| self.mode == PlayMode::Replay);
        let over_now = matches!(m.phase(), Phase::MatchOver { .. }) || replay_verdict.is_some();
        if over_now && self.paused.is_none() {
            let role = self.session.room_role().unwrap_or_default();
            // After an online match a player may also befriend, report or block the opponent.
            let extra = (self.mode == PlayMode::Online && !role.spectator)
                .then_some((OPPONENT_LINE, &OPPONENT_BUTTONS[..]));
            let (ready, spectator) = (role.ready_sent, role.spectator);
            let (line1, line2, buttons) = self.result_lines(replay_verdict, ready, spectator);
            let card = ResultCard {
                line1,
                keys: line2,
                buttons: &buttons,
                extra,
            };
            draw_result_card(gfx, io, &card);
        }
        if self.mode == PlayMode::Replay && !over_now && self.paused.is_none() && taps::shown() {
            super::replay_bar::draw(gfx, io.width, io.height, l.cell);
        }
        // The keys' line is left out in portrait: the opponent's board sits right under the
        // title there, and a phone has no keys.
        if let Some((undo, redo)) = self.session.history()
            && self.paused.is_none()
            && taps::shown()
        {
            let keys = &ctx.config.keys;
            let (undo, redo) = (format!("Undo ({undo})"), format!("Redo ({redo})"));
            let (w, h) = (l.cell * 12.0, l.cell * 1.1);
            let c = center(l.title);
            // Under the title; in portrait, where the opponent's small board is, over your
            // well (practice undo plays the first seat).
            let y = if crate::layout::is_portrait(io.width, io.height) {
                l.panels[0].board.y.min(l.panels[0].hold.y) - h - l.cell * 0.5
            } else {
                l.title.bottom() + l.cell * 0.1
            };
            let area = Rect::new(c.x - w / 2.0, y, w, h);
            button_row(
                gfx,
                area,
                &[
                    (&undo, undo_key(keys)),
                    (&redo, redo_key(keys)),
                    ("Reset", restart_key(keys)),
                ],
            );
        } else if let Some((undo, redo)) = self.session.history()
            && self.paused.is_none()
            && !crate::layout::is_portrait(io.width, io.height)
        {
            let keys = &ctx.config.keys;
            let hint = format!(
                "{} undo ({undo})   {} redo ({redo})   {} reset   Esc pause",
                key_text(undo_key(keys)),
                key_text(redo_key(keys)),
                key_text(restart_key(keys)),
            );
            // Under the title, over the gap between the title and the wells.
            gfx.text_mid(
                &hint,
                center(l.title).x,
                l.title.bottom() + l.cell * 0.2,
                (l.cell * 0.45).round(),
                Weight::Regular,
                Align::Center,
                theme::TEXT_FAINT,
            );
        }
        if let Some(sel) = self.paused {
            draw_pause(ctx, io, sel);
        }
    }

    fn plays_by_touch(&self) -> bool {
        // Paused and between matches too: the controls keep their strip, so the boards do not
        // jump (the pause menu and the result card take taps above it).
        matches!(
            self.mode,
            PlayMode::Practice | PlayMode::Local | PlayMode::Online
        ) && self.session.local_seats().iter().any(|l| *l)
    }

    fn name(&self) -> &'static str {
        "play"
    }
}

/// Where the rematch prompt goes: between the two wells under the title and the NEXT and HOLD
/// labels ([`result_card`]; the match is over, so nothing is falling there).
pub(crate) fn rematch_box(io: &FrameIo) -> macroquad::math::Rect {
    result_card(&match_layout(io.width, io.height)).card
}
