//! The clipboard, for the game's links: macroquad's natively; in a page the browser's (through
//! `client/web/sevenbag-files.js`, which falls back to the older copy command where the
//! Clipboard API is missing, as on a plain-http LAN address).

/// Copies `text` to the clipboard. In a page the browser may refuse (no recent tap or key):
/// then the request fails and [`Copying::poll`] says why.
pub fn copy(text: &str) -> Copying {
    #[cfg(not(target_arch = "wasm32"))]
    {
        macroquad::miniquad::window::clipboard_set(text);
        Copying::Done
    }
    #[cfg(target_arch = "wasm32")]
    Copying::Page(crate::platform::web_files::copy(text))
}

/// A copy under way.
#[derive(Debug)]
pub enum Copying {
    /// Copied.
    Done,
    /// The page is copying.
    #[cfg(target_arch = "wasm32")]
    Page(crate::platform::web_files::Request),
}

impl Copying {
    /// `None` while still copying, then `Ok` or why it failed.
    pub fn poll(&self) -> Option<Result<(), String>> {
        match self {
            Copying::Done => Some(Ok(())),
            #[cfg(target_arch = "wasm32")]
            Copying::Page(r) => match r.poll() {
                crate::platform::web_files::Poll::Pending => None,
                crate::platform::web_files::Poll::Done => Some(Ok(())),
                crate::platform::web_files::Poll::Failed(why) => Some(Err(why)),
            },
        }
    }
}
