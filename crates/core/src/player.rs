//! One player's board and everything that moves on it, advanced one frame at a time.
//!
//! Order of work in a frame ([`Player::step`]): spawn a piece if none is active (with IHS/IRS from
//! the keys held), then hold, rotations (CW, CCW, 180), sideways movement (DAS/ARR/DCD), hard drop,
//! soft drop and gravity, and last the lock delay. A piece that locks leaves the board empty of an
//! active piece until the next frame, when the next one spawns.

mod motion;
mod stats;

use crate::attack::{AttackScale, Chain, Clear, Spin};
use crate::bag::{PREVIEW, PieceQueue};
use crate::board::{Board, VISIBLE_HEIGHT};
use crate::garbage::GarbageQueue;
use crate::hash::StateHasher;
use crate::input::Input;
use crate::piece::{Piece, PieceKind, Rotation};
use crate::rng::{ChaChaStream, StreamId};
use crate::rules::{Handling, Rules};
use crate::seat::{Seat, SeatSet};
use motion::Shift;
pub use stats::{LockEvent, PlayerEvents, Stats, TopOut};

/// One board and its piece, queue, hold, garbage and counters. `Copy`, heap-free.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Player {
    handling: Handling,
    board: Board,
    active: Option<Piece>,
    hold: Option<PieceKind>,
    hold_used: bool,
    queue: PieceQueue,
    garbage: GarbageQueue,
    chain: Chain,
    previous: Input,
    shift: Shift,
    gravity: u32,
    lock_timer: u16,
    ground_moves: u8,
    /// Kick index of the last action if it was a rotation (255 for a 180° rotation).
    spin_kick: Option<u8>,
    topped_out: Option<TopOut>,
    outgoing: u16,
    /// The seats whose garbage was queued here when the last piece locked, before its attack
    /// cancelled any (the `attackers` targeting rule reads it on the same frame).
    attackers_at_lock: SeatSet,
    /// The multiplier on this board's attack (badges, team boost); set by its match.
    attack_scale: AttackScale,
    stats: Stats,
    events: PlayerEvents,
}

/// The frame-dependent facts a player step needs from its match.
#[derive(Clone, Copy, Debug)]
pub struct StepContext<'a> {
    /// The room's rules.
    pub rules: &'a Rules,
    /// The match frame being simulated (garbage travel is timed against it).
    pub frame: u32,
    /// Frames since this round's play began (gravity rises with it).
    pub play_frame: u32,
}

/// The kick index recorded for a 180° rotation: it never upgrades a mini.
pub const FLIP_KICK: u8 = 255;

/// The T-spin kind of `piece` locking on `board` when the last action was a rotation that used
/// kick test `kick` (0-based; [`FLIP_KICK`] for 180°). The 3-corner rule of SPEC §5: at least 3 of
/// the 4 diagonal corners of the T's centre filled (walls and floor count); full if both corners
/// on the pointed side are filled or the rotation used kick index 4, otherwise mini.
pub fn t_spin(board: &Board, piece: &Piece, kick: u8) -> Spin {
    if piece.kind != PieceKind::T {
        return Spin::None;
    }
    // Corners clockwise from top-left; state k points at corners k and k + 1.
    let corners = [(-1, 1), (1, 1), (1, -1), (-1, -1)];
    let filled = corners.map(|(dx, dy)| board.occupied(piece.x + dx, piece.y + dy));
    if filled.iter().filter(|&&f| f).count() < 3 {
        return Spin::None;
    }
    let front = piece.rotation.index();
    if (filled[front] && filled[(front + 1) % 4]) || kick == 4 {
        Spin::Full
    } else {
        Spin::Mini
    }
}

impl Player {
    /// A fresh board for seat `seat` in round `round` of a match with `seed`.
    pub fn new(rules: &Rules, handling: Handling, seed: u64, round: u32, seat: u8) -> Player {
        Player {
            handling,
            board: Board::new(),
            active: None,
            hold: None,
            hold_used: false,
            queue: PieceQueue::new(rules.randomizer, seed, round),
            garbage: GarbageQueue::new(ChaChaStream::new(seed, StreamId::Holes { round, seat })),
            chain: Chain::default(),
            previous: Input::NONE,
            shift: Shift::default(),
            gravity: 0,
            lock_timer: 0,
            ground_moves: 0,
            spin_kick: None,
            topped_out: None,
            outgoing: 0,
            attackers_at_lock: SeatSet::EMPTY,
            attack_scale: AttackScale::ONE,
            stats: Stats::default(),
            events: PlayerEvents::default(),
        }
    }

    /// The locked cells.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The falling piece, if one is in play.
    pub fn active(&self) -> Option<Piece> {
        self.active
    }

