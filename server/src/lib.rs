//! The Sevenbag server: accepts WebSocket connections, runs rooms, relays inputs to opponents and
//! spectators, simulates every match as the authority on results and keeps replays.
#![deny(missing_docs)]
