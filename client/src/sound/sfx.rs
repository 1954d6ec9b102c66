//! Sound effects synthesised in code as WAV bytes: no asset files, no downloads.
//!
//! Each effect is a few notes of a simple waveform with an attack/decay envelope, rendered to
//! 16-bit mono PCM at 22 050 Hz. [`crate::sound::audio`] loads them when the `audio` feature is on; the
//! synthesis itself is always built and tested.

/// Every sound the game makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sfx {
    /// A piece locked.
    Lock,
    /// A piece was hard dropped.
    HardDrop,
    /// One line cleared.
    Clear,
    /// Two lines cleared.
    Clear2,
    /// Three lines cleared.
    Clear3,
    /// A quad.
    BigClear,
    /// A perfect clear.
    Perfect,
    /// A clear that continues a combo.
    Combo,
    /// The piece rotated.
    Rotate,
    /// The hold key swapped pieces.
    Hold,
    /// A T-spin clear.
    TSpin,
    /// Garbage rose on your board.
    Garbage,
    /// A countdown tick ("3", "2", "1").
    Count,
    /// "GO!".
    Go,
    /// You won.
    Win,
    /// You lost.
    Lose,
    /// A menu move.
    Move,
    /// A menu confirm.
    Select,
}

impl Sfx {
    /// All effects, for loading.
    pub const ALL: [Sfx; 18] = [
        Sfx::Lock,
        Sfx::HardDrop,
        Sfx::Clear,
        Sfx::Clear2,
        Sfx::Clear3,
        Sfx::BigClear,
        Sfx::Perfect,
        Sfx::Combo,
        Sfx::Rotate,
        Sfx::Hold,
        Sfx::TSpin,
        Sfx::Garbage,
        Sfx::Count,
        Sfx::Go,
        Sfx::Win,
        Sfx::Lose,
        Sfx::Move,
        Sfx::Select,
    ];

    /// The effect's notes.
    fn notes(self) -> Vec<Note> {
        use Wave::*;
        const fn n(freq: f32, start: f32, len: f32, wave: Wave, gain: f32) -> Note {
            Note {
                freq,
                slide: 1.0,
                start,
                len,
                wave,
                gain,
            }
        }
        const fn s(freq: f32, slide: f32, len: f32, wave: Wave, gain: f32) -> Note {
            Note {
                freq,
                slide,
                start: 0.0,
                len,
                wave,
                gain,
            }
        }
        match self {
            Sfx::Lock => vec![s(220.0, 0.7, 0.05, Triangle, 0.5)],
            Sfx::HardDrop => vec![
                s(140.0, 0.5, 0.09, Square, 0.35),
                s(900.0, 0.4, 0.03, Noise, 0.2),
            ],
            Sfx::Clear => vec![
                n(523.3, 0.0, 0.08, Square, 0.25),
                n(784.0, 0.05, 0.12, Square, 0.25),
            ],
            Sfx::Clear2 => vec![
                n(523.3, 0.0, 0.08, Square, 0.25),
                n(659.3, 0.05, 0.08, Square, 0.25),
                n(784.0, 0.1, 0.12, Square, 0.25),
            ],
            Sfx::Clear3 => vec![
                n(523.3, 0.0, 0.07, Square, 0.25),
                n(659.3, 0.05, 0.07, Square, 0.25),
                n(784.0, 0.1, 0.07, Square, 0.25),
                n(880.0, 0.15, 0.14, Square, 0.25),
            ],
            Sfx::Perfect => vec![
                n(784.0, 0.0, 0.1, Triangle, 0.35),
                n(1046.5, 0.08, 0.1, Triangle, 0.35),
                n(1318.5, 0.16, 0.1, Triangle, 0.35),
                n(1568.0, 0.24, 0.35, Sine, 0.4),
                n(2093.0, 0.3, 0.3, Sine, 0.2),
            ],
            Sfx::Combo => vec![n(1318.5, 0.0, 0.07, Sine, 0.3)],
            Sfx::Rotate => vec![n(1244.5, 0.0, 0.025, Sine, 0.18)],
            Sfx::Hold => vec![s(520.0, 1.4, 0.07, Triangle, 0.3)],
            Sfx::BigClear => vec![
                n(523.3, 0.0, 0.09, Square, 0.25),
                n(659.3, 0.06, 0.09, Square, 0.25),
                n(784.0, 0.12, 0.09, Square, 0.25),
                n(1046.5, 0.18, 0.22, Square, 0.25),
            ],
            Sfx::TSpin => vec![
                s(392.0, 1.6, 0.12, Triangle, 0.45),
                n(1174.7, 0.08, 0.18, Sine, 0.35),
                n(1568.0, 0.14, 0.2, Sine, 0.25),
            ],
            Sfx::Garbage => vec![
                s(110.0, 0.6, 0.16, Square, 0.3),
                s(400.0, 0.3, 0.1, Noise, 0.25),
            ],
            Sfx::Count => vec![n(660.0, 0.0, 0.12, Sine, 0.5)],
            Sfx::Go => vec![
                n(990.0, 0.0, 0.3, Sine, 0.5),
                n(1320.0, 0.0, 0.3, Sine, 0.2),
            ],
            Sfx::Win => vec![
                n(523.3, 0.0, 0.12, Triangle, 0.4),
                n(659.3, 0.12, 0.12, Triangle, 0.4),
                n(784.0, 0.24, 0.12, Triangle, 0.4),
                n(1046.5, 0.36, 0.45, Triangle, 0.45),
            ],
            Sfx::Lose => vec![
                n(392.0, 0.0, 0.18, Triangle, 0.4),
                n(311.1, 0.18, 0.18, Triangle, 0.4),
                n(233.1, 0.36, 0.5, Triangle, 0.45),
            ],
            Sfx::Move => vec![n(880.0, 0.0, 0.03, Sine, 0.25)],
            Sfx::Select => vec![
                n(660.0, 0.0, 0.05, Sine, 0.3),
                n(990.0, 0.04, 0.08, Sine, 0.3),
            ],
        }
    }

