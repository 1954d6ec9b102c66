//! The skin the page keeps: a skin file brought to the page is decoded once (by the browser,
//! `settings::page_skin`) and kept decoded ([`PAGE_SKIN`], [`to_file`]), so reading it back at
//! the next visit needs no PNG decoder (the page links none of its own: its size,
//! BENCHMARKS.md) and the skin is in force from the first frame. What is read back goes
//! through the skin rules again (`sevenbag_skin::from_rgba`).

use std::path::PathBuf;

use sevenbag_skin::Skin;

/// The file a skin brought to the page is kept in, below the page's data folder.
pub const PAGE_SKIN: &str = "skin.sbsk";

/// The file the skin brought to the page came as, kept to publish it online.
pub const PAGE_SKIN_PNG: &str = "skin.png";

/// Where the page keeps the file its skin came as.
pub fn page_skin_png_path() -> Option<PathBuf> {
    crate::platform::folders::data_dir().map(|d| d.join(PAGE_SKIN_PNG))
}

/// The kept skin's first bytes.
pub const MAGIC: &[u8; 4] = b"SBSK";

/// Where the page keeps its skin.
pub fn page_skin_path() -> Option<PathBuf> {
    crate::platform::folders::data_dir().map(|d| d.join(PAGE_SKIN))
}

/// `skin` as the page keeps it: [`MAGIC`], width and height (u32 little-endian), the strip's
/// 8-bit RGBA.
pub fn to_file(width: u32, height: u32, rgba: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(12 + rgba.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&width.to_le_bytes());
    out.extend_from_slice(&height.to_le_bytes());
    out.extend_from_slice(rgba);
    out
}

/// The skin in a kept file (or RGBA with its size, as the browser's decode answers), read
/// under the skin rules; a damaged one is refused in words.
pub fn from_file(bytes: &[u8]) -> Result<Skin, String> {
    let rest = bytes
        .strip_prefix(MAGIC)
        .ok_or("the page's skin file is not one the game wrote")?;
    from_sized_rgba(rest)
}

/// A skin from width and height (u32 little-endian) followed by RGBA.
pub fn from_sized_rgba(bytes: &[u8]) -> Result<Skin, String> {
    let size = |at: usize| -> Option<u32> {
        Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
    };
    let (Some(width), Some(height)) = (size(0), size(4)) else {
        return Err("the skin's pixels are cut short".to_owned());
    };
    sevenbag_skin::from_rgba(width, height, &bytes[8..]).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jstris_strip() -> (u32, u32, Vec<u8>) {
        let (w, h) = (270u32, 30u32);
        (w, h, vec![200; (w * h * 4) as usize])
    }

    #[test]
    fn a_kept_skin_reads_back_as_the_same_skin() {
        let (w, h, rgba) = jstris_strip();
        let skin = sevenbag_skin::from_rgba(w, h, &rgba).expect("a skin");
        assert_eq!(from_file(&to_file(w, h, &rgba)), Ok(skin));
    }

    #[test]
    fn a_damaged_kept_skin_is_refused_in_words() {
        let (w, h, rgba) = jstris_strip();
        let mut file = to_file(w, h, &rgba);
        assert!(from_file(b"PNG?").is_err());
        file.truncate(file.len() - 1);
        let e = from_file(&file).unwrap_err();
        assert!(e.contains("RGBA"), "{e}");
        assert!(from_file(&file[..9]).is_err(), "cut inside the size");
    }

    #[test]
    fn pixels_of_another_aspect_are_refused_by_the_skin_rules() {
        let mut sized = 100u32.to_le_bytes().to_vec();
        sized.extend_from_slice(&30u32.to_le_bytes());
        sized.extend(vec![0; 100 * 30 * 4]);
        let e = from_sized_rgba(&sized).unwrap_err();
        assert!(e.contains("aspect"), "{e}");
    }
}
