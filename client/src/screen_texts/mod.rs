//! Tests over every screen's words, above all the screens whose texts they read: each label
//! fits its box at every window size ([`text_fit`]), and no line on a touch screen names a key
//! ([`touch_words`]). No window is needed.

mod text_fit;
mod touch_words;
