//! Accessibility choices for drawing: the piece palette, letters on the blocks, a high-contrast
//! well and reduced motion.
//!
//! The choice in force is one process-wide value (like the plain background in
//! [`super::gfx`]), set from the settings when they load or change and read by the drawing code,
//! so no drawing function needs another parameter.

use std::sync::atomic::{AtomicU8, Ordering};

use macroquad::color::Color;
use sevenbag_core::PieceKind;

use super::theme::rgb;

/// The colours of the seven pieces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Palette {
    /// The guideline colours (I cyan, O yellow, T purple, S green, Z red, J blue, L orange).
    #[default]
    Guideline,
    /// The Okabe–Ito colours, told apart with red–green colour blindness (deuteranopia and
    /// protanopia) as well as with full colour vision.
    RedGreen,
    /// Colours told apart with blue–yellow colour blindness (tritanopia): pieces differ along
    /// the red–cyan axis and in lightness.
    BlueYellow,
}

impl Palette {
    /// Every palette, in the order the settings screen steps through them.
    pub const ALL: [Palette; 3] = [Palette::Guideline, Palette::RedGreen, Palette::BlueYellow];

    /// The settings-file name.
    pub fn name(self) -> &'static str {
        match self {
            Palette::Guideline => "guideline",
            Palette::RedGreen => "red-green",
            Palette::BlueYellow => "blue-yellow",
        }
    }

    /// The palette with settings-file name `name`.
    pub fn from_name(name: &str) -> Option<Palette> {
        Palette::ALL.into_iter().find(|p| p.name() == name)
    }

    /// What the settings screen shows.
    pub fn label(self) -> &'static str {
        match self {
            Palette::Guideline => "guideline",
            Palette::RedGreen => "red–green safe",
            Palette::BlueYellow => "blue–yellow safe",
        }
    }

    /// The next (`step` > 0) or previous palette, wrapping.
    pub fn step(self, step: i32) -> Palette {
        let i = Palette::ALL.iter().position(|p| *p == self).unwrap_or(0) as i32;
        let n = Palette::ALL.len() as i32;
        Palette::ALL[(i + step).rem_euclid(n) as usize]
    }

    /// The 8-bit colour of a piece kind in this palette.
    pub const fn rgb8(self, kind: PieceKind) -> [u8; 3] {
        match self {
            Palette::Guideline => match kind {
                PieceKind::I => [49, 199, 239],
                PieceKind::O => [247, 211, 8],
                PieceKind::T => [173, 77, 198],
                PieceKind::S => [66, 182, 66],
                PieceKind::Z => [239, 32, 41],
                PieceKind::J => [62, 98, 214],
                PieceKind::L => [239, 121, 33],
            },
            // Okabe & Ito, "Color Universal Design" (2002): its seven colours besides black.
            Palette::RedGreen => match kind {
                PieceKind::I => [86, 180, 233],
                PieceKind::O => [240, 228, 66],
                PieceKind::T => [204, 121, 167],
                PieceKind::S => [0, 158, 115],
                PieceKind::Z => [213, 94, 0],
                PieceKind::J => [0, 114, 178],
                PieceKind::L => [230, 159, 0],
            },
            Palette::BlueYellow => match kind {
                PieceKind::I => [0, 200, 200],
                PieceKind::O => [240, 240, 232],
                PieceKind::T => [170, 60, 220],
                PieceKind::S => [0, 130, 60],
                PieceKind::Z => [220, 0, 40],
                PieceKind::J => [40, 40, 200],
                PieceKind::L => [255, 150, 180],
            },
        }
    }

    /// The colour of a piece kind in this palette.
    pub const fn colour(self, kind: PieceKind) -> Color {
        let [r, g, b] = self.rgb8(kind);
        rgb(r, g, b)
    }
}

/// How the game is drawn for players who need it: kept in the settings file's `[access]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Look {
    /// The piece colours.
    pub palette: Palette,
    /// Each block carries its piece's letter, so pieces are told apart without colour.
    pub letters: bool,
    /// A black well with bright block outlines, a stronger grid and a stronger ghost.
    pub high_contrast: bool,
    /// No shaking, flashing, trails, pulsing or drifting.
    pub reduced_motion: bool,
}

impl Look {
    fn bits(self) -> u8 {
        let p = Palette::ALL
            .iter()
            .position(|p| *p == self.palette)
            .unwrap_or(0) as u8;
        p | u8::from(self.letters) << 2
            | u8::from(self.high_contrast) << 3
            | u8::from(self.reduced_motion) << 4
    }

    fn from_bits(b: u8) -> Look {
        Look {
            palette: Palette::ALL
                .get(usize::from(b & 3))
                .copied()
                .unwrap_or_default(),
            letters: b & 4 != 0,
            high_contrast: b & 8 != 0,
            reduced_motion: b & 16 != 0,
        }
    }
}

/// The look in force, packed as [`Look::bits`].
static LOOK: AtomicU8 = AtomicU8::new(0);

/// Draws with `look` from now on.
pub fn set(look: Look) {
    LOOK.store(look.bits(), Ordering::Relaxed);
}

/// The look in force.
pub fn get() -> Look {
    Look::from_bits(LOOK.load(Ordering::Relaxed))
}

/// The colour of a piece kind in the palette in force.
pub fn piece_colour(kind: PieceKind) -> Color {
    get().palette.colour(kind)
}

/// Whether motion effects are off.
pub fn reduced_motion() -> bool {
    get().reduced_motion
}

/// The screen background: the theme's, or black in high contrast.
pub fn background() -> Color {
    if get().high_contrast {
        super::theme::BLACK_BACKGROUND
    } else {
        super::theme::BACKGROUND
    }
}

