//! The short connections behind Settings › Account: showing which identity this machine plays
//! as (with the recovery code it keeps), importing an identity with a recovery code, and
//! renaming the identity to the name in Settings.
//!
//! The server reveals a recovery code only when it makes one (`Registered`, after `Register` or
//! `Recover`), so "show" identifies with the player key and shows the code kept in
//! `player.recovery`. "Import" makes a new key, sends `Recover { code, key }`, and replaces the
//! key file only once the server answered `Registered`: a refused or broken import leaves the
//! old identity on this machine as it was.

use std::path::{Path, PathBuf};

use sevenbag_protocol::identity::{normalise_recovery_code, validate_name};
use sevenbag_protocol::{ClientMessage, ErrorCode, ServerMessage};

use crate::identity;
use crate::net::online::error_text;
use crate::net::request::{Arrival, Exchange, Standing};

/// Where an account request stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Connecting, or waiting for the answer.
    Working,
    /// Done, with a sentence for the player.
    Done(String),
    /// Refused or failed, with a sentence for the player.
    Failed(String),
}

impl Standing for Status {
    fn failed(why: String) -> Status {
        Status::Failed(why)
    }

    fn waiting(&self) -> bool {
        *self == Status::Working
    }
}

/// What was asked.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Task {
    /// Identify and show the identity and its kept recovery code.
    Show { key: [u8; 32] },
    /// Move the identity of `code` to the new key `key`.
    Import { code: String, key: [u8; 32] },
    /// Identify, then take `name` if the identity has another.
    Rename { key: [u8; 32], name: String },
}

/// One account request and its connection.
pub struct Account {
    address: String,
    key_path: PathBuf,
    exchange: Exchange<Status>,
    task: Option<Task>,
    /// The recovery code to show, once known.
    code: Option<String>,
    /// A `Rename` was sent (the next `Identified` is its answer).
    renamed: bool,
}

impl Account {
    fn start(address: &str, name: &str, key_path: &Path, task: Task) -> Account {
        let exchange = Exchange::connect(address, name, Status::Working);
        Account::with(address, key_path, exchange, Some(task))
    }

    fn failed(address: &str, key_path: &Path, text: String) -> Account {
        Account::with(
            address,
            key_path,
            Exchange::settled(Status::Failed(text)),
            None,
        )
    }

    fn with(
        address: &str,
        key_path: &Path,
        exchange: Exchange<Status>,
        task: Option<Task>,
    ) -> Account {
        Account {
            address: address.trim().to_owned(),
            key_path: key_path.to_owned(),
            exchange,
            task,
            code: None,
            renamed: false,
        }
    }

    /// Asks the server at `address` who the key at `key_path` is, to show it with the kept
    /// recovery code. Without a key there is nothing to ask: that is said at once.
    pub fn show(address: &str, name: &str, key_path: &Path) -> Account {
        match identity::load_existing(key_path) {
            Ok(Some(key)) => Account::start(address, name, key_path, Task::Show { key }),
            Ok(None) => Account::failed(
                address,
                key_path,
                "No identity yet: play a Ranked match first.".to_owned(),
            ),
            Err(e) => Account::failed(address, key_path, e),
        }
    }

    /// Moves the identity of recovery code `code` to this machine: a new key is made and sent
    /// with the code; the key file at `key_path` is replaced only when the server accepts.
    pub fn import(address: &str, name: &str, key_path: &Path, code: &str) -> Account {
        let code = normalise_recovery_code(code);
        if code.is_empty() {
            return Account::failed(
                address,
                key_path,
                "Type the recovery code first (like ABCDE-FGHJK-LMNPQ-RSTUV).".to_owned(),
            );
        }
        match identity::random_key() {
            Ok(key) => Account::start(address, name, key_path, Task::Import { code, key }),
            Err(e) => Account::failed(address, key_path, e),
        }
    }

    /// Renames the identity of the key at `key_path` to `name` (checked here first with the
    /// server's rules); an identity that already has the name is left as it is.
    pub fn rename(address: &str, name: &str, key_path: &Path) -> Account {
        let name = name.trim();
        if let Err(e) = validate_name(name) {
            return Account::failed(address, key_path, format!("Ranked names: {e}."));
        }
        match identity::load_existing(key_path) {
            Ok(Some(key)) => {
                let task = Task::Rename {
                    key,
                    name: name.to_owned(),
                };
                Account::start(address, name, key_path, task)
            }
            Ok(None) => Account::failed(
                address,
                key_path,
                "No identity yet: play a Ranked match first.".to_owned(),
            ),
            Err(e) => Account::failed(address, key_path, e),
        }
    }

