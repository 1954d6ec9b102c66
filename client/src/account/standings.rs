//! The connection behind the Leaderboard and Profile screen: asks the server for the
//! leaderboard, identifies with the player key when there is one (to show your own profile and
//! place; viewing never creates an identity), and fetches profiles, matches seat by seat and
//! replays on demand.

use sevenbag_protocol::moderation::ReportCategory;
use sevenbag_protocol::{
    ClientMessage, MAX_LEADERBOARD_ROWS, MatchDetail, PlayerStats, Profile, RecentMatch,
    ServerMessage,
};

use crate::net::online::error_text;
use crate::net::request::{Arrival, Exchange, Standing};

/// Where the standings stand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Connecting and saying hello.
    Connecting,
    /// Connected: what arrived is shown, more may come.
    Connected,
    /// The connection failed or was refused, with a sentence for the screen.
    Failed(String),
}

impl Standing for Status {
    fn failed(why: String) -> Status {
        Status::Failed(why)
    }

    fn waiting(&self) -> bool {
        !matches!(self, Status::Failed(_))
    }
}

/// A player's profile and recent matches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Viewed {
    /// The player.
    pub profile: Profile,
    /// Their latest matches, newest first.
    pub recent: Vec<RecentMatch>,
    /// The player is a declared bot (the server's `ProfileMarks`).
    pub bot: bool,
    /// `opponent_bots[i]`: the opponent of `recent[i]` is a declared bot.
    pub opponent_bots: Vec<bool>,
    /// Their averages over the latest [`PROFILE_LAST`] matches and solo best progressions,
    /// once they arrived (asked for after each profile).
    pub stats: Option<PlayerStats>,
}

/// How many of a player's latest matches a profile averages over.
pub const PROFILE_LAST: u32 = 20;

/// The standings connection.
pub struct Standings {
    exchange: Exchange<Status>,
    key: Option<[u8; 32]>,
    board: Option<Vec<Profile>>,
    me: Option<Profile>,
    /// Your own recent matches (newest first): a report's evidence is the latest against them.
    my_recent: Vec<RecentMatch>,
    viewed: Option<Viewed>,
    /// The last match that arrived seat by seat (checked).
    detail: Option<MatchDetail>,
    replay: Option<(String, Vec<u8>)>,
    notices: Vec<String>,
}

impl Standings {
    /// Connects to `address` as `name`; `key` identifies the player (their own profile).
    pub fn connect(address: &str, name: &str, key: Option<[u8; 32]>) -> Standings {
        Standings {
            exchange: Exchange::connect(address, name, Status::Connecting),
            key,
            board: None,
            me: None,
            my_recent: Vec::new(),
            viewed: None,
            detail: None,
            replay: None,
            notices: Vec::new(),
        }
    }

    /// Handles what arrived.
    pub fn poll(&mut self) {
        while let Some(arrival) = self.exchange.next() {
            match arrival {
                Arrival::Welcome => {
                    self.exchange.set(Status::Connected);
                    self.exchange.send(ClientMessage::GetLeaderboard {
                        limit: MAX_LEADERBOARD_ROWS,
                    });
                    if let Some(key) = self.key {
                        self.exchange.send(ClientMessage::Identify { key });
                    }
                }
                Arrival::Message(m) => self.on_message(m),
                Arrival::Gone(_) => {}
            }
        }
    }

    fn on_message(&mut self, m: ServerMessage) {
        match m {
            ServerMessage::Leaderboard { players } => self.board = Some(players),
            ServerMessage::Identified { profile } => {
                // Your own profile and recent matches.
                self.exchange.send(ClientMessage::GetProfile {
                    name: profile.name.clone(),
                });
                self.me = Some(profile);
            }
            ServerMessage::PlayerProfile { profile, recent } => {
                if self.me.as_ref().is_some_and(|me| me.name == profile.name) {
                    self.my_recent = recent.clone();
                }
                self.exchange.send(ClientMessage::GetPlayerStats {
                    name: profile.name.clone(),
                    last: PROFILE_LAST,
                });
                self.viewed = Some(Viewed {
                    profile,
                    recent,
                    bot: false,
                    opponent_bots: Vec::new(),
                    stats: None,
                });
            }
            ServerMessage::PlayerStats { stats } => {
                if let Some(v) = self
                    .viewed
                    .as_mut()
                    .filter(|v| v.profile.name == stats.name)
                {
                    v.stats = Some(stats);
                }
            }
            // Sent right after its `PlayerProfile`.
            ServerMessage::ProfileMarks { bot, opponents } => {
                if let Some(v) = &mut self.viewed {
                    v.bot = bot;
                    v.opponent_bots = opponents;
                }
            }
            ServerMessage::Replay { id, bytes } => self.replay = Some((id, bytes)),
            ServerMessage::MatchDetail { detail } => match detail.validate() {
                Ok(()) => self.detail = Some(*detail),
                Err(e) => self.notices.push(format!(
                    "The server sent a match that cannot be shown: {e}."
                )),
            },
            ServerMessage::FriendRequestSent { name, result } => self
                .notices
                .push(crate::net::online::who::sent_text(&name, result).0),
            ServerMessage::Reported => self
                .notices
                .push(crate::net::online::who::REPORT_SENT.to_owned()),
            ServerMessage::Error { code, message, .. } => {
                // Without a key the server does not know (a new machine), the leaderboard still
                // shows; other refusals are said once.
                if code != sevenbag_protocol::ErrorCode::UnknownKey {
                    self.notices.push(error_text(code, &message));
                }
                if code == sevenbag_protocol::ErrorCode::Unavailable {
                    self.exchange.set(Status::Failed(
                        "This server keeps no ratings, so it has no leaderboard.".to_owned(),
                    ));
                }
            }
            _ => {}
        }
    }

