//! Invite a friend, from a room's lobby: a box listing the player's friends who are online now
//! (online, away, in a match or watching; not offline), read on a connection of its own
//! identified with the player key (the Friends screen's [`Social`]), closed with the box.
//! A friend already in the room (their presence names its code) is listed last, marked "in
//! this room", and cannot be chosen.
//!
//! The box only chooses. The room screen that opened it (through
//! [`crate::screen::Ctx::open_friend_picker`]) sends the invite on its room's connection,
//! because the server takes an invite only from a connection seated in the room it names.

use macroquad::input::KeyCode;
use sevenbag_protocol::social::{FriendEntry, PresenceState};

use super::NO_IDENTITY;
use super::rows::{presence_tag, room_of};
use super::social::{FriendList, Social, Status};
use crate::layout::list_layout;
use crate::render::theme;
use crate::render::widgets::{modal, modal_layout};
use crate::screen::{Ctx, FrameIo, FriendPicker, Picked};
use crate::sound::sfx::Sfx;

/// Most friends listed at once; the list scrolls past them.
pub const MOST_SHOWN: usize = 7;

/// The box's title.
const TITLE: &str = "Invite a friend";

/// The friends an invite may go to now: every loaded friend who is not offline, in the list's
/// (name) order.
pub fn reachable(list: &FriendList) -> Vec<&FriendEntry> {
    list.entries
        .iter()
        .filter(|f| f.presence != PresenceState::Offline)
        .collect()
}

/// What a key press does to a list of `n` choices and Close after them (index `n`), with
/// `selected` under the cursor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Nothing pressed.
    Stay,
    /// The cursor moved to this choice.
    Move(usize),
    /// This choice was taken.
    Take(usize),
    /// Closed.
    Close,
}

/// The step `io`'s keys make among `n` choices plus Close, the cursor on `selected`.
pub fn step(io: &FrameIo, n: usize, selected: usize) -> Step {
    let kb = &io.keyboard;
    let all = n + 1;
    if kb.pressed(KeyCode::Escape) {
        Step::Close
    } else if kb.pressed_any(&[KeyCode::Enter, KeyCode::KpEnter]) {
        Step::Take(selected.min(n))
    } else if kb.pressed(KeyCode::Up) {
        Step::Move((selected + all - 1) % all)
    } else if kb.pressed(KeyCode::Down) || kb.pressed(KeyCode::Tab) {
        Step::Move((selected + 1) % all)
    } else {
        Step::Stay
    }
}

/// The first choice shown when `selected` is under the cursor among `all` choices.
fn first_shown(selected: usize, all: usize) -> usize {
    let shown = MOST_SHOWN.min(all);
    selected.saturating_sub(shown - 1).min(all - shown)
}

/// What a friend's line says after their name when they are in the room already.
pub const IN_THIS_ROOM: &str = "in this room";

/// Whether friend `f` is in room `code` already (playing or watching in it).
pub fn in_room(f: &FriendEntry, code: Option<&str>) -> bool {
    let here = room_of(&f.presence);
    code.zip(here)
        .is_some_and(|(code, here)| here.eq_ignore_ascii_case(code))
}

/// One friend's line in the box: "ann · ONLINE", or "ann · in this room" for a friend in room
/// `code` already.
pub fn label(f: &FriendEntry, code: Option<&str>) -> String {
    if in_room(f, code) {
        format!("{}  ·  {IN_THIS_ROOM}", f.name)
    } else {
        format!("{}  ·  {}", f.name, presence_tag(&f.presence))
    }
}

/// The picker (see the module docs).
pub struct InvitePicker {
    social: Social,
    selected: usize,
    /// The code of the room invites go to, if the room screen knows it yet.
    room: Option<String>,
}

/// Opens the picker for room `room` on the server in Settings with the player key (the
/// opener the room screens are handed).
pub fn open(ctx: &Ctx, room: Option<&str>) -> Box<dyn FriendPicker> {
    let social = match crate::identity::existing_key() {
        Some(key) => Social::connect(&ctx.config.server, &ctx.config.player_name, key),
        None => Social::refused(NO_IDENTITY.to_owned()),
    };
    Box::new(InvitePicker::over(social).in_room(room))
}

impl InvitePicker {
    /// A picker over `social` (the tests hand in a connection of their own).
    pub fn over(social: Social) -> InvitePicker {
        InvitePicker {
            social,
            selected: 0,
            room: None,
        }
    }

    /// The picker for room `code`: its friends in it already are marked, not offered.
    pub fn in_room(mut self, code: Option<&str>) -> InvitePicker {
        self.room = code.map(str::to_owned);
        self
    }

    /// The friends listed, in order: those who may be invited, then those in the room already
    /// (so the cursor starts on one to invite).
    fn listed(&self) -> Vec<&FriendEntry> {
        let mut friends = reachable(self.social.friends());
        friends.sort_by_key(|f| in_room(f, self.room.as_deref()));
        friends
    }

    /// The choices' labels: each listed friend, then Close; or the one line that says why
    /// there are none, then Close.
    fn options(&self) -> Vec<String> {
        let friends = self.listed();
        let room = self.room.as_deref();
        let mut v: Vec<String> = friends.iter().map(|f| label(f, room)).collect();
        if v.is_empty() {
            v.push(match self.social.status() {
                Status::Connecting => "Reading your friends…".to_owned(),
                Status::Failed(why) => why.clone(),
                Status::Ready
                    if self.social.friends().entries.len() < self.social.friends().total =>
                {
                    "Reading your friends…".to_owned()
                }
                Status::Ready => "No friend is online now.".to_owned(),
            });
        }
        v.push("Close".to_owned());
        v
    }
}

