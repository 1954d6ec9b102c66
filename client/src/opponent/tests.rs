//! The automatic players: stackers fill boards, bots plan the same placements wherever they
//! plan, outside bots that fail say why.

use super::*;
use sevenbag_core::{Match, MatchHeader, Phase, Seat};

#[test]
fn two_stackers_fill_both_boards() {
    let mut m = Match::new(MatchHeader::versus(7));
    let mut a = Stacker::new(1, 6);
    let mut b = Stacker::new(2, 6);
    for _ in 0..900 {
        let inputs = [
            a.next_input(&m, Seat::First),
            b.next_input(&m, Seat::Second),
        ];
        m.step(inputs);
    }
    for seat in Seat::BOTH {
        assert!(
            m.player(seat).stats().pieces >= 15,
            "{seat:?} placed only {}",
            m.player(seat).stats().pieces
        );
    }
}

/// Steps `m` with `bot` on the first seat and a stacker tapping every `pace` frames on the
/// second until a round ends or `frames` have run, sleeping `pause` per frame; returns the
/// bot's inputs.
fn bot_vs_stacker(
    m: &mut Match,
    bot: &mut BotPlayer,
    frames: u32,
    pace: u32,
    pause: std::time::Duration,
) -> Vec<Input> {
    let mut stacker = Stacker::new(3, pace);
    let mut played = Vec::new();
    for _ in 0..frames {
        if matches!(m.phase(), Phase::RoundOver { .. } | Phase::MatchOver { .. }) {
            break;
        }
        let inputs = [
            bot.next_input(m, Seat::First),
            stacker.next_input(m, Seat::Second),
        ];
        played.push(inputs[0]);
        m.step(inputs);
        if !pause.is_zero() {
            std::thread::sleep(pause);
        }
    }
    played
}

#[test]
fn a_worker_bot_plays_a_practice_match_to_a_top_out() {
    let mut m = Match::new(MatchHeader::versus(11));
    let mut bot = BotPlayer::new(Level::Max, Planning::Worker);
    // A slow stacker: its own top-out must not end the round before a worker starved by a
    // loaded machine had time to play (the frames here run 16 times faster than the game's).
    let pause = std::time::Duration::from_millis(1);
    bot_vs_stacker(&mut m, &mut bot, 30_000, 20, pause);
    assert!(
        matches!(m.phase(), Phase::RoundOver { .. } | Phase::MatchOver { .. }),
        "no top-out: {:?}",
        m.phase()
    );
    assert!(m.player(Seat::First).stats().pieces >= 10);
    assert!(bot.stats().plans >= 10);
}

#[test]
fn a_waited_for_worker_plays_exactly_like_the_inline_bot() {
    for level in [Level::Medium, Level::Max] {
        let mut inline = BotPlayer::new(level, Planning::Inline);
        let mut worker = BotPlayer::new(level, Planning::Worker).wait_for_plans(true);
        let mut a = Match::new(MatchHeader::versus(5));
        let mut b = Match::new(MatchHeader::versus(5));
        let zero = std::time::Duration::ZERO;
        let first = bot_vs_stacker(&mut a, &mut inline, 2_400, 6, zero);
        let second = bot_vs_stacker(&mut b, &mut worker, 2_400, 6, zero);
        assert_eq!(first, second, "{level:?}");
        assert_eq!(a.player(Seat::First), b.player(Seat::First), "{level:?}");
        let pieces = a.player(Seat::First).stats().pieces;
        assert!(pieces >= 10, "{level:?}: {pieces} pieces, {:?}", a.phase());
        assert_eq!(inline.stats().plans, worker.stats().plans, "{level:?}");
        assert_eq!(inline.stats().nodes, worker.stats().nodes, "{level:?}");
    }
}

/// The first `n` placements `bot` plans as it plays seat 1 of a match against the stacker.
fn placements(bot: &mut BotPlayer, n: usize) -> Vec<sevenbag_bot::Placement> {
    let mut m = Match::new(MatchHeader::versus(5));
    let mut stacker = Stacker::new(3, 6);
    let mut planned = Vec::new();
    for _ in 0..20_000 {
        let inputs = [
            bot.next_input(&m, Seat::First),
            stacker.next_input(&m, Seat::Second),
        ];
        let plan = bot.bot.planned();
        if plan.is_some() && plan != planned.last().copied() {
            planned.extend(plan);
        }
        if planned.len() == n || m.player(Seat::First).topped_out().is_some() {
            break;
        }
        m.step(inputs);
        // One rendered frame a step, as the game's loop reports them.
        crate::opponent::allowance::frame_done(std::time::Duration::ZERO);
    }
    planned
}

#[test]
fn a_bot_thinking_one_slice_a_frame_plans_the_inline_bots_placements() {
    // No time share: one slice of search a frame, so each plan takes several frames.
    let mut inline = BotPlayer::new(Level::Medium, Planning::Inline);
    let mut sliced = BotPlayer::new(Level::Medium, Planning::Sliced(std::time::Duration::ZERO));
    let before = plan_times();
    let first = placements(&mut inline, 12);
    let second = placements(&mut sliced, 12);
    assert_eq!(first.len(), 12);
    assert_eq!(first, second);
    let after = plan_times();
    assert!(
        after.frames - before.frames > 2 * (after.plans - before.plans),
        "{before:?} {after:?}"
    );
}

