//! The screens the game opens with: the menu, and over it what the flags ask for (the demo, a
//! replay, a puzzle, a `--screen` for screenshots and tests) or, in a browser, what the page's
//! address asks for (a `/watch/CODE` room).

use sevenbag_core::MatchHeader;

use crate::account::leaderboard::StandingsScreen;
use crate::challenge::ChallengeScreen;
use crate::cli::{Args, StartScreen};
use crate::match_stats::MatchStats;
use crate::menu::MenuScreen;
use crate::menu::welcome::WelcomeScreen;
use crate::net::lan;
use crate::opponent::Opponent;
use crate::party::PartySetup;
use crate::party::screen::PartyScreen;
use crate::party::setup::PartySetupScreen;
#[cfg(target_arch = "wasm32")]
use crate::platform::{page, web};
use crate::puzzles::PuzzlesScreen;
use crate::replay_files as replay;
use crate::replays::ReplayScreen;
use crate::replays::playback;
use crate::screen::{Ctx, Screen};
use crate::settings::SettingsScreen;
use crate::solo::SoloScreen;
use crate::stats_screen::StatsScreen;
use crate::versus::lobby::{LobbyKind, LobbyScreen};
use crate::versus::play::PlayScreen;
use crate::versus::setup::{SetupKind, SetupScreen};

/// Who plays the demo (`--demo`): swapping the automatic players is this one line.
const DEMO_PLAYERS: [Opponent; 2] = [
    Opponent::Bot(sevenbag_bot::Level::Hard),
    Opponent::Bot(sevenbag_bot::Level::Medium),
];

