//! The Puzzles mode: choose a kind and difficulty, the daily puzzle or a share code; the
//! puzzle is made on a thread ("generating…") and played with the versus keys and handling,
//! plus undo (Backspace), reset (R), hint (H), next puzzle (N) and back (Esc).
//!
//! What a puzzle is and whether it is solved is `sevenbag_puzzle`'s (through [`game`], the
//! mode without drawing); this screen maps keys and draws, with [`view`] drawing the puzzle
//! being played.

pub mod game;
pub mod view;

use std::collections::HashSet;

use macroquad::input::KeyCode;
use sevenbag_core::Input;
use sevenbag_puzzle::{Difficulty, Kind, Status};

use crate::input::{KeyMap, Keyboard, Latch};
use crate::layout::list_layout;
use crate::list_nav::{ListEvent, ListNav};
use crate::net::links::Link;
use crate::puzzles::game::{
    Job, Made, PuzzleGame, Request, difficulty_label, kind_label, make, today,
};
use crate::puzzles::view::{draw_puzzle, draw_wait};
use crate::render::gfx::{Align, Weight, background};
use crate::render::theme;
use crate::render::widgets::{
    RowState, footer, heading, menu_row, scroll_marks, side_panel, value_row,
};
use crate::screen::{Ctx, FrameIo, Screen, Transition};
use crate::sound::sfx::Sfx;
use crate::text::date_text;
use crate::versus::setup::keys_summary;

/// The footer's key hints on a choice row, where Enter steps the choice as → does (the layout
/// tests check every hint fits the smallest window).
pub const FOOTER_CHOICE: &str = "↑ ↓ choose   ← → or Enter change   Esc back";
/// The footer's key hints on a row Enter plays.
pub const FOOTER: &str = "↑ ↓ choose   Enter play   Esc back";
/// The footer's key hints on Back.
pub const FOOTER_BACK: &str = "↑ ↓ choose   Enter back   Esc back";
/// The footer while a puzzle is played.
pub const PLAY_FOOTER: &str =
    "your versus keys play   Backspace undo   R reset   H hint   N next   L link   Esc back";

/// The footer's hint for `row`: it names what Enter does there.
fn footer_hint(row: Row) -> &'static str {
    match row {
        Row::Kind | Row::Difficulty => FOOTER_CHOICE,
        Row::Play | Row::Daily | Row::Code => FOOTER,
        Row::Back => FOOTER_BACK,
    }
}

/// Longest code the field takes (the longest valid code is 18 characters).
const MAX_CODE: usize = 24;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Row {
    Kind,
    Difficulty,
    Play,
    Daily,
    Code,
    Back,
}

const ROWS: [Row; 6] = [
    Row::Kind,
    Row::Difficulty,
    Row::Play,
    Row::Daily,
    Row::Code,
    Row::Back,
];

/// What the screen shows.
enum Mode {
    /// Choosing a puzzle.
    Setup,
    /// A puzzle being made off the frame.
    Making(Job<Result<Made, String>>),
    /// A puzzle being played.
    Play(Box<Playing>),
}

struct Playing {
    game: PuzzleGame,
    latch: Latch,
}

/// The Puzzles screen.
pub struct PuzzlesScreen {
    mode: Mode,
    nav: ListNav,
    kind: usize,
    difficulty: usize,
    code: String,
    /// Why the last request failed (a bad code, a puzzle that could not be made).
    message: Option<String>,
    /// Opened straight on a puzzle (`--puzzle`): Esc from it leaves the screen.
    direct: bool,
}

impl Default for PuzzlesScreen {
    fn default() -> Self {
        PuzzlesScreen {
            mode: Mode::Setup,
            nav: ListNav::at(2),
            kind: 0,
            difficulty: 0,
            code: String::new(),
            message: None,
            direct: false,
        }
    }
}

impl PuzzlesScreen {
    /// Opens straight on the puzzle of a share code, or `daily` for today's puzzle (for
    /// `--puzzle`); a bad code opens the setup with the reason.
    pub fn direct(code: &str) -> PuzzlesScreen {
        let mut s = PuzzlesScreen {
            direct: true,
            ..PuzzlesScreen::default()
        };
        let request = if code.trim().eq_ignore_ascii_case("daily") {
            Ok(Request::Daily { day: today() })
        } else {
            Request::from_code(code)
        };
        match request {
            Ok(r) => s.start(r),
            Err(e) => {
                s.code = code.trim().to_owned();
                s.message = Some(e);
                s.direct = false;
            }
        }
        s
    }

