//! Playing the sound effects of [`crate::sound::sfx`].
//!
//! With the `audio` feature the effects are loaded into macroquad's mixer at start-up. Without
//! the feature, or when the machine has no sound device, [`Audio`] is a silent stand-in with the
//! same methods, so game code never checks for sound.

use crate::sound::sfx::Sfx;

/// The loaded sound effects (or nothing, when sound is off).
pub struct Audio {
    #[cfg(feature = "audio")]
    sounds: Vec<(Sfx, macroquad::audio::Sound)>,
    volume: f32,
}

impl Audio {
    /// Loads every effect. Never fails: without a device the game is silent.
    pub async fn load(volume: u8) -> Audio {
        #[cfg(feature = "audio")]
        {
            let mut sounds = Vec::new();
            if device_present() {
                for sfx in Sfx::ALL {
                    match macroquad::audio::load_sound_from_bytes(&sfx.wav()).await {
                        Ok(sound) => sounds.push((sfx, sound)),
                        Err(e) => tracing::warn!(?sfx, error = %e, "could not load a sound"),
                    }
                }
            } else {
                tracing::info!("no sound device found; playing silently");
            }
            Audio {
                sounds,
                volume: f32::from(volume) / 100.0,
            }
        }
        #[cfg(not(feature = "audio"))]
        {
            Audio {
                volume: f32::from(volume) / 100.0,
            }
        }
    }

    /// Sets the master volume, 0..=100.
    pub fn set_volume(&mut self, volume: u8) {
        self.volume = f32::from(volume.min(100)) / 100.0;
    }

    /// Plays `sfx` once at the master volume.
    pub fn play(&self, sfx: Sfx) {
        #[cfg(feature = "audio")]
        if self.volume > 0.0
            && let Some((_, sound)) = self.sounds.iter().find(|(s, _)| *s == sfx)
        {
            macroquad::audio::play_sound(
                sound,
                macroquad::audio::PlaySoundParams {
                    looped: false,
                    volume: self.volume,
                },
            );
        }
        #[cfg(not(feature = "audio"))]
        let _ = (sfx, self.volume);
    }
}

/// Keeps a missing sound device quiet. macroquad starts its mixer thread before any game code
/// runs, and on a machine without a device that thread panics ("Can't open PCM device."). The
/// game carries on without it; this hook turns that one panic into a log line instead of a
/// backtrace, and leaves every other panic to the default hook.
#[cfg(feature = "audio")]
pub fn quiet_missing_device() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| info.payload().downcast_ref::<String>().map(String::as_str))
            .unwrap_or("");
        let audio_thread = std::thread::current().name().is_none()
            && (msg.starts_with("Can't open PCM device")
                || msg.contains("PCM device is not ready"));
        if audio_thread {
            tracing::warn!("no sound device ({msg}); playing silently");
        } else {
            default(info);
        }
    }));
}

/// Whether a sound device seems to exist. On Linux the ALSA backend panics its mixer thread when
/// it cannot open a device, so we look for `/dev/snd` before loading anything.
#[cfg(feature = "audio")]
fn device_present() -> bool {
    if cfg!(target_os = "linux") {
        std::path::Path::new("/dev/snd").exists()
    } else {
        true
    }
}
