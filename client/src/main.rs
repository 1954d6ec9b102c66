//! # Sevenbag, the game
//!
//! A macroquad front end: menus, settings, and the versus match view. The client never computes
//! rules: it feeds each seat's [`sevenbag_core::Input`] to a [`sevenbag_core::Match`] (through a
//! [`session::Session`]) and draws the match's views.
//!
//! ## Layout
//! - `main.rs` — flags, window, the tick loop (zemeroth's order: layout, input, update, draw).
//! - [`cli`] — flags.
//! - [`screen`] — `Screen`, `Transition`, the stack and the shared context.
//! - [`screens`] — one file per screen.
//! - [`session`] — where a match comes from: offline, online ([`online`]) or a replay ([`replay`]).
//! - [`online`] — the connection, lobby state and rollback session, without macroquad.
//! - [`identity`] — the player key, the kept recovery code, and the ranked identify exchange.
//! - [`account`] — Settings › Account: show the identity, import a recovery code.
//! - [`reconnect`] — the clock of an automatic reconnect after a dropped connection.
//! - [`demo_online`] — `--demo --online` through an embedded server.
//! - [`lan`] — the LAN beacon and the in-process server.
//! - [`replay`] — replay files and playback.
//! - [`opponent`] — automatic players behind one trait.
//! - [`input`] and [`keys`] — key maps, the press latch, key names.
//! - [`clock`] — the fixed 60 Hz simulation step.
//! - [`layout`] — pure screen geometry.
//! - [`render`] — drawing.
//! - [`fx`] — popups and flashes made from match events.
//! - [`config`] — settings and their TOML file.
//! - [`sfx`] and [`audio`] — generated sound effects and playing them.
//! - [`screenshot`] — `--screenshot` and `--check-screenshot`.
//! - [`pacer`] — the frame cap (`--max-fps`).
//! - [`bench`] — `--bench`: frame-time percentiles, CPU per frame, peak memory.
//! - [`memcheck`] — `--memory-check`: fails a run whose resident set keeps rising.
//! - [`solo_run`], [`solo_fx`], [`solo_store`], [`solo_view`] — a solo run's bookkeeping, its
//!   effects, its files and its drawing (the screen is `screens::solo`).
//! - [`challenge_view`] — drawing the fixed-sequence challenge (its screen is `screens::challenge`).
//! - [`puzzle_play`] — the Puzzles mode's puzzles and games (its screen is `screens::puzzles`).
//! - [`puzzle_view`] — drawing a puzzle being played.

// The browser build leaves features out (LAN, files, flags): what only they use is unused there.
#![cfg_attr(target_arch = "wasm32", allow(dead_code))]

mod account;
mod challenge;
mod checks;
mod cli;
mod input;
mod layout;
mod menu;
mod net;
mod platform;
mod puzzles;
mod render;
mod replays;
mod screen;
mod settings;
mod solo;
mod sound;
mod versus;

#[cfg(not(target_arch = "wasm32"))]
use std::process::ExitCode;
use std::sync::atomic::{AtomicU8, Ordering};

use anyhow::Context as _;
use clap::Parser;
use macroquad::prelude::*;
use sevenbag_core::MatchHeader;

#[cfg(target_arch = "wasm32")]
use crate::checks::probe;
use crate::checks::{bench, memcheck, screenshot};
use crate::cli::{Args, StartScreen};
use crate::input::Keyboard;
#[cfg(feature = "gamepad")]
use crate::input::pad;
use crate::menu::MenuScreen;
use crate::net::{lan, online};
use crate::platform::clock::{FixedClock, STEP};
use crate::platform::{clock, pacer};
#[cfg(target_arch = "wasm32")]
use crate::platform::{page, web};
use crate::render::theme;
use crate::screen::{Ctx, FrameIo, Mouse, Screen, Stack};
use crate::settings::SettingsScreen;
use crate::sound::audio;
use crate::versus::lobby::{LobbyKind, LobbyScreen};
use crate::versus::opponent::Opponent;
use crate::versus::play::{PlayMode, PlayScreen};
use crate::versus::setup::{SetupKind, SetupScreen};