    /// Where the falling piece would land on a hard drop.
    pub fn ghost(&self) -> Option<Piece> {
        self.active.map(|p| self.board.drop_position(&p))
    }

    /// The held piece.
    pub fn hold(&self) -> Option<PieceKind> {
        self.hold
    }

    /// Whether hold was already used for the current piece.
    pub fn hold_used(&self) -> bool {
        self.hold_used
    }

    /// The next pieces, nearest first.
    pub fn next(&self) -> [PieceKind; PREVIEW] {
        self.queue.preview()
    }

    /// The incoming garbage queue.
    pub fn garbage(&self) -> &GarbageQueue {
        &self.garbage
    }

    /// Counters for the stats panel.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// Current combo count (`None` when the last lock cleared nothing).
    pub fn combo(&self) -> Option<u8> {
        self.chain.combo
    }

    /// Current back-to-back count.
    pub fn b2b(&self) -> u16 {
        self.chain.b2b
    }

    /// What happened during the last frame.
    pub fn events(&self) -> &PlayerEvents {
        &self.events
    }

    /// Why this player lost, if they did.
    pub fn topped_out(&self) -> Option<TopOut> {
        self.topped_out
    }

    /// This player's handling.
    pub fn handling(&self) -> &Handling {
        &self.handling
    }

    /// The keys held on the last frame.
    pub fn last_input(&self) -> Input {
        self.previous
    }

    /// Attack produced on the last frame that goes to the opponent (after cancelling).
    pub fn outgoing(&self) -> u16 {
        self.outgoing
    }

    /// Queues garbage sent by the opponent at `frame`.
    pub fn receive(&mut self, lines: u16, frame: u32, travel: u16) {
        self.garbage.push(lines, frame, travel);
    }

    /// Queues garbage sent by seat `from` at `frame`.
    pub fn receive_from(&mut self, lines: u16, frame: u32, travel: u16, from: Seat) {
        self.garbage.push_from(lines, frame, travel, Some(from));
    }

    /// Empties the garbage queue (the seat is out); returns the lines thrown away.
    pub(crate) fn discard_garbage(&mut self) -> u32 {
        self.garbage.discard()
    }

    /// The seats whose garbage was queued here when the last piece locked, before its attack
    /// cancelled any.
    pub fn attackers_at_lock(&self) -> SeatSet {
        self.attackers_at_lock
    }

    /// The multiplier on this board's attack.
    pub fn attack_scale(&self) -> AttackScale {
        self.attack_scale
    }

    /// Sets the multiplier on this board's attack (badges, team boost), rounded down per lock.
    pub fn set_attack_scale(&mut self, scale: AttackScale) {
        self.attack_scale = scale;
    }

    /// A frame outside play (a round break, the end of the match): keys are remembered so that
    /// a key held on is not a press when play begins, and events are cleared.
    pub fn idle(&mut self, input: Input) {
        self.previous = input;
        self.events = PlayerEvents::default();
        self.outgoing = 0;
        self.attackers_at_lock = SeatSet::EMPTY;
    }

    /// A countdown frame: as [`Player::idle`], and a held direction charges DAS, so a player can
    /// pre-charge it before "GO" (the first piece then auto-shifts at once, as in TETR.IO).
    pub fn countdown(&mut self, input: Input) {
        let pressed = input.pressed_since(self.previous);
        self.idle(input);
        self.auto_shift(input, pressed);
    }

    /// Advances one frame of play with the keys held in `input`.
    pub fn step(&mut self, input: Input, ctx: StepContext<'_>) {
        self.events = PlayerEvents::default();
        self.outgoing = 0;
        self.attackers_at_lock = SeatSet::EMPTY;
        let mut pressed = input.pressed_since(self.previous);
        self.previous = input;
        if self.topped_out.is_some() {
            return;
        }
        self.stats.frames += 1;
        if self.active.is_none() {
            let consumed = self.spawn_next(input, ctx.rules);
            pressed = Input(pressed.0 & !consumed.0);
            if self.topped_out.is_some() {
                return;
            }
        }
        if pressed.contains(Input::HOLD) && !self.hold_used {
            self.hold_piece();
            if self.topped_out.is_some() {
                return;
            }
        }
        if pressed.contains(Input::ROTATE_CW) {
            self.rotate(Rotation::cw);
        }
        if pressed.contains(Input::ROTATE_CCW) {
            self.rotate(Rotation::ccw);
        }
        if pressed.contains(Input::ROTATE_180) && ctx.rules.allow_180 {
            self.rotate(Rotation::flip);
        }
        self.auto_shift(input, pressed);
        if pressed.contains(Input::HARD_DROP) {
            self.hard_drop(ctx);
            return;
        }
        self.fall(input, ctx);
        self.lock_delay(ctx);
    }

