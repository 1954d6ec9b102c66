//! What a match keeps for each seat beside its board, for one round: placement, knock-outs,
//! badges, the lines routed to it, and the targeting state of its own attacks.

use crate::attack::AttackScale;
use crate::hash::StateHasher;
use crate::rng::{ChaChaStream, StreamId};
use crate::seat::Seat;

/// Badge points needed for each step of the badge bonus (+25% each, SPEC §10).
const BADGE_STEPS: [u8; 4] = [2, 6, 14, 30];

/// One seat's round state outside its board. `Copy`, heap-free.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Standing {
    /// Final place this round, from 1; 0 while it is undecided.
    pub(crate) place: u8,
    /// Who knocked this seat out (the sender of the last garbage line that rose on it).
    pub(crate) knocked_out_by: Option<Seat>,
    /// Knock-outs credited to this seat.
    pub(crate) kos: u8,
    /// Badge points.
    pub(crate) badges: u8,
    /// Lines routed to this seat (whether they later rose, were cancelled or thrown away).
    pub(crate) received: u32,
    /// Lines of this seat's queue thrown away when it went out.
    pub(crate) discarded: u32,
    /// The seat this seat's `even` targeting attacked last.
    pub(crate) last_attacked: Option<Seat>,
    /// The target this seat holds, as of the last frame (kept under manual targeting only).
    pub(crate) target: Option<Seat>,
    /// The `random` targeting rule's draws.
    pub(crate) aim: ChaChaStream,
}

impl Standing {
    /// The state of `seat` at the start of round `round`.
    pub(crate) fn new(seed: u64, round: u32, seat: Seat) -> Standing {
        Standing {
            place: 0,
            knocked_out_by: None,
            kos: 0,
            badges: 0,
            received: 0,
            discarded: 0,
            last_attacked: None,
            target: None,
            aim: ChaChaStream::new(
                seed,
                StreamId::Aim {
                    round,
                    seat: seat.index() as u8,
                },
            ),
        }
    }

    /// The badge bonus: ×1, ×1.25, ×1.5, ×1.75 or ×2.
    pub(crate) fn badge_scale(&self) -> AttackScale {
        let steps = BADGE_STEPS.iter().filter(|&&at| self.badges >= at).count() as u16;
        AttackScale::new(4 + steps, 4).unwrap_or(AttackScale::ONE)
    }

    /// Canonical bytes: place, knocked out by (seat byte, 0xFF none), knock-outs, badge points
    /// (u8 each), lines received and discarded (u32 each), last attacked and target (seat
    /// bytes), and the `random` stream's position (u64).
    pub(crate) fn write_canonical(&self, out: &mut StateHasher) {
        let byte = |s: Option<Seat>| s.map_or(0xFF, |s| s.index() as u8);
        out.u8(self.place);
        out.u8(byte(self.knocked_out_by));
        out.u8(self.kos);
        out.u8(self.badges);
        out.u32(self.received);
        out.u32(self.discarded);
        out.u8(byte(self.last_attacked));
        out.u8(byte(self.target));
        out.u64(self.aim.word_pos());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn badges_add_a_quarter_at_2_6_14_and_30_points() {
        let mut s = Standing::new(0, 0, Seat::First);
        let mut scaled = Vec::new();
        for points in [0, 1, 2, 5, 6, 13, 14, 29, 30, 200] {
            s.badges = points;
            scaled.push(s.badge_scale().apply(100));
        }
        assert_eq!(scaled, [100, 100, 125, 125, 150, 150, 175, 175, 200, 200]);
    }
}
