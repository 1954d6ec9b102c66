//! The connection behind the Sprint and Blitz leaderboards: identifies with the player key when
//! there is one (so the server adds your own row; viewing never creates an identity), asks for
//! both boards (top [`MAX_SOLO_ROWS`]), and fetches any record's replay on demand.

use sevenbag_core::SoloMode;
use sevenbag_protocol::{ClientMessage, ErrorCode, MAX_SOLO_ROWS, ServerMessage, SoloRow};

use crate::net::online::error_text;
use crate::net::request::{Arrival, Exchange, Standing};

/// The modes with a board, in the order the screen switches between them.
pub const BOARDS: [SoloMode; 2] = [SoloMode::Sprint, SoloMode::Blitz];

/// Where the boards stand.
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

/// One board as the server sent it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Board {
    /// Best first.
    pub rows: Vec<SoloRow>,
    /// Your own row, wherever it is (`None`: a guest, or no record there).
    pub you: Option<SoloRow>,
}

/// The boards connection.
pub struct SoloBoards {
    exchange: Exchange<Status>,
    key: Option<[u8; 32]>,
    boards: [Option<Board>; 2],
    replay: Option<(SoloMode, String, Vec<u8>)>,
    notices: Vec<String>,
}

fn slot(mode: SoloMode) -> Option<usize> {
    BOARDS.iter().position(|m| *m == mode)
}

impl SoloBoards {
    /// Connects to `address` as `name`; `key` identifies the player (their own place).
    pub fn connect(address: &str, name: &str, key: Option<[u8; 32]>) -> SoloBoards {
        SoloBoards {
            exchange: Exchange::connect(address, name, Status::Connecting),
            key,
            boards: [None, None],
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
                    // The server answers in order: identified first, the boards carry your row.
                    if let Some(key) = self.key {
                        self.exchange.send(ClientMessage::Identify { key });
                    }
                    for mode in BOARDS {
                        self.exchange.send(ClientMessage::GetSoloLeaderboard {
                            mode,
                            limit: MAX_SOLO_ROWS,
                        });
                    }
                }
                Arrival::Message(m) => self.on_message(m),
                Arrival::Gone(_) => {}
            }
        }
    }

    fn on_message(&mut self, m: ServerMessage) {
        match m {
            ServerMessage::SoloLeaderboard { mode, rows, you } => {
                if let Some(i) = slot(mode) {
                    self.boards[i] = Some(Board { rows, you });
                }
            }
            ServerMessage::SoloRecordReplay { mode, name, bytes } => {
                self.replay = Some((mode, name, bytes));
            }
            ServerMessage::Error { code, message, .. } => match code {
                // A key this server does not know: the boards still show, without your row.
                ErrorCode::UnknownKey => {}
                ErrorCode::Unavailable => self.exchange.set(Status::Failed(
                    "This server keeps no database, so it has no solo leaderboards.".to_owned(),
                )),
                _ => self.notices.push(error_text(code, &message)),
            },
            _ => {}
        }
    }

    /// Asks for `name`'s record on `mode`'s board; it arrives through
    /// [`SoloBoards::take_replay`].
    pub fn fetch_replay(&mut self, mode: SoloMode, name: &str) {
        self.exchange.send(ClientMessage::GetSoloReplay {
            mode,
            name: name.to_owned(),
        });
    }

    /// A record's replay that arrived: its mode, player and file.
    pub fn take_replay(&mut self) -> Option<(SoloMode, String, Vec<u8>)> {
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

    /// `mode`'s board, once it arrived.
    pub fn board(&self, mode: SoloMode) -> Option<&Board> {
        slot(mode).and_then(|i| self.boards[i].as_ref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::request::test_server;
    use sevenbag_netplay::time::Instant;
    use std::time::Duration;

    fn poll_until(s: &mut SoloBoards, done: impl Fn(&SoloBoards) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while !done(s) {
            assert!(Instant::now() < deadline, "timed out: {:?}", s.status());
            s.poll();
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn both_boards_arrive_and_a_missing_record_is_said() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let server = test_server(tmp.path(), true);
        let mut s = SoloBoards::connect(&server.addr().to_string(), "ann", Some([5; 32]));
        poll_until(&mut s, |s| BOARDS.iter().all(|m| s.board(*m).is_some()));
        assert_eq!(s.board(SoloMode::Sprint), Some(&Board::default()));
        assert_eq!(s.status(), &Status::Connected);
        s.fetch_replay(SoloMode::Blitz, "nobody");
        let mut notices = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(10);
        while notices.is_empty() && Instant::now() < deadline {
            s.poll();
            notices.extend(s.take_notices());
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert!(s.take_replay().is_none());
        drop(server);
    }

    #[test]
    fn a_server_without_a_database_says_it_has_no_boards() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let server = test_server(tmp.path(), false);
        let mut s = SoloBoards::connect(&server.addr().to_string(), "ann", None);
        poll_until(&mut s, |s| matches!(s.status(), Status::Failed(_)));
        drop(server);
    }
}
