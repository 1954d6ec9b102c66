//! How a room treats its matches, as data: what a seat whose player leaves gets, and whether the
//! match is rated. One room of 2 to 8 seats differs from another by its policy and its seat
//! count, not by its code path; a two-seat versus room is [`RoomPolicy::VERSUS`] (a leaver
//! forfeits), a free-for-all room [`RoomPolicy::FREE_FOR_ALL`] (a leaver's seat is played out).

use serde::{Deserialize, Serialize};

/// What happens to a seat whose player leaves a running match (or whose reconnect window runs
/// out).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Leaver {
    /// The room plays the seat out: it tops out on its board and the others play on.
    #[default]
    PlayedOut,
    /// The seat forfeits: the match ends at once, won by the other side.
    Forfeits,
}

/// A room's rules for its matches beyond the game's rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RoomPolicy {
    /// What a leaver gets.
    pub leaver: Leaver,
    /// Whether finished matches change ratings.
    pub rated: bool,
}

impl RoomPolicy {
    /// A free-for-all or team room: a leaver's seat is played out, nothing is rated.
    pub const FREE_FOR_ALL: RoomPolicy = RoomPolicy {
        leaver: Leaver::PlayedOut,
        rated: false,
    };
    /// A two-seat versus room, unrated: a leaver forfeits.
    pub const VERSUS: RoomPolicy = RoomPolicy {
        leaver: Leaver::Forfeits,
        rated: false,
    };

    /// The policy of a room players create with `seats` seats: two seats play a versus match
    /// (a leaver forfeits), more play a free-for-all (a leaver's seat is played out). Neither
    /// is rated: only the ranked queue makes rated rooms.
    pub const fn for_room(seats: u8) -> RoomPolicy {
        if seats == 2 {
            RoomPolicy::VERSUS
        } else {
            RoomPolicy::FREE_FOR_ALL
        }
    }

    /// The versus policy, rated when `rated`.
    pub const fn versus(rated: bool) -> RoomPolicy {
        RoomPolicy {
            leaver: Leaver::Forfeits,
            rated,
        }
    }
}
