//! The Friends screen (menu › Leaderboard & friends, F): your friends with where each is now, the friend requests
//! both ways, the notifications that came while you were away, and a field to ask someone by
//! name. It holds one connection, identified with the player key, for as long as it is open,
//! so presence and notification pushes change it at once.
//!
//! - [`social`] — the connection and the lists it keeps.
//! - [`rows`] — the rows, their words and their actions, without a window.
//! - [`draft`] — a direct message being written.
//! - [`picker`] — the online friends a room's lobby offers to invite.
//! - [`news`] and [`toast`] — notifications said as toasts while this screen is closed;
//!   [`invite_toast`] — Join and Decline on an invite's toast.
//! - [`view`] — drawing.
//! - `capture` — `--screen friends`: an embedded server with friends in it.
//!
//! Watching a friend's match and joining an invite open the room screen of the lobby's
//! Spectate and Join forms, on the same kind of connection ([`player_connection`]).

#[cfg(not(target_arch = "wasm32"))]
pub mod capture;
pub mod draft;
#[cfg(test)]
mod invite_tests;
pub mod invite_toast;
pub mod news;
pub mod picker;
pub mod rows;
pub mod social;
#[cfg(test)]
mod social_tests;
pub mod toast;
mod view;

use std::any::Any;

use macroquad::input::KeyCode;
use sevenbag_protocol::social::RequestAnswer;

use crate::layout::list_layout;
use crate::list_nav::{ListEvent, ListNav};
use crate::name_field::NameField;
use crate::net::online::Request;
use crate::render::theme;
use crate::render::widgets::modal_layout;
use crate::screen::{Ctx, FrameIo, Screen, TextField, TextKind, Transition};
use crate::sound::sfx::Sfx;
use crate::versus::lobby::player_connection;
use crate::versus::online::OnlineScreen;
use draft::Draft;
use rows::{Action, Lists, Row};
use social::{Social, Status};

/// What a player without an identity reads.
pub const NO_IDENTITY: &str = crate::net::online::who::FRIENDS_NEED_IDENTITY;

/// What the screen says in words that depend on the input, for the touch wording test.
#[cfg(test)]
pub fn touch_texts() -> Vec<String> {
    vec![
        view::add_help(),
        view::policy_help(None),
        view::offline_help(),
    ]
}

/// The two choices of the removal box, the first selected.
const CONFIRM: [&str; 2] = ["Remove", "Keep"];

/// The screen.
pub struct FriendsScreen {
    address: String,
    social: Social,
    nav: ListNav,
    field: NameField,
    /// The direct message being written, if one is.
    draft: Option<Draft>,
    /// The friend whose removal is being asked about, and the choice under the cursor.
    confirm: Option<(String, usize)>,
    /// What must live as long as the screen (the capture's server and friends).
    _keep: Option<Box<dyn Any>>,
}

impl FriendsScreen {
    /// Connects to the server in Settings with the player key; without a key the screen says
    /// how to get one and connects nowhere.
    pub fn new(ctx: &Ctx) -> FriendsScreen {
        let address = ctx.config.server.clone();
        let key = crate::identity::default_key_path()
            .map(|p| crate::identity::load_existing(&p))
            .transpose();
        let social = match key {
            Ok(Some(Some(key))) => Social::connect(&address, &ctx.config.player_name, key),
            Ok(_) => Social::refused(NO_IDENTITY.to_owned()),
            Err(e) => Social::refused(e),
        };
        FriendsScreen::over(address, social)
    }

    /// [`FriendsScreen::new`] as a screen (the leaderboard's F opens it through this).
    pub fn boxed(ctx: &Ctx) -> Box<dyn Screen> {
        Box::new(FriendsScreen::new(ctx))
    }

