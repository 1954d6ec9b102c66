//! What the rows drawn this frame are and where (in a page, for the test hook, which taps them
//! by label; natively nothing is kept).

use macroquad::math::Rect;

#[cfg(target_arch = "wasm32")]
thread_local! {
    static DRAWN: std::cell::RefCell<Vec<(String, Rect)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Notes that a row labelled `label` was drawn at `r`.
pub fn record(label: &str, r: Rect) {
    #[cfg(target_arch = "wasm32")]
    DRAWN.with(|d| {
        let mut d = d.borrow_mut();
        if d.len() < 64 {
            d.push((label.to_owned(), r));
        }
    });
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (label, r);
}

/// The rows drawn since the last call.
#[cfg(target_arch = "wasm32")]
pub fn take() -> Vec<(String, Rect)> {
    DRAWN.with(|d| std::mem::take(&mut *d.borrow_mut()))
}
