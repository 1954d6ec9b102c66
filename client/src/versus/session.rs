//! Where a match comes from: the seam between the match screen and offline, online or replay play.
//!
//! The match screen owns a `Box<dyn Session>` and only ever (1) hands it the keyboard once per
//! rendered frame, (2) asks it to advance one simulation frame at a time, and (3) reads the
//! [`Match`] and a [`NetStatus`] to draw. [`LocalSession`] is the offline kind (practice, local
//! two players, the demo); the online controller (online and LAN) and
//! [`crate::replays::files::ReplaySession`] implement the same trait, so the screen and renderer do not
//! change. This module names none of them: a session describes itself through the trait (its
//! [`RoomRole`] for the online controller), so the sessions depend on it and not back.

use std::collections::VecDeque;

use sevenbag_core::{Input, Match, MatchHeader, Seat};
use sevenbag_netplay::TransportPath;

use crate::input::{KeyMap, Keyboard, Latch};
use crate::versus::opponent::AutoPlayer;

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
}

/// The most pieces a practice match can undo (a `Match` snapshot is about 1.5 KiB).
pub const MAX_UNDO: usize = 500;

/// Undo and redo of a practice match: the whole [`Match`] (both boards, the bot's, garbage in
/// flight, timers, round and score) as it stood at each of the person's locks.
#[derive(Clone, Debug)]
pub struct History {
    /// The seat whose locks are the undo points.
    seat: Seat,
    /// The match at each earlier lock of `seat` (or its start), newest last.
    undo: VecDeque<Match>,
    /// The match at `seat`'s last lock (what the next lock pushes).
    since: Match,
    /// Undone pieces, each as the match stood the moment it locked, the latest undo last.
    redo: Vec<Match>,
}

impl History {
    /// An empty history of `seat`'s pieces, starting at `m`.
    pub fn new(seat: Seat, m: &Match) -> History {
        History {
            seat,
            undo: VecDeque::new(),
            since: m.clone(),
            redo: Vec::new(),
        }
    }

    /// Notes the frame just simulated: a lock of the seat is a new undo point (and forgets the
    /// redo).
    pub fn observe(&mut self, m: &Match) {
        if m.player(self.seat).events().locked.is_none() {
            return;
        }
        let earlier = std::mem::replace(&mut self.since, m.clone());
        if self.undo.len() == MAX_UNDO {
            self.undo.pop_front();
        }
        self.undo.push_back(earlier);
        self.redo.clear();
    }

    /// The match before the seat's last piece, if any (`current` becomes redoable).
    pub fn undo(&mut self) -> Option<Match> {
        let earlier = self.undo.pop_back()?;
        let undone = std::mem::replace(&mut self.since, earlier.clone());
        self.redo.push(undone);
        Some(earlier)
    }

    /// The match with the last undone piece put back, if any.
    pub fn redo(&mut self) -> Option<Match> {
        let later = self.redo.pop()?;
        let earlier = std::mem::replace(&mut self.since, later.clone());
        if self.undo.len() == MAX_UNDO {
            self.undo.pop_front();
        }
        self.undo.push_back(earlier);
        Some(later)
    }

    /// (undoable, redoable) pieces.
    pub fn depth(&self) -> (usize, usize) {
        (self.undo.len(), self.redo.len())
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
    /// Undo and redo, for practice against an automatic player.
    history: Option<History>,
}

impl LocalSession {
    /// A new offline match of `header` between `controls`.
    pub fn new(header: MatchHeader, controls: [Control; 2]) -> LocalSession {
        LocalSession {
            header,
            current: Match::new(header),
            controls,
            history: None,
        }
    }

    /// Turns on undo and redo of the pieces of the one seat played on this keyboard (practice
    /// against an automatic player); does nothing when no seat, or both, are keyboard seats.
    pub fn with_undo(mut self) -> LocalSession {
        if let [true, false] | [false, true] = self.local_seats() {
            let seat = if self.local_seats()[0] {
                Seat::First
            } else {
                Seat::Second
            };
            self.history = Some(History::new(seat, &self.current));
        }
        self
    }

    /// After the match jumped in time (undo, redo): held keys are forgotten and automatic
    /// players drop their plans, so both sides carry on from the restored position.
    fn resync(&mut self) {
        for control in &mut self.controls {
            match control {
                Control::Keys(_, latch) => latch.reset(),
                Control::Auto(player) => player.resync(),
            }
        }
    }

