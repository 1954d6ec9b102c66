//! The main menu: every way to play, keyboard-navigable and clickable; before it, on the first
//! start, the name prompt ([`welcome`]), and what a link to the page opens ([`link`]).

pub mod link;
pub mod welcome;

use macroquad::math::Rect;

use crate::account::leaderboard::StandingsScreen;
use crate::challenge::ChallengeScreen;
use crate::friends::FriendsScreen;
use crate::layout::{ListLayout, list_layout_all};
use crate::list_nav::{ListEvent, ListNav};
use crate::party::setup::PartySetupScreen;
use crate::puzzles::PuzzlesScreen;
use crate::render::gfx::background;
use crate::render::showcase::draw_showcase;
use crate::render::widgets::{RowState, footer, logo, menu_row, scroll_marks, side_panel};
use crate::replays::ReplayScreen;
use crate::screen::{Ctx, FrameIo, Screen, Transition};
use crate::settings::SettingsScreen;
use crate::solo::SoloScreen;
use crate::sound::sfx::Sfx;
use crate::versus::lobby::{LobbyKind, LobbyScreen};
use crate::versus::setup::{SetupKind, SetupScreen};

/// The footer's key hints (the layout tests check they fit the smallest window).
pub const FOOTER: &str = "↑ ↓ choose   Enter select   Esc quit";

/// The menu's entries (zemeroth's per-screen `Message`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Item {
    QuickMatch,
    Ranked,
    CreateRoom,
    JoinRoom,
    Spectate,
    LanHost,
    LanJoin,
    Solo,
    Practice,
    Local,
    Party,
    Replays,
    Challenge,
    Leaderboard,
    Puzzles,
    Settings,
    Quit,
}

#[cfg(not(target_arch = "wasm32"))]
const ITEMS: [Item; 17] = [
    Item::QuickMatch,
    Item::Ranked,
    Item::CreateRoom,
    Item::JoinRoom,
    Item::Spectate,
    Item::Leaderboard,
    Item::LanHost,
    Item::LanJoin,
    Item::Practice,
    Item::Local,
    Item::Party,
    Item::Solo,
    Item::Challenge,
    Item::Puzzles,
    Item::Replays,
    Item::Settings,
    Item::Quit,
];

/// In a browser: no LAN (a page can neither host nor hear beacons) and no Quit (close the tab).
#[cfg(target_arch = "wasm32")]
const ITEMS: [Item; 14] = [
    Item::QuickMatch,
    Item::Ranked,
    Item::CreateRoom,
    Item::JoinRoom,
    Item::Spectate,
    Item::Leaderboard,
    Item::Practice,
    Item::Local,
    Item::Party,
    Item::Solo,
    Item::Challenge,
    Item::Puzzles,
    Item::Replays,
    Item::Settings,
];

/// Every entry's label and tag, for the layout tests.
#[cfg(test)]
pub fn labels() -> Vec<(&'static str, &'static str)> {
    ITEMS.iter().map(|i| (i.label(), i.tag())).collect()
}

