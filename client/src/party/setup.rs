//! Setting up a free-for-all practice match: how many bots, their level, the targeting rule,
//! teams, badges and rounds.

use sevenbag_bot::Level;
use sevenbag_core::Targeting;

use super::PartySetup;
use super::screen::PartyScreen;
use crate::layout::list_layout;
use crate::list_nav::{ListEvent, ListNav};
use crate::opponent::Opponent;
use crate::render::gfx::background;
use crate::render::theme;
use crate::render::widgets::{
    RowState, footer, heading, menu_row, scroll_marks, side_panel, value_row,
};
use crate::screen::{Ctx, FrameIo, Screen, Transition};
use crate::sound::sfx::Sfx;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Row {
    /// Offline with bots, or a room on the server.
    Where,
    /// Online: wait in the server's free-for-all queue for a room.
    Quick,
    Bots,
    Level,
    Targeting,
    Teams,
    Badges,
    FirstTo,
    Start,
    Back,
}

const ROWS: [Row; 9] = [
    Row::Where,
    Row::Bots,
    Row::Level,
    Row::Targeting,
    Row::Teams,
    Row::Badges,
    Row::FirstTo,
    Row::Start,
    Row::Back,
];

/// The rows of an online room's form: quick play first, then the room's choices (seats
/// instead of bots, no bot level).
const ONLINE_ROWS: [Row; 9] = [
    Row::Where,
    Row::Quick,
    Row::Bots,
    Row::Targeting,
    Row::Teams,
    Row::Badges,
    Row::FirstTo,
    Row::Start,
    Row::Back,
];

const TEAMS: [u8; 4] = [0, 2, 3, 4];
const FIRST_TO: [u8; 4] = [1, 2, 3, 5];

/// The setup screen. The choices last while the game runs (not in the settings file).
#[derive(Default)]
pub struct PartySetupScreen {
    nav: ListNav,
    setup: PartySetup,
    /// Sets up a room on the server (seats for people) rather than a match with bots.
    online: bool,
}

/// Steps `v` by `d` through `all`, wrapping.
fn cycle<T: PartialEq + Copy>(all: &[T], v: T, d: i32) -> T {
    let at = all.iter().position(|x| *x == v).unwrap_or(0) as i32;
    all[(at + d).rem_euclid(all.len() as i32) as usize]
}

/// What a targeting rule does, in a line.
fn about(t: Targeting) -> &'static str {
    match t {
        Targeting::Even => "each attack goes whole to the next opponent in turn",
        Targeting::Least => "each attack goes to whoever has received the fewest lines",
        Targeting::Divide => "each attack is split evenly among all opponents",
        Targeting::Attackers => "each attack is split among those whose garbage waits on you",
        Targeting::Kos => "each attack goes to whoever has the most knock-outs",
        Targeting::Random => "each attack goes to an opponent drawn from the seed",
        Targeting::Manual => "each attack goes to the target you choose (Tab, 2–8)",
    }
}

impl PartySetupScreen {
    fn rows(&self) -> &'static [Row] {
        if self.online { &ONLINE_ROWS } else { &ROWS }
    }

    fn change(&mut self, row: Row, d: i32) {
        let online = self.online;
        let s = &mut self.setup;
        match row {
            Row::Where => {
                self.online = !online;
                if !online {
                    // A room has at least three seats.
                    self.setup.bots = self.setup.bots.max(2);
                }
            }
            // Online the row counts seats, 3 to 8 (the seats besides yours, 2 to 7).
            Row::Bots if online => s.bots = cycle(&[2, 3, 4, 5, 6, 7], s.bots, d),
            Row::Bots => s.bots = cycle(&[1, 2, 3, 4, 5, 6, 7], s.bots, d),
            Row::Level => s.level = cycle(&Level::ALL, s.level, d),
            Row::Targeting => s.targeting = cycle(&Targeting::ALL, s.targeting, d),
            Row::Teams => s.teams = cycle(&TEAMS, s.teams, d),
            Row::Badges => s.badges = !s.badges,
            Row::FirstTo => s.first_to = cycle(&FIRST_TO, s.first_to, d),
            Row::Quick | Row::Start | Row::Back => {}
        }
    }

    fn value(&self, row: Row) -> String {
        let s = &self.setup;
        match row {
            Row::Where if self.online => "online room on your server".to_owned(),
            Row::Where => "offline, with bots".to_owned(),
            Row::Bots if self.online => format!("{} players", s.seats()),
            Row::Bots => format!("{} ({} players)", s.bots, s.seats()),
            Row::Level => Opponent::Bot(s.level).label(),
            Row::Targeting => s.targeting.name().to_owned(),
            Row::Teams => match (s.teams, s.teams_played()) {
                (0, _) => "none: everyone for themselves".to_owned(),
                (t, Some(_)) => format!("{t} teams"),
                (t, None) => format!("{t} teams (needs more players)"),
            },
            Row::Badges => if s.badges { "on" } else { "off" }.to_owned(),
            Row::FirstTo => format!(
                "{} round{}",
                s.first_to,
                if s.first_to > 1 { "s" } else { "" }
            ),
            Row::Quick | Row::Start | Row::Back => String::new(),
        }
    }
}

