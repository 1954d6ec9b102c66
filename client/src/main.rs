//! # Sevenbag, the game
//!
//! A macroquad front end for head-to-head block stacking: versus matches (practice, local,
//! online, LAN, spectating), solo modes, puzzles, the fixed-sequence challenge, replays and the
//! ranked standings. The game never computes rules: every mode feeds inputs to the core
//! (`sevenbag_core`) and draws what it reports.
//!
//! This file is the program's story: read the flags ([`cli`]), open the window, put the first
//! screens on the stack ([`start`]), then loop in zemeroth's order (layout, input, update, draw)
//! until the last screen closes. The tree is laid out by what a player does: one folder per mode
//! holding its state, its drawing and its screen, with the shared parts and the connection
//! beside them (docs/CLIENT.md, "Code map").

// The browser build leaves features out (LAN, files, flags): what only they use is unused there.
#![cfg_attr(target_arch = "wasm32", allow(dead_code))]

// The program: its flags, the screens it opens with, and what a screen is.
mod cli;
// The settings file: what it holds, its text form and where it is kept.
mod config;
mod identity;
mod replay_files;
mod screen;
// The seam between the match screen and where a match comes from, and what automatic players
// see of a seat.
mod match_source;
mod start;
// A match's statistics screen: the totals, the rounds and a chart (after a match, from a replay).
mod stats_screen;
// A replay fetched from the server after an online match: saved, or shown as statistics.
mod fetched_replay;

// The modes, each a folder holding its state, its drawing and its screen: account (identity,
// leaderboard, profiles), the fixed-sequence challenge, the main menu, puzzles, replays,
// settings, solo (40 lines, Blitz, Zen) and versus (practice, local, online, LAN, the match view).
mod account;
mod challenge;
mod friends;
mod menu;
mod party;
mod puzzles;
mod replays;
mod settings;
mod solo;
mod versus;

// The shared parts: what the game measures of itself, keys and gamepads, screen geometry, the
// machine (folders, the browser page, clocks), drawing, sound, short texts of numbers.
mod checks;
// Finesse training: what solo and practice do with a piece placed with extra presses.
mod drill;
mod input;
mod layout;
mod list_nav;
// A match's statistics re-counted from its replay, their screen, and a replay's timeline marks.
mod match_stats;
// Automatic players behind one trait: our bot (on a worker thread), the stacker, outside TBP
// bots; practice, the demo and free-for-all seats play with them.
mod opponent;
// A player name being typed, checked against the name rules.
mod name_field;
// What a touch screen adds to each frame: the controls, the back button, the key buttons.
mod on_screen;
mod platform;
mod render;
mod sound;
mod text;
// Every screen's words fit their boxes and name no key on a touch screen (tests only).
#[cfg(test)]
mod screen_texts;

// The connection: one connection to a server, LAN hosting, short requests.
mod net;

#[cfg(not(target_arch = "wasm32"))]
use std::process::ExitCode;
use std::sync::atomic::{AtomicU8, Ordering};

#[cfg(not(target_arch = "wasm32"))]
use clap::Parser;
use macroquad::prelude::*;

#[cfg(target_arch = "wasm32")]
use crate::checks::probe;
use crate::checks::{bench, memcheck, screenshot};
use crate::cli::Args;
use crate::input::Keyboard;
#[cfg(feature = "gamepad")]
use crate::input::pad;
#[cfg(not(target_arch = "wasm32"))]
use crate::net::online;
use crate::platform::clock::{FixedClock, STEP};
use crate::platform::pacer;
#[cfg(target_arch = "wasm32")]
use crate::platform::{web, web_device};
use crate::render::theme;
use crate::screen::{Ctx, FrameIo, Mouse, Screen, Stack};
use crate::sound::audio;

/// The process exit code, set by the game loop (the window owns the thread until it closes).
static EXIT: AtomicU8 = AtomicU8::new(0);

/// Indices one draw call may hold: macroquad's default (5,000, 833 quads) split a match
/// frame's shapes (about 750 quads, more with tall stacks) over two draw calls and more;
/// 15,000 holds 2,500 quads (the vertex default, 10,000, holds as many).
const DRAW_CALL_INDICES: usize = 15_000;

fn window_conf(size: Option<(i32, i32)>) -> macroquad::conf::Conf {
    let (window_width, window_height) = size.unwrap_or((1280, 720));
    let window = Conf {
        window_title: "Sevenbag".to_owned(),
        window_width,
        window_height,
        window_resizable: true,
        high_dpi: true,
        sample_count: 1,
        ..Default::default()
    };
    macroquad::conf::Conf {
        draw_call_index_capacity: DRAW_CALL_INDICES,
        ..window.into()
    }
}

