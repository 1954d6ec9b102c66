//! Every label fits its box: checked from the layout and the font files, at 1280×720 and at the
//! smallest window the game lays out for ([`crate::layout::MIN_WINDOW`]), not by eye.
//!
//! Each check takes the rectangle the drawing code gives a label (the same layout functions and
//! the same room helpers the renderer calls), the label's text size, and the font's glyph
//! advances ([`crate::render::metrics`]). A label passes when it fits at its size or after
//! shrinking to no less than [`MIN_SHRINK`] of it, which is what the renderer does
//! ([`crate::render::gfx::Gfx::fit_size`]); nothing is ever cut mid-word.

use sevenbag_core::{Clear, Spin};

use crate::layout::{MIN_WINDOW, list_layout, match_layout};
use crate::render::fx::clear_label;
use crate::render::gfx::Weight;
use crate::render::metrics::{MIN_SHRINK, Metrics, fit_size};
use crate::render::side::{clear_lines, readout_room};
use crate::render::widgets::{
    footer_hints, footer_right_room, footer_room, footer_size, key_cap_room, key_cap_size,
    key_caps, key_label_room, menu_label_room, menu_row_sizes, value_label_room, value_room,
    value_row_size,
};

/// Window sizes checked: the minimum, the common ones, and extreme shapes.
const SIZES: [(f32, f32); 7] = [
    MIN_WINDOW,
    (1280.0, 720.0),
    (1024.0, 768.0),
    (1366.0, 768.0),
    (1920.0, 1080.0),
    (800.0, 1440.0),
    (2560.0, 600.0),
];

/// Asserts `text` at `size` fits `room`, shrinking no further than [`MIN_SHRINK`].
fn assert_fits(m: &Metrics, what: &str, text: &str, size: f32, weight: Weight, room: f32) {
    let fitted = fit_size(|px| m.width(text, px, weight), size, room);
    let width = m.width(text, fitted, weight);
    assert!(
        width <= room + 0.5 && fitted >= (size * MIN_SHRINK).floor(),
        "{what}: {text:?} is {width:.0} px wide at {fitted} px (asked {size}) in a {room:.0} px box"
    );
}

fn every_clear_label() -> Vec<String> {
    let mut out = Vec::new();
    for spin in [Spin::None, Spin::Mini, Spin::Full] {
        for lines in 0..=4 {
            let clear = Clear {
                lines,
                spin,
                perfect: false,
            };
            out.extend(clear_label(clear));
        }
    }
    out
}

#[test]
fn every_clear_popup_fits_the_column_beside_the_well() {
    let m = Metrics::load().expect("fonts");
    let labels = every_clear_label();
    assert!(labels.iter().any(|l| l == "T-SPIN MINI SINGLE"));
    for (w, h) in SIZES {
        let l = match_layout(w, h);
        let cell = l.cell;
        let room = l.panels[0].popups.w - cell * 0.1;
        for label in &labels {
            let (first, rest) = clear_lines(label);
            let at = format!("clear popup at {w}x{h}");
            assert_fits(&m, &at, &first, cell * 0.82, Weight::Bold, room);
            if let Some(rest) = rest {
                assert_fits(&m, &at, &rest, cell * 0.82 * 0.8, Weight::Bold, room);
            }
        }
        for (text, size) in [("B2B ×99", 0.62), ("19 COMBO", 0.62), ("+20", 0.9)] {
            assert_fits(
                &m,
                &format!("popup at {w}x{h}"),
                text,
                cell * size,
                Weight::Bold,
                room,
            );
        }
    }
}

#[test]
fn the_stats_column_and_the_side_boxes_hold_their_labels() {
    let m = Metrics::load().expect("fonts");
    for (w, h) in SIZES {
        let l = match_layout(w, h);
        let cell = l.cell;
        let p = l.panels[0];
        let at = format!("stats at {w}x{h}");
        let room = p.stats.w - cell * 0.1;
        for label in ["PIECES", "PPS", "APM", "VS", "TIME"] {
            assert_fits(&m, &at, label, (cell * 0.42).round(), Weight::Bold, room);
        }
        for value in ["9999", "99.99", "999.99"] {
            assert_fits(&m, &at, value, (cell * 0.72).round(), Weight::Bold, room);
        }
        assert_fits(
            &m,
            &at,
            "59:59.99",
            (cell * 0.6).round(),
            Weight::Regular,
            room,
        );
        for (caption, r) in [("HOLD", p.hold), ("NEXT", p.next)] {
            let room = r.w - cell * 0.4;
            assert_fits(&m, &at, caption, (cell * 0.5).round(), Weight::Bold, room);
        }
    }
}

