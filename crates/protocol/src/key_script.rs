//! Key-change scripts: the `frame mask` text the core's solo tests pin their runs with
//! (`crates/core/tests/data/*.keys`), turned into per-frame inputs and into a recorded solo run.
//!
//! One line per change, `FRAME MASK` (decimal frame, hexadecimal [`Input`] mask), in increasing
//! frame order; `end FRAME` sets the length; `#` starts a comment line. Used by tests,
//! benchmarks and the server's end-to-end tests so a scripted run is recorded one way only.

use sevenbag_core::{Handling, Input, Solo, SoloHeader, SoloMode};

use crate::solo_replay::SoloReplay;

/// The handling the committed scripts were played with (the bot's: DAS 6, ARR 0, SDF infinity).
pub const SCRIPT_HANDLING: Handling = Handling {
    das: 6,
    arr: 0,
    dcd: 0,
    sdf: 0,
    irs: true,
    ihs: true,
};

/// The seed the committed scripts were played on.
pub const SCRIPT_SEED: u64 = 7;

/// Reads `text` into the keys held on every frame up to its `end`. The error names the line.
pub fn masks(text: &str) -> Result<Vec<Input>, String> {
    let mut changes = Vec::new();
    let mut end = 0u32;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = || {
            format!(
                "line {}: expected `FRAME MASK` or `end FRAME`: {line:?}",
                n + 1
            )
        };
        let mut words = line.split_whitespace();
        match (words.next(), words.next(), words.next()) {
            (Some("end"), Some(f), None) => end = f.parse().map_err(|_| bad())?,
            (Some(f), Some(m), None) => changes.push((
                f.parse::<u32>().map_err(|_| bad())?,
                Input(u8::from_str_radix(m, 16).map_err(|_| bad())?),
            )),
            _ => return Err(bad()),
        }
    }
    if end > crate::inputs::MAX_MATCH_FRAMES {
        return Err(format!("end frame {end} is over the longest match"));
    }
    let mut keys = Input::NONE;
    let mut next = changes.iter().peekable();
    Ok((0..end)
        .map(|frame| {
            while let Some(&(_, input)) = next.next_if(|(f, _)| *f <= frame) {
                keys = input;
            }
            keys
        })
        .collect())
}

/// Plays `text` on a fresh `mode` run (seed [`SCRIPT_SEED`], [`SCRIPT_HANDLING`]) until the run
/// finishes, as the game records it; `None` if the script ends first.
pub fn record(mode: SoloMode, text: &str, name: &str) -> Result<Option<SoloReplay>, String> {
    let mut solo = Solo::new(SoloHeader {
        handling: SCRIPT_HANDLING,
        ..SoloHeader::new(mode, SCRIPT_SEED)
    });
    let mut played = Vec::new();
    for keys in masks(text)? {
        if solo.result().is_some() {
            break;
        }
        solo.step(keys);
        played.push(keys);
    }
    Ok(SoloReplay::record(&solo, name, &played, 1_700_000_000))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_held_from_their_change_to_the_next() {
        let m = masks("# a tap\n2 82\n4 00\nend 6\n").unwrap();
        assert_eq!(m, [0, 0, 0x82, 0x82, 0, 0].map(Input).to_vec());
    }

    #[test]
    fn a_bad_line_is_named() {
        assert!(masks("1 82\nbogus\n").unwrap_err().starts_with("line 2"));
        assert!(masks("end 99999999999").is_err());
    }
}