/// In a browser: no flags, no log output, the clock from the page; a `/watch/CODE` address
/// spectates that room on the page's server at once.
#[cfg(target_arch = "wasm32")]
fn main() {
    sevenbag_netplay::time::set_source(web::now_secs);
    let args = Args::no_flags();
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
        return match screenshot::print_check(path) {
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

async fn run(args: Args) {
    let config_path = args.config.clone().or_else(config::default_path);
    // No settings file yet: the first start, which asks for a name.
    let first_start = config_path.as_deref().is_some_and(|p| !config::exists(p));
    let (config, problem) = config::load_or_default(config_path.as_deref());
    let (sound_theme, theme_note) = sound::load_arg(args.sound_theme.as_deref());
    let mut audio = audio::Audio::load(config.volume, &sound_theme).await;
    audio.set_groups(config.sound_groups);
    let mut ctx = Ctx {
        config,
        config_path,
        notice: None,
        audio,
        gfx: render::gfx::Gfx::load(),
        time: 0.0,
        backdrop: render::backdrop::Backdrop::new(),
        copying: None,
        open_battle_room: |online| Box::new(party::online::PartyOnlineScreen::new(online)),
        open_lan_room: |online, lan| {
            Box::new(party::online::PartyOnlineScreen::new(online).hosting(lan))
        },
        open_friend_picker: friends::picker::open,
    };
    settings::show_display(&ctx.config);
    if let Some(problem) = problem {
        ctx.notify(problem, theme::BAD);
    }
    if let Some(note) = theme_note {
        ctx.notify(note, theme::BAD);
    }
    let (skin, skin_file) = match &args.skin {
        Some(arg) => settings::choice_from_arg(arg),
        None => (ctx.config.skin, ctx.config.skin_file.clone()),
    };
    if let Err(e) = settings::show_skin(skin, skin_file.as_deref()) {
        ctx.notify(
            format!("Block skin not used (the default blocks are drawn): {e}"),
            theme::BAD,
        );
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let trust_cert = args.trust_cert.clone().or(ctx.config.trust_cert.clone());
        if let Err(e) = online::set_trust(trust_cert.as_deref()) {
            ctx.notify(e, theme::BAD);
        }
    }
    #[cfg(target_arch = "wasm32")]
    {
        start::use_page_server(&mut ctx);
        start::wait_for_page_files(&mut ctx).await;
        // The skin the page keeps is one of its files, readable only now.
        if skin == config::SkinChoice::File {
            match settings::show_skin(skin, skin_file.as_deref()) {
                Ok(()) => {
                    let png = config::page_skin::page_skin_png_path()
                        .and_then(|p| crate::platform::files::read(&p).ok());
                    render::skin::set_source(png);
                }
                Err(e) => ctx.notify(
                    format!("Block skin not used (the default blocks are drawn): {e}"),
                    theme::BAD,
                ),
            }
        }
        crate::platform::web_files::accept_files(
            ".sbrp,.png",
            sevenbag_protocol::replay::MAX_REPLAY_BYTES,
        );
    }
    let mut stack = Stack::new(start::first_screens(&args, &ctx, first_start));
    // Friends' news as toasts over every screen; not in captures and demos (fixed pictures),
    // but for the captures of an invite's toast.
    let mut news = match args.screen {
        Some(cli::StartScreen::InviteToast) => Some(friends::news::News::capture(false)),
        Some(cli::StartScreen::InviteAsk) => Some(friends::news::News::capture(true)),
        None if !args.demo => Some(friends::news::News::new()),
        _ => None,
    };
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
    let mut page_pads = input::pad::PagePads::default();
    #[cfg(not(target_arch = "wasm32"))]
    let mut on_screen = on_screen::OnScreen::new(false);
    #[cfg(target_arch = "wasm32")]
    let mut on_screen = on_screen::OnScreen::new(web_device::touch_device());
    #[cfg(target_arch = "wasm32")]
    let mut published = String::new();
    loop {
        let frame_start = sevenbag_netplay::time::Instant::now();
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
        let mut keyboard = Keyboard::sample();
        #[cfg(feature = "gamepad")]
        if let Some(p) = &mut pads {
            p.frame().apply(&ctx.config.pad, &mut keyboard);
        }
        // In a page, gamepads through the browser's Gamepad API.
        #[cfg(target_arch = "wasm32")]
        page_pads
            .frame(&input::pad::parse_page_pads(&web_device::gamepads()))
            .apply(&ctx.config.pad, &mut keyboard);
        let mut mouse = Mouse {
            pos,
            moved: pos != last_mouse,
            clicked: is_mouse_button_pressed(MouseButton::Left),
            wheel: mouse_wheel().1,
        };
        // A touch screen's controls, back button and keyboard (nothing on a screen never
        // touched); in portrait the controls take a strip under the screen.
        let game_height = on_screen.frame(
            &ctx.config.touch,
            stack.top(),
            stack.depth(),
            &on_screen::fingers(scale),
            width,
            height,
            &mut keyboard,
            &mut mouse,
        );
        let mut io = FrameIo {
            keyboard,
            mouse,
            dt,
            steps: clock.advance(f64::from(dt)),
            width,
            height: game_height,
        };
        on_screen.keyboard(stack.top(), &ctx, &io, scale * screen_dpi_scale());
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
        ctx.poll_copying();
        // A change the page could not keep (its storage full, say) is said, once a second.
        #[cfg(target_arch = "wasm32")]
        if frames.is_multiple_of(60)
            && let Some(problem) = crate::platform::web_files::problem()
        {
            ctx.notify(problem, theme::BAD);
        }
        if let Some(n) = &mut ctx.notice {
            n.left -= dt;
            if n.left <= 0.0 {
                ctx.notice = None;
            }
        }
        // A replay file picked or dropped on the page opens over whatever is on screen; a
        // skin PNG becomes the skin once the browser has decoded it.
        #[cfg(target_arch = "wasm32")]
        {
            if let Some(screen) = replays::opened_file(&mut ctx) {
                stack.apply(screen::Transition::Push(screen));
            }
            settings::page_skin::pump(&mut ctx);
        }
        // An invite's toast takes its Join and Decline (and the box that asks before leaving a
        // match takes everything) before the screen on top sees the frame.
        if let Some(news) = &mut news {
            let transition = news.input(&mut ctx, &mut io, stack.top());
            if !stack.apply(transition) {
                break;
            }
        }
        // One update per key press, in order (a frame drawn late may hold several): the
        // earlier presses come first with no time passing and nothing else; the last one gets
        // the frame's time, simulation steps and mouse.
        let mut pieces = std::mem::take(&mut io.keyboard).in_order();
        let last = pieces.pop().unwrap_or_default();
        let mut open = true;
        for keyboard in pieces {
            let early = FrameIo {
                keyboard,
                mouse: Mouse {
                    pos,
                    ..Mouse::default()
                },
                dt: 0.0,
                steps: 0,
                ..io.clone()
            };
            let Some(top) = stack.top_mut() else { break };
            let transition = top.update(&mut ctx, &early);
            if !stack.apply(transition) {
                open = false;
                break;
            }
        }
        io.keyboard = last;
        let Some(top) = stack.top_mut().filter(|_| open) else {
            break;
        };
        let transition = top.update(&mut ctx, &io);
        if !stack.apply(transition) {
            break;
        }
        if let Some(news) = &mut news {
            let friends_open = stack.top().is_some_and(|s| s.name() == "friends");
            news.frame(&ctx, friends_open, width, io.height);
        }
        // 4. Draw: the top screen, then any notice and toast over it.
        if let Some(top) = stack.top() {
            top.draw(&ctx, &io);
        }
        on_screen.draw(&ctx.gfx);
        if let Some(n) = &ctx.notice {
            let unit = layout::list_layout(width, height, 1).unit;
            render::widgets::notice(&ctx.gfx, width, height, unit, &n.text, n.colour);
        }
        if let Some(news) = &news {
            news.draw(&ctx, width, io.height);
        }
        // Text is queued as it is drawn and drawn here in one batch (`Gfx::flush_text`).
        ctx.gfx.flush_text();
        frames += 1;
        #[cfg(target_arch = "wasm32")]
        {
            // What can be tapped, centres in CSS pixels (macroquad's screen pixels are CSS
            // pixels: logical × scale).
            let css = scale;
            let mut drawn = render::widgets::targets::take();
            drawn.extend(on_screen.targets());
            let taps: Vec<(String, (f32, f32))> = drawn
                .into_iter()
                .map(|(l, r)| (l, ((r.x + r.w / 2.0) * css, (r.y + r.h / 2.0) * css)))
                .collect();
            probe::publish(&stack, &ctx, frames, &taps, &mut published);
        }
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
            if let Some(path) = &args.screenshot
                && !screenshot::save_last_frame(path)
            {
                EXIT.store(1, Ordering::SeqCst);
            }
            break;
        }
        // The frame's work, for the page bot's next allowance (it thinks in the frame's room).
        opponent::allowance::frame_done(frame_start.elapsed());
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
            party::online::crowd::stats_line(started.elapsed().as_secs_f64())
        );
    }
}