/// The screens the game opens with, bottom first.
pub fn first_screens(args: &Args, ctx: &Ctx, first_start: bool) -> Vec<Box<dyn Screen>> {
    let menu = || Box::new(MenuScreen::new());
    // A link to the page (`/room/CODE`, `/watch/CODE`, `/replay/ID`, `/puzzle/CODE`) opens
    // what it names on the page's server, after the name on a first start.
    #[cfg(target_arch = "wasm32")]
    if let Some(link) = crate::net::links::from_href(&web::location()) {
        let mut screens: Vec<Box<dyn Screen>> =
            vec![menu(), Box::new(crate::menu::link::LinkScreen::new(link))];
        if first_start {
            screens.push(Box::new(WelcomeScreen::default()));
        }
        return screens;
    }
    // The demo bots through an embedded server: a room of two seats, each a bot's connection.
    #[cfg(not(target_arch = "wasm32"))]
    if args.demo && args.online {
        let setup = PartySetup {
            bots: 1,
            ..PartySetup::default()
        };
        match crate::party::online::PartyOnlineScreen::crowd(&setup, args.seed) {
            Ok(screen) => return vec![menu(), Box::new(screen)],
            Err(e) => eprintln!("error: the online demo could not start: {e}"),
        }
    }
    if args.demo {
        let header = MatchHeader::versus(args.seed);
        let demo = PlayScreen::demo(header, DEMO_PLAYERS);
        return vec![menu(), Box::new(demo)];
    }
    if let Some(path) = &args.replay {
        let replays = || Box::new(ReplayScreen::default());
        // Either format version: two seats in the match view, several with every board.
        return match replay::load_any(path).and_then(|r| playback(r, "REPLAY".into())) {
            Ok(play) if args.screen == Some(StartScreen::MatchStats) => {
                let stats = replay::load_any(path).and_then(|r| MatchStats::of(&r.replay));
                match stats {
                    Ok(stats) => {
                        let screen = Box::new(StatsScreen::new(std::rc::Rc::new(stats)));
                        vec![menu(), replays(), play, screen]
                    }
                    Err(e) => {
                        eprintln!("error: {}: {e}", path.display());
                        vec![menu(), replays(), play]
                    }
                }
            }
            Ok(play) => vec![menu(), replays(), play],
            Err(e) => {
                eprintln!("error: {}: {e}", path.display());
                vec![menu(), replays()]
            }
        };
    }
    if let Some(code) = &args.puzzle {
        let puzzles = PuzzlesScreen::direct(code);
        return vec![menu(), Box::new(puzzles)];
    }
    let top: Box<dyn Screen> = match args.screen {
        // The first start asks for a name before the menu.
        None if first_start => Box::new(WelcomeScreen::default()),
        None | Some(StartScreen::Menu) => return vec![menu()],
        Some(StartScreen::Welcome) => Box::new(WelcomeScreen::default()),
        Some(StartScreen::Settings) if args.skin.is_some() => {
            Box::new(SettingsScreen::at_skin_row(ctx))
        }
        Some(StartScreen::Settings) => Box::new(SettingsScreen::new(ctx)),
        Some(StartScreen::Practice) => Box::new(SetupScreen::new(
            SetupKind::Practice,
            &ctx.config.setup,
            &ctx.config.bots,
        )),
        Some(StartScreen::Local) => Box::new(SetupScreen::new(
            SetupKind::Local,
            &ctx.config.setup,
            &ctx.config.bots,
        )),
        Some(StartScreen::Lobby) => Box::new(LobbyScreen::new(LobbyKind::JoinRoom)),
        Some(StartScreen::Create) => Box::new(LobbyScreen::new(LobbyKind::CreateRoom)),
        Some(StartScreen::Room) => {
            let dir = std::env::temp_dir().join(format!("sevenbag-room-{}", std::process::id()));
            match lan::HostedServer::start_on(std::net::Ipv4Addr::LOCALHOST, 0, dir) {
                Ok(server) => {
                    let online = crate::net::battle::BattleOnline::create(
                        &format!("127.0.0.1:{}", server.port()),
                        &ctx.config.player_name,
                        ctx.config.handling,
                        sevenbag_protocol::BattleRoomOptions::ffa(2),
                    );
                    let hosting = lan::LanHosting {
                        address: format!("127.0.0.1:{}", server.port()),
                        beacon: None,
                        server,
                    };
                    Box::new(crate::party::online::PartyOnlineScreen::new(online).hosting(hosting))
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    return vec![menu()];
                }
            }
        }
        Some(StartScreen::Replays) => Box::new(ReplayScreen::default()),
        Some(StartScreen::Leaderboard) => Box::new(
            StandingsScreen::new(ctx, crate::replays::playback_bytes)
                .opening(args.match_id)
                .with_friends(crate::friends::FriendsScreen::boxed),
        ),
        #[cfg(not(target_arch = "wasm32"))]
        Some(StartScreen::Friends) => {
            match crate::friends::capture::open(&ctx.config.player_name) {
                Ok(screen) => Box::new(screen),
                Err(e) => {
                    eprintln!("error: the friends capture: {e}");
                    return vec![menu()];
                }
            }
        }
        #[cfg(target_arch = "wasm32")]
        Some(StartScreen::Friends) => Box::new(crate::friends::FriendsScreen::new(ctx)),
        #[cfg(not(target_arch = "wasm32"))]
        Some(StartScreen::FriendPicker) => {
            match crate::friends::capture::open_picker(&ctx.config.player_name) {
                Ok(screen) => screen,
                Err(e) => {
                    eprintln!("error: the friend picker capture: {e}");
                    return vec![menu()];
                }
            }
        }
        #[cfg(target_arch = "wasm32")]
        Some(StartScreen::FriendPicker) => return vec![menu()],
        Some(StartScreen::InviteToast | StartScreen::InviteAsk) => {
            Box::new(SoloScreen::playing(sevenbag_core::SoloMode::Sprint, ctx))
        }
        Some(StartScreen::Challenge) => Box::new(ChallengeScreen::watching_best()),
        Some(StartScreen::Solo) => Box::new(SoloScreen::default()),
        Some(StartScreen::Sprint) => {
            Box::new(SoloScreen::playing(sevenbag_core::SoloMode::Sprint, ctx))
        }
        Some(StartScreen::SoloPast) => Box::new(SoloScreen::past(sevenbag_core::SoloMode::Sprint)),
        Some(StartScreen::SoloPaused) => {
            let mut s = SoloScreen::playing(sevenbag_core::SoloMode::Sprint, ctx);
            s.pause();
            Box::new(s)
        }
        Some(StartScreen::SoloWatch) => {
            match sevenbag_protocol::SoloReplay::decode(crate::solo::SAMPLE) {
                Ok(r) => Box::new(SoloScreen::watching(&r, "40 LINES  ·  SAMPLE RUN")),
                Err(e) => {
                    eprintln!("error: the sample solo replay: {e}");
                    return vec![menu()];
                }
            }
        }
        Some(StartScreen::PartySetup) => Box::new(PartySetupScreen::default()),
        Some(StartScreen::Party) => {
            let setup = PartySetup {
                bots: args.seats - 1,
                teams: args.teams,
                ..PartySetup::default()
            };
            match PartyScreen::watch(&setup, args.seed, ctx) {
                Ok(screen) => Box::new(screen),
                Err(e) => {
                    eprintln!("error: {e}");
                    return vec![menu()];
                }
            }
        }
        Some(StartScreen::PartyQueue) => {
            let others = usize::from(args.seats.clamp(1, 8)) - 1;
            match crate::party::online::PartyOnlineScreen::queue_crowd(others, args.seed) {
                Ok(screen) => Box::new(screen),
                Err(e) => {
                    eprintln!("error: {e}");
                    return vec![menu()];
                }
            }
        }
        Some(
            StartScreen::PartyOnline
            | StartScreen::PartyWatch
            | StartScreen::PartyReconnect
            | StartScreen::PartySkins,
        ) => {
            let setup = PartySetup {
                bots: args.seats.max(2) - 1,
                teams: args.teams,
                ..PartySetup::default()
            };
            let made = if args.screen == Some(StartScreen::PartyWatch) {
                crate::party::online::PartyOnlineScreen::watch_crowd(&setup)
            } else if args.screen == Some(StartScreen::PartySkins) {
                crate::party::online::PartyOnlineScreen::skinned_crowd(&setup, args.seed)
            } else if args.screen == Some(StartScreen::PartyReconnect) {
                crate::party::online::PartyOnlineScreen::reconnect_crowd(&setup, args.seed)
            } else {
                crate::party::online::PartyOnlineScreen::crowd(&setup, args.seed)
            };
            match made {
                Ok(screen) => Box::new(screen),
                Err(e) => {
                    eprintln!("error: {e}");
                    return vec![menu()];
                }
            }
        }
        Some(StartScreen::MatchStats) => {
            eprintln!(
                "error: --screen match-stats opens a replay's statistics: give --replay PATH"
            );
            return vec![menu()];
        }
        Some(StartScreen::Play) => {
            let mut header = MatchHeader::versus(args.seed);
            header.handling = [ctx.config.handling, sevenbag_bot::BOT_HANDLING];
            Box::new(PlayScreen::practice(
                header,
                Opponent::Stacker,
                &ctx.config,
                crate::drill::Drill::Off,
            ))
        }
    };
    vec![menu(), top]
}

