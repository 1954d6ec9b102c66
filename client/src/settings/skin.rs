//! The "Block skin" row and (natively) its file path row: stepping through the choices, loading
//! the one the row lands on, and saying in words why a skin file was refused.
//!
//! The draft's skin only changes when the choice loads; a refused file leaves the skin in force
//! and shows the decoder's reason on the row. Nothing here draws: [`SkinRow`] hands back the
//! skin to put in force, which [`show_skin`] does.

use std::path::PathBuf;

use sevenbag_skin::Skin;

use crate::config::{Config, SkinChoice};

/// Longest skin file path typed in settings, in characters (in a page: the skin link's).
#[cfg(not(target_arch = "wasm32"))]
pub(super) const MAX_SKIN_PATH: usize = 256;
#[cfg(target_arch = "wasm32")]
pub(super) const MAX_SKIN_PATH: usize = super::skin_link::MAX_LINK;

/// What the skin rows show and hold while the settings screen is open.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct SkinRow {
    /// The choice the row points at (the draft's, unless a refused one was stepped onto).
    pub shown: SkinChoice,
    /// Why the choice shown could not be used.
    pub error: Option<String>,
    /// The skin file path as typed (in a page: the skin link, which starts empty).
    pub path: String,
}

/// A skin to put in force (`None`: the flat blocks).
pub(super) type Chosen = Option<Skin>;

impl SkinRow {
    /// The rows for the settings in `config`.
    pub fn new(config: &Config) -> SkinRow {
        SkinRow {
            shown: config.skin,
            error: None,
            // A page's skin file is its own (`config::page_skin`), not a link to show.
            path: config
                .skin_file
                .as_ref()
                .filter(|_| cfg!(not(target_arch = "wasm32")))
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
        }
    }

    /// The typed path, if any.
    fn typed_path(&self) -> Option<PathBuf> {
        let path = self.path.trim();
        (!path.is_empty()).then(|| PathBuf::from(path))
    }

    /// Steps the row by `d` and tries the choice it lands on: loaded, it becomes the draft's
    /// and is returned to put in force; refused, the row says why and nothing changes.
    pub fn step(&mut self, draft: &mut Config, d: i32) -> Option<Chosen> {
        self.try_choice(draft, self.shown.step(d))
    }

    /// Loads the typed path as the skin (Enter on the path row).
    pub fn load_path(&mut self, draft: &mut Config) -> Option<Chosen> {
        self.try_choice(draft, SkinChoice::File)
    }

    fn try_choice(&mut self, draft: &mut Config, choice: SkinChoice) -> Option<Chosen> {
        self.shown = choice;
        let path = self.typed_path();
        match choice.load(path.as_deref()) {
            Ok(skin) => {
                self.error = None;
                draft.skin = choice;
                if choice == SkinChoice::File {
                    draft.skin_file = path;
                }
                Some(skin)
            }
            Err(e) => {
                self.error = Some(e);
                None
            }
        }
    }

    /// The row's value: the choice, or why it was refused.
    pub fn value(&self) -> String {
        match &self.error {
            Some(e) => format!("refused: {e}"),
            None => self.shown.label().to_owned(),
        }
    }

    /// The path typed, kept in the draft when the screen saves.
    pub fn save_path(&self, draft: &mut Config) {
        if draft.skin != SkinChoice::File && cfg!(not(target_arch = "wasm32")) {
            draft.skin_file = self.typed_path();
        }
    }
}

/// Puts the skin of `choice` (reading `file` for a skin file) in force; a refusal is returned
/// in words and the flat blocks are drawn instead.
pub fn show_skin(choice: SkinChoice, file: Option<&std::path::Path>) -> Result<(), String> {
    match choice.load(file) {
        Ok(skin) => {
            crate::render::skin::set(skin.as_ref());
            Ok(())
        }
        Err(e) => {
            crate::render::skin::set(None);
            Err(e)
        }
    }
}

