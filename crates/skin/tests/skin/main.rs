//! The skin decoder against skins built here with the `png` encoder: the three layouts read
//! to the right tiles, every hostile file refused with its own error within bounded time, and the
//! canonical re-encoding reading back to the same skin and id.

mod canonical;
mod connected;
mod hostile;
mod layouts;
mod support;
