//! The block skin the player chose: none (the flat blocks), a built-in, or (natively) a skin
//! file, and loading that choice into a [`Skin`] with the decoder's refusal in words.

use std::path::Path;

use sevenbag_skin::Skin;

use crate::render::builtin_skins::BuiltIn;

/// Which block skin the game draws with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SkinChoice {
    /// No skin: the flat bevelled blocks in the palette's colours.
    #[default]
    Default,
    /// A skin the game ships.
    BuiltIn(BuiltIn),
    /// The skin file at the settings' `skin_file` path (not in a browser, which has no paths).
    File,
}

impl SkinChoice {
    /// Every choice this build offers, in the order the settings step through them (in a
    /// browser, "from file…" is the skin last brought to the page).
    pub fn all() -> Vec<SkinChoice> {
        let mut v = vec![SkinChoice::Default];
        v.extend(BuiltIn::ALL.map(SkinChoice::BuiltIn));
        v.push(SkinChoice::File);
        v
    }

    /// The settings-file name: `default`, a built-in's name, or `file`.
    pub fn name(self) -> &'static str {
        match self {
            SkinChoice::Default => "default",
            SkinChoice::BuiltIn(b) => b.name(),
            SkinChoice::File => "file",
        }
    }

    /// The choice with settings-file name `name`.
    pub fn from_name(name: &str) -> Option<SkinChoice> {
        match name {
            "default" => Some(SkinChoice::Default),
            "file" => Some(SkinChoice::File),
            name => BuiltIn::from_name(name).map(SkinChoice::BuiltIn),
        }
    }

    /// What the settings screen shows.
    pub fn label(self) -> &'static str {
        match self {
            SkinChoice::Default => "default",
            SkinChoice::BuiltIn(b) => b.label(),
            SkinChoice::File => "from file…",
        }
    }

    /// The next (`step` > 0) or previous choice this build offers, wrapping.
    pub fn step(self, step: i32) -> SkinChoice {
        let all = SkinChoice::all();
        let i = all.iter().position(|c| *c == self).unwrap_or(0) as i32;
        all[(i + step).rem_euclid(all.len() as i32) as usize]
    }

    /// The skin this choice draws with (`None`: the flat blocks), reading `file` for
    /// [`SkinChoice::File`]; a file that cannot be used is an error in words.
    pub fn load(self, file: Option<&Path>) -> Result<Option<Skin>, String> {
        match self {
            SkinChoice::Default => Ok(None),
            SkinChoice::BuiltIn(b) => Ok(Some(b.skin())),
            // A page has one skin file: the one last brought to it.
            SkinChoice::File if cfg!(target_arch = "wasm32") => {
                let kept = super::page_skin::page_skin_path();
                read_skin_file(&kept.unwrap_or_default()).map(Some)
            }
            SkinChoice::File => match file {
                Some(path) => read_skin_file(path).map(Some),
                None => Err("no skin file chosen: type its path on the row below".to_owned()),
            },
        }
    }
}

/// Reads and decodes the skin file at `path`, reading no more than the decoder's size limit
/// (and one byte past it, so an oversized file is refused as one).
#[cfg(not(target_arch = "wasm32"))]
pub fn read_skin_file(path: &Path) -> Result<Skin, String> {
    use std::io::Read;
    let limit = sevenbag_skin::limits::MAX_FILE_BYTES as u64 + 1;
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(limit).read_to_end(&mut bytes))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    sevenbag_skin::decode(&bytes).map_err(|e| e.to_string())
}

/// In a browser: the skin the page keeps (a skin file brought to the page, decoded once;
/// [`super::page_skin`]).
#[cfg(target_arch = "wasm32")]
pub fn read_skin_file(path: &Path) -> Result<Skin, String> {
    let bytes = crate::platform::files::read(path)
        .map_err(|_| "no skin kept in this browser: drop a skin PNG on the page".to_owned())?;
    super::page_skin::from_file(&bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sevenbag_core::PieceKind;
    use sevenbag_skin::Layout;

    #[test]
    fn choice_names_round_trip() {
        for c in SkinChoice::all() {
            assert_eq!(SkinChoice::from_name(c.name()), Some(c));
        }
        assert_eq!(SkinChoice::from_name("glitter"), None);
    }

    #[test]
    fn stepping_visits_default_every_built_in_and_the_file_then_wraps() {
        let mut seen = vec![SkinChoice::Default];
        let mut c = SkinChoice::Default.step(1);
        while c != SkinChoice::Default {
            seen.push(c);
            c = c.step(1);
        }
        assert_eq!(seen, SkinChoice::all());
        assert_eq!(SkinChoice::Default.step(-1), SkinChoice::File);
    }

    #[test]
    fn the_default_choice_draws_no_skin() {
        assert_eq!(SkinChoice::Default.load(None), Ok(None));
    }

    #[test]
    fn a_built_in_choice_loads_its_skin() {
        let skin = SkinChoice::BuiltIn(BuiltIn::Outline)
            .load(None)
            .expect("built in")
            .expect("a skin");
        assert_eq!(skin.layout(), Layout::Jstris);
        assert_eq!(skin.piece(PieceKind::T), &skin.tiles()[8]);
    }

    #[test]
    fn the_file_choice_without_a_path_is_refused_in_words() {
        let e = SkinChoice::File.load(None).unwrap_err();
        assert!(e.contains("path"), "{e}");
    }

    #[test]
    fn a_missing_file_is_refused_with_its_path() {
        let e = read_skin_file(Path::new("/nonexistent/skin.png")).unwrap_err();
        assert!(e.contains("/nonexistent/skin.png"), "{e}");
    }

    #[test]
    fn a_file_that_is_not_a_png_is_refused_with_the_decoders_words() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let path = tmp.path().join("skin.png");
        std::fs::write(&path, b"GIF89a, not a skin").expect("write");
        assert_eq!(
            read_skin_file(&path).unwrap_err(),
            sevenbag_skin::SkinError::NotPng.to_string()
        );
    }
}
