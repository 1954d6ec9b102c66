//! What the game needs from the machine it runs on.
//!
//! - [`folders`] — the platform's folders for keys, replays and records (none in a browser).
//! - [`clock`] — the fixed 60 Hz simulation step.
//! - [`pacer`] — the frame cap (`--max-fps`) and the low rate of a calm screen.
//! - [`page`] — what the browser build reads from its page's address.
//! - `web` — the browser build's page functions (`client/web/sevenbag.js`); only for `wasm32`.

pub mod clock;
pub mod folders;
pub mod pacer;
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub mod page;
#[cfg(target_arch = "wasm32")]
pub mod web;
