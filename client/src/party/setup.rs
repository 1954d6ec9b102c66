//! Setting up a free-for-all practice match: how many bots, their level, the targeting rule,
//! teams, badges and rounds.

use sevenbag_bot::Level;
use sevenbag_core::Targeting;

use super::PartySetup;
use super::screen::PartyScreen;
use crate::layout::list::{ListEvent, ListNav};
use crate::layout::list_layout;
use crate::render::gfx::background;
use crate::render::theme;
use crate::render::widgets::{
    RowState, footer, heading, menu_row, scroll_marks, side_panel, value_row,
};
use crate::screen::{Ctx, FrameIo, Screen, Transition};
use crate::sound::sfx::Sfx;
use crate::versus::opponent::Opponent;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Row {
    Bots,
    Level,
    Targeting,
    Teams,
    Badges,
    FirstTo,
    Start,
    Back,
}

const ROWS: [Row; 8] = [
    Row::Bots,
    Row::Level,
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
    fn change(&mut self, row: Row, d: i32) {
        let s = &mut self.setup;
        match row {
            Row::Bots => s.bots = cycle(&[1, 2, 3, 4, 5, 6, 7], s.bots, d),
            Row::Level => s.level = cycle(&Level::ALL, s.level, d),
            Row::Targeting => s.targeting = cycle(&Targeting::ALL, s.targeting, d),
            Row::Teams => s.teams = cycle(&TEAMS, s.teams, d),
            Row::Badges => s.badges = !s.badges,
            Row::FirstTo => s.first_to = cycle(&FIRST_TO, s.first_to, d),
            Row::Start | Row::Back => {}
        }
    }

    fn value(&self, row: Row) -> String {
        let s = &self.setup;
        match row {
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
            Row::Start | Row::Back => String::new(),
        }
    }
}

fn label(row: Row) -> &'static str {
    match row {
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
fn footer_hint(row: Row) -> &'static str {
    match row {
        Row::Start => "↑ ↓ choose   Enter start   Esc back",
        Row::Back => "↑ ↓ choose   Enter back   Esc back",
        _ => "↑ ↓ choose   ← → or Enter change   Esc back",
    }
}

impl Screen for PartySetupScreen {
    fn update(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Transition {
        ctx.backdrop.advance(io.dt, io.width, io.height);
        let layout = list_layout(io.width, io.height, ROWS.len());
        let before = self.nav.selected;
        let event = self.nav.handle(io, &layout, ROWS.len(), &|_| true, false);
        if before != self.nav.selected {
            ctx.play(Sfx::Move);
        }
        match event {
            ListEvent::Back => Transition::Pop,
            ListEvent::Activate(i) if ROWS[i] == Row::Back => Transition::Pop,
            ListEvent::Activate(i) if ROWS[i] == Row::Start => {
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
                self.change(ROWS[i], d);
                ctx.play(Sfx::Move);
                Transition::None
            }
            ListEvent::Activate(i) => {
                self.change(ROWS[i], 1);
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
        let l = list_layout(io.width, io.height, ROWS.len());
        heading(
            gfx,
            l.title,
            l.unit,
            "Free-for-all practice",
            "You and up to seven bots on the same pieces, last one standing wins",
        );
        let shown = self.nav.visible(&l, ROWS.len());
        scroll_marks(gfx, &shown, ROWS.len(), l.unit);
        for (i, r) in shown {
            let row = ROWS[i];
            let state = RowState {
                selected: i == self.nav.selected,
                enabled: true,
            };
            match row {
                Row::Start | Row::Back => menu_row(gfx, r, l.unit, label(row), "", state, ctx.time),
                _ => {
                    let v = self.value(row);
                    let v = if state.selected {
                        format!("‹  {v}  ›")
                    } else {
                        v
                    };
                    value_row(gfx, r, l.unit, label(row), &v, state, false, ctx.time)
                }
            }
        }
        let s = &self.setup;
        let body = format!(
            "Targeting {}: {}.\n\nTeams: garbage goes only to other teams; a team is out when all its players are.\n\nBadges: each knock-out earns the victim's badges plus one; 2, 6, 14 and 30 points add a quarter to your attack each.\n\nIn the match: Tab (Shift+Tab back) or 2–8 choose your target, Esc pauses.",
            s.targeting.name(),
            about(s.targeting)
        );
        side_panel(gfx, l.side, l.unit, "Free-for-all", &body);
        let selected = ROWS.get(self.nav.selected).copied().unwrap_or(Row::Start);
        footer(gfx, l.footer, l.unit, footer_hint(selected), "offline");
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
            if matches!(row, Row::Start | Row::Back) {
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
    fn the_footer_says_what_enter_does_on_each_row() {
        for row in ROWS {
            let says = match row {
                Row::Start => "Enter start",
                Row::Back => "Enter back",
                _ => "Enter change",
            };
            assert!(footer_hint(row).contains(says), "{row:?}");
        }
    }
}
