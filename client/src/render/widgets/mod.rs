//! The pieces of the list screens: title, rows, value rows, side panel, footer ([`footer`]'s
//! file) and notices and modal boxes ([`modal`]'s).

use macroquad::prelude::*;
use sevenbag_core::PieceKind;

use super::cells::{Style, block};
use super::gfx::{Align, Gfx, Weight, fill, outline};
use super::theme::{self, alpha, mix};

mod footer;
mod modal;
pub mod targets;

pub use footer::footer;
#[cfg(test)]
pub use footer::{footer_hints, footer_right_room, footer_room, footer_size};
pub use modal::{modal, modal_layout, notice};

/// Draws the game's logo: "SEVENBAG" with each letter on a piece colour, and a subtitle.
pub fn logo(gfx: &Gfx, r: Rect, unit: f32, subtitle: &str) {
    let size = (unit * 3.2).round();
    let word = "SEVENBAG";
    let mut x = r.x;
    let base = r.y + size * 0.95;
    for (i, ch) in word.chars().enumerate() {
        let kind = PieceKind::ALL[i % 7];
        let s = ch.to_string();
        let w = gfx.width(&s, size, Weight::Bold);
        gfx.text(
            &s,
            x + unit * 0.12,
            base + unit * 0.12,
            size,
            Weight::Bold,
            Align::Left,
            alpha(BLACK, 0.5),
        );
        gfx.text(
            &s,
            x,
            base,
            size,
            Weight::Bold,
            Align::Left,
            mix(theme::piece_colour(kind), WHITE, 0.15),
        );
        x += w + unit * 0.1;
    }
    // A tiny T-piece mark after the word.
    let s = (unit * 0.7).round();
    let tx = x + unit * 0.6;
    let ty = base - s * 2.0;
    for (dx, dy) in [(0.0, 1.0), (1.0, 1.0), (2.0, 1.0), (1.0, 0.0)] {
        block(
            tx + dx * s,
            ty + dy * s,
            s,
            theme::piece_colour(PieceKind::T),
            Style::Solid,
        );
    }
    let size = (unit * 0.85).round();
    gfx.text(
        subtitle,
        r.x,
        base + unit * 1.5,
        gfx.fit_size(subtitle, r.w, size, Weight::Regular),
        Weight::Regular,
        Align::Left,
        theme::TEXT_DIM,
    );
}

pub use super::heading::heading;

/// The state of one row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowState {
    /// The keyboard/mouse cursor is on it.
    pub selected: bool,
    /// It can be used (online entries in an offline build still can: they explain themselves).
    pub enabled: bool,
}

fn row_back(r: Rect, unit: f32, state: RowState, time: f32) {
    if state.selected {
        let glow = 0.5 + 0.5 * (time * 4.0).sin();
        fill(r, alpha(mix(theme::PANEL, theme::ACCENT, 0.12), 0.95));
        outline(r, 1.0, alpha(theme::ACCENT, 0.35 + 0.25 * glow));
        draw_rectangle(r.x, r.y, unit * 0.22, r.h, theme::ACCENT);
    } else {
        fill(r, alpha(theme::PANEL, 0.75));
    }
}

/// Text sizes of a menu row: the label and the tag.
pub fn menu_row_sizes(unit: f32) -> (f32, f32) {
    ((unit * 1.0).round(), (unit * 0.6).round())
}

/// The width a menu row's label may take: from its left inset (the selected row's, the larger)
/// to a gap before the tag box (`tag_w` is the tag's text width; 0 without a tag).
pub fn menu_label_room(r: Rect, unit: f32, tag_w: f32) -> f32 {
    let tag_box = if tag_w > 0.0 {
        tag_w + unit * 0.8 + unit * 0.6 + unit * 0.5
    } else {
        unit * 0.5
    };
    r.w - unit * 1.0 - tag_box
}