    /// Takes the next piece from the queue (applying IHS and IRS) and spawns it. Returns the keys
    /// whose presses the spawn used up.
    fn spawn_next(&mut self, input: Input, rules: &Rules) -> Input {
        let mut consumed = Input::NONE;
        let mut kind = self.queue.pop();
        self.hold_used = false;
        if self.handling.ihs && input.contains(Input::HOLD) {
            let held = self.hold.replace(kind);
            kind = held.unwrap_or_else(|| self.queue.pop());
            self.hold_used = true;
            self.events.held = true;
            consumed = consumed.with(Input::HOLD);
        }
        let Some(mut piece) = self.spawn_piece(kind) else {
            return consumed;
        };
        if self.handling.irs {
            let irs = [
                (Input::ROTATE_CW, piece.rotation.cw()),
                (Input::ROTATE_CCW, piece.rotation.ccw()),
                (Input::ROTATE_180, piece.rotation.flip()),
            ];
            for (key, to) in irs {
                if input.contains(key) && (key != Input::ROTATE_180 || rules.allow_180) {
                    consumed =
                        consumed.with(Input::ROTATE_CW | Input::ROTATE_CCW | Input::ROTATE_180);
                    if let Some((rotated, _)) = self.try_rotate(&piece, to) {
                        piece = rotated;
                        self.active = Some(piece);
                    }
                    break;
                }
            }
        }
        consumed
    }

    /// Puts a new piece of `kind` at the spawn position, or tops out (block out).
    fn spawn_piece(&mut self, kind: PieceKind) -> Option<Piece> {
        let mut piece = Piece::spawn(kind);
        if self.board.collides(&piece) {
            self.top_out(TopOut::BlockOut);
            return None;
        }
        if !self.board.grounded(&piece) {
            piece = piece.shifted(0, -1);
        }
        self.active = Some(piece);
        self.gravity = 0;
        self.lock_timer = 0;
        self.ground_moves = 0;
        self.spin_kick = None;
        self.shift.cut = self.handling.dcd;
        self.events.spawned = Some(kind);
        Some(piece)
    }

    fn hold_piece(&mut self) {
        let Some(current) = self.active else { return };
        let next = self
            .hold
            .replace(current.kind)
            .unwrap_or_else(|| self.queue.pop());
        self.hold_used = true;
        self.events.held = true;
        self.spawn_piece(next);
    }

    fn hard_drop(&mut self, ctx: StepContext<'_>) {
        let Some(piece) = self.active else { return };
        let landed = self.board.drop_position(&piece);
        if landed != piece {
            self.spin_kick = None;
        }
        self.events.hard_dropped = true;
        self.events.hard_drop_rows = (piece.y - landed.y) as u8;
        self.lock(landed, ctx);
    }

    /// The T-spin kind of `piece` locking now (3-corner rule, SPEC §5).
    fn spin_of(&self, piece: &Piece) -> Spin {
        match self.spin_kick {
            Some(kick) => t_spin(&self.board, piece, kick),
            None => Spin::None,
        }
    }

    fn lock(&mut self, piece: Piece, ctx: StepContext<'_>) {
        let spin = self.spin_of(&piece);
        self.board.place(&piece);
        self.active = None;
        self.hold_used = false;
        let cleared = self.board.clear_lines();
        let clear = Clear {
            lines: cleared.lines,
            spin,
            perfect: cleared.lines > 0 && self.board.is_empty(),
        };
        let mut attack = self.chain.apply(clear);
        attack.lines = self.attack_scale.apply(attack.lines);
        if attack.lines > 0 {
            self.attackers_at_lock = self.garbage.senders();
        }
        let sent = self.garbage.cancel(attack.lines);
        self.outgoing = sent;
        let stats = &mut self.stats;
        stats.pieces += 1;
        stats.lines += u32::from(cleared.lines);
        stats.garbage_cleared += u32::from(cleared.garbage);
        stats.attack += u32::from(attack.lines);
        stats.sent += u32::from(sent);
        stats.max_combo = stats.max_combo.max(attack.combo.unwrap_or(0));
        stats.t_spins += u32::from(clear.lines > 0 && spin != Spin::None);
        stats.quads += u32::from(clear.lines == 4);
        stats.perfect_clears += u32::from(clear.perfect);
        self.events.locked = Some(LockEvent {
            piece,
            clear,
            attack,
            cancelled: attack.lines - sent,
            sent,
            b2b: self.chain.b2b,
        });
        if cleared.lines > 0 {
            return;
        }
        if ctx.rules.lock_out && piece.cells().iter().all(|&(_, y)| y >= VISIBLE_HEIGHT) {
            self.top_out(TopOut::LockOut);
            return;
        }
        let board = &mut self.board;
        let mut overflow = false;
        let risen = self.garbage.rise(
            ctx.frame,
            ctx.rules.garbage_cap,
            ctx.rules.messiness,
            |hole| {
                overflow |= !board.push_garbage(1, hole);
            },
        );
        self.events.garbage_risen = risen;
        self.stats.garbage_received += u32::from(risen);
        if overflow {
            self.top_out(TopOut::GarbageOut);
        }
    }

