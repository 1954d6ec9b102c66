//! Pieces drifting down behind the menus: a quiet, living background.

use macroquad::prelude::*;
use sevenbag_core::{PieceKind, Rotation};

use super::cells::{Style, block};
use super::theme::alpha;

struct Drifter {
    kind: PieceKind,
    rotation: Rotation,
    x: f32,
    y: f32,
    speed: f32,
    size: f32,
}

/// The drifting pieces.
pub struct Backdrop {
    pieces: Vec<Drifter>,
    seed: u32,
    started: bool,
}

impl Default for Backdrop {
    fn default() -> Self {
        Backdrop::new()
    }
}

impl Backdrop {
    /// A backdrop with no pieces yet; they appear as time passes.
    pub fn new() -> Backdrop {
        Backdrop {
            pieces: Vec::new(),
            seed: 0x2545_F491,
            started: false,
        }
    }

    fn rand(&mut self) -> f32 {
        self.seed ^= self.seed << 13;
        self.seed ^= self.seed >> 17;
        self.seed ^= self.seed << 5;
        (self.seed % 10_000) as f32 / 10_000.0
    }

    /// Moves the pieces by `dt` seconds in a `w` × `h` window, adding new ones at the top.
    pub fn advance(&mut self, dt: f32, w: f32, h: f32) {
        let unit = (h / 36.0).max(8.0);
        while self.pieces.len() < 18 {
            let kind = PieceKind::ALL[(self.rand() * 7.0) as usize % 7];
            let rotation = Rotation::ALL[(self.rand() * 4.0) as usize % 4];
            // The first batch is scattered over the screen; later ones enter from the top.
            let first = !self.started;
            let size = unit * (0.6 + self.rand() * 0.9);
            let x = self.rand() * w;
            let y = if first {
                self.rand() * h
            } else {
                -self.rand() * h * 0.5 - size * 4.0
            };
            let speed = unit * (0.6 + self.rand() * 1.4);
            self.pieces.push(Drifter {
                kind,
                rotation,
                x,
                y,
                speed,
                size,
            });
        }
        self.started = true;
        for p in &mut self.pieces {
            p.y += p.speed * dt;
        }
        self.pieces.retain(|p| p.y < h + p.size * 2.0);
    }

    /// Draws the pieces, faintly.
    pub fn draw(&self) {
        // Drifting shapes are motion for its own sake: none with reduced motion.
        if super::look::reduced_motion() {
            return;
        }
        for p in &self.pieces {
            let c = alpha(super::look::piece_colour(p.kind), 0.035 + p.size / 1200.0);
            for (x, y) in p.kind.cells(p.rotation) {
                let px = p.x + f32::from(x) * p.size;
                let py = p.y - f32::from(y) * p.size;
                block(px, py, p.size, c, Style::Solid);
            }
        }
    }
}
