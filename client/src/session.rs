//! Where a match comes from: the seam between the match screen and offline, online or replay play.
//!
//! The match screen owns a `Box<dyn Session>` and only ever (1) hands it the keyboard once per
//! rendered frame, (2) asks it to advance one simulation frame at a time, and (3) reads the
//! [`Match`] and a [`NetStatus`] to draw. [`LocalSession`] is the offline kind (practice, local
//! two players, the demo); [`crate::online::Online`] (online and LAN) and
//! [`crate::replay::ReplaySession`] implement the same trait, so the screen and renderer do not
//! change.

use sevenbag_core::{Input, Match, MatchHeader, Seat};

use crate::input::{KeyMap, Keyboard, Latch};
use crate::opponent::AutoPlayer;

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
    /// "42 ms · delay 2 f · rollback 3 f", with " · 5 stalls" once there were any. Short enough to
    /// fit beside the connection tag under a board at 1280×720.
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
                format!(
                    "{ping} · delay {} f · rollback {} f{stalls}",
                    self.delay_frames, self.rollback_frames
                )
            }
        }
    }
}

/// A source of a match the screen can play or watch.
pub trait Session {
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
    /// The online controller behind this session, if it is one.
    fn online(&self) -> Option<&crate::online::Online> {
        None
    }
}

/// Who controls a seat of an offline match.
pub enum Control {
    /// A person on this keyboard with this key map.
    Keys(KeyMap, Latch),
    /// An automatic player.
    Auto(Box<dyn AutoPlayer>),
}

impl Control {
    /// A keyboard seat.
    pub fn keys(map: KeyMap) -> Control {
        Control::Keys(map, Latch::default())
    }
}

/// An offline match: both seats simulated here, each driven by keys or an automatic player.
pub struct LocalSession {
    header: MatchHeader,
    current: Match,
    controls: [Control; 2],
}

impl LocalSession {
    /// A new offline match of `header` between `controls`.
    pub fn new(header: MatchHeader, controls: [Control; 2]) -> LocalSession {
        LocalSession {
            header,
            current: Match::new(header),
            controls,
        }
    }

    /// An offline match that goes on from `m` exactly as it stands (both boards, holds, queues,
    /// garbage, round and score): "continue from here" in a replay.
    pub fn from_match(m: Match, controls: [Control; 2]) -> LocalSession {
        LocalSession {
            header: *m.header(),
            current: m,
            controls,
        }
    }

    fn input(&mut self, seat: Seat) -> Input {
        let m = &self.current;
        match &mut self.controls[seat.index()] {
            Control::Keys(_, latch) => latch.take(),
            Control::Auto(player) => player.next_input(m, seat),
        }
    }
}

impl Session for LocalSession {
    fn sample(&mut self, keyboard: &Keyboard) {
        for control in &mut self.controls {
            if let Control::Keys(map, latch) = control {
                latch.sample(map, keyboard);
            }
        }
    }

    fn step(&mut self) -> bool {
        let inputs = [self.input(Seat::First), self.input(Seat::Second)];
        self.current.step(inputs);
        true
    }

    fn current(&self) -> &Match {
        &self.current
    }

    fn net(&self) -> NetStatus {
        let peer = |c: &Control| match c {
            Control::Keys(..) => Peer::Local,
            Control::Auto(_) => Peer::Bot,
        };
        NetStatus::offline([peer(&self.controls[0]), peer(&self.controls[1])])
    }

    fn can_pause(&self) -> bool {
        true
    }

    fn rematch(&mut self, seed: u64) {
        self.header.seed = seed;
        self.current = Match::new(self.header);
        for control in &mut self.controls {
            if let Control::Keys(_, latch) = control {
                latch.reset();
            }
        }
    }

    fn local_seats(&self) -> [bool; 2] {
        self.controls
            .each_ref()
            .map(|c| matches!(c, Control::Keys(..)))
    }

    /// An outside bot that stopped says why over the boards (its seat presses nothing more).
    fn title(&self) -> Option<String> {
        self.controls.iter().find_map(|c| match c {
            Control::Auto(player) => player
                .failure()
                .map(|why| format!("THE BOT STOPPED: {why}")),
            Control::Keys(..) => None,
        })
    }
}

/// The banner line for a match that ended off the boards: "ANN WINS BY FORFEIT", or "MATCH
/// ENDED" when there is no winner (a server shutdown). Online play and replays share it.
pub fn verdict_line(
    reason: sevenbag_protocol::EndReason,
    winner: Option<sevenbag_core::Seat>,
    names: &[String; 2],
) -> String {
    match (reason, winner) {
        (sevenbag_protocol::EndReason::Forfeit, Some(w)) => {
            format!("{} WINS BY FORFEIT", names[w.index()].to_uppercase())
        }
        _ => "MATCH ENDED".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::opponent::Stacker;
    use macroquad::input::KeyCode;

    #[test]
    fn a_latched_tap_reaches_the_match() {
        let mut header = MatchHeader::versus(3);
        header.rules.countdown_frames = 1;
        let mut s = LocalSession::new(
            header,
            [
                Control::keys(KeyMap::guideline()),
                Control::Auto(Box::new(Stacker::new(1, 4))),
            ],
        );
        // Let the countdown end and the first piece spawn.
        for _ in 0..3 {
            s.step();
        }
        assert!(s.current().player(Seat::First).active().is_some());
        let tap = Keyboard {
            pressed: [KeyCode::Space].into_iter().collect(),
            ..Keyboard::default()
        };
        s.sample(&tap);
        s.step();
        assert_eq!(s.current().player(Seat::First).stats().pieces, 1);
        assert_eq!(s.local_seats(), [true, false]);
        assert_eq!(s.net().readout(), "offline");
        s.rematch(9);
        assert_eq!(s.current().frame().0, 0);
    }

    #[test]
    fn online_readout() {
        let mut n = NetStatus::offline([Peer::Local, Peer::Connected]);
        n.online = Some(Some(42));
        n.rollback_frames = 3;
        n.delay_frames = 2;
        assert_eq!(n.readout(), "42 ms · delay 2 f · rollback 3 f");
        n.stalls = 5;
        assert_eq!(n.readout(), "42 ms · delay 2 f · rollback 3 f · 5 stalls");
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
