//! The free-for-all play screen: your keys into your seat, Tab and the number keys choose your
//! target, Esc pauses; after the match, the results table (Enter plays again). A match of two
//! seats is drawn as a versus practice match ([`super::duel`]): a click on its result card
//! plays again too.

use macroquad::input::KeyCode;
use sevenbag_core::{Phase, Seat};

use super::PartySetup;
use super::duel::{PracticeDuel, draw_practice_duel, is_duel};
use super::game::{PartyGame, YOU};
use super::view::{PartyScene, draw_party};
use crate::input::Latch;
use crate::layout::party::party_layout;
use crate::opponent::{AutoPlayer, Opponent, Planning, SeatView};
use crate::render::fx::{SeatFx, count_sound};
use crate::screen::{Ctx, FrameIo, Screen, Transition};
use crate::sound::sfx::Sfx;
use crate::versus::pause_menu::{PauseChoice, draw_pause, update_pause};
use crate::versus::play::rematch_box;

/// The number keys that choose seats 2 to 8 as your target.
const SEAT_KEYS: &[KeyCode] = crate::input::DIGIT_KEYS
    .split_at(sevenbag_core::MAX_SEATS)
    .0
    .split_at(1)
    .1;

/// A free-for-all practice match on screen.
pub struct PartyScreen {
    game: PartyGame,
    names: Vec<String>,
    title: String,
    latch: Latch,
    /// Plays your seat instead of your keys (the `--screen party` capture).
    autopilot: Option<Box<dyn AutoPlayer>>,
    paused: Option<usize>,
    /// Every seat's flashes and popups.
    fx: Vec<SeatFx>,
    /// The countdown number last heard.
    last_count: Option<u32>,
    /// Seconds since "GO!", while the two-seat view shows it.
    go: Option<f32>,
    time: f32,
}

impl PartyScreen {
    /// A running match of `setup` on `seed` (you with your handling and keys from `ctx`).
    pub fn new(setup: &PartySetup, seed: u64, ctx: &Ctx) -> Result<PartyScreen, String> {
        let game = PartyGame::new(setup, seed, ctx.config.handling).map_err(|e| e.to_string())?;
        Ok(PartyScreen::around(game, setup, ctx))
    }

    /// A match of bots only, your seat played by one too, every bot planning on this thread so
    /// a capture of frame N is always the same picture (`--screen party`).
    pub fn watch(setup: &PartySetup, seed: u64, ctx: &Ctx) -> Result<PartyScreen, String> {
        let handling = sevenbag_bot::BOT_HANDLING;
        let game = PartyGame::with_planning(setup, seed, handling, Planning::Inline)
            .map_err(|e| e.to_string())?;
        let mut screen = PartyScreen::around(game, setup, ctx);
        screen.autopilot = Some(Opponent::Bot(setup.level).player_with(seed, Planning::Inline));
        Ok(screen)
    }

    /// Practice from a replay's frame ("continue from here"): you take the first seat, bots the
    /// others, paused until you resume.
    pub fn continue_from(battle: sevenbag_core::Battle, ctx: &Ctx) -> PartyScreen {
        let seats = battle.seats();
        let game = PartyGame::from_battle(battle, PartySetup::default().level);
        let title = format!("FROM A REPLAY  ·  {seats} PLAYERS");
        let mut screen = PartyScreen::with_title(game, title, ctx);
        screen.paused = Some(0);
        screen
    }

    fn around(game: PartyGame, setup: &PartySetup, ctx: &Ctx) -> PartyScreen {
        let level = Opponent::Bot(setup.level).label().to_uppercase();
        let title = if is_duel(setup.seats()) {
            format!("PRACTICE  ·  {level}")
        } else {
            format!(
                "FREE-FOR-ALL PRACTICE  ·  {} PLAYERS  ·  {level}",
                setup.seats()
            )
        };
        PartyScreen::with_title(game, title, ctx)
    }

    /// A screen over `game` titled `title`: you by your name, the others "Bot 2" and on.
    fn with_title(game: PartyGame, title: String, ctx: &Ctx) -> PartyScreen {
        let seats = game.seats();
        let mut names = vec![ctx.config.player_name.clone()];
        names.extend((2..=seats).map(|i| format!("Bot {i}")));
        PartyScreen {
            game,
            names,
            title,
            latch: Latch::default(),
            autopilot: None,
            paused: None,
            fx: vec![SeatFx::default(); seats],
            last_count: None,
            go: None,
            time: 0.0,
        }
    }

    fn status(&self) -> String {
        let b = self.game.battle();
        let manual = b.header().options.targeting == sevenbag_core::Targeting::Manual;
        if !manual {
            let rule = b.header().options.targeting.name();
            return format!(
                "Targeting {rule} picks whom you attack (framed blue)   ·   {}",
                pause_words()
            );
        }
        let target = match self.game.target() {
            Some(t) => format!("your target: {}", self.names[t.index()]),
            None => "no target chosen: your attacks go round in turn".to_owned(),
        };
        format!(
            "{}   ·   {target}   ·   {}",
            crate::input::taps::hint(
                "Tab / 2–8 / a tap choose your target",
                "a tap on a board chooses your target"
            ),
            pause_words()
        )
    }

