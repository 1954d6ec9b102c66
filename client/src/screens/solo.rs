//! The solo screen: pick 40 lines, Blitz or Zen, play it, see the result against your personal
//! best, retry, and watch the best run again. The rules are the core's [`Solo`]; the run's
//! bookkeeping is [`SoloRun`]; files are [`crate::solo_store`]; drawing is [`crate::solo_view`].

use std::path::PathBuf;

use macroquad::input::KeyCode;
use sevenbag_core::{Input, Solo, SoloHeader, SoloMode, SoloResult};
use sevenbag_protocol::SoloReplay;

use crate::fx::MatchFx;
use crate::input::KeyMap;
use crate::layout::list_layout;
use crate::render::gfx::{Align, Weight, background};
use crate::render::theme;
use crate::render::widgets::{RowState, footer, heading, menu_row, side_panel};
use crate::screen::{Ctx, FrameIo, Transition};
use crate::sfx::Sfx;
use crate::solo_fx;
use crate::solo_run::SoloRun;
use crate::solo_store::{self, solo_dir};
use crate::solo_upload::{Status as UploadStatus, Upload};
use crate::solo_view::{
    ResultCard, SoloLayout, best_text, draw_hint, draw_result, draw_run, live_rows, mode_title,
};

/// The footer's key hints (the layout tests check they fit the smallest window).
pub const FOOTER: &str = "↑ ↓ choose   Enter play   W watch best   Esc back";

/// A bot's 40-line Sprint (the protocol's golden sample), for `--screen solo-watch`.
pub const SAMPLE: &[u8] =
    include_bytes!("../../../crates/protocol/tests/golden/solo_sprint_v1.sbso");

/// Keys that retry from the result.
const RETRY: [KeyCode; 1] = [KeyCode::R];
/// Keys that undo the last piece in Zen.
const UNDO: [KeyCode; 1] = [KeyCode::Backspace];

/// The key that restarts a run while it is played: R, unless R is one of your game keys (then
/// F2, so a bound R never throws a run away).
fn restart_key(map: &KeyMap) -> KeyCode {
    let r: std::collections::HashSet<KeyCode> = [KeyCode::R].into_iter().collect();
    if map.mask(&r).is_empty() {
        KeyCode::R
    } else {
        KeyCode::F2
    }
}

/// A run being played.
struct Playing {
    run: SoloRun,
    /// Flashes and popups (seat 0 is the run's board).
    fx: MatchFx,
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
}

