//! The online screen: waiting, the room (code, seats, ready), then the match view, for quick
//! match, rooms, spectating and LAN. It owns the [`PlayScreen`] whose session is the
//! [`Online`] controller, so the lobby and the match share one connection.
//!
//! During a live match a player's Esc asks first ("Leave the match? You forfeit."; Enter or Y
//! leaves, Esc or N stays); spectators leave at once. While the controller reconnects after a
//! lost connection, a banner over the match says so with the seconds left.

pub(crate) mod room_chat;
pub(crate) mod view;

use room_chat::{chat_keys, t_plays};

use macroquad::input::KeyCode;
use sevenbag_core::Phase;

use crate::fetched_replay::{self, Wanted};
use crate::input::Keyboard;
use crate::layout::list_layout;
use crate::match_source::MatchSource;
use crate::net::lan::LanHosting;
use crate::net::links::Link;
use crate::net::online::{Online, Request, Stage};
use crate::render::theme::{self};
use crate::render::widgets::modal_layout;
use crate::screen::{BattleRoomOpener, Ctx, FrameIo, Picked, Screen, Transition};
use crate::sound::sfx::Sfx;
use crate::versus::play::{PlayMode, PlayScreen};

/// The free-for-all room's screen made by `open`, taking `online`'s connection over, once the
/// code it joined or watches turned out to be a room of several seats.
pub(crate) fn battle_room_screen(
    online: &mut Online,
    open: BattleRoomOpener,
) -> Option<Box<dyn Screen>> {
    let join = online.take_battle()?;
    Some(open(crate::net::battle::BattleOnline::joined(join)))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Row {
    Ready,
    /// Invite a friend into the room (an identified connection's).
    Invite,
    /// Copy the room's link (`/room/CODE`; `/watch/CODE` for a spectator).
    CopyLink,
    Leave,
}

/// The screen.
pub struct OnlineScreen {
    play: PlayScreen<Online>,
    title: String,
    lan: Option<LanHosting>,
    selected: usize,
    matches_seen: u32,
    /// The last match's replay was asked for, and what for (saved, or its statistics shown).
    fetching: Option<Wanted>,
    /// "Leave the match?" is open.
    confirm_leave: bool,
    /// The lobby's Invite a friend box, while it is open.
    picker: Option<Box<dyn crate::screen::FriendPicker>>,
}

/// The keys that pick the selected room row. Not Space: it is the hard drop, and a player
/// pressing it as the match begins (the screen still shows the queue's Leave row until the
/// server's start arrives) must not leave the queue.
const PICK_KEYS: [KeyCode; 2] = [KeyCode::Enter, KeyCode::KpEnter];

/// The title of the leave confirmation ("Leave the match? You forfeit.", split so the title
/// fits the dialog).
pub(crate) const CONFIRM_TITLE: &str = "Leave the match?";
/// Its rows: leave, then stay.
const CONFIRM_OPTIONS: [&str; 2] = ["You forfeit — leave  (Enter / Y)", "Stay  (Esc / N)"];
/// Its rows on a touch screen, tapped.
const CONFIRM_TOUCH: [&str; 2] = ["You forfeit — leave", "Stay"];

/// The leave confirmation's rows as shown.
pub(crate) fn confirm_options() -> [&'static str; 2] {
    if crate::input::taps::shown() {
        CONFIRM_TOUCH
    } else {
        CONFIRM_OPTIONS
    }
}

/// What the screen says in words (beyond the footers), for the touch wording test.
#[cfg(test)]
pub fn touch_texts() -> Vec<String> {
    confirm_options().map(str::to_owned).to_vec()
}

impl OnlineScreen {
    /// A screen over `online`, titled `title` ("Quick match", "Room", ...).
    pub fn new(online: Online, title: &str, lan: Option<LanHosting>) -> OnlineScreen {
        let requeue = requeue_of(online.request()).is_some();
        let mut play = PlayScreen::new(
            Box::new(online),
            PlayMode::Online,
            [String::new(), String::new()],
            format!("ONLINE  ·  {}", title.to_uppercase()),
        );
        if requeue {
            play.offer_requeue();
        }
        OnlineScreen {
            play,
            title: title.to_owned(),
            lan,
            selected: 0,
            matches_seen: 0,
            fetching: None,
            confirm_leave: false,
            picker: None,
        }
    }

    /// The connection this screen shows.
    pub fn online(&self) -> &Online {
        self.play.session()
    }

    fn online_mut(&mut self) -> &mut Online {
        self.play.session_mut()
    }

    /// Whether the match view is up (a match running, or just over and not readied again).
    fn in_match(&self) -> bool {
        let o = self.online();
        !matches!(o.stage(), Stage::Failed(_))
            && o.matches_started() > 0
            && (o.is_live() || !o.ready_sent())
    }

    fn rows(&self) -> Vec<Row> {
        let o = self.online();
        let mut rows = self.plain_rows();
        if self.lan.is_none() && o.may_invite() && *o.stage() == Stage::InRoom {
            rows.insert(rows.len() - 2, Row::Invite);
        }
        rows
    }

    /// The rows without Invite a friend.
    fn plain_rows(&self) -> Vec<Row> {
        let o = self.online();
        match o.stage() {
            // A LAN room's address is the host's own, with no page behind it.
            Stage::InRoom if self.lan.is_some() && o.seat().is_some() => {
                vec![Row::Ready, Row::Leave]
            }
            Stage::InRoom if o.seat().is_some() => vec![Row::Ready, Row::CopyLink, Row::Leave],
            Stage::InRoom if self.lan.is_none() && o.code().is_some() => {
                vec![Row::CopyLink, Row::Leave]
            }
            _ => vec![Row::Leave],
        }
    }

    /// The room's link: the seat's `/room/CODE`, or a spectator's `/watch/CODE`.
    fn room_link(&self) -> Option<Link> {
        let o = self.online();
        let code = o.code()?.to_owned();
        Some(if o.seat().is_some() {
            Link::Room(code)
        } else {
            Link::Watch(code)
        })
    }

    /// Leaves the room for a new connection that asks the same queue again (Requeue), on
    /// the same server, under the same title.
    fn requeue(&mut self, ctx: &Ctx) -> Transition {
        let Some(request) = requeue_of(self.online().request()) else {
            return Transition::None;
        };
        let url = self.online().url().to_owned();
        self.online_mut().leave();
        // As the lobby's `player_connection` makes it (that module opens this one).
        let c = &ctx.config;
        let online = Online::connect(&url, &c.player_name, c.handling, c.keys, request)
            .with_key(crate::identity::existing_key());
        Transition::Replace(Box::new(OnlineScreen::new(online, &self.title, None)))
    }

    fn leave(&mut self) -> Transition {
        self.confirm_leave = false;
        self.online_mut().leave();
        Transition::Pop
    }

    /// Whether leaving now forfeits a match we play (so Esc asks first). Once the server has
    /// said how the match ended (a forfeit included), or the boards show its end, leaving costs
    /// nothing and Esc leaves at once.
    fn leaving_forfeits(&self) -> bool {
        let o = self.online();
        o.is_live()
            && o.seat().is_some()
            && o.outcome().is_none()
            && !matches!(o.current().phase(), Phase::MatchOver { .. })
    }

    /// The leave confirmation's frame: Enter / Y (or a click on the first row) leaves, Esc / N
    /// (or the second row) stays. The match keeps running underneath with no keys held.
    fn update_confirm(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Transition {
        let kb = &io.keyboard;
        let unit = list_layout(io.width, io.height, 1).unit;
        let (_, rows) = modal_layout(io.width, io.height, unit, CONFIRM_OPTIONS.len());
        let clicked = |i: usize| io.mouse.clicked && rows.get(i).is_some_and(|r| io.mouse.over(*r));
        if kb.pressed_any(&[KeyCode::Enter, KeyCode::KpEnter, KeyCode::Y]) || clicked(0) {
            ctx.play(Sfx::Select);
            return self.leave();
        }
        if kb.pressed_any(&[KeyCode::Escape, KeyCode::N]) || clicked(1) {
            ctx.play(Sfx::Move);
            self.confirm_leave = false;
        }
        let mut quiet = io.clone();
        quiet.keyboard = Keyboard::default();
        quiet.mouse.clicked = false;
        match self.play.update(ctx, &quiet) {
            Transition::Pop => self.leave(),
            t => t,
        }
    }

    /// The chat field: T opens it in a room (during a live match only if T is none of your game
    /// keys), Enter sends, Esc closes. Returns whether it has the keyboard this frame.
    fn update_chat(&mut self, ctx: &mut Ctx, io: &FrameIo) -> bool {
        let o = self.online();
        let t_plays = self.in_match() && o.is_live() && o.seat().is_some() && t_plays(ctx);
        let may_open =
            o.code().is_some() && !self.confirm_leave && self.picker.is_none() && !t_plays;
        chat_keys(self.online_mut(), ctx, &io.keyboard, may_open)
    }
}

impl Screen for OnlineScreen {
    /// Handles the frame.
    fn update(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Transition {
        // A code that names a free-for-all room: its own screen takes the connection over.
        if let Some(screen) = battle_room_screen(self.online_mut(), ctx.open_battle_room) {
            return Transition::Replace(screen);
        }
        // The setting applies at once, also to a room joined before it changed.
        let filter = ctx.config.chat_filter;
        self.online_mut().chat_mut().set_filter(filter);
        for n in self.online_mut().take_notices() {
            ctx.notify(n, theme::BAD);
        }
        // While the chat field has the keyboard, the match and the lobby run without keys.
        let quiet;
        let io = if self.update_chat(ctx, io) {
            quiet = FrameIo {
                keyboard: Keyboard::default(),
                ..io.clone()
            };
            &quiet
        } else {
            io
        };
        if let Some((id, bytes)) = self.online_mut().take_replay()
            && let Some(wanted) = self.fetching.take()
            && let Some(stats) = fetched_replay::land(ctx, wanted, &id, &bytes)
        {
            return Transition::Push(stats);
        }
        let started = self.online().matches_started();
        if started != self.matches_seen {
            self.matches_seen = started;
            self.play.reset_fx();
        }
        if let Some(lan) = &mut self.lan {
            let o = self.play.session();
            if let (Some(code), Stage::InRoom) = (o.code(), o.stage())
                && !o.is_live()
            {
                lan.advertise(code, &o.plain_names()[0]);
            }
        }
        if self.in_match() {
            if self.confirm_leave && self.leaving_forfeits() {
                return self.update_confirm(ctx, io);
            }
            self.confirm_leave = false;
            let kb = &io.keyboard;
            if kb.pressed(KeyCode::Escape) && self.leaving_forfeits() {
                ctx.play(Sfx::Move);
                self.confirm_leave = true;
                let mut quiet = io.clone();
                quiet.keyboard = Keyboard::default();
                return match self.play.update(ctx, &quiet) {
                    Transition::Pop => self.leave(),
                    t => t,
                };
            }
            let o = self.online();
            let over = o.outcome().is_some();
            let replay = o.outcome().and_then(|r| r.replay.clone());
            let forfeit = over
                && !matches!(o.current().phase(), Phase::MatchOver { .. })
                && o.seat().is_some();
            let opponent = o.seat().map(|s| o.plain_names()[1 - s.index()].clone());
            // The result card's buttons do what S and L do (a touch screen has no keys).
            let tapped = result_buttons(io)
                .into_iter()
                .find(|(r, _, _)| over && io.mouse.clicked && io.mouse.over(*r))
                .map(|(_, key, _)| key);
            if over && (kb.pressed(KeyCode::L) || tapped == Some(KeyCode::L)) {
                match &replay {
                    Some(id) => ctx.copy_game_link(&Link::Replay(id.clone())),
                    None => ctx.notify("The server kept no replay of this match.", theme::BAD),
                }
            }
            let pressed = |key| kb.pressed(key) || tapped == Some(key);
            let wanted = if pressed(KeyCode::S) {
                Some(Wanted::Save)
            } else if pressed(KeyCode::G) {
                Some(Wanted::Stats)
            } else {
                None
            };
            if over && let Some(wanted) = wanted {
                if let Some(id) = replay {
                    self.fetching = Some(wanted);
                    self.online_mut().fetch_replay(&id);
                    ctx.notify(wanted.asking(), theme::ACCENT2);
                } else {
                    ctx.notify("The server kept no replay of this match.", theme::BAD);
                }
            }
            // Befriend, report or block the opponent from the result card: A sends a friend
            // request, R opens the chat field on `/report NAME ` for the player to say what
            // happened; B blocks at once.
            if over && let Some(name) = opponent {
                if kb.pressed(KeyCode::R) {
                    let command = format!("/report {name} ");
                    self.online_mut().chat_mut().open_with(&command);
                    ctx.notify(
                        "Say what happened (first word may be cheating, abuse, name or boosting); Enter sends",
                        theme::ACCENT2,
                    );
                } else if kb.pressed(KeyCode::B) {
                    self.online_mut().block(&name, true);
                } else if kb.pressed(KeyCode::A) {
                    self.online_mut().befriend(&name);
                }
            }
            if over && self.online().seat().is_some() && kb.pressed(KeyCode::Q) {
                ctx.play(Sfx::Select);
                return self.requeue(ctx);
            }
            if forfeit && kb.pressed_any(&[KeyCode::Enter, KeyCode::KpEnter]) {
                self.online_mut().ready();
            }
            return match self.play.update(ctx, io) {
                Transition::Pop => self.leave(),
                t => t,
            };
        }
        // Lobby: keep the connection going, then the rows (or the invite box over them).
        self.play.session_mut().pump(0);
        if let Some(picker) = &mut self.picker {
            match picker.update(ctx, io) {
                Picked::Nothing => {}
                Picked::Closed => self.picker = None,
                Picked::Friend(name) => {
                    self.picker = None;
                    self.online_mut().invite(&name);
                }
            }
            return Transition::None;
        }
        let rows = self.rows();
        self.selected = self.selected.min(rows.len() - 1);
        let kb = &io.keyboard;
        if kb.pressed(KeyCode::Escape) {
            return self.leave();
        }
        let n = rows.len();
        if kb.pressed(KeyCode::Up) {
            self.selected = (self.selected + n - 1) % n;
            ctx.play(Sfx::Move);
        }
        if kb.pressed(KeyCode::Down) || kb.pressed(KeyCode::Tab) {
            self.selected = (self.selected + 1) % n;
            ctx.play(Sfx::Move);
        }
        let l = list_layout(io.width, io.height, n);
        let mut chosen = None;
        for (i, _) in rows.iter().enumerate() {
            let r = l.row(i);
            if io.mouse.over(r) {
                if io.mouse.moved {
                    self.selected = i;
                }
                if io.mouse.clicked {
                    chosen = Some(i);
                }
            }
        }
        if kb.pressed_any(&PICK_KEYS) {
            chosen = Some(self.selected);
        }
        match chosen.map(|i| rows[i]) {
            Some(Row::Ready) => {
                ctx.play(Sfx::Select);
                self.online_mut().ready();
                Transition::None
            }
            Some(Row::Invite) => {
                ctx.play(Sfx::Select);
                self.picker = Some((ctx.open_friend_picker)(ctx, self.online().code()));
                Transition::None
            }
            Some(Row::CopyLink) => {
                ctx.play(Sfx::Select);
                if let Some(link) = self.room_link() {
                    ctx.copy_game_link(&link);
                }
                Transition::None
            }
            Some(Row::Leave) => self.leave(),
            None => Transition::None,
        }
    }

    fn draw(&self, ctx: &Ctx, io: &FrameIo) {
        self.draw_view(ctx, io);
    }

    fn plays_by_touch(&self) -> bool {
        self.in_match() && self.play.plays_by_touch()
    }

    fn text_fields(&self, _ctx: &Ctx, io: &FrameIo) -> Vec<crate::screen::TextField> {
        // The chat field, while it is open: in a match it is the title strip.
        let rows = self.rows().len();
        let l = list_layout(io.width, io.height, rows);
        let strip = self
            .in_match()
            .then(|| crate::layout::match_layout(io.width, io.height).title);
        room_chat::chat_field(
            self.online().chat(),
            strip,
            room_chat::lobby_chat_area(&l, rows),
            l.unit,
        )
        .into_iter()
        .collect()
    }

    fn field_keys(&self) -> &'static [KeyCode] {
        // Chat, and the result card's Report (it opens the field on `/report NAME `).
        &[KeyCode::T, KeyCode::R]
    }

    fn name(&self) -> &'static str {
        "online"
    }
}

/// The buttons under a finished online match's result card: save the replay (S) and copy its
/// link (L), for a touch screen.
pub(crate) fn result_buttons(io: &FrameIo) -> [(macroquad::math::Rect, KeyCode, &'static str); 3] {
    let [save, stats, link] =
        crate::layout::result_card(&crate::layout::match_layout(io.width, io.height)).buttons;
    [
        (save, KeyCode::S, "Save replay"),
        (stats, KeyCode::G, "Stats"),
        (link, KeyCode::L, "Copy link"),
    ]
}

/// What Requeue asks after a match on a connection that asked `request`: the same queue
/// (quick match, or ranked with the same key); `None` for a room or anything else.
pub(crate) fn requeue_of(request: &Request) -> Option<Request> {
    match request {
        Request::QuickMatch | Request::Ranked(_) => Some(request.clone()),
        _ => None,
    }
}

/// The Leave row's label at `stage`.
fn leave_label(stage: &Stage) -> &'static str {
    match stage {
        Stage::Failed(_) => "Back",
        Stage::InRoom => "Leave room",
        _ => "Cancel",
    }
}

/// The footer's key hints with the cursor on `row` (whose Leave row reads `leave`), with the
/// chat key when the room has one: they name what Enter does there.
fn footer_hint(row: Row, leave: &str, chat: bool) -> String {
    let enter = match row {
        Row::Ready => "ready".to_owned(),
        Row::Invite => "invite a friend".to_owned(),
        Row::CopyLink => "copy link".to_owned(),
        Row::Leave => leave.to_lowercase(),
    };
    let chat = if chat { "   T chat" } else { "" };
    format!("↑ ↓ choose   Enter {enter}{chat}   Esc leave")
}

/// Every footer the room screen shows, for the layout tests.
#[cfg(test)]
pub fn footers() -> Vec<String> {
    let mut v = Vec::new();
    for leave in ["Back", "Leave room", "Cancel"] {
        for chat in [false, true] {
            v.push(footer_hint(Row::Ready, leave, chat));
            v.push(footer_hint(Row::Invite, leave, chat));
            v.push(footer_hint(Row::CopyLink, leave, chat));
            v.push(footer_hint(Row::Leave, leave, chat));
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requeue_asks_the_queue_the_match_came_from_again() {
        assert_eq!(requeue_of(&Request::QuickMatch), Some(Request::QuickMatch));
        let ranked = Request::Ranked([7; 32]);
        assert_eq!(requeue_of(&ranked), Some(ranked));
    }

    #[test]
    fn a_room_offers_no_requeue() {
        for request in [
            Request::Create(sevenbag_protocol::RoomOptions::default()),
            Request::Join("ABCDE".into()),
            Request::Spectate("ABCDE".into()),
        ] {
            assert_eq!(requeue_of(&request), None, "{request:?}");
        }
    }

    #[test]
    fn the_hard_drop_key_never_picks_a_room_row() {
        assert!(!PICK_KEYS.contains(&KeyCode::Space));
        assert!(PICK_KEYS.contains(&KeyCode::Enter));
    }

    #[test]
    fn the_room_footer_says_what_enter_does_on_each_row() {
        for stage in [
            Stage::Connecting,
            Stage::Waiting,
            Stage::InRoom,
            Stage::Failed("x".into()),
        ] {
            let leave = leave_label(&stage);
            for chat in [false, true] {
                assert!(footer_hint(Row::Ready, leave, chat).contains("Enter ready"));
                let hint = footer_hint(Row::Leave, leave, chat);
                assert!(
                    hint.contains(&format!("Enter {}", leave.to_lowercase())),
                    "{stage:?}: {hint}"
                );
                assert_eq!(hint.contains("T chat"), chat);
            }
        }
    }
}
