//! Playing the sound effects of [`crate::sound::sfx`], or a theme's files in their place
//! ([`crate::sound::theme`]).
//!
//! With the `audio` feature the effects are loaded into macroquad's mixer at start-up. Without
//! the feature, or when the machine has no sound device, [`Audio`] is a silent stand-in with the
//! same methods, so game code never checks for sound.

use crate::sound::sfx::Sfx;
use crate::sound::theme::{Group, Name, Theme};

/// The loaded sound effects (or nothing, when sound is off).
pub struct Audio {
    #[cfg(feature = "audio")]
    sounds: Vec<(Sfx, macroquad::audio::Sound)>,
    volume: f32,
    /// Each group's share of the master volume, 0..=1: movement, clears, alerts.
    groups: [f32; 3],
}

/// The theme's sound that plays for `sfx`, if the theme has one for it.
pub fn theme_name(sfx: Sfx) -> Option<Name> {
    match sfx {
        Sfx::Lock | Sfx::HardDrop => Some(Name::Lock),
        Sfx::Clear => Some(Name::Clear1),
        Sfx::Clear2 => Some(Name::Clear2),
        Sfx::Clear3 => Some(Name::Clear3),
        Sfx::BigClear => Some(Name::Clear4),
        Sfx::Perfect => Some(Name::Perfect),
        Sfx::Combo => Some(Name::Combo),
        Sfx::Rotate => Some(Name::Rotate),
        Sfx::Hold => Some(Name::Hold),
        Sfx::TSpin => Some(Name::TSpin),
        Sfx::Garbage => Some(Name::Garbage),
        Sfx::Count => Some(Name::Countdown),
        Sfx::Go => Some(Name::Go),
        Sfx::Lose => Some(Name::TopOut),
        Sfx::Move => Some(Name::Move),
        Sfx::Win | Sfx::Select => None,
    }
}

/// The volume group `sfx` plays in.
pub fn group_of(sfx: Sfx) -> Group {
    match theme_name(sfx) {
        Some(name) => name.group(),
        None if sfx == Sfx::Select => Group::Movement,
        None => Group::Alerts,
    }
}

impl Audio {
    /// Loads every effect, `theme`'s file where it has one. Never fails: without a device the
    /// game is silent, and a theme's file the mixer cannot read leaves the built-in sound.
    pub async fn load(volume: u8, theme: &Theme) -> Audio {
        #[cfg(feature = "audio")]
        {
            let mut sounds = Vec::new();
            if device_present() {
                for sfx in Sfx::ALL {
                    if let Some(bytes) = theme_name(sfx).and_then(|n| theme.sound(n)) {
                        match macroquad::audio::load_sound_from_bytes(bytes).await {
                            Ok(sound) => {
                                sounds.push((sfx, sound));
                                continue;
                            }
                            Err(e) => tracing::warn!(?sfx, error = %e, "a theme's sound"),
                        }
                    }
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
                groups: [1.0; 3],
            }
        }
        #[cfg(not(feature = "audio"))]
        {
            let _ = theme;
            Audio {
                volume: f32::from(volume) / 100.0,
                groups: [1.0; 3],
            }
        }
    }

    /// Sets the master volume, 0..=100.
    pub fn set_volume(&mut self, volume: u8) {
        self.volume = f32::from(volume.min(100)) / 100.0;
    }

    /// Sets a group's volume, 0..=100 of the master volume.
    pub fn set_group_volume(&mut self, group: Group, volume: u8) {
        self.groups[group as usize] = f32::from(volume.min(100)) / 100.0;
    }

    /// Sets every group's volume from the settings' `sound_groups` (movement, clears, alerts).
    pub fn set_groups(&mut self, volumes: [u8; 3]) {
        for (group, v) in Group::ALL.into_iter().zip(volumes) {
            self.set_group_volume(group, v);
        }
    }

    /// The volume `sfx` plays at: the master volume times its group's.
    pub fn volume_of(&self, sfx: Sfx) -> f32 {
        self.volume * self.groups[group_of(sfx) as usize]
    }

    /// Plays `sfx` once at its volume ([`Audio::volume_of`]).
    pub fn play(&self, sfx: Sfx) {
        let volume = self.volume_of(sfx);
        #[cfg(feature = "audio")]
        if volume > 0.0
            && let Some((_, sound)) = self.sounds.iter().find(|(s, _)| *s == sfx)
        {
            macroquad::audio::play_sound(
                sound,
                macroquad::audio::PlaySoundParams {
                    looped: false,
                    volume,
                },
            );
        }
        #[cfg(not(feature = "audio"))]
        let _ = (sfx, volume);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(not(feature = "audio"))]
    fn a_groups_volume_scales_only_its_own_sounds() {
        let mut audio = pollster_block(Audio::load(80, &Theme::default()));
        audio.set_group_volume(Group::Clears, 50);
        assert!((audio.volume_of(Sfx::Clear) - 0.4).abs() < 1e-6);
        assert!((audio.volume_of(Sfx::Lock) - 0.8).abs() < 1e-6);
        audio.set_group_volume(Group::Alerts, 0);
        assert_eq!(audio.volume_of(Sfx::Garbage), 0.0);
    }

    #[test]
    fn every_sound_but_win_and_select_can_come_from_a_theme() {
        let themed = Sfx::ALL
            .iter()
            .filter(|s| theme_name(**s).is_some())
            .count();
        assert_eq!(themed, Sfx::ALL.len() - 2);
        assert_eq!(theme_name(Sfx::BigClear), Some(Name::Clear4));
    }

    #[cfg(not(feature = "audio"))]
    /// Runs a future that never waits (loading without the `audio` feature) to completion.
    fn pollster_block<F: std::future::Future>(f: F) -> F::Output {
        use std::task::{Context, Poll, Waker};
        let mut f = std::pin::pin!(f);
        let mut cx = Context::from_waker(Waker::noop());
        loop {
            if let Poll::Ready(out) = f.as_mut().poll(&mut cx) {
                return out;
            }
        }
    }
}
