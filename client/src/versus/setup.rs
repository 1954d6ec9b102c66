//! Setting up an offline match: the opponent, the rules preset and how many rounds win.

use sevenbag_core::{Handling, MatchHeader, Preset};

use crate::config::MatchSetup;
use crate::config::OutsideBot;
use crate::drill::Drill;
use crate::input::keys::key_label;
use crate::input::{Action, KeyMap};
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
use crate::versus::play::PlayScreen;

/// Which offline mode is being set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupKind {
    /// You against an automatic opponent.
    Practice,
    /// Two people on one keyboard.
    Local,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Row {
    Opponent,
    Rules,
    FirstTo,
    Finesse,
    Start,
    Back,
}

const FIRST_TO: [u8; 6] = [1, 2, 3, 4, 5, 7];

/// The setup screen.
pub struct SetupScreen {
    kind: SetupKind,
    nav: ListNav,
    /// Ours, then the outside bots from the settings file.
    opponents: Vec<Opponent>,
    opponent: usize,
    preset: usize,
    first_to: usize,
    /// Practice's finesse training, an index into [`Drill::ALL`] (for as long as the screen
    /// is open).
    drill: usize,
}

impl SetupScreen {
    /// A setup screen for `kind`, starting from the last setup saved in the settings (the
    /// medium bot, versus rules and first to 3 the first time).
    pub fn new(kind: SetupKind, last: &MatchSetup, bots: &[OutsideBot]) -> SetupScreen {
        let d = MatchSetup::default();
        let opponents = Opponent::all(bots);
        let opponent = |key: &str| opponents.iter().position(|o| o.key() == key);
        let preset = |name: &str| Preset::ALL.iter().position(|p| p.name() == name);
        let first_to = |n: u8| FIRST_TO.iter().position(|&f| f == n);
        let chosen = opponent(&last.opponent)
            .or_else(|| opponent(&d.opponent))
            .unwrap_or(0);
        SetupScreen {
            kind,
            nav: ListNav::default(),
            opponents,
            opponent: chosen,
            preset: preset(&last.rules).unwrap_or(0),
            first_to: first_to(last.first_to)
                .or_else(|| first_to(d.first_to))
                .unwrap_or(0),
            drill: 0,
        }
    }

    /// The choices on screen, as the settings file keeps them.
    fn chosen(&self) -> MatchSetup {
        MatchSetup {
            opponent: self.opponents[self.opponent].key(),
            rules: Preset::ALL[self.preset].name().to_owned(),
            first_to: FIRST_TO[self.first_to],
        }
    }

    /// Keeps the choices in the settings (and their file), so the next visit starts here.
    fn remember(&self, ctx: &mut Ctx) {
        let chosen = self.chosen();
        if ctx.config.setup == chosen {
            return;
        }
        ctx.config.setup = chosen;
        if let Some(path) = &ctx.config_path
            && let Err(e) = ctx.config.save(path)
        {
            ctx.notify(format!("Could not save the match setup: {e}"), theme::BAD);
        }
    }

    fn rows(&self) -> Vec<Row> {
        match self.kind {
            SetupKind::Practice => vec![
                Row::Opponent,
                Row::Rules,
                Row::FirstTo,
                Row::Finesse,
                Row::Start,
                Row::Back,
            ],
            SetupKind::Local => vec![Row::Rules, Row::FirstTo, Row::Start, Row::Back],
        }
    }

    /// The match to start: the chosen rules, `handling` for the players' seats.
    fn header(&self, seed: u64, handling: Handling) -> MatchHeader {
        let mut header = MatchHeader::versus(seed);
        header.rules = Preset::ALL[self.preset].rules();
        header.rules.first_to = FIRST_TO[self.first_to];
        header.handling = [handling; 2];
        if self.kind == SetupKind::Practice {
            // The opponent's seat: its speed is its level's cap, not your key repeat.
            header.handling[1] = sevenbag_bot::BOT_HANDLING;
        }
        header
    }
}

