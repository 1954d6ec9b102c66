//! A frontend that lies: `start` messages with boards, queues, hold pieces and bag states that no
//! game could produce, `play` moves anywhere, `new_piece` against the bag. The TBP-served bot
//! answers every `suggest` (maybe with no move) and never panics, at every level.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use sevenbag_bot::Level;
use sevenbag_core::rng::below;
use sevenbag_tbp::TbpBot;
use sevenbag_tbp::messages::{
    BotMessage, FrontendMessage, Orientation, PieceLocation, Randomizer, Start, TbpMove, TbpPiece,
    TbpSpin,
};

/// A seeded ChaCha8 stream with the core's exact bounded sampling, so a failure replays exactly.
struct Rng(ChaCha8Rng);

impl Rng {
    fn seeded(seed: u64) -> Rng {
        Rng(ChaCha8Rng::seed_from_u64(seed))
    }

    fn below(&mut self, n: u64) -> u64 {
        u64::from(below(
            &mut self.0,
            u32::try_from(n.max(1)).unwrap_or(u32::MAX),
        ))
    }

    fn piece(&mut self) -> TbpPiece {
        PIECES[self.below(7) as usize]
    }

    fn pieces(&mut self, most: u64) -> Vec<TbpPiece> {
        (0..self.below(most + 1)).map(|_| self.piece()).collect()
    }
}

const PIECES: [TbpPiece; 7] = [
    TbpPiece::I,
    TbpPiece::O,
    TbpPiece::T,
    TbpPiece::L,
    TbpPiece::J,
    TbpPiece::S,
    TbpPiece::Z,
];

/// A board of 40 rows: empty, a low heap of whole pieces' worth of cells, or noise.
fn board(rng: &mut Rng) -> Vec<Vec<Option<char>>> {
    let mut rows = vec![vec![None; 10]; 40];
    match rng.below(3) {
        0 => {}
        1 => {
            // A few cells low down, a multiple of four of them (what the opener looks at).
            let cells = 4 * (1 + rng.below(6));
            for _ in 0..cells {
                let (x, y) = (rng.below(10) as usize, rng.below(4) as usize);
                rows[y][x] = Some('G');
            }
        }
        _ => {
            let height = rng.below(40) as usize;
            for row in rows.iter_mut().take(height) {
                for cell in row.iter_mut() {
                    if rng.below(3) > 0 {
                        *cell = Some('G');
                    }
                }
            }
        }
    }
    rows
}

fn start(rng: &mut Rng) -> Start {
    Start {
        board: board(rng),
        queue: rng.pieces(12),
        hold: (rng.below(2) == 0).then(|| rng.piece()),
        combo: rng.below(30) as u32,
        back_to_back: rng.below(2) == 0,
        randomizer: match rng.below(3) {
            0 => None,
            1 => Some(Randomizer::seven_bag(rng.pieces(9))),
            _ => Some(Randomizer::seven_bag(Vec::new())),
        },
    }
}

fn any_move(rng: &mut Rng) -> TbpMove {
    let orientations = [
        Orientation::North,
        Orientation::East,
        Orientation::South,
        Orientation::West,
    ];
    TbpMove {
        location: PieceLocation {
            kind: rng.piece(),
            orientation: orientations[rng.below(4) as usize],
            x: rng.below(14) as i32 - 2,
            y: rng.below(44) as i32 - 2,
        },
        spin: TbpSpin::None,
    }
}

/// Plays `rounds` random conversations of `start`, `suggest`, `play` and `new_piece`.
fn survive(level: Level, seed: u64, rounds: usize) {
    let mut rng = Rng::seeded(seed);
    let mut bot = TbpBot::new(level);
    for _ in 0..rounds {
        let message = match rng.below(5) {
            0 | 1 => FrontendMessage::Start(start(&mut rng)),
            2 => FrontendMessage::Suggest,
            3 => FrontendMessage::Play {
                mv: any_move(&mut rng),
            },
            _ => FrontendMessage::NewPiece { piece: rng.piece() },
        };
        let suggest = message == FrontendMessage::Suggest;
        let reply = bot.handle(message);
        if suggest {
            assert!(
                matches!(reply, Some(BotMessage::Suggestion { .. })),
                "suggest answered with {reply:?}"
            );
        }
    }
}

#[test]
fn max_survives_a_frontend_that_sends_impossible_games() {
    survive(Level::Max, 0x5eed_0001, 400);
}

#[test]
fn every_level_survives_a_frontend_that_sends_impossible_games() {
    for (i, level) in [Level::Beginner, Level::Easy, Level::Medium, Level::Hard]
        .into_iter()
        .enumerate()
    {
        survive(level, 0x5eed_0100 + i as u64, 150);
    }
}

#[test]
fn max_survives_first_bag_starts_with_any_order_and_hold() {
    // The opener's own entry: an empty or low board, a queue that may or may not be a bag.
    let mut rng = Rng::seeded(0x5eed_0200);
    let mut bot = TbpBot::new(Level::Max);
    for _ in 0..300 {
        let mut start = start(&mut rng);
        if rng.below(2) == 0 {
            start.board = vec![vec![None; 10]; 40];
        }
        start.queue = rng.pieces(7);
        bot.handle(FrontendMessage::Start(start));
        let reply = bot.handle(FrontendMessage::Suggest);
        assert!(matches!(reply, Some(BotMessage::Suggestion { .. })));
    }
}