fn label(row: Row, online: bool) -> &'static str {
    match row {
        Row::Where => "Play",
        Row::Quick => "Quick play: join a room of 3 to 8",
        Row::Bots if online => "Seats",
        Row::Start if online => "Create room",
        Row::Bots => "Bots",
        Row::Level => "Bot level",
        Row::Targeting => "Targeting",
        Row::Teams => "Teams",
        Row::Badges => "Badges",
        Row::FirstTo => "First to",
        Row::Start => "Start match",
        Row::Back => "Back",
    }
}

/// The footer's hint for the row under the cursor: it names what Enter does there.
fn footer_hint(row: Row, online: bool) -> &'static str {
    match row {
        Row::Quick => "↑ ↓ choose   Enter wait for players   Esc back",
        Row::Start if online => "↑ ↓ choose   Enter create   Esc back",
        Row::Start => "↑ ↓ choose   Enter start   Esc back",
        Row::Back => "↑ ↓ choose   Enter back   Esc back",
        _ => "↑ ↓ choose   ← → or Enter change   Esc back",
    }
}

/// How the match is played, in the side panel: with keys on a desktop, by taps on a touch
/// screen. `online`: Esc leaves the room there (offline it pauses).
fn match_words(online: bool) -> &'static str {
    match online {
        true => crate::input::taps::hint(
            "In the match: the board you attack is framed blue; under manual targeting Tab (Shift+Tab back), 1–8 or a tap choose it. Esc leaves.",
            "In the match: the board you attack is framed blue; under manual targeting a tap on a board chooses it. The ‹ button leaves.",
        ),
        false => crate::input::taps::hint(
            "In the match: the board you attack is framed blue. Under manual targeting Tab (Shift+Tab back), 2–8 or a click on a board choose it. Esc pauses.",
            "In the match: the board you attack is framed blue. Under manual targeting a tap on a board chooses it. The ‹ button pauses.",
        ),
    }
}

/// What the screen says in words, for the touch wording test.
#[cfg(test)]
pub fn touch_texts() -> Vec<String> {
    [match_words(true), match_words(false)]
        .map(str::to_owned)
        .to_vec()
}