/// The inside of a well: the theme's, or pure black in high contrast.
pub fn well() -> Color {
    if get().high_contrast {
        Color::new(0.0, 0.0, 0.0, 1.0)
    } else {
        super::theme::WELL
    }
}

/// The thin frame of a side box: brighter in high contrast.
pub fn frame() -> Color {
    if get().high_contrast {
        super::theme::TEXT_DIM
    } else {
        super::theme::alpha(super::theme::FRAME, 0.8)
    }
}

/// The 5×5 letter of a piece kind, one row a byte, the top row first, bit 4 the left column.
pub const fn letter(kind: PieceKind) -> [u8; 5] {
    match kind {
        PieceKind::I => [0b01110, 0b00100, 0b00100, 0b00100, 0b01110],
        PieceKind::O => [0b01110, 0b10001, 0b10001, 0b10001, 0b01110],
        PieceKind::T => [0b11111, 0b00100, 0b00100, 0b00100, 0b00100],
        PieceKind::S => [0b01111, 0b10000, 0b01110, 0b00001, 0b11110],
        PieceKind::Z => [0b11111, 0b00010, 0b00100, 0b01000, 0b11111],
        PieceKind::J => [0b00111, 0b00010, 0b00010, 0b10010, 0b01100],
        PieceKind::L => [0b10000, 0b10000, 0b10000, 0b10000, 0b11111],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Machado, Oliveira & Fernandes (2009) simulation matrices at full severity, ×1000.
    const PROTANOPIA: [[i32; 3]; 3] = [[152, 1053, -205], [115, 786, 99], [-4, -48, 1052]];
    const DEUTERANOPIA: [[i32; 3]; 3] = [[367, 861, -228], [280, 673, 47], [-12, 43, 969]];
    const TRITANOPIA: [[i32; 3]; 3] = [[1256, -77, -179], [-78, 931, 148], [5, 691, 304]];
    /// The smallest distance (in 8-bit RGB) two pieces' simulated colours may have.
    const APART: i32 = 45;

    fn simulate(m: [[i32; 3]; 3], c: [u8; 3]) -> [i32; 3] {
        m.map(|row| {
            let v: i32 = (0..3).map(|j| row[j] * i32::from(c[j])).sum();
            (v / 1000).clamp(0, 255)
        })
    }

    /// The closest two pieces of `palette` come as seen through matrix `m`.
    fn closest(palette: Palette, m: [[i32; 3]; 3]) -> (i32, PieceKind, PieceKind) {
        let mut worst = (i32::MAX, PieceKind::I, PieceKind::I);
        for (i, &a) in PieceKind::ALL.iter().enumerate() {
            for &b in &PieceKind::ALL[i + 1..] {
                let (sa, sb) = (simulate(m, palette.rgb8(a)), simulate(m, palette.rgb8(b)));
                let d2: i32 = (0..3).map(|k| (sa[k] - sb[k]).pow(2)).sum();
                let d = (d2 as f64).sqrt() as i32;
                if d < worst.0 {
                    worst = (d, a, b);
                }
            }
        }
        worst
    }

    #[test]
    fn the_red_green_palette_keeps_pieces_apart_under_deuteranopia_and_protanopia() {
        for m in [DEUTERANOPIA, PROTANOPIA] {
            let (d, a, b) = closest(Palette::RedGreen, m);
            assert!(d >= APART, "{a:?} and {b:?} only {d} apart");
        }
    }

    #[test]
    fn the_blue_yellow_palette_keeps_pieces_apart_under_tritanopia() {
        let (d, a, b) = closest(Palette::BlueYellow, TRITANOPIA);
        assert!(d >= APART, "{a:?} and {b:?} only {d} apart");
    }

    #[test]
    fn the_safe_palettes_keep_pieces_apart_with_full_colour_vision() {
        let none = [[1000, 0, 0], [0, 1000, 0], [0, 0, 1000]];
        for p in [Palette::RedGreen, Palette::BlueYellow] {
            let (d, a, b) = closest(p, none);
            assert!(d >= APART, "{p:?}: {a:?} and {b:?} only {d} apart");
        }
    }

    #[test]
    fn the_guideline_palette_is_what_the_check_would_catch() {
        // T and J come too close for a protanope: the reason the safe palettes exist.
        assert!(closest(Palette::Guideline, PROTANOPIA).0 < APART);
    }

    #[test]
    fn the_guideline_palette_matches_the_theme() {
        for k in PieceKind::ALL {
            assert_eq!(
                Palette::Guideline.colour(k),
                super::super::theme::piece_colour(k)
            );
        }
    }

    #[test]
    fn palette_names_round_trip_and_step_wraps() {
        for p in Palette::ALL {
            assert_eq!(Palette::from_name(p.name()), Some(p));
        }
        assert_eq!(Palette::Guideline.step(-1), Palette::BlueYellow);
        assert_eq!(Palette::BlueYellow.step(1), Palette::Guideline);
    }

    #[test]
    fn every_look_survives_packing() {
        for p in Palette::ALL {
            for b in 0..8u8 {
                let look = Look {
                    palette: p,
                    letters: b & 1 != 0,
                    high_contrast: b & 2 != 0,
                    reduced_motion: b & 4 != 0,
                };
                assert_eq!(Look::from_bits(look.bits()), look);
            }
        }
    }

    #[test]
    fn the_seven_letters_differ() {
        for (i, &a) in PieceKind::ALL.iter().enumerate() {
            for &b in &PieceKind::ALL[i + 1..] {
                assert_ne!(letter(a), letter(b), "{a:?} {b:?}");
            }
        }
    }
}
