//! Offline matches: both seats simulated here ([`LocalSession`]), each driven by keys or an
//! automatic player ([`Control`]), with undo and redo of practice pieces ([`History`]) and
//! their finesse faults counted live ([`PracticeFinesse`]).

use std::collections::VecDeque;

use sevenbag_core::{Input, Match, MatchHeader, Seat};

use crate::input::{KeyMap, Keyboard, Latch};

use crate::match_source::{AutoPlayer, FinesseCount, MatchSource, NetStatus, Peer};
use crate::versus::practice_finesse::PracticeFinesse;

/// The most pieces a practice match can undo (a `Match` snapshot is about 1.5 KiB).
pub const MAX_UNDO: usize = 500;

/// Undo and redo of a practice match: the whole [`Match`] (both boards, the bot's, garbage in
/// flight, timers, round and score) as it stood at each of the person's locks, with the
/// person's finesse faults then.
#[derive(Clone, Debug)]
pub struct History {
    /// The seat whose locks are the undo points.
    seat: Seat,
    /// The match at each earlier lock of `seat` (or its start), newest last.
    undo: VecDeque<Point>,
    /// The match at `seat`'s last lock (what the next lock pushes).
    since: Point,
    /// Undone pieces, each as the match stood the moment it locked, the latest undo last.
    redo: Vec<Point>,
}

/// An undo point: the match and the faults counted up to it.
type Point = (Match, FinesseCount);

impl History {
    /// An empty history of `seat`'s pieces, starting at `m`.
    pub fn new(seat: Seat, m: &Match) -> History {
        History {
            seat,
            undo: VecDeque::new(),
            since: (m.clone(), FinesseCount::default()),
            redo: Vec::new(),
        }
    }

    /// Notes the frame just simulated, with the faults counted to it: a lock of the seat is a
    /// new undo point (and forgets the redo).
    pub fn observe(&mut self, m: &Match, faults: FinesseCount) {
        if m.player(self.seat).events().locked.is_none() {
            return;
        }
        let earlier = std::mem::replace(&mut self.since, (m.clone(), faults));
        if self.undo.len() == MAX_UNDO {
            self.undo.pop_front();
        }
        self.undo.push_back(earlier);
        self.redo.clear();
    }

    /// The match before the seat's last piece, if any (`current` becomes redoable).
    pub fn undo(&mut self) -> Option<Point> {
        let earlier = self.undo.pop_back()?;
        let undone = std::mem::replace(&mut self.since, earlier.clone());
        self.redo.push(undone);
        Some(earlier)
    }

    /// The match with the last undone piece put back, if any.
    pub fn redo(&mut self) -> Option<Point> {
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
    /// The practice seat's finesse faults (with `history`).
    finesse: Option<PracticeFinesse>,
}

impl LocalSession {
    /// A new offline match of `header` between `controls`.
    pub fn new(header: MatchHeader, controls: [Control; 2]) -> LocalSession {
        LocalSession {
            header,
            current: Match::new(header),
            controls,
            history: None,
            finesse: None,
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
            self.finesse = Some(PracticeFinesse::new(seat, &self.current));
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
            finesse: None,
        }
    }

    /// Restores an undo point: the match, and the faults counted to it.
    fn jump(&mut self, (m, faults): Point) {
        self.current = m;
        if let Some(f) = &mut self.finesse {
            f.restore(&self.current, faults);
        }
        self.resync();
    }

    fn input(&mut self, seat: Seat) -> Input {
        let m = &self.current;
        match &mut self.controls[seat.index()] {
            Control::Keys(_, latch) => latch.take(),
            Control::Auto(player) => player.next_input(m, seat),
        }
    }
}

impl MatchSource for LocalSession {
    fn sample(&mut self, keyboard: &Keyboard) {
        for control in &mut self.controls {
            if let Control::Keys(map, latch) = control {
                latch.sample(map, keyboard);
            }
        }
    }

    fn step(&mut self) -> bool {
        let inputs = [self.input(Seat::First), self.input(Seat::Second)];
        if let Some(f) = &mut self.finesse {
            f.before(&self.current);
        }
        self.current.step(inputs);
        if let (Some(h), Some(f)) = (&mut self.history, &mut self.finesse) {
            f.after(&self.current, inputs[h.seat.index()]);
            h.observe(&self.current, f.count());
        }
        true
    }

    fn undo(&mut self) -> bool {
        let Some(point) = self.history.as_mut().and_then(History::undo) else {
            return false;
        };
        self.jump(point);
        true
    }

    fn redo(&mut self) -> bool {
        let Some(point) = self.history.as_mut().and_then(History::redo) else {
            return false;
        };
        self.jump(point);
        true
    }

    fn history(&self) -> Option<(usize, usize)> {
        self.history.as_ref().map(History::depth)
    }

    fn finesse(&self) -> Option<FinesseCount> {
        self.finesse.as_ref().map(PracticeFinesse::count)
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
        if let Some(f) = &mut self.finesse {
            f.restore(&self.current, FinesseCount::default());
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::opponent::{AutoPlayer, Stacker};
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

    /// One frame with `key` tapped (or nothing).
    fn tap(s: &mut LocalSession, key: Option<KeyCode>) {
        let kb = Keyboard {
            pressed: key.into_iter().collect(),
            ..Keyboard::default()
        };
        s.sample(&kb);
        s.step();
    }

    #[test]
    fn practice_counts_finesse_faults_live_and_an_undo_takes_them_back() {
        let mut s = practice(Box::new(Stacker::new(1, 2)));
        lock_one(&mut s);
        assert_eq!(
            s.finesse(),
            Some(FinesseCount::default()),
            "a drop where it spawned"
        );
        for _ in 0..30 {
            tap(&mut s, None);
        }
        assert!(s.current().player(Seat::First).active().is_some());
        // Left then right: back where it spawned, two presses where none were needed.
        for key in [KeyCode::Left, KeyCode::Right] {
            tap(&mut s, Some(key));
            tap(&mut s, None);
        }
        lock_one(&mut s);
        let two = FinesseCount {
            faults: 2,
            faulty_pieces: 1,
        };
        assert_eq!(s.finesse(), Some(two));
        assert!(s.undo());
        assert_eq!(s.finesse(), Some(FinesseCount::default()));
        assert!(s.redo());
        assert_eq!(s.finesse(), Some(two));
        s.rematch(7);
        assert_eq!(s.finesse(), Some(FinesseCount::default()));
    }

    #[test]
    fn only_practice_counts_finesse() {
        let header = MatchHeader::versus(1);
        let local = LocalSession::new(
            header,
            [
                Control::keys(KeyMap::local_left()),
                Control::keys(KeyMap::local_right()),
            ],
        );
        assert_eq!(local.finesse(), None);
    }

    #[test]
    fn a_worker_bot_plays_on_after_an_undo() {
        use crate::opponent::{BotPlayer, Planning};
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
    fn continuing_from_a_replay_starts_from_its_exact_match() {
        use crate::replay_files::ReplaySession;
        let (replay, _) = crate::replay_files::tests::recorded(600);
        let mut s = ReplaySession::new(replay).expect("valid replay");
        for _ in 0..321 {
            s.step();
        }
        let here = s.current().clone();
        let auto = || Control::Auto(crate::opponent::Opponent::Stacker.player(1));
        let practice = LocalSession::from_match(here.clone(), [auto(), auto()]);
        assert_eq!(practice.current(), &here);
        assert_eq!(practice.current().frame().0, 321);
    }
}
