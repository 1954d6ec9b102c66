//! The room a connection is in, as the server's lobby messages describe it: one tracker for the
//! headless client and the game's online controller, so both read `Joined`, `RoomState`,
//! `SeatStatus` and a refused resume the same way.

use sevenbag_core::Seat;
use sevenbag_protocol::{
    ErrorCode, MAX_REDIRECTS, RoomOptions, SeatInfo, SeatStatus, ServerMessage, valid_redirect_url,
};

/// Follows a cluster's `Redirect`s (shared by the headless client and the game): checks each
/// URL and counts them, so a forged or circular directory entry ends in a clear error instead
/// of a client bouncing between instances for ever.
#[derive(Clone, Debug, Default)]
pub struct Redirects {
    followed: u32,
}

impl Redirects {
    /// The URL to connect to next, or why not.
    pub fn follow(&mut self, url: &str) -> Result<String, String> {
        if !valid_redirect_url(url) {
            return Err(format!(
                "the server sent us to {:?}, which is not a ws:// or wss:// address",
                url.chars().take(64).collect::<String>()
            ));
        }
        self.followed += 1;
        if self.followed > MAX_REDIRECTS {
            return Err(format!(
                "the servers sent us on more than {MAX_REDIRECTS} times in a row; giving up"
            ));
        }
        Ok(url.to_owned())
    }

    /// The request was served: the next one may be redirected again.
    pub fn reset(&mut self) {
        self.followed = 0;
    }
}

/// The room we are in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomInfo {
    /// Room code.
    pub code: String,
    /// Our seat, or `None` as a spectator.
    pub seat: Option<Seat>,
    /// Token to reconnect to our seat.
    pub resume: u64,
    /// The room's options.
    pub options: RoomOptions,
}

/// A seat whose status changed, with the name in it (for "Bob left", "Bob is back").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatChange {
    /// The seat.
    pub seat: Seat,
    /// Who sits there.
    pub name: String,
    /// Its status before.
    pub before: SeatStatus,
    /// Its status now.
    pub after: SeatStatus,
}

/// What a lobby message changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoomUpdate {
    /// We are in a room (`Joined`, also after a resume).
    Joined,
    /// Our seat is gone (a refused resume token): connected, in no room.
    Left,
    /// The seats as the server sees them now (`RoomState`, or one seat's `SeatStatus`), and the
    /// seats whose status changed.
    Seats {
        /// Whether the message described every seat (`RoomState`) or only one.
        all: bool,
        /// Status changes of seats that were already taken.
        changes: Vec<SeatChange>,
    },
}

/// The room, its seats and its spectators.
#[derive(Clone, Debug, Default)]
pub struct RoomTracker {
    room: Option<RoomInfo>,
    seats: [Option<SeatInfo>; 2],
    spectators: u16,
}

impl RoomTracker {
    /// Applies a server message; `None` when it is not about the room.
    pub fn apply(&mut self, message: &ServerMessage) -> Option<RoomUpdate> {
        match message {
            ServerMessage::Joined {
                code,
                seat,
                resume,
                options,
            } => {
                self.room = Some(RoomInfo {
                    code: code.clone(),
                    seat: *seat,
                    resume: *resume,
                    options: *options,
                });
                Some(RoomUpdate::Joined)
            }
            ServerMessage::Error {
                code: ErrorCode::BadResume,
                ..
            } => {
                self.room = None;
                Some(RoomUpdate::Left)
            }
            ServerMessage::RoomState { seats, spectators } => {
                let changes = Seat::BOTH
                    .into_iter()
                    .filter_map(|s| {
                        let (old, new) =
                            (self.seats[s.index()].as_ref()?, seats[s.index()].as_ref()?);
                        change(s, &new.name, old.status, new.status)
                    })
                    .collect();
                self.seats = seats.clone();
                self.spectators = *spectators;
                Some(RoomUpdate::Seats { all: true, changes })
            }
            ServerMessage::SeatStatus { seat, status } => {
                let info = self.seats[seat.index()].as_mut();
                let changes = info
                    .and_then(|info| {
                        let before = std::mem::replace(&mut info.status, *status);
                        change(*seat, &info.name, before, *status)
                    })
                    .into_iter()
                    .collect();
                Some(RoomUpdate::Seats {
                    all: false,
                    changes,
                })
            }
            _ => None,
        }
    }

