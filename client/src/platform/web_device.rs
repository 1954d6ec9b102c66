//! The page's side of phones, tablets and gamepads (`client/web/sevenbag-keyboard.js`,
//! `client/web/sevenbag-device.js`), wrapped safely: the on-screen keyboard's invisible input,
//! whether the screen is a touch screen, keeping the screen on during a match, and gamepads
//! through the browser's Gamepad API. Only built for `wasm32`.

#![allow(unsafe_code)]

use macroquad::math::Rect;

#[link(wasm_import_module = "env")]
unsafe extern "C" {
    fn sb_text_input_show(kind: u32, ptr: *const u8, len: u32);
    fn sb_text_input_hide();
    fn sb_text_zones(ptr: *const f32, n: u32);
    fn sb_touch_device() -> i32;
    fn sb_wake_lock(on: u32);
    fn sb_gamepads(ptr: *mut u8, cap: u32) -> u32;
}

/// Most gamepads read (the page reports at most 4).
const MAX_PADS: usize = 4;
/// Bytes per pad in the page's report.
const PAD_BYTES: usize = super::PAGE_PAD_BYTES;

/// Opens the on-screen keyboard on a field holding `text`; `kind` 0 plain text, 1 a code
/// (capitals), 2 an address.
pub fn text_input_show(kind: u32, text: &str) {
    // SAFETY: the text is read within its length.
    unsafe { sb_text_input_show(kind, text.as_ptr(), text.len() as u32) }
}

/// Closes the on-screen keyboard; keys go to the game again.
pub fn text_input_hide() {
    // SAFETY: a plain call.
    unsafe { sb_text_input_hide() }
}

/// Where the text fields are, in canvas pixels: a tap there brings up the keyboard at once.
pub fn text_zones(zones: &[Rect]) {
    let flat: Vec<f32> = zones
        .iter()
        .take(64)
        .flat_map(|r| [r.x, r.y, r.w, r.h])
        .collect();
    // SAFETY: `n` rectangles of 4 f32 are read at `ptr`, which is `flat`.
    unsafe { sb_text_zones(flat.as_ptr(), (flat.len() / 4) as u32) }
}

/// Whether the page runs on a touch screen.
pub fn touch_device() -> bool {
    // SAFETY: a plain call.
    unsafe { sb_touch_device() == 1 }
}

/// Keeps the screen on (a match running) or lets it dim.
pub fn wake_lock(on: bool) {
    // SAFETY: a plain call.
    unsafe { sb_wake_lock(u32::from(on)) }
}

/// The page's report of the connected gamepads (read by [`crate::input::pad::parse_page_pads`]).
pub fn gamepads() -> Vec<u8> {
    let mut buf = vec![0u8; MAX_PADS * PAD_BYTES];
    // SAFETY: the page writes at most `cap` bytes at `ptr`, which is `buf`.
    let n = unsafe { sb_gamepads(buf.as_mut_ptr(), buf.len() as u32) } as usize;
    buf.truncate(n.min(MAX_PADS * PAD_BYTES));
    buf
}
