//! Incoming garbage: attacks queued at a receiver, cancelling, travel time, the per-piece cap, and
//! hole columns from the receiver's own ChaCha stream.
//!
//! Each queued attack picks its hole column when it is queued. When lines rise, each line after
//! the attack's first re-rolls the hole with probability `messiness`% to a different column.
//! The queue holds at most [`MAX_ENTRIES`] attacks; beyond that an attack merges into the newest
//! entry (keeping that entry's hole and sender) so no line is ever lost.
//!
//! Each attack remembers its sender, and the queue remembers whose line rose last: a match of
//! more than two seats credits knock-outs and routes the `attackers` rule from them.

use crate::board::WIDTH;
use crate::rng::{ChaChaStream, below};
use crate::seat::{Seat, SeatSet};

/// Attacks a queue holds before new ones merge into the newest.
pub const MAX_ENTRIES: usize = 16;

/// One queued attack.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct GarbageEntry {
    /// Lines still to rise from this attack.
    pub lines: u16,
    /// Frame from which these lines may rise.
    pub ready_at: u32,
    /// Hole column of the next line to rise.
    pub hole: i8,
    /// Whether a line of this attack has risen (later lines may re-roll the hole).
    pub started: bool,
    /// The seat that sent it (`None` when queued without a sender, outside a match).
    pub from: Option<Seat>,
}

/// A receiver's queue of incoming attacks, oldest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GarbageQueue {
    entries: [GarbageEntry; MAX_ENTRIES],
    len: u8,
    holes: ChaChaStream,
    /// The sender of the last line that rose.
    last_from: Option<Seat>,
}

impl GarbageQueue {
    /// An empty queue whose hole columns come from `holes`.
    pub fn new(holes: ChaChaStream) -> GarbageQueue {
        GarbageQueue {
            entries: [GarbageEntry::default(); MAX_ENTRIES],
            len: 0,
            holes,
            last_from: None,
        }
    }

    /// The queued attacks, oldest first.
    pub fn entries(&self) -> &[GarbageEntry] {
        &self.entries[..self.len as usize]
    }

    /// Total lines queued.
    pub fn total(&self) -> u32 {
        self.entries().iter().map(|e| u32::from(e.lines)).sum()
    }

    /// Lines that may rise at `frame` (their travel is over).
    pub fn ready(&self, frame: u32) -> u32 {
        self.entries()
            .iter()
            .filter(|e| e.ready_at <= frame)
            .map(|e| u32::from(e.lines))
            .sum()
    }

    /// The seats that sent the queued attacks.
    pub fn senders(&self) -> SeatSet {
        self.entries().iter().filter_map(|e| e.from).collect()
    }

    /// The seat whose garbage rose last, if any rose.
    pub fn last_from(&self) -> Option<Seat> {
        self.last_from
    }

    /// Queues an attack of `lines` sent at `frame`, arriving `travel` frames later.
    pub fn push(&mut self, lines: u16, frame: u32, travel: u16) {
        self.push_from(lines, frame, travel, None);
    }

    /// Queues an attack of `lines` sent by `from` at `frame`, arriving `travel` frames later.
    pub fn push_from(&mut self, lines: u16, frame: u32, travel: u16, from: Option<Seat>) {
        if lines == 0 {
            return;
        }
        let ready_at = frame + u32::from(travel);
        if self.len as usize == MAX_ENTRIES {
            let last = &mut self.entries[MAX_ENTRIES - 1];
            last.lines = last.lines.saturating_add(lines);
            last.ready_at = last.ready_at.max(ready_at);
            return;
        }
        let hole = self.holes.with(|r| below(r, WIDTH as u32)) as i8;
        self.entries[self.len as usize] = GarbageEntry {
            lines,
            ready_at,
            hole,
            started: false,
            from,
        };
        self.len += 1;
    }

    /// Cancels up to `lines` queued lines, oldest first; returns the lines left over to send on.
    pub fn cancel(&mut self, mut lines: u16) -> u16 {
        while lines > 0 && self.len > 0 {
            let front = &mut self.entries[0];
            let used = front.lines.min(lines);
            front.lines -= used;
            lines -= used;
            if front.lines == 0 {
                self.remove_front();
            }
        }
        lines
    }

    /// Takes up to `cap` ready lines at `frame` and calls `rise(hole)` for each, bottom-most first
    /// in time order; returns how many rose.
    pub fn rise(&mut self, frame: u32, cap: u8, messiness: u8, mut rise: impl FnMut(i8)) -> u8 {
        let mut risen = 0u8;
        while risen < cap && self.len > 0 && self.entries[0].ready_at <= frame {
            let mut entry = self.entries[0];
            if entry.started && messiness > 0 {
                let reroll = self.holes.with(|r| below(r, 100)) < u32::from(messiness);
                if reroll {
                    let shift = self.holes.with(|r| below(r, WIDTH as u32 - 1)) as i8 + 1;
                    entry.hole = (entry.hole + shift) % WIDTH;
                }
            }
            rise(entry.hole);
            self.last_from = entry.from;
            risen += 1;
            entry.lines -= 1;
            entry.started = true;
            self.entries[0] = entry;
            if entry.lines == 0 {
                self.remove_front();
            }
        }
        risen
    }