#[test]
fn the_network_readout_fits_beside_the_longest_connection_tag() {
    let m = Metrics::load().expect("fonts");
    // The longest readout an online match shows, beside the longest tag.
    let readout = "999 ms UDP · delay 20 f · rollback 20 f · 999 stalls";
    let tag = "RECONNECTING 30s";
    for (w, h) in SIZES {
        let l = match_layout(w, h);
        let small = (l.cell * 0.46).round();
        // A small panel (the opponent's in portrait) shows no readout.
        for p in l.panels.into_iter().filter(|p| !p.mini) {
            let room = readout_room(&p, small, m.width(tag, small, Weight::Bold));
            let at = format!("net readout at {w}x{h}");
            assert_fits(&m, &at, readout, small, Weight::Regular, room);
        }
    }
}

#[test]
fn the_middle_strip_and_the_banners_fit_over_the_wells() {
    let m = Metrics::load().expect("fonts");
    for (w, h) in SIZES {
        let l = match_layout(w, h);
        let cell = l.cell;
        let at = format!("middle at {w}x{h}");
        let middle = l.middle.w;
        assert_fits(
            &m,
            &at,
            "ROUND 99",
            (cell * 0.42).round(),
            Weight::Bold,
            middle,
        );
        assert_fits(
            &m,
            &at,
            "FIRST TO 7",
            (cell * 0.36).round(),
            Weight::Bold,
            middle,
        );
        assert_fits(
            &m,
            &at,
            "NEXT IN 9",
            (cell * 0.4).round(),
            Weight::Bold,
            middle,
        );
        assert_fits(&m, &at, "VS", cell.round(), Weight::Bold, middle);
        let board = l.panels[0].board.w;
        let at = format!("banner at {w}x{h}");
        for (text, size) in [
            ("VICTORY", 1.5),
            ("WINNER", 1.5),
            ("DEFEAT", 1.2),
            ("TOPPED OUT", 1.2),
            ("ROUND WON", 1.0),
            ("ROUND 99", 0.9),
            ("PERFECT", 1.1 * 1.4),
            ("7 – 7", 0.8),
            ("GO!", 5.2),
        ] {
            assert_fits(&m, &at, text, (cell * size).round(), Weight::Bold, board);
        }
    }
}

/// The two window sizes every screen is checked at: the smallest the game lays out for and the
/// default.
const SCREENS: [(f32, f32); 2] = [MIN_WINDOW, (1280.0, 720.0)];

/// Every footer of every screen with the longest right-hand text it
/// shows there.
fn every_footer() -> Vec<(String, &'static str)> {
    use crate::account::leaderboard as standings;
    use crate::menu::{self, welcome};
    use crate::versus::{lobby, online};
    use crate::{puzzles, replays, settings, solo};
    let server = "play.sevenbag.example:7878";
    let mut v: Vec<(String, &str)> = vec![
        (menu::FOOTER.into(), "Player_Name_16ch · v0.1.0"),
        (puzzles::FOOTER.into(), "offline"),
        (puzzles::FOOTER_CHOICE.into(), "offline"),
        (puzzles::FOOTER_BACK.into(), "offline"),
        (puzzles::PLAY_FOOTER.into(), "offline"),
        (replays::FOOTER.into(), ""),
        (replays::FOOTER_PAGE.into(), ""),
        (solo::FOOTER.into(), ""),
        ("↑ ↓ choose   Enter watch   Esc back".into(), ""),
        (standings::FOOTER.into(), server),
        (standings::TABLE_FOOTER.into(), server),
        (solo::boards_screen::FOOTER.into(), server),
        (welcome::FOOTER.into(), "Asked once"),
        (
            "↑ ↓ choose   ← → or Enter change   Esc back".into(),
            "offline",
        ),
        ("↑ ↓ choose   Enter start   Esc back".into(), "offline"),
        ("↑ ↓ choose   Enter back   Esc back".into(), "offline"),
    ];
    v.extend(lobby::footers().into_iter().map(|f| (f, server)));
    v.extend(
        settings::footers()
            .into_iter()
            .map(|f| (f.to_owned(), settings::FOOTER_RIGHT)),
    );
    v.extend(online::footers().into_iter().map(|f| (f, "ping 999 ms")));
    v.extend(
        crate::friends::rows::footers()
            .into_iter()
            .map(|f| (f, server)),
    );
    v
}

