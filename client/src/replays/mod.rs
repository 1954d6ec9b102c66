//! Replays: the files on disk (played back with the match view), and downloads from the server.
//!
//! The list shows `./replays` and `<data dir>/sevenbag/replays`. Enter plays a file
//! ([`ReplaySession`] inside a [`PlayScreen`]); a file that does not decode shows "corrupted
//! replay" and the list stays. "Download from server" connects to the configured server, lists
//! its replays, and saves the one chosen into the data folder. The files and their playback are
//! `crate::replay_files`.

pub mod battle;

use std::rc::Rc;

use crate::layout::list_layout;
use crate::list_nav::{ListEvent, ListNav};
use crate::match_source::MatchSource;
use crate::match_stats::MatchStats;
use crate::net::links::Link;
use crate::net::online::{Online, Request, Stage};
use crate::render::gfx::background;
use crate::render::key_buttons::{KeyChoice, footer_keys};
use crate::render::theme;
use crate::render::widgets::{RowState, heading, menu_row, scroll_marks, side_panel};
use crate::replay_files::{
    Listed, ReplaySession, list_described, listing_detail, listing_label, replay_dirs,
};
use crate::replays::battle::{BattleReplayScreen, BattleReplaySession};
use crate::screen::{Ctx, FrameIo, Screen, Transition};
use crate::sound::sfx::Sfx;
use crate::versus::play::{PlayMode, PlayScreen};
use sevenbag_protocol::OpenedReplay;

/// The footer's key hints (the layout tests check they fit the smallest window).
pub const FOOTER: &str = "↑ ↓ choose   Enter watch / download   L link   Esc back";
/// The footer's key hints in a page, where D saves the selected replay as a file.
pub const FOOTER_PAGE: &str = "↑ ↓ choose   Enter watch   D save file   L link   Esc back";

/// What the side panel says of a replay file: how to watch it, and in a page that D (on a
/// touch screen the Save file button) saves it to the device's downloads.
fn file_help() -> String {
    let watch = crate::input::taps::hint(
        "Enter to watch. During playback: Space pause, + / − speed (0.25× to 4×), ← → seek 5 s, Home restart, N / P the next or previous spike or top-out (marked on the strip under the title), G the match's statistics and graphs, C continue from here (you take the left board against the practice opponent; in a free-for-all the first seat against bots), Esc back to this list.",
        "Tap to watch; the bar under the replay pauses, seeks, jumps to the next spike or top-out, changes the speed and plays on from there; Stats at the end shows the graphs.",
    );
    let save = crate::input::taps::hint(
        " D saves it as a file (to this device's downloads).",
        " Save file keeps it as a file (in this device's downloads).",
    );
    let page = cfg!(target_arch = "wasm32") || cfg!(test);
    format!("{watch}{}", if page { save } else { "" })
}

