//! End-to-end tests for Sevenbag live in `tests/tests/`; this library holds their shared helpers.
//!
//! - [`start_server`] → [`TestServer`]: the real server library on `127.0.0.1:0` with a fresh
//!   temporary replay directory (removed on drop). [`TestServer::shutdown`] stops it and waits
//!   for replays to flush; dropping it does the same under a multi-threaded runtime (only
//!   signals under a current-thread one) before the directory goes.
//! - [`fast_config`]: short countdowns, start delay and timeouts so matches take seconds.
//! - [`RawClient`]: a minimal protocol client over a real WebSocket (no netplay session): send
//!   and receive messages with timeouts, and send what a good client never would (raw bytes,
//!   text frames, oversized frames, floods) for hostile tests.
//! - [`scripted`]: two [`RawClient`]s play a match with simple scripted inputs (a hard drop every
//!   `period` frames), paced to the server's clock, reporting hashes as a real client does.
//! - [`ffa`]: the free-for-all tests' helpers: headless battle clients connected, seated,
//!   readied and played to the end, the server's replay fetched and verified.
//! - [`players`]: headless netplay players: the e2e server settings, a two-player room with an
//!   optional spectator, and a whole match played on its own task.
//! - [`services`]: real `redis-server` and PostgreSQL on free loopback ports in temp dirs,
//!   stopped on drop.
//! - [`social`]: the friends tests' players, registered or identified, and the notifications
//!   pushed to them.
//! - [`browser`]: a real headless Chromium (Debian's, driven by playwright-core through
//!   `tests/browser/drive.cjs`) and the browser build in `target/web`.
//! - [`page`]: the browser game in a test (server, browser, turns, the test hook, taps).
//! - [`needs`]: a test whose outside program is missing skips with one line naming it and
//!   `bash .ci/install-test-deps`; under `SEVENBAG_REQUIRE_ALL=1` or `CI=true` it fails.
//! - [`proxy`]: the latency proxy, re-exported from `sevenbag_netplay::delay_proxy` (shared with
//!   `sevenbag-tool loadtest --latency-ms`).
//!
//! - [`temp_dir`]: a uniquely named temporary directory removed on drop (`tempfile`, the
//!   ecosystem's standard for this, instead of a hand-rolled fixture per test file).
//!
//! Every helper only touches 127.0.0.1, and every wait and loop is bounded in time and count.
//!
//! # The end-to-end tests (`tests/tests/`)
//! - `match.rs`: two players and a spectator, first-to-2, identical hashes and winner everywhere
//!   (and in the server's replay); quick match pairs two waiting players.
//! - `spectate.rs`: a spectator joining mid-match converges to the players' hashes.
//! - `latency.rs`: through a 50–150 ms jittery proxy results stay identical, rollbacks happen.
//! - `slow_render.rs`: players simulating only 8 times a second keep real time, no forfeit.
//! - `reconnect.rs`: a player back inside the window finishes; one who stays away forfeits.
//! - `hostile.rs`: each kind of hostile client is cut with a reason while a match finishes.
//! - `ffa.rs`, `ffa_desync.rs`, `ffa_return.rs`, `ffa_queue.rs`: rooms of several seats and
//!   their quick play (eight players with a spectator and a reconnect, teams, manual targets,
//!   a restart, a desync named per board, a late return, the queue).
//! - `ffa_hostile.rs`: bad compact battle inputs (`BattleInputsSince`) cut with a reason while
//!   the honest players finish; `ffa_links.rs`: the input delay from the worst link, through
//!   the delay proxy; `ffa_history.rs`: matches of several seats kept once in SQLite and
//!   PostgreSQL and shown in the API and the game's profile.
//! - `ffa_datagrams.rs`: eight players on datagrams through the UDP loss proxy end on the
//!   verified replay's hash; hostile battle datagram senders are cut with a reason.
//! - `hostile_datagram_limits.rs`: one datagram session per connection (asking again replaces
//!   it), the connection's datagram budget kept across its sessions, an address's session
//!   count and shared budget, others carrying on.
//! - `replays.rs`: a finished match's replay verifies; corrupted copies are reported as such.
//! - `bot.rs`: the bot plays through the server as a headless input source and wins.
//! - `cluster.rs`: two instances on one real Redis pair players across instances, share room
//!   codes and spectating, expire a dead instance's entries; ratings in a real PostgreSQL
//!   survive restarting every instance.
//! - `storage_backends.rs`: the storage trait's behaviour, the same checks on SQLite and on a
//!   real PostgreSQL.
//! - `ops.rs`: a match over `wss://` with a trusted self-signed certificate, `https://` health
//!   and metrics, garbage on the TLS port cut without disturbing a player, a graceful drain.
//! - `browser.rs`: the server's `--web-dir` in real headless Chromium: the menu at `/`, both
//!   boards moving at `/watch/CODE` for a match of two headless players, no console errors.
//! - `browser_page.rs`: the page's own side in Chromium, as a phone (390×844, touch) too: no
//!   zoom or scroll, the on-screen keyboard's input, multi-touch, IndexedDB and localStorage,
//!   a `.sbrp` downloaded and opened again, links copied, gamepads, the bad-link and not-built
//!   pages; a practice match played by touch alone in portrait, screenshots kept in
//!   `target/browser-shots/`.
//! - `browser_parity.rs`: ranked in the page across a reload, its recovery code moving the
//!   identity; `/replay/ID` to its end; `/room/CODE`; codes that name nothing; stored garbage
//!   named and left alone.
//! - `friends.rs`: friends, presence and notifications on one instance: requests and lists,
//!   each friend's presence through a match and a disconnect, a friend gone quiet reading
//!   away until their next message, a request kept for an absent player, blocks reading as
//!   missing names, 1,050 friends paged through, hostile requests.
//! - `module_graph.rs`: no file of any crate imports a file that imports it, and the server's
//!   top-level modules import each other one way.
//! - `doc_links.rs`: every relative link and anchor in the docs leads somewhere;
//!   `conflict_markers.rs`: no tracked text file keeps a git conflict marker (file and line named).
#![deny(missing_docs)]

pub mod browser;
pub mod datagram_session;
pub mod ffa;
pub mod http;
pub mod needs;
pub mod page;
pub mod players;
pub use sevenbag_netplay::delay_proxy as proxy;
mod raw;
pub mod scripted;
mod server;
pub mod services;
pub mod social;

pub use raw::{Event, RawClient, player_key, raw_tcp_exchange, sign_in};
pub use server::{
    TestServer, fast_config, init_tracing, start_cluster_instance, start_server, start_server_on,
};
pub use tempfile::TempDir;

/// A fresh directory under the system's temp dir named `sevenbag-{tag}-…`, removed when the
/// returned guard drops (`tempfile` names it uniquely, so parallel tests never share one).
pub fn temp_dir(tag: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("sevenbag-{tag}-"))
        .tempdir()
        .unwrap_or_else(|e| panic!("cannot make a temp dir: {e}"))
}
