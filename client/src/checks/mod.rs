//! What the game measures and checks of itself, for tests, CI and benchmarks.
//!
//! - [`bench`](mod@bench) — `--bench`: frame-time percentiles, CPU per frame, peak memory.
//! - [`memcheck`] — `--memory-check`: fails a run whose resident set keeps rising.
//! - [`screenshot`] — `--screenshot` and `--check-screenshot`.
//! - `probe` — the browser build's test hook: what the page shows, as one line of JSON.

pub mod bench;
pub mod memcheck;
#[cfg(any(test, target_arch = "wasm32"))]
pub mod probe;
pub mod screenshot;