/// What the screen says in words, for the touch wording test.
#[cfg(test)]
pub fn touch_texts() -> Vec<String> {
    vec![file_help()]
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Row {
    File(usize),
    /// In a page: open a `.sbrp` file through the browser's file picker.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    OpenFile,
    Download,
    Remote(usize),
    Back,
}

/// The replay list.
pub struct ReplayScreen {
    files: Vec<Listed>,
    nav: ListNav,
    remote: Option<Online>,
    fetching: Option<String>,
}

impl Default for ReplayScreen {
    fn default() -> Self {
        ReplayScreen::new()
    }
}

impl ReplayScreen {
    /// Lists the replay folders.
    pub fn new() -> ReplayScreen {
        ReplayScreen {
            files: list_described(&replay_dirs()),
            nav: ListNav::default(),
            remote: None,
            fetching: None,
        }
    }

    fn rows(&self) -> Vec<Row> {
        let mut v: Vec<Row> = (0..self.files.len()).map(Row::File).collect();
        #[cfg(target_arch = "wasm32")]
        v.push(Row::OpenFile);
        v.push(Row::Download);
        if let Some(r) = &self.remote {
            v.extend((0..r.replay_list().len()).map(Row::Remote));
        }
        v.push(Row::Back);
        v
    }

    fn open(&mut self, ctx: &mut Ctx, i: usize) -> Transition {
        let Some(path) = self.files.get(i).map(|f| &f.path) else {
            return Transition::None;
        };
        let screen =
            crate::replay_files::load_any(path).and_then(|r| playback(r, "REPLAY".to_owned()));
        match screen {
            Ok(play) => {
                ctx.play(Sfx::Select);
                Transition::Push(play)
            }
            Err(e) => {
                let name = path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                ctx.notify(format!("{name}: {e}"), theme::BAD);
                Transition::None
            }
        }
    }
}

/// The playback screen of a replay of either format version: a match of two seats in the
/// versus match view under `title`, with continue-from-here; a match of several seats (or of
/// two with targeting) with every board in the free-for-all view. The error is a sentence.
pub fn playback(opened: OpenedReplay, title: String) -> Result<Box<dyn Screen>, String> {
    let stats = Rc::new(MatchStats::of(&opened.replay)?);
    if let Some(versus) = opened.replay.to_versus() {
        let s = ReplaySession::new(versus)?.with_stats(stats.clone());
        let names = s.replay().names.clone();
        let play = PlayScreen::<dyn MatchSource>::new(Box::new(s), PlayMode::Replay, names, title)
            .with_stats(stats);
        return Ok(Box::new(play));
    }
    let session = BattleReplaySession::new(opened.replay)?.with_stats(stats);
    Ok(Box::new(BattleReplayScreen::new(session)))
}

/// The playback screen of a replay file's `bytes` as a server sends them (either format
/// version, read by `sevenbag_protocol::replay_file::open`), as [`playback`] shows it under
/// `title`. The error is a sentence.
pub fn playback_bytes(bytes: &[u8], title: String) -> Result<Box<dyn Screen>, String> {
    let opened = sevenbag_protocol::replay_file::open(bytes)
        .map_err(|e| format!("corrupted replay: {e}"))?;
    playback(opened, title)
}

/// In a page: saves the replay file at `path` through the browser's download.
#[cfg(target_arch = "wasm32")]
fn download(ctx: &mut Ctx, path: &std::path::Path) {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "replay.sbrp".into());
    match crate::platform::files::read(path) {
        Ok(bytes) if crate::platform::web_files::download(&name, &bytes) => {
            ctx.notify(format!("Saving {name}"), theme::GOOD);
        }
        Ok(_) => ctx.notify("The browser refused the download.", theme::BAD),
        Err(e) => ctx.notify(format!("{name}: {e}"), theme::BAD),
    }
}

/// In a page: a replay file picked or dropped since the last frame, made into its playback
/// (a refused or unplayable one is a notice).
#[cfg(target_arch = "wasm32")]
pub fn opened_file(ctx: &mut Ctx) -> Option<Box<dyn Screen>> {
    use crate::platform::web_files::{self, Opened};
    match web_files::next_file()? {
        Opened::Refused(name, why) => {
            ctx.notify(format!("{name} was not opened: {why}"), theme::BAD);
            None
        }
        Opened::File(name, bytes) if name.to_lowercase().ends_with(".png") => {
            crate::settings::page_skin::open(ctx, &name, &bytes);
            None
        }
        Opened::File(name, bytes) => match crate::replay_files::open_bytes(
            crate::replay_files::save_dir().as_deref(),
            &name,
            &bytes,
        ) {
            Ok(opened) => match playback(opened, "REPLAY".to_owned()) {
                Ok(play) => {
                    ctx.notify(format!("Opened {name}"), theme::GOOD);
                    Some(play)
                }
                Err(e) => {
                    ctx.notify(e, theme::BAD);
                    None
                }
            },
            Err(e) => {
                ctx.notify(e, theme::BAD);
                None
            }
        },
    }
}

