//! Building skin files: strips painted one colour a tile, PNG encoding, chunk surgery.

use sevenbag_skin::Layout;

/// The colour each TETR.IO tile is painted, in file order.
pub const TETRIO: [[u8; 4]; 12] = [
    Z,
    L,
    O,
    S,
    I,
    J,
    T,
    GHOST,
    GARBAGE,
    [90, 90, 90, 255],
    [50, 50, 50, 255],
    [255, 0, 0, 255],
];

/// The colour each Jstris tile is painted, in file order.
pub const JSTRIS: [[u8; 4]; 9] = [GARBAGE, GHOST, Z, L, O, S, I, J, T];

pub const Z: [u8; 4] = [230, 30, 40, 255];
pub const L: [u8; 4] = [240, 140, 20, 255];
pub const O: [u8; 4] = [240, 220, 30, 255];
pub const S: [u8; 4] = [90, 200, 40, 255];
pub const I: [u8; 4] = [40, 200, 230, 255];
pub const J: [u8; 4] = [40, 70, 220, 255];
pub const T: [u8; 4] = [170, 50, 200, 255];
pub const GHOST: [u8; 4] = [200, 200, 200, 128];
pub const GARBAGE: [u8; 4] = [110, 110, 110, 255];
/// What the gaps between TETR.IO tiles are painted: a colour no tile has.
pub const GAP: [u8; 4] = [255, 0, 255, 255];

/// The RGBA pixels of a `layout` strip with `tile` px tiles painted `colours`, gaps [`GAP`].
pub fn strip_pixels(layout: Layout, tile: u32, colours: &[[u8; 4]]) -> Vec<u8> {
    let width = layout.width(tile);
    let mut out = Vec::new();
    for _ in 0..tile {
        for x in 0..width {
            let colour = (0..colours.len())
                .find(|&i| (layout.tile_x(tile, i)..layout.tile_x(tile, i) + tile).contains(&x))
                .map_or(GAP, |i| colours[i]);
            out.extend_from_slice(&colour);
        }
    }
    out
}

/// A `layout` skin file with `tile` px tiles painted in that layout's test colours.
pub fn skin_file(layout: Layout, tile: u32) -> Vec<u8> {
    let colours: &[[u8; 4]] = match layout {
        Layout::Tetrio => &TETRIO,
        Layout::Jstris => &JSTRIS,
        Layout::Connected => return rgba_png(16 * tile, 9 * tile, &sheet_pixels(tile)),
    };
    rgba_png(
        layout.width(tile),
        tile,
        &strip_pixels(layout, tile, colours),
    )
}

/// The colour of each row of a connected sheet: Z L O S I J T, ghost, garbage.
pub const CONNECTED_ROWS: [[u8; 4]; 9] = [Z, L, O, S, I, J, T, GHOST, GARBAGE];

/// The colour of a connected sheet's tile in `row` and `column`: the row's colour with its
/// blue channel replaced by the column, so every one of the 144 tiles is its own colour.
pub fn sheet_colour(row: usize, column: usize) -> [u8; 4] {
    let [r, g, _, a] = CONNECTED_ROWS[row];
    [r, g, 16 * column as u8, a]
}

/// The RGBA pixels of a connected sheet of `tile` px tiles painted [`sheet_colour`].
pub fn sheet_pixels(tile: u32) -> Vec<u8> {
    let mut out = Vec::new();
    for y in 0..9 * tile {
        for x in 0..16 * tile {
            out.extend_from_slice(&sheet_colour((y / tile) as usize, (x / tile) as usize));
        }
    }
    out
}

/// An 8-bit RGBA PNG.
pub fn rgba_png(width: u32, height: u32, rgba: &[u8]) -> Vec<u8> {
    png_with(
        width,
        height,
        png::ColorType::Rgba,
        png::BitDepth::Eight,
        rgba,
        |_| {},
    )
}

/// A PNG of `data` in `color` at `depth`, the encoder first set up by `setup`.
pub fn png_with(
    width: u32,
    height: u32,
    color: png::ColorType,
    depth: png::BitDepth,
    data: &[u8],
    setup: impl FnOnce(&mut png::Encoder<'_, &mut Vec<u8>>),
) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(color);
    encoder.set_depth(depth);
    setup(&mut encoder);
    let mut writer = encoder.write_header().expect("header");
    writer.write_image_data(data).expect("image data");
    writer.finish().expect("finish");
    out
}

/// `file` with a chunk of `kind` holding `data` inserted right after `IHDR`.
pub fn with_chunk_after_ihdr(file: &[u8], kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let after_ihdr = 8 + 8 + 13 + 4;
    let mut out = file[..after_ihdr].to_vec();
    out.extend_from_slice(&chunk(kind, data));
    out.extend_from_slice(&file[after_ihdr..]);
    out
}

/// `file` with its header's dimensions replaced (and its CRC recomputed).
pub fn with_dimensions(file: &[u8], width: u32, height: u32) -> Vec<u8> {
    let mut out = file.to_vec();
    out[16..20].copy_from_slice(&width.to_be_bytes());
    out[20..24].copy_from_slice(&height.to_be_bytes());
    let crc = crc32(&out[12..29]);
    out[29..33].copy_from_slice(&crc.to_be_bytes());
    out
}

/// One chunk: length, type, data, CRC.
pub fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut out = (data.len() as u32).to_be_bytes().to_vec();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    out.extend_from_slice(&crc32(&out[4..]).to_be_bytes());
    out
}

/// PNG's CRC-32 (ISO 3309), bit by bit.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}
