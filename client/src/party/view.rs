//! Drawing a free-for-all: your panel large, the others small, who attacks whom, knock-outs and
//! places, and the results table. Everything shown is read from the core's `Battle`.

use macroquad::prelude::*;
use sevenbag_core::{Battle, Phase, Seat, Team};

use super::game::Figures;
use super::source::PartyMatch;
use crate::layout::party::{MiniLayout, PartyLayout};
use crate::render::board::draw_board_on_fill;
use crate::render::fx::SeatFx;
use crate::render::gfx::{Align, Gfx, Weight, background_with, center, fill, outline};
use crate::render::results_table::{ResultsTable, TEAMS, TableRow, draw_results_table};
use crate::render::side::{draw_hold, draw_meter, draw_next, draw_popups, draw_stats};
use crate::render::skin::on_board;
use crate::render::theme::{self, alpha};
use crate::text::ordinal;

/// Your target's colour.
const TARGET: Color = theme::ACCENT2;
/// The colour of those about to attack you.
const THREAT: Color = theme::BAD;

/// What the free-for-all view draws.
pub struct PartyScene<'a> {
    /// The match and its figures.
    pub game: &'a dyn PartyMatch,
    /// Every seat's name, in seat order.
    pub names: &'a [String],
    /// The mode line.
    pub title: &'a str,
    /// The keys line.
    pub status: &'a str,
    /// Every seat's flashes and popups, yours first.
    pub fx: &'a [SeatFx],
    /// Seconds since the screen opened, for pulsing.
    pub time: f32,
}

/// Draws the whole view laid out by `l`.
pub fn draw_party(gfx: &Gfx, l: &PartyLayout, scene: &PartyScene<'_>) {
    let b = scene.game.battle();
    let mut solids = vec![
        (l.own.board, crate::render::look::well()),
        (l.own.hold, theme::PANEL),
        (l.own.next, theme::PANEL),
    ];
    solids.extend(
        l.others
            .iter()
            .map(|m| (m.board, crate::render::look::well())),
    );
    background_with(l.window.w, l.window.h, &solids);
    let me = scene.game.me();
    let my_targets = b.targets_of(me);
    // Your panel; garbage rising shakes your well a little.
    let cell = l.own.cell();
    let fx = &scene.fx[me.index()];
    let shake = if fx.shake > 0.0 && !crate::render::look::reduced_motion() {
        ((scene.time * 90.0).sin() * cell * 0.18 * (fx.shake / 0.22)).abs()
    } else {
        0.0
    };
    let mut board = l.own.board;
    board.y += shake;
    let skin = scene.game.board_skin(me);
    on_board(skin, || {
        draw_board_on_fill(board, cell, b.player(me), fx, scene.time)
    });
    // The popups go under the list of who sends you garbage.
    let mut popups = l.own.popups;
    popups.y += cell * 2.2;
    popups.h = (popups.h - cell * 2.2).max(0.0);
    draw_popups(gfx, popups, cell, fx);
    draw_meter(gfx, l.own.meter, cell, b.incoming(me), scene.time);
    on_board(skin, || {
        draw_hold(gfx, l.own.hold, cell, b.player(me));
        draw_next(gfx, l.own.next, cell, b.player(me));
    });
    draw_stats(gfx, l.own.stats, cell, b.player(me), None);
    draw_own_plate(gfx, l, scene);
    if b.player(me).topped_out().is_some() {
        knocked_out(gfx, l.own.board, cell, scene, me);
    }
    // The others.
    for (m, seat) in l.others.iter().zip(scene.game.others()) {
        draw_mini(gfx, m, scene, seat, my_targets.contains(seat));
    }
    draw_title(gfx, l, scene);
    draw_banner(gfx, l, scene);
    gfx.text_mid(
        &gfx.fit(scene.status, l.status.w - 20.0, 15.0, Weight::Regular),
        l.status.x + 10.0,
        l.status.y + l.status.h / 2.0,
        15.0,
        Weight::Regular,
        Align::Left,
        theme::TEXT_DIM,
    );
    if matches!(b.phase(), Phase::MatchOver { .. }) {
        draw_results(gfx, l, scene);
    }
}

