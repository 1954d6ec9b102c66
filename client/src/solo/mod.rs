//! The solo modes (40 lines, Blitz, Zen) and their screen: pick a mode, play it, see the result
//! against your personal best, retry, and watch the best run or a past one again. The rules are
//! the core's [`Solo`]; this folder holds the rest of the mode:
//!
//! - [`run`] — a run being played ([`SoloRun`]) and [`fx`], its flashes and popups;
//! - [`run_view`] — drawing a run and its result card; `view` — the screen's own drawing;
//! - [`store`] — runs and personal bests on disk; [`upload`] — sending a run to the server;
//! - [`past`] — the list of past runs of a mode;
//! - [`boards`] and [`boards_screen`] — the server's Sprint and Blitz leaderboards (L), with any
//!   record watched from there.
//!
//! Training keys (docs/CLIENT.md): Esc or P pauses (the board is hidden; Esc or P resumes at
//! once, Q leaves), Zen has Backspace undo and Y redo, R resets, and C in a replay being watched
//! continues from that frame in Zen. Each of these keys steps aside to an F key when it is one
//! of your game keys, so a binding never does two jobs.

pub mod boards;
pub mod boards_screen;
pub mod fx;
pub mod past;
pub mod run;
pub mod run_view;
pub mod store;
pub mod upload;

mod view;

use std::path::PathBuf;

use macroquad::input::KeyCode;
use sevenbag_core::{Input, Solo, SoloHeader, SoloMode, SoloResult};
use sevenbag_protocol::SoloReplay;

use crate::drill::{Drill, Verdict};
use crate::input::{KeyMap, free_key};
use crate::layout::list_layout;
use crate::render::fx::MatchFx;
use crate::render::theme;
use crate::screen::{Ctx, FrameIo, Screen, Transition};
use crate::solo::past::{PastEvent, PastList};
use crate::solo::run::SoloRun;
use crate::solo::run_view::{best_text, mode_title};
use crate::solo::store::solo_dir;
use crate::solo::upload::{Status as UploadStatus, Upload};
use crate::sound::sfx::Sfx;

/// The footer's key hints (the layout tests check they fit the smallest window).
pub const FOOTER: &str =
    "↑ ↓ choose   Enter play   F finesse   W watch best   P past runs   L leaderboard   Esc back";

/// A bot's 40-line Sprint (the protocol's golden sample), for `--screen solo-watch`.
pub const SAMPLE: &[u8] =
    include_bytes!("../../../crates/protocol/tests/golden/solo_sprint_v1.sbso");

/// Keys that retry from the result.
const RETRY: [KeyCode; 1] = [KeyCode::R];

/// The key that restarts a run while it is played: R, or F2.
pub fn restart_key(map: &KeyMap) -> KeyCode {
    free_key(map, KeyCode::R, KeyCode::F2)
}

/// The key that undoes the last piece in Zen: Backspace, or F3.
pub fn undo_key(map: &KeyMap) -> KeyCode {
    free_key(map, KeyCode::Backspace, KeyCode::F3)
}

/// The key that redoes an undone piece in Zen: Y, or F4.
pub fn redo_key(map: &KeyMap) -> KeyCode {
    free_key(map, KeyCode::Y, KeyCode::F4)
}

/// The second pause key besides Escape: P, or F5.
fn pause_key(map: &KeyMap) -> KeyCode {
    free_key(map, KeyCode::P, KeyCode::F5)
}

/// A key's name on screen.
pub fn key_text(key: KeyCode) -> String {
    crate::input::keys::key_label(key)
}

/// A run being played.
struct Playing {
    run: SoloRun,
    /// Flashes and popups (seat 0 is the run's board).
    fx: MatchFx,
    /// Paused: the timer stands and the board is hidden.
    paused: bool,
}

/// A finished run and what became of it.
struct Finished {
    run: SoloRun,
    fx: MatchFx,
    result: SoloResult,
    /// The best before this run.
    best: Option<SoloResult>,
    new_best: bool,
    /// Where the replay was saved, or why not.
    saved: String,
    /// The run's replay file, for an upload (ranked runs only).
    upload_bytes: Option<Vec<u8>>,
    /// The upload to the server's leaderboard, once asked for (U).
    upload: Option<Upload>,
}