#[test]
fn every_list_screen_footer_fits_beside_its_right_hand_text() {
    let m = Metrics::load().expect("fonts");
    for (w, h) in SIZES {
        let l = list_layout(w, h, 16);
        let size = footer_size(l.unit);
        for (hints, right) in every_footer() {
            // The right-hand text is cut past its room (a typed server address can be long).
            let right_w = m
                .width(right, size, Weight::Regular)
                .min(footer_right_room(l.footer));
            let room = footer_room(l.footer, l.unit, right_w);
            let at = format!("footer at {w}x{h}");
            if crate::layout::is_portrait(w, h) {
                // Upright, the last hints may be left out, never cut: the first always shows.
                let (kept, px) =
                    footer_hints(|t, px| m.width(t, px, Weight::Regular), &hints, size, room);
                assert!(hints.starts_with(&kept), "{at}: {kept:?}");
                assert_fits(&m, &at, &kept, size, Weight::Regular, room);
                let _ = px;
            } else {
                assert_fits(&m, &at, &hints, size, Weight::Regular, room);
            }
        }
    }
}

/// Checks a settings-style row: each value fits half the row, and the label fits beside the
/// widest of them (beside a full half row for what players type, which is cut there).
fn assert_value_row_fits(
    m: &Metrics,
    at: &str,
    r: macroquad::math::Rect,
    unit: f32,
    (label, values, typed): (&str, Vec<String>, bool),
) {
    let size = value_row_size(unit);
    let mut widest: f32 = if typed { value_room(r) } else { 0.0 };
    for v in &values {
        assert_fits(m, at, v, size, Weight::Bold, value_room(r));
        let fitted = fit_size(|px| m.width(v, px, Weight::Bold), size, value_room(r));
        widest = widest.max(m.width(v, fitted, Weight::Bold));
    }
    assert_fits(
        m,
        at,
        label,
        size,
        Weight::Regular,
        value_label_room(r, unit, widest),
    );
}

#[test]
fn every_settings_row_fits_its_label_and_value() {
    use crate::settings;
    let m = Metrics::load().expect("fonts");
    for (w, h) in SCREENS {
        let l = list_layout(w, h, 60);
        let r = l.row(0);
        let at = format!("settings at {w}x{h}");
        for row in settings::value_rows() {
            assert_value_row_fits(&m, &at, r, l.unit, row);
        }
        for label in settings::key_row_labels() {
            let size = value_row_size(l.unit);
            assert_fits(
                &m,
                &at,
                label,
                size,
                Weight::Regular,
                key_label_room(r, l.unit),
            );
        }
        let cap = key_caps(r, l.unit)[0];
        let mut names: Vec<String> = crate::input::keys::all_labels();
        names.extend(
            crate::input::button::Button::all_names()
                .into_iter()
                .map(str::to_owned),
        );
        names.extend(["press a key".to_owned(), "—".to_owned()]);
        for name in names {
            let size = key_cap_size(l.unit);
            assert_fits(
                &m,
                &at,
                &name,
                size,
                Weight::Bold,
                key_cap_room(cap, l.unit),
            );
        }
        for label in ["Save and go back", "Discard changes", "Restore defaults"] {
            let (size, small) = menu_row_sizes(l.unit);
            let tag_w = m.width("Esc", small, Weight::Bold);
            let room = menu_label_room(r, l.unit, tag_w);
            assert_fits(&m, &at, label, size, Weight::Bold, room);
        }
    }
}