/// Who plays the demo: swapping the automatic players is this one line.
const DEMO_PLAYERS: [Opponent; 2] = [
    Opponent::Bot(sevenbag_bot::Level::Hard),
    Opponent::Bot(sevenbag_bot::Level::Medium),
];

/// The process exit code, set by the game loop (the window owns the thread until it closes).
static EXIT: AtomicU8 = AtomicU8::new(0);

fn window_conf(size: Option<(i32, i32)>) -> Conf {
    let (window_width, window_height) = size.unwrap_or((1280, 720));
    Conf {
        window_title: "Sevenbag".to_owned(),
        window_width,
        window_height,
        window_resizable: true,
        high_dpi: true,
        sample_count: 1,
        ..Default::default()
    }
}

/// In a browser: no flags, no log output, the clock from the page; a `/watch/CODE` address
/// spectates that room on the page's server at once.
#[cfg(target_arch = "wasm32")]
fn main() {
    sevenbag_netplay::time::set_source(web::now_secs);
    let args = Args::parse_from(["sevenbag"]);
    macroquad::Window::from_config(window_conf(None), run(args));
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> ExitCode {
    memcheck::tune_allocator();
    let args = Args::parse();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .init();
    if let Some(path) = &args.check_screenshot {
        return match check_screenshot(path) {
            Ok(true) => ExitCode::SUCCESS,
            Ok(false) => ExitCode::FAILURE,
            Err(e) => {
                eprintln!("error: {e:#}");
                ExitCode::from(2)
            }
        };
    }
    #[cfg(feature = "audio")]
    audio::quiet_missing_device();
    macroquad::Window::from_config(window_conf(args.window_size), run(args));
    ExitCode::from(EXIT.load(Ordering::SeqCst))
}

/// `--check-screenshot`: prints what each board area shows; true when both pass.
fn check_screenshot(path: &std::path::Path) -> anyhow::Result<bool> {
    let reports = screenshot::check_file(path)
        .with_context(|| format!("reading screenshot {}", path.display()))?;
    let mut ok = true;
    for (side, r) in ["left", "right"].iter().zip(&reports) {
        let kinds: String = r.kinds.iter().map(|k| k.letter()).collect();
        println!(
            "{side} board: {} distinct colours, {} piece colours ({kinds}), {} garbage cells, {} empty cells",
            r.distinct_colours,
            r.kinds.len(),
            r.garbage_cells,
            r.empty_cells
        );
        ok &= r.passes();
    }
    println!(
        "{}",
        if ok {
            "ok: both boards show pieces".to_owned()
        } else {
            format!(
                "FAIL: each board needs at least {} piece colours",
                screenshot::MIN_KINDS
            )
        }
    );
    Ok(ok)
}

/// A seed for a new offline match.
pub fn random_seed() -> u64 {
    let nanos = clock::unix_nanos();
    // SplitMix64 finaliser: spreads nearby clock values apart.
    let mut z = nanos.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The screens the game opens with, bottom first.
fn first_screens(args: &Args, ctx: &Ctx, first_start: bool) -> Vec<Screen> {
    let menu = || Screen::Menu(MenuScreen::new());
    // A `/watch/CODE` page spectates that room on the page's server at once.
    #[cfg(target_arch = "wasm32")]
    if let Some(code) = page::watch_code(&web::location()) {
        let online = online::Online::connect(
            &ctx.config.server,
            &ctx.config.player_name,
            ctx.config.handling,
            ctx.config.keys,
            online::Request::Spectate(code),
        );
        let screen = versus::online::OnlineScreen::new(online, "Spectating", None);
        return vec![menu(), Screen::Online(Box::new(screen))];
    }
    #[cfg(not(target_arch = "wasm32"))]
    if args.demo && args.online {
        match versus::demo_online::OnlineDemo::start(DEMO_PLAYERS) {
            Ok(session) => {
                let names = DEMO_PLAYERS.map(|o| o.label());
                let demo = PlayScreen::<dyn versus::session::Session>::new(
                    Box::new(session),
                    PlayMode::Demo,
                    names,
                    "ONLINE DEMO".to_owned(),
                );
                return vec![menu(), Screen::Play(Box::new(demo))];
            }
            Err(e) => eprintln!("error: the online demo could not start: {e}"),
        }
    }
    if args.demo {
        let header = MatchHeader::versus(args.seed);
        let demo = PlayScreen::demo(header, DEMO_PLAYERS);
        return vec![menu(), Screen::Play(Box::new(demo))];
    }
    if let Some(path) = &args.replay {
        let replays = || Screen::Replay(Box::default());
        return match replays::files::load(path).and_then(replays::files::ReplaySession::new) {
            Ok(s) => {
                let names = s.replay().names.clone();
                let play = PlayScreen::<dyn versus::session::Session>::new(
                    Box::new(s),
                    PlayMode::Replay,
                    names,
                    "REPLAY".into(),
                );
                vec![menu(), replays(), Screen::Play(Box::new(play))]
            }
            Err(e) => {
                eprintln!("error: {}: {e}", path.display());
                vec![menu(), replays()]
            }
        };
    }
    if let Some(code) = &args.puzzle {
        let puzzles = puzzles::PuzzlesScreen::direct(code);
        return vec![menu(), Screen::Puzzles(Box::new(puzzles))];
    }
    let top = match args.screen {
        // The first start asks for a name before the menu.
        None if first_start => Screen::Welcome(Box::default()),
        None | Some(StartScreen::Menu) => return vec![menu()],
        Some(StartScreen::Welcome) => Screen::Welcome(Box::default()),
        Some(StartScreen::Settings) => Screen::Settings(Box::new(SettingsScreen::new(ctx))),
        Some(StartScreen::Practice) => Screen::Setup(SetupScreen::new(
            SetupKind::Practice,
            &ctx.config.setup,
            &ctx.config.bots,
        )),
        Some(StartScreen::Local) => Screen::Setup(SetupScreen::new(
            SetupKind::Local,
            &ctx.config.setup,
            &ctx.config.bots,
        )),
        Some(StartScreen::Lobby) => Screen::Lobby(LobbyScreen::new(LobbyKind::JoinRoom)),
        Some(StartScreen::Create) => Screen::Lobby(LobbyScreen::new(LobbyKind::CreateRoom)),
        Some(StartScreen::Room) => {
            let dir = std::env::temp_dir().join(format!("sevenbag-room-{}", std::process::id()));
            match lan::HostedServer::start_on(std::net::Ipv4Addr::LOCALHOST, 0, dir) {
                Ok(server) => {
                    let online = online::Online::connect(
                        &format!("127.0.0.1:{}", server.port()),
                        &ctx.config.player_name,
                        ctx.config.handling,
                        ctx.config.keys,
                        online::Request::Create(sevenbag_protocol::RoomOptions::default()),
                    );
                    let hosting = versus::online::LanHosting {
                        address: format!("127.0.0.1:{}", server.port()),
                        beacon: None,
                        server,
                    };
                    Screen::Online(Box::new(versus::online::OnlineScreen::new(
                        online,
                        "Room",
                        Some(hosting),
                    )))
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    return vec![menu()];
                }
            }
        }
        Some(StartScreen::Replays) => Screen::Replay(Box::default()),
        Some(StartScreen::Leaderboard) => {
            Screen::Standings(Box::new(account::leaderboard::StandingsScreen::new(ctx)))
        }
        Some(StartScreen::Challenge) => {
            Screen::Challenge(Box::new(challenge::ChallengeScreen::watching_best()))
        }
        Some(StartScreen::Solo) => Screen::Solo(Box::default()),
        Some(StartScreen::Sprint) => Screen::Solo(Box::new(solo::SoloScreen::playing(
            sevenbag_core::SoloMode::Sprint,
            ctx,
        ))),
        Some(StartScreen::SoloPast) => Screen::Solo(Box::new(solo::SoloScreen::past(
            sevenbag_core::SoloMode::Sprint,
        ))),
        Some(StartScreen::SoloPaused) => {
            let mut s = solo::SoloScreen::playing(sevenbag_core::SoloMode::Sprint, ctx);
            s.pause();
            Screen::Solo(Box::new(s))
        }
        Some(StartScreen::SoloWatch) => match sevenbag_protocol::SoloReplay::decode(solo::SAMPLE) {
            Ok(r) => Screen::Solo(Box::new(solo::SoloScreen::watching(
                &r,
                "40 LINES  ·  SAMPLE RUN",
            ))),
            Err(e) => {
                eprintln!("error: the sample solo replay: {e}");
                return vec![menu()];
            }
        },
        Some(StartScreen::Play) => {
            let mut header = MatchHeader::versus(args.seed);
            header.handling = [ctx.config.handling, sevenbag_bot::BOT_HANDLING];
            Screen::Play(Box::new(PlayScreen::practice(
                header,
                Opponent::Stacker,
                &ctx.config,
            )))
        }
    };
    vec![menu(), top]
}

async fn run(args: Args) {
    let config_path = args.config.clone().or_else(settings::config::default_path);
    // No settings file yet: the first start, which asks for a name.
    let first_start = config_path
        .as_deref()
        .is_some_and(|p| !settings::config::exists(p));
    let (config, problem) = settings::config::load_or_default(config_path.as_deref());
    let audio = audio::Audio::load(config.volume).await;
    let mut ctx = Ctx {
        config,
        config_path,
        notice: None,
        audio,
        gfx: render::gfx::Gfx::load(),
        time: 0.0,
        backdrop: render::backdrop::Backdrop::new(),
    };
    render::gfx::set_plain_background(ctx.config.plain_background);
    if let Some(problem) = problem {
        ctx.notify(problem, theme::BAD);
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let trust_cert = args.trust_cert.clone().or(ctx.config.trust_cert.clone());
        if let Err(e) = online::set_trust(trust_cert.as_deref()) {
            ctx.notify(e, theme::BAD);
        }
    }
    #[cfg(target_arch = "wasm32")]
    page_start(&mut ctx);
    let mut stack = Stack::new(first_screens(&args, &ctx, first_start));
    let capture = args.frames.is_some();
    let mut clock = if capture {
        FixedClock::one_per_frame()
    } else {
        FixedClock::real_time()
    };
    let mut last_mouse =
        Vec2::from(mouse_position()) / layout::logical_size(screen_width(), screen_height()).2;
    let mut frames = 0u64;
    let started = sevenbag_netplay::time::Instant::now();
    let mut bench = args.bench.then(bench::FrameStats::start);
    let mut memory = args.memory_check.then(memcheck::MemoryCheck::default);
    let mut idle = pacer::Idle::default();
    // A capture (`--frames`) runs as fast as it can; play is held to the frame cap.
    // In a browser the page's animation frames pace the game.
    let mut pacer = if capture || cfg!(target_arch = "wasm32") {
        None
    } else {
        pacer::Pacer::new(args.max_fps)
    };
    #[cfg(feature = "gamepad")]
    let mut pads = pad::Pads::open();
    #[cfg(target_arch = "wasm32")]
    let mut published = String::new();
    loop {
        // 1. Resize and layout: read the window size; every screen lays itself out from it.
        ctx.gfx.refresh();
        // A window below the minimum size is laid out at the minimum and scaled down to fit.
        let (width, height, scale) = layout::logical_size(screen_width(), screen_height());
        if scale < 1.0 {
            let mut camera = Camera2D::from_display_rect(Rect::new(0.0, 0.0, width, height));
            // macroquad flips y for cameras drawing to the screen; this one keeps y down.
            camera.zoom.y = -camera.zoom.y;
            set_camera(&camera);
        } else {
            set_default_camera();
        }
        // 2. Input: sample keyboard and mouse once; the clock says how many 60 Hz steps are due.
        let dt = if capture {
            STEP as f32
        } else {
            get_frame_time()
        };
        let pos = Vec2::from(mouse_position()) / scale;
        #[cfg_attr(not(feature = "gamepad"), allow(unused_mut))]
        let mut keyboard = Keyboard::sample();
        #[cfg(feature = "gamepad")]
        if let Some(p) = &mut pads {
            p.frame().apply(&ctx.config.pad, &mut keyboard);
        }
        let io = FrameIo {
            keyboard,
            mouse: Mouse {
                pos,
                moved: pos != last_mouse,
                clicked: is_mouse_button_pressed(MouseButton::Left),
                wheel: mouse_wheel().1,
            },
            dt,
            steps: clock.advance(f64::from(dt)),
            width,
            height,
        };
        last_mouse = pos;
        idle.frame(
            dt,
            !io.keyboard.down.is_empty()
                || !io.keyboard.pressed.is_empty()
                || !io.keyboard.chars.is_empty()
                || io.mouse.moved
                || io.mouse.clicked
                || io.mouse.wheel != 0.0,
        );
        // 3. Update: the top screen runs the due simulation steps and returns a transition.
        ctx.time += dt;
        if let Some(n) = &mut ctx.notice {
            n.left -= dt;
            if n.left <= 0.0 {
                ctx.notice = None;
            }
        }
        let Some(top) = stack.top_mut() else { break };
        let transition = top.update(&mut ctx, &io);
        if !stack.apply(transition) {
            break;
        }
        // 4. Draw: the top screen, then any notice over it.
        if let Some(top) = stack.top() {
            top.draw(&ctx, &io);
        }
        if let Some(n) = &ctx.notice {
            let unit = layout::list_layout(width, height, 1).unit;
            render::widgets::notice(&ctx.gfx, width, height, unit, &n.text, n.colour);
        }
        // Text is queued as it is drawn and drawn here in one batch (`Gfx::flush_text`).
        ctx.gfx.flush_text();
        frames += 1;
        #[cfg(target_arch = "wasm32")]
        publish_state(&stack, &ctx, frames, &mut published);
        // Once the start-up is over and then every minute or so: give freed heap back.
        if frames == 2 || frames == 120 || frames.is_multiple_of(3600) {
            memcheck::trim();
        }
        if let Some(m) = &mut memory {
            m.frame(frames);
        }
        let out_of_time = args
            .seconds
            .is_some_and(|s| started.elapsed().as_secs_f64() >= s);
        if args.frames.is_some_and(|n| frames >= n) || out_of_time {
            if let Some(path) = &args.screenshot {
                save_screenshot(path);
            }
            break;
        }
        next_frame().await;
        if let Some(p) = &mut pacer {
            // A calm screen left alone is drawn at a low rate (see `pacer`).
            let calm = stack.top().is_some_and(Screen::calm);
            p.wait_at(idle.calm_fps().filter(|_| calm));
        }
        if let Some(b) = &mut bench {
            b.frame_done();
        }
    }
    if let Some(b) = &bench {
        println!("{}", b.report());
    }
    if let Some(m) = &memory {
        match m.verdict() {
            Some(v) => {
                println!("{}", v.line());
                if !v.flat() {
                    EXIT.store(1, Ordering::SeqCst);
                }
            }
            None => {
                eprintln!("error: --memory-check needs a longer run (at least 180 frames)");
                EXIT.store(2, Ordering::SeqCst);
            }
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    if args.demo && args.online && args.seconds.is_some() {
        println!(
            "{}",
            versus::demo_online::stats_line(started.elapsed().as_secs_f64())
        );
    }
}

/// In a browser: the test hook's summary ([`probe`]) on the page, when it changed (the frame
/// count is only refreshed every 30 frames, so a page at rest is not rewritten each frame).
#[cfg(target_arch = "wasm32")]
fn publish_state(stack: &Stack, ctx: &Ctx, frames: u64, published: &mut String) {
    let state = probe::state(stack, ctx, frames - frames % 30);
    if state != *published {
        web::set_state(&state);
        *published = state;
    }
}

/// In a browser: the page's own server (or a `?server=` in its address) is the server (the
/// Online screens' address).
#[cfg(target_arch = "wasm32")]
fn page_start(ctx: &mut Ctx) {
    let href = web::location();
    if let Some(server) = page::query_server(&href).or_else(|| page::page_server(&href)) {
        ctx.config.server = server;
    }
}

/// Saves the frame just drawn; a failure sets a non-zero exit code.
fn save_screenshot(path: &std::path::Path) {
    let img = get_screen_data();
    match screenshot::save_frame(
        &img.bytes,
        u32::from(img.width),
        u32::from(img.height),
        path,
    ) {
        Ok(()) => tracing::info!(path = %path.display(), "screenshot saved"),
        Err(e) => {
            eprintln!(
                "error: could not save the screenshot to {}: {e}",
                path.display()
            );
            EXIT.store(1, Ordering::SeqCst);
        }
    }
}
