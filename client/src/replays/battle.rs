//! Playback of a replay of several seats (format version 2): [`BattleReplaySession`] steps the
//! core's `Battle` from every seat's recorded keys and targets, with the same pause, speeds and
//! seeking as the two-seat playback ([`crate::replay_files::ReplaySession`]); [`BattleReplayScreen`]
//! draws every board with the free-for-all view ([`crate::party::view`]), watching from seat 0;
//! C plays on from the frame shown, you in seat 0 and bots in the others
//! ([`PartyScreen::continue_from`]).

use std::rc::Rc;

use macroquad::input::KeyCode;
use sevenbag_core::{Battle, MAX_SEATS, Seat, SeatInput};
use sevenbag_protocol::{BattleReplay, EndReason, SeatLog};

use crate::input::Keyboard;
use crate::layout::party::party_layout;
use crate::match_stats::{MatchStats, timeline};
use crate::party::game::Figures;
use crate::party::screen::PartyScreen;
use crate::party::source::{PartyMatch, Tally};
use crate::party::view::{PartyScene, draw_party};
use crate::render::fx::SeatFx;
use crate::render::gfx::fill;
use crate::render::key_buttons::{KeyChoice, button_row};
use crate::render::theme::{self, alpha};
use crate::replay_files::clock::PlaybackClock;
use crate::replay_files::mmss;
use crate::screen::{Ctx, FrameIo, Screen, Transition};
use crate::stats_screen::StatsScreen;

/// A recorded match of several seats played back.
pub struct BattleReplaySession {
    replay: BattleReplay,
    logs: Vec<SeatLog>,
    game: Box<Battle>,
    /// Figures of the rounds already over.
    tally: Tally,
    /// Frames that can be played: every seat is confirmed below it.
    end: u32,
    clock: PlaybackClock,
    /// The match's statistics: N and P jump between its marks, G opens it.
    stats: Option<Rc<MatchStats>>,
}

impl BattleReplaySession {
    /// Playback of `replay` from frame 0; a header or input list the core refuses is a
    /// sentence.
    pub fn new(replay: BattleReplay) -> Result<BattleReplaySession, String> {
        let game = Battle::new(replay.header).map_err(|e| format!("corrupted replay: {e}"))?;
        let logs = replay
            .seat_logs()
            .map_err(|(seat, e)| format!("corrupted replay: seat {}: {e}", seat + 1))?;
        if logs.len() != game.seats() {
            return Err(format!(
                "corrupted replay: {} input lists for {} seats",
                logs.len(),
                game.seats()
            ));
        }
        let end = logs.iter().map(SeatLog::confirmed).min().unwrap_or(0);
        Ok(BattleReplaySession {
            replay,
            logs,
            game: Box::new(game),
            tally: Tally::default(),
            end,
            clock: PlaybackClock::default(),
            stats: None,
        })
    }

    /// Playback whose N and P jump between the marks of `stats` and whose G opens them.
    pub fn with_stats(mut self, stats: Rc<MatchStats>) -> BattleReplaySession {
        self.stats = Some(stats);
        self
    }

    /// The replay being played.
    #[cfg_attr(not(test), allow(dead_code))] // the tests read it
    pub fn replay(&self) -> &BattleReplay {
        &self.replay
    }

    /// The frame shown.
    pub fn frame(&self) -> u32 {
        self.game.frame().0
    }

    /// The last frame that can be shown.
    #[cfg_attr(not(test), allow(dead_code))] // the tests read it
    pub fn end(&self) -> u32 {
        self.end
    }

    /// Pause and speed.
    #[cfg_attr(not(test), allow(dead_code))] // the tests read it
    pub fn clock(&self) -> &PlaybackClock {
        &self.clock
    }

    /// Pause and speed, to change.
    #[cfg(test)]
    pub fn clock_mut(&mut self) -> &mut PlaybackClock {
        &mut self.clock
    }

    /// Whether every frame has been shown (or the match was decided).
    pub fn finished(&self) -> bool {
        self.frame() >= self.end || self.game.winner().is_some()
    }

    /// Steps one frame; `false` at the end.
    pub fn step(&mut self) -> bool {
        if self.finished() {
            return false;
        }
        let f = self.frame();
        let mut inputs = [SeatInput::NONE; MAX_SEATS];
        for (slot, log) in inputs.iter_mut().zip(&self.logs) {
            *slot = log.get(f).unwrap_or_default();
        }
        self.game.step(&inputs);
        self.tally.observe(&self.game);
        true
    }

    /// Shows frame `frame` (clamped to the playable range), simulating again from frame 0 when
    /// going back.
    pub fn seek(&mut self, frame: u32) {
        let target = frame.min(self.end);
        if target < self.frame() {
            // The header was accepted when the session was made.
            if let Ok(fresh) = Battle::new(self.replay.header) {
                *self.game = fresh;
                self.tally = Tally::default();
            }
        }
        while self.frame() < target && self.step() {}
        self.clock.settle();
    }

