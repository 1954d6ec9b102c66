//! The fixed-sequence challenge: play the 10,000 bricks by hand under the original's rules, save
//! the record, and watch any record (yours or the solver's best) with pause, speed and seek.
//! The rules and records are `sevenbag_challenge`'s; this screen only maps keys and draws (the
//! board, brick and score panel are drawn by [`view`]).

pub mod view;

use std::path::PathBuf;

use macroquad::input::KeyCode;
use sevenbag_challenge::play::{Play, gravity_ms};
use sevenbag_challenge::{Game, Op, Record, Step};

use macroquad::math::Rect;

use crate::challenge::view::{ChallengeLayout, draw_side, draw_well, group_digits};
use crate::input::taps;
use crate::render::gfx::{Align, Weight, background};
use crate::render::key_buttons::{KeyChoice, button_row};
use crate::render::theme;
use crate::screen::{Ctx, FrameIo, Screen, Transition};

/// The solver's best record, shipped with the game.
const BEST: &str = include_str!("../../../crates/challenge/records/best.txt");

/// Playback speeds, in unit steps per second (a brick is about 20 steps).
const SPEEDS: [f32; 8] = [5.0, 15.0, 50.0, 150.0, 500.0, 1500.0, 5000.0, 20000.0];
/// Held-key repeat interval, as the original's 150 ms.
const REPEAT: f32 = 0.15;

/// Where "save" writes your record: `<data dir>/sevenbag/challenge/my-record.txt`.
pub fn my_record_path() -> Option<PathBuf> {
    crate::platform::folders::data_dir()
        .map(|d| d.join("sevenbag").join("challenge").join("my-record.txt"))
}

/// What the screen shows.
enum Mode {
    /// The choice of playing or watching.
    Intro,
    /// Playing by hand.
    Play(Box<Playing>),
    /// Watching a record.
    Watch(Box<Watching>),
}

struct Playing {
    play: Play,
    /// Seconds until the next gravity tick.
    gravity: f32,
    /// The held key and seconds until it repeats.
    held: Option<(KeyCode, f32)>,
    paused: bool,
}

/// A record being played back one unit step at a time.
struct Watching {
    title: String,
    record: Record,
    game: Game,
    /// Index of the op being run, and the steps of it already run.
    op: usize,
    done_steps: u8,
    finished: bool,
    paused: bool,
    speed: usize,
    /// Fractional steps owed to the clock.
    owed: f32,
}

impl Watching {
    fn new(title: String, record: Record) -> Watching {
        Watching {
            title,
            record,
            game: Game::new(),
            op: 0,
            done_steps: 0,
            finished: false,
            paused: false,
            speed: 3,
            owed: 0.0,
        }
    }

    /// Runs one unit step (an `N` counts as one).
    fn advance(&mut self) {
        if self.finished {
            return;
        }
        match self.record.ops.get(self.op) {
            None => {
                self.game.finish();
                self.finished = true;
                return;
            }
            Some(&Op::New) => {
                self.game.apply(Op::New);
                self.op += 1;
            }
            Some(&Op::Steps(step, n)) => {
                self.game.step(step);
                self.done_steps += 1;
                if self.done_steps >= n {
                    self.op += 1;
                    self.done_steps = 0;
                }
            }
        }
        if self.game.ended.is_some() {
            self.finished = true;
        }
    }

    /// Jumps to just after brick `brick` spawns (replaying from the start: a few milliseconds).
    fn seek(&mut self, brick: usize) {
        let brick = brick.max(1);
        self.game = Game::new();
        self.op = 0;
        self.done_steps = 0;
        self.finished = false;
        self.owed = 0.0;
        while !self.finished && self.game.spawned < brick {
            self.advance();
        }
    }
}

/// The challenge screen.
pub struct ChallengeScreen {
    mode: Mode,
    /// A line of feedback under the intro (load errors).
    message: Option<String>,
}

impl Default for ChallengeScreen {
    fn default() -> Self {
        ChallengeScreen {
            mode: Mode::Intro,
            message: None,
        }
    }
}

impl ChallengeScreen {
    /// Opens straight into watching the solver's best record (for `--screen challenge`).
    pub fn watching_best() -> ChallengeScreen {
        let mut s = ChallengeScreen::default();
        s.watch_best();
        s
    }

    fn watch_best(&mut self) {
        match Record::parse(BEST) {
            Ok(r) => {
                let title = format!(
                    "SOLVER'S BEST · {}",
                    group_digits(sevenbag_challenge::score(&r).score)
                );
                self.mode = Mode::Watch(Box::new(Watching::new(title, r)));
            }
            Err(e) => self.message = Some(format!("the shipped record is invalid: {e}")),
        }
    }