impl Screen for SetupScreen {
    /// Handles the frame.
    fn update(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Transition {
        ctx.backdrop.advance(io.dt, io.width, io.height);
        let rows = self.rows();
        let layout = list_layout(io.width, io.height, rows.len());
        let before = self.nav.selected;
        let event = self.nav.handle(io, &layout, rows.len(), &|_| true, false);
        if before != self.nav.selected {
            ctx.play(Sfx::Move);
        }
        let cycle =
            |v: &mut usize, n: usize, d: i32| *v = (*v as i32 + d).rem_euclid(n as i32) as usize;
        match event {
            ListEvent::Back => Transition::Pop,
            ListEvent::Adjust(i, _) | ListEvent::Activate(i)
                if rows[i] != Row::Start && rows[i] != Row::Back =>
            {
                let d = if let ListEvent::Adjust(_, d) = event {
                    d
                } else {
                    1
                };
                match rows[i] {
                    Row::Opponent => cycle(&mut self.opponent, self.opponents.len(), d),
                    Row::Rules => cycle(&mut self.preset, Preset::ALL.len(), d),
                    Row::FirstTo => cycle(&mut self.first_to, FIRST_TO.len(), d),
                    Row::Finesse => cycle(&mut self.drill, Drill::ALL.len(), d),
                    _ => {}
                }
                ctx.play(Sfx::Move);
                Transition::None
            }
            ListEvent::Activate(i) if rows[i] == Row::Back => Transition::Pop,
            ListEvent::Activate(_) => {
                ctx.play(Sfx::Select);
                self.remember(ctx);
                let seed = crate::platform::clock::random_seed();
                let header = self.header(seed, ctx.config.handling);
                let play = match self.kind {
                    SetupKind::Practice => {
                        let opponent = self.opponents[self.opponent].clone();
                        let drill = Drill::ALL[self.drill];
                        PlayScreen::practice(header, opponent, &ctx.config, drill)
                    }
                    SetupKind::Local => PlayScreen::local(header, &ctx.config),
                };
                Transition::Replace(Box::new(play))
            }
            _ => Transition::None,
        }
    }

    /// Draws the screen.
    fn draw(&self, ctx: &Ctx, io: &FrameIo) {
        let gfx = &ctx.gfx;
        background(io.width, io.height);
        ctx.backdrop.draw();
        let rows = self.rows();
        let l = list_layout(io.width, io.height, rows.len());
        let (title, subtitle) = match self.kind {
            SetupKind::Practice => (
                "Practice vs bot",
                "An offline versus match against an automatic opponent",
            ),
            SetupKind::Local => ("Local 2 players", "Two players, one keyboard, same pieces"),
        };
        heading(gfx, l.title, l.unit, title, subtitle);
        let shown = self.nav.visible(&l, rows.len());
        scroll_marks(gfx, &shown, rows.len(), l.unit);
        for (i, r) in shown {
            let state = RowState {
                selected: i == self.nav.selected,
                enabled: true,
            };
            let value = |v: String| {
                if state.selected {
                    format!("‹  {v}  ›")
                } else {
                    v
                }
            };
            match rows[i] {
                Row::Opponent => value_row(
                    gfx,
                    r,
                    l.unit,
                    "Opponent",
                    &value(self.opponents[self.opponent].label()),
                    state,
                    false,
                    ctx.time,
                ),
                Row::Rules => value_row(
                    gfx,
                    r,
                    l.unit,
                    "Rules",
                    &value(rules_label(Preset::ALL[self.preset])),
                    state,
                    false,
                    ctx.time,
                ),
                Row::FirstTo => value_row(
                    gfx,
                    r,
                    l.unit,
                    "First to",
                    &value(format!("{} rounds", FIRST_TO[self.first_to])),
                    state,
                    false,
                    ctx.time,
                ),
                Row::Finesse => value_row(
                    gfx,
                    r,
                    l.unit,
                    "Finesse training",
                    &value(Drill::ALL[self.drill].value()),
                    state,
                    false,
                    ctx.time,
                ),
                Row::Start => menu_row(gfx, r, l.unit, "Start match", "", state, ctx.time),
                Row::Back => menu_row(gfx, r, l.unit, "Back", "", state, ctx.time),
            }
        }
        let body = match self.kind {
            SetupKind::Practice => format!(
                "{}\n\n{}. Your finesse faults count live under your stats.",
                practice_body(Preset::ALL[self.preset], &ctx.config.keys),
                Drill::ALL[self.drill].label()
            ),
            SetupKind::Local => format!(
                "{}\n\nLeft player: {}\n\nRight player: {}",
                preset_about(Preset::ALL[self.preset]),
                keys_summary(&ctx.config.local_left),
                keys_summary(&ctx.config.local_right)
            ),
        };
        side_panel(gfx, l.side, l.unit, "Match", &body);
        let selected = rows.get(self.nav.selected).copied().unwrap_or(Row::Start);
        footer(gfx, l.footer, l.unit, footer_hint(selected), "offline");
    }

    fn calm(&self) -> bool {
        true
    }

    fn name(&self) -> &'static str {
        "setup"
    }
}

