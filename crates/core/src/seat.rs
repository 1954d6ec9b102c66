//! Seats and teams: who plays a match (2 to 8 seats, numbered in join order) and who plays
//! together, plus [`SeatSet`], a set of seats as a bit mask.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer, de};

/// The most seats a match has (SPEC §10).
pub const MAX_SEATS: usize = 8;
/// The most teams a team match has.
pub const MAX_TEAMS: usize = 4;

/// One seat of a match, 0 to [`MAX_SEATS`] − 1.
///
/// Two-seat code keeps the names of the type's first form, an enum: [`Seat::First`],
/// [`Seat::Second`], [`Seat::BOTH`], [`Seat::other`]. On the wire a seat is one byte, the same
/// bytes bincode gave that enum (a varint variant index: 0 and 1 are one byte each).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Seat(u8);

#[allow(non_upper_case_globals)]
impl Seat {
    /// Seat 0.
    pub const First: Seat = Seat(0);
    /// Seat 1.
    pub const Second: Seat = Seat(1);
    /// The two seats of a two-seat match, in order.
    pub const BOTH: [Seat; 2] = [Seat::First, Seat::Second];

    /// Seats that deserialization accepts. Every format that carries a seat today is a
    /// two-seat format whose readers index two-seat arrays, so a third seat from a file or the
    /// network is refused here, as the enum refused it. A format carrying more seats raises
    /// this together with the checks of its readers.
    pub const WIRE_LIMIT: u8 = 2;

    /// Seat `i`, if `i` is below [`MAX_SEATS`].
    pub const fn new(i: usize) -> Option<Seat> {
        if i < MAX_SEATS {
            Some(Seat(i as u8))
        } else {
            None
        }
    }

    /// The seat's number, from 0.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Seat `i`, for callers that know `i` is below [`MAX_SEATS`].
    pub(crate) const fn raw(i: u8) -> Seat {
        debug_assert!((i as usize) < MAX_SEATS);
        Seat(i)
    }

    /// A seat of a two-seat match: `Some` for 0 and 1 only.
    pub const fn from_index(i: usize) -> Option<Seat> {
        match i {
            0 => Some(Seat::First),
            1 => Some(Seat::Second),
            _ => None,
        }
    }

    /// The opponent in a two-seat match (0 ↔ 1; any other seat gives seat 0).
    pub const fn other(self) -> Seat {
        match self.0 {
            0 => Seat::Second,
            _ => Seat::First,
        }
    }

    /// Seats `0..n` in order (at most [`MAX_SEATS`]).
    pub fn all(n: usize) -> impl Iterator<Item = Seat> + Clone {
        (0..n.min(MAX_SEATS) as u8).map(Seat)
    }
}

impl fmt::Debug for Seat {
    /// `First` and `Second` as the enum printed them; `Seat(k)` beyond.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            0 => f.write_str("First"),
            1 => f.write_str("Second"),
            k => write!(f, "Seat({k})"),
        }
    }
}

impl Serialize for Seat {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.0)
    }
}

impl<'de> Deserialize<'de> for Seat {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Seat, D::Error> {
        let i = u8::deserialize(d)?;
        if i < Seat::WIRE_LIMIT {
            Ok(Seat(i))
        } else {
            Err(de::Error::custom(format_args!(
                "seat {i} is out of range (0..{})",
                Seat::WIRE_LIMIT
            )))
        }
    }
}

/// A team: the seats that win or lose a round together. Without teams every seat is a team
/// of its own, numbered as the seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Team(u8);

impl Team {
    /// Team `i`, if `i` is below [`MAX_SEATS`] (a free-for-all has a team per seat).
    pub const fn new(i: usize) -> Option<Team> {
        if i < MAX_SEATS {
            Some(Team(i as u8))
        } else {
            None
        }
    }

    /// The team's number, from 0.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Team `i`, for callers that know `i` is below [`MAX_SEATS`].
    pub(crate) const fn raw(i: u8) -> Team {
        debug_assert!((i as usize) < MAX_SEATS);
        Team(i)
    }
}

impl<'de> Deserialize<'de> for Team {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Team, D::Error> {
        let i = u8::deserialize(d)?;
        Team::new(usize::from(i))
            .ok_or_else(|| de::Error::custom(format_args!("team {i} is out of range")))
    }
}

/// A set of seats, one bit per seat.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct SeatSet(u8);

impl SeatSet {
    /// No seat.
    pub const EMPTY: SeatSet = SeatSet(0);

    /// Seats `0..n`.
    pub const fn first(n: usize) -> SeatSet {
        if n >= MAX_SEATS {
            SeatSet(u8::MAX)
        } else {
            SeatSet((1u8 << n) - 1)
        }
    }

    /// Just `seat`.
    pub const fn only(seat: Seat) -> SeatSet {
        SeatSet(1 << seat.0)
    }

    /// The bit mask (bit k for seat k).
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// Whether `seat` is in the set.
    pub const fn contains(self, seat: Seat) -> bool {
        self.0 & (1 << seat.0) != 0
    }

    /// Adds `seat`.
    pub fn insert(&mut self, seat: Seat) {
        self.0 |= 1 << seat.0;
    }

    /// How many seats.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Seats in both sets.
    pub const fn and(self, other: SeatSet) -> SeatSet {
        SeatSet(self.0 & other.0)
    }

    /// Seats in this set but not in `other`.
    pub const fn without(self, other: SeatSet) -> SeatSet {
        SeatSet(self.0 & !other.0)
    }

    /// The lowest-numbered seat, if any.
    pub fn lowest(self) -> Option<Seat> {
        (self.0 != 0).then(|| Seat(self.0.trailing_zeros() as u8))
    }

    /// The seats in increasing order.
    pub fn iter(self) -> impl DoubleEndedIterator<Item = Seat> + Clone {
        (0..MAX_SEATS as u8)
            .filter(move |&i| self.0 & (1 << i) != 0)
            .map(Seat)
    }

    /// The seats in seat order after `from`, cyclically (`from` itself last, if present).
    pub fn after(self, from: Seat) -> impl Iterator<Item = Seat> + Clone {
        let start = from.0 as usize + 1;
        (0..MAX_SEATS)
            .map(move |k| Seat(((start + k) % MAX_SEATS) as u8))
            .filter(move |&s| self.contains(s))
    }
}

impl FromIterator<Seat> for SeatSet {
    fn from_iter<I: IntoIterator<Item = Seat>>(iter: I) -> SeatSet {
        let mut set = SeatSet::EMPTY;
        for seat in iter {
            set.insert(seat);
        }
        set
    }
}

impl fmt::Debug for SeatSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(|s| s.0)).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn after_walks_cyclically_from_the_seat_after() {
        let set: SeatSet = [0, 2, 5, 6].map(Seat).into_iter().collect();
        let order: Vec<usize> = set.after(Seat(5)).map(Seat::index).collect();
        assert_eq!(order, [6, 0, 2, 5]);
    }

    #[test]
    fn the_two_seat_names_are_seats_0_and_1() {
        assert_eq!(Seat::First.index(), 0);
        assert_eq!(Seat::Second.index(), 1);
        assert_eq!(Seat::First.other(), Seat::Second);
        assert_eq!(Seat::Second.other(), Seat::First);
        assert_eq!(format!("{:?}", Seat::BOTH), "[First, Second]");
        assert_eq!(Seat::new(8), None);
        assert_eq!(Seat::from_index(2), None);
    }
}
