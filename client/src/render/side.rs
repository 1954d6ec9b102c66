//! Everything around one well: hold, next queue, garbage meter, stats, popups and name plate.

use macroquad::prelude::*;
use sevenbag_core::Player;

use super::cells::{Style, piece_picture};
use super::gfx::{Align, Gfx, Weight, fill, panel_over_fill};
use super::theme::{self, alpha};
use super::{clock, hundredths, seat_colour};
use crate::layout::PanelLayout;
use crate::match_source::{NetStatus, Peer};
use crate::render::fx::{Popup, SeatFx};

/// Size of the preview blocks relative to a board cell.
const PREVIEW: f32 = 0.78;

/// Draws the hold box over its fill (drawn with the background: [`super::gfx::background_with`]).
pub fn draw_hold(gfx: &Gfx, r: Rect, cell: f32, p: &Player) {
    panel_over_fill(gfx, r, Some("HOLD"), cell);
    if let Some(kind) = p.hold() {
        let style = if p.hold_used() {
            Style::Dim
        } else {
            Style::Solid
        };
        let cy = r.y + cell * 1.1 + (r.h - cell * 1.1) / 2.0;
        piece_picture(kind, r.x + r.w / 2.0, cy, (cell * PREVIEW).round(), style);
    }
}

/// Draws the next queue (five pieces, nearest on top and a little larger) over its fill
/// (drawn with the background).
pub fn draw_next(gfx: &Gfx, r: Rect, cell: f32, p: &Player) {
    panel_over_fill(gfx, r, Some("NEXT"), cell);
    let slot = (r.h - cell * 1.2) / 5.0;
    for (i, kind) in p.next().iter().enumerate() {
        let cy = r.y + cell * 1.2 + slot * (i as f32 + 0.5);
        let s = if i == 0 { PREVIEW * 1.08 } else { PREVIEW };
        piece_picture(*kind, r.x + r.w / 2.0, cy, (cell * s).round(), Style::Solid);
    }
}

/// Draws the incoming-garbage meter: lines ready to rise in red at the bottom, lines still
/// travelling in orange above them, and the total beside it. `incoming` is the seat's
/// (queued in total, ready to rise now), as the core's `incoming` gives it.
pub fn draw_meter(gfx: &Gfx, r: Rect, cell: f32, incoming: (u32, u32), time: f32) {
    fill(r, theme::WELL);
    super::gfx::outline(r, 1.0, alpha(theme::FRAME, 0.5));
    let (total, ready) = incoming;
    let shown = total.min(20) as f32;
    let ready = ready.min(total).min(20) as f32;
    if shown > 0.0 {
        let queued_h = (shown - ready) * cell;
        let ready_h = ready * cell;
        let pulse = if super::look::reduced_motion() {
            1.0
        } else {
            0.75 + 0.25 * (time * 10.0).sin()
        };
        fill(
            Rect::new(r.x, r.bottom() - ready_h, r.w, ready_h),
            alpha(theme::GARBAGE_READY, pulse),
        );
        fill(
            Rect::new(r.x, r.bottom() - ready_h - queued_h, r.w, queued_h),
            theme::GARBAGE_QUEUED,
        );
        // Separators between lines.
        for i in 1..shown as u32 {
            fill(
                Rect::new(r.x, r.bottom() - i as f32 * cell, r.w, 1.0),
                alpha(BLACK, 0.45),
            );
        }
        let top = r.bottom() - shown * cell;
        gfx.text(
            &total.to_string(),
            r.x + r.w / 2.0,
            top - cell * 0.2,
            (cell * 0.62).round(),
            Weight::Bold,
            Align::Center,
            if ready > 0.0 {
                theme::GARBAGE_READY
            } else {
                theme::GARBAGE_QUEUED
            },
        );
    }
}

/// Draws the stats column: pieces, PPS, APM, VS, the finesse faults when they are counted
/// (practice) and the round time, right-aligned toward the board.
pub fn draw_stats(gfx: &Gfx, r: Rect, cell: f32, p: &Player, finesse: Option<u32>) {
    let s = p.stats();
    let mut rows = vec![
        ("PIECES", format!("{}", s.pieces)),
        ("PPS", hundredths(s.pps_x100())),
        ("APM", hundredths(s.apm_x100())),
        ("VS", hundredths(s.vs_x100())),
    ];
    if let Some(faults) = finesse {
        rows.push(("FINESSE", faults.to_string()));
    }
    let x = r.right() - cell * 0.1;
    let row_h = cell * 1.45;
    let mut y = r.y;
    for (label, value) in rows {
        gfx.text(
            label,
            x,
            y + cell * 0.5,
            (cell * 0.42).round(),
            Weight::Bold,
            Align::Right,
            theme::TEXT_FAINT,
        );
        gfx.text(
            &value,
            x,
            y + cell * 1.25,
            (cell * 0.72).round(),
            Weight::Bold,
            Align::Right,
            theme::TEXT,
        );
        y += row_h;
    }
    gfx.text(
        "TIME",
        x,
        y + cell * 0.5,
        (cell * 0.42).round(),
        Weight::Bold,
        Align::Right,
        theme::TEXT_FAINT,
    );
    gfx.text(
        &clock(s.frames),
        x,
        y + cell * 1.2,
        (cell * 0.6).round(),
        Weight::Regular,
        Align::Right,
        theme::TEXT_DIM,
    );
}