impl Screen for PartySetupScreen {
    fn update(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Transition {
        ctx.backdrop.advance(io.dt, io.width, io.height);
        let rows = self.rows();
        let layout = list_layout(io.width, io.height, rows.len());
        let before = self.nav.selected;
        let event = self.nav.handle(io, &layout, rows.len(), &|_| true, false);
        if before != self.nav.selected {
            ctx.play(Sfx::Move);
        }
        match event {
            ListEvent::Back => Transition::Pop,
            ListEvent::Activate(i) if rows[i] == Row::Back => Transition::Pop,
            ListEvent::Activate(i) if rows[i] == Row::Quick => {
                ctx.play(Sfx::Select);
                let online = crate::net::battle::BattleOnline::quick(
                    &ctx.config.server,
                    &ctx.config.player_name,
                    ctx.config.handling,
                )
                .with_key(crate::identity::existing_key());
                Transition::Push(Box::new(super::online::PartyOnlineScreen::new(online)))
            }
            ListEvent::Activate(i) if rows[i] == Row::Start && self.online => {
                ctx.play(Sfx::Select);
                let online = crate::net::battle::BattleOnline::create(
                    &ctx.config.server,
                    &ctx.config.player_name,
                    ctx.config.handling,
                    super::online::room_options(&self.setup),
                )
                .with_key(crate::identity::existing_key());
                Transition::Push(Box::new(super::online::PartyOnlineScreen::new(online)))
            }
            ListEvent::Activate(i) if rows[i] == Row::Start => {
                ctx.play(Sfx::Select);
                let seed = crate::platform::clock::random_seed();
                match PartyScreen::new(&self.setup, seed, ctx) {
                    Ok(screen) => Transition::Push(Box::new(screen)),
                    Err(why) => {
                        ctx.notify(format!("Could not start the match: {why}"), theme::BAD);
                        Transition::None
                    }
                }
            }
            ListEvent::Adjust(i, d) => {
                self.change(rows[i], d);
                ctx.play(Sfx::Move);
                Transition::None
            }
            ListEvent::Activate(i) => {
                self.change(rows[i], 1);
                ctx.play(Sfx::Move);
                Transition::None
            }
            _ => Transition::None,
        }
    }

    fn draw(&self, ctx: &Ctx, io: &FrameIo) {
        let gfx = &ctx.gfx;
        background(io.width, io.height);
        ctx.backdrop.draw();
        let rows = self.rows();
        let l = list_layout(io.width, io.height, rows.len());
        let (title, subtitle) = if self.online {
            (
                "Free-for-all room",
                "A room on your server for 3 to 8 players on the same pieces; share its code",
            )
        } else {
            (
                "Free-for-all practice",
                "You and up to seven bots on the same pieces, last one standing wins",
            )
        };
        heading(gfx, l.title, l.unit, title, subtitle);
        let shown = self.nav.visible(&l, rows.len());
        scroll_marks(gfx, &shown, rows.len(), l.unit);
        for (i, r) in shown {
            let row = rows[i];
            let state = RowState {
                selected: i == self.nav.selected,
                enabled: true,
            };
            match row {
                Row::Quick => menu_row(gfx, r, l.unit, label(row, true), "QUEUE", state, ctx.time),
                Row::Start | Row::Back => {
                    menu_row(gfx, r, l.unit, label(row, self.online), "", state, ctx.time)
                }
                _ => {
                    let v = self.value(row);
                    let v = if state.selected {
                        format!("‹  {v}  ›")
                    } else {
                        v
                    };
                    let name = label(row, self.online);
                    value_row(gfx, r, l.unit, name, &v, state, false, ctx.time)
                }
            }
        }
        let s = &self.setup;
        let keys = if self.online {
            format!(
                "Online on {}: Quick play waits with other players and seats you in a room of 3 to 8 (targeting even, badges, one round); or make a room with the choices below and share its code. The match starts when everyone seated (at least two) is ready, a team room when every seat is taken. {}",
                ctx.config.server,
                match_words(true)
            )
        } else {
            match_words(false).to_owned()
        };
        let body = format!(
            "Targeting {}: {}.\n\nTeams: garbage goes only to other teams; a team is out when all its players are.\n\nBadges: each knock-out earns the victim's badges plus one; 2, 6, 14 and 30 points add a quarter to your attack each.\n\n{keys}",
            s.targeting.name(),
            about(s.targeting)
        );
        side_panel(gfx, l.side, l.unit, "Free-for-all", &body);
        let selected = rows.get(self.nav.selected).copied().unwrap_or(Row::Start);
        let place = if self.online { "online" } else { "offline" };
        footer(
            gfx,
            l.footer,
            l.unit,
            footer_hint(selected, self.online),
            place,
        );
    }

    fn calm(&self) -> bool {
        true
    }

    fn name(&self) -> &'static str {
        "party-setup"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_row_changes_its_choice_and_wraps() {
        let mut screen = PartySetupScreen::default();
        for row in ROWS {
            if matches!(row, Row::Quick | Row::Start | Row::Back) {
                continue;
            }
            let before = screen.value(row);
            screen.change(row, 1);
            assert_ne!(screen.value(row), before, "{row:?}");
            screen.change(row, -1);
            assert_eq!(screen.value(row), before, "{row:?}");
        }
        screen.setup.bots = 7;
        screen.change(Row::Bots, 1);
        assert_eq!(screen.setup.bots, 1);
    }

    #[test]
    fn the_play_row_turns_the_form_into_an_online_rooms_of_three_to_eight_seats() {
        let mut screen = PartySetupScreen::default();
        screen.setup.bots = 1;
        screen.change(Row::Where, 1);
        assert!(screen.online);
        assert_eq!(screen.rows(), &ONLINE_ROWS);
        assert_eq!(
            screen.rows()[1],
            Row::Quick,
            "quick play comes first online"
        );
        assert!(!screen.rows().contains(&Row::Level), "no bot level online");
        assert_eq!(screen.value(Row::Bots), "3 players");
        assert_eq!(label(Row::Start, true), "Create room");
        for _ in 0..6 {
            screen.change(Row::Bots, 1);
            assert!((3..=8).contains(&screen.setup.seats()));
        }
        screen.change(Row::Where, 1);
        assert_eq!(screen.rows(), &ROWS);
    }

    #[test]
    fn the_footer_says_what_enter_does_on_each_row() {
        for row in ROWS {
            let says = match row {
                Row::Quick => "Enter wait",
                Row::Start => "Enter start",
                Row::Back => "Enter back",
                _ => "Enter change",
            };
            assert!(footer_hint(row, false).contains(says), "{row:?}");
        }
    }
}