impl Item {
    fn label(self) -> &'static str {
        match self {
            Item::QuickMatch => "Quick match",
            Item::Ranked => "Ranked match",
            Item::CreateRoom => "Create room",
            Item::JoinRoom => "Join room by code",
            Item::Spectate => "Spectate by code",
            Item::Solo => "Solo: 40 lines, Blitz, Zen",
            Item::LanHost => "LAN: host a game",
            Item::LanJoin => "LAN: join a game",
            Item::Practice => "Practice vs bot",
            Item::Local => "Local 2 players",
            Item::Party => "Free-for-all",
            Item::Replays => "Replays",
            Item::Challenge => "Fixed-sequence challenge",
            Item::Leaderboard => "Leaderboard & friends",
            Item::Puzzles => "Puzzles",
            Item::Settings => "Settings",
            Item::Quit => "Quit",
        }
    }

    fn tag(self) -> &'static str {
        match self {
            Item::QuickMatch
            | Item::Ranked
            | Item::CreateRoom
            | Item::JoinRoom
            | Item::Spectate
            | Item::Leaderboard => "ONLINE",
            Item::LanHost | Item::LanJoin => "LAN",
            Item::Practice | Item::Local => "OFFLINE",
            Item::Party => "PARTY",
            Item::Challenge | Item::Solo | Item::Puzzles => "SOLO",
            _ => "",
        }
    }

    fn about(self) -> (&'static str, &'static str) {
        match self {
            Item::QuickMatch => (
                "Quick match",
                "Get paired with the next player waiting on your server and play a first-to-3 versus match.\n\nBoth of you get the same pieces; lines you clear become garbage on the other board.",
            ),
            Item::Ranked => (
                "Ranked match",
                "Play someone near your rating for Glicko-2 points. Your identity is a key kept on this computer, registered under your player name (3-16 letters, digits, _ or -) the first time; the recovery code shown then moves it to another computer.",
            ),
            Item::CreateRoom => (
                "Create room",
                "Open a private room with your own rules and get a short code to share with a friend. Spectators can join with the same code.",
            ),
            Item::JoinRoom => (
                "Join room",
                "Type the code a friend gave you to join their room (a versus or a free-for-all room).",
            ),
            Item::Spectate => (
                "Spectate",
                "Watch a match live by its room code. Late arrivals catch up instantly from the match log.",
            ),
            Item::Solo => (
                "Solo",
                "40 lines: clear 40 lines as fast as you can. Blitz: score as much as you can in two minutes. Zen: endless practice with undo. Personal bests and their replays are kept on this computer.",
            ),
            Item::LanHost => (
                "Host on your network",
                "Start a game server on this computer so players on the same network can join you directly, no internet needed.",
            ),
            Item::LanJoin => (
                "Join on your network",
                "Connect to a game hosted on another computer of your network by its address.",
            ),
            Item::Practice => (
                "Practice vs bot",
                "A versus match against an automatic opponent, right here and offline. Pick its strength, the rules and how many rounds win.",
            ),
            Item::Local => (
                "Local 2 players",
                "Two players, one keyboard. Left player: A D move, S soft drop, W hard drop, Q E rotate, R 180°, Left Shift hold. Right player: arrows, ↑ hard drop, , . rotate, / 180°, Right Shift hold. Change them in Settings.",
            ),
            Item::Party => (
                "Free-for-all",
                "Up to eight on the same pieces, last one standing wins: you against 1 to 7 bots offline, or a room of 3 to 8 people on your server (friends join its code with Join room by code). Choose the targeting rule (even, least, divide, attackers, KOs, random, manual), teams and badges; Tab or the seat numbers pick your target.",
            ),
            Item::Replays => ("Replays", "Watch finished matches again, frame for frame."),
            Item::Leaderboard => (
                "Leaderboard & friends",
                "The server's top 100 ranked players and your place, your rating and recent matches, and any player's profile. Watch a recent match's replay with one key. Your friends open from there: who is online and where, watching their matches, invites and requests.",
            ),
            Item::Challenge => (
                "Fixed-sequence challenge",
                "The 2021 puzzle: 10,000 bricks in a fixed order under its own rules (no kicks, no hold); clears score the cells on the board. Play it, save your record, or watch the solver's best.",
            ),
            Item::Puzzles => (
                "Puzzles",
                "Perfect clears, T-spins and digging out, generated from a seed and proved solvable. Pick a kind and a difficulty, play the daily puzzle, or type a friend's code. Undo, reset and hints included.",
            ),
            Item::Settings => (
                "Settings",
                "Your name, the server, handling (DAS, ARR, DCD, SDF), volume and key bindings.",
            ),
            Item::Quit => ("Quit", "Close Sevenbag. Your settings are already saved."),
        }
    }
}

/// The menu's layout: every entry shows at once where the window allows (16:9 windows included),
/// so the menu never opens scrolled past its first or last entry.
fn layout(width: f32, height: f32) -> ListLayout {
    list_layout_all(width, height, ITEMS.len())
}

/// The main menu.
#[derive(Default)]
pub struct MenuScreen {
    nav: ListNav,
}

impl MenuScreen {
    /// A menu with the cursor on Practice (the entry that works in every build).
    pub fn new() -> MenuScreen {
        let practice = ITEMS.iter().position(|i| *i == Item::Practice).unwrap_or(0);
        MenuScreen {
            nav: ListNav::at(practice),
        }
    }
}

