//! The frontend end: runs a TBP bot as a child process and talks to it with time limits.
//!
//! A reader thread turns the bot's stdout into lines on a channel, so every wait has a
//! deadline; a bot that dies, goes silent, writes bad JSON or refuses the rules becomes a
//! [`TbpError`] naming what happened.

use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use crate::lines::{Line, read_line};
use crate::messages::{BotMessage, FrontendMessage, TbpMove, encode_line, parse_line};

/// What went wrong with a TBP bot.
#[derive(Debug, thiserror::Error)]
pub enum TbpError {
    /// The command could not be started.
    #[error("cannot start TBP bot `{command}`: {source}")]
    Spawn {
        /// The command line.
        command: String,
        /// Why.
        source: std::io::Error,
    },
    /// The bot closed its output or exited.
    #[error("TBP bot exited or closed its output while {0}")]
    Died(&'static str),
    /// No answer in time.
    #[error("TBP bot sent nothing within {limit:?} while {what}")]
    Timeout {
        /// What we waited for.
        what: &'static str,
        /// The limit.
        limit: Duration,
    },
    /// A line that is not a TBP message.
    #[error("TBP bot sent a bad message: {0}")]
    BadMessage(String),
    /// A message that makes no sense at this point.
    #[error("TBP bot sent {got} while {what}")]
    Unexpected {
        /// What we waited for.
        what: &'static str,
        /// What came instead.
        got: String,
    },
    /// The bot refused the rules.
    #[error("TBP bot refused the rules: {0}")]
    Refused(String),
    /// A suggested move is not a legal placement here.
    #[error("TBP bot suggested an illegal move: {0}")]
    IllegalMove(String),
    /// Writing to the bot failed.
    #[error("cannot write to TBP bot: {0}")]
    Write(std::io::Error),
}

/// A running TBP bot.
#[derive(Debug)]
pub struct TbpProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Line>,
    /// The bot's name and version from its `info`.
    pub name: String,
}

impl TbpProcess {
    /// Starts `command` (run by `sh -c`), reads its `info`, sends `rules` and waits for
    /// `ready`, each within `limit`.
    pub fn spawn(command: &str, limit: Duration) -> Result<TbpProcess, TbpError> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|source| TbpError::Spawn {
                command: command.into(),
                source,
            })?;
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => return Err(TbpError::Died("starting")),
        };
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let line = read_line(&mut reader).unwrap_or(Line::End);
                let end = line == Line::End;
                if tx.send(line).is_err() || end {
                    return;
                }
            }
        });
        let mut bot = TbpProcess {
            child,
            stdin,
            lines: rx,
            name: String::new(),
        };
        match bot.recv(limit, "waiting for info")? {
            BotMessage::Info { name, version, .. } => bot.name = format!("{name} {version}"),
            other => {
                return Err(TbpError::Unexpected {
                    what: "waiting for info",
                    got: format!("{other:?}"),
                });
            }
        }
        bot.send(&FrontendMessage::Rules { randomizer: None })?;
        match bot.recv(limit, "waiting for ready")? {
            BotMessage::Ready => Ok(bot),
            BotMessage::Error { reason } => Err(TbpError::Refused(reason)),
            other => Err(TbpError::Unexpected {
                what: "waiting for ready",
                got: format!("{other:?}"),
            }),
        }
    }

    /// The process id of the child (the `sh -c` that runs the command).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends one message.
    pub fn send(&mut self, msg: &FrontendMessage) -> Result<(), TbpError> {
        self.stdin
            .write_all(encode_line(msg).as_bytes())
            .and_then(|()| self.stdin.flush())
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::BrokenPipe => TbpError::Died("reading our messages"),
                _ => TbpError::Write(e),
            })
    }

    /// The next known message within `limit` (unknown messages and blank lines skipped).
    pub fn recv(&mut self, limit: Duration, what: &'static str) -> Result<BotMessage, TbpError> {
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(l) => l,
                Err(RecvTimeoutError::Timeout) => return Err(TbpError::Timeout { what, limit }),
                Err(RecvTimeoutError::Disconnected) => return Err(TbpError::Died(what)),
            };
            let text = match line {
                Line::End => return Err(TbpError::Died(what)),
                Line::TooLong(n) => {
                    return Err(TbpError::BadMessage(format!("a {n}-byte line")));
                }
                Line::Text(t) if t.trim().is_empty() => continue,
                Line::Text(t) => t,
            };
            match parse_line::<BotMessage>(&text) {
                Ok(BotMessage::Unknown) => continue,
                Ok(m) => return Ok(m),
                Err(e) => {
                    let shown: String = text.chars().take(120).collect();
                    return Err(TbpError::BadMessage(format!("{e} in {shown:?}")));
                }
            }
        }
    }

    /// Asks for moves until the bot offers some or `limit` has passed; an asynchronous bot may
    /// answer an early `suggest` with no moves, so it is asked again.
    pub fn suggest(&mut self, limit: Duration) -> Result<Vec<TbpMove>, TbpError> {
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(TbpError::Timeout {
                    what: "waiting for a non-empty suggestion",
                    limit,
                });
            }
            self.send(&FrontendMessage::Suggest)?;
            match self.recv(left, "waiting for a suggestion")? {
                BotMessage::Suggestion { moves, .. } if !moves.is_empty() => return Ok(moves),
                BotMessage::Suggestion { .. } => std::thread::sleep(Duration::from_millis(10)),
                other => {
                    return Err(TbpError::Unexpected {
                        what: "waiting for a suggestion",
                        got: format!("{other:?}"),
                    });
                }
            }
        }
    }
}

impl Drop for TbpProcess {
    /// Sends `quit`, gives the bot a moment to exit, then kills it.
    fn drop(&mut self) {
        let _ = self.send(&FrontendMessage::Quit);
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