/// The footer's hint for the row under the cursor: it names what Enter does there (a value row
/// changes its value; Start starts; Back goes back).
fn footer_hint(row: Row) -> &'static str {
    match row {
        Row::Opponent | Row::Rules | Row::FirstTo | Row::Finesse => {
            "↑ ↓ choose   ← → or Enter change   Esc back"
        }
        Row::Start => "↑ ↓ choose   Enter start   Esc back",
        Row::Back => "↑ ↓ choose   Enter back   Esc back",
    }
}

fn rules_label(p: Preset) -> String {
    let name = p.name();
    let mut c = name.chars();
    c.next()
        .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
        .unwrap_or_default()
}

/// The practice setup's side panel for `preset`: the rules, then how to play: `keys` on a
/// desktop, the touch buttons and the back button on a touch screen.
pub fn practice_body(preset: Preset, keys: &KeyMap) -> String {
    let how = if crate::input::taps::shown() {
        "The buttons under your board play.\n\nThe ‹ button pauses the match.".to_owned()
    } else {
        format!("Your keys: {}\n\nEsc pauses the match.", keys_summary(keys))
    };
    format!("{}\n\n{how}", preset_about(preset))
}

/// What the screen says in words, for the touch wording test.
#[cfg(test)]
pub fn touch_texts() -> Vec<String> {
    Preset::ALL
        .into_iter()
        .map(|p| practice_body(p, &KeyMap::guideline()))
        .collect()
}

fn preset_about(p: Preset) -> &'static str {
    match p {
        Preset::Versus => {
            "Versus: 7-bag, 180° rotation, up to 8 garbage lines rise at once, clean garbage."
        }
        Preset::Classic => {
            "Classic: memoryless random pieces, no 180° rotation, at most 4 garbage lines at once."
        }
        Preset::Chaos => "Chaos: messy garbage (every hole moves) and up to 12 lines at once.",
    }
}

/// "move ← →, soft ↓, hard Space, ..." for the side panel.
pub fn keys_summary(map: &KeyMap) -> String {
    let names = |a: Action| {
        let keys: Vec<String> = map
            .keys(a)
            .iter()
            .flatten()
            .map(|k| key_label(*k))
            .collect();
        if keys.is_empty() {
            "—".to_owned()
        } else {
            keys.join("/")
        }
    };
    format!(
        "move {} {}, soft drop {}, hard drop {}, rotate left {}, right {}, 180° {}, hold {}",
        names(Action::MoveLeft),
        names(Action::MoveRight),
        names(Action::SoftDrop),
        names(Action::HardDrop),
        names(Action::RotateCcw),
        names(Action::RotateCw),
        names(Action::Rotate180),
        names(Action::Hold)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_setup_opens_with_the_choices_saved_last_time() {
        let saved = MatchSetup {
            opponent: "max".into(),
            rules: "classic".into(),
            first_to: 5,
        };
        assert_eq!(
            SetupScreen::new(SetupKind::Practice, &saved, &[]).chosen(),
            saved
        );
    }

    #[test]
    fn the_footer_says_what_enter_does_on_each_row() {
        let d = MatchSetup::default();
        for kind in [SetupKind::Practice, SetupKind::Local] {
            let screen = SetupScreen::new(kind, &d, &[]);
            for row in screen.rows() {
                let hint = footer_hint(row);
                let says = match row {
                    Row::Opponent | Row::Rules | Row::FirstTo | Row::Finesse => "Enter change",
                    Row::Start => "Enter start",
                    Row::Back => "Enter back",
                };
                assert!(hint.contains(says), "{row:?}: {hint}");
            }
        }
    }

    #[test]
    fn the_practice_bot_moves_with_the_bot_handling_and_you_with_yours() {
        let yours = Handling {
            das: 12,
            ..Handling::default()
        };
        let d = MatchSetup::default();
        let practice = SetupScreen::new(SetupKind::Practice, &d, &[]).header(1, yours);
        assert_eq!(practice.handling, [yours, sevenbag_bot::BOT_HANDLING]);
        let local = SetupScreen::new(SetupKind::Local, &d, &[]).header(1, yours);
        assert_eq!(local.handling, [yours; 2]);
    }

    #[test]
    fn unknown_saved_choices_fall_back_to_the_defaults() {
        let saved = MatchSetup {
            opponent: "grandmaster".into(),
            rules: "nope".into(),
            first_to: 99,
        };
        let chosen = SetupScreen::new(SetupKind::Local, &saved, &[]).chosen();
        assert_eq!(chosen, MatchSetup::default());
    }
}
