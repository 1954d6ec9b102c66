//! The property that makes the bot trustworthy: on random boards, every placement move
//! generation reports compiles (on a [`PlayerSim`], a copy of a core `Player` set up with the
//! analysis hooks), and the compiled key masks, fed through a *fresh* core `Player` built on its
//! own (another seed, so another queue, and an empty hold slot whose hold takes the next queue
//! piece where the compiler's copy had it in the slot), lock the piece in the reported cells with
//! the reported spin on the last frame. Both a piece already in play and a piece spawning on the
//! next frame (IHS, IRS and the previous frame's keys in play) are covered.

use proptest::prelude::*;
use sevenbag_bot::{
    BOT_HANDLING, BitBoard, CompileOptions, PlayerSim, Target, compile, find_moves, spawn_position,
};
use sevenbag_core::{
    Board, CellKind, Handling, Input, LockEvent, PieceKind, Player, Rules, StepContext,
};

/// A board with the given column heights, cells knocked out below the surface by `holes`, and
/// full rows cleared.
fn board_from(heights: &[u8], holes: u64) -> Board {
    let mut board = Board::new();
    for (x, &h) in heights.iter().enumerate() {
        for y in 0..h {
            let bit = (x as u64 * 7 + u64::from(y) * 3) % 64;
            let hole = y + 1 < h && holes >> bit & 1 == 1 && (x + y as usize).is_multiple_of(3);
            if !hole {
                board.set(x as i8, y as i8, CellKind::Garbage);
            }
        }
    }
    board.clear_lines();
    board
}

fn handling_of(choice: u8) -> Handling {
    match choice {
        0 => Handling::default(),
        1 => BOT_HANDLING,
        _ => Handling {
            das: 8,
            arr: 1,
            dcd: 2,
            sdf: 6,
            irs: false,
            ihs: false,
        },
    }
}

/// Feeds `inputs` to `player` from match and play frame 0; the lock, which must come on the last
/// frame.
fn replay(mut player: Player, inputs: &[Input], rules: &Rules) -> Result<LockEvent, TestCaseError> {
    let mut locked = None;
    for (i, &input) in inputs.iter().enumerate() {
        let frame = i as u32;
        let ctx = StepContext {
            rules,
            frame,
            play_frame: frame,
        };
        player.step(input, ctx);
        if let Some(lock) = player.events().locked {
            prop_assert_eq!(i + 1, inputs.len(), "locked before the inputs ran out");
            locked = Some(lock);
        }
    }
    locked.ok_or_else(|| TestCaseError::fail("never locked"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// `spawning`: `None` puts the piece in play at its spawn position; `Some(previous)` has it
    /// spawn on the first frame, after a frame where `previous` keys were held.
    #[test]
    fn every_reported_placement_is_reached_with_its_spin_on_the_core(
        heights in prop::collection::vec(0u8..11, 10),
        holes in any::<u64>(),
        kind_index in 0usize..7,
        handling_choice in 0u8..3,
        seed in 1u64..1000,
        spawning in prop::option::of(prop::sample::select(vec![
            Input::NONE,
            Input::HARD_DROP,
            Input::HOLD,
            Input::ROTATE_CW,
            Input::LEFT,
            Input::SOFT_DROP,
        ])),
        wait in prop::sample::select(vec![0u32, 0, 7, 25, 90]),
    ) {
        let board = board_from(&heights, holes);
        let rules = Rules::versus();
        let handling = handling_of(handling_choice);
        let kind = PieceKind::ALL[kind_index];
        let bits = BitBoard::from_board(&board);
        let Some(start) = spawn_position(&bits, kind) else { return Ok(()) };
        let mut fresh = Player::new(&rules, handling, seed, 0, 0);
        // With an empty hold slot, a hold (or IHS) takes the next piece of the queue (the one
        // behind `kind` when `kind` is put in front); the compiler's copy has it in the slot.
        let hold = fresh.next()[0];
        fresh.set_board(board);
        let sim = match spawning {
            None => {
                fresh.set_active(start);
                PlayerSim::with_active(&board, start, Some(hold), &rules, handling)
            }
            Some(previous) => {
                fresh.set_spawn_next(kind, previous);
                PlayerSim::before_spawn(&board, kind, Some(hold), &rules, handling, previous)
            }
        };
        let hold_option = Some(hold).filter(|&h| h != kind);
        let placements = find_moves(&board, kind, hold_option, rules.allow_180);
        prop_assert!(!placements.is_empty());
        for p in &placements {
            let options = CompileOptions { wait, ..CompileOptions::default() };
            let inputs = compile(&sim, &Target::from(p), options)
                .ok_or_else(|| TestCaseError::fail(format!("{p:?} does not compile")))?;
            let lock = replay(fresh, &inputs, &rules)
                .map_err(|e| TestCaseError::fail(format!("{p:?}: {e}")))?;
            prop_assert_eq!(lock.piece.kind, p.piece.kind);
            prop_assert_eq!(
                sevenbag_bot::movegen::cells_key(&lock.piece), p.key(),
                "{:?} locked at {:?}", p, lock.piece
            );
            prop_assert_eq!(lock.clear.spin, p.spin, "{:?}", p);
        }
    }

    #[test]
    fn the_bitboard_and_the_core_board_agree(
        heights in prop::collection::vec(0u8..12, 10),
        holes in any::<u64>(),
    ) {
        let board = board_from(&heights, holes);
        let bits = BitBoard::from_board(&board);
        prop_assert_eq!(BitBoard::from_board(&bits.to_board()), bits);
        for x in 0..10i8 {
            prop_assert_eq!(bits.height(x as usize), board.column_height(x));
        }
        for kind in PieceKind::ALL {
            for p in find_moves(&board, kind, None, true) {
                prop_assert!(!board.collides(&p.piece) && board.grounded(&p.piece), "{:?}", p);
            }
        }
    }
}