/// A menu entry: label on the left, a small tag on the right. A label too long for a narrow
/// window shrinks to the room the tag leaves it (and one players typed, a LAN host's name, is
/// cut with "…" if even that is not enough).
pub fn menu_row(gfx: &Gfx, r: Rect, unit: f32, label: &str, tag: &str, state: RowState, time: f32) {
    targets::record(label, r);
    // A key's name is no tag on a touch screen (the row is tapped).
    let names_key = tag.eq_ignore_ascii_case("enter") || tag.eq_ignore_ascii_case("esc");
    let tag = if names_key && crate::input::taps::shown() {
        ""
    } else {
        tag
    };
    row_back(r, unit, state, time);
    let cy = r.y + r.h / 2.0;
    let (size, small) = menu_row_sizes(unit);
    let colour = match (state.selected, state.enabled) {
        (true, _) => theme::TEXT,
        (false, true) => mix(theme::TEXT, theme::TEXT_DIM, 0.35),
        (false, false) => theme::TEXT_FAINT,
    };
    let x = r.x + unit * (if state.selected { 1.0 } else { 0.8 });
    let tag_w = if tag.is_empty() {
        0.0
    } else {
        gfx.width(tag, small, Weight::Bold)
    };
    let (label, size) = shrink_then_cut(
        gfx,
        label,
        menu_label_room(r, unit, tag_w),
        size,
        Weight::Bold,
    );
    gfx.text_mid(&label, x, cy, size, Weight::Bold, Align::Left, colour);
    if !tag.is_empty() {
        let tw = tag_w + unit * 0.8;
        let tag_r = Rect::new(
            r.right() - tw - unit * 0.6,
            cy - small * 0.85,
            tw,
            small * 1.7,
        );
        outline(tag_r, 1.0, alpha(theme::TEXT_FAINT, 0.8));
        gfx.text_mid(
            tag,
            tag_r.x + tag_r.w / 2.0,
            cy,
            small,
            Weight::Bold,
            Align::Center,
            theme::TEXT_DIM,
        );
    }
}

/// The text size of a settings row's label and value.
pub fn value_row_size(unit: f32) -> f32 {
    (unit * 0.85).round()
}

/// The inset of a settings row's label (from the left edge) and value (from the right edge).
fn value_inset(unit: f32) -> f32 {
    unit * 0.9
}

/// The widest a settings row's value may be: half the row.
pub fn value_room(r: Rect) -> f32 {
    r.w * 0.5
}

/// The width a settings row's label may take beside a value `value_w` wide: from its inset to a
/// gap before the value.
pub fn value_label_room(r: Rect, unit: f32, value_w: f32) -> f32 {
    r.w - 2.0 * value_inset(unit) - value_w - unit * 0.8
}

/// The width a key row's label may take: from its inset to a gap before the first key cap.
pub fn key_label_room(r: Rect, unit: f32) -> f32 {
    key_caps(r, unit)[0].x - r.x - value_inset(unit) - unit * 0.5
}

/// The text size of a key cap's key name.
pub fn key_cap_size(unit: f32) -> f32 {
    (unit * 0.72).round()
}

/// The width a key cap's text may take.
pub fn key_cap_room(cap: Rect, unit: f32) -> f32 {
    cap.w - unit * 0.4
}

/// Shrinks `text` to fit `max_w` ([`Gfx::fit_size`]); text that still does not fit at the
/// smallest size (only what players type can be that long: the layout tests check the game's
/// own labels) is then cut with an ellipsis. Returns the text and its size.
pub fn shrink_then_cut(
    gfx: &Gfx,
    text: &str,
    max_w: f32,
    size: f32,
    weight: Weight,
) -> (String, f32) {
    let size = gfx.fit_size(text, max_w, size, weight);
    (gfx.fit(text, max_w, size, weight), size)
}

/// The background and left-hand label shared by settings rows, the label shrunk to `room`;
/// returns the row's centre line.
#[allow(clippy::too_many_arguments)]
fn labelled_row(
    gfx: &Gfx,
    r: Rect,
    unit: f32,
    label: &str,
    room: f32,
    state: RowState,
    time: f32,
) -> f32 {
    row_back(r, unit, state, time);
    let cy = r.y + r.h / 2.0;
    let colour = if state.selected {
        theme::TEXT
    } else {
        mix(theme::TEXT, theme::TEXT_DIM, 0.4)
    };
    let x = r.x + value_inset(unit);
    let size = gfx.fit_size(label, room, value_row_size(unit), Weight::Regular);
    gfx.text_mid(label, x, cy, size, Weight::Regular, Align::Left, colour);
    cy
}