/// A recorded run played back at 1× (through a [`SoloRun`], so finesse is counted as it goes).
struct Watching {
    run: SoloRun,
    fx: MatchFx,
    masks: Vec<Input>,
    title: String,
}

enum Mode {
    Pick,
    Play(Box<Playing>),
    Result(Box<Finished>),
    Watch(Box<Watching>),
    Past(Box<PastList>),
}

/// The server a run would be uploaded to, as the keys line names it.
fn upload_target(server: &str) -> &str {
    let s = server.trim();
    if s.is_empty() { "the server" } else { s }
}

/// Starts uploading the finished run (once; ranked runs only), identifying with the player key
/// (made now if there is none, as a ranked match does).
fn start_upload(ctx: &mut Ctx, f: &mut Finished) {
    if f.upload.is_some() {
        return;
    }
    let Some(bytes) = f.upload_bytes.clone() else {
        ctx.notify(
            "Only a finished Sprint or Blitz can be uploaded.",
            theme::BAD,
        );
        return;
    };
    let key = crate::identity::default_key_path()
        .ok_or_else(|| "no config directory for the player key".to_owned())
        .and_then(|path| crate::identity::load_or_create(&path));
    match key {
        Ok(key) => {
            let upload = Upload::start(&ctx.config.server, &ctx.config.player_name, key, bytes);
            if let UploadStatus::Failed(text) = upload.status() {
                ctx.notify(text.clone(), theme::BAD);
            }
            f.upload = Some(upload);
        }
        Err(e) => ctx.notify(e, theme::BAD),
    }
}

/// The solo screen.
pub struct SoloScreen {
    mode: Mode,
    selected: usize,
    /// Personal bests by mode (index as [`SoloMode::ALL`]; Zen has none), as loaded.
    bests: [Option<SoloReplay>; 3],
    /// Where runs are saved (`None`: this system has no data directory).
    dir: Option<PathBuf>,
    message: Option<String>,
    /// The finesse training runs are played with (F on the list cycles it).
    drill: Drill,
}

impl Default for SoloScreen {
    fn default() -> Self {
        let mut s = SoloScreen {
            mode: Mode::Pick,
            selected: 0,
            bests: [None, None, None],
            dir: solo_dir(),
            message: None,
            drill: Drill::Off,
        };
        s.load_bests();
        s
    }
}

impl SoloScreen {
    /// Opens straight into watching `replay` (for `--screen solo-watch`).
    pub fn watching(replay: &SoloReplay, title: &str) -> SoloScreen {
        let mut s = SoloScreen::default();
        s.watch(replay, title.to_owned());
        s
    }

    /// Opens straight into a run of `mode` (for `--screen sprint`).
    pub fn playing(mode: SoloMode, ctx: &Ctx) -> SoloScreen {
        let mut s = SoloScreen::default();
        s.start(mode, ctx);
        s
    }

    /// Opens straight into the past runs of `mode` (for `--screen solo-past`).
    pub fn past(mode: SoloMode) -> SoloScreen {
        let mut s = SoloScreen::default();
        if let Some(dir) = &s.dir {
            s.mode = Mode::Past(Box::new(PastList::open(dir, mode)));
        }
        s
    }

    /// Pauses the run being played (for `--screen solo-paused`).
    pub fn pause(&mut self) {
        if let Mode::Play(p) = &mut self.mode {
            p.paused = true;
            p.run.pause();
        }
    }

    fn load_bests(&mut self) {
        let Some(dir) = &self.dir else { return };
        for (i, mode) in SoloMode::ALL.into_iter().enumerate() {
            self.bests[i] = match store::best(dir, mode) {
                Ok(b) => b,
                Err(e) => {
                    self.message = Some(format!("personal best not loaded: {e}"));
                    None
                }
            };
        }
    }

    fn best(&self, mode: SoloMode) -> Option<SoloResult> {
        self.bests[index(mode)].as_ref().map(|r| r.result)
    }

    fn start(&mut self, mode: SoloMode, ctx: &Ctx) {
        let header = SoloHeader {
            handling: ctx.config.handling,
            ..SoloHeader::new(mode, crate::platform::clock::random_seed())
        };
        self.mode = Mode::Play(Box::new(Playing {
            run: SoloRun::new(header, ctx.config.keys),
            fx: MatchFx::default(),
            paused: false,
        }));
    }