impl Default for SoloScreen {
    fn default() -> Self {
        let mut s = SoloScreen {
            mode: Mode::Pick,
            selected: 0,
            bests: [None, None, None],
            dir: solo_dir(),
            message: None,
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

    fn load_bests(&mut self) {
        let Some(dir) = &self.dir else { return };
        for (i, mode) in SoloMode::ALL.into_iter().enumerate() {
            self.bests[i] = match solo_store::best(dir, mode) {
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
            ..SoloHeader::new(mode, crate::random_seed())
        };
        self.mode = Mode::Play(Box::new(Playing {
            run: SoloRun::new(header, ctx.config.keys),
            fx: MatchFx::default(),
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
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let recorded = run.replay(&ctx.config.player_name, now);
        let upload_bytes = recorded
            .as_ref()
            .filter(|r| r.result.ranked())
            .and_then(|r| r.encode().ok());
        let (saved, new_best) = match (recorded, &self.dir) {
            (None, _) => ("Zen runs are not saved".to_owned(), false),
            (Some(_), None) => ("no data directory: replay not saved".to_owned(), false),
            (Some(replay), Some(dir)) => match solo_store::save_run(dir, &replay) {
                Ok(s) => {
                    if s.new_best {
                        self.bests[index(mode)] = Some(replay);
                    }
                    (format!("replay saved to {}", s.path.display()), s.new_best)
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

    /// Handles the frame.
    pub fn update(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Transition {
        let kb = &io.keyboard;
        match &mut self.mode {
            Mode::Pick => return self.update_pick(ctx, io),
            Mode::Play(p) => {
                if kb.pressed(KeyCode::Escape) {
                    self.mode = Mode::Pick;
                    return Transition::None;
                }
                let mode = p.run.solo().header().mode;
                if kb.pressed(restart_key(&ctx.config.keys)) {
                    self.start(mode, ctx);
                    return Transition::None;
                }
                if mode == SoloMode::Zen && kb.pressed_any(&UNDO) && p.run.undo() {
                    ctx.play(Sfx::Move);
                }
                p.run.sample(kb);
                for _ in 0..io.steps {
                    let (before, active) = board_and_piece(p.run.solo());
                    p.run.step();
                    solo_fx::after_step(&mut p.fx.seats[0], &before, active, p.run.solo());
                    sound(ctx, p.run.solo());
                    if p.run.result().is_some() {
                        break;
                    }
                }
                p.fx.advance(io.dt);
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
                if mode == SoloMode::Zen && kb.pressed_any(&UNDO) && f.run.undo_depth() > 0 {
                    let Mode::Result(mut f) = std::mem::replace(&mut self.mode, Mode::Pick) else {
                        return Transition::None;
                    };
                    f.run.undo();
                    self.mode = Mode::Play(Box::new(Playing {
                        run: f.run,
                        fx: MatchFx::default(),
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
                for _ in 0..io.steps {
                    let f = w.run.solo().frame() as usize;
                    let Some(&keys) = w.masks.get(f) else { break };
                    let (before, active) = board_and_piece(w.run.solo());
                    w.run.step_with(keys);
                    solo_fx::after_step(&mut w.fx.seats[0], &before, active, w.run.solo());
                }
                w.fx.advance(io.dt);
            }
        }
        Transition::None
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
        } else if kb.pressed(KeyCode::W) {
            self.message = None;
            self.watch_best(mode);
        }
        Transition::None
    }

    /// Draws the screen.
    pub fn draw(&self, ctx: &Ctx, io: &FrameIo) {
        let gfx = &ctx.gfx;
        background(io.width, io.height);
        let l = SoloLayout::new(io.width, io.height);
        match &self.mode {
            Mode::Pick => self.draw_pick(ctx, io),
            Mode::Play(p) => {
                let solo = p.run.solo();
                let mode = solo.header().mode;
                let rows = live_rows(solo, Some(p.run.finesse().faults), self.best(mode).as_ref());
                draw_run(
                    gfx,
                    &l,
                    (solo, &p.fx.seats[0], ctx.time),
                    mode_title(mode),
                    &rows,
                );
                let restart = match restart_key(&ctx.config.keys) {
                    KeyCode::R => "R",
                    _ => "F2",
                };
                let hint = if mode == SoloMode::Zen {
                    format!(
                        "{restart} reset   Backspace undo ({} piece{})   Esc back",
                        p.run.undo_depth(),
                        if p.run.undo_depth() == 1 { "" } else { "s" }
                    )
                } else {
                    format!("{restart} restart   Esc back")
                };
                draw_hint(gfx, &l, &hint);
            }
            Mode::Result(f) => {
                let solo = f.run.solo();
                let rows = live_rows(solo, Some(f.run.finesse().faults), None);
                draw_run(
                    gfx,
                    &l,
                    (solo, &f.fx.seats[0], ctx.time),
                    mode_title(f.result.mode),
                    &rows,
                );
                let upload_keys = format!(
                    "R retry   W watch best   U upload to {}   Esc back",
                    upload_target(&ctx.config.server)
                );
                let card = ResultCard {
                    result: &f.result,
                    best: f.best.as_ref(),
                    new_best: f.new_best,
                    faults: f.run.finesse().faults,
                    pps_x100: solo.player().stats().pps_x100(),
                    saved: f.upload.as_ref().map_or(&f.saved, |u| u.text()),
                    keys: if f.result.mode == SoloMode::Zen {
                        "Backspace undo   R reset   Esc back"
                    } else if f.upload_bytes.is_some() && f.upload.is_none() {
                        &upload_keys
                    } else {
                        "R retry   W watch best   Esc back"
                    },
                };
                draw_result(gfx, &l, &card);
                draw_hint(gfx, &l, card.keys);
            }
            Mode::Watch(w) => {
                let solo = w.run.solo();
                let rows = live_rows(solo, Some(w.run.finesse().faults), None);
                draw_run(gfx, &l, (solo, &w.fx.seats[0], ctx.time), &w.title, &rows);
                if let Some(result) = solo.result() {
                    let card = ResultCard {
                        result: &result,
                        best: None,
                        new_best: false,
                        faults: w.run.finesse().faults,
                        pps_x100: solo.player().stats().pps_x100(),
                        saved: "end of replay",
                        keys: "Esc back",
                    };
                    draw_result(gfx, &l, &card);
                }
                draw_hint(gfx, &l, "watching at 1×   Esc back");
            }
        }
    }

    fn draw_pick(&self, ctx: &Ctx, io: &FrameIo) {
        let gfx = &ctx.gfx;
        let n = SoloMode::ALL.len();
        let l = list_layout(io.width, io.height, n);
        heading(gfx, l.title, l.unit, "SOLO", "40 lines, Blitz and Zen");
        for (i, mode) in SoloMode::ALL.into_iter().enumerate() {
            let state = RowState {
                selected: i == self.selected,
                enabled: true,
            };
            let tag = self.best(mode).map(|b| best_text(&b)).unwrap_or_default();
            menu_row(gfx, l.row(i), l.unit, label(mode), &tag, state, ctx.time);
        }
        let mode = SoloMode::ALL[self.selected];
        let best = match self.best(mode) {
            Some(b) => format!("\n\nYour best: {}.", best_text(&b)),
            None if mode == SoloMode::Zen => String::new(),
            None => "\n\nNo personal best yet.".to_owned(),
        };
        let body = format!("{}{best}", about(mode));
        side_panel(gfx, l.side, l.unit, label(mode), &body);
        if let Some(m) = &self.message {
            gfx.text(
                m,
                l.side.x,
                l.footer.y - l.unit * 0.6,
                (l.unit * 0.5).round(),
                Weight::Regular,
                Align::Left,
                theme::BAD,
            );
        }
        footer(gfx, l.footer, l.unit, FOOTER, "");
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
            "Endless practice at base gravity. Backspace undoes the last piece (as many as you like), R starts over. Zen runs are not saved."
        }
    }
}

/// The board and falling piece of `solo`, kept before a step for the effects.
fn board_and_piece(solo: &Solo) -> (sevenbag_core::Board, Option<sevenbag_core::Piece>) {
    (*solo.player().board(), solo.player().active())
}

/// Plays the sound of the frame just simulated.
fn sound(ctx: &Ctx, solo: &Solo) {
    let ev = solo.events();
    if let Some(lock) = ev.locked {
        ctx.play(match lock.clear {
            c if c.perfect || c.lines == 4 => Sfx::BigClear,
            c if c.lines > 0 && c.spin != sevenbag_core::Spin::None => Sfx::TSpin,
            c if c.lines > 0 => Sfx::Clear,
            _ if ev.hard_dropped => Sfx::HardDrop,
            _ => Sfx::Lock,
        });
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
    fn the_committed_sample_plays_back_as_a_cleared_sprint() {
        let replay = SoloReplay::decode(SAMPLE).expect("the sample decodes");
        let mut run = SoloRun::new(replay.header, KeyMap::empty());
        for keys in replay.masks().expect("masks") {
            run.step_with(keys);
        }
        assert_eq!(run.result(), Some(replay.result));
    }
}
