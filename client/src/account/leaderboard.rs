//! Leaderboard and profiles: the server's top 100 on the left (your row marked), a profile on the
//! right (yours first, when your player key is known to the server, else the leader's; then the
//! player under the cursor), with their recent matches; 1–9 open one of them as a results table
//! of every seat ([`crate::account::match_table`]), where Enter downloads and watches its replay.

use macroquad::input::KeyCode;
use macroquad::math::Rect;
use sevenbag_protocol::PlayerStats;
use sevenbag_protocol::solo_replay::{clock, group_digits};

use crate::account::match_table::stored_table;
use crate::account::profile_charts;
use crate::account::report_form::ReportForm;
use crate::account::standings::{Standings, Status, Viewed};
use crate::layout::list_layout;
use crate::list_nav::{ListEvent, ListNav};
use crate::render::gfx::background;
use crate::render::key_buttons::footer_keys;
use crate::render::results_table::draw_results_table;
use crate::render::theme;
use crate::render::widgets::{RowState, heading, menu_row, scroll_marks};
use crate::render::{hundredths, tenths};
use crate::screen::{Ctx, FrameIo, Screen, TextField, TextKind, Transition};
use crate::sound::sfx::Sfx;
use crate::text::utc_stamp;

/// The footer's key hints (the layout tests check they fit the smallest window).
pub const FOOTER: &str =
    "↑ ↓ choose a player   1–9 a match   A add friend   F friends   R report   Esc back";
/// The footer's key hints while a match's table is open.
pub const TABLE_FOOTER: &str = "Enter watch the replay   Esc back to the profile";

/// Opens a history match's replay file, as the server sent it, into its playback under a title;
/// the error is a sentence. The replay screens sit above the account's, so whoever opens the
/// standings hands this in (`crate::replays::playback_bytes`).
pub type ReplayOpener = fn(&[u8], String) -> Result<Box<dyn Screen>, String>;

/// Opens the Friends screen, which sits above the account's screens (it opens rooms); whoever
/// opens the standings hands it in (`crate::friends::FriendsScreen::new`).
pub type FriendsOpener = fn(&Ctx) -> Box<dyn Screen>;

/// The screen.
pub struct StandingsScreen {
    standings: Standings,
    /// Opens a history match's replay.
    open_replay: ReplayOpener,
    nav: ListNav,
    fetching: Option<String>,
    /// Why the player key could not be read, said on the first frame.
    key_error: Option<String>,
    /// A profile was asked for when the board first arrived.
    asked_first: bool,
    /// The report being written against the profile shown, while R has it open.
    report: Option<ReportForm>,
    /// The match whose table is open (shown once it arrives).
    opened: Option<u64>,
    /// A match to open once connected (`--match`).
    open_first: Option<u64>,
    /// Opens the Friends screen (F), when handed one.
    open_friends: Option<FriendsOpener>,
}

impl StandingsScreen {
    /// Connects to the server in Settings, with the player key if this machine has one; a
    /// history match's replay opens through `open_replay`.
    pub fn new(ctx: &Ctx, open_replay: ReplayOpener) -> StandingsScreen {
        let (key, key_error) = match crate::identity::default_key_path()
            .map(|p| crate::identity::load_existing(&p))
            .transpose()
        {
            Ok(key) => (key.flatten(), None),
            Err(e) => (None, Some(e)),
        };
        StandingsScreen {
            standings: Standings::connect(&ctx.config.server, &ctx.config.player_name, key),
            open_replay,
            nav: ListNav::default(),
            fetching: None,
            key_error,
            asked_first: false,
            report: None,
            opened: None,
            open_first: None,
            open_friends: None,
        }
    }

    /// F (a button on a touch screen) opens the Friends screen through `open`.
    pub fn with_friends(mut self, open: FriendsOpener) -> StandingsScreen {
        self.open_friends = Some(open);
        self
    }