    fn watch_mine(&mut self) {
        let Some(path) = my_record_path() else {
            self.message = Some("this system has no data directory".into());
            return;
        };
        match load_mine(&path) {
            Ok(r) => self.mode = Mode::Watch(Box::new(Watching::new("YOUR RECORD".into(), r))),
            Err(e) => self.message = Some(e),
        }
    }
}

impl Screen for ChallengeScreen {
    /// Handles the frame.
    fn update(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Transition {
        let kb = &io.keyboard;
        match &mut self.mode {
            Mode::Intro => {
                if kb.pressed(KeyCode::Escape) {
                    return Transition::Pop;
                }
                if kb.pressed(KeyCode::Enter) || kb.pressed(KeyCode::P) {
                    self.mode = Mode::Play(Box::new(Playing {
                        play: Play::new(),
                        gravity: gravity_ms(1) as f32 / 1000.0,
                        held: None,
                        paused: false,
                    }));
                } else if kb.pressed(KeyCode::B) {
                    self.watch_best();
                } else if kb.pressed(KeyCode::M) {
                    self.watch_mine();
                }
            }
            Mode::Play(p) => {
                if kb.pressed(KeyCode::Escape) {
                    self.mode = Mode::Intro;
                    return Transition::None;
                }
                if kb.pressed(KeyCode::S) {
                    save_record(ctx, &p.play.record());
                }
                if kb.pressed(KeyCode::Enter) {
                    p.paused = !p.paused;
                }
                if p.paused || p.play.over() {
                    return Transition::None;
                }
                play_keys(p, io);
                p.gravity -= io.dt;
                while p.gravity <= 0.0 && !p.play.over() {
                    p.play.gravity();
                    p.gravity += gravity_ms(p.play.game.spawned) as f32 / 1000.0;
                }
            }
            Mode::Watch(w) => {
                if kb.pressed(KeyCode::Escape) {
                    self.mode = Mode::Intro;
                    return Transition::None;
                }
                watch_keys(w, io);
                if !w.paused {
                    w.owed += io.dt * SPEEDS[w.speed];
                    while w.owed >= 1.0 && !w.finished {
                        w.advance();
                        w.owed -= 1.0;
                    }
                }
            }
        }
        Transition::None
    }

    /// Draws the screen.
    fn draw(&self, ctx: &Ctx, io: &FrameIo) {
        let gfx = &ctx.gfx;
        background(io.width, io.height);
        // A touch screen keeps a strip along the bottom for the key buttons.
        let strip = if taps::shown() {
            ChallengeLayout::new(io.width, io.height).unit * 2.2
        } else {
            0.0
        };
        let l = ChallengeLayout::new(io.width, io.height - strip);
        let u = l.unit;
        let title = |t: &str| {
            gfx.text(
                t,
                l.well.x,
                u * 1.6,
                u * 0.9,
                Weight::Bold,
                Align::Left,
                theme::ACCENT,
            );
        };
        let hint = |t: &str| {
            gfx.text(
                t,
                u,
                io.height - u * 0.6,
                u * 0.55,
                Weight::Regular,
                Align::Left,
                theme::TEXT_DIM,
            );
        };
        // The key line, or on a touch screen a button for each key it names.
        let keys = |t: &str, buttons: &[KeyChoice]| {
            if taps::shown() {
                let area = Rect::new(u, io.height - strip + u * 0.3, io.width - u * 2.0, u * 1.6);
                button_row(gfx, area, buttons);
            } else {
                hint(t);
            }
        };
        match &self.mode {
            Mode::Intro => {
                title("THE FIXED-SEQUENCE CHALLENGE");
                keys(
                    "",
                    &[
                        ("Play", KeyCode::Enter),
                        ("Solver's best", KeyCode::B),
                        ("Your record", KeyCode::M),
                    ],
                );
                let body = [
                    "10,000 bricks in a fixed order, the 2021 geek.qq.com rules: no kicks, no hold,",
                    "no hard drop. A clear scores the cells on the board × 1, 3, 6 or 10.",
                    "The game ends when all 20 rows hold a cell, or at brick 10,000.",
                    "",
                    "Enter  play it yourself",
                    "B      watch the solver's best record",
                    "M      watch your saved record",
                    "Esc    back",
                ];
                for (i, line) in body.iter().enumerate() {
                    gfx.text(
                        line,
                        l.well.x,
                        u * 4.0 + i as f32 * u * 1.2,
                        u * 0.7,
                        Weight::Regular,
                        Align::Left,
                        theme::TEXT,
                    );
                }
                if let Some(m) = &self.message {
                    gfx.text(
                        m,
                        l.well.x,
                        u * 15.0,
                        u * 0.6,
                        Weight::Regular,
                        Align::Left,
                        theme::BAD,
                    );
                }
            }
            Mode::Play(p) => {
                title("CHALLENGE · PLAY");
                draw_well(&l, &p.play.game);
                let speed = format!("{} ms", gravity_ms(p.play.game.spawned));
                let state = if p.paused { "paused" } else { "running" };
                draw_side(
                    gfx,
                    &l,
                    &p.play.game,
                    &[("GRAVITY", speed), ("STATE", state.into())],
                );
                keys(
                    "← → move   ↓ down   ↑ rotate   Enter pause   S save record   Esc back",
                    &[
                        ("←", KeyCode::Left),
                        ("→", KeyCode::Right),
                        ("↓", KeyCode::Down),
                        ("Rotate", KeyCode::Up),
                        ("Pause", KeyCode::Enter),
                        ("Save", KeyCode::S),
                    ],
                );
            }
            Mode::Watch(w) => {
                title(&w.title);
                draw_well(&l, &w.game);
                let speed = format!(
                    "{} steps/s{}",
                    SPEEDS[w.speed],
                    if w.paused { " · paused" } else { "" }
                );
                draw_side(gfx, &l, &w.game, &[("PLAYBACK", speed)]);
                keys(
                    "Space pause   ↑ ↓ speed   ← → seek 100   PgUp PgDn seek 1000   Home start   Esc back",
                    &[
                        ("Start", KeyCode::Home),
                        ("−100", KeyCode::Left),
                        ("Pause", KeyCode::Space),
                        ("+100", KeyCode::Right),
                        ("+1000", KeyCode::PageDown),
                        ("Slower", KeyCode::Down),
                        ("Faster", KeyCode::Up),
                    ],
                );
            }
        }
    }

    fn name(&self) -> &'static str {
        "challenge"
    }
}