impl Screen for MenuScreen {
    /// Handles the frame.
    fn update(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Transition {
        ctx.backdrop.advance(io.dt, io.width, io.height);
        let layout = layout(io.width, io.height);
        let before = self.nav.selected;
        let event = self.nav.handle(io, &layout, ITEMS.len(), &|_| true, false);
        if self.nav.selected != before {
            ctx.play(Sfx::Move);
        }
        let item = match event {
            ListEvent::Activate(i) => ITEMS[i],
            // A page has no Quit: Escape does nothing there.
            ListEvent::Back if cfg!(target_arch = "wasm32") => return Transition::None,
            ListEvent::Back => {
                // Escape goes to Quit first; a second Escape (or Enter) leaves.
                let quit = ITEMS.len() - 1;
                if self.nav.selected == quit {
                    return Transition::Quit;
                }
                self.nav.selected = quit;
                return Transition::None;
            }
            _ => return Transition::None,
        };
        ctx.play(Sfx::Select);
        let lobby = |kind| Transition::Push(Box::new(LobbyScreen::new(kind)));
        match item {
            Item::QuickMatch => lobby(LobbyKind::QuickMatch),
            Item::Ranked => lobby(LobbyKind::Ranked),
            Item::CreateRoom => lobby(LobbyKind::CreateRoom),
            Item::JoinRoom => lobby(LobbyKind::JoinRoom),
            Item::Spectate => lobby(LobbyKind::Spectate),
            Item::LanHost => lobby(LobbyKind::LanHost),
            Item::LanJoin => lobby(LobbyKind::LanJoin),
            Item::Practice => Transition::Push(Box::new(SetupScreen::new(
                SetupKind::Practice,
                &ctx.config.setup,
                &ctx.config.bots,
            ))),
            Item::Local => Transition::Push(Box::new(SetupScreen::new(
                SetupKind::Local,
                &ctx.config.setup,
                &ctx.config.bots,
            ))),
            Item::Party => Transition::Push(Box::new(PartySetupScreen::default())),
            Item::Replays => Transition::Push(Box::new(ReplayScreen::default())),
            Item::Challenge => Transition::Push(Box::new(ChallengeScreen::default())),
            Item::Leaderboard => Transition::Push(Box::new(
                StandingsScreen::new(ctx, crate::replays::playback_bytes)
                    .with_friends(FriendsScreen::boxed),
            )),
            Item::Solo => Transition::Push(Box::new(SoloScreen::default())),
            Item::Puzzles => Transition::Push(Box::new(PuzzlesScreen::default())),
            Item::Settings => Transition::Push(Box::new(SettingsScreen::new(ctx))),
            Item::Quit => Transition::Quit,
        }
    }

    /// Draws the menu.
    fn draw(&self, ctx: &Ctx, io: &FrameIo) {
        let gfx = &ctx.gfx;
        background(io.width, io.height);
        ctx.backdrop.draw();
        let l = layout(io.width, io.height);
        logo(gfx, l.title, l.unit, "head-to-head block stacking");
        let shown = self.nav.visible(&l, ITEMS.len());
        scroll_marks(gfx, &shown, ITEMS.len(), l.unit);
        for (i, r) in shown {
            let item = ITEMS[i];
            let state = RowState {
                selected: i == self.nav.selected,
                enabled: true,
            };
            menu_row(gfx, r, l.unit, item.label(), item.tag(), state, ctx.time);
        }
        let (title, body) = ITEMS[self.nav.selected].about();
        let used = side_panel(gfx, l.side, l.unit, title, body);
        let below = Rect::new(
            l.side.x,
            used.bottom() + l.unit,
            l.side.w,
            l.side.bottom() - used.bottom() - l.unit,
        );
        draw_showcase(below, l.unit, ctx.time);
        footer(
            gfx,
            l.footer,
            l.unit,
            FOOTER,
            &format!(
                "{} · v{}",
                ctx.config.player_name,
                env!("CARGO_PKG_VERSION")
            ),
        );
    }

    fn calm(&self) -> bool {
        true
    }

    fn name(&self) -> &'static str {
        "menu"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_menu_opens_with_every_entry_in_view_at_common_window_sizes() {
        let menu = MenuScreen::new();
        for (w, h) in [
            (1280.0, 720.0),
            (1920.0, 1080.0),
            (1366.0, 768.0),
            (1024.0, 768.0),
            (800.0, 600.0),
        ] {
            let l = layout(w, h);
            let shown: Vec<usize> = menu
                .nav
                .visible(&l, ITEMS.len())
                .iter()
                .map(|v| v.0)
                .collect();
            assert_eq!(shown.len(), ITEMS.len(), "{w}x{h}: {shown:?}");
            assert_eq!(shown.first(), Some(&0), "{w}x{h}: Quick match shows");
            let last = l.row(shown.len() - 1);
            assert!(
                last.bottom() <= l.footer.y,
                "{w}x{h}: the rows end above the footer"
            );
        }
    }
}