    /// Opens match `id`'s table as soon as the server answers (none: the profile as usual).
    pub fn opening(mut self, id: Option<u64>) -> StandingsScreen {
        self.open_first = id;
        self
    }

    fn rows(&self) -> usize {
        self.standings.board().map_or(0, <[_]>::len) + 1
    }
}

impl Screen for StandingsScreen {
    /// Handles the frame.
    fn update(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Transition {
        ctx.backdrop.advance(io.dt, io.width, io.height);
        if let Some(e) = self.key_error.take() {
            ctx.notify(e, theme::BAD);
        }
        self.standings.poll();
        for n in self.standings.take_notices() {
            let good = n.starts_with("Report sent") || n.starts_with("Friend request sent");
            ctx.notify(n, if good { theme::ACCENT2 } else { theme::BAD });
            self.fetching = None;
            if let Some(id) = self.opened
                && self.standings.detail(id).is_none()
            {
                self.opened = None;
            }
        }
        if let Some((id, bytes)) = self.standings.take_replay() {
            self.fetching = None;
            match (self.open_replay)(&bytes, format!("REPLAY {id}")) {
                Ok(play) => return Transition::Push(play),
                Err(e) => ctx.notify(e, theme::BAD),
            }
        }
        let kb = &io.keyboard;
        if let Some(form) = &mut self.report {
            if kb.pressed(KeyCode::Escape) {
                self.report = None;
            } else if kb.pressed_any(&[KeyCode::Enter, KeyCode::KpEnter]) {
                let (name, category, text) = (
                    form.name.clone(),
                    form.category(),
                    form.text.trim().to_owned(),
                );
                if text.is_empty() {
                    ctx.notify("Say in a few words what happened.", theme::GARBAGE_QUEUED);
                } else {
                    ctx.play(Sfx::Select);
                    self.standings.report(&name, category, &text);
                    self.report = None;
                }
            } else {
                if kb.pressed(KeyCode::Left) {
                    form.step(-1);
                } else if kb.pressed(KeyCode::Right) {
                    form.step(1);
                }
                form.edit(&kb.chars, kb.pressed(KeyCode::Backspace));
            }
            return Transition::None;
        }
        if *self.standings.status() == Status::Connected
            && let Some(id) = self.open_first.take()
        {
            self.standings.open_match(id);
            self.opened = Some(id);
        }
        if let Some(opened) = self.opened {
            let detail = self.standings.detail(opened);
            if kb.pressed_any(&[KeyCode::Escape, KeyCode::Backspace]) {
                self.opened = None;
            } else if let Some(d) = detail
                && kb.pressed_any(&[KeyCode::Enter, KeyCode::KpEnter])
            {
                match d.replay.clone() {
                    Some(id) if self.fetching.is_none() => {
                        ctx.play(Sfx::Select);
                        ctx.notify(format!("Downloading replay {id}…"), theme::ACCENT2);
                        self.standings.fetch_replay(&id);
                        self.fetching = Some(id);
                    }
                    Some(_) => {}
                    None => ctx.notify("The server kept no replay of that match.", theme::BAD),
                }
            }
            return Transition::None;
        }
        if let Some(open) = self.open_friends
            && kb.pressed(KeyCode::F)
        {
            ctx.play(Sfx::Select);
            return Transition::Push(open(ctx));
        }
        if kb.pressed(KeyCode::A) {
            let me = self.standings.me().map(|p| p.name.clone());
            match self.standings.viewed().map(|v| v.profile.name.clone()) {
                Some(name) if Some(&name) == me.as_ref() => {
                    ctx.notify("That is your own profile.", theme::GARBAGE_QUEUED)
                }
                Some(name) => {
                    ctx.play(Sfx::Select);
                    self.standings.befriend(&name);
                }
                None => ctx.notify("Choose a player first.", theme::GARBAGE_QUEUED),
            }
            return Transition::None;
        }
        if kb.pressed(KeyCode::R) {
            let me = self.standings.me().map(|p| p.name.clone());
            match self.standings.viewed().map(|v| v.profile.name.clone()) {
                Some(name) if Some(&name) == me.as_ref() => {
                    ctx.notify("That is your own profile.", theme::GARBAGE_QUEUED)
                }
                Some(name) => self.report = Some(ReportForm::new(&name)),
                None => ctx.notify("Choose a player first.", theme::GARBAGE_QUEUED),
            }
            return Transition::None;
        }
        if let Some(n) = crate::input::DIGIT_KEYS.iter().position(|k| kb.pressed(*k)) {
            let picked = self.standings.viewed().and_then(|v| v.recent.get(n));
            if let Some(id) = picked.map(|m| m.id) {
                ctx.play(Sfx::Select);
                if self.standings.detail(id).is_none() {
                    self.standings.open_match(id);
                }
                self.opened = Some(id);
                return Transition::None;
            }
        }
        let rows = self.rows();
        let layout = list_layout(io.width, io.height, rows);
        let before = self.nav.selected;
        let event = self.nav.handle(io, &layout, rows, &|_| true, false);
        // The profile follows the cursor; until it moves, yours (or the leader's) shows.
        let first_board = self.standings.board().is_some() && !self.asked_first;
        if before != self.nav.selected || (first_board && self.standings.me().is_none()) {
            if before != self.nav.selected {
                ctx.play(Sfx::Move);
            }
            if let Some(name) = self
                .standings
                .board()
                .and_then(|b| b.get(self.nav.selected))
                .map(|p| p.name.clone())
            {
                self.standings.view(&name);
            }
        }
        self.asked_first |= first_board;
        match event {
            ListEvent::Back => Transition::Pop,
            ListEvent::Activate(i) if i + 1 == rows => Transition::Pop,
            ListEvent::Activate(i) => {
                if let Some(p) = self.standings.board().and_then(|b| b.get(i)) {
                    let name = p.name.clone();
                    ctx.play(Sfx::Select);
                    self.standings.view(&name);
                }
                Transition::None
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
        let l = list_layout(io.width, io.height, rows);
        let subtitle = match self.standings.status() {
            Status::Connecting => format!("Connecting to {}…", ctx.config.server),
            Status::Connected => format!("Ranked players on {}", ctx.config.server),
            Status::Failed(e) => e.clone(),
        };
        heading(gfx, l.title, l.unit, "Leaderboard", &subtitle);
        let board = self.standings.board().unwrap_or(&[]);
        let me = self.standings.me().map(|p| p.name.as_str());
        let shown = self.nav.visible(&l, rows);
        scroll_marks(gfx, &shown, rows, l.unit);
        for (i, r) in shown {
            let state = RowState {
                selected: i == self.nav.selected,
                enabled: true,
            };
            match board.get(i) {
                Some(p) => {
                    let you = if Some(p.name.as_str()) == me {
                        "  (you)"
                    } else {
                        ""
                    };
                    let label = format!("{:>3}. {}{you}", p.place.unwrap_or(i as u32 + 1), p.name);
                    let tag = format!("{} ± {}", p.rating, p.deviation);
                    menu_row(gfx, r, l.unit, &label, &tag, state, ctx.time);
                }
                None => menu_row(gfx, r, l.unit, "Back", "ESC", state, ctx.time),
            }
        }
        let (head, body) = match (self.standings.viewed(), &self.report) {
            (_, Some(form)) => (format!("Report {}", form.name), form.panel_text()),
            (Some(v), None) => (v.profile.name.clone(), profile_text(v, me)),
            (None, None) if board.is_empty() && *self.standings.status() == Status::Connected => (
                "No ranked players yet".to_owned(),
                "Play a Ranked match (menu, ONLINE) to get a rating and a place here.".to_owned(),
            ),
            (None, None) => (
                "Profile".to_owned(),
                format!(
                    "Your profile shows here once you have played a ranked match on this server. {} on a row shows that player's.",
                    crate::input::taps::hint("Enter", "A tap")
                ),
            ),
        };
        // A profile's charts go under its text (the list of matches shows as many as fit).
        let charts = match (self.standings.viewed(), &self.report) {
            (Some(v), None) => profile_charts::charts(v),
            _ => profile_charts::ProfileCharts::default(),
        };
        profile_charts::draw_panel(gfx, l.side, l.unit, (&head, &body), &charts);
        let right = match (&self.fetching, &self.opened) {
            (Some(id), _) => format!("downloading {id}…"),
            (None, Some(id)) if self.standings.detail(*id).is_none() => {
                format!("opening match {id}…")
            }
            (None, _) => ctx.config.server.clone(),
        };
        let table = self.opened.and_then(|id| self.standings.detail(id));
        match table {
            Some(d) => {
                let viewed = self.standings.viewed().map(|v| v.profile.name.as_str());
                let window = Rect::new(0.0, 0.0, io.width, io.height);
                let upright = crate::layout::is_portrait(io.width, io.height);
                draw_results_table(gfx, window, &stored_table(d, viewed, upright));
                let mut keys = vec![("Back", KeyCode::Escape)];
                if d.replay.is_some() {
                    keys.insert(0, ("Replay", KeyCode::Enter));
                }
                footer_keys(gfx, l.footer, l.unit, TABLE_FOOTER, &keys, &right);
            }
            None => footer_keys(
                gfx,
                l.footer,
                l.unit,
                FOOTER,
                &[
                    ("Friends", KeyCode::F),
                    ("Report", KeyCode::R),
                    ("Latest match", KeyCode::Key1),
                ],
                &right,
            ),
        }
    }

    fn calm(&self) -> bool {
        true
    }

    fn text_fields(&self, _ctx: &Ctx, io: &FrameIo) -> Vec<TextField> {
        let Some(form) = &self.report else {
            return Vec::new();
        };
        vec![TextField {
            kind: TextKind::Plain,
            text: form.text.clone(),
            rect: list_layout(io.width, io.height, self.rows()).side,
            active: true,
        }]
    }

    fn name(&self) -> &'static str {
        "standings"
    }
}

/// The side panel's text for a profile: rating, place, record, and the recent matches numbered
/// for the 1–9 keys.
pub fn profile_text(v: &Viewed, me: Option<&str>) -> String {
    let p = &v.profile;
    let place = p
        .place
        .map_or("not placed yet".to_owned(), |n| format!("#{n}"));
    let rate = (p.wins * 100).checked_div(p.games).unwrap_or(0);
    let plural = |n: u32, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let mut text = format!(
        "{}{}Rating {} ± {} · {place}\n{}, {} ({rate}%)\n",
        if Some(p.name.as_str()) == me {
            "You. "
        } else {
            ""
        },
        if v.bot { "[BOT] " } else { "" },
        p.rating,
        p.deviation,
        plural(p.games, "ranked game"),
        plural(p.wins, "win"),
    );
    if let Some(line) = v.stats.as_ref().and_then(averages_text) {
        text.push_str(&line);
    }
    if v.recent.is_empty() {
        text.push_str("\nNo matches yet.");
        return text;
    }
    text.push_str("\nRecent matches:");
    for (i, m) in v.recent.iter().take(9).enumerate() {
        let result = match m.won {
            Some(true) => "W",
            Some(false) => "L",
            None => "void",
        };
        let change = m.rating_change.map_or(String::new(), |c| format!(" {c:+}"));
        let kind = if m.ranked { "" } else { " (unranked)" };
        let bot = if v.opponent_bots.get(i).copied().unwrap_or(false) {
            " [BOT]"
        } else {
            ""
        };
        text.push_str(&format!(
            "\n{}  {result} {}–{} vs {}{bot}{change}{kind} · {}",
            i + 1,
            m.score[0],
            m.score[1],
            m.opponent,
            utc_stamp(m.ended_unix)
        ));
    }
    text
}

/// The averages line of a profile ("Last 4 matches: 3 won · 1.50 PPS · ..."), and its solo
/// bests; `None` before the player has a match or a run.
fn averages_text(stats: &PlayerStats) -> Option<String> {
    let a = &stats.averages;
    let mut text = String::new();
    if a.matches > 0 {
        text.push_str(&format!(
            "Last {} matches: {} won · {} attack a match\nAverages: {} PPS · {} APM · {} VS\n",
            a.matches,
            a.wins,
            tenths(a.attack_x100),
            hundredths(a.pps_x100),
            tenths(a.apm_x100),
            tenths(a.vs_x100),
        ));
    }
    let bests: Vec<String> = [
        stats
            .sprint
            .last()
            .map(|r| format!("40 lines best {}", clock(u64::from(r.frames)))),
        stats
            .blitz
            .last()
            .map(|r| format!("Blitz best {}", group_digits(r.score))),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !bests.is_empty() {
        text.push_str(&bests.join(" · "));
        text.push('\n');
    }
    (!text.is_empty()).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sevenbag_protocol::{MatchAverages, Profile, ProgressRun, RecentMatch};

    #[test]
    fn a_profile_reads_rating_place_record_and_numbered_matches() {
        let v = Viewed {
            profile: Profile {
                name: "ann".into(),
                rating: 1662,
                deviation: 290,
                games: 4,
                wins: 3,
                place: Some(2),
            },
            recent: vec![RecentMatch {
                id: 7,
                opponent: "bo".into(),
                won: Some(false),
                score: [0, 1],
                ranked: true,
                rating_change: Some(-12),
                ended_unix: 0,
                replay: None,
            }],
            bot: false,
            opponent_bots: vec![false],
            stats: None,
        };
        assert_eq!(
            profile_text(&v, Some("ann")),
            "You. Rating 1662 ± 290 · #2\n4 ranked games, 3 wins (75%)\n\n\
             Recent matches:\n1  L 0–1 vs bo -12 · 1970-01-01 00:00"
        );
    }

    #[test]
    fn declared_bots_are_marked_in_a_profile() {
        let mut v = Viewed {
            profile: Profile {
                name: "cc2".into(),
                rating: 1500,
                deviation: 350,
                games: 0,
                wins: 0,
                place: None,
            },
            recent: vec![RecentMatch {
                id: 7,
                opponent: "bo".into(),
                won: Some(true),
                score: [1, 0],
                ranked: false,
                rating_change: None,
                ended_unix: 0,
                replay: None,
            }],
            bot: true,
            opponent_bots: vec![true],
            stats: None,
        };
        let text = profile_text(&v, None);
        assert!(text.starts_with("[BOT] Rating"), "{text}");
        assert!(text.contains("vs bo [BOT] (unranked)"), "{text}");
        v.opponent_bots.clear();
        assert!(profile_text(&v, None).contains("vs bo (unranked)"));
    }

    #[test]
    fn a_profile_with_stats_reads_its_averages_and_bests() {
        let run = |frames: u32, score: u64| ProgressRun {
            frames,
            score,
            lines: 40,
            pieces: 100,
            recorded_unix: 0,
        };
        let stats = PlayerStats {
            name: "ann".into(),
            last: 20,
            averages: MatchAverages::from_sums(4, 3, [600, 12000, 13500], 130, 350),
            sprint: vec![run(3000, 0), run(2700, 0)],
            blitz: vec![run(7200, 50_000)],
        };
        assert_eq!(
            averages_text(&stats).as_deref(),
            Some(
                "Last 4 matches: 3 won · 32.5 attack a match\n\
                 Averages: 1.50 PPS · 30.0 APM · 33.8 VS\n\
                 40 lines best 0:45.00 · Blitz best 50,000\n"
            )
        );
        let none = PlayerStats {
            averages: MatchAverages::default(),
            sprint: Vec::new(),
            blitz: Vec::new(),
            ..stats
        };
        assert_eq!(averages_text(&none), None);
    }
}