fn popup(gfx: &Gfx, p: &Popup, x: f32, y: f32, size: f32) {
    let pop = p.pop();
    let c = alpha(p.colour, p.opacity());
    if pop > 1.0 {
        // Popping: drawn from glyphs at the pop's largest size, so the animation rasterises
        // one extra size, not one per pixel (`Gfx::text_from`).
        let (now, peak) = ((size * pop).round(), (size * Popup::PEAK).round());
        gfx.text_from(&p.text, x, y, now, peak, Weight::Bold, Align::Right, c);
    } else {
        gfx.text(&p.text, x, y, size.round(), Weight::Bold, Align::Right, c);
    }
}

/// The clear popup's lines: long names break after the spin ("T-SPIN" / "MINI DOUBLE").
pub fn clear_lines(text: &str) -> (String, Option<String>) {
    match text.split_once(' ') {
        Some((a, b)) if text.starts_with("T-SPIN") => (a.to_owned(), Some(b.to_owned())),
        _ => (text.to_owned(), None),
    }
}

/// Draws the clear-kind, back-to-back, combo and attack popups, right-aligned toward the board.
pub fn draw_popups(gfx: &Gfx, r: Rect, cell: f32, fx: &SeatFx) {
    let x = r.right() - cell * 0.1;
    let mut y = r.y + cell * 0.9;
    if let Some(p) = &fx.clear {
        let (first, rest) = clear_lines(&p.text);
        let size = cell * 0.82;
        // Each line shrinks to the column's width ("MINI SINGLE" is the widest): never cut.
        let room = r.w - cell * 0.1;
        let first_size = gfx.fit_size(&first, room, size, Weight::Bold);
        let first = Popup {
            text: first,
            ..p.clone()
        };
        popup(gfx, &first, x, y, first_size);
        y += size * 1.1;
        if let Some(rest) = rest {
            let rest_size = gfx.fit_size(&rest, room, size * 0.8, Weight::Bold);
            let rest = Popup {
                text: rest,
                ..p.clone()
            };
            popup(gfx, &rest, x, y, rest_size);
            y += size;
        }
    }
    y += cell * 0.3;
    for (p, size) in [(&fx.b2b, 0.62), (&fx.combo, 0.62), (&fx.sent, 0.9)] {
        if let Some(p) = p {
            popup(gfx, p, x, y, cell * size);
            y += cell * (size + 0.45);
        }
    }
}

/// Draws the name plate (name, round-win pips) and the connection line under the board.
#[allow(clippy::too_many_arguments)]
pub fn draw_plate(
    gfx: &Gfx,
    p: &PanelLayout,
    cell: f32,
    name: &str,
    wins: u8,
    first_to: u8,
    peer: &Peer,
    net: &NetStatus,
    local: bool,
) {
    let b = p.board;
    let size = (cell * 0.75).round();
    let cy = p.name.y + p.name.h / 2.0;
    // Pips: filled for rounds won, hollow for rounds still needed.
    let pip_r = (cell * 0.22).max(3.0);
    let pip_gap = pip_r * 2.8;
    let shown = first_to.min(9);
    let pips_w = f32::from(shown) * pip_gap;
    // A long name shrinks first; only a name too long even then is cut (names are typed by
    // players, up to 24 characters).
    let name_room = b.w - pips_w - cell * 0.4;
    let size = gfx.fit_size(name, name_room, size, Weight::Bold);
    let name = gfx.fit(name, name_room, size, Weight::Bold);
    draw_rectangle(
        b.x - cell * 0.25,
        cy - size * 0.55,
        cell * 0.12,
        size * 1.1,
        seat_colour(local),
    );
    gfx.text_mid(&name, b.x, cy, size, Weight::Bold, Align::Left, theme::TEXT);
    for i in 0..shown {
        let x = b.right() - pip_r - f32::from(shown - 1 - i) * pip_gap;
        if i < wins {
            draw_circle(x, cy, pip_r, theme::ACCENT);
        } else {
            draw_circle_lines(x, cy, pip_r, 1.5, theme::TEXT_FAINT);
        }
    }
    let small = (cell * 0.46).round();
    let ny = p.net.y + p.net.h / 2.0;
    let tag_colour = match peer {
        Peer::Connected | Peer::Local => theme::GOOD,
        Peer::Bot => theme::TEXT_DIM,
        Peer::Reconnecting { .. } => theme::GARBAGE_QUEUED,
        Peer::Left => theme::BAD,
        Peer::Recorded => theme::TEXT_DIM,
    };
    draw_circle(b.x + small * 0.35, ny, small * 0.25, tag_colour);
    let tag = peer.tag();
    gfx.text_mid(
        &tag,
        b.x + small,
        ny,
        small,
        Weight::Bold,
        Align::Left,
        tag_colour,
    );
    // The readout takes what the tag leaves of the plate, smaller on narrow windows.
    let readout = net.readout();
    let room = readout_room(p, small, gfx.width(&tag, small, Weight::Bold));
    let readout_size = gfx.fit_size(&readout, room, small, Weight::Regular);
    gfx.text_mid(
        &readout,
        p.net.right(),
        ny,
        readout_size,
        Weight::Regular,
        Align::Right,
        theme::TEXT_FAINT,
    );
}

/// The width the network readout may use on the line under the name plate of panel `p`: from
/// after the connection tag (`tag_w` wide at text size `small`, starting at the board's left
/// edge) to the panel's right edge, under the board and the next queue.
pub fn readout_room(p: &PanelLayout, small: f32, tag_w: f32) -> f32 {
    (p.net.right() - (p.board.x + small + tag_w + small * 0.8)).max(0.0)
}