    fn watch(&mut self, replay: &SoloReplay, title: String) {
        match replay.masks() {
            Ok(masks) => {
                self.mode = Mode::Watch(Box::new(Watching {
                    run: SoloRun::new(replay.header, KeyMap::empty()),
                    fx: MatchFx::default(),
                    masks,
                    title,
                }));
            }
            Err(e) => self.message = Some(format!("cannot play the replay: {e}")),
        }
    }

    fn watch_best(&mut self, mode: SoloMode) {
        match &self.bests[index(mode)] {
            Some(r) => {
                let title = format!(
                    "{}  ·  YOUR BEST  ·  {}",
                    mode_title(mode),
                    best_text(&r.result)
                );
                let r = r.clone();
                self.watch(&r, title);
            }
            None => self.message = Some(format!("no {} personal best yet", mode.name())),
        }
    }

    /// Saves the finished run and moves to the result.
    fn finish(&mut self, ctx: &mut Ctx, run: SoloRun, fx: MatchFx, result: SoloResult) {
        let mode = result.mode;
        let best = self.best(mode);
        let now = crate::platform::clock::unix_nanos() / 1_000_000_000;
        let recorded = run.replay(&ctx.config.player_name, now);
        let paused = run.was_paused();
        // A paused run is not a record: it is neither uploaded nor a personal best.
        let upload_bytes = recorded
            .as_ref()
            .filter(|r| r.result.ranked() && !paused)
            .and_then(|r| r.encode().ok());
        let (saved, new_best) = match (recorded, &self.dir) {
            (None, _) => ("Zen runs are not saved".to_owned(), false),
            (Some(_), None) => ("no data directory: replay not saved".to_owned(), false),
            (Some(replay), Some(dir)) => match store::save_run(dir, &replay, paused) {
                Ok(s) => {
                    if s.new_best {
                        self.bests[index(mode)] = Some(replay);
                    }
                    let why = if paused {
                        "paused, so not a personal best; "
                    } else {
                        ""
                    };
                    (
                        format!("{why}replay saved to {}", s.path.display()),
                        s.new_best,
                    )
                }
                Err(e) => (format!("replay not saved: {e}"), false),
            },
        };
        ctx.play(if new_best { Sfx::Win } else { Sfx::Lose });
        self.mode = Mode::Result(Box::new(Finished {
            run,
            fx,
            result,
            best,
            new_best,
            saved,
            upload_bytes,
            upload: None,
        }));
    }

