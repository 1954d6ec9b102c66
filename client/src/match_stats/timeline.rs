//! The strip a replay draws under its boards: the match's length, the frame shown, a tick at
//! each spike (in its seat's colour, taller the bigger it is) and a red tick at each top-out.
//! N and P (or the Next mark and Prev mark buttons) jump between them.

use macroquad::math::Rect;
use macroquad::prelude::{Color, draw_triangle, vec2};

use super::chart::seat_colour;
use super::{Mark, MarkKind};
use crate::render::gfx::{fill, outline};
use crate::render::theme::{self, alpha};

/// The strip's place under a title line `title` of a view whose cell is `cell`: the middle
/// half of its width, along its bottom edge.
pub fn under_title(title: Rect, cell: f32) -> Rect {
    let h = (cell * 0.3).max(4.0);
    Rect::new(
        title.x + title.w * 0.25,
        title.bottom() - h * 0.5,
        title.w * 0.5,
        h,
    )
}

/// Where frame `frame` of a match `end` frames long falls along `r`.
pub fn frame_x(r: Rect, frame: u32, end: u32) -> f32 {
    if end == 0 {
        return r.x;
    }
    r.x + r.w * (frame.min(end) as f32 / end as f32)
}

/// How tall a mark's tick is, as a part of the strip's height: top-outs the whole height,
/// spikes from half (8 lines) to all of it (20 lines or more).
pub fn tick_height(kind: MarkKind) -> f32 {
    match kind {
        MarkKind::Out => 1.0,
        MarkKind::Spike(lines) => 0.5 + 0.5 * (lines.min(20).saturating_sub(8) as f32 / 12.0),
    }
}

/// Draws the strip in `r`: the played part filled up to `frame`, every mark, and the head.
pub fn draw(r: Rect, frame: u32, end: u32, marks: &[Mark]) {
    fill(r, alpha(theme::WELL, 0.9));
    let played = frame_x(r, frame, end) - r.x;
    fill(
        Rect::new(r.x, r.y, played, r.h),
        alpha(theme::ACCENT2, 0.18),
    );
    for m in marks {
        let x = frame_x(r, m.frame, end);
        let h = r.h * tick_height(m.kind);
        let colour: Color = match m.kind {
            MarkKind::Out => theme::BAD,
            MarkKind::Spike(_) => seat_colour(m.seat),
        };
        fill(Rect::new(x - 1.0, r.bottom() - h, 2.0, h), colour);
    }
    let head = frame_x(r, frame, end);
    let s = (r.h * 0.45).max(4.0);
    draw_triangle(
        vec2(head - s, r.y - s),
        vec2(head + s, r.y - s),
        vec2(head, r.y),
        theme::TEXT,
    );
    outline(r, 1.0, theme::FRAME);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_fall_along_the_strip_from_start_to_end() {
        let r = Rect::new(10.0, 0.0, 100.0, 8.0);
        assert_eq!(frame_x(r, 0, 600), 10.0);
        assert_eq!(frame_x(r, 300, 600), 60.0);
        assert_eq!(frame_x(r, 900, 600), 110.0, "past the end stays at the end");
        assert_eq!(frame_x(r, 5, 0), 10.0, "an empty match is all start");
    }

    #[test]
    fn bigger_spikes_stand_taller_and_top_outs_tallest() {
        assert_eq!(tick_height(MarkKind::Spike(8)), 0.5);
        assert!(tick_height(MarkKind::Spike(14)) > tick_height(MarkKind::Spike(10)));
        assert_eq!(tick_height(MarkKind::Spike(40)), 1.0);
        assert_eq!(tick_height(MarkKind::Out), 1.0);
    }
}