#[test]
fn every_online_form_fits_its_labels_values_and_host_rows() {
    use crate::versus::lobby;
    let m = Metrics::load().expect("fonts");
    for (w, h) in SCREENS {
        let l = list_layout(w, h, 11);
        let r = l.row(0);
        let at = format!("online form at {w}x{h}");
        for row in lobby::value_rows() {
            assert_value_row_fits(&m, &at, r, l.unit, row);
        }
        let (size, small) = menu_row_sizes(l.unit);
        for (label, tag) in lobby::go_labels()
            .into_iter()
            .map(|g| (g, "ENTER"))
            .chain([("Back", "ESC")])
        {
            let room = menu_label_room(r, l.unit, m.width(tag, small, Weight::Bold));
            assert_fits(&m, &at, label, size, Weight::Bold, room);
        }
        // A LAN game: the host's name (typed, so it may be cut) with its room, beside the
        // longest address; a usual name keeps room enough.
        let tag_w = m.width("255.255.255.255:65535", small, Weight::Bold);
        let room = menu_label_room(r, l.unit, tag_w);
        assert_fits(
            &m,
            &at,
            "Player_16_chars · room ABCDE",
            size,
            Weight::Bold,
            room,
        );
    }
}

#[test]
fn the_room_card_fits_its_code_and_the_players_names() {
    use crate::versus::online::view::{code_text, seat_name_room, seat_sizes, spaced_code};
    let m = Metrics::load().expect("fonts");
    for (w, h) in SCREENS {
        let l = list_layout(w, h, 2);
        let (card_w, unit) = (l.side.w, l.unit);
        let at = format!("room card at {w}x{h}");
        let (size, room) = code_text(card_w, unit);
        for code in ["WWWWW", "MMMMM", "ABCDE"] {
            assert_fits(&m, &at, &spaced_code(code), size, Weight::Bold, room);
        }
        let (name_size, tag_size) = seat_sizes(unit);
        for tag in ["RECONNECTING 99s", "NOT READY", "WAITING", "READY", "LEFT"] {
            let room = seat_name_room(card_w, unit, m.width(tag, tag_size, Weight::Bold));
            // The longest name the server accepts (16 characters), as the player sees it.
            for name in ["Player_Name_16ch  (you)", "MMMMMMMMMMMMMMMM", "empty seat"] {
                assert_fits(&m, &at, name, name_size, Weight::Bold, room);
            }
        }
    }
}

#[test]
fn every_main_menu_entry_fits_its_row_beside_its_tag() {
    let m = Metrics::load().expect("fonts");
    let entries = crate::menu::labels();
    for (w, h) in SIZES {
        let l = crate::layout::list_layout_all(w, h, entries.len());
        let r = l.row(0);
        let (size, small) = menu_row_sizes(l.unit);
        assert!(
            r.h >= size && r.h >= small * 1.7,
            "menu rows at {w}x{h} are {} px tall for {size} px labels",
            r.h
        );
        for (label, tag) in &entries {
            let tag_w = if tag.is_empty() {
                0.0
            } else {
                m.width(tag, small, Weight::Bold)
            };
            let room = menu_label_room(r, l.unit, tag_w);
            assert_fits(
                &m,
                &format!("menu at {w}x{h}"),
                label,
                size,
                Weight::Bold,
                room,
            );
        }
    }
}

/// Every heading the game writes itself (title, subtitle), and subtitles that carry a server's
/// address or name at a length players use.
const HEADINGS: [(&str, &str); 22] = [
    ("Settings", "Saved to your config directory when you leave"),
    ("Puzzles", "Generated puzzles, each proved solvable"),
    ("Replays", "Finished matches, frame for frame"),
    (
        "Welcome — choose your name",
        "Opponents and spectators see it; ranked play registers it",
    ),
    ("SOLO", "40 lines, Blitz and Zen"),
    ("PAST RUNS", "40 LINES · the last 20 runs, newest first"),
    (
        "Practice vs bot",
        "An offline versus match against an automatic opponent",
    ),
    ("Local 2 players", "Two players, one keyboard, same pieces"),
    ("Quick match", "Play the next player waiting on your server"),
    ("Ranked match", "Play someone near your rating"),
    ("Create room", "A private room with a code to share"),
    ("Join room", "Type the code a friend gave you"),
    ("Spectate", "Watch a live match by its room code"),
    ("Host on LAN", "Players on your network join you directly"),
    (
        "Join on LAN",
        "Games announced on your network, or an address",
    ),
    (
        "Quick match",
        "Connecting to wss://play.sevenbag.example.org:4433",
    ),
    (
        "Ranked match",
        "Connected to Sevenbag community server (Europe)",
    ),
    ("Room ABCD", "Watching — the match appears when it starts"),
    (
        "Room ABCD",
        "Share the code; the match starts when both players are ready",
    ),
    (
        "Leaderboard",
        "Connecting to wss://play.sevenbag.example.org:4433…",
    ),
    (
        "Leaderboard",
        "Ranked players on wss://play.sevenbag.example.org:4433",
    ),
    ("Online", "Something went wrong"),
];