    fn update_pick(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Transition {
        let kb = &io.keyboard;
        let n = SoloMode::ALL.len();
        if kb.pressed(KeyCode::Escape) {
            return Transition::Pop;
        }
        if kb.pressed(KeyCode::Up) {
            self.selected = (self.selected + n - 1) % n;
            ctx.play(Sfx::Move);
        }
        if kb.pressed(KeyCode::Down) {
            self.selected = (self.selected + 1) % n;
            ctx.play(Sfx::Move);
        }
        let l = list_layout(io.width, io.height, n);
        let mut chosen = kb.pressed_any(&[KeyCode::Enter, KeyCode::KpEnter, KeyCode::Space]);
        for i in 0..n {
            let r = l.row(i);
            if io.mouse.over(r) {
                if io.mouse.moved {
                    self.selected = i;
                }
                chosen |= io.mouse.clicked;
            }
        }
        let mode = SoloMode::ALL[self.selected];
        if chosen {
            ctx.play(Sfx::Select);
            self.message = None;
            self.start(mode, ctx);
        } else if kb.pressed(KeyCode::F) {
            ctx.play(Sfx::Move);
            self.drill = self.drill.next();
        } else if kb.pressed(KeyCode::W) {
            self.message = None;
            self.watch_best(mode);
        } else if kb.pressed(KeyCode::L) {
            self.message = None;
            let board = crate::solo::boards_screen::SoloBoardsScreen::new(ctx, mode);
            return Transition::Push(Box::new(board));
        } else if kb.pressed(KeyCode::P) {
            self.message = None;
            match &self.dir {
                Some(dir) => self.mode = Mode::Past(Box::new(PastList::open(dir, mode))),
                None => self.message = Some("no data directory: no past runs".to_owned()),
            }
        }
        Transition::None
    }
}

impl Screen for SoloScreen {
    /// Handles the frame.
    fn update(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Transition {
        let kb = &io.keyboard;
        match &mut self.mode {
            Mode::Pick => return self.update_pick(ctx, io),
            Mode::Past(list) => match list.update(ctx, io) {
                PastEvent::None => {}
                PastEvent::Back => self.mode = Mode::Pick,
                PastEvent::Watch(replay, title) => self.watch(&replay, title),
            },
            Mode::Play(p) => {
                let keys = ctx.config.keys;
                let pause = kb.pressed(KeyCode::Escape) || kb.pressed(pause_key(&keys));
                if p.paused {
                    // Resumes at once (no countdown): the board was hidden, and the keys held
                    // through the pause were forgotten.
                    if pause || kb.pressed(KeyCode::Enter) {
                        p.paused = false;
                    } else if kb.pressed(KeyCode::Q) {
                        self.mode = Mode::Pick;
                    } else if kb.pressed(restart_key(&keys)) {
                        let mode = p.run.solo().header().mode;
                        self.start(mode, ctx);
                    }
                    return Transition::None;
                }
                if pause {
                    ctx.play(Sfx::Select);
                    p.paused = true;
                    p.run.pause();
                    return Transition::None;
                }
                let mode = p.run.solo().header().mode;
                if kb.pressed(restart_key(&keys)) {
                    self.start(mode, ctx);
                    return Transition::None;
                }
                if mode == SoloMode::Zen {
                    if kb.pressed(undo_key(&keys)) && p.run.undo() {
                        ctx.play(Sfx::Move);
                    }
                    if kb.pressed(redo_key(&keys)) && p.run.redo() {
                        ctx.play(Sfx::Move);
                    }
                }
                p.run.sample(kb);
                let mut verdict = None;
                for _ in 0..io.steps {
                    let (before, active) = board_and_piece(p.run.solo());
                    let faults = p.run.finesse().faults;
                    p.run.step();
                    fx::after_step(&mut p.fx.seats[0], &before, active, p.run.solo());
                    sound(ctx, p.run.solo());
                    verdict =
                        self.drill
                            .judge(mode == SoloMode::Zen, faults, p.run.finesse().faults);
                    if p.run.result().is_some() || verdict.is_some() {
                        break;
                    }
                }
                p.fx.advance(io.dt);
                if let Some(verdict) = verdict {
                    ctx.notify(verdict.notice(), theme::BAD);
                    match verdict {
                        Verdict::Redo(_) => {
                            p.run.undo();
                        }
                        Verdict::Restart(_) => {
                            self.start(mode, ctx);
                            return Transition::None;
                        }
                    }
                }
                if let Some(result) = p.run.result() {
                    let Mode::Play(p) = std::mem::replace(&mut self.mode, Mode::Pick) else {
                        return Transition::None;
                    };
                    self.finish(ctx, p.run, p.fx, result);
                }
            }
            Mode::Result(f) => {
                let mode = f.result.mode;
                // Zen ends only by topping out: undo takes the fatal piece back and plays on.
                if mode == SoloMode::Zen
                    && kb.pressed(undo_key(&ctx.config.keys))
                    && f.run.undo_depth() > 0
                {
                    let Mode::Result(mut f) = std::mem::replace(&mut self.mode, Mode::Pick) else {
                        return Transition::None;
                    };
                    f.run.undo();
                    self.mode = Mode::Play(Box::new(Playing {
                        run: f.run,
                        fx: MatchFx::default(),
                        paused: false,
                    }));
                    return Transition::None;
                }
                if let Some(upload) = &mut f.upload
                    && upload.poll()
                {
                    let colour = match upload.status() {
                        UploadStatus::Done(_) => theme::GOOD,
                        _ => theme::BAD,
                    };
                    ctx.notify(upload.text(), colour);
                }
                if kb.pressed(KeyCode::U) {
                    start_upload(ctx, f);
                } else if kb.pressed(KeyCode::Escape) {
                    self.mode = Mode::Pick;
                } else if kb.pressed_any(&RETRY) || kb.pressed(KeyCode::Enter) {
                    self.start(mode, ctx);
                } else if kb.pressed(KeyCode::W) {
                    self.watch_best(mode);
                }
            }
            Mode::Watch(w) => {
                if kb.pressed(KeyCode::Escape) {
                    self.mode = Mode::Pick;
                    return Transition::None;
                }
                if kb.pressed(KeyCode::C) && w.run.result().is_none() {
                    // Continue from here: a Zen run from this exact frame.
                    ctx.play(Sfx::Select);
                    let run = SoloRun::continue_from(w.run.solo(), ctx.config.keys);
                    self.mode = Mode::Play(Box::new(Playing {
                        run,
                        fx: MatchFx::default(),
                        paused: false,
                    }));
                    return Transition::None;
                }
                for _ in 0..io.steps {
                    let f = w.run.solo().frame() as usize;
                    let Some(&keys) = w.masks.get(f) else { break };
                    let (before, active) = board_and_piece(w.run.solo());
                    w.run.step_with(keys);
                    fx::after_step(&mut w.fx.seats[0], &before, active, w.run.solo());
                }
                w.fx.advance(io.dt);
            }
        }
        Transition::None
    }

    fn draw(&self, ctx: &Ctx, io: &FrameIo) {
        self.draw_view(ctx, io);
    }

    fn plays_by_touch(&self) -> bool {
        matches!(&self.mode, Mode::Play(p) if !p.paused)
    }

    fn name(&self) -> &'static str {
        "solo"
    }
}

fn index(mode: SoloMode) -> usize {
    SoloMode::ALL.iter().position(|m| *m == mode).unwrap_or(0)
}

fn label(mode: SoloMode) -> &'static str {
    match mode {
        SoloMode::Sprint => "40 lines (Sprint)",
        SoloMode::Blitz => "Blitz (2 minutes)",
        SoloMode::Zen => "Zen (endless)",
    }
}

