//! Sound: effects synthesised in code ([`sfx`]) and playing them ([`audio`]).

pub mod audio;
// Without the `audio` feature the sounds are named but never synthesised.
#[cfg_attr(not(feature = "audio"), allow(dead_code))]
pub mod sfx;