#[test]
fn every_heading_and_subtitle_fits_its_strip_without_cutting_a_word() {
    use crate::render::heading::{SUBTITLE_LINES, fit_heading, subtitle_size, title_size};
    let m = Metrics::load().expect("fonts");
    let width = |s: &str, size: f32, w: Weight| m.width(s, size, w);
    for (w, h) in SIZES {
        let l = list_layout(w, h, 8);
        for (title, subtitle) in HEADINGS {
            let at = format!("heading at {w}x{h}");
            let fit = fit_heading(&width, l.title.w, l.unit, title, subtitle);
            assert!(!fit.cut, "{at}: {subtitle:?} was cut: {fit:?}");
            assert!(fit.subtitle.len() <= SUBTITLE_LINES, "{at}: {fit:?}");
            assert_eq!(fit.subtitle.join(" "), subtitle, "{at}: words lost");
            assert!(
                fit.subtitle_size >= (subtitle_size(l.unit) * MIN_SHRINK).floor(),
                "{at}: {fit:?}"
            );
            for line in &fit.subtitle {
                let lw = m.width(line, fit.subtitle_size, Weight::Regular);
                assert!(lw <= l.title.w + 0.5, "{at}: {line:?} is {lw:.0} px");
            }
            assert_fits(&m, &at, title, title_size(l.unit), Weight::Bold, l.title.w);
            // A second subtitle line stays above the first row.
            let last_base = l.title.y
                + title_size(l.unit)
                + l.unit * 1.8
                + (fit.subtitle.len() - 1) as f32 * (fit.subtitle_size * 1.3).round();
            assert!(last_base <= l.rows.y, "{at}: subtitle runs into the rows");
        }
    }
}

#[test]
fn the_logo_subtitle_and_side_panel_headings_fit() {
    let m = Metrics::load().expect("fonts");
    for (w, h) in SIZES {
        let l = list_layout(w, h, 8);
        let at = format!("logo at {w}x{h}");
        let size = (l.unit * 0.85).round();
        assert_fits(
            &m,
            &at,
            "head-to-head block stacking",
            size,
            Weight::Regular,
            l.title.w,
        );
        // The side panel is left out when narrower than 8 units (`widgets::side_panel`).
        if l.side.w < l.unit * 8.0 {
            continue;
        }
        let room = l.side.w - 2.0 * l.unit;
        for head in [
            "Name rules",
            "Practice vs bot",
            "Local 2 players",
            "Match",
            "Run",
        ] {
            let at = format!("side panel at {w}x{h}");
            assert_fits(&m, &at, head, (l.unit * 1.1).round(), Weight::Bold, room);
        }
    }
}

#[test]
fn the_solo_result_cards_key_lines_stay_inside_the_card() {
    use crate::solo::run_view::{SoloLayout, key_lines, result_card_rect, result_keys};
    use sevenbag_core::SoloMode;
    let m = Metrics::load().expect("fonts");
    for (w, h) in SIZES {
        let l = SoloLayout::new(w, h);
        let card = result_card_rect(&l);
        let room = card.w - l.cell;
        for mode in SoloMode::ALL {
            for best in [false, true] {
                for server in [
                    None,
                    Some("127.0.0.1:7878"),
                    Some("play.sevenbag.example.org:4433"),
                ] {
                    let keys = result_keys(mode, best, server);
                    let size = (l.cell * 0.5).round();
                    let (lines, px) =
                        key_lines(&keys, room, size, |t, px| m.width(t, px, Weight::Bold));
                    for line in &lines {
                        let width = m.width(line, px, Weight::Bold);
                        assert!(
                            width <= room + 0.5,
                            "{mode:?} card at {w}x{h}: {line:?} is {width:.0} px in {room:.0}"
                        );
                    }
                }
            }
        }
    }
}
