//! Sound themes against WAV files written here: good ones, and hostile ones (not a sound,
//! truncated, lying about their length, too large, too long).

use super::*;
use crate::sound::load_arg;

/// A 16-bit mono PCM WAV of `samples` samples at `rate` Hz, a quiet ramp.
fn wav(rate: u32, samples: u32) -> Vec<u8> {
    let data_len = samples * 2;
    let mut b = Vec::new();
    b.extend_from_slice(b"RIFF");
    b.extend_from_slice(&(36 + data_len).to_le_bytes());
    b.extend_from_slice(b"WAVEfmt ");
    b.extend_from_slice(&16u32.to_le_bytes());
    b.extend_from_slice(&1u16.to_le_bytes());
    b.extend_from_slice(&1u16.to_le_bytes());
    b.extend_from_slice(&rate.to_le_bytes());
    b.extend_from_slice(&(rate * 2).to_le_bytes());
    b.extend_from_slice(&2u16.to_le_bytes());
    b.extend_from_slice(&16u16.to_le_bytes());
    b.extend_from_slice(b"data");
    b.extend_from_slice(&data_len.to_le_bytes());
    for i in 0..samples {
        b.extend_from_slice(&((i % 200) as i16 * 50).to_le_bytes());
    }
    b
}

/// A folder holding `files` (name, bytes).
fn folder(files: &[(&str, Vec<u8>)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, bytes) in files {
        std::fs::write(dir.path().join(name), bytes).expect("write");
    }
    dir
}

#[test]
fn a_short_pcm_wav_passes_with_its_length() {
    let info = check_wav(&wav(22_050, 11_025)).expect("a sound");
    assert_eq!((info.rate, info.channels, info.bits), (22_050, 1, 16));
    assert!((info.seconds - 0.5).abs() < 1e-9, "{}", info.seconds);
}

#[test]
fn the_built_in_effects_pass_the_same_check() {
    for sfx in crate::sound::sfx::Sfx::ALL {
        assert!(check_wav(&sfx.wav()).is_ok(), "{sfx:?}");
    }
}

#[test]
fn bytes_without_a_riff_wave_header_are_not_a_wav() {
    assert_eq!(check_wav(b"ID3\x03 an mp3"), Err(WavError::NotWav));
    assert_eq!(check_wav(b""), Err(WavError::NotWav));
}

#[test]
fn a_wav_cut_inside_its_header_is_truncated() {
    let w = wav(22_050, 100);
    assert!(matches!(
        check_wav(&w[..30]),
        Err(WavError::LyingLength { .. })
    ));
    assert!(matches!(check_wav(&w[..14]), Err(WavError::Truncated(_))));
}

#[test]
fn a_data_chunk_claiming_more_than_the_file_holds_is_refused() {
    let mut w = wav(22_050, 100);
    w[40..44].copy_from_slice(&u32::MAX.to_le_bytes());
    assert_eq!(
        check_wav(&w),
        Err(WavError::LyingLength {
            claimed: u64::from(u32::MAX),
            held: 200
        })
    );
}

#[test]
fn a_format_other_than_pcm_is_refused_naming_it() {
    let mut w = wav(22_050, 100);
    w[20..22].copy_from_slice(&3u16.to_le_bytes());
    let e = check_wav(&w).unwrap_err();
    assert!(e.to_string().contains("format tag 3, not PCM"), "{e}");
}

#[test]
fn a_theme_folder_loads_its_sounds_and_leaves_the_rest_built_in() {
    let dir = folder(&[
        ("lock.wav", wav(22_050, 2_000)),
        ("go.wav", wav(44_100, 4_000)),
    ]);
    let (theme, errors) = Theme::load_dir(dir.path());
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(theme.len(), 2);
    assert_eq!(theme.sound(Name::Lock), Some(wav(22_050, 2_000).as_slice()));
    assert_eq!(theme.sound(Name::Rotate), None);
}

#[test]
fn a_file_that_is_not_a_sound_is_refused_by_name_and_the_rest_still_loads() {
    let dir = folder(&[
        ("hold.wav", b"PNG, not a sound".to_vec()),
        ("move.wav", wav(22_050, 500)),
    ]);
    let (theme, errors) = Theme::load_dir(dir.path());
    assert_eq!(theme.sound(Name::Move), Some(wav(22_050, 500).as_slice()));
    assert_eq!(theme.sound(Name::Hold), None);
    assert_eq!(errors.len(), 1);
    let e = errors[0].to_string();
    assert!(
        e.contains("hold.wav") && e.contains("not a sound: no RIFF/WAVE header"),
        "{e}"
    );
}

#[test]
fn a_file_over_the_size_limit_is_refused_unread() {
    let mut big = wav(22_050, 100);
    big.resize(MAX_SOUND_BYTES + 10, 0);
    let dir = folder(&[("clear4.wav", big)]);
    let (theme, errors) = Theme::load_dir(dir.path());
    assert!(theme.is_empty());
    assert!(matches!(&errors[..], [ThemeError::TooLarge { path }] if path.ends_with("clear4.wav")));
}

#[test]
fn a_sound_over_five_seconds_is_refused_with_its_length() {
    // 8 kHz 16-bit mono: 6 s is 96 000 bytes, well under the size limit.
    let dir = folder(&[("topout.wav", wav(8_000, 48_000))]);
    let (_, errors) = Theme::load_dir(dir.path());
    let e = errors.first().expect("refused").to_string();
    assert!(e.contains("topout.wav") && e.contains("6.0 s long"), "{e}");
}

#[test]
fn a_missing_folder_is_one_error_naming_it() {
    let (theme, errors) = Theme::load_dir(Path::new("/nonexistent/theme"));
    assert!(theme.is_empty());
    assert!(
        errors[0].to_string().starts_with("/nonexistent/theme: "),
        "{}",
        errors[0]
    );
}

#[test]
fn every_name_has_its_own_file_and_a_group() {
    let stems: std::collections::HashSet<_> = Name::ALL.iter().map(|n| n.stem()).collect();
    assert_eq!(stems.len(), Name::ALL.len());
    assert_eq!(Name::Clear4.group(), Group::Clears);
    assert_eq!(Name::Rotate.group(), Group::Movement);
    assert_eq!(Name::Countdown.group(), Group::Alerts);
}

#[test]
fn the_menu_note_names_the_first_refused_file_and_counts_the_rest() {
    let dir = folder(&[("go.wav", b"x".to_vec()), ("lock.wav", b"y".to_vec())]);
    let (_, note) = load_arg(Some(dir.path()));
    let note = note.expect("a note");
    assert!(
        note.contains("lock.wav") && note.ends_with("(and 1 more)"),
        "{note}"
    );
    assert_eq!(load_arg(None), (Theme::default(), None));
}