/// The choice a `--skin` argument names: a built-in's (or `default`'s) name, or else a file.
pub fn choice_from_arg(arg: &str) -> (SkinChoice, Option<PathBuf>) {
    match SkinChoice::from_name(arg) {
        Some(choice) if choice != SkinChoice::File => (choice, None),
        _ => (SkinChoice::File, Some(PathBuf::from(arg))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::builtin_skins::BuiltIn;
    use crate::render::skin::{Atlas, Mino, tile_of};
    use sevenbag_core::PieceKind;
    use sevenbag_skin::Layout;

    /// A distinct opaque colour for tile `index`.
    fn tile_colour(index: usize) -> [u8; 4] {
        [
            20 * index as u8 + 10,
            255 - 20 * index as u8,
            7 * index as u8,
            255,
        ]
    }

    /// A PNG in `layout` at 30 px tiles whose tile `i` is filled with [`tile_colour`]`(i)`,
    /// encoded by the `png` crate through `image`.
    fn layout_png(layout: Layout) -> Vec<u8> {
        let tile = 30;
        let width = layout.width(tile);
        let mut img = image::RgbaImage::new(width, tile);
        for index in 0..layout.tile_count() {
            let left = layout.tile_x(tile, index);
            for y in 0..tile {
                for x in left..left + tile {
                    img.put_pixel(x, y, image::Rgba(tile_colour(index)));
                }
            }
        }
        let mut out = std::io::Cursor::new(Vec::new());
        img.write_to(&mut out, image::ImageOutputFormat::Png)
            .expect("encode a PNG");
        out.into_inner()
    }

    /// The skin rows with `bytes` written as a file and its path typed in.
    fn typed_file(dir: &std::path::Path, bytes: &[u8]) -> SkinRow {
        let path = dir.join("skin.png");
        std::fs::write(&path, bytes).expect("write the skin");
        SkinRow {
            path: path.display().to_string(),
            ..SkinRow::new(&Config::default())
        }
    }

    fn assert_each_kind_gets_its_layouts_tile(layout: Layout) {
        let tmp = tempfile::tempdir().expect("temp dir");
        let mut row = typed_file(tmp.path(), &layout_png(layout));
        let mut draft = Config::default();
        let skin = row
            .load_path(&mut draft)
            .expect("loaded")
            .expect("a skin to draw");
        assert_eq!(draft.skin, SkinChoice::File);
        assert_eq!(skin.layout(), layout);
        let atlas = Atlas::new(&skin, crate::render::look::Palette::Guideline);
        for kind in PieceKind::ALL {
            let index = tile_of(layout, Mino::Piece(kind));
            let [r, g, b, _] = tile_colour(index);
            assert_eq!(
                atlas.mean(Mino::Piece(kind)),
                [r, g, b],
                "{layout} {kind:?}"
            );
            assert_eq!(skin.piece(kind), &skin.tiles()[index]);
        }
        let [r, g, b, _] = tile_colour(tile_of(layout, Mino::Ghost));
        assert_eq!(atlas.mean(Mino::Ghost), [r, g, b]);
    }

    #[test]
    fn a_tetrio_png_loads_and_each_piece_kind_gets_its_tile() {
        assert_each_kind_gets_its_layouts_tile(Layout::Tetrio);
    }

    #[test]
    fn a_jstris_png_loads_and_each_piece_kind_gets_its_tile() {
        assert_each_kind_gets_its_layouts_tile(Layout::Jstris);
    }

    #[test]
    fn a_refused_file_says_why_and_keeps_the_skin_in_force() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let mut row = typed_file(tmp.path(), b"not a png at all");
        let mut draft = Config {
            skin: SkinChoice::BuiltIn(BuiltIn::Bevel),
            ..Config::default()
        };
        assert_eq!(row.load_path(&mut draft), None);
        assert_eq!(draft.skin, SkinChoice::BuiltIn(BuiltIn::Bevel));
        assert!(row.value().contains("not a PNG file"), "{}", row.value());
    }

    #[test]
    fn a_png_of_the_wrong_shape_is_refused_with_its_aspect_ratio() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let img = image::RgbaImage::new(100, 30);
        let mut png = std::io::Cursor::new(Vec::new());
        img.write_to(&mut png, image::ImageOutputFormat::Png)
            .expect("encode");
        let mut row = typed_file(tmp.path(), png.get_ref());
        assert_eq!(row.load_path(&mut Config::default()), None);
        assert!(row.value().contains("aspect ratio"), "{}", row.value());
    }

    #[test]
    fn stepping_onto_a_built_in_puts_it_in_the_draft() {
        let mut row = SkinRow::new(&Config::default());
        let mut draft = Config::default();
        let skin = row.step(&mut draft, 1).expect("loaded").expect("a skin");
        assert_eq!(draft.skin, SkinChoice::BuiltIn(BuiltIn::Bevel));
        assert_eq!(skin, BuiltIn::Bevel.skin());
        assert_eq!(row.value(), "bevel");
    }

    #[test]
    fn stepping_back_to_default_draws_the_flat_blocks() {
        let mut draft = Config {
            skin: SkinChoice::BuiltIn(BuiltIn::Bevel),
            ..Config::default()
        };
        let mut row = SkinRow::new(&draft);
        assert_eq!(row.step(&mut draft, -1), Some(None));
        assert_eq!(draft.skin, SkinChoice::Default);
    }

    #[test]
    fn a_skin_argument_names_a_built_in_or_a_file() {
        assert_eq!(
            choice_from_arg("outline"),
            (SkinChoice::BuiltIn(BuiltIn::Outline), None)
        );
        assert_eq!(
            choice_from_arg("skins/neon.png"),
            (SkinChoice::File, Some(PathBuf::from("skins/neon.png")))
        );
    }
}
