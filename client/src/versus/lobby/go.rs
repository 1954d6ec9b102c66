//! What "Go" does for each form: the connection it opens (with the player's key), or the LAN
//! server it starts first, and the [`OnlineScreen`] it pushes (a created room: the room screen
//! of every seat count).

use sevenbag_protocol::BattleRoomOptions;

use crate::config::Config;
use crate::net::battle::BattleOnline;
use crate::net::lan::LanHosting;
use crate::net::lan::{BeaconSender, HostedServer};
use crate::net::online::transport::DEFAULT_GAME_PORT;
use crate::net::online::{Online, Request};
use crate::render::theme;
use crate::screen::{Ctx, Transition};
use crate::sound::sfx::Sfx;
use crate::versus::online::OnlineScreen;

use super::{LobbyKind, LobbyScreen};

/// The player's connection to `address` making `request`, with the player's key when this
/// machine has one: the connection identifies, so mutes, reports and blocks work in quick
/// match and rooms too. Every way into a room goes through here: the lobby's forms and the
/// page's links (`/room/CODE`, `/watch/CODE`, `/replay/ID`).
pub(crate) fn player_connection(config: &Config, address: &str, request: Request) -> Online {
    connection_as(config, address, request, crate::identity::existing_key())
}

/// [`player_connection`] with the key given (the tests pass one).
pub(crate) fn connection_as(
    config: &Config,
    address: &str,
    request: Request,
    key: Option<[u8; 32]>,
) -> Online {
    Online::connect(
        address,
        &config.player_name,
        config.handling,
        config.keys,
        request,
    )
    .with_key(key)
}

impl LobbyScreen {
    fn connect(&self, ctx: &Ctx, address: &str, request: Request) -> Online {
        player_connection(&ctx.config, address, request)
    }

    /// The player's connection to `address` creating a room of two seats of the general kind
    /// with the form's rules (a leaver forfeits, as in versus), which the room screen every
    /// seat count shares shows.
    fn created(&self, ctx: &Ctx, address: &str) -> BattleOnline {
        let options = BattleRoomOptions {
            room: self.options,
            ..BattleRoomOptions::ffa(2)
        };
        let c = &ctx.config;
        BattleOnline::create(address, &c.player_name, c.handling, options)
            .with_key(crate::identity::existing_key())
    }

    pub(super) fn go(&mut self, ctx: &mut Ctx, host: Option<usize>) -> Transition {
        let code = self.code.trim().to_owned();
        let server = self.server(ctx).to_owned();
        let (online, title, lan) = match self.kind {
            LobbyKind::QuickMatch => (
                self.connect(ctx, &server, Request::QuickMatch),
                "Quick match",
                None,
            ),
            LobbyKind::Ranked => {
                let key = crate::identity::default_key_path()
                    .ok_or_else(|| "no config directory for the player key".to_owned())
                    .and_then(|path| crate::identity::load_or_create(&path));
                match key {
                    Ok(key) => (
                        self.connect(ctx, &server, Request::Ranked(key)),
                        "Ranked match",
                        None,
                    ),
                    Err(e) => {
                        ctx.notify(e, theme::BAD);
                        return Transition::None;
                    }
                }
            }
            LobbyKind::CreateRoom => {
                if let Err(e) = self.options.rules().validate() {
                    ctx.notify(format!("These options are not valid: {e}"), theme::BAD);
                    return Transition::None;
                }
                let online = self.created(ctx, &server).inviting(self.challenge.clone());
                ctx.play(Sfx::Select);
                return Transition::Push((ctx.open_battle_room)(online));
            }
            LobbyKind::JoinRoom | LobbyKind::Spectate if code.is_empty() => {
                ctx.notify("Type the room code first.", theme::GARBAGE_QUEUED);
                return Transition::None;
            }
            LobbyKind::JoinRoom => (
                self.connect(ctx, &server, Request::Join(code)),
                "Room",
                None,
            ),
            LobbyKind::Spectate => (
                self.connect(ctx, &server, Request::Spectate(code)),
                "Spectating",
                None,
            ),
            LobbyKind::LanHost => {
                let dir = crate::replay_files::save_dir()
                    .unwrap_or_else(|| std::path::PathBuf::from("replays"));
                let server = match HostedServer::start(self.port, dir) {
                    Ok(s) => s,
                    Err(e) => {
                        ctx.notify(e, theme::BAD);
                        return Transition::None;
                    }
                };
                let port = server.port();
                if port != self.port {
                    ctx.notify(
                        format!("Port {} is busy; hosting on port {port}.", self.port),
                        theme::GARBAGE_QUEUED,
                    );
                }
                let ip = crate::net::lan::lan_ip()
                    .map_or_else(|| "this computer's address".to_owned(), |ip| ip.to_string());
                let hosting = LanHosting {
                    address: format!("{ip}:{port}"),
                    beacon: BeaconSender::broadcast().ok(),
                    server,
                };
                let online = self.created(ctx, &format!("127.0.0.1:{port}"));
                ctx.play(Sfx::Select);
                return Transition::Push((ctx.open_lan_room)(online, hosting));
            }
            LobbyKind::LanJoin => {
                let (address, code) = match host.and_then(|i| self.hosts.get(i)) {
                    Some(h) => (h.addr.to_string(), h.beacon.code.clone()),
                    None if self.address.trim().is_empty() => {
                        ctx.notify(
                            "Pick a game above, or type the host's address (for example 192.168.1.20:7878).",
                            theme::GARBAGE_QUEUED,
                        );
                        return Transition::None;
                    }
                    None => {
                        let a = self.address.trim();
                        let a = if a.contains(':') {
                            a.to_owned()
                        } else {
                            format!("{a}:{DEFAULT_GAME_PORT}")
                        };
                        (a, self.code.trim().to_owned())
                    }
                };
                if code.is_empty() {
                    ctx.notify(
                        "Type the room code the host shows (the LAN host screen shows it big).",
                        theme::GARBAGE_QUEUED,
                    );
                    return Transition::None;
                }
                (
                    self.connect(ctx, &address, Request::Join(code)),
                    "LAN game",
                    None,
                )
            }
        };
        ctx.play(Sfx::Select);
        self.code_used();
        Transition::Push(Box::new(OnlineScreen::new(online, title, lan)))
    }
}