/// Your name, place and figures under your board, and who attacks you above it.
fn draw_own_plate(gfx: &Gfx, l: &PartyLayout, scene: &PartyScene<'_>) {
    let b = scene.game.battle();
    let me = scene.game.me();
    let cell = l.own.cell();
    let r = l.own.name;
    let size = (cell * 0.62).round();
    let f = scene.game.figures(me);
    let place = f
        .place
        .map(|p| format!("  ·  {}", ordinal(p).to_uppercase()));
    let name = format!("{}{}", name_of(scene, me), place.unwrap_or_default());
    gfx.text_mid(
        &name,
        r.x,
        r.y + r.h / 2.0,
        size,
        Weight::Bold,
        Align::Left,
        team_colour(b, me, me),
    );
    gfx.text_mid(
        &figures_line(&f, b.header().options.badges),
        r.right(),
        r.y + r.h / 2.0,
        size,
        Weight::Regular,
        Align::Right,
        theme::TEXT_DIM,
    );
    let attackers: Vec<String> = b
        .attackers_of(me)
        .iter()
        .map(|s| (s.index() + 1).to_string())
        .collect();
    if !attackers.is_empty() {
        // Beside the meter, in the column under the hold box.
        let r = l.own.popups;
        let x = r.right() - cell * 0.1;
        let size = (cell * 0.5).round();
        gfx.text_mid(
            "GARBAGE FROM",
            x,
            r.y + cell * 0.5,
            size,
            Weight::Bold,
            Align::Right,
            THREAT,
        );
        let seats = attackers.join(" · ");
        let big = gfx.fit_size(&seats, r.w - cell * 0.2, (cell * 0.9).round(), Weight::Bold);
        gfx.text_mid(
            &seats,
            x,
            r.y + cell * 1.4,
            big,
            Weight::Bold,
            Align::Right,
            THREAT,
        );
    }
}

/// "KO 2 · badges 3 · 14 sent".
fn figures_line(f: &Figures, badges: bool) -> String {
    if badges {
        format!("KO {}  ·  badges {}  ·  {} sent", f.kos, f.badges, f.sent)
    } else {
        format!("KO {}  ·  {} sent", f.kos, f.sent)
    }
}

/// `seat`'s name (a placeholder where the list is short).
fn name_of<'a>(scene: &'a PartyScene<'_>, seat: Seat) -> &'a str {
    scene.names.get(seat.index()).map_or("—", String::as_str)
}

/// The colour of `seat`'s name: its team's, or yours (`me`) and the others' without teams.
fn team_colour(b: &Battle, seat: Seat, me: Seat) -> Color {
    if b.header().options.teams.is_some() {
        TEAMS[b.team_of(seat).index() % TEAMS.len()]
    } else if seat == me {
        theme::ACCENT2
    } else {
        theme::TEXT
    }
}

