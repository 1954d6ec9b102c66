//! Replays: the files found on disk. Playback plugs in with the replay format (phase 2).

use std::path::PathBuf;

use crate::layout::list_layout;
use crate::render::gfx::background;
use crate::render::theme;
use crate::render::widgets::{RowState, footer, heading, menu_row, side_panel};
use crate::screen::{Ctx, FrameIo, Transition};
use crate::screens::list::{ListEvent, ListNav};

/// The replay list.
pub struct ReplayScreen {
    files: Vec<PathBuf>,
    nav: ListNav,
}

/// Folders searched for replay files: `./replays` and `<data dir>/sevenbag/replays`.
pub fn replay_dirs() -> Vec<PathBuf> {
    let mut dirs = vec![PathBuf::from("replays")];
    if let Some(d) = dirs::data_dir() {
        dirs.push(d.join("sevenbag").join("replays"));
    }
    dirs
}

impl Default for ReplayScreen {
    fn default() -> Self {
        ReplayScreen::new()
    }
}

impl ReplayScreen {
    /// Lists the replay folders.
    pub fn new() -> ReplayScreen {
        let mut files: Vec<PathBuf> = replay_dirs()
            .iter()
            .filter_map(|d| std::fs::read_dir(d).ok())
            .flatten()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        files.reverse();
        ReplayScreen {
            files,
            nav: ListNav::default(),
        }
    }

    fn len(&self) -> usize {
        self.files.len() + 1
    }

    /// Handles the frame.
    pub fn update(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Transition {
        ctx.backdrop.advance(io.dt, io.width, io.height);
        let layout = list_layout(io.width, io.height, self.len());
        match self.nav.handle(io, &layout, self.len(), &|_| true, false) {
            ListEvent::Back => Transition::Pop,
            ListEvent::Activate(i) if i == self.files.len() => Transition::Pop,
            ListEvent::Activate(_) => {
                ctx.notify(
                    "Replay playback comes with the online build of Sevenbag.",
                    theme::ACCENT2,
                );
                Transition::None
            }
            _ => Transition::None,
        }
    }

    /// Draws the screen.
    pub fn draw(&self, ctx: &Ctx, io: &FrameIo) {
        let gfx = &ctx.gfx;
        background(io.width, io.height);
        ctx.backdrop.draw();
        let l = list_layout(io.width, io.height, self.len());
        heading(
            gfx,
            l.title,
            l.unit,
            "Replays",
            "Finished matches, frame for frame",
        );
        for (i, r) in self.nav.visible(&l, self.len()) {
            let state = RowState {
                selected: i == self.nav.selected,
                enabled: true,
            };
            match self.files.get(i) {
                Some(p) => {
                    let name = p
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    menu_row(gfx, r, l.unit, &name, "REPLAY", state, ctx.time);
                }
                None => menu_row(gfx, r, l.unit, "Back", "", state, ctx.time),
            }
        }
        let dirs: Vec<String> = replay_dirs()
            .iter()
            .map(|d| d.display().to_string())
            .collect();
        let body = if self.files.is_empty() {
            format!(
                "No replays yet. Servers keep every finished match; replay files you save go in:\n\n{}\n\nPlayback comes with the online build.",
                dirs.join("\n")
            )
        } else {
            format!(
                "{} replay files found in:\n\n{}\n\nPlayback comes with the online build.",
                self.files.len(),
                dirs.join("\n")
            )
        };
        side_panel(gfx, l.side, l.unit, "Replays", &body);
        footer(
            gfx,
            l.footer,
            l.unit,
            "↑ ↓ choose   Enter watch   Esc back",
            "",
        );
    }
}