    /// Connects to `address` as `name` with `key`, keeping `keep` alive with the screen.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    pub fn with_key(address: &str, name: &str, key: [u8; 32], keep: Box<dyn Any>) -> Self {
        let mut s = FriendsScreen::over(address.to_owned(), Social::connect(address, name, key));
        s._keep = Some(keep);
        s
    }

    fn over(address: String, social: Social) -> FriendsScreen {
        FriendsScreen {
            address,
            social,
            nav: ListNav::default(),
            field: NameField::default(),
            draft: None,
            confirm: None,
            _keep: None,
        }
    }

    fn lists(&self) -> Lists<'_> {
        Lists {
            notifications: self.social.notifications(),
            incoming: self.social.incoming(),
            outgoing: self.social.outgoing(),
            friends: self.social.friends(),
            you: self.social.you(),
            writing: self.draft.as_ref().map(|d| d.to.as_str()),
        }
    }

    /// The rows shown: only Back while the connection is not identified.
    fn rows(&self) -> Vec<Row> {
        match self.social.status() {
            Status::Ready => rows::build(self.lists()),
            _ => vec![Row::Back],
        }
    }

    /// The row under the cursor.
    fn selected(&self, rows: &[Row]) -> Row {
        rows.get(self.nav.selected).copied().unwrap_or(Row::Back)
    }

    /// Reads the removal box's keys and taps.
    fn confirming(&mut self, ctx: &mut Ctx, io: &FrameIo) {
        let Some((name, choice)) = self.confirm.clone() else {
            return;
        };
        let kb = &io.keyboard;
        let unit = list_layout(io.width, io.height, 1).unit;
        let (_, options) = modal_layout(io.width, io.height, unit, CONFIRM.len());
        let tapped = options
            .iter()
            .position(|r| io.mouse.clicked && io.mouse.over(*r));
        let remove = tapped == Some(0)
            || kb.pressed(KeyCode::Y)
            || (choice == 0 && kb.pressed_any(&[KeyCode::Enter, KeyCode::KpEnter]));
        let keep = tapped == Some(1)
            || kb.pressed_any(&[KeyCode::Escape, KeyCode::N])
            || (choice == 1 && kb.pressed_any(&[KeyCode::Enter, KeyCode::KpEnter]));
        if remove {
            ctx.play(Sfx::Select);
            self.social.remove(&name);
            self.confirm = None;
        } else if keep {
            self.confirm = None;
        } else if kb.pressed_any(&[KeyCode::Up, KeyCode::Down, KeyCode::Tab]) {
            self.confirm = Some((name, 1 - choice));
            ctx.play(Sfx::Move);
        }
    }

    /// Closes the message field; the cursor stays on the row it was on.
    fn drop_draft(&mut self) {
        let at = self.rows().iter().position(|r| *r == Row::Message);
        self.draft = None;
        if at.is_some_and(|at| self.nav.selected > at) {
            self.nav.selected -= 1;
        }
    }

    /// Does `action`; a room to join or watch opens its screen.
    fn act(&mut self, ctx: &mut Ctx, action: Action) -> Transition {
        ctx.play(Sfx::Select);
        let room = |request, title| {
            let online = player_connection(&ctx.config, &self.address, request);
            Transition::Push(Box::new(OnlineScreen::new(online, title, None)))
        };
        match action {
            Action::Send => {
                if let Some(name) = rows::request_name(&mut self.field, self.social.me()) {
                    self.social.send_request(&name);
                }
                Transition::None
            }
            Action::Join(code) => room(Request::Join(code), "Room"),
            Action::Watch(code) => room(Request::Spectate(code), "Spectating"),
            Action::Challenge(name) => Transition::Push(Box::new(
                crate::versus::lobby::LobbyScreen::challenge(&name),
            )),
            Action::DeclineInvite(id) => {
                self.social.dismiss(id);
                Transition::None
            }
            Action::Accept(name) => {
                self.social.answer(&name, RequestAnswer::Accept);
                Transition::None
            }
            Action::Decline(name) => {
                self.social.answer(&name, RequestAnswer::Decline);
                Transition::None
            }
            Action::Cancel(name) => {
                self.social.cancel(&name);
                Transition::None
            }
            Action::Remove(name) => {
                self.confirm = Some((name, 0));
                Transition::None
            }
            Action::ReportMessage(id) => {
                let message = self.social.notifications().iter().find(|n| n.id == id);
                if let Some(n) = message {
                    let text = rows::json_string(&n.content, "text").unwrap_or_default();
                    let name = n.subject.clone();
                    self.social.report_message(&name, &text);
                }
                Transition::None
            }
            Action::Reply(name) => {
                self.draft = Some(Draft::to(&name));
                if let Some(at) = self.rows().iter().position(|r| *r == Row::Message) {
                    self.nav.selected = at;
                }
                Transition::None
            }
            Action::SendMessage => {
                if let Some(d) = &mut self.draft {
                    match d.submit() {
                        Some(text) => self.social.send_message(&d.to, text),
                        None => {
                            let why = d.error.clone().unwrap_or_default();
                            ctx.notify(why, theme::BAD);
                        }
                    }
                }
                Transition::None
            }
            Action::Discard => {
                self.drop_draft();
                Transition::None
            }
            Action::Policy(policy) => {
                self.social.set_policy(policy);
                Transition::None
            }
            Action::AppearOffline(on) => {
                self.social.appear_offline(on);
                Transition::None
            }
            Action::Back => Transition::Pop,
        }
    }
}

