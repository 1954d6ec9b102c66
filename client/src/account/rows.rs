//! The ACCOUNT rows of the Settings screen: "Recovery code" (identify with the player key and
//! show the kept code), "Import recovery code" (move an identity to this machine) and "Rename on
//! server" (the identity takes the Name in Settings). The
//! connections are [`crate::account::requests::Account`]; this file keeps what the rows show.

use macroquad::input::KeyCode;

use crate::account::requests::{Account, Status};
use crate::input::Keyboard;
use crate::render::theme;
use crate::screen::Ctx;

/// Longest text the import field takes (a code is 20 characters and 3 dashes; room for spaces).
const MAX_CODE: usize = 40;

/// Which account row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccountRow {
    /// "Recovery code".
    Recovery,
    /// "Import recovery code".
    Import,
    /// "Rename on server".
    Rename,
}

/// What the account rows hold between frames.
#[derive(Default)]
pub struct AccountRows {
    /// The code typed into the import field.
    code: String,
    /// The request under way, and which row asked.
    job: Option<(AccountRow, Account)>,
    /// The last answer, for the side panel, and whether it was good news.
    said: Option<(AccountRow, String, bool)>,
    /// The recovery code to show on the row, once asked for.
    shown: Option<String>,
}

impl AccountRows {
    /// Follows the request under way; its answer becomes a notice and the side panel's text.
    pub fn poll(&mut self, ctx: &mut Ctx) {
        let Some((row, job)) = &mut self.job else {
            return;
        };
        job.poll();
        let (text, good) = match job.status() {
            Status::Working => return,
            Status::Done(t) => (t.clone(), true),
            Status::Failed(t) => (t.clone(), false),
        };
        if let Some(code) = job.code() {
            self.shown = Some(code.to_owned());
        }
        if good && *row == AccountRow::Import {
            self.code.clear();
        }
        ctx.notify(text.clone(), if good { theme::GOOD } else { theme::BAD });
        self.said = Some((*row, text, good));
        self.job = None;
    }

    /// True while an import waits for the server: leaving then could lose the new key.
    pub fn importing(&self) -> bool {
        matches!(self.job, Some((AccountRow::Import, _)))
    }

    /// Enter on a row: starts its request against `server`, saying hello as `name`.
    pub fn activate(&mut self, ctx: &mut Ctx, row: AccountRow, server: &str, name: &str) {
        if self.job.is_some() {
            ctx.notify("Waiting for the server's answer.", theme::GARBAGE_QUEUED);
            return;
        }
        let Some(key_path) = crate::identity::default_key_path() else {
            ctx.notify(
                "This system has no config directory for a player key.",
                theme::BAD,
            );
            return;
        };
        let job = match row {
            AccountRow::Recovery => Account::show(server, name, &key_path),
            AccountRow::Import => Account::import(server, name, &key_path, &self.code),
            AccountRow::Rename => Account::rename(server, name, &key_path),
        };
        self.said = None;
        self.job = Some((row, job));
        self.poll(ctx);
    }

    /// The code typed into the import field so far.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    pub fn typed_code(&self) -> &str {
        &self.code
    }

    /// Typing into the import field.
    pub fn type_code(&mut self, kb: &Keyboard) {
        for c in &kb.chars {
            if !c.is_control() && self.code.chars().count() < MAX_CODE {
                self.code.push(*c);
            }
        }
        if kb.pressed(KeyCode::Backspace) {
            self.code.pop();
        }
    }

    /// The value shown on `row`; `name` is the Name in Settings (what a rename would take).
    pub fn value(&self, row: AccountRow, name: &str) -> String {
        match (row, &self.job) {
            (r, Some((busy, _))) if r == *busy => "asking the server…".to_owned(),
            (AccountRow::Recovery, _) => self.shown.clone().unwrap_or_else(|| {
                crate::input::taps::hint("Enter to show", "tap to show").to_owned()
            }),
            (AccountRow::Import, _) => self.code.clone(),
            (AccountRow::Rename, _) => format!("to {}", name.trim()),
        }
    }

    /// The side panel for `row`: the last answer first, then what the row does.
    pub fn help(&self, row: AccountRow) -> (&'static str, String) {
        let (title, about) = match row {
            AccountRow::Recovery => (
                "Recovery code",
                crate::input::taps::hint(
                    "Enter asks the server in Settings who this machine plays as (with the player key in your config directory) and shows the recovery code this machine was given. The server shows a code only when it makes one, so write it down: it is the only way to move your rating and name to another machine.",
                    "A tap asks the server in Settings who this machine plays as (with the player key in your config directory) and shows the recovery code this machine was given. The server shows a code only when it makes one, so write it down: it is the only way to move your rating and name to another machine.",
                ),
            ),
            AccountRow::Import => (
                "Import recovery code",
                crate::input::taps::hint(
                    "Type the code from your other machine and press Enter. This machine gets a new key and plays as that identity; its old key file is replaced only when the server accepts, and the old code stops working (you get a new one). Stay here until the answer comes.",
                    "Type the code from your other machine and press Done on the keyboard. This machine gets a new key and plays as that identity; its old key file is replaced only when the server accepts, and the old code stops working (you get a new one). Stay here until the answer comes.",
                ),
            ),
            AccountRow::Rename => (
                "Rename on server",
                crate::input::taps::hint(
                    "Your ranked name is the one you registered with. Enter gives your identity the Name above on the server in Settings (3 to 16 of A–Z a–z 0–9 _ -, not taken by anyone, nor a look-alike).",
                    "Your ranked name is the one you registered with. A tap gives your identity the Name above on the server in Settings (3 to 16 of A–Z a–z 0–9 _ -, not taken by anyone, nor a look-alike).",
                ),
            ),
        };
        match &self.said {
            Some((r, text, _)) if *r == row => (title, format!("{text}\n\n{about}")),
            _ => (title, about.to_owned()),
        }
    }
}