/// One opponent's small board, its labels, and the marks of who attacks whom.
fn draw_mini(gfx: &Gfx, m: &MiniLayout, scene: &PartyScene<'_>, seat: Seat, my_target: bool) {
    let b = scene.game.battle();
    let me = scene.game.me();
    let cell = m.cell();
    let fx = &scene.fx[seat.index()];
    on_board(scene.game.board_skin(seat), || {
        draw_board_on_fill(m.board, cell, b.player(seat), fx, scene.time);
        draw_meter(gfx, m.meter, cell, b.incoming(seat), scene.time);
    });
    let out = b.player(seat).topped_out().is_some();
    let ally = b.team_of(seat) == b.team_of(me);
    // The marks: your target framed in your colour, anyone about to attack you in red.
    let aims_at_you = b.targets_of(seat).contains(me);
    let frame = Rect::new(
        m.board.x - 3.0,
        m.board.y - 3.0,
        m.board.w + 6.0,
        m.board.h + 6.0,
    );
    if my_target {
        outline(frame, 3.0, TARGET);
    }
    let small = (cell * 0.85).clamp(9.0, 16.0).round();
    let tag_y = m.tags.y + m.tags.h / 2.0;
    // A spectator's large board is seat `me`: its marks name its number, shortly.
    let (target_tag, at_you_tag) = if scene.game.watching() {
        ("TARGET", format!("→ {}", me.index() + 1))
    } else {
        ("YOUR TARGET", "→ YOU".to_owned())
    };
    if my_target {
        tag(
            gfx,
            target_tag,
            m.board.x,
            tag_y,
            small,
            Align::Left,
            TARGET,
        );
    }
    if aims_at_you && !ally {
        let x = m.board.right();
        tag(gfx, &at_you_tag, x, tag_y, small, Align::Right, THREAT);
    }
    if b.attackers_of(me).contains(seat) && !my_target {
        outline(frame, 2.0, alpha(THREAT, 0.8));
    }
    if out {
        knocked_out(gfx, m.board, cell, scene, seat);
    }
    // Name (with the number that targets it) and knock-outs; lines sent and badges under it.
    let f = scene.game.figures(seat);
    let text = (cell * 1.05).clamp(10.0, 18.0).round();
    let label = format!("{}  {}", seat.index() + 1, name_of(scene, seat));
    let label = if ally {
        format!("{label} (ally)")
    } else {
        label
    };
    let colour = if out {
        theme::TEXT_FAINT
    } else {
        team_colour(b, seat, me)
    };
    let kos = format!("KO {}", f.kos);
    let kos_w = gfx.width(&kos, text, Weight::Bold);
    gfx.text_mid(
        &gfx.fit(&label, m.name.w - kos_w - text * 0.5, text, Weight::Bold),
        m.name.x,
        m.name.y + m.name.h / 2.0,
        text,
        Weight::Bold,
        Align::Left,
        colour,
    );
    let ko_colour = if f.kos > 0 {
        theme::ACCENT
    } else {
        theme::TEXT_DIM
    };
    gfx.text_mid(
        &kos,
        m.name.right(),
        m.name.y + m.name.h / 2.0,
        text,
        Weight::Bold,
        Align::Right,
        ko_colour,
    );
    let line = if b.header().options.badges {
        format!("{} sent  ·  badges {}", f.sent, f.badges)
    } else {
        format!("{} sent", f.sent)
    };
    let size = gfx.fit_size(&line, m.figures.w, text * 0.9, Weight::Regular);
    gfx.text_mid(
        &line,
        m.figures.x,
        m.figures.y + m.figures.h / 2.0,
        size,
        Weight::Regular,
        Align::Left,
        theme::TEXT_DIM,
    );
}

/// A mark in a small board's tag strip (above the rows a piece can reach), on a dark backing.
fn tag(gfx: &Gfx, text: &str, x: f32, y: f32, size: f32, align: Align, colour: Color) {
    let w = gfx.width(text, size, Weight::Bold);
    let pad = (size * 0.3).round();
    let left = match align {
        Align::Right => x - w,
        Align::Center => x - w / 2.0,
        _ => x,
    };
    fill(
        Rect::new(left - pad, y - size * 0.65, w + 2.0 * pad, size * 1.3),
        alpha(theme::BACKGROUND, 0.9),
    );
    gfx.text_mid(text, x, y, size, Weight::Bold, align, colour);
}

/// A board that is out: greyed, with its place and who knocked it out.
fn knocked_out(gfx: &Gfx, board: Rect, cell: f32, scene: &PartyScene<'_>, seat: Seat) {
    let b = scene.game.battle();
    fill(board, alpha(BLACK, 0.55));
    let c = center(board);
    let size = (cell * 2.6).round();
    if let Some(place) = b.placement(seat) {
        gfx.banner(
            &ordinal(place).to_uppercase(),
            c.x,
            c.y - size * 0.4,
            size,
            theme::TEXT,
        );
    }
    let by = match b.knocked_out_by(seat) {
        Some(k) if k == scene.game.me() && !scene.game.watching() => "KO by you".to_owned(),
        Some(k) => format!("KO by {}", name_of(scene, k)),
        None => "topped out".to_owned(),
    };
    let small = (cell * 1.0).clamp(9.0, 22.0).round();
    let by = gfx.fit(&by, board.w - 4.0, small, Weight::Bold);
    gfx.banner(&by, c.x, c.y + size * 0.6, small, theme::TEXT_DIM);
}