/// A setting: label on the left, value on the right with ‹ › hints when selected. The value
/// shrinks to half the row (and what players type is cut with "…" past that); the label
/// shrinks to the room the value leaves it.
#[allow(clippy::too_many_arguments)]
pub fn value_row(
    gfx: &Gfx,
    r: Rect,
    unit: f32,
    label: &str,
    value: &str,
    state: RowState,
    editing: bool,
    time: f32,
) {
    targets::record(label, r);
    let size = value_row_size(unit);
    let vx = r.right() - value_inset(unit);
    let value_colour = if editing {
        theme::ACCENT
    } else if state.selected {
        theme::ACCENT2
    } else {
        theme::TEXT
    };
    let cursor = editing && (time * 2.0).fract() < 0.5;
    if value.is_empty() {
        // An empty field shows a hint, and the cursor after it while typing.
        let hint = if editing { "type here" } else { "—" };
        let cw = if editing {
            gfx.width("▏", size, Weight::Bold)
        } else {
            0.0
        };
        let hint_w = gfx.width(hint, size, Weight::Regular) + cw;
        let cy = labelled_row(
            gfx,
            r,
            unit,
            label,
            value_label_room(r, unit, hint_w),
            state,
            time,
        );
        gfx.text_mid(
            hint,
            vx - cw,
            cy,
            size,
            Weight::Regular,
            Align::Right,
            theme::TEXT_FAINT,
        );
        if cursor {
            gfx.text_mid("▏", vx, cy, size, Weight::Bold, Align::Right, value_colour);
        }
        return;
    }
    let shown = if cursor {
        format!("{value}▏")
    } else {
        value.to_owned()
    };
    let (shown, vsize) = shrink_then_cut(gfx, &shown, value_room(r), size, Weight::Bold);
    let value_w = gfx.width(&shown, vsize, Weight::Bold);
    let cy = labelled_row(
        gfx,
        r,
        unit,
        label,
        value_label_room(r, unit, value_w),
        state,
        time,
    );
    gfx.text_mid(
        &shown,
        vx,
        cy,
        vsize,
        Weight::Bold,
        Align::Right,
        value_colour,
    );
}

/// Marks the value of a [`value_row`] as selected (a used room code that typing replaces): a
/// band of the accent over it.
pub fn select_value(gfx: &Gfx, r: Rect, unit: f32, value: &str) {
    let size = value_row_size(unit);
    let w = gfx
        .width(&format!("{value}▏"), size, Weight::Bold)
        .min(value_room(r));
    let x = r.right() - value_inset(unit) - w;
    fill(
        Rect::new(
            x - unit * 0.15,
            r.y + r.h * 0.18,
            w + unit * 0.3,
            r.h * 0.64,
        ),
        alpha(theme::ACCENT, 0.3),
    );
}

/// A section header inside a list.
pub fn section_row(gfx: &Gfx, r: Rect, unit: f32, text: &str) {
    let cy = r.y + r.h * 0.6;
    let size = (unit * 0.62).round();
    gfx.text_mid(
        text,
        r.x + unit * 0.2,
        cy,
        size,
        Weight::Bold,
        Align::Left,
        theme::ACCENT,
    );
    let w = gfx.width(text, size, Weight::Bold);
    draw_rectangle(
        r.x + w + unit * 0.8,
        cy,
        r.w - w - unit,
        1.0,
        alpha(theme::FRAME, 0.7),
    );
}

/// Breaks `text` into lines no wider than `max_w` (paragraphs split on '\n').
pub fn wrap(gfx: &Gfx, text: &str, max_w: f32, size: f32) -> Vec<String> {
    let measure = |s: &str, size: f32| gfx.width(s, size, Weight::Regular);
    text.split('\n')
        .flat_map(|para| super::heading::wrap_words(&measure, para, max_w, size))
        .collect()
}

