//! A search spread over the smallest slices (one step of work each, as the browser page runs
//! it, a few per frame) answers exactly as the same search run at once, on many seeds.

use sevenbag_bot::search::{Incoming, Progress};
use sevenbag_bot::{BOT_HANDLING, BitBoard, Bot, Budget, Drive, Level, Root, Searcher, Weights};
use sevenbag_core::attack::Chain;
use sevenbag_core::{Input, Match, MatchHeader, Player, Rules, Seat};

fn header(seed: u64) -> MatchHeader {
    MatchHeader {
        handling: [BOT_HANDLING; 2],
        ..MatchHeader::versus(seed)
    }
}

/// The beam search's root for `player`'s falling piece.
fn root_of(player: &Player, rules: &Rules, frame: u32) -> Option<Root> {
    let current = player.active()?;
    Some(Root {
        board: BitBoard::from_board(player.board()),
        current,
        hold: player.hold(),
        hold_allowed: !player.hold_used(),
        queue: player.next().to_vec(),
        chain: Chain {
            combo: player.combo(),
            b2b: player.b2b(),
        },
        incoming: player
            .garbage()
            .entries()
            .iter()
            .map(|e| Incoming {
                lines: e.lines,
                hole: e.hole as u8,
                ready_after: (e.ready_at.saturating_sub(frame) / 15).min(255) as u8,
            })
            .collect(),
        allow_180: rules.allow_180,
        garbage_cap: rules.garbage_cap,
    })
}

/// Plays `seed` (a bot against the El-Tetris baseline, so garbage rises too) and calls `at`
/// with the first seat's position once for each of its first `pieces` pieces.
fn positions(seed: u64, pieces: u32, mut at: impl FnMut(&Player, &Rules, u32)) {
    let mut m = Match::new(header(seed));
    let mut bot = Bot::new(Level::Hard);
    let mut baseline = Bot::el_tetris(Some(300));
    let mut seen = None;
    while m.player(Seat::First).stats().pieces < pieces
        && m.player(Seat::First).topped_out().is_none()
        && m.player(Seat::Second).topped_out().is_none()
    {
        let p = m.player(Seat::First);
        let key = (p.stats().pieces, p.hold_used());
        if p.active().is_some() && seen != Some(key) {
            seen = Some(key);
            at(p, &m.header().rules, m.frame().0);
        }
        let first = bot.next_input(&m, Seat::First);
        let second = baseline.next_input(&m, Seat::Second);
        m.step([first, second]);
    }
}

#[test]
fn a_beam_search_one_step_at_a_time_ranks_as_the_search_at_once_on_many_seeds() {
    let (mut whole, mut sliced) = (Searcher::new(), Searcher::new());
    let mut searches = 0;
    for seed in 0..18 {
        positions(seed, 25, |player, rules, frame| {
            let Some(root) = root_of(player, rules, frame) else {
                return;
            };
            let beam = [8, 32, 96][(seed % 3) as usize];
            let budget = Budget { beam, depth: 6 };
            let at_once = whole.search(&root, budget, &Weights::DEFAULT);
            sliced.start(root, budget);
            let mut calls = 0u64;
            let in_steps = loop {
                calls += 1;
                if let Progress::Done(ranked) = sliced.resume(&Weights::DEFAULT, 1) {
                    break ranked;
                }
            };
            assert_eq!(in_steps, at_once, "seed {seed}, frame {frame}");
            assert_eq!(
                (sliced.expanded, sliced.generated),
                (whole.expanded, whole.generated)
            );
            // Each node's expansion is spread over several steps.
            assert!(
                calls > 3 * sliced.expanded,
                "{calls} calls for {} nodes",
                sliced.expanded
            );
            searches += 1;
        });
    }
    assert!(searches > 300, "{searches} searches");
}

#[test]
fn maxs_thought_one_step_at_a_time_is_the_thought_at_once_on_many_seeds() {
    let mut thoughts = 0;
    for seed in 100..108 {
        let mut m = Match::new(header(seed));
        let mut whole = Bot::new(Level::Max);
        let mut sliced = Bot::new(Level::Max);
        let mut baseline = Bot::el_tetris(Some(300));
        while m.player(Seat::First).stats().pieces < 16
            && m.player(Seat::First).topped_out().is_none()
        {
            let input = match whole.drive(&m, Seat::First) {
                Drive::Input(input) => input,
                Drive::Think => {
                    let (player, rules, frame) =
                        (m.player(Seat::First), m.header().rules, m.frame().0);
                    let at_once = whole.think(player, &rules, frame);
                    sliced.begin_think(player, &rules, frame);
                    let in_steps = loop {
                        if let Some(t) = sliced.think_more(1) {
                            break t;
                        }
                    };
                    assert_eq!(
                        in_steps.ranked(),
                        at_once.ranked(),
                        "seed {seed}, frame {frame}"
                    );
                    thoughts += 1;
                    whole
                        .adopt(player, &rules, frame, &at_once)
                        .unwrap_or(Input::NONE)
                }
            };
            let second = baseline.next_input(&m, Seat::Second);
            m.step([input, second]);
        }
    }
    assert!(thoughts >= 8 * 16, "{thoughts} thoughts");
}