    fn top_out(&mut self, why: TopOut) {
        self.topped_out = Some(why);
        self.active = None;
        self.events.topped_out = Some(why);
    }

    /// This player's own state hash (FNV-1a 64 over the canonical bytes a match or solo hash
    /// feeds for it): board, piece in play, hold, queue and bag, garbage, back-to-back, combo and
    /// the rest. "Continue from here" checks that a new run starts from exactly this player.
    pub fn state_hash(&self) -> u64 {
        let mut h = StateHasher::new();
        self.write_canonical(&mut h, false);
        h.finish()
    }

    /// Feeds the canonical bytes of this player to `out` (see [`crate::Match::state_hash`]);
    /// `senders` adds the garbage senders (matches of more than two seats, see
    /// [`crate::Battle::state_hash`]).
    pub(crate) fn write_canonical(&self, out: &mut StateHasher, senders: bool) {
        for row in self.board.colour_rows() {
            out.u64(*row);
        }
        match self.active {
            None => out.u8(0),
            Some(p) => {
                out.u8(1);
                out.u8(p.kind.index() as u8);
                out.u8(p.rotation.index() as u8);
                out.i8(p.x);
                out.i8(p.y);
            }
        }
        match self.hold {
            None => out.u8(0),
            Some(k) => {
                out.u8(1);
                out.u8(k.index() as u8);
            }
        }
        out.bool(self.hold_used);
        self.queue.write_canonical(out);
        self.garbage.write_canonical(out, senders);
        match self.chain.combo {
            None => out.u8(0),
            Some(c) => {
                out.u8(1);
                out.u8(c);
            }
        }
        out.u16(self.chain.b2b);
        out.u8(self.previous.0);
        out.i8(self.shift.dir);
        out.u8(self.shift.held);
        out.bool(self.shift.charged);
        out.u8(self.shift.arr);
        out.u8(self.shift.cut);
        out.u32(self.gravity);
        out.u16(self.lock_timer);
        out.u8(self.ground_moves);
        match self.spin_kick {
            None => out.u8(0),
            Some(k) => {
                out.u8(1);
                out.u8(k);
            }
        }
        out.u8(match self.topped_out {
            None => 0,
            Some(TopOut::BlockOut) => 1,
            Some(TopOut::LockOut) => 2,
            Some(TopOut::GarbageOut) => 3,
        });
        let s = &self.stats;
        for v in [
            s.pieces,
            s.lines,
            s.attack,
            s.sent,
            s.garbage_received,
            s.garbage_cleared,
            s.frames,
        ] {
            out.u32(v);
        }
    }

    /// Test and tool hook: replaces the board (the active piece is kept if it still fits).
    pub fn set_board(&mut self, board: Board) {
        self.board = board;
        if let Some(p) = self.active
            && board.collides(&p)
        {
            self.active = None;
        }
    }

    /// Analysis hook (bot, tools, tests; a match never calls it): what a hold would bring in.
    /// `Some(kind)` puts `kind` in the hold slot, usable; `None` empties it and marks hold as used
    /// for the current piece.
    pub fn set_hold(&mut self, hold: Option<PieceKind>) {
        self.hold = hold;
        self.hold_used = hold.is_none();
    }

    /// Analysis hook: no piece in play, and the next frame spawns `kind` (put in front of the
    /// queue), as on the frame after a lock; `previous` is taken as the keys held on the frame
    /// before, so edges, IRS and IHS work as in a match.
    pub fn set_spawn_next(&mut self, kind: PieceKind, previous: Input) {
        self.queue.push_front(kind);
        self.active = None;
        self.previous = previous;
        self.lock_timer = 0;
        self.ground_moves = 0;
        self.spin_kick = None;
        self.gravity = 0;
    }

    /// Test and tool hook: puts `piece` in play as if it had just spawned there.
    pub fn set_active(&mut self, piece: Piece) {
        self.active = Some(piece);
        self.lock_timer = 0;
        self.ground_moves = 0;
        self.spin_kick = None;
        self.gravity = 0;
    }
}
