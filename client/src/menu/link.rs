//! What a link to the page opens (`/room/CODE`, `/watch/CODE`, `/replay/ID`, `/puzzle/CODE`;
//! [`crate::net::links`]): the screen is made on its first frame, so that on a first start it
//! comes after the name is chosen (the welcome screen sits on top of it until then). A link
//! whose code cannot be one, and a replay the server does not have, get a screen saying so.

use macroquad::input::KeyCode;

use crate::config::Config;
use crate::layout::list_layout;
use crate::list_nav::{ListEvent, ListNav};
use crate::net::links::Link;
use crate::net::online::{self, Online, Stage};
use crate::puzzles::PuzzlesScreen;
use crate::render::gfx::background;
use crate::render::theme;
use crate::render::widgets::{RowState, footer, heading, menu_row, side_panel};
use crate::replay_files;
use crate::screen::{Ctx, FrameIo, Screen, Transition};
use crate::versus::lobby::{connection_as, player_connection};
use crate::versus::online::OnlineScreen;

/// The footer of the message screens.
pub const FOOTER: &str = "Enter or Esc  to the menu";

/// Opens `link` on its first frame.
pub struct LinkScreen {
    link: Link,
}

impl LinkScreen {
    /// A screen that opens `link`.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    pub fn new(link: Link) -> LinkScreen {
        LinkScreen { link }
    }
}

/// The screen a link opens, for the player named in `ctx`: it connects as the lobby's forms do
/// ([`player_connection`]), with the player's identity when this machine has one.
pub fn open(link: &Link, ctx: &Ctx) -> Box<dyn Screen> {
    let key = crate::identity::existing_key();
    if let Some((online, title)) = room_connection(link, &ctx.config, key) {
        return Box::new(OnlineScreen::new(online, title, None));
    }
    match link {
        Link::Room(_) | Link::Watch(_) => unreachable!("a room link has its connection"),
        Link::Replay(id) => Box::new(ServerReplayScreen {
            id: id.clone(),
            remote: player_connection(
                &ctx.config,
                &ctx.config.server,
                online::Request::ListReplays,
            ),
            asked: false,
            failed: None,
        }),
        Link::Puzzle(code) => Box::new(PuzzlesScreen::direct(code)),
        Link::Bad(kind, part) => {
            let what = match *kind {
                "room" => "room link",
                "watch" => "spectator link",
                "replay" => "replay link",
                _ => "puzzle link",
            };
            Box::new(MessageScreen::new(
                format!("That is not a {what}"),
                format!(
                    "/{kind}/{part} cannot be opened. Check the link you were given, or ask for it again."
                ),
            ))
        }
    }
}

/// The connection a room link (`/room/CODE`, `/watch/CODE`) opens on the settings' server as
/// the player holding `key` (the lobby's [`connection_as`], so a link's player is the one the
/// Join form makes), and its screen's title; `None` for the other links.
fn room_connection(
    link: &Link,
    config: &Config,
    key: Option<[u8; 32]>,
) -> Option<(Online, &'static str)> {
    let (request, title) = match link {
        Link::Room(code) => (online::Request::Join(code.clone()), "Room"),
        Link::Watch(code) => (online::Request::Spectate(code.clone()), "Spectating"),
        _ => return None,
    };
    Some((connection_as(config, &config.server, request, key), title))
}

impl Screen for LinkScreen {
    fn update(&mut self, ctx: &mut Ctx, _io: &FrameIo) -> Transition {
        Transition::Replace(open(&self.link, ctx))
    }

    fn draw(&self, _ctx: &Ctx, io: &FrameIo) {
        background(io.width, io.height);
    }

    fn name(&self) -> &'static str {
        "link"
    }
}

/// A message and the way back to the menu.
pub struct MessageScreen {
    title: String,
    body: String,
    nav: ListNav,
}

impl MessageScreen {
    /// A screen titled `title` saying `body`.
    pub fn new(title: String, body: String) -> MessageScreen {
        MessageScreen {
            title,
            body,
            nav: ListNav::default(),
        }
    }

    /// What it says (the page's test hook shows it).
    #[cfg_attr(not(any(test, target_arch = "wasm32")), allow(dead_code))]
    pub fn text(&self) -> String {
        format!("{}: {}", self.title, self.body)
    }
}

impl Screen for MessageScreen {
    fn update(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Transition {
        ctx.backdrop.advance(io.dt, io.width, io.height);
        let layout = list_layout(io.width, io.height, 1);
        match self.nav.handle(io, &layout, 1, &|_| true, false) {
            ListEvent::Back | ListEvent::Activate(_) => Transition::Pop,
            _ => Transition::None,
        }
    }

    fn draw(&self, ctx: &Ctx, io: &FrameIo) {
        let gfx = &ctx.gfx;
        background(io.width, io.height);
        ctx.backdrop.draw();
        let l = list_layout(io.width, io.height, 1);
        heading(gfx, l.title, l.unit, &self.title, "");
        let state = RowState {
            selected: true,
            enabled: true,
        };
        menu_row(
            gfx,
            l.row(0),
            l.unit,
            "To the menu",
            "ENTER",
            state,
            ctx.time,
        );
        side_panel(gfx, l.side, l.unit, &self.title, &self.body);
        footer(gfx, l.footer, l.unit, FOOTER, "");
    }

    fn calm(&self) -> bool {
        true
    }

    fn name(&self) -> &'static str {
        "message"
    }
}