    /// Asks for `name`'s profile (shown when it arrives).
    pub fn view(&mut self, name: &str) {
        self.exchange.send(ClientMessage::GetProfile {
            name: name.to_owned(),
        });
    }

    /// Reports `name` (the profile shown) with the replay of your latest match against them as
    /// the evidence, if the server kept one; the server answers `Reported` or an error (a
    /// notice either way). Without an identity the line says how to get one.
    pub fn report(&mut self, name: &str, category: ReportCategory, text: &str) {
        if self.me.is_none() {
            self.notices
                .push(crate::net::online::who::NEEDS_IDENTITY.to_owned());
            return;
        }
        let replay = latest_replay_against(&self.my_recent, name);
        self.exchange.send(ClientMessage::Report {
            name: name.to_owned(),
            replay,
            category,
            text: text.to_owned(),
        });
    }

    /// Asks `name` (the profile shown) to be friends; the answer comes back as a notice.
    pub fn befriend(&mut self, name: &str) {
        if self.me.is_none() {
            let why = crate::net::online::who::FRIENDS_NEED_IDENTITY;
            self.notices.push(why.to_owned());
            return;
        }
        let name = name.to_owned();
        self.exchange
            .send(ClientMessage::SendFriendRequest { name });
    }

    /// Asks for match `id` seat by seat; it shows through [`Standings::detail`].
    pub fn open_match(&mut self, id: u64) {
        self.exchange.send(ClientMessage::GetMatchDetail { id });
    }

    /// Match `id` seat by seat, once it arrived.
    pub fn detail(&self, id: u64) -> Option<&MatchDetail> {
        self.detail.as_ref().filter(|d| d.id == id)
    }

    /// Asks for replay `id`; it arrives through [`Standings::take_replay`].
    pub fn fetch_replay(&mut self, id: &str) {
        self.exchange
            .send(ClientMessage::GetReplay { id: id.to_owned() });
    }

    /// A replay that arrived.
    pub fn take_replay(&mut self) -> Option<(String, Vec<u8>)> {
        self.replay.take()
    }

    /// Messages for the player that arrived since the last call.
    pub fn take_notices(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notices)
    }

    /// Where the connection stands.
    pub fn status(&self) -> &Status {
        self.exchange.status()
    }

    /// The leaderboard, once it arrived.
    pub fn board(&self) -> Option<&[Profile]> {
        self.board.as_deref()
    }

    /// You, as the server knows you (with a player key the server knows).
    pub fn me(&self) -> Option<&Profile> {
        self.me.as_ref()
    }

    /// The profile on screen.
    pub fn viewed(&self) -> Option<&Viewed> {
        self.viewed.as_ref()
    }
}