    fn remove_front(&mut self) {
        self.entries.copy_within(1..self.len as usize, 0);
        self.len -= 1;
    }

    /// Empties the queue (its seat is out); returns the lines thrown away.
    pub(crate) fn discard(&mut self) -> u32 {
        let lines = self.total();
        self.len = 0;
        lines
    }

    /// Canonical bytes: entries then hole-stream position; with `senders` (matches of more than
    /// two seats), then each entry's sender and the last riser (a seat byte, 0xFF for none).
    pub(crate) fn write_canonical(&self, out: &mut crate::hash::StateHasher, senders: bool) {
        out.u8(self.len);
        for e in self.entries() {
            out.u16(e.lines);
            out.u32(e.ready_at);
            out.i8(e.hole);
            out.bool(e.started);
        }
        out.u64(self.holes.word_pos());
        if senders {
            let byte = |s: Option<Seat>| s.map_or(0xFF, |s| s.index() as u8);
            for e in self.entries() {
                out.u8(byte(e.from));
            }
            out.u8(byte(self.last_from));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::StreamId;

    fn queue() -> GarbageQueue {
        GarbageQueue::new(ChaChaStream::new(9, StreamId::Holes { round: 0, seat: 0 }))
    }

    fn rise_all(q: &mut GarbageQueue, frame: u32, cap: u8, messiness: u8) -> Vec<i8> {
        let mut holes = Vec::new();
        q.rise(frame, cap, messiness, |h| holes.push(h));
        holes
    }

    #[test]
    fn cancel_takes_the_oldest_lines_first() {
        let mut q = queue();
        q.push(3, 0, 20);
        q.push(4, 5, 20);
        assert_eq!(q.cancel(5), 0);
        assert_eq!(q.entries().len(), 1);
        assert_eq!(q.entries()[0].lines, 2);
        assert_eq!(q.entries()[0].ready_at, 25);
    }

    #[test]
    fn cancel_returns_what_is_left_to_send() {
        let mut q = queue();
        q.push(2, 0, 20);
        assert_eq!(q.cancel(5), 3);
        assert_eq!(q.total(), 0);
    }

    #[test]
    fn garbage_waits_for_its_travel_time() {
        let mut q = queue();
        q.push(2, 100, 20);
        assert!(rise_all(&mut q, 119, 8, 0).is_empty());
        assert_eq!(rise_all(&mut q, 120, 8, 0).len(), 2);
    }

    #[test]
    fn at_most_cap_lines_rise_per_lock() {
        let mut q = queue();
        q.push(10, 0, 20);
        assert_eq!(rise_all(&mut q, 20, 8, 0).len(), 8);
        assert_eq!(q.total(), 2);
    }

    #[test]
    fn each_attack_gets_its_own_hole() {
        let mut q = queue();
        for _ in 0..8 {
            q.push(1, 0, 20);
        }
        let holes = rise_all(&mut q, 20, 8, 0);
        assert!(holes.iter().any(|&h| h != holes[0]), "{holes:?}");
    }

    #[test]
    fn messiness_0_keeps_one_hole_per_attack() {
        let mut q = queue();
        q.push(6, 0, 20);
        let holes = rise_all(&mut q, 20, 8, 0);
        assert!(holes.iter().all(|&h| h == holes[0]), "{holes:?}");
    }

    #[test]
    fn messiness_100_moves_the_hole_every_line() {
        let mut q = queue();
        q.push(6, 0, 20);
        let holes = rise_all(&mut q, 20, 8, 100);
        assert!(holes.windows(2).all(|w| w[0] != w[1]), "{holes:?}");
    }

    #[test]
    fn the_last_riser_is_the_sender_of_the_last_line_up() {
        let mut q = queue();
        q.push_from(2, 0, 20, Seat::new(3));
        q.push_from(1, 1, 20, Seat::new(5));
        assert_eq!(
            q.senders().iter().map(Seat::index).collect::<Vec<_>>(),
            [3, 5]
        );
        rise_all(&mut q, 20, 2, 0);
        assert_eq!(q.last_from(), Seat::new(3));
        rise_all(&mut q, 21, 8, 0);
        assert_eq!(q.last_from(), Seat::new(5));
    }

    #[test]
    fn a_full_queue_merges_instead_of_dropping_lines() {
        let mut q = queue();
        for _ in 0..MAX_ENTRIES + 3 {
            q.push(1, 0, 20);
        }
        assert_eq!(q.total(), MAX_ENTRIES as u32 + 3);
    }
}
