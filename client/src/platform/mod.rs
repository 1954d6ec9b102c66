//! What the game needs from the machine it runs on.
//!
//! - [`folders`] — the platform's folders for keys, replays and records (the page's own in a
//!   browser).
//! - [`files`] — reading and writing the game's files: `std::fs`, or the page's files.
//! - [`clipboard`] — copying a link.
//! - [`clock`] — the fixed 60 Hz simulation step.
//! - [`pacer`] — the frame cap (`--max-fps`) and the low rate of a calm screen.
//! - [`page`] — what the browser build reads from its page's address.
//! - `web`, `web_files`, `web_device` — the browser build's page functions (`client/web/sevenbag*.js`);
//!   only for `wasm32`.

pub mod clipboard;
pub mod clock;
pub mod files;
pub mod folders;
pub mod pacer;
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub mod page;
#[cfg(target_arch = "wasm32")]
pub mod web;
#[cfg(target_arch = "wasm32")]
pub mod web_device;
#[cfg(target_arch = "wasm32")]
pub mod web_files;

/// Bytes per pad in the browser page's gamepad report (`client/web/sevenbag-device.js`), which
/// `web_device` reads and `crate::input::pad` parses.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub const PAGE_PAD_BYTES: usize = 24;
