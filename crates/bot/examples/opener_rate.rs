//! How often Max's opener makes the first-bag perfect clear, without an opponent: Max plays
//! the first ten pieces alone (versus rules, bot handling) for seeds `SEED..SEED+GAMES`, and a
//! game counts when those ten pieces end in a perfect clear. With no garbage this measures the
//! opener's decisions alone, over far more bag orders than a botmatch can (a 100-game set's
//! count of first-bag perfect clears moves by about ±3 with any change; over 2,000 games here
//! the rate's standard error is about 0.6 points).
//!
//! `cargo run --release -p sevenbag-bot --example opener_rate -- [SEED] [GAMES]` (defaults 0
//! 2000; `--misses` lists the seeds without one); it also prints the opener's own estimate at the first piece (the expected share of
//! second-bag orders its setups finish), averaged over the same games.

use sevenbag_bot::opener::{Book, Opener, OpenerQuery};
use sevenbag_bot::{BOT_HANDLING, BitBoard, Bot, Level, play_solo};
use sevenbag_core::{Rules, sequence};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let start: u64 = args.get(1).map_or(Ok(0), |s| s.parse())?;
    let games: u64 = args.get(2).map_or(Ok(2000), |s| s.parse())?;
    let list_misses = args.iter().any(|a| a == "--misses");
    let mut misses = Vec::new();
    let rules = Rules::versus();
    let book = Book::first_bag();
    let mut opener = Opener::new();
    let (mut made, mut expected, mut orders) = (0u64, 0u64, 0u64);
    for seed in start..start + games {
        let mut bot = Bot::new(Level::Max);
        let report = play_solo(&mut bot, &rules, BOT_HANDLING, seed, 10);
        // Ten pieces fill exactly four rows: a perfect clear sends at least ten lines.
        if report.pieces == 10 && report.attack >= 10 {
            made += 1;
        } else {
            misses.push(seed);
        }
        let bag = sequence(rules.randomizer, seed, 7);
        let q = OpenerQuery {
            board: BitBoard::new(),
            bag: bag[..7].try_into()?,
            index: 0,
            hold: None,
            revealed: &[],
            allow_180: rules.allow_180,
        };
        if let Some(m) = opener.choose(book, &q) {
            expected += u64::from(m.successes);
            orders += u64::from(m.orders);
        }
    }
    if list_misses {
        println!("misses: {misses:?}");
    }
    println!(
        "{games} games from seed {start}: first-bag perfect clears {made} ({:.1}%), the opener's estimate at the first piece {:.1}%",
        100.0 * made as f64 / games as f64,
        100.0 * expected as f64 / orders.max(1) as f64
    );
    Ok(())
}