/// Reads and parses your record file (through the game's files, so the page keeps one too),
/// refusing more than [`sevenbag_challenge::record::MAX_RECORD_BYTES`].
fn load_mine(path: &std::path::Path) -> Result<Record, String> {
    use crate::platform::files;
    use sevenbag_challenge::record::MAX_RECORD_BYTES;
    if files::len(path).is_ok_and(|n| n > MAX_RECORD_BYTES as u64) {
        return Err(format!(
            "{}: larger than {MAX_RECORD_BYTES} bytes",
            path.display()
        ));
    }
    let bytes = files::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let text =
        String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8 text", path.display()))?;
    Record::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

fn save_record(ctx: &mut Ctx, record: &Record) {
    let Some(path) = my_record_path() else {
        ctx.notify("No data directory to save into", theme::BAD);
        return;
    };
    let result = path
        .parent()
        .map_or(Ok(()), crate::platform::files::create_dir_all)
        .and_then(|()| {
            crate::platform::files::write(&path, format!("{}\n", record.to_text()).as_bytes())
        });
    match result {
        Ok(()) => ctx.notify(format!("Record saved to {}", path.display()), theme::GOOD),
        Err(e) => ctx.notify(
            format!("Could not save {}: {e}", path.display()),
            theme::BAD,
        ),
    }
}

/// Left, right and down step once when pressed and every 150 ms while held; up rotates.
fn play_keys(p: &mut Playing, io: &FrameIo) {
    let kb = &io.keyboard;
    if kb.pressed(KeyCode::Up) {
        p.play.input(Step::Rotate);
    }
    let keys = [
        (KeyCode::Left, Step::Left),
        (KeyCode::Right, Step::Right),
        (KeyCode::Down, Step::Down),
    ];
    for (key, step) in keys {
        if kb.pressed(key) {
            p.play.input(step);
            p.held = Some((key, REPEAT));
        }
    }
    if let Some((key, left)) = p.held {
        if !kb.down.contains(&key) {
            p.held = None;
        } else if left - io.dt <= 0.0 {
            if let Some(&(_, step)) = keys.iter().find(|(k, _)| *k == key) {
                p.play.input(step);
            }
            p.held = Some((key, REPEAT));
        } else {
            p.held = Some((key, left - io.dt));
        }
    }
}

fn watch_keys(w: &mut Watching, io: &FrameIo) {
    let kb = &io.keyboard;
    if kb.pressed(KeyCode::Space) {
        w.paused = !w.paused;
    }
    if kb.pressed(KeyCode::Up) {
        w.speed = (w.speed + 1).min(SPEEDS.len() - 1);
    }
    if kb.pressed(KeyCode::Down) {
        w.speed = w.speed.saturating_sub(1);
    }
    let at = w.game.spawned;
    let target = if kb.pressed(KeyCode::Right) {
        Some(at + 100)
    } else if kb.pressed(KeyCode::Left) {
        Some(at.saturating_sub(100))
    } else if kb.pressed(KeyCode::PageDown) {
        Some(at + 1000)
    } else if kb.pressed(KeyCode::PageUp) {
        Some(at.saturating_sub(1000))
    } else if kb.pressed(KeyCode::Home) {
        Some(1)
    } else {
        None
    };
    if let Some(t) = target {
        w.seek(t);
    }
}
