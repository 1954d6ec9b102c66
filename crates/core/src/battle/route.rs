//! Targeting: where one seat's attack goes, by the room's rule (SPEC §10).
//!
//! Every rule chooses among the sender's *opponents*: the seats of other teams that were alive
//! at the start of the frame. Lists of seats are walked in seat order after the sender,
//! cyclically, so no seat is favoured by its number.

use std::cmp::Reverse;

use super::Battle;
use super::header::Targeting;
use crate::rng::{ChaChaStream, below};
use crate::seat::{MAX_SEATS, Seat, SeatSet};

/// Where one attack goes: the lines each seat receives, and the sender's targeting state after
/// choosing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Route {
    /// Lines for each receiving seat.
    pub(crate) lines: [u16; MAX_SEATS],
    /// The sender's `even` cursor afterwards.
    pub(crate) last_attacked: Option<Seat>,
    /// The sender's `random` stream afterwards.
    pub(crate) aim: ChaChaStream,
}

impl Route {
    fn whole(&mut self, to: Option<Seat>, lines: u16) {
        if let Some(to) = to {
            self.lines[to.index()] = lines;
        }
    }

    /// The next opponent after the one last attacked (after the sender the first time).
    fn even(&mut self, from: Seat, lines: u16, opponents: SeatSet) {
        let to = opponents.after(self.last_attacked.unwrap_or(from)).next();
        self.whole(to, lines);
        if to.is_some() {
            self.last_attacked = to;
        }
    }

    /// `lines` split evenly over `among`, the remainder one line each in seat order after the
    /// sender.
    fn split(&mut self, from: Seat, lines: u16, among: SeatSet) {
        let k = among.len() as u16;
        if k == 0 {
            return;
        }
        let (each, extra) = (lines / k, lines % k);
        for (i, to) in among.after(from).enumerate() {
            self.lines[to.index()] = each + u16::from((i as u16) < extra);
        }
    }
}

impl<const CAP: usize> Battle<CAP> {
    /// Where `lines` of attack from `from` go among `opponents`, by the room's rule;
    /// `attackers` are the seats whose garbage waited on the sender when it locked. Reads the
    /// match and changes nothing: the caller commits the returned cursor and stream.
    pub(crate) fn route(
        &self,
        from: Seat,
        lines: u16,
        opponents: SeatSet,
        attackers: SeatSet,
    ) -> Route {
        let me = &self.standings[from.index()];
        let mut route = Route {
            lines: [0; MAX_SEATS],
            last_attacked: me.last_attacked,
            aim: me.aim,
        };
        let received = |s: &Seat| self.standings[s.index()].received;
        match self.header.options.targeting {
            Targeting::Even => route.even(from, lines, opponents),
            Targeting::Least => {
                let to = opponents.after(from).min_by_key(received);
                route.whole(to, lines);
            }
            Targeting::Divide => route.split(from, lines, opponents),
            Targeting::Attackers => {
                let attackers = attackers.and(opponents);
                if attackers.is_empty() {
                    route.even(from, lines, opponents);
                } else {
                    route.split(from, lines, attackers);
                }
            }
            Targeting::Kos => {
                let to = opponents
                    .after(from)
                    .min_by_key(|s| (Reverse(self.standings[s.index()].kos), received(s)));
                route.whole(to, lines);
            }
            Targeting::Random => {
                let k = opponents.len() as u32;
                if k > 0 {
                    let pick = route.aim.with(|r| below(r, k)) as usize;
                    route.whole(opponents.after(from).nth(pick), lines);
                }
            }
            Targeting::Manual => match me.target {
                Some(t) if opponents.contains(t) => route.whole(Some(t), lines),
                _ => route.even(from, lines, opponents),
            },
        }
        route
    }
}