impl Screen for ReplayScreen {
    /// Handles the frame.
    fn update(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Transition {
        ctx.backdrop.advance(io.dt, io.width, io.height);
        if let Some(remote) = &mut self.remote {
            remote.poll(sevenbag_netplay::time::Instant::now());
            for n in remote.take_notices() {
                ctx.notify(n, theme::BAD);
                self.fetching = None;
            }
            if let Stage::Failed(msg) = remote.stage() {
                ctx.notify(msg.clone(), theme::BAD);
                self.remote = None;
                self.fetching = None;
            } else if let Some((id, bytes)) = remote.take_replay() {
                self.fetching = None;
                match crate::replay_files::save_dir()
                    .ok_or_else(|| "this system has no data folder".to_owned())
                    .and_then(|d| crate::replay_files::save(&d, &id, &bytes))
                {
                    Ok(path) => {
                        ctx.notify(format!("Saved {}", path.display()), theme::GOOD);
                        self.files = list_described(&replay_dirs());
                    }
                    Err(e) => ctx.notify(e, theme::BAD),
                }
            }
        }
        let rows = self.rows();
        let layout = list_layout(io.width, io.height, rows.len());
        let before = self.nav.selected;
        let event = self.nav.handle(io, &layout, rows.len(), &|_| true, false);
        if before != self.nav.selected {
            ctx.play(Sfx::Move);
        }
        #[cfg(target_arch = "wasm32")]
        if io.keyboard.pressed(macroquad::input::KeyCode::D)
            && let Some(Row::File(f)) = rows.get(self.nav.selected)
        {
            download(ctx, &self.files[*f].path);
        }
        if io.keyboard.pressed(macroquad::input::KeyCode::L)
            && let Some(Row::Remote(r)) = rows.get(self.nav.selected)
            && let Some(listing) = self.remote.as_ref().and_then(|rm| rm.replay_list().get(*r))
        {
            let link = Link::Replay(listing.id.clone());
            ctx.copy_game_link(&link);
        }
        match event {
            ListEvent::Back => Transition::Pop,
            ListEvent::Activate(i) => match rows[i] {
                Row::Back => Transition::Pop,
                Row::File(f) => self.open(ctx, f),
                Row::OpenFile => {
                    ctx.play(Sfx::Select);
                    #[cfg(target_arch = "wasm32")]
                    if !crate::platform::web_files::pick_file() {
                        ctx.notify("The browser did not open its file picker.", theme::BAD);
                    }
                    Transition::None
                }
                Row::Download => {
                    ctx.play(Sfx::Select);
                    self.remote = Some(Online::connect(
                        &ctx.config.server,
                        &ctx.config.player_name,
                        ctx.config.handling,
                        ctx.config.keys,
                        Request::ListReplays,
                    ));
                    Transition::None
                }
                Row::Remote(r) => {
                    if let Some(remote) = &mut self.remote
                        && let Some(id) = remote.replay_list().get(r).map(|l| l.id.clone())
                    {
                        ctx.notify(format!("Downloading {id}…"), theme::ACCENT2);
                        remote.fetch_replay(&id);
                        self.fetching = Some(id);
                    }
                    Transition::None
                }
            },
            _ => Transition::None,
        }
    }

    /// Draws the screen.
    fn draw(&self, ctx: &Ctx, io: &FrameIo) {
        let gfx = &ctx.gfx;
        background(io.width, io.height);
        ctx.backdrop.draw();
        let rows = self.rows();
        let l = list_layout(io.width, io.height, rows.len());
        heading(
            gfx,
            l.title,
            l.unit,
            "Replays",
            "Finished matches, frame for frame",
        );
        let shown = self.nav.visible(&l, rows.len());
        scroll_marks(gfx, &shown, rows.len(), l.unit);
        for (i, r) in shown {
            let state = RowState {
                selected: i == self.nav.selected,
                enabled: true,
            };
            match &rows[i] {
                Row::File(f) => {
                    let label = &self.files[*f].label;
                    menu_row(gfx, r, l.unit, label, "WATCH", state, ctx.time);
                }
                Row::OpenFile => menu_row(
                    gfx,
                    r,
                    l.unit,
                    "Open a replay file (.sbrp)…",
                    "FILE",
                    state,
                    ctx.time,
                ),
                Row::Download => {
                    let tag = match self.remote.as_ref().map(Online::stage) {
                        Some(Stage::Connecting) => "CONNECTING…",
                        Some(_) => "CONNECTED",
                        None => "ONLINE",
                    };
                    menu_row(gfx, r, l.unit, "Download from server", tag, state, ctx.time)
                }
                Row::Remote(k) => {
                    let listing = self.remote.as_ref().and_then(|rm| rm.replay_list().get(*k));
                    let saving = listing.is_some_and(|l| self.fetching.as_ref() == Some(&l.id));
                    let tag = if saving { "SAVING…" } else { "SAVE" };
                    let label = listing.map(listing_label).unwrap_or_default();
                    menu_row(
                        gfx,
                        r,
                        l.unit,
                        &format!("  ↓ {label}"),
                        tag,
                        state,
                        ctx.time,
                    )
                }
                Row::Back => menu_row(gfx, r, l.unit, "Back", "ESC", state, ctx.time),
            }
        }
        let dirs: Vec<String> = replay_dirs()
            .iter()
            .map(|d| d.display().to_string())
            .collect();
        let (head, body) = match rows.get(self.nav.selected) {
            Some(Row::File(f)) => {
                let body = match &self.files[*f].detail {
                    Ok(d) => format!("{d}\n\n{}", file_help()),
                    Err(e) => format!("This file cannot be played: {e}"),
                };
                ("Replay", body)
            }
            Some(Row::OpenFile) => (
                "Replay files",
                format!(
                    "Opens a .sbrp file from this device (a replay saved by the desktop game or this page) and plays it; it is then kept in the list. A file dropped on the page opens the same way. {} on a replay of the list saves it as a file.",
                    crate::input::taps::hint("D", "Save file")
                ),
            ),
            Some(Row::Remote(k)) => (
                "From the server",
                self.remote
                    .as_ref()
                    .and_then(|rm| rm.replay_list().get(*k))
                    .map(listing_detail)
                    .unwrap_or_default(),
            ),
            Some(Row::Download) => (
                "From the server",
                format!(
                    "The server {} keeps every finished match. Pick one to save it here; it then appears in the list above. L copies the selected match's link.",
                    ctx.config.server
                ),
            ),
            _ if self.files.is_empty() => (
                "Replays",
                format!(
                    "No replays yet. Save one after an online match (S), download one from the server, or drop .sbrp files in:\n\n{}",
                    dirs.join("\n")
                ),
            ),
            _ => (
                "Replays",
                format!(
                    "{} replay files found in:\n\n{}",
                    self.files.len(),
                    dirs.join("\n")
                ),
            ),
        };
        side_panel(gfx, l.side, l.unit, head, &body);
        // In a page D saves the selected replay as a file: the footer says so, and a touch
        // screen gets its button.
        let (hints, buttons): (&str, &[KeyChoice]) = if cfg!(target_arch = "wasm32") {
            (
                FOOTER_PAGE,
                &[
                    ("Save file", macroquad::input::KeyCode::D),
                    ("Copy link", macroquad::input::KeyCode::L),
                ],
            )
        } else {
            (FOOTER, &[("Copy link", macroquad::input::KeyCode::L)])
        };
        footer_keys(gfx, l.footer, l.unit, hints, buttons, "");
    }

    fn calm(&self) -> bool {
        true
    }

    fn name(&self) -> &'static str {
        "replay"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A match of the history (the standings screen opens its replay through this) whose
    /// replay has several seats (a free-for-all room's, format version 2) opens into the
    /// free-for-all playback; a two-seat one keeps the versus view.
    #[test]
    fn a_history_replay_of_several_seats_opens_with_every_board() {
        let v2 = include_bytes!("../../../crates/protocol/tests/golden/replay_v2.sbrp");
        let screen = playback_bytes(v2, "REPLAY 9-ffa".into()).expect("a v2 replay opens");
        assert_eq!(screen.name(), "replay-battle");
        let v1 = include_bytes!("../../../crates/protocol/tests/golden/replay_v1.sbrp");
        let screen = playback_bytes(v1, "REPLAY 8-ranked".into()).expect("a v1 replay opens");
        assert_eq!(screen.name(), "play", "two seats keep the versus view");
        let err = playback_bytes(b"nonsense", "REPLAY 7".into())
            .err()
            .unwrap_or_default();
        assert!(err.starts_with("corrupted replay"), "{err}");
    }
}