    /// Handles what arrived.
    pub fn poll(&mut self) {
        while let Some(arrival) = self.exchange.next() {
            match arrival {
                Arrival::Welcome => match self.task.clone() {
                    Some(Task::Show { key } | Task::Rename { key, .. }) => {
                        self.exchange.send(ClientMessage::Identify { key });
                    }
                    Some(Task::Import { code, key }) => {
                        self.exchange.send(ClientMessage::Recover { code, key });
                    }
                    None => {}
                },
                Arrival::Message(m) => self.on_message(m),
                Arrival::Gone(_) => {}
            }
        }
    }

    fn on_message(&mut self, m: ServerMessage) {
        if !self.exchange.status().waiting() {
            return;
        }
        match (m, &self.task) {
            (ServerMessage::Identified { profile }, Some(Task::Rename { name, .. })) => {
                if profile.name == *name || self.renamed {
                    let text = format!("You play as {} on {}.", profile.name, self.address);
                    self.exchange.finish(Status::Done(text));
                } else {
                    self.renamed = true;
                    let name = name.clone();
                    self.exchange.send(ClientMessage::Rename { name });
                }
            }
            (ServerMessage::Identified { profile }, Some(Task::Show { .. })) => {
                let kept = identity::load_recovery_code(&self.key_path);
                let text = match kept {
                    Ok(Some(code)) => {
                        let text = format!(
                            "You play as {} on {}. Your recovery code: {code}. Write it down: it moves this identity to another machine.",
                            profile.name, self.address
                        );
                        self.code = Some(code);
                        text
                    }
                    Ok(None) => format!(
                        "You play as {} on {}. This machine kept no recovery code (it is shown only when made, on the machine that made it).",
                        profile.name, self.address
                    ),
                    Err(e) => format!("You play as {} on {}. {e}", profile.name, self.address),
                };
                self.exchange.finish(Status::Done(text));
            }
            (
                ServerMessage::Registered {
                    profile,
                    recovery_code,
                },
                Some(Task::Import { key, .. }),
            ) => {
                let key = *key;
                let status = match identity::write_key(&self.key_path, &key) {
                    Ok(()) => {
                        let mut text = format!(
                            "This machine now plays as {}. New recovery code: {recovery_code}. Write it down: the old one no longer works.",
                            profile.name
                        );
                        if let Err(e) = identity::save_recovery_code(&self.key_path, &recovery_code)
                        {
                            text.push_str(&format!(" (It was not kept: {e}.)"));
                        }
                        self.code = Some(recovery_code);
                        Status::Done(text)
                    }
                    // The server moved the identity but the key could not be kept: the code
                    // it just made is the only way back, so say it.
                    Err(e) => {
                        self.code = Some(recovery_code.clone());
                        Status::Failed(format!(
                            "{e}. Your identity moved anyway: import it again with the new code {recovery_code}."
                        ))
                    }
                };
                self.exchange.finish(status);
            }
            (ServerMessage::Error { code, message, .. }, task) => {
                let text = match (code, task) {
                    (ErrorCode::UnknownKey, Some(Task::Import { .. })) => {
                        format!("That recovery code is not known to {}.", self.address)
                    }
                    (ErrorCode::UnknownKey, _) => format!(
                        "{} does not know this machine's identity: play a Ranked match there, or import a recovery code.",
                        self.address
                    ),
                    (ErrorCode::Unavailable, _) => {
                        format!("{} keeps no identities (no ranked play).", self.address)
                    }
                    (code, _) => error_text(code, &message),
                };
                self.exchange.finish(Status::Failed(text));
            }
            _ => {}
        }
    }

    /// Where the request stands.
    pub fn status(&self) -> &Status {
        self.exchange.status()
    }