    /// Frames to step for `clock_steps` of the 60 Hz clock at the current speed (0 paused).
    pub fn pump(&mut self, clock_steps: u32) -> u32 {
        self.clock.pump(clock_steps)
    }

    /// The playback keys: Space pause, + − speed, ← → seek 5 s, Home restart, N and P the
    /// next and previous mark. Says whether it
    /// jumped (a seek), so the screen clears its effects.
    pub fn sample(&mut self, kb: &Keyboard) -> bool {
        let marks = self
            .stats
            .as_ref()
            .and_then(|s| s.mark_keys(kb, self.frame()));
        let jump = self.clock.keys(kb, self.frame()).or(marks);
        if let Some(frame) = jump {
            self.seek(frame);
        }
        jump.is_some()
    }

    /// The mode line: players, time shown of the whole, speed.
    pub fn title(&self) -> String {
        let state = if self.clock.paused() {
            "PAUSED".to_owned()
        } else {
            format!("{}×", self.clock.speed())
        };
        format!(
            "REPLAY  ·  {} PLAYERS  ·  {}  /  {}  ·  {state}",
            self.logs.len(),
            mmss(self.frame()),
            mmss(self.end)
        )
    }

    /// The keys line, or at the end of a match not decided on the boards, how it ended.
    pub fn status(&self) -> String {
        let r = &self.replay.result;
        if self.frame() >= self.end && self.game.winner().is_none() {
            let how = match r.reason {
                EndReason::Forfeit => "ended by forfeit",
                EndReason::Shutdown => "unfinished: the server stopped",
                EndReason::Abandoned => "no result: nobody came back",
                EndReason::TopOut => "the recording ends here",
            };
            let keys =
                crate::input::taps::hint("Home watch again   ·   Esc back", "Start watches again");
            return format!("{how}   ·   {keys}");
        }
        crate::input::taps::hint(
            "Space pause   ·   + − speed   ·   ← → seek 5 s   ·   Home restart   ·   C play on   ·   Esc back",
            "",
        )
        .to_owned()
    }
}

impl PartyMatch for BattleReplaySession {
    fn battle(&self) -> &Battle {
        &self.game
    }

    fn me(&self) -> Seat {
        Seat::First
    }

    fn watching(&self) -> bool {
        true
    }

    fn figures(&self, seat: Seat) -> Figures {
        self.tally.figures(&self.game, seat)
    }

    fn results_keys(&self) -> &str {
        "Home  watch again   G  stats   Esc  back"
    }

    fn results_buttons(&self) -> Vec<KeyChoice<'static>> {
        vec![
            ("Watch again", KeyCode::Home),
            ("Stats", KeyCode::G),
            ("Back", KeyCode::Escape),
        ]
    }
}

/// A replay of several seats on screen: every board, seat 0 large.
pub struct BattleReplayScreen {
    session: BattleReplaySession,
    /// Every seat's flashes and popups.
    fx: Vec<SeatFx>,
    time: f32,
}

impl BattleReplayScreen {
    /// The screen playing `session` from where it stands.
    pub fn new(session: BattleReplaySession) -> BattleReplayScreen {
        BattleReplayScreen {
            fx: vec![SeatFx::default(); session.logs.len()],
            session,
            time: 0.0,
        }
    }

    fn step(&mut self) -> bool {
        let seats: Vec<Seat> = Seat::all(self.fx.len()).collect();
        for &seat in &seats {
            self.fx[seat.index()].before_step(self.session.game.player(seat));
        }
        let stepped = self.session.step();
        for &seat in &seats {
            self.fx[seat.index()].after_step(self.session.game.player(seat));
        }
        if self.session.game.events().new_round {
            self.fx.iter_mut().for_each(|fx| *fx = SeatFx::default());
        }
        stepped
    }
}

