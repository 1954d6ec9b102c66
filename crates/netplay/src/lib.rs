/*!
# sevenbag-netplay: rollback sessions, pacing, the network task and headless clients

Every client simulates the whole match from the [`MatchHeader`](sevenbag_core::MatchHeader) and
both players' inputs (SPEC §6). This crate is what sits between those inputs and the wire:

- [`Session`] is one client's view of a match: our keys applied at once (after an optional input
  delay), the opponent's predicted by repeating their last mask, a snapshot of every predicted
  frame, and a rollback plus re-simulation when the real inputs differ. When the next frame
  would be more than the prediction window past the opponent's confirmed inputs it stalls;
  a window of 0 is plain lockstep through the same code. It also keeps a *confirmed* match,
  stepped only on final inputs, which gives the state hashes the server checks and results that
  never roll back. Spectators are sessions without a local seat; late joiners, reconnecting
  players and desync recovery build a session from the server's match log.
- [`Clock`] measures round trip and server clock offset from pings; [`Pacer`] says which frame
  is due now (frame 0 at the server's announced instant) and balances frame advantage so
  neither player runs ahead of the other.
- [`NetHandle`] is the WebSocket on a tokio task ([`connect`]): a sender of
  [`ClientMessage`](sevenbag_protocol::ClientMessage)s and a receiver of [`NetEvent`]s that a
  render loop polls without blocking.
- [`HeadlessClient`] glues the three together and plays in real time with any [`InputSource`]
  ([`RandomInputs`], [`ScriptedInputs`], [`Idle`], or a bot supplied from outside): the
  end-to-end tests and the load tester are built on it, and the GUI does the same with its own
  loop (see `docs/NETPLAY.md`).

## One design decision

The session is synchronous and knows nothing of sockets or clocks: it takes server messages and
one local input per frame, and hands back messages to send. Time enters only through
[`Pacer`] and [`Clock`], whose methods take the current [`Instant`](std::time::Instant) as an
argument. So the rollback logic is tested deterministically in memory (two sessions relaying
through queues with artificial delay, `tests/session.rs`), and the same code runs in the GUI's
frame loop, on a tokio task, or in a test without a single sleep.

## Layout
- [`rollback`]: the machinery both sessions share (prediction, snapshots, rollback, the
  confirmed match, hash reports, when a batch is due) over a small [`rollback::Game`] trait.
- [`session`]: `Session`, the two-seat session, its options, stats and errors.
- [`battle_client`]: `BattleClient`, the headless client of rooms of several seats.
- [`battle_session`]: `BattleSession`, the session of a match of 2 to 8 seats.
- [`clock`]: `Clock` (RTT and offset) and `Pacer` (which frame is due).
- [`net`]: the network task and `NetHandle`.
- [`datagram`]: the client's side of the datagram path (WebTransport beside the WebSocket),
  without I/O: what to send when, acknowledgements, catch-up, when the path is dead.
- [`inputs`]: `InputSource` and the random, scripted and idle sources.
- [`driver`]: `MatchDriver`, one match driven from server messages (shared by the headless
  client and the GUI).
- [`retune`]: `DelayTuner`, a player's input delay and window re-estimated as a match runs
  (the two-seat driver and the game's general-room controller share it).
- [`headless`]: `HeadlessClient` and the relay-latency probe.
- [`delay_proxy`]: an order-keeping loopback TCP proxy adding latency, jitter and the cost of
  lost packets (tests and the load tester reproduce distant players with it); [`udp_proxy`]
  its twin for datagrams, which drops them for real; [`impairment`] the delay and loss both
  apply.
*/
#![deny(missing_docs)]
#![forbid(unsafe_code)]

#[cfg(feature = "native")]
pub mod battle_client;
pub mod battle_links;
pub mod battle_pace;
pub mod battle_session;
pub mod clock;
pub mod datagram;
#[cfg(feature = "native")]
pub mod delay_proxy;
pub mod driver;
#[cfg(feature = "native")]
pub mod headless;
#[cfg(feature = "native")]
pub mod impairment;
pub mod inputs;
pub mod link;
#[cfg(feature = "native")]
pub mod net;
pub mod retune;
pub mod rollback;
pub mod room;
pub mod session;
pub mod time;
#[cfg(feature = "native")]
pub mod tls;
#[cfg(feature = "native")]
pub mod udp_proxy;

#[cfg(feature = "native")]
pub use battle_client::{BattleClient, BattleOutcome, QueueState};
pub use battle_links::{battle_options, battle_round_trip};
pub use battle_pace::{balance_battle, retune_battle};
pub use battle_session::{BattleRoundEnd, BattleSession, BattleSessionError};
pub use clock::{Clock, FRAME, MAX_CATCH_UP, Pacer};
pub use datagram::{DatagramLink, TransportPath};
pub use driver::{
    DriverConfig, DriverEvent, MatchDriver, MatchResult, RETUNE_FRAMES, RoundResult, VoidResult,
};
#[cfg(feature = "native")]
pub use headless::{
    ClientStats, DesyncNotice, HeadlessClient, HeadlessConfig, HeadlessError, LOBBY_TIMEOUT,
    RETRY_FIRST, RETRY_MAX, RelayProbe, ServerError,
};
pub use inputs::{FromFn, Idle, InputSource, RandomInputs, ScriptedInputs, from_fn};
pub use link::{Hello, MessageKind, NetError, NetEvent, NetStats};
#[cfg(feature = "native")]
pub use net::{
    CONNECT_TIMEOUT, DATAGRAM_CONNECT_TIMEOUT, DatagramStatus, NetHandle, NetOptions, NetSender,
    connect, connect_on, connect_trusting, connect_with,
};
pub use retune::{DelayTuner, LinkReading, Retune};
pub use room::{Redirects, RoomInfo, RoomTracker, RoomUpdate, SeatChange};
pub use session::{
    CONFIRM_INTERVAL, DEFAULT_WINDOW, HASH_INTERVAL, MAX_INPUT_DELAY, RoundEnd, Session,
    SessionError, SessionOptions, SessionStats, Step,
};
#[cfg(feature = "native")]
pub use tls::{TlsTrust, TlsTrustError};
