//! A replay asked of the server after an online match, and what it was asked for: kept with
//! this machine's replays (S on the result card), or counted for the statistics screen (G).
//! The versus and room screens share it, so both keys behave the same for every seat count.

use std::rc::Rc;

use crate::match_stats::MatchStats;
use crate::render::theme;
use crate::screen::{Ctx, Screen};
use crate::stats_screen::StatsScreen;

/// What a replay being fetched is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wanted {
    /// Saved in the data folder's replays.
    Save,
    /// Counted and shown on the statistics screen.
    Stats,
}

impl Wanted {
    /// The notice while the server is asked.
    pub fn asking(self) -> &'static str {
        match self {
            Wanted::Save => "Fetching the replay from the server…",
            Wanted::Stats => "Fetching the replay to count its statistics…",
        }
    }
}

/// Does what `wanted` asked with replay `id`'s `bytes`: saves it (a notice either way), or
/// returns the statistics screen of it (a file that does not open is a notice).
pub fn land(ctx: &mut Ctx, wanted: Wanted, id: &str, bytes: &[u8]) -> Option<Box<dyn Screen>> {
    match wanted {
        Wanted::Save => {
            let saved = crate::replay_files::save_dir()
                .ok_or_else(|| "this system has no data folder".to_owned())
                .and_then(|d| crate::replay_files::save(&d, id, bytes));
            match saved {
                Ok(path) => ctx.notify(format!("Replay saved to {}", path.display()), theme::GOOD),
                Err(e) => ctx.notify(e, theme::BAD),
            }
            None
        }
        Wanted::Stats => match stats_of(bytes) {
            Ok(stats) => Some(Box::new(StatsScreen::new(Rc::new(stats)))),
            Err(e) => {
                ctx.notify(e, theme::BAD);
                None
            }
        },
    }
}

/// The statistics of a replay file's `bytes` (either format version), or why not in words.
pub fn stats_of(bytes: &[u8]) -> Result<MatchStats, String> {
    let opened = sevenbag_protocol::replay_file::open(bytes)
        .map_err(|e| format!("corrupted replay: {e}"))?;
    MatchStats::of(&opened.replay)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_golden_replay_fetched_for_its_statistics_counts_every_seat() {
        let bytes = include_bytes!("../../crates/protocol/tests/golden/replay_v2.sbrp");
        let stats = stats_of(bytes).expect("the golden replay counts");
        assert_eq!(stats.seats.len(), 4);
    }

    #[test]
    fn bytes_that_are_no_replay_are_a_sentence() {
        let err = stats_of(b"not a replay").expect_err("refused");
        assert!(err.starts_with("corrupted replay: "), "{err}");
    }
}