/// `/replay/ID`: asks the server for replay ID, keeps it in the replay folder and plays it
/// (with the replay view's seeking), or says why it cannot.
pub struct ServerReplayScreen {
    id: String,
    remote: Online,
    asked: bool,
    failed: Option<String>,
}

impl ServerReplayScreen {
    fn fail(&mut self, why: String) -> Transition {
        Transition::Replace(Box::new(MessageScreen::new(
            "This replay cannot be played".into(),
            format!("Replay {}: {why}", self.id),
        )))
    }
}

impl Screen for ServerReplayScreen {
    fn update(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Transition {
        ctx.backdrop.advance(io.dt, io.width, io.height);
        if io.keyboard.pressed(KeyCode::Escape) {
            return Transition::Pop;
        }
        self.remote.poll(sevenbag_netplay::time::Instant::now());
        if let Some(why) = self.remote.take_notices().into_iter().next() {
            self.failed = Some(why);
        }
        if let Stage::Failed(msg) = self.remote.stage() {
            self.failed = Some(msg.clone());
        }
        if let Some(why) = self.failed.take() {
            return self.fail(why);
        }
        if !self.asked && *self.remote.stage() == Stage::Browsing {
            self.asked = true;
            self.remote.fetch_replay(&self.id);
        }
        let Some((id, bytes)) = self.remote.take_replay() else {
            return Transition::None;
        };
        // Kept like a download from the replay list, so it is there next time.
        if let Some(dir) = replay_files::save_dir()
            && let Err(e) = replay_files::save(&dir, &id, &bytes)
        {
            ctx.notify(e, theme::BAD);
        }
        // Either format version: a match of several seats plays with every board.
        let replay = sevenbag_protocol::replay_file::open(&bytes)
            .map_err(|e| format!("corrupted replay: {e}"));
        match replay.and_then(|r| crate::replays::playback(r, "REPLAY".into())) {
            Ok(play) => Transition::Replace(play),
            Err(e) => self.fail(e),
        }
    }

    fn draw(&self, ctx: &Ctx, io: &FrameIo) {
        let gfx = &ctx.gfx;
        background(io.width, io.height);
        ctx.backdrop.draw();
        let l = list_layout(io.width, io.height, 0);
        heading(gfx, l.title, l.unit, "Replay", &self.id);
        let dots = ".".repeat(1 + (ctx.time * 2.0) as usize % 3);
        side_panel(
            gfx,
            l.side,
            l.unit,
            &format!("Fetching{dots}"),
            &format!("Asking {} for replay {}.", self.remote.url(), self.id),
        );
        footer(gfx, l.footer, l.unit, "Esc  back", "");
    }

    fn name(&self) -> &'static str {
        "replay_link"
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use sevenbag_protocol::RoomOptions;

    use super::*;
    use crate::net::test_server::LocalServer;

    /// Polls `clients` until `done`, for at most ten seconds.
    fn run(clients: &mut [&mut Online], done: impl Fn(&[&mut Online]) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while !done(clients) {
            assert!(Instant::now() < deadline, "timed out: {clients:?}");
            for c in clients.iter_mut() {
                c.tick(sevenbag_netplay::time::Instant::now(), &mut |_, _| {
                    sevenbag_core::Input::NONE
                });
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    #[test]
    fn a_room_link_takes_the_seat_as_the_stored_identity() {
        let server = LocalServer::start_with(|config, dir| config.db = Some(dir.join("s.db")));
        let config = Config {
            server: server.addr().to_string(),
            player_name: "linked".into(),
            ..Config::default()
        };
        let key = [5; 32];
        // The identity exists (a ranked request registers it), as a player's page has it.
        let mut ranked = connection_as(&config, &config.server, online::Request::Ranked(key), None);
        run(&mut [&mut ranked], |c| c[0].identified());
        ranked.leave();
        let host_config = Config {
            player_name: "hosting".into(),
            ..config.clone()
        };
        let mut host = connection_as(
            &host_config,
            &config.server,
            online::Request::Create(RoomOptions::default()),
            None,
        );
        run(&mut [&mut host], |c| c[0].code().is_some());
        let code = host.code().unwrap_or_default().to_owned();
        let (mut linked, title) =
            room_connection(&Link::Room(code), &config, Some(key)).expect("a room link connects");
        assert_eq!(title, "Room");
        run(&mut [&mut host, &mut linked], |c| {
            c[1].seat().is_some() && c[1].identified()
        });
    }
}
