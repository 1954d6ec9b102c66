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

use super::gfx::Weight;

/// The glyphs cached so far, per font and rasterised size, and whether the atlas may have
/// grown since the last flush.
#[derive(Default)]
pub(super) struct Glyphs {
    seen: RefCell<BTreeSet<(Weight, u16, char)>>,
    stale: Cell<bool>,
}

impl Glyphs {
    /// Notes the glyphs of `s` at `size` (macroquad's rasterised size, DPI included); true if
    /// any was new, i.e. caching it may grow the atlas.
    pub(super) fn note(&self, weight: Weight, size: u16, s: &str) -> bool {
        let mut seen = self.seen.borrow_mut();
        let mut new = false;
        for c in s.chars() {
            new |= seen.insert((weight, size, c));
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
        assert!(g.note(Weight::Bold, 24, "GO!"));
        g.flushed();
        assert!(!g.note(Weight::Bold, 24, "GOG"));
        assert!(!g.stale());
    }

    #[test]
    fn a_glyph_at_a_new_size_or_weight_is_new() {
        let g = Glyphs::default();
        g.note(Weight::Bold, 24, "A");
        assert!(g.note(Weight::Bold, 27, "A"));
        assert!(g.note(Weight::Regular, 24, "A"));
        assert!(g.stale());
    }
}