    /// The recovery code to show, once known.
    pub fn code(&self) -> Option<&str> {
        self.code.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::online::server_url;
    use crate::net::online::transport::runtime;
    use crate::net::request::test_server;
    use sevenbag_netplay::time::Instant;
    use sevenbag_netplay::{Hello, NetEvent};
    use std::time::Duration;

    fn poll_until_done(a: &mut Account) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while a.status() == &Status::Working {
            assert!(Instant::now() < deadline, "timed out");
            a.poll();
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Registers `key` as `name` with raw messages; returns the recovery code.
    fn register(address: &str, key: [u8; 32], name: &str) -> String {
        let rt = runtime().expect("runtime");
        let mut net =
            sevenbag_netplay::connect_on(rt.handle(), &server_url(address), Hello::new(name));
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            assert!(Instant::now() < deadline, "no Registered");
            match net.try_recv() {
                Some(NetEvent::Welcome { .. }) => net
                    .send(ClientMessage::Register {
                        key,
                        name: name.to_owned(),
                    })
                    .expect("send"),
                Some(NetEvent::Message(ServerMessage::Registered { recovery_code, .. })) => {
                    net.close();
                    return recovery_code;
                }
                Some(NetEvent::Disconnected(r)) => panic!("disconnected: {r}"),
                _ => std::thread::sleep(Duration::from_millis(5)),
            }
        }
    }

    #[test]
    fn importing_a_code_replaces_the_key_and_the_old_key_stops_working() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().to_path_buf();
        let server = test_server(&dir, true);
        let address = server.addr().to_string();
        let old_key = [7; 32];
        let code = register(&address, old_key, "alice");
        let key_path = dir.join("machine2").join("player.key");
        identity::write_key(&key_path, &[9; 32]).expect("a key of its own");

        let typed = code.to_lowercase().replace('-', " ");
        let mut a = Account::import(&address, "whoever", &key_path, &typed);
        poll_until_done(&mut a);
        let Status::Done(text) = a.status().clone() else {
            panic!("{:?}", a.status())
        };
        assert!(
            text.starts_with("This machine now plays as alice."),
            "{text}"
        );
        let new_key = identity::load_existing(&key_path)
            .expect("readable")
            .expect("a key");
        assert_ne!(new_key, [9; 32], "the key file was replaced");
        let new_code = identity::load_recovery_code(&key_path)
            .expect("readable")
            .expect("kept");
        assert_ne!(new_code, code, "a new code was issued and kept");
        assert_eq!(a.code(), Some(new_code.as_str()));

        // The new key identifies as alice and shows the kept code.
        let mut shown = Account::show(&address, "x", &key_path);
        poll_until_done(&mut shown);
        assert!(
            matches!(shown.status(), Status::Done(t) if t.contains("alice") && t.contains(&new_code)),
            "{:?}",
            shown.status()
        );
        // The old key no longer identifies.
        let old_path = dir.join("machine1").join("player.key");
        identity::write_key(&old_path, &old_key).expect("old key");
        let mut old = Account::show(&address, "x", &old_path);
        poll_until_done(&mut old);
        assert!(
            matches!(old.status(), Status::Failed(t) if t.contains("does not know")),
            "{:?}",
            old.status()
        );
        drop(server);
    }

    #[test]
    fn an_unknown_code_is_refused_and_the_key_file_is_untouched() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().to_path_buf();
        let server = test_server(&dir, true);
        let address = server.addr().to_string();
        let key_path = dir.join("player.key");
        identity::write_key(&key_path, &[5; 32]).expect("key");

        let mut a = Account::import(&address, "bob", &key_path, "AAAAA-BBBBB-CCCCC-DDDDD");
        poll_until_done(&mut a);
        assert_eq!(
            a.status(),
            &Status::Failed(format!("That recovery code is not known to {address}."))
        );
        assert_eq!(identity::load_existing(&key_path), Ok(Some([5; 32])));
        assert_eq!(identity::load_recovery_code(&key_path), Ok(None));
        drop(server);
    }

    #[test]
    fn without_a_key_there_is_no_identity_to_show() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().to_path_buf();
        let a = Account::show("127.0.0.1:1", "x", &dir.join("player.key"));
        assert_eq!(
            a.status(),
            &Status::Failed("No identity yet: play a Ranked match first.".to_owned())
        );
    }

    #[test]
    fn renaming_takes_the_settings_name_and_a_taken_name_is_refused() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().to_path_buf();
        let server = test_server(&dir, true);
        let address = server.addr().to_string();
        register(&address, [1; 32], "dora");
        register(&address, [2; 32], "erin");
        let key_path = dir.join("player.key");
        identity::write_key(&key_path, &[1; 32]).expect("key");

        let mut a = Account::rename(&address, "Dora_2", &key_path);
        poll_until_done(&mut a);
        assert_eq!(
            a.status(),
            &Status::Done(format!("You play as Dora_2 on {address}."))
        );
        let mut taken = Account::rename(&address, "ERIN", &key_path);
        poll_until_done(&mut taken);
        assert!(
            matches!(taken.status(), Status::Failed(t) if t.contains("taken")),
            "{:?}",
            taken.status()
        );
        let bad = Account::rename(&address, "a b", &key_path);
        assert!(matches!(bad.status(), Status::Failed(t) if t.starts_with("Ranked names:")));
        drop(server);
    }
}
