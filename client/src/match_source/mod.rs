//! Where a match comes from: the seam between the match screen and offline, online or replay play.
//!
//! The match screen owns a `Box<dyn MatchSource>` and only ever (1) hands it the keyboard once per
//! rendered frame, (2) asks it to advance one simulation frame at a time, and (3) reads the
//! [`Match`] and a [`NetStatus`] to draw. `crate::versus::local_session` is the offline kind
//! (practice, local two players, the demo); the online controller (online and LAN) and
//! `crate::replay_files::ReplaySession` implement the same trait, so the screen and renderer
//! do not change. This module names none of them: a session describes itself through the trait
//! (its [`RoomRole`] for the online controller), so the sessions depend on it and not back. It
//! sits below the modes, the connection and the renderer, which all use it.

use sevenbag_core::Match;
use sevenbag_netplay::TransportPath;

use crate::input::Keyboard;

mod auto;

pub use auto::{AutoPlayer, SeatView};

/// How a player is connected, for the name plate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Peer {
    /// Playing on this keyboard.
    Local,
    /// An automatic player on this machine.
    Bot,
    /// Connected over the network.
    Connected,
    /// The connection dropped; the player may come back within this many seconds.
    Reconnecting {
        /// Seconds left before a forfeit.
        seconds_left: u32,
    },
    /// Left the match.
    Left,
    /// Recorded: a replay being played back.
    Recorded,
}

impl Peer {
    /// A short tag for the name plate.
    pub fn tag(&self) -> String {
        match self {
            Peer::Local => "LOCAL".into(),
            Peer::Bot => "BOT".into(),
            Peer::Connected => "ONLINE".into(),
            Peer::Reconnecting { seconds_left } => format!("RECONNECTING {seconds_left}s"),
            Peer::Left => "LEFT".into(),
            Peer::Recorded => "REPLAY".into(),
        }
    }
}

/// The network readout under the boards. Offline play fills it with [`NetStatus::offline`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetStatus {
    /// `None` offline; otherwise the round-trip time to the server in milliseconds, if measured.
    pub online: Option<Option<u32>>,
    /// Online: which path carries our inputs (shown as "UDP" for datagrams, "TCP" for the
    /// WebSocket, so a player behind a firewall that blocks UDP sees why loss hurts more).
    pub path: TransportPath,
    /// Frames re-simulated by the last rollback.
    pub rollback_frames: u32,
    /// Our current input delay in frames (chosen and re-estimated from the round trip).
    pub delay_frames: u32,
    /// Frames we waited for the opponent's inputs (prediction window full).
    pub stalls: u32,
    /// Each seat's connection.
    pub peers: [Peer; 2],
    /// Set for a replay being played back: its line ("replay · 1× · frame 240") replaces
    /// "offline".
    pub replay: Option<String>,
}

impl NetStatus {
    /// The readout of an offline match with these peers.
    pub fn offline(peers: [Peer; 2]) -> NetStatus {
        NetStatus {
            online: None,
            path: TransportPath::WebSocket,
            rollback_frames: 0,
            delay_frames: 0,
            stalls: 0,
            peers,
            replay: None,
        }
    }

    /// The readout of a replay at `speed` (or paused), showing `frame`.
    pub fn replay(speed: f32, paused: bool, frame: u32) -> NetStatus {
        let speed = if paused {
            "paused".to_owned()
        } else {
            format!("{speed}×")
        };
        NetStatus {
            replay: Some(format!("replay · {speed} · frame {frame}")),
            ..NetStatus::offline([Peer::Recorded, Peer::Recorded])
        }
    }

    /// The one-line readout: "offline", "replay · 1× · frame 240", or
    /// "42 ms UDP · delay 2 f · rollback 3 f" (the path after the round trip: UDP for datagrams,
    /// TCP for the WebSocket), with " · 5 stalls" once there were any. Short enough to fit
    /// beside the connection tag under a board at 1280×720.
    pub fn readout(&self) -> String {
        if let Some(line) = &self.replay {
            return line.clone();
        }
        match self.online {
            None => "offline".to_owned(),
            Some(ping) => {
                let ping = ping.map_or("ping —".to_owned(), |p| format!("{p} ms"));
                let stalls = match self.stalls {
                    0 => String::new(),
                    1 => " · 1 stall".to_owned(),
                    n => format!(" · {n} stalls"),
                };
                let path = match self.path {
                    TransportPath::Datagrams => "UDP",
                    TransportPath::WebSocket => "TCP",
                };
                format!(
                    "{ping} {path} · delay {} f · rollback {} f{stalls}",
                    self.delay_frames, self.rollback_frames
                )
            }
        }
    }
}

/// What the match view shows of our part in an online room after a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RoomRole {
    /// We watch rather than play.
    pub spectator: bool,
    /// We said we are ready for the rematch and wait for the opponent.
    pub ready_sent: bool,
}

/// Whose blocks a board is drawn with (`render::skin::on_board`).
#[derive(Clone, Copy, Debug, Default)]
pub enum BoardSkin<'a> {
    /// A board played here (or a replay's, a bot's in practice): the skin in force.
    #[default]
    Yours,
    /// Another player's board online, with the skin they wear if it is known here (its id
    /// and tiles); the player's choice for others' boards decides what is drawn.
    Theirs(Option<(&'a str, &'a sevenbag_skin::Skin)>),
}