/// The replay id of the newest of `recent` played against `name`, if the server kept one.
pub fn latest_replay_against(recent: &[RecentMatch], name: &str) -> Option<String> {
    recent
        .iter()
        .find(|m| m.opponent == name)
        .and_then(|m| m.replay.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::request::test_server;
    use sevenbag_netplay::time::Instant;
    use std::time::Duration;

    fn poll_until(s: &mut Standings, done: impl Fn(&Standings) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while !done(s) {
            assert!(Instant::now() < deadline, "timed out: {:?}", s.status());
            s.poll();
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn a_report_carries_the_newest_replay_against_that_player() {
        let m = |opponent: &str, replay: Option<&str>| RecentMatch {
            id: 1,
            opponent: opponent.into(),
            won: Some(true),
            score: [1, 0],
            ranked: false,
            rating_change: None,
            ended_unix: 0,
            replay: replay.map(str::to_owned),
        };
        let recent = [
            m("cat", Some("c1")),
            m("bob", Some("b2")),
            m("bob", Some("b1")),
        ];
        assert_eq!(latest_replay_against(&recent, "bob").as_deref(), Some("b2"));
        assert_eq!(latest_replay_against(&recent, "dan"), None);
    }

    fn detail(id: u64) -> MatchDetail {
        let seat = sevenbag_protocol::SeatDetail::new;
        MatchDetail {
            id,
            battle: true,
            ranked: false,
            targeting: "even".into(),
            reason: "top_out".into(),
            winner: Some(0),
            duration_frames: 60,
            ended_unix: 0,
            replay: None,
            seats: vec![seat("ann", 1), seat("bo", 2), seat("cy", 3)],
        }
    }

    #[test]
    fn a_match_that_arrives_shows_for_its_id_and_a_bad_one_is_refused() {
        let mut s = Standings::connect("127.0.0.1:1", "ann", None);
        s.on_message(ServerMessage::MatchDetail {
            detail: Box::new(detail(5)),
        });
        assert_eq!(s.detail(5).map(|d| d.seats.len()), Some(3));
        assert!(
            s.detail(6).is_none(),
            "another match is not shown as this one"
        );
        let mut bad = detail(6);
        bad.seats[1].placement = 9;
        s.on_message(ServerMessage::MatchDetail {
            detail: Box::new(bad),
        });
        assert!(s.detail(6).is_none());
        assert_eq!(
            s.detail(5).map(|d| d.id),
            Some(5),
            "the last good one stays"
        );
        let notices = s.take_notices();
        assert_eq!(notices.len(), 1);
        assert!(notices[0].contains("cannot be shown"), "{notices:?}");
    }

    #[test]
    fn stats_join_the_profile_they_name_and_no_other() {
        let mut s = Standings::connect("127.0.0.1:1", "ann", None);
        let profile = |name: &str| Profile {
            name: name.into(),
            rating: 1500,
            deviation: 350,
            games: 0,
            wins: 0,
            place: None,
        };
        let stats = |name: &str| PlayerStats {
            name: name.into(),
            last: PROFILE_LAST,
            averages: sevenbag_protocol::MatchAverages::default(),
            sprint: Vec::new(),
            blitz: Vec::new(),
        };
        s.on_message(ServerMessage::PlayerProfile {
            profile: profile("bo"),
            recent: Vec::new(),
        });
        s.on_message(ServerMessage::PlayerStats {
            stats: stats("ann"),
        });
        assert_eq!(s.viewed().and_then(|v| v.stats.as_ref()), None);
        s.on_message(ServerMessage::PlayerStats { stats: stats("bo") });
        assert_eq!(
            s.viewed()
                .and_then(|v| v.stats.as_ref())
                .map(|t| t.name.as_str()),
            Some("bo")
        );
    }

    #[test]
    fn an_unknown_match_is_said_in_a_sentence() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().to_path_buf();
        let server = test_server(&dir, true);
        let mut s = Standings::connect(&server.addr().to_string(), "ann", None);
        poll_until(&mut s, |s| s.board().is_some());
        s.open_match(404);
        let mut notices = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(10);
        while notices.is_empty() && Instant::now() < deadline {
            s.poll();
            notices.extend(s.take_notices());
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(notices, ["The server no longer has that match."]);
        assert!(s.detail(404).is_none());
        drop(server);
    }

    #[test]
    fn a_server_without_ratings_says_it_has_no_leaderboard() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().to_path_buf();
        let server = test_server(&dir, false);
        let mut s = Standings::connect(&server.addr().to_string(), "ann", None);
        poll_until(&mut s, |s| matches!(s.status(), Status::Failed(_)));
        assert_eq!(
            s.status(),
            &Status::Failed("This server keeps no ratings, so it has no leaderboard.".into())
        );
    }

    #[test]
    fn an_unknown_key_still_shows_the_leaderboard() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().to_path_buf();
        let server = test_server(&dir, true);
        let mut s = Standings::connect(&server.addr().to_string(), "ann", Some([3; 32]));
        poll_until(&mut s, |s| s.board().is_some());
        // The server answers in order: once the answer to a later request is here, the answer
        // to the key (sent before it) has been handled too.
        s.view("nobody");
        let mut notices = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(10);
        while !notices.iter().any(|n: &String| n.contains("nobody")) && Instant::now() < deadline {
            s.poll();
            notices.extend(s.take_notices());
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(
            notices.len(),
            1,
            "only the unknown name is an error: {notices:?}"
        );
        assert_eq!(s.board(), Some(&[][..]));
        assert_eq!(s.me(), None);
        assert_eq!(s.status(), &Status::Connected);
        drop(server);
    }
}