/// Whether `row` is typed into (its keys are letters then).
fn is_field(row: Row) -> bool {
    matches!(row, Row::Add | Row::Message)
}

impl Screen for FriendsScreen {
    /// Handles the frame.
    fn update(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Transition {
        ctx.backdrop.advance(io.dt, io.width, io.height);
        // What was drawn last frame has been seen.
        self.social.mark_shown();
        self.social.poll();
        for (text, good) in self.social.take_notices() {
            ctx.notify(text, if good { theme::ACCENT2 } else { theme::BAD });
        }
        // A message the server took is done with.
        let delivered = self.social.take_delivered();
        if self
            .draft
            .as_ref()
            .is_some_and(|d| d.sending && delivered.contains(&d.to))
        {
            self.drop_draft();
        }
        if self.confirm.is_some() {
            self.confirming(ctx, io);
            return Transition::None;
        }
        let rows = self.rows();
        // The rows may have shrunk under the cursor (a friend removed, the connection lost).
        self.nav.selected = self.nav.selected.min(rows.len().saturating_sub(1));
        let layout = list_layout(io.width, io.height, rows.len());
        let typing = is_field(self.selected(&rows));
        let before = self.nav.selected;
        let event = self.nav.handle_with_fields(
            io,
            &layout,
            rows.len(),
            &|i| rows.get(i).is_some_and(|r| r.selectable()),
            typing,
            &|i| rows.get(i).is_some_and(|r| is_field(*r)),
        );
        if self.nav.selected != before {
            ctx.play(Sfx::Move);
        }
        let row = self.selected(&rows);
        if let Row::Friend(i) = row {
            self.social.scrolled_to(i);
        }
        let kb = &io.keyboard;
        let backspace = kb.pressed(KeyCode::Backspace);
        match (row, &mut self.draft) {
            (Row::Add, _) => self.field.edit(&kb.chars, backspace),
            (Row::Message, Some(d)) => d.edit(&kb.chars, backspace),
            _ => {}
        }
        match event {
            // Esc on the message drops it rather than leaving the screen.
            ListEvent::Back if row == Row::Message => return self.act(ctx, Action::Discard),
            ListEvent::Back => return Transition::Pop,
            ListEvent::Activate(i) => {
                return match rows::primary(rows[i], self.lists()) {
                    Some(action) => self.act(ctx, action),
                    None => Transition::None,
                };
            }
            _ => {}
        }
        // The row's own keys (not while typing: they are letters then).
        if !is_field(row) {
            let actions = rows::actions(row, self.lists());
            if let Some(action) = actions.into_iter().find(|a| kb.pressed(a.key())) {
                return self.act(ctx, action);
            }
        }
        Transition::None
    }

    /// Draws the screen.
    fn draw(&self, ctx: &Ctx, io: &FrameIo) {
        view::draw(self, ctx, io);
    }

    fn calm(&self) -> bool {
        true
    }

    fn text_fields(&self, _ctx: &Ctx, io: &FrameIo) -> Vec<TextField> {
        let rows = self.rows();
        let l = list_layout(io.width, io.height, rows.len());
        let selected = self.selected(&rows);
        self.nav
            .visible(&l, rows.len())
            .into_iter()
            .filter_map(|(i, rect)| {
                let text = match (rows[i], &self.draft) {
                    (Row::Add, _) => self.field.text.clone(),
                    (Row::Message, Some(d)) => d.text.clone(),
                    _ => return None,
                };
                Some(TextField {
                    kind: TextKind::Plain,
                    text,
                    rect,
                    active: selected == rows[i],
                })
            })
            .collect()
    }

    fn name(&self) -> &'static str {
        "friends"
    }
}