    /// Starts making the puzzle of `request` on a thread.
    fn start(&mut self, request: Request) {
        self.message = None;
        match Job::spawn(move || make(&request)) {
            Ok(job) => self.mode = Mode::Making(job),
            Err(e) => {
                self.message = Some(format!("could not start the generator: {e}"));
                self.mode = Mode::Setup;
            }
        }
    }

    fn back_to_setup(&mut self) -> Transition {
        self.mode = Mode::Setup;
        if self.direct {
            return Transition::Pop;
        }
        Transition::None
    }

    fn update_setup(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Transition {
        ctx.backdrop.advance(io.dt, io.width, io.height);
        let layout = list_layout(io.width, io.height, ROWS.len());
        let kb = &io.keyboard;
        let typing = ROWS[self.nav.selected] == Row::Code;
        if typing {
            for c in &kb.chars {
                if (c.is_ascii_alphanumeric() || *c == '-') && self.code.len() < MAX_CODE {
                    self.code.push(c.to_ascii_lowercase());
                }
            }
            if kb.pressed(KeyCode::Backspace) {
                self.code.pop();
            }
        }
        let before = self.nav.selected;
        let event = self.nav.handle(io, &layout, ROWS.len(), &|_| true, typing);
        if before != self.nav.selected {
            ctx.play(Sfx::Move);
        }
        let cycle =
            |v: &mut usize, n: usize, d: i32| *v = (*v as i32 + d).rem_euclid(n as i32) as usize;
        let (i, d) = match event {
            ListEvent::Back => return Transition::Pop,
            ListEvent::Activate(i) => (i, 0),
            ListEvent::Adjust(i, d) => (i, d),
            ListEvent::None => return Transition::None,
        };
        // Enter on a choice steps it forward, as → does.
        let by = if d == 0 { 1 } else { d };
        match (ROWS[i], d) {
            (Row::Kind, _) => cycle(&mut self.kind, Kind::ALL.len(), by),
            (Row::Difficulty, _) => cycle(&mut self.difficulty, Difficulty::ALL.len(), by),
            (Row::Play, 0) => self.start(Request::Preset {
                kind: Kind::ALL[self.kind],
                difficulty: Difficulty::ALL[self.difficulty],
                seed: crate::platform::clock::random_seed(),
            }),
            (Row::Daily, 0) => self.start(Request::Daily { day: today() }),
            (Row::Code, 0) => match Request::from_code(&self.code) {
                Ok(r) => self.start(r),
                Err(e) => self.message = Some(e),
            },
            (Row::Back, 0) => return Transition::Pop,
            _ => return Transition::None,
        }
        ctx.play(Sfx::Select);
        Transition::None
    }

    fn draw_setup(&self, ctx: &Ctx, io: &FrameIo) {
        let gfx = &ctx.gfx;
        background(io.width, io.height);
        ctx.backdrop.draw();
        let l = list_layout(io.width, io.height, ROWS.len());
        heading(
            gfx,
            l.title,
            l.unit,
            "Puzzles",
            "Generated puzzles, each proved solvable",
        );
        let kind = Kind::ALL[self.kind];
        let difficulty = Difficulty::ALL[self.difficulty];
        let shown = self.nav.visible(&l, ROWS.len());
        scroll_marks(gfx, &shown, ROWS.len(), l.unit);
        for (i, r) in shown {
            let state = RowState {
                selected: i == self.nav.selected,
                enabled: true,
            };
            let value = |v: &str| {
                if state.selected {
                    format!("‹  {v}  ›")
                } else {
                    v.to_owned()
                }
            };
            let (u, t) = (l.unit, ctx.time);
            match ROWS[i] {
                Row::Kind => {
                    value_row(gfx, r, u, "Kind", &value(kind_label(kind)), state, false, t)
                }
                Row::Difficulty => {
                    let v = value(difficulty_label(difficulty));
                    value_row(gfx, r, u, "Difficulty", &v, state, false, t);
                }
                Row::Play => menu_row(gfx, r, u, "Play", "", state, t),
                Row::Daily => {
                    menu_row(gfx, r, u, "Daily puzzle", &date_text(today()), state, t);
                }
                Row::Code => {
                    value_row(
                        gfx,
                        r,
                        u,
                        "Enter code",
                        &self.code,
                        state,
                        state.selected,
                        t,
                    );
                }
                Row::Back => menu_row(gfx, r, u, "Back", "", state, t),
            }
        }
        let body = format!(
            "{}\n\nThe daily puzzle is the same for everyone on a UTC day; a code such as p24n-2s rebuilds one puzzle exactly.\n\nIn play: your keys ({}); Backspace undo, R reset, H hint, N next puzzle, Esc back.",
            about(kind),
            keys_summary(&ctx.config.keys)
        );
        let used = side_panel(gfx, l.side, l.unit, kind_label(kind), &body);
        if let Some(m) = &self.message {
            gfx.text(
                &gfx.fit(m, l.side.w, (l.unit * 0.7).round(), Weight::Regular),
                l.side.x,
                used.bottom() + l.unit * 1.5,
                (l.unit * 0.7).round(),
                Weight::Regular,
                Align::Left,
                theme::BAD,
            );
        }
        let row = ROWS.get(self.nav.selected).copied().unwrap_or(Row::Play);
        footer(gfx, l.footer, l.unit, footer_hint(row), "offline");
    }
}

impl Screen for PuzzlesScreen {
    /// Handles the frame.
    fn update(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Transition {
        let kb = &io.keyboard;
        match &mut self.mode {
            Mode::Setup => self.update_setup(ctx, io),
            Mode::Making(job) => {
                if kb.pressed(KeyCode::Escape) {
                    return self.back_to_setup();
                }
                match job.poll() {
                    Some(Ok(made)) => {
                        let game = PuzzleGame::new(made, ctx.config.handling);
                        self.mode = Mode::Play(Box::new(Playing {
                            game,
                            latch: Latch::default(),
                        }));
                    }
                    Some(Err(e)) => {
                        self.message = Some(e);
                        self.mode = Mode::Setup;
                    }
                    None => {}
                }
                Transition::None
            }
            Mode::Play(p) => {
                if kb.pressed(KeyCode::Escape) {
                    return self.back_to_setup();
                }
                let keys = ctx.config.keys;
                let status = p.game.attempt().status();
                let solved = status == Status::Solved;
                let failed = matches!(status, Status::Failed(_));
                let enter = kb.pressed_any(&[KeyCode::Enter, KeyCode::KpEnter]);
                if command(kb, &keys, KeyCode::N) || (solved && enter) {
                    ctx.play(Sfx::Select);
                    let next = p
                        .game
                        .made
                        .request
                        .next(&p.game.made.puzzle, crate::platform::clock::random_seed());
                    self.start(next);
                    return Transition::None;
                }
                if command(kb, &keys, KeyCode::R) || (failed && enter) {
                    p.game.reset();
                    p.latch.reset();
                }
                if command(kb, &keys, KeyCode::Backspace) {
                    p.game.undo();
                    p.latch.reset();
                }
                if command(kb, &keys, KeyCode::H) {
                    p.game.toggle_hint();
                }
                if command(kb, &keys, KeyCode::L) {
                    ctx.copy_game_link(&Link::Puzzle(p.game.made.code()));
                }
                p.latch.sample(&keys, kb);
                let placed = p.game.attempt().placed();
                for _ in 0..io.steps {
                    p.game.step(p.latch.take());
                }
                p.game.poll();
                let now = p.game.attempt();
                if now.placed() > placed {
                    ctx.play(Sfx::Lock);
                }
                match (status, now.status()) {
                    (Status::Playing, Status::Solved) => ctx.play(Sfx::Win),
                    (Status::Playing, Status::Failed(_)) => ctx.play(Sfx::Lose),
                    _ => {}
                }
                Transition::None
            }
        }
    }

    /// Draws the screen.
    fn draw(&self, ctx: &Ctx, io: &FrameIo) {
        match &self.mode {
            Mode::Setup => self.draw_setup(ctx, io),
            Mode::Making(_) => draw_wait(
                &ctx.gfx,
                io.width,
                io.height,
                "PUZZLES",
                "generating and proving a puzzle",
                ctx.time,
            ),
            Mode::Play(p) => draw_puzzle(
                &ctx.gfx,
                io.width,
                io.height,
                &p.game,
                PLAY_FOOTER,
                ctx.time,
            ),
        }
    }

    fn plays_by_touch(&self) -> bool {
        matches!(self.mode, Mode::Play(_))
    }

    fn name(&self) -> &'static str {
        "puzzles"
    }
}

/// What a kind asks of you.
fn about(kind: Kind) -> &'static str {
    match kind {
        Kind::Pc => "Empty the board: every cell of the last rows cleared with the pieces given.",
        Kind::TSpin => {
            "Build up and finish with a T-spin double or triple (a full spin, not a mini)."
        }
        Kind::Dig => "Clear every grey garbage cell from the bottom rows with the pieces given.",
    }
}

/// True when `key` was pressed and is not one of the player's game keys (a binding wins).
fn command(kb: &Keyboard, keys: &KeyMap, key: KeyCode) -> bool {
    kb.pressed(key) && keys.mask(&HashSet::from([key])) == Input::NONE
}
