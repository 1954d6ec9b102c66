//! Writes the first-bag perfect-clear book that Max's opener reads (`crates/bot/src/opener`).
//!
//! `cargo run --release -p sevenbag-bot --example opener_book -- [OUT] [COUNT]`
//! (defaults `crates/bot/src/opener/first_bag.book` and `opener::generate::BOOK_SETUPS`).
//! About a minute and a half in a release build; the output is the same on every run, and the
//! test `the_shipped_book_is_what_the_generator_writes` (ignored, release) checks it.

use sevenbag_bot::opener::generate::{BOOK_SETUPS, generate};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let out = args
        .get(1)
        .map_or("crates/bot/src/opener/first_bag.book", String::as_str);
    let count = match args.get(2) {
        Some(n) => n.parse()?,
        None => BOOK_SETUPS,
    };
    let book = generate(count);
    let bytes = book.to_bytes();
    std::fs::write(out, &bytes)?;
    let rates: Vec<u32> = book
        .setups
        .iter()
        .map(|s| s.success.iter().map(|w| w.count_ones()).sum())
        .collect();
    println!(
        "{out}: {} setups, {} bytes; successes out of 840: best {}, last {}",
        book.setups.len(),
        bytes.len(),
        rates.first().copied().unwrap_or(0),
        rates.last().copied().unwrap_or(0),
    );
    Ok(())
}
