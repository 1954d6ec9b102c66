//! Sound: effects synthesised in code ([`sfx`]), themes of sound files that replace them
//! ([`theme`], from a folder or a ZIP archive: [`theme_zip`]) and playing them ([`audio`]).

pub mod audio;
// Without the `audio` feature the sounds are named but never synthesised.
#[cfg_attr(not(feature = "audio"), allow(dead_code))]
pub mod sfx;
#[cfg_attr(not(feature = "audio"), allow(dead_code))]
pub mod theme;
#[cfg(not(target_arch = "wasm32"))]
#[cfg_attr(not(feature = "audio"), allow(dead_code))]
pub mod theme_zip;

use std::path::Path;

use theme::Theme;

/// The theme `--sound-theme` names, a folder or an archive (none: the built-in sounds), and,
/// if a file was refused, the menu's note naming the first (every refusal is logged).
pub fn load_arg(folder: Option<&Path>) -> (Theme, Option<String>) {
    let Some(folder) = folder else {
        return (Theme::default(), None);
    };
    #[cfg(not(target_arch = "wasm32"))]
    let (theme, errors) = if folder.is_file() {
        theme_zip::load_zip(folder)
    } else {
        Theme::load_dir(folder)
    };
    #[cfg(target_arch = "wasm32")]
    let (theme, errors) = Theme::load_dir(folder);
    for e in &errors {
        tracing::warn!(error = %e, "sound theme");
    }
    let note = errors.first().map(|e| {
        let more = match errors.len() - 1 {
            0 => String::new(),
            n => format!(" (and {n} more)"),
        };
        format!("Sound theme: built-in sound kept for {e}{more}")
    });
    (theme, note)
}