    /// Forgets the room (we asked for another one, or left).
    pub fn leave(&mut self) {
        *self = RoomTracker::default();
    }

    /// The room we are in.
    pub fn room(&self) -> Option<&RoomInfo> {
        self.room.as_ref()
    }

    /// The room we are in, to change (a test forging a resume token).
    pub fn room_mut(&mut self) -> Option<&mut RoomInfo> {
        self.room.as_mut()
    }

    /// Both seats as last described.
    pub fn seats(&self) -> &[Option<SeatInfo>; 2] {
        &self.seats
    }

    /// How many watch.
    pub fn spectators(&self) -> u16 {
        self.spectators
    }
}

fn change(seat: Seat, name: &str, before: SeatStatus, after: SeatStatus) -> Option<SeatChange> {
    (before != after).then(|| SeatChange {
        seat,
        name: name.to_owned(),
        before,
        after,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redirects_accept_only_websocket_urls_and_stop_after_a_few() {
        let mut r = Redirects::default();
        assert!(r.follow("http://a.example/").is_err());
        assert!(r.follow("ws://").is_err());
        assert!(r.follow("ws://a b/").is_err());
        assert!(r.follow(&format!("ws://{}/", "a".repeat(300))).is_err());
        for _ in 0..MAX_REDIRECTS {
            assert_eq!(
                r.follow("wss://b.example/").as_deref(),
                Ok("wss://b.example/")
            );
        }
        assert!(r.follow("ws://127.0.0.1:7878/").is_err(), "a loop ends");
        r.reset();
        assert!(r.follow("ws://127.0.0.1:7878/").is_ok());
    }

    fn info(name: &str, status: SeatStatus) -> Option<SeatInfo> {
        Some(SeatInfo {
            name: name.into(),
            ready: false,
            status,
        })
    }

    fn joined() -> ServerMessage {
        ServerMessage::Joined {
            code: "ABCDE".into(),
            seat: Some(Seat::First),
            resume: 7,
            options: RoomOptions::default(),
        }
    }

    #[test]
    fn joined_records_the_room_and_a_refused_resume_leaves_it() {
        let mut t = RoomTracker::default();
        assert_eq!(t.apply(&joined()), Some(RoomUpdate::Joined));
        assert_eq!(
            t.room().map(|r| (r.code.as_str(), r.resume)),
            Some(("ABCDE", 7))
        );
        let refused = ServerMessage::Error {
            code: ErrorCode::BadResume,
            message: "gone".into(),
            fatal: false,
        };
        assert_eq!(t.apply(&refused), Some(RoomUpdate::Left));
        assert_eq!(t.room(), None);
    }

    #[test]
    fn seat_changes_name_who_and_from_what() {
        let mut t = RoomTracker::default();
        let state = |s| ServerMessage::RoomState {
            seats: [info("ann", SeatStatus::Connected), info("bo", s)],
            spectators: 2,
        };
        t.apply(&state(SeatStatus::Connected));
        assert_eq!(t.spectators(), 2);
        let update = t.apply(&ServerMessage::SeatStatus {
            seat: Seat::Second,
            status: SeatStatus::Forfeited,
        });
        let gone = SeatChange {
            seat: Seat::Second,
            name: "bo".into(),
            before: SeatStatus::Connected,
            after: SeatStatus::Forfeited,
        };
        assert_eq!(
            update,
            Some(RoomUpdate::Seats {
                all: false,
                changes: vec![gone]
            })
        );
        let back = t.apply(&state(SeatStatus::Connected));
        let Some(RoomUpdate::Seats { all: true, changes }) = back else {
            panic!("{back:?}")
        };
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].after, SeatStatus::Connected);
    }

    #[test]
    fn other_messages_are_not_the_rooms() {
        let mut t = RoomTracker::default();
        assert_eq!(t.apply(&ServerMessage::Ping { nonce: 1 }), None);
    }
}