#[test]
fn the_page_searches_no_wider_than_its_beam_and_elsewhere_max_searches_its_own() {
    let beam = |planning| match BotPlayer::new(Level::Max, planning).driver.config.planner {
        Planner::Search(budget) => budget.beam,
        Planner::ElTetris => 0,
    };
    let Planner::Search(max) = Level::Max.config().planner else {
        panic!("Max searches");
    };
    assert_eq!(beam(Planning::Sliced(PAGE_THINK_SHARE)), PAGE_MAX_BEAM);
    assert_eq!(beam(Planning::Inline), max.beam);
    assert_eq!(beam(Planning::Worker), max.beam);
}

#[test]
fn dropping_the_player_ends_its_thread() {
    let mut m = Match::new(MatchHeader::versus(2));
    let mut bot = BotPlayer::new(Level::Max, Planning::Worker);
    // Leave a request in flight.
    bot_vs_stacker(&mut m, &mut bot, 200, 6, std::time::Duration::ZERO);
    let thread = bot.take_thread().expect("a worker thread");
    drop(bot);
    let started = sevenbag_netplay::time::Instant::now();
    while !thread.is_finished() {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "the planning thread outlived its player"
        );
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    thread.join().expect("the planning thread panicked");
}

/// The render-thread cost of the bot: time spent in `next_input` per frame for Max, inline
/// and on the worker, in a practice match against the stacker at 60 frames a second of real
/// time (new rounds start when one ends). Prints p50/p99/max; the figures in BENCHMARKS.md.
/// `cargo test --release -p sevenbag -- --ignored --nocapture render_thread_bot_time`
/// (SEVENBAG_BENCH_FRAMES sets the frames per run, 3600 by default).
#[test]
#[ignore = "a measurement: runs about two minutes of real time"]
fn render_thread_bot_time() {
    use sevenbag_netplay::time::Instant;
    use std::time::Duration;
    let frames: u32 = std::env::var("SEVENBAG_BENCH_FRAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3600);
    let sliced = Planning::Sliced(PAGE_THINK_SHARE);
    for planning in [Planning::Inline, Planning::Worker, sliced] {
        let mut bot = BotPlayer::new(Level::Max, planning);
        let mut stacker = Stacker::new(3, 6);
        let mut seed = 1;
        let mut m = Match::new(MatchHeader::versus(seed));
        let mut times = Vec::with_capacity(frames as usize);
        let mut pieces = 0;
        let step = Duration::from_secs_f64(1.0 / 60.0);
        let mut next_frame = Instant::now();
        for _ in 0..frames {
            if matches!(m.phase(), Phase::RoundOver { .. } | Phase::MatchOver { .. }) {
                pieces += m.player(Seat::First).stats().pieces;
                seed += 1;
                m = Match::new(MatchHeader::versus(seed));
            }
            let started = Instant::now();
            let input = bot.next_input(&m, Seat::First);
            times.push(started.elapsed());
            let other = stacker.next_input(&m, Seat::Second);
            m.step([input, other]);
            next_frame += step;
            if let Some(left) = next_frame.checked_duration_since(Instant::now()) {
                std::thread::sleep(left);
            }
        }
        pieces += m.player(Seat::First).stats().pieces;
        times.sort_unstable();
        let us = |d: Duration| d.as_secs_f64() * 1e6;
        let pick = |q: usize| us(times[(times.len() * q / 100).min(times.len() - 1)]);
        println!(
            "{planning:?}: {frames} frames, bot pieces {pieces}, plans {}, stale answers {}; \
             next_input p50 {:.1} µs, p99 {:.1} µs, p99.9 {:.1} µs, max {:.1} µs",
            bot.stats().plans,
            bot.stale_answers(),
            pick(50),
            pick(99),
            us(times[(times.len() * 999 / 1000).min(times.len() - 1)]),
            us(*times.last().expect("frames")),
        );
    }
}

#[test]
fn labels() {
    assert_eq!(Opponent::Bot(Level::Medium).label(), "Bot · Medium");
    assert_eq!(Opponent::all(&[]).len(), 6);
}

fn outside(command: &str) -> OutsideBot {
    OutsideBot {
        name: "Cold Clear 2".into(),
        command: command.into(),
        think_ms: 0,
        pps: 2.0,
    }
}

#[test]
fn outside_bots_follow_ours_in_the_list_by_their_names() {
    let all = Opponent::all(&[outside("cold-clear-2")]);
    assert_eq!(all.len(), 7);
    assert_eq!(all[6].key(), "tbp:Cold Clear 2");
    assert_eq!(all[6].label(), "Cold Clear 2");
}

#[test]
fn an_outside_bot_that_cannot_start_says_why_and_presses_nothing() {
    let mut player = Opponent::Outside(outside("/nonexistent/no-such-tbp-bot")).player(1);
    let mut m = Match::new(MatchHeader::versus(1));
    let deadline = sevenbag_netplay::time::Instant::now() + std::time::Duration::from_secs(10);
    while player.failure().is_none() && sevenbag_netplay::time::Instant::now() < deadline {
        let keys = player.next_input(&m, Seat::Second);
        assert_eq!(keys, Input::NONE);
        m.step([Input::NONE, keys]);
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    let why = player.failure().expect("the failure is reported");
    assert!(why.contains("no-such-tbp-bot"), "{why}");
}

#[test]
fn an_outside_bots_entry_is_checked() {
    assert!(outside("cc2").validate().is_ok());
    assert!(outside(" ").validate().is_err());
    let fast = OutsideBot {
        pps: 100.0,
        ..outside("cc2")
    };
    assert!(fast.validate().unwrap_err().contains("pps"));
}