fn about(mode: SoloMode) -> &'static str {
    match mode {
        SoloMode::Sprint => {
            "Clear 40 lines as fast as you can. Splits every 10 lines are compared with your best run."
        }
        SoloMode::Blitz => {
            "Score as much as you can in two minutes, with guideline scoring: T-spins, back-to-back, combos and perfect clears pay, and gravity rises with the level every 10 lines."
        }
        SoloMode::Zen => {
            "Endless practice at base gravity. Backspace undoes the last piece (as many as you like), Y redoes it, R starts over. Zen runs are not saved."
        }
    }
}

/// The board and falling piece of `solo`, kept before a step for the effects.
fn board_and_piece(solo: &Solo) -> (sevenbag_core::Board, Option<sevenbag_core::Piece>) {
    (*solo.player().board(), solo.player().active())
}

/// Plays the sound of the frame just simulated.
fn sound(ctx: &Ctx, solo: &Solo) {
    for s in crate::render::fx::frame_sounds(solo.events()) {
        ctx.play(s);
    }
    if let Some(left) = solo.countdown_left()
        && left % 60 == 0
        && left > 0
    {
        ctx.play(Sfx::Count);
    }
    if solo.play_frames() == 1 {
        ctx.play(Sfx::Go);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r_restarts_unless_it_is_a_game_key() {
        assert_eq!(restart_key(&KeyMap::guideline()), KeyCode::R);
        // The local left player's map has R as rotate 180°.
        assert_eq!(restart_key(&KeyMap::local_left()), KeyCode::F2);
    }

    #[test]
    fn training_keys_step_aside_for_game_keys() {
        let mut map = KeyMap::guideline();
        assert_eq!(undo_key(&map), KeyCode::Backspace);
        assert_eq!(redo_key(&map), KeyCode::Y);
        assert_eq!(pause_key(&map), KeyCode::P);
        map.bind(crate::input::Action::Hold, 1, KeyCode::Y);
        map.bind(crate::input::Action::Rotate180, 1, KeyCode::P);
        map.bind(crate::input::Action::HardDrop, 1, KeyCode::Backspace);
        assert_eq!(redo_key(&map), KeyCode::F4);
        assert_eq!(pause_key(&map), KeyCode::F5);
        assert_eq!(undo_key(&map), KeyCode::F3);
    }

    #[test]
    fn the_committed_sample_plays_back_as_a_cleared_sprint() {
        let replay = SoloReplay::decode(SAMPLE).expect("the sample decodes");
        let mut run = SoloRun::new(replay.header, KeyMap::empty());
        for keys in replay.masks().expect("masks") {
            run.step_with(keys);
        }
        assert_eq!(run.result(), Some(replay.result));
    }
}