impl FriendPicker for InvitePicker {
    fn update(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Picked {
        self.social.poll();
        // Every page, so an online friend far down a long list is offered too.
        let loaded = self.social.friends().entries.len();
        self.social.scrolled_to(loaded);
        // Only refusals: the list's own news is the Friends screen's.
        for (text, good) in self.social.take_notices() {
            if !good {
                ctx.notify(text, theme::BAD);
            }
        }
        let options = self.options();
        let all = options.len();
        // Clicks and taps on a shown choice.
        let unit = list_layout(io.width, io.height, 1).unit;
        let first = first_shown(self.selected.min(all - 1), all);
        let shown = MOST_SHOWN.min(all);
        let (_, rects) = modal_layout(io.width, io.height, unit, shown);
        let mut chosen = step(io, all - 1, self.selected.min(all - 1));
        for (i, r) in rects.iter().enumerate() {
            if io.mouse.over(*r) {
                if io.mouse.moved {
                    self.selected = first + i;
                }
                if io.mouse.clicked {
                    chosen = Step::Take(first + i);
                }
            }
        }
        match chosen {
            Step::Stay => Picked::Nothing,
            Step::Move(i) => {
                ctx.play(Sfx::Move);
                self.selected = i;
                Picked::Nothing
            }
            Step::Close => Picked::Closed,
            Step::Take(i) if i + 1 == all => Picked::Closed,
            Step::Take(i) => match self.listed().get(i) {
                Some(f) if in_room(f, self.room.as_deref()) => {
                    ctx.notify(
                        format!("{} is in this room already.", f.name),
                        theme::TEXT_DIM,
                    );
                    Picked::Nothing
                }
                Some(f) => {
                    ctx.play(Sfx::Select);
                    Picked::Friend(f.name.clone())
                }
                // The line saying why there is nobody.
                None => Picked::Nothing,
            },
        }
    }

    fn draw(&self, ctx: &Ctx, io: &FrameIo) {
        let options = self.options();
        let all = options.len();
        let selected = self.selected.min(all - 1);
        let first = first_shown(selected, all);
        let shown: Vec<&str> = options
            .iter()
            .skip(first)
            .take(MOST_SHOWN)
            .map(String::as_str)
            .collect();
        let unit = list_layout(io.width, io.height, 1).unit;
        modal(
            &ctx.gfx,
            io.width,
            io.height,
            unit,
            TITLE,
            &shown,
            selected - first,
            ctx.time,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn friend(name: &str, presence: PresenceState) -> FriendEntry {
        FriendEntry {
            name: name.into(),
            since_unix: 0,
            presence,
        }
    }

    fn pressing(key: KeyCode) -> FrameIo {
        let mut io = FrameIo::default();
        io.keyboard.pressed.insert(key);
        io
    }

    #[test]
    fn only_friends_who_are_not_offline_can_be_invited() {
        let list = FriendList {
            entries: vec![
                friend("ann", PresenceState::Online),
                friend("ben", PresenceState::Offline),
                friend("cyd", PresenceState::Away),
                friend(
                    "dan",
                    PresenceState::Spectating {
                        code: "ABCDE".into(),
                    },
                ),
            ],
            total: 4,
            asking: None,
        };
        let names: Vec<&str> = reachable(&list).iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["ann", "cyd", "dan"]);
    }

    #[test]
    fn enter_takes_the_friend_under_the_cursor_and_esc_closes() {
        assert_eq!(step(&pressing(KeyCode::Enter), 3, 1), Step::Take(1));
        assert_eq!(step(&pressing(KeyCode::Escape), 3, 1), Step::Close);
        assert_eq!(step(&FrameIo::default(), 3, 1), Step::Stay);
    }

    #[test]
    fn the_cursor_wraps_round_the_friends_and_close() {
        assert_eq!(step(&pressing(KeyCode::Up), 2, 0), Step::Move(2));
        assert_eq!(step(&pressing(KeyCode::Down), 2, 2), Step::Move(0));
    }

    #[test]
    fn a_long_list_scrolls_to_keep_the_cursor_shown() {
        assert_eq!(first_shown(0, 20), 0);
        assert_eq!(first_shown(MOST_SHOWN - 1, 20), 0);
        assert_eq!(first_shown(MOST_SHOWN, 20), 1);
        assert_eq!(first_shown(19, 20), 20 - MOST_SHOWN);
        assert_eq!(first_shown(1, 2), 0);
    }

    #[test]
    fn a_friend_reads_with_their_presence() {
        assert_eq!(
            label(&friend("ann", PresenceState::Online), Some("ABCDE")),
            "ann  ·  ONLINE"
        );
    }

    #[test]
    fn a_friend_in_the_room_already_is_marked_and_not_offered() {
        let here = PresenceState::InMatch {
            kind: sevenbag_protocol::social::MatchKind::FreeForAll,
            code: "ABCDE".into(),
        };
        let ann = friend("ann", here);
        assert!(in_room(&ann, Some("abcde")));
        assert_eq!(label(&ann, Some("ABCDE")), "ann  ·  in this room");
        // Elsewhere, or with no room known yet, the same friend is offered as usual.
        assert!(!in_room(&ann, Some("FGHJK")) && !in_room(&ann, None));
        assert_eq!(label(&ann, None), "ann  ·  FREE-FOR-ALL · ABCDE");
    }
}
