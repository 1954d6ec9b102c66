//! Sevenbag netplay: a transport-agnostic session that predicts the opponent, snapshots the match
//! every frame and rolls back when real inputs differ (lockstep is the window-0 case), plus a
//! headless client that plays or spectates through a server.
#![deny(missing_docs)]
