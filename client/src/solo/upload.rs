//! Uploading a finished Sprint or Blitz to the server's solo leaderboards: connect, identify with
//! the player key (registering with the Settings name if the server does not know it, as a
//! ranked match does), send the run's replay file, and report the place or the refusal. The
//! server re-simulates the run and keeps only the result it computes.

use sevenbag_protocol::solo_replay::result_text;
use sevenbag_protocol::{ClientMessage, ErrorCode, ServerMessage};

use crate::net::online::error_text;
use crate::net::request::{Arrival, Exchange, Standing};

/// The largest replay file that fits the server's default message limit (64 KiB), with room for
/// the message's own bytes.
pub const MAX_UPLOAD_BYTES: usize = 64 * 1024 - 64;

/// Where an upload stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Connecting, identifying, or waiting for the server's verdict.
    Working(String),
    /// Accepted, with a sentence for the screen.
    Done(String),
    /// Refused or failed, with a sentence for the screen.
    Failed(String),
}

impl Standing for Status {
    fn failed(why: String) -> Status {
        Status::Failed(why)
    }

    fn waiting(&self) -> bool {
        matches!(self, Status::Working(_))
    }
}

/// One upload connection.
pub struct Upload {
    exchange: Exchange<Status>,
    key: [u8; 32],
    name: String,
    replay: Vec<u8>,
    registering: bool,
    sent: bool,
}

impl Upload {
    /// Starts uploading `replay` to `address` as the player of `key` (named `name` if the
    /// server has to register them).
    pub fn start(address: &str, name: &str, key: [u8; 32], replay: Vec<u8>) -> Upload {
        let name = if name.trim().is_empty() {
            "Player".to_owned()
        } else {
            name.trim().to_owned()
        };
        let exchange = if replay.len() > MAX_UPLOAD_BYTES {
            Exchange::settled(Status::Failed(format!(
                "This replay is {} KiB, over the server's {} KiB limit.",
                replay.len() / 1024,
                MAX_UPLOAD_BYTES / 1024 + 1
            )))
        } else {
            Exchange::connect(address, &name, Status::Working("Connecting…".to_owned()))
        };
        Upload {
            exchange,
            key,
            name,
            replay,
            registering: false,
            sent: false,
        }
    }

    /// Handles what arrived; true when the upload settled (accepted, refused or failed) in this
    /// call, so the screen can say so once in full.
    pub fn poll(&mut self) -> bool {
        let working = self.exchange.status().waiting();
        self.poll_events();
        working && !self.exchange.status().waiting()
    }

    fn poll_events(&mut self) {
        while let Some(arrival) = self.exchange.next() {
            match arrival {
                Arrival::Welcome => {
                    self.exchange
                        .set(Status::Working("Identifying…".to_owned()));
                    self.exchange
                        .send(ClientMessage::Identify { key: self.key });
                }
                Arrival::Message(m) => self.on_message(m),
                Arrival::Gone(_) => {}
            }
        }
    }

    fn on_message(&mut self, m: ServerMessage) {
        match m {
            ServerMessage::Error {
                code: ErrorCode::UnknownKey,
                ..
            } if !self.registering => {
                self.registering = true;
                self.exchange.send(ClientMessage::Register {
                    key: self.key,
                    name: self.name.clone(),
                });
            }
            ServerMessage::Identified { .. } | ServerMessage::Registered { .. } if !self.sent => {
                self.sent = true;
                self.exchange
                    .set(Status::Working("Verifying on the server…".to_owned()));
                let replay = std::mem::take(&mut self.replay);
                self.exchange.send(ClientMessage::SubmitSolo { replay });
            }
            ServerMessage::SoloRecorded {
                result,
                personal_best,
                place,
            } => {
                let text = if personal_best {
                    format!(
                        "Uploaded: {} is #{place} on the {} board.",
                        result_text(&result),
                        result.mode.name()
                    )
                } else {
                    format!(
                        "Verified, but your best on the server is better (#{place} on the {} \
                         board).",
                        result.mode.name()
                    )
                };
                self.exchange.finish(Status::Done(text));
            }
            ServerMessage::Error { code, message, .. } => {
                let text = match code {
                    ErrorCode::BadReplay => format!("The server refused the run: {message}."),
                    ErrorCode::Unavailable => "This server keeps no records.".to_owned(),
                    _ => error_text(code, &message),
                };
                self.exchange.finish(Status::Failed(text));
            }
            _ => {}
        }
    }

    /// Where the upload stands.
    pub fn status(&self) -> &Status {
        self.exchange.status()
    }

    /// The status as one line for the result card.
    pub fn text(&self) -> &str {
        match self.status() {
            Status::Working(t) | Status::Done(t) | Status::Failed(t) => t,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::request::test_server;
    use sevenbag_netplay::time::Instant;
    use std::time::Duration;

    fn poll_until_settled(u: &mut Upload) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while let Status::Working(_) = u.status() {
            assert!(Instant::now() < deadline, "timed out: {:?}", u.status());
            u.poll();
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    fn sample() -> Vec<u8> {
        std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../crates/protocol/tests/golden/solo_sprint_v1.sbso"
        ))
        .expect("the committed solo sample")
    }

    #[test]
    fn a_new_player_registers_and_uploads_and_a_forged_run_is_refused() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().to_path_buf();
        let server = test_server(&dir, true);
        let addr = server.addr().to_string();
        let mut u = Upload::start(&addr, "uploader", [5; 32], sample());
        poll_until_settled(&mut u);
        assert!(
            matches!(u.status(), Status::Done(t) if t.contains("#1 on the sprint board")),
            "{:?}",
            u.status()
        );
        let mut forged = sample();
        let mid = forged.len() / 2;
        forged[mid] ^= 1;
        let mut u = Upload::start(&addr, "uploader", [5; 32], forged);
        poll_until_settled(&mut u);
        assert!(
            matches!(u.status(), Status::Failed(t) if t.contains("refused")),
            "{:?}",
            u.status()
        );
        drop(server);
    }

    #[test]
    fn a_replay_over_the_limit_is_not_sent() {
        let u = Upload::start("127.0.0.1:9", "ann", [1; 32], vec![0; MAX_UPLOAD_BYTES + 1]);
        assert!(matches!(u.status(), Status::Failed(t) if t.contains("limit")));
    }
}
