//! Saving the last frame as a PNG (`--screenshot`) and checking one (`--check-screenshot`).
//!
//! The check needs no window: it decodes the PNG, finds both wells with the same layout maths the
//! renderer uses ([`crate::layout::match_layout`] at the image's size, so it assumes a DPI scale of
//! 1, as under Xvfb), samples the centre of each of the 10 × 20 cells, and recognises cells by
//! their exact fill colour. It passes when both boards show at least [`MIN_KINDS`] piece colours.

use std::collections::HashSet;
use std::path::Path;

use anyhow::Context as _;
use macroquad::math::Rect;
use sevenbag_core::{CellKind, PieceKind};

use crate::layout::match_layout;
use crate::render::theme::{WELL, cell_fill, to_rgb8};

/// Piece colours each board must show for the check to pass.
pub const MIN_KINDS: usize = 3;

/// Why a screenshot could not be saved or checked.
#[derive(Debug, thiserror::Error)]
pub enum ShotError {
    /// Reading or writing the file failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The PNG could not be encoded or decoded.
    #[error(transparent)]
    Image(#[from] image::ImageError),
    /// The frame buffer had an unexpected size.
    #[error("frame buffer of {0} bytes does not match {1}x{2}")]
    Size(usize, u32, u32),
}

/// What one board area of a screenshot holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardReport {
    /// Distinct RGB colours over the whole board rectangle (grid, ghost and bevels included).
    pub distinct_colours: usize,
    /// Piece kinds whose exact cell colour fills at least one cell centre.
    pub kinds: Vec<PieceKind>,
    /// Cells filled with garbage.
    pub garbage_cells: usize,
    /// Cells showing the empty well colour.
    pub empty_cells: usize,
}

impl BoardReport {
    /// True when the board shows enough different pieces.
    pub fn passes(&self) -> bool {
        self.kinds.len() >= MIN_KINDS
    }
}

/// An RGBA image in memory, top row first.
pub struct Pixels<'a> {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height * 4` bytes.
    pub rgba: &'a [u8],
}

impl Pixels<'_> {
    fn rgb(&self, x: u32, y: u32) -> [u8; 3] {
        let i = ((y * self.width + x) * 4) as usize;
        [self.rgba[i], self.rgba[i + 1], self.rgba[i + 2]]
    }
}

/// Examines the board drawn in `board` (10 × 20 cells of side `cell`).
pub fn board_report(px: &Pixels<'_>, board: Rect, cell: f32) -> BoardReport {
    let mut colours = HashSet::new();
    let x0 = board.x.max(0.0) as u32;
    let y0 = board.y.max(0.0) as u32;
    let x1 = (board.right().ceil() as u32).min(px.width);
    let y1 = (board.bottom().ceil() as u32).min(px.height);
    for y in y0..y1 {
        for x in x0..x1 {
            colours.insert(px.rgb(x, y));
        }
    }
    let mut kinds = Vec::new();
    let mut garbage_cells = 0;
    let mut empty_cells = 0;
    let well = to_rgb8(WELL);
    for row in 0..20 {
        for col in 0..10 {
            let x = (board.x + (col as f32 + 0.5) * cell) as u32;
            let y = (board.y + (row as f32 + 0.5) * cell) as u32;
            if x >= px.width || y >= px.height {
                continue;
            }
            let c = px.rgb(x, y);
            if c == well {
                empty_cells += 1;
            }
            if c == to_rgb8(cell_fill(CellKind::Garbage)) {
                garbage_cells += 1;
            }
            for kind in PieceKind::ALL {
                if c == to_rgb8(cell_fill(CellKind::Piece(kind))) && !kinds.contains(&kind) {
                    kinds.push(kind);
                }
            }
        }
    }
    kinds.sort();
    BoardReport {
        distinct_colours: colours.len(),
        kinds,
        garbage_cells,
        empty_cells,
    }
}

/// Checks the PNG at `path`: a report for the left and the right board.
pub fn check_file(path: &Path) -> Result<[BoardReport; 2], ShotError> {
    let bytes = std::fs::read(path)?;
    let img = image::load_from_memory_with_format(&bytes, image::ImageFormat::Png)?.to_rgba8();
    let px = Pixels {
        width: img.width(),
        height: img.height(),
        rgba: img.as_raw(),
    };
    let layout = match_layout(px.width as f32, px.height as f32);
    Ok(layout
        .panels
        .map(|p| board_report(&px, p.board, layout.cell)))
}

/// Writes a frame read back from the GPU (`rgba`, bottom row first, as OpenGL returns it) to
/// `path` as an opaque PNG, top row first.
pub fn save_frame(rgba: &[u8], width: u32, height: u32, path: &Path) -> Result<(), ShotError> {
    let stride = width as usize * 4;
    if rgba.len() != stride * height as usize {
        return Err(ShotError::Size(rgba.len(), width, height));
    }
    let mut flipped = Vec::with_capacity(rgba.len());
    for row in rgba.chunks_exact(stride).rev() {
        flipped.extend_from_slice(row);
    }
    // The default framebuffer's alpha is meaningless; a screenshot is opaque.
    for px in flipped.chunks_exact_mut(4) {
        px[3] = 255;
    }
    image::save_buffer_with_format(
        path,
        &flipped,
        width,
        height,
        image::ColorType::Rgba8,
        image::ImageFormat::Png,
    )?;
    Ok(())
}