/// The mode, the rule in force and the round.
fn draw_title(gfx: &Gfx, l: &PartyLayout, scene: &PartyScene<'_>) {
    let b = scene.game.battle();
    let o = b.header().options;
    // The strip short of a touch screen's back button.
    let strip = crate::input::taps::clear_of_back(l.title);
    let size = (strip.h * 0.42).round();
    let cy = strip.y + strip.h / 2.0;
    let mut rule = format!("TARGETING: {}", o.targeting.name().to_uppercase());
    if o.teams.is_some() {
        rule.push_str(&format!("  ·  {} TEAMS", b.teams()));
    }
    if o.badges {
        rule.push_str("  ·  BADGES");
    }
    let first_to = b.header().rules.first_to;
    if first_to > 1 {
        let wins: Vec<String> = b.wins().iter().map(u8::to_string).collect();
        rule.push_str(&format!(
            "  ·  ROUND {}  ·  {}",
            b.round() + 1,
            wins.join("-")
        ));
    }
    let rule_w = gfx.width(&rule, size, Weight::Bold);
    let title = gfx.fit(
        scene.title,
        (strip.w - rule_w - 40.0).max(40.0),
        size,
        Weight::Bold,
    );
    gfx.text_mid(
        &title,
        strip.x + 10.0,
        cy,
        size,
        Weight::Bold,
        Align::Left,
        theme::TEXT_DIM,
    );
    gfx.text_mid(
        &rule,
        strip.right() - 10.0,
        cy,
        size,
        Weight::Bold,
        Align::Right,
        theme::ACCENT,
    );
}

/// The countdown over your board, and the round's winner between rounds.
fn draw_banner(gfx: &Gfx, l: &PartyLayout, scene: &PartyScene<'_>) {
    let b = scene.game.battle();
    let c = center(l.own.board);
    let cell = l.own.cell();
    if let Some(left) = b.countdown_left().filter(|&f| f > 0) {
        let n = left.div_ceil(60).min(3);
        gfx.banner(
            &n.to_string(),
            c.x,
            c.y,
            (cell * 4.0).round(),
            theme::ACCENT,
        );
    }
    if let Phase::RoundOver { winner, .. } = b.phase() {
        let text = match winner {
            Some(team) => format!("{} WIN{} THE ROUND", winners(scene, team), plural(b, team)),
            None => "DRAW".to_owned(),
        };
        let text = gfx.fit(
            &text,
            l.own.board.w * 1.6,
            (cell * 1.1).round(),
            Weight::Bold,
        );
        gfx.banner(&text, c.x, c.y, (cell * 1.1).round(), theme::ACCENT);
    }
}

fn plural(b: &Battle, team: Team) -> &'static str {
    if b.members(team).len() > 1 { "" } else { "S" }
}

/// The names of `team`'s seats, "YOU" for yours.
fn winners(scene: &PartyScene<'_>, team: Team) -> String {
    let b = scene.game.battle();
    let list: Vec<String> = b
        .members(team)
        .iter()
        .map(|s| {
            if s == scene.game.me() && !scene.game.watching() {
                "YOU".to_owned()
            } else {
                name_of(scene, s).to_uppercase()
            }
        })
        .collect();
    list.join(" + ")
}

/// The results table over the boards: place, player, knock-outs, lines sent, badges, rounds.
fn draw_results(gfx: &Gfx, l: &PartyLayout, scene: &PartyScene<'_>) {
    let b = scene.game.battle();
    let winner = b.winner().map(|t| winners(scene, t)).unwrap_or_default();
    let rows = scene
        .game
        .results()
        .iter()
        .map(|(seat, f)| {
            let mine = *seat == scene.game.me() && !scene.game.watching();
            let colour = if mine {
                theme::ACCENT2
            } else {
                team_colour(b, *seat, scene.game.me())
            };
            let name = if mine {
                format!("{} (you)", name_of(scene, *seat))
            } else {
                name_of(scene, *seat).to_owned()
            };
            let rounds = b.wins().get(b.team_of(*seat).index()).copied().unwrap_or(0);
            TableRow {
                cells: vec![
                    f.place.map(ordinal).unwrap_or_else(|| "—".to_owned()),
                    name,
                    f.kos.to_string(),
                    f.sent.to_string(),
                    f.badges.to_string(),
                    rounds.to_string(),
                ],
                colour,
            }
        })
        .collect();
    let table = ResultsTable {
        title: format!(
            "MATCH OVER  ·  {winner} WIN{}",
            b.winner().map_or("", |t| plural(b, t))
        ),
        heads: vec!["PLACE", "PLAYER", "KOs", "SENT", "BADGES", "ROUNDS"],
        columns: vec![0.04, 0.15, 0.56, 0.68, 0.82, 0.96],
        rows,
        keys: scene.game.results_keys().to_owned(),
        buttons: scene.game.results_buttons(),
        width_rows: 22.0,
    };
    draw_results_table(gfx, l.window, &table);
}
