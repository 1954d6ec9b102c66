//! Theme archives written here: a good one with a top folder, and hostile ones (not a ZIP, a
//! decompression bomb, a file that is not a sound).

use std::io::Write;

use super::*;
use crate::sound::sfx::Sfx;

/// A ZIP archive of `files` (name, bytes), deflated, written into `dir` as `theme.zip`.
fn archive(dir: &Path, files: &[(&str, Vec<u8>)]) -> std::path::PathBuf {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in files {
        w.start_file(*name, options).expect("entry");
        w.write_all(bytes).expect("bytes");
    }
    let bytes = w.finish().expect("archive").into_inner();
    let path = dir.join("theme.zip");
    std::fs::write(&path, bytes).expect("write");
    path
}

#[test]
fn an_archive_with_a_top_folder_gives_its_sounds_and_skips_other_files() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = archive(
        dir.path(),
        &[
            ("mytheme/lock.wav", Sfx::Lock.wav()),
            ("mytheme/Clear1.WAV", Sfx::Clear.wav()),
            ("mytheme/readme.txt", b"made by me".to_vec()),
        ],
    );
    let (theme, errors) = load_zip(&path);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(theme.len(), 2);
    assert_eq!(theme.sound(Name::Lock), Some(Sfx::Lock.wav().as_slice()));
    assert!(theme.sound(Name::Clear1).is_some());
}

#[test]
fn a_decompression_bomb_is_refused_unread_and_the_rest_still_loads() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bomb = vec![0u8; 8 * MAX_SOUND_BYTES];
    let path = archive(
        dir.path(),
        &[("garbage.wav", bomb), ("lock.wav", Sfx::Lock.wav())],
    );
    assert!(std::fs::metadata(&path).expect("size").len() < 100_000);
    let (theme, errors) = load_zip(&path);
    assert_eq!(
        errors,
        [ThemeError::TooLarge {
            path: path.join("garbage.wav")
        }]
    );
    assert!(theme.sound(Name::Lock).is_some());
}

#[test]
fn a_file_that_is_not_a_zip_archive_says_so() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("theme.zip");
    std::fs::write(&path, b"PK\x03\x04 not really").expect("write");
    let (theme, errors) = load_zip(&path);
    assert!(theme.is_empty());
    assert!(
        matches!(&errors[..], [ThemeError::Archive { detail, .. }] if detail.starts_with("not a ZIP archive")),
        "{errors:?}"
    );
}

#[test]
fn an_entry_that_is_not_a_sound_is_refused_by_its_name_in_the_archive() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = archive(dir.path(), &[("t/hold.wav", b"RIFF....JUNK".to_vec())]);
    let (theme, errors) = load_zip(&path);
    assert!(theme.is_empty());
    assert!(
        matches!(&errors[..], [ThemeError::NotSound { path: p, .. }] if *p == path.join("t/hold.wav")),
        "{errors:?}"
    );
}