/// `--check-screenshot`: prints what each board area shows; true when both pass.
pub fn print_check(path: &Path) -> anyhow::Result<bool> {
    let reports =
        check_file(path).with_context(|| format!("reading screenshot {}", path.display()))?;
    let mut ok = true;
    for (side, r) in ["left", "right"].iter().zip(&reports) {
        let kinds: String = r.kinds.iter().map(|k| k.letter()).collect();
        println!(
            "{side} board: {} distinct colours, {} piece colours ({kinds}), {} garbage cells, {} empty cells",
            r.distinct_colours,
            r.kinds.len(),
            r.garbage_cells,
            r.empty_cells
        );
        ok &= r.passes();
    }
    println!(
        "{}",
        if ok {
            "ok: both boards show pieces".to_owned()
        } else {
            format!(
                "FAIL: each board needs at least {} piece colours",
                MIN_KINDS
            )
        }
    );
    Ok(ok)
}

/// Saves the frame just drawn (`--screenshot`); false, with the reason on stderr, when it could
/// not be saved.
pub fn save_last_frame(path: &Path) -> bool {
    let img = macroquad::texture::get_screen_data();
    match save_frame(
        &img.bytes,
        u32::from(img.width),
        u32::from(img.height),
        path,
    ) {
        Ok(()) => {
            tracing::info!(path = %path.display(), "screenshot saved");
            true
        }
        Err(e) => {
            eprintln!(
                "error: could not save the screenshot to {}: {e}",
                path.display()
            );
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::theme::{BACKGROUND, GRID};

    fn paint(buf: &mut [u8], w: u32, r: Rect, c: [u8; 3]) {
        for y in r.y as u32..r.bottom() as u32 {
            for x in r.x as u32..r.right() as u32 {
                let i = ((y * w + x) * 4) as usize;
                buf[i..i + 4].copy_from_slice(&[c[0], c[1], c[2], 255]);
            }
        }
    }

    fn synthetic(kinds_left: &[CellKind], kinds_right: &[CellKind]) -> (Vec<u8>, u32, u32) {
        let (w, h) = (1280u32, 720u32);
        let mut buf = vec![0u8; (w * h * 4) as usize];
        paint(
            &mut buf,
            w,
            Rect::new(0.0, 0.0, w as f32, h as f32),
            to_rgb8(BACKGROUND),
        );
        let l = match_layout(w as f32, h as f32);
        for (panel, kinds) in l.panels.iter().zip([kinds_left, kinds_right]) {
            paint(&mut buf, w, panel.board, to_rgb8(WELL));
            // A grid line through the well adds a colour but fills no cell centre.
            let line = Rect::new(panel.board.x, panel.board.y + l.cell, panel.board.w, 1.0);
            paint(&mut buf, w, line, to_rgb8(GRID));
            for (i, kind) in kinds.iter().enumerate() {
                let cell = Rect::new(
                    panel.board.x + i as f32 * l.cell,
                    panel.board.bottom() - l.cell,
                    l.cell,
                    l.cell,
                );
                paint(&mut buf, w, cell, to_rgb8(cell_fill(*kind)));
            }
        }
        (buf, w, h)
    }

    #[test]
    fn counts_piece_colours_on_each_board() {
        use CellKind::{Garbage, Piece};
        use PieceKind::*;
        let left = [Piece(I), Piece(T), Piece(T), Piece(Z), Garbage];
        let right = [Piece(O), Garbage, Garbage];
        let (buf, w, h) = synthetic(&left, &right);
        let px = Pixels {
            width: w,
            height: h,
            rgba: &buf,
        };
        let l = match_layout(w as f32, h as f32);
        let reports = l.panels.map(|p| board_report(&px, p.board, l.cell));
        assert_eq!(reports[0].kinds, vec![I, T, Z]);
        assert_eq!(reports[0].garbage_cells, 1);
        assert_eq!(reports[0].empty_cells, 195);
        // Well, grid line, I, T, Z, garbage.
        assert_eq!(reports[0].distinct_colours, 6);
        assert!(reports[0].passes());
        assert_eq!(reports[1].kinds, vec![O]);
        assert_eq!(reports[1].garbage_cells, 2);
        assert!(!reports[1].passes());
    }

    #[test]
    fn saved_frames_are_flipped_and_read_back() {
        use CellKind::Piece;
        use PieceKind::*;
        let (top_down, w, h) = synthetic(
            &[Piece(S), Piece(L), Piece(J)],
            &[Piece(I), Piece(O), Piece(T)],
        );
        // OpenGL hands rows bottom first.
        let stride = (w * 4) as usize;
        let bottom_up: Vec<u8> = top_down
            .chunks_exact(stride)
            .rev()
            .flatten()
            .copied()
            .collect();
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().to_path_buf();
        let path = dir.join("frame.png");
        save_frame(&bottom_up, w, h, &path).expect("save");
        let [a, b] = check_file(&path).expect("check");
        assert_eq!(a.kinds, vec![S, J, L]);
        assert_eq!(b.kinds, vec![I, O, T]);
        assert!(a.passes() && b.passes());
        assert!(matches!(
            save_frame(&[0; 3], 1, 1, &path),
            Err(ShotError::Size(..))
        ));
    }
}