    /// An offline match that goes on from `m` exactly as it stands (both boards, holds, queues,
    /// garbage, round and score): "continue from here" in a replay.
    pub fn from_match(m: Match, controls: [Control; 2]) -> LocalSession {
        LocalSession {
            header: *m.header(),
            current: m,
            controls,
            history: None,
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
        if let Some(h) = &mut self.history {
            h.observe(&self.current);
        }
        true
    }

    fn undo(&mut self) -> bool {
        let Some(m) = self.history.as_mut().and_then(History::undo) else {
            return false;
        };
        self.current = m;
        self.resync();
        true
    }

    fn redo(&mut self) -> bool {
        let Some(m) = self.history.as_mut().and_then(History::redo) else {
            return false;
        };
        self.current = m;
        self.resync();
        true
    }

    fn history(&self) -> Option<(usize, usize)> {
        self.history.as_ref().map(History::depth)
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
        if let Some(h) = &mut self.history {
            *h = History::new(h.seat, &self.current);
        }
        self.resync();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::versus::opponent::{AutoPlayer, Stacker};
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

    /// Plays frames until the keyboard seat has locked one more piece (it taps hard drop
    /// whenever it has a piece), and stops on the frame of that lock.
    fn lock_one(s: &mut LocalSession) {
        let pieces = s.current().player(Seat::First).stats().pieces;
        let tap = Keyboard {
            pressed: [KeyCode::Space].into_iter().collect(),
            ..Keyboard::default()
        };
        for _ in 0..600 {
            if s.current().player(Seat::First).active().is_some() {
                s.sample(&tap);
            }
            s.step();
            if s.current().player(Seat::First).stats().pieces > pieces {
                return;
            }
        }
        panic!("no lock in 600 frames");
    }

    fn practice(auto: Box<dyn AutoPlayer>) -> LocalSession {
        let mut header = MatchHeader::versus(5);
        header.rules.countdown_frames = 1;
        LocalSession::new(
            header,
            [Control::keys(KeyMap::guideline()), Control::Auto(auto)],
        )
        .with_undo()
    }

    #[test]
    fn practice_undo_and_redo_restore_the_whole_match_exactly() {
        let mut s = practice(Box::new(Stacker::new(1, 2)));
        let start = s.current().state_hash();
        let mut at_lock = Vec::new();
        for _ in 0..8 {
            lock_one(&mut s);
            at_lock.push(s.current().clone());
            // Let the bot play on a little between the person's pieces.
            for _ in 0..20 {
                s.step();
            }
        }
        assert!(
            s.current().player(Seat::Second).stats().pieces > 0,
            "the bot played"
        );
        assert_eq!(s.history(), Some((8, 0)));
        // Undo the last piece: the match as it stood when the one before locked.
        assert!(s.undo());
        assert_eq!(s.current().state_hash(), at_lock[6].state_hash());
        assert!(s.undo());
        assert_eq!(s.current().state_hash(), at_lock[5].state_hash());
        assert_eq!(s.history(), Some((6, 2)));
        assert!(s.redo());
        assert!(s.redo());
        assert_eq!(s.current().state_hash(), at_lock[7].state_hash());
        assert!(!s.redo());
        for _ in 0..8 {
            assert!(s.undo());
        }
        assert_eq!(s.current().state_hash(), start);
        assert!(!s.undo());
        // A new piece after an undo forgets the redo; play goes on with the bot.
        lock_one(&mut s);
        assert_eq!(s.history(), Some((1, 0)));
        for _ in 0..200 {
            s.step();
        }
        s.rematch(6);
        assert_eq!(s.history(), Some((0, 0)));
    }

    #[test]
    fn a_worker_bot_plays_on_after_an_undo() {
        use crate::versus::opponent::{BotPlayer, Planning};
        let bot = BotPlayer::new(sevenbag_bot::Level::Easy, Planning::Worker).wait_for_plans(true);
        let mut s = practice(Box::new(bot));
        for _ in 0..3 {
            lock_one(&mut s);
            for _ in 0..60 {
                s.step();
            }
        }
        let bot_pieces = s.current().player(Seat::Second).stats().pieces;
        assert!(bot_pieces > 0);
        assert!(s.undo());
        assert!(s.undo());
        let back = s.current().player(Seat::Second).stats().pieces;
        for _ in 0..400 {
            s.step();
        }
        assert!(
            s.current().player(Seat::Second).stats().pieces > back,
            "the bot carries on from the restored position"
        );
    }

    #[test]
    fn only_a_one_keyboard_match_against_a_bot_has_undo() {
        let header = MatchHeader::versus(1);
        let local = LocalSession::new(
            header,
            [
                Control::keys(KeyMap::local_left()),
                Control::keys(KeyMap::local_right()),
            ],
        )
        .with_undo();
        assert_eq!(local.history(), None);
        let demo = LocalSession::new(
            header,
            [
                Control::Auto(Box::new(Stacker::new(1, 4))),
                Control::Auto(Box::new(Stacker::new(2, 4))),
            ],
        )
        .with_undo();
        assert_eq!(demo.history(), None);
    }

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