impl Screen for BattleReplayScreen {
    fn update(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Transition {
        self.time += io.dt;
        if io.keyboard.pressed(KeyCode::Escape) {
            return Transition::Pop;
        }
        // C: play on from this frame in the first seat, bots in the others.
        let over = matches!(
            self.session.game.phase(),
            sevenbag_core::Phase::MatchOver { .. }
        );
        if let Some(stats) = &self.session.stats
            && io.keyboard.pressed(KeyCode::G)
        {
            ctx.play(crate::sound::sfx::Sfx::Select);
            return Transition::Push(Box::new(StatsScreen::new(stats.clone())));
        }
        if io.keyboard.pressed(KeyCode::C) && !over {
            ctx.play(crate::sound::sfx::Sfx::Select);
            let practice = PartyScreen::continue_from(*self.session.game, ctx);
            return Transition::Push(Box::new(practice));
        }
        if self.session.sample(&io.keyboard) {
            self.fx.iter_mut().for_each(|fx| *fx = SeatFx::default());
        }
        for _ in 0..self.session.pump(io.steps) {
            if !self.step() {
                break;
            }
        }
        for fx in &mut self.fx {
            fx.advance(io.dt);
        }
        Transition::None
    }

    fn draw(&self, ctx: &Ctx, io: &FrameIo) {
        let l = party_layout(io.width, io.height, self.fx.len());
        let title = self.session.title();
        let status = self.session.status();
        let scene = PartyScene {
            game: &self.session,
            names: &self.session.replay.names,
            title: &title,
            status: &status,
            fx: &self.fx,
            time: self.time,
        };
        draw_party(&ctx.gfx, &l, &scene);
        if let Some(stats) = &self.session.stats {
            let strip = timeline::under_title(l.title, l.own.cell());
            timeline::draw(strip, self.session.frame(), stats.frames, &stats.marks);
        }
        let over = matches!(
            self.session.game.phase(),
            sevenbag_core::Phase::MatchOver { .. }
        );
        if crate::input::taps::shown() && !over {
            let cell = l.own.cell();
            let r = crate::versus::replay_bar::area(io.width, io.height, cell);
            let top = r.y - cell * 0.3;
            fill(
                macroquad::math::Rect::new(0.0, top, io.width, io.height - top),
                alpha(theme::BACKGROUND, 0.96),
            );
            button_row(&ctx.gfx, r, &crate::versus::replay_bar::BUTTONS);
        }
    }

    fn name(&self) -> &'static str {
        "replay-battle"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sevenbag_protocol::replay_file::open;

    const GOLDEN_V2: &[u8] = include_bytes!("../../../crates/protocol/tests/golden/replay_v2.sbrp");

    #[test]
    fn a_battle_replay_plays_seeks_and_ends_on_its_recorded_hashes() {
        let opened = open(GOLDEN_V2).expect("the golden v2 replay opens");
        let replay = opened.replay;
        let mut s = BattleReplaySession::new(replay.clone()).expect("plays");
        assert_eq!(s.battle().seats(), 4);
        assert_eq!(s.pump(60), 60, "1× by default");
        for _ in 0..60 {
            assert!(s.step());
        }
        assert_eq!(s.battle().state_hash(), replay.hashes[0].hash);
        s.seek(240);
        assert_eq!(s.battle().state_hash(), replay.hashes[3].hash);
        s.seek(120);
        assert_eq!(s.battle().state_hash(), replay.hashes[1].hash);
        s.clock_mut().change_speed(2);
        assert_eq!(s.pump(1), 4);
        s.clock_mut().toggle_pause();
        assert!(s.clock().paused());
        assert_eq!(s.pump(10), 0);
        assert!(s.title().contains("4 PLAYERS") && s.title().contains("PAUSED"));
        s.seek(u32::MAX);
        assert!(s.finished() && !s.step());
        assert_eq!(s.frame(), replay.result.frames);
        assert!(s.frame() <= s.end());
        assert_eq!(s.replay(), &replay);
        let winner = s.battle().winner().map(|t| t.index() as u8);
        assert_eq!(winner, replay.result.winner);
        for seat in Seat::all(4) {
            assert_eq!(
                s.figures(seat).place,
                Some(replay.result.placements[seat.index()]),
                "seat {}",
                seat.index()
            );
        }
    }

    /// The game's replay loader (the list, `--replay`, a page's `/replay/ID` and a picked
    /// file all go through it) accepts a replay of several seats: saved like a download,
    /// listed with its players, and opened into the free-for-all playback.
    #[test]
    fn the_replay_loader_accepts_a_battle_replay() {
        use crate::replay_files::{list_described, load_any, open_bytes, save};
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().to_path_buf();
        let path = save(&dir, "1-ACDEF-1-ffa", GOLDEN_V2).expect("a v2 download is kept");
        let listed = list_described(std::slice::from_ref(&dir));
        assert_eq!(listed.len(), 1);
        assert!(
            listed[0].label.starts_with("4 players · dee won · 0:05"),
            "{}",
            listed[0].label
        );
        let opened = load_any(&path).expect("loads");
        assert_eq!((opened.version, opened.seats()), (2, 4));
        let screen = crate::replays::playback(opened, "REPLAY".into()).expect("plays");
        assert_eq!(screen.name(), "replay-battle");
        let picked = open_bytes(None, "ffa.sbrp", GOLDEN_V2).expect("a picked file opens");
        assert_eq!(picked.seats(), 4);
        let v1 = include_bytes!("../../../crates/protocol/tests/golden/replay_v1.sbrp");
        let two = open_bytes(None, "two.sbrp", v1).expect("a two-seat file opens");
        let screen = crate::replays::playback(two, "REPLAY".into()).expect("plays");
        assert_eq!(screen.name(), "play", "two seats keep the versus view");
    }
}