    /// One frame of the match, with its effects; your board's sounds and the match's go to
    /// `sounds`.
    fn step(&mut self, keys: sevenbag_core::Input, sounds: &mut Vec<Sfx>) {
        let seats: Vec<Seat> = Seat::all(self.game.seats()).collect();
        for &seat in &seats {
            self.fx[seat.index()].before_step(self.game.battle().player(seat));
        }
        self.game.step(keys);
        let b = self.game.battle();
        for &seat in &seats {
            let heard = self.fx[seat.index()].after_step(b.player(seat));
            if seat == YOU {
                sounds.extend(heard);
            }
        }
        count_sound(&mut self.last_count, b.countdown_left(), sounds);
        let events = *b.events();
        if events.go {
            sounds.push(Sfx::Go);
            self.go = Some(0.0);
        }
        if events.knocked_out.contains(YOU) {
            sounds.push(Sfx::Lose);
        }
        if let Some(team) = events.match_over {
            sounds.push(if team == b.team_of(YOU) {
                Sfx::Win
            } else {
                Sfx::Lose
            });
        }
        if events.new_round {
            self.fx.iter_mut().for_each(|fx| *fx = SeatFx::default());
        }
    }

    fn rematch(&mut self) {
        self.game.rematch(crate::platform::clock::random_seed());
        self.fx.iter_mut().for_each(|fx| *fx = SeatFx::default());
        self.last_count = None;
        self.go = None;
    }

    fn update_pause(&mut self, ctx: &mut Ctx, io: &FrameIo, sel: usize) -> Transition {
        self.paused = None;
        self.latch.reset();
        match update_pause(ctx, io, sel) {
            PauseChoice::Stay(sel) => self.paused = Some(sel),
            PauseChoice::Resume => {}
            PauseChoice::Restart => self.rematch(),
            PauseChoice::Leave => return Transition::Pop,
        }
        Transition::None
    }
}

/// How the status line says to pause: Esc, or the back button on a touch screen.
fn pause_words() -> &'static str {
    crate::input::taps::hint("Esc pause", "‹ pause")
}

/// What the screen says in words, for the touch wording test.
#[cfg(test)]
pub fn touch_texts() -> Vec<String> {
    vec![pause_words().to_owned()]
}

impl Screen for PartyScreen {
    fn update(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Transition {
        self.time += io.dt;
        if let Some(sel) = self.paused {
            return self.update_pause(ctx, io, sel);
        }
        let kb = &io.keyboard;
        let over = matches!(self.game.battle().phase(), Phase::MatchOver { .. });
        if kb.pressed(KeyCode::Escape) {
            if over {
                return Transition::Pop;
            }
            self.paused = Some(0);
            return Transition::None;
        }
        let duel = is_duel(self.game.seats());
        let card_clicked = duel && io.mouse.clicked && io.mouse.over(rematch_box(io));
        if over && (kb.pressed_any(&[KeyCode::Enter, KeyCode::KpEnter]) || card_clicked) {
            ctx.play(Sfx::Select);
            self.rematch();
            self.latch.reset();
            return Transition::None;
        }
        if kb.pressed(KeyCode::Tab) {
            let back = kb.down.contains(&KeyCode::LeftShift);
            self.game.cycle_target(if back { -1 } else { 1 });
            ctx.play(Sfx::Move);
        }
        // A click or tap on a board chooses it (with one opponent there is nobody to choose).
        if io.mouse.clicked && !duel {
            let l = party_layout(io.width, io.height, self.game.seats());
            let hit = l.others.iter().position(|m| io.mouse.over(m.slot));
            if let Some(seat) = hit.and_then(|i| Seat::new(i + 1))
                && self.game.choose_target(seat)
            {
                ctx.play(Sfx::Move);
            }
        }
        for (i, key) in SEAT_KEYS.iter().enumerate() {
            if kb.pressed(*key) && Seat::new(i + 1).is_some_and(|s| self.game.choose_target(s)) {
                ctx.play(Sfx::Move);
            }
        }
        self.latch.sample(&ctx.config.keys, kb);
        let mut sounds = Vec::new();
        for _ in 0..io.steps {
            let keys = self.latch.take();
            let keys = match &mut self.autopilot {
                Some(bot) => bot.next_for(SeatView::of_battle(self.game.battle(), YOU)),
                None => keys,
            };
            self.step(keys, &mut sounds);
        }
        for fx in &mut self.fx {
            fx.advance(io.dt);
        }
        self.go = self.go.map(|t| t + io.dt).filter(|&t| t <= 0.8);
        sounds.dedup();
        for s in sounds {
            ctx.play(s);
        }
        Transition::None
    }

    fn draw(&self, ctx: &Ctx, io: &FrameIo) {
        if is_duel(self.game.seats()) {
            let duel = PracticeDuel {
                battle: self.game.battle(),
                fx: &self.fx,
                go: self.go,
                names: &self.names,
                title: &self.title,
                time: self.time,
            };
            draw_practice_duel(ctx, io, &duel);
            if let Some(sel) = self.paused {
                draw_pause(ctx, io, sel);
            }
            return;
        }
        let l = party_layout(io.width, io.height, self.game.seats());
        let status = self.status();
        let scene = PartyScene {
            game: &self.game,
            names: &self.names,
            title: &self.title,
            status: &status,
            fx: &self.fx,
            time: self.time,
        };
        draw_party(&ctx.gfx, &l, &scene);
        if let Some(sel) = self.paused {
            draw_pause(ctx, io, sel);
        }
    }

    fn plays_by_touch(&self) -> bool {
        self.autopilot.is_none()
    }

    fn name(&self) -> &'static str {
        "party"
    }
}