/// A source of a match the screen can play or watch.
pub trait MatchSource {
    /// Records one rendered frame of keyboard state for the local seats.
    fn sample(&mut self, keyboard: &Keyboard);
    /// Called once per rendered frame before stepping, with the steps the fixed 60 Hz clock says
    /// are due; returns how many to run. Offline sessions run the clock's steps; an online one
    /// polls the network and runs what its pacer says; a replay scales by its speed.
    fn pump(&mut self, clock_steps: u32) -> u32 {
        clock_steps
    }
    /// Advances one simulation frame; false when nothing was simulated (an online stall, the
    /// end of a replay), so the effects do not read the same frame twice.
    fn step(&mut self) -> bool;
    /// The match as it stands (for an online session: including predicted frames).
    fn current(&self) -> &Match;
    /// Connection facts for the readout.
    fn net(&self) -> NetStatus;
    /// Whether the session may stop time (offline only).
    fn can_pause(&self) -> bool;
    /// Starts a new match with the same players after the last one ended.
    fn rematch(&mut self, seed: u64);
    /// Seats played on this keyboard (their sounds play, their wins are "yours").
    fn local_seats(&self) -> [bool; 2];
    /// Whose blocks `seat`'s board is drawn with: the skin in force, unless another player
    /// plays it online.
    fn board_skin(&self, _seat: sevenbag_core::Seat) -> BoardSkin<'_> {
        BoardSkin::Yours
    }
    /// The title line over the boards, when the session has its own (replay position).
    fn title(&self) -> Option<String> {
        None
    }
    /// How the match ended when its boards do not show it (a forfeit, a server cut), e.g.
    /// "ANN WINS BY FORFEIT". While set, the round labels under the banners are cleared.
    fn verdict(&self) -> Option<String> {
        None
    }
    /// The players' names, when the session knows them better than the screen (online).
    fn names(&self) -> Option<[String; 2]> {
        None
    }
    /// Our part in a server's room, when the session is online play.
    fn room_role(&self) -> Option<RoomRole> {
        None
    }
    /// Practice only: takes back the person's last piece, restoring the whole match as it was
    /// when their previous piece locked. False when there is nothing to undo (or no undo here).
    fn undo(&mut self) -> bool {
        false
    }
    /// Practice only: puts back the last undone piece. False when there is nothing to redo.
    fn redo(&mut self) -> bool {
        false
    }
    /// Practice only: (pieces that can be undone, pieces that can be redone); `None` where
    /// there is no undo (online, replays, two people on one keyboard).
    fn history(&self) -> Option<(usize, usize)> {
        None
    }
    /// Practice only: the person's finesse faults so far this match (an undo takes a piece's
    /// back).
    fn finesse(&self) -> Option<FinesseCount> {
        None
    }
}

/// Finesse faults of a seat: extra presses over the fewest that reach the same placements.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FinesseCount {
    /// Extra presses, summed.
    pub faults: u32,
    /// Pieces placed with at least one.
    pub faulty_pieces: u32,
}

/// The banner line for a match that ended off the boards: "ANN WINS BY FORFEIT", "NO RESULT"
/// when neither player came back, or "MATCH ENDED" for another end without a winner (a server
/// shutdown). Online play and replays share it.
pub fn verdict_line(
    reason: sevenbag_protocol::EndReason,
    winner: Option<sevenbag_core::Seat>,
    names: &[String; 2],
) -> String {
    match (reason, winner) {
        (sevenbag_protocol::EndReason::Forfeit, Some(w)) => {
            format!("{} WINS BY FORFEIT", names[w.index()].to_uppercase())
        }
        (sevenbag_protocol::EndReason::Abandoned, None) => "NO RESULT".to_owned(),
        _ => "MATCH ENDED".to_owned(),
    }
}

/// The server's verdict of a match won on the boards, for a client whose boards did not get
/// there: "ANN WINS  3 – 0" (the winner's rounds first, as the boards' banner reads). Both
/// two-seat controllers show it.
pub fn top_out_verdict(winner: sevenbag_core::Seat, wins: [u8; 2], names: &[String; 2]) -> String {
    format!(
        "{} WINS  {} – {}",
        names[winner.index()].to_uppercase(),
        wins[winner.index()],
        wins[winner.other().index()]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn online_readout() {
        let mut n = NetStatus::offline([Peer::Local, Peer::Connected]);
        n.online = Some(Some(42));
        n.rollback_frames = 3;
        n.delay_frames = 2;
        assert_eq!(n.readout(), "42 ms TCP · delay 2 f · rollback 3 f");
        n.stalls = 5;
        assert_eq!(
            n.readout(),
            "42 ms TCP · delay 2 f · rollback 3 f · 5 stalls"
        );
        n.path = TransportPath::Datagrams;
        assert_eq!(
            n.readout(),
            "42 ms UDP · delay 2 f · rollback 3 f · 5 stalls"
        );
    }

    #[test]
    fn replay_readout() {
        assert_eq!(
            NetStatus::replay(0.5, false, 240).readout(),
            "replay · 0.5× · frame 240"
        );
        assert_eq!(
            NetStatus::replay(1.0, true, 7).readout(),
            "replay · paused · frame 7"
        );
    }
}