/// The description panel beside a list: a heading and wrapped body text. The panel is only as
/// tall as its text (within `r`); returns the rectangle it used.
pub fn side_panel(gfx: &Gfx, r: Rect, unit: f32, heading: &str, body: &str) -> Rect {
    if r.w < unit * 8.0 {
        return Rect::new(r.x, r.y, r.w, 0.0);
    }
    let pad = unit * 1.0;
    let hsize = (unit * 1.1).round();
    let size = (unit * 0.8).round();
    let line_h = size * 1.45;
    let lines = wrap(gfx, body, r.w - 2.0 * pad, size);
    let content = pad + hsize + unit * 1.6 + line_h * lines.len() as f32 + pad;
    let used = Rect::new(r.x, r.y, r.w, content.clamp(unit * 6.0, r.h));
    fill(used, alpha(theme::PANEL, 0.8));
    outline(used, 1.0, alpha(theme::FRAME, 0.6));
    draw_rectangle(
        used.x,
        used.y,
        used.w,
        unit * 0.12,
        alpha(theme::ACCENT, 0.6),
    );
    gfx.text(
        heading,
        r.x + pad,
        r.y + pad + hsize,
        gfx.fit_size(heading, r.w - 2.0 * pad, hsize, Weight::Bold),
        Weight::Bold,
        Align::Left,
        theme::TEXT,
    );
    let mut y = r.y + pad + hsize + unit * 1.6;
    for line in lines {
        if y > used.bottom() - pad * 0.5 {
            break;
        }
        gfx.text(
            &line,
            r.x + pad,
            y,
            size,
            Weight::Regular,
            Align::Left,
            theme::TEXT_DIM,
        );
        y += line_h;
    }
    used
}

/// A key binding row: the action on the left, two key caps on the right. `slot` is the cap the
/// cursor is on (when the row is selected); `capturing` makes that cap blink "press a key".
#[allow(clippy::too_many_arguments)]
pub fn key_row(
    gfx: &Gfx,
    r: Rect,
    unit: f32,
    label: &str,
    keys: [Option<String>; 2],
    slot: usize,
    capturing: bool,
    state: RowState,
    time: f32,
) {
    let cy = labelled_row(gfx, r, unit, label, key_label_room(r, unit), state, time);
    for (i, rect) in key_caps(r, unit).into_iter().enumerate() {
        let on = state.selected && i == slot;
        let blink = capturing && on && (time * 3.0).fract() < 0.5;
        let back = if on {
            alpha(theme::ACCENT2, 0.18)
        } else {
            alpha(theme::WELL, 0.8)
        };
        fill(rect, back);
        outline(
            rect,
            1.0,
            if on {
                theme::ACCENT2
            } else {
                alpha(theme::FRAME, 0.9)
            },
        );
        let (text, c) = if capturing && on {
            (
                "press a key".to_owned(),
                if blink {
                    theme::ACCENT
                } else {
                    theme::TEXT_DIM
                },
            )
        } else {
            match &keys[i] {
                Some(k) => (k.clone(), theme::TEXT),
                None => ("—".to_owned(), theme::TEXT_FAINT),
            }
        };
        let (text, small) = shrink_then_cut(
            gfx,
            &text,
            key_cap_room(rect, unit),
            key_cap_size(unit),
            Weight::Bold,
        );
        gfx.text_mid(
            &text,
            rect.x + rect.w / 2.0,
            cy,
            small,
            Weight::Bold,
            Align::Center,
            c,
        );
    }
}

/// Where the two key caps of a key row go (for drawing and for mouse hits).
pub fn key_caps(r: Rect, unit: f32) -> [Rect; 2] {
    let w = (unit * 6.0).min(r.w * 0.22);
    let h = r.h - unit * 0.3;
    let y = r.y + unit * 0.15;
    let x2 = r.right() - unit * 0.6 - w;
    let x1 = x2 - unit * 0.5 - w;
    [Rect::new(x1, y, w, h), Rect::new(x2, y, w, h)]
}

/// Marks that a list scrolls: "▲ more" over the first row shown when rows are hidden above it,
/// "▼ more" under the last when rows are hidden below. `shown` is the visible rows with their
/// indexes (`ListNav::visible`), out of `len`.
pub fn scroll_marks(gfx: &Gfx, shown: &[(usize, Rect)], len: usize, unit: f32) {
    let size = (unit * 0.55).round();
    let mark = |text: &str, r: Rect, y: f32| {
        let x = r.x + r.w / 2.0;
        gfx.text_mid(
            text,
            x,
            y,
            size,
            Weight::Bold,
            Align::Center,
            theme::TEXT_DIM,
        );
    };
    if let Some(&(i, r)) = shown.first()
        && i > 0
    {
        mark("▲ more", r, r.y - unit * 0.5);
    }
    if let Some(&(i, r)) = shown.last()
        && i + 1 < len
    {
        mark("▼ more", r, r.bottom() + unit * 0.45);
    }
}