    /// The effect as a complete WAV file.
    pub fn wav(self) -> Vec<u8> {
        wav_bytes(&render(&self.notes()))
    }
}

/// Sample rate of the generated sounds.
pub const RATE: u32 = 22_050;

#[derive(Clone, Copy, Debug)]
enum Wave {
    Sine,
    Square,
    Triangle,
    Noise,
}

#[derive(Clone, Copy, Debug)]
struct Note {
    /// Start frequency in Hz.
    freq: f32,
    /// Frequency multiplier reached at the end of the note (1 = steady pitch).
    slide: f32,
    /// Start time in seconds.
    start: f32,
    /// Length in seconds.
    len: f32,
    wave: Wave,
    gain: f32,
}

/// Mixes `notes` into samples in -1..=1.
fn render(notes: &[Note]) -> Vec<f32> {
    let end = notes.iter().map(|n| n.start + n.len).fold(0.0, f32::max);
    let total = (end * RATE as f32).ceil() as usize + 1;
    let mut out = vec![0.0f32; total];
    let mut noise = 0x1234_5678u32;
    for note in notes {
        let first = (note.start * RATE as f32) as usize;
        let count = (note.len * RATE as f32) as usize;
        let mut phase = 0.0f32;
        for i in 0..count {
            let t = i as f32 / count as f32;
            let freq = note.freq * (1.0 + (note.slide - 1.0) * t);
            phase = (phase + freq / RATE as f32).fract();
            let v = match note.wave {
                Wave::Sine => (phase * std::f32::consts::TAU).sin(),
                Wave::Square => {
                    if phase < 0.5 {
                        1.0
                    } else {
                        -1.0
                    }
                }
                Wave::Triangle => 1.0 - 4.0 * (phase - 0.5).abs(),
                Wave::Noise => {
                    noise ^= noise << 13;
                    noise ^= noise >> 17;
                    noise ^= noise << 5;
                    (noise as f32 / u32::MAX as f32) * 2.0 - 1.0
                }
            };
            // 4 ms attack, then an exponential-looking decay to silence.
            let attack = (i as f32 / (0.004 * RATE as f32)).min(1.0);
            let decay = (1.0 - t).powi(2);
            if let Some(s) = out.get_mut(first + i) {
                *s += v * note.gain * attack * decay;
            }
        }
    }
    for s in &mut out {
        *s = s.clamp(-1.0, 1.0);
    }
    out
}

/// A RIFF/WAVE file: 16-bit mono PCM at [`RATE`].
fn wav_bytes(samples: &[f32]) -> Vec<u8> {
    let data_len = (samples.len() * 2) as u32;
    let mut b = Vec::with_capacity(44 + data_len as usize);
    b.extend_from_slice(b"RIFF");
    b.extend_from_slice(&(36 + data_len).to_le_bytes());
    b.extend_from_slice(b"WAVEfmt ");
    b.extend_from_slice(&16u32.to_le_bytes()); // fmt chunk size
    b.extend_from_slice(&1u16.to_le_bytes()); // PCM
    b.extend_from_slice(&1u16.to_le_bytes()); // mono
    b.extend_from_slice(&RATE.to_le_bytes());
    b.extend_from_slice(&(RATE * 2).to_le_bytes()); // byte rate
    b.extend_from_slice(&2u16.to_le_bytes()); // block align
    b.extend_from_slice(&16u16.to_le_bytes()); // bits per sample
    b.extend_from_slice(b"data");
    b.extend_from_slice(&data_len.to_le_bytes());
    for s in samples {
        b.extend_from_slice(&((s * i16::MAX as f32) as i16).to_le_bytes());
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_effect_is_a_well_formed_short_wav() {
        for sfx in Sfx::ALL {
            let wav = sfx.wav();
            assert_eq!(&wav[0..4], b"RIFF");
            assert_eq!(&wav[8..16], b"WAVEfmt ");
            let riff_len = u32::from_le_bytes([wav[4], wav[5], wav[6], wav[7]]) as usize;
            assert_eq!(riff_len + 8, wav.len(), "{sfx:?}");
            let data_len = u32::from_le_bytes([wav[40], wav[41], wav[42], wav[43]]) as usize;
            assert_eq!(data_len + 44, wav.len());
            let seconds = data_len as f32 / 2.0 / RATE as f32;
            assert!(seconds > 0.02 && seconds < 1.5, "{sfx:?} lasts {seconds}s");
            let loudest = wav[44..]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]).unsigned_abs())
                .max()
                .unwrap_or(0);
            assert!(loudest > 2000, "{sfx:?} is silent");
        }
    }
}
