//! Sound: effects synthesised in code ([`sfx`]), themes of sound files that replace them
//! ([`theme`]) and playing them ([`audio`]).

pub mod audio;
// Without the `audio` feature the sounds are named but never synthesised.
#[cfg_attr(not(feature = "audio"), allow(dead_code))]
pub mod sfx;
#[cfg_attr(not(feature = "audio"), allow(dead_code))]
pub mod theme;