/// In a browser: waits (at most a few seconds, drawing nothing) until the page has read its
/// stored files, then says what it skipped of them (an entry that is not bytes, too large, or
/// another version's) and any trouble keeping them.
#[cfg(target_arch = "wasm32")]
pub async fn wait_for_page_files(ctx: &mut Ctx) {
    use crate::platform::web_files;
    let started = sevenbag_netplay::time::Instant::now();
    while web_files::ready().is_none() && started.elapsed().as_secs_f64() < 5.0 {
        macroquad::window::clear_background(crate::render::theme::BACKGROUND);
        macroquad::window::next_frame().await;
    }
    let skipped = web_files::skipped();
    if !skipped.is_empty() {
        ctx.notify(
            format!(
                "Skipped {} stored entr{} the game cannot use (left as they are): {}",
                skipped.len(),
                if skipped.len() == 1 { "y" } else { "ies" },
                skipped.join("; ")
            ),
            crate::render::theme::BAD,
        );
    }
    if let Some(problem) = web_files::problem() {
        ctx.notify(problem, crate::render::theme::BAD);
    }
}

/// In a browser: the page's own server (or a `?server=` in its address) is the server (the
/// Online screens' address).
#[cfg(target_arch = "wasm32")]
pub fn use_page_server(ctx: &mut Ctx) {
    let href = web::location();
    if let Some(server) =
        page::query_server(&href, crate::config::MAX_ADDRESS).or_else(|| page::page_server(&href))
    {
        ctx.config.server = server;
    }
}
