//! Our own ledger of the glyphs macroquad has cached, so a frame never draws from an atlas
//! texture that was deleted under it.
//!
//! macroquad rasterises a glyph the first time it is measured or drawn. When a new glyph does
//! not fit its font's atlas, the atlas doubles and, at the next text draw, its GL texture is
//! deleted and made anew; glyphs already queued in this frame still name the old texture, so
//! they come out blank for a frame (natively) or WebGL reports "glBindTexture called with an
//! already deleted texture" (in the browser). The fix: notice text with a glyph we have not
//! seen, cache all its glyphs first, and draw what is queued (ending on another texture, as
//! miniquad 0.4 re-binds a deleted texture left in its binding cache) before the atlas's
//! texture is replaced. After the first seconds every glyph is known and nothing extra happens.

use std::cell::{Cell, RefCell};
use std::collections::BTreeSet;

use super::faces::Face;

/// How much glyph area the atlases may hold before the fonts are loaded afresh, in square pixels
/// of rasterised size (each glyph counted as size × size, about twice its real box).
///
/// macroquad's atlas packs glyphs in shelves as tall as their tallest glyph and doubles both
/// sides when one does not fit, re-packing everything in hash order; in a long demo under load
/// the atlases were seen growing to 4096² and 8192² (a 256 MB image, its copy and the GL
/// texture: the 726 MB peak in BENCHMARKS.md). Nothing in macroquad bounds it, so the game
/// does: past this budget, [`super::gfx::Gfx::refresh`] reloads the fonts with empty atlases,
/// which then fill again with only the glyphs still in use. The figure keeps each atlas at
/// 1024² (at 2,000,000 a 3,600-frame demo still grew one to 2048² in two runs of three, peaking
/// at 162 MB); a 3,600-frame demo stays under it (no reload, peak 138 MB). Large bold text no
/// longer uses macroquad's atlases at all ([`super::large_text`]), so it is not counted here.
pub(super) const BUDGET: u64 = 1_200_000;

/// The glyphs cached so far, per font and rasterised size, and whether the atlas may have
/// grown since the last flush.
#[derive(Default)]
pub(super) struct Glyphs {
    seen: RefCell<BTreeSet<(Face, u16, char)>>,
    /// Sum of size² over `seen`.
    area: Cell<u64>,
    stale: Cell<bool>,
}

impl Glyphs {
    /// Notes the glyphs of `s` at `size` (macroquad's rasterised size, DPI included); true if
    /// any was new, i.e. caching it may grow the atlas.
    pub(super) fn note(&self, face: Face, size: u16, s: &str) -> bool {
        let mut seen = self.seen.borrow_mut();
        let mut new = false;
        for c in s.chars() {
            if seen.insert((face, size, c)) {
                new = true;
                self.area
                    .set(self.area.get() + u64::from(size) * u64::from(size));
            }
        }
        if new {
            self.stale.set(true);
        }
        new
    }

    /// Whether a new glyph was cached since the last [`Glyphs::flushed`]: the batch must be
    /// drawn before the next text draw replaces the atlas texture.
    pub(super) fn stale(&self) -> bool {
        self.stale.get()
    }

    /// Whether the glyphs cached so far exceed [`BUDGET`].
    pub(super) fn over_budget(&self) -> bool {
        self.area.get() > BUDGET
    }

    /// Forgets every glyph: the fonts were loaded afresh, with empty atlases.
    pub(super) fn clear(&self) {
        self.seen.borrow_mut().clear();
        self.area.set(0);
        self.stale.set(false);
    }

    /// The queued draws were drawn.
    pub(super) fn flushed(&self) {
        self.stale.set(false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_with_only_known_glyphs_needs_no_flush() {
        let g = Glyphs::default();
        assert!(g.note(Face::Bold, 24, "GO!"));
        g.flushed();
        assert!(!g.note(Face::Bold, 24, "GOG"));
        assert!(!g.stale());
    }

    #[test]
    fn the_budget_counts_each_new_glyph_once_and_clears() {
        let g = Glyphs::default();
        g.note(Face::Bold, 1000, "A");
        g.note(Face::Bold, 1000, "A");
        assert!(!g.over_budget());
        g.note(Face::Bold, 1000, "BC");
        assert!(g.over_budget(), "3 glyphs of 1000² are over {BUDGET}");
        g.clear();
        assert!(!g.over_budget());
        assert!(g.note(Face::Bold, 1000, "A"));
    }

    #[test]
    fn a_glyph_at_a_new_size_or_weight_is_new() {
        let g = Glyphs::default();
        g.note(Face::Bold, 24, "A");
        assert!(g.note(Face::Bold, 27, "A"));
        assert!(g.note(Face::Regular, 24, "A"));
        assert!(g.stale());
    }
}
