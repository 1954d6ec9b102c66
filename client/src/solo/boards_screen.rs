//! The Sprint and Blitz leaderboards: the server's top 100 of a mode (your row marked), your own
//! place in the side panel even when it is below the rows shown, ← → to switch modes, and
//! Enter or W on a row to download and watch that record.

use macroquad::input::KeyCode;
use sevenbag_core::SoloMode;
use sevenbag_protocol::{SoloReplay, SoloRow};

use crate::layout::list_layout;
use crate::list_nav::{ListEvent, ListNav};
use crate::render::gfx::background;
use crate::render::key_buttons::footer_keys;
use crate::render::theme;
use crate::render::widgets::{RowState, heading, menu_row, scroll_marks, side_panel};
use crate::screen::{Ctx, FrameIo, Screen, Transition};
use crate::solo::SoloScreen;
use crate::solo::boards::{BOARDS, Board, SoloBoards, Status};
use crate::solo::run_view::mode_title;
use crate::sound::sfx::Sfx;
use crate::text::utc_stamp;

/// The footer's key hints (the layout tests check they fit the smallest window).
pub const FOOTER: &str = "↑ ↓ choose   ← → Sprint / Blitz   Enter or W watch   Esc back";

/// The screen.
pub struct SoloBoardsScreen {
    boards: SoloBoards,
    /// Which of [`BOARDS`] is shown.
    shown: usize,
    nav: ListNav,
    /// The record being downloaded: its player.
    fetching: Option<String>,
}

/// A record's result as its board ranks it: a Sprint's time, a Blitz's score.
pub fn result_text(mode: SoloMode, r: &SoloRow) -> String {
    match mode {
        SoloMode::Sprint => sevenbag_protocol::solo_replay::clock(u64::from(r.frames)),
        _ => sevenbag_protocol::solo_replay::group_digits(r.score),
    }
}

/// The side panel: your place on the board, then the record under the cursor.
pub fn panel_text(mode: SoloMode, board: &Board, selected: Option<&SoloRow>) -> String {
    let mut text = match &board.you {
        Some(you) => format!(
            "You: #{} of {} · {}\n",
            you.place,
            board.rows.len().max(you.place as usize),
            result_text(mode, you)
        ),
        None => "You have no record on this board yet (finished ranked runs are uploaded with U on the result card).\n".to_owned(),
    };
    if let Some(r) = selected {
        text.push_str(&format!(
            "\n#{} {}\n{} · {} lines · {} pieces\nRecorded {} UTC\n\nEnter or W watches this run.",
            r.place,
            r.name,
            result_text(mode, r),
            r.lines,
            r.pieces,
            utc_stamp(r.recorded_unix)
        ));
    }
    text
}

impl SoloBoardsScreen {
    /// Connects to the server in Settings, showing `mode`'s board first (Sprint for Zen).
    pub fn new(ctx: &Ctx, mode: SoloMode) -> SoloBoardsScreen {
        let key = crate::identity::default_key_path()
            .and_then(|p| crate::identity::load_existing(&p).ok().flatten());
        SoloBoardsScreen {
            boards: SoloBoards::connect(&ctx.config.server, &ctx.config.player_name, key),
            shown: BOARDS.iter().position(|m| *m == mode).unwrap_or(0),
            nav: ListNav::default(),
            fetching: None,
        }
    }

    fn mode(&self) -> SoloMode {
        BOARDS[self.shown]
    }

    fn board(&self) -> Option<&Board> {
        self.boards.board(self.mode())
    }

    /// Rows: the records, then Back.
    fn rows(&self) -> usize {
        self.board().map_or(0, |b| b.rows.len()) + 1
    }

    fn watch(&mut self, ctx: &mut Ctx, i: usize) {
        let mode = self.mode();
        if let Some(name) = self
            .board()
            .and_then(|b| b.rows.get(i))
            .map(|r| r.name.clone())
        {
            ctx.play(Sfx::Select);
            ctx.notify(format!("Downloading {name}'s run…"), theme::ACCENT2);
            self.boards.fetch_replay(mode, &name);
            self.fetching = Some(name);
        }
    }
}

impl Screen for SoloBoardsScreen {
    /// Handles the frame.
    fn update(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Transition {
        ctx.backdrop.advance(io.dt, io.width, io.height);
        self.boards.poll();
        for n in self.boards.take_notices() {
            ctx.notify(n, theme::BAD);
            self.fetching = None;
        }
        if let Some((mode, name, bytes)) = self.boards.take_replay() {
            self.fetching = None;
            match SoloReplay::decode(&bytes) {
                Ok(replay) => {
                    let title = format!("{}  ·  {name}", mode_title(mode));
                    return Transition::Push(Box::new(SoloScreen::watching(&replay, &title)));
                }
                Err(e) => ctx.notify(format!("corrupted replay: {e}"), theme::BAD),
            }
        }
        let kb = &io.keyboard;
        for (key, step) in [(KeyCode::Left, BOARDS.len() - 1), (KeyCode::Right, 1)] {
            if kb.pressed(key) {
                self.shown = (self.shown + step) % BOARDS.len();
                self.nav = ListNav::default();
                ctx.play(Sfx::Move);
            }
        }
        let rows = self.rows();
        let layout = list_layout(io.width, io.height, rows);
        let before = self.nav.selected;
        let event = self.nav.handle(io, &layout, rows, &|_| true, false);
        if before != self.nav.selected {
            ctx.play(Sfx::Move);
        }
        if kb.pressed(KeyCode::W) && self.nav.selected + 1 < rows {
            self.watch(ctx, self.nav.selected);
        }
        match event {
            ListEvent::Back => Transition::Pop,
            ListEvent::Activate(i) if i + 1 == rows => Transition::Pop,
            ListEvent::Activate(i) => {
                self.watch(ctx, i);
                Transition::None
            }
            _ => Transition::None,
        }
    }

    /// Draws the screen.
    fn draw(&self, ctx: &Ctx, io: &FrameIo) {
        let gfx = &ctx.gfx;
        background(io.width, io.height);
        ctx.backdrop.draw();
        let mode = self.mode();
        let rows = self.rows();
        let l = list_layout(io.width, io.height, rows);
        let subtitle = match self.boards.status() {
            Status::Connecting => format!("Connecting to {}…", ctx.config.server),
            Status::Connected => format!("Best verified runs on {}", ctx.config.server),
            Status::Failed(e) => e.clone(),
        };
        let title = format!("{} leaderboard", mode_title(mode));
        heading(gfx, l.title, l.unit, &title, &subtitle);
        let empty = Board::default();
        let board = self.board().unwrap_or(&empty);
        let you = board.you.as_ref().map(|y| y.name.as_str());
        let shown = self.nav.visible(&l, rows);
        scroll_marks(gfx, &shown, rows, l.unit);
        for (i, r) in shown {
            let state = RowState {
                selected: i == self.nav.selected,
                enabled: true,
            };
            match board.rows.get(i) {
                Some(row) => {
                    let mark = if Some(row.name.as_str()) == you {
                        "  (you)"
                    } else {
                        ""
                    };
                    let label = format!("{:>3}. {}{mark}", row.place, row.name);
                    let tag = if self.fetching.as_deref() == Some(row.name.as_str()) {
                        "LOADING…".to_owned()
                    } else {
                        result_text(mode, row)
                    };
                    menu_row(gfx, r, l.unit, &label, &tag, state, ctx.time);
                }
                None => menu_row(gfx, r, l.unit, "Back", "ESC", state, ctx.time),
            }
        }
        let (head, body) = match self.board() {
            Some(b) if b.rows.is_empty() => (
                "No records yet".to_owned(),
                format!(
                    "Finish a {} in Solo and press U on the result card to send it here.",
                    mode.name()
                ),
            ),
            Some(b) => (
                mode_title(mode).to_owned(),
                panel_text(mode, b, b.rows.get(self.nav.selected)),
            ),
            None => (
                "Leaderboard".to_owned(),
                "Waiting for the server…".to_owned(),
            ),
        };
        side_panel(gfx, l.side, l.unit, &head, &body);
        footer_keys(
            gfx,
            l.footer,
            l.unit,
            FOOTER,
            &[("Sprint / Blitz", KeyCode::Right), ("Watch", KeyCode::W)],
            &ctx.config.server,
        );
    }

    fn calm(&self) -> bool {
        true
    }

    fn name(&self) -> &'static str {
        "solo-boards"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(place: u32, name: &str) -> SoloRow {
        SoloRow {
            place,
            name: name.into(),
            frames: 2_472,
            score: 40_310,
            lines: 40,
            pieces: 100,
            recorded_unix: 0,
        }
    }

    #[test]
    fn the_panel_gives_your_place_even_below_the_rows_shown() {
        let board = Board {
            rows: vec![row(1, "ann")],
            you: Some(row(140, "bo")),
        };
        let text = panel_text(SoloMode::Sprint, &board, board.rows.first());
        assert!(text.starts_with("You: #140 of 140 · 0:41.20\n"), "{text}");
        assert!(
            text.contains("#1 ann\n0:41.20 · 40 lines · 100 pieces"),
            "{text}"
        );
        let blitz = panel_text(SoloMode::Blitz, &Board::default(), None);
        assert!(blitz.starts_with("You have no record"), "{blitz}");
        assert_eq!(result_text(SoloMode::Blitz, &row(1, "ann")), "40,310");
    }
}
