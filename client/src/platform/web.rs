//! The page around the browser build: the functions `client/web/sevenbag.js` (a miniquad plugin)
//! gives the wasm module, wrapped safely. Only built for `wasm32`.
//!
//! Why our own plugin: wasm-bindgen's output (web-sys, ewebsock) does not load under macroquad's
//! JavaScript loader, and `quad-net`'s native side is raw TCP, not a WebSocket. The plugin is a
//! few `extern "C"` imports: a WebSocket whose events queue up in JavaScript and are polled once
//! per frame (binary payloads copied into wasm memory), a WebTransport session for the datagram
//! path ([`WebTransport`], the same way), `localStorage` for the settings, the
//! page's address (`location.href`), `performance.now()`, and the test hook's
//! `data-sevenbag` attribute ([`set_state`]). Strings and bytes cross as
//! pointer + length into the module's memory; nothing from JavaScript is trusted for its size.

#![allow(unsafe_code)]

#[link(wasm_import_module = "env")]
unsafe extern "C" {
    fn sb_now() -> f64;
    fn sb_location(ptr: *mut u8, cap: u32) -> u32;
    fn sb_storage_len(key: *const u8, key_len: u32) -> i32;
    fn sb_storage_get(key: *const u8, key_len: u32, ptr: *mut u8, cap: u32) -> i32;
    fn sb_storage_set(key: *const u8, key_len: u32, value: *const u8, value_len: u32) -> i32;
    fn sb_ws_open(url: *const u8, url_len: u32) -> u32;
    fn sb_ws_send(id: u32, ptr: *const u8, len: u32) -> u32;
    fn sb_ws_close(id: u32);
    fn sb_ws_next(id: u32) -> i32;
    fn sb_ws_take(id: u32, ptr: *mut u8, cap: u32) -> u32;
    fn sb_set_state(ptr: *const u8, len: u32);
    fn sb_wt_open(url: *const u8, url_len: u32, hash: *const u8, hash_len: u32) -> u32;
    fn sb_wt_send(id: u32, ptr: *const u8, len: u32) -> u32;
    fn sb_wt_close(id: u32);
    fn sb_wt_next(id: u32) -> i32;
    fn sb_wt_take(id: u32, ptr: *mut u8, cap: u32) -> u32;
}

/// The plugin version `sevenbag.js` checks against (miniquad's plugin convention).
#[unsafe(no_mangle)]
pub extern "C" fn sevenbag_crate_version() -> u32 {
    1
}

/// Seconds since the page started (`performance.now()`), for [`sevenbag_netplay::time`].
pub fn now_secs() -> f64 {
    // SAFETY: a plain import without arguments.
    unsafe { sb_now() / 1000.0 }
}

/// Publishes the test hook's summary ([`crate::checks::probe`]) as `<html data-sevenbag="...">`.
pub fn set_state(state: &str) {
    // SAFETY: the text is read within its length.
    unsafe { sb_set_state(state.as_ptr(), state.len() as u32) }
}

/// The page's address, `location.href` (at most 2 KiB).
pub fn location() -> String {
    let mut buf = vec![0u8; 2048];
    // SAFETY: the plugin writes at most `cap` bytes at `ptr`, which is our buffer.
    let n = unsafe { sb_location(buf.as_mut_ptr(), buf.len() as u32) } as usize;
    buf.truncate(n.min(2048));
    String::from_utf8_lossy(&buf).into_owned()
}

/// The most a stored value may be (settings are a few KiB of TOML).
pub const MAX_STORED: usize = 256 * 1024;
/// The most a value is read to be kept aside (a browser gives a site a few MB in all).
const MAX_BACKUP: usize = 8 * 1024 * 1024;

/// The length in bytes (UTF-8) of `localStorage[key]`, if set, whatever its size.
pub fn storage_len(key: &str) -> Option<usize> {
    // SAFETY: the key is read within its length.
    let len = unsafe { sb_storage_len(key.as_ptr(), key.len() as u32) };
    usize::try_from(len).ok()
}

/// `localStorage[key]`, if set (and not over [`MAX_STORED`] bytes of UTF-8).
pub fn storage_get(key: &str) -> Option<String> {
    read_stored(key, MAX_STORED)
}

/// Copies `localStorage[from]` to `localStorage[to]` (an unusable entry kept aside before the
/// game writes over it); false when there is nothing to copy or the browser refused.
pub fn storage_backup(from: &str, to: &str) -> bool {
    read_stored(from, MAX_BACKUP).is_some_and(|text| storage_set(to, &text))
}

fn read_stored(key: &str, max: usize) -> Option<String> {
    let len = storage_len(key)?;
    if len > max {
        return None;
    }
    let mut buf = vec![0u8; len];
    // SAFETY: the plugin writes at most `cap` bytes at `ptr`, which is our buffer.
    let n = unsafe {
        sb_storage_get(
            key.as_ptr(),
            key.len() as u32,
            buf.as_mut_ptr(),
            buf.len() as u32,
        )
    };
    let n = usize::try_from(n).ok()?;
    buf.truncate(n.min(len));
    String::from_utf8(buf).ok()
}

/// Sets `localStorage[key] = value`; false when the browser refused (storage full or off).
pub fn storage_set(key: &str, value: &str) -> bool {
    // SAFETY: both strings are read within their lengths.
    unsafe {
        sb_storage_set(
            key.as_ptr(),
            key.len() as u32,
            value.as_ptr(),
            value.len() as u32,
        ) == 1
    }
}

/// What a browser WebSocket reported, in order.
#[derive(Debug, PartialEq, Eq)]
pub enum WsEvent {
    /// Open.
    Open,
    /// A binary message.
    Binary(Vec<u8>),
    /// A text message (the protocol has none).
    Text,
    /// Closed, with the reason the browser gives.
    Closed(String),
}

/// One browser WebSocket (see the module docs). Dropping it closes the socket.
#[derive(Debug)]
pub struct WebSocket {
    id: u32,
}

impl WebSocket {
    /// Opens a socket to `url`; problems arrive as [`WsEvent::Closed`].
    pub fn open(url: &str) -> WebSocket {
        // SAFETY: the URL is read within its length.
        let id = unsafe { sb_ws_open(url.as_ptr(), url.len() as u32) };
        WebSocket { id }
    }

    /// Sends one binary message; false when the socket is not open.
    pub fn send(&self, bytes: &[u8]) -> bool {
        // SAFETY: the bytes are read within their length.
        unsafe { sb_ws_send(self.id, bytes.as_ptr(), bytes.len() as u32) == 1 }
    }

    /// Closes the socket (no more events are kept).
    pub fn close(&self) {
        // SAFETY: a plain call; an unknown id is ignored by the plugin.
        unsafe { sb_ws_close(self.id) }
    }

    /// The next event, if one is waiting; a binary message over `max` bytes is dropped and
    /// reported as closed (the connection is then useless anyway).
    pub fn next(&self, max: usize) -> Option<WsEvent> {
        // SAFETY: a plain call.
        let kind = unsafe { sb_ws_next(self.id) };
        match kind {
            1 => Some(WsEvent::Open),
            2 | 4 => {
                let len = usize::try_from(unsafe { sb_ws_take(self.id, std::ptr::null_mut(), 0) })
                    .unwrap_or(usize::MAX);
                if kind == 2 && len > max {
                    self.close();
                    return Some(WsEvent::Closed(format!(
                        "the server sent a message of {len} bytes (the most is {max})"
                    )));
                }
                let mut buf = vec![0u8; len.min(max.max(4096))];
                // SAFETY: the plugin writes at most `cap` bytes at `ptr`, which is our buffer.
                let n = unsafe { sb_ws_take(self.id, buf.as_mut_ptr(), buf.len() as u32) };
                buf.truncate((n as usize).min(buf.len()));
                Some(if kind == 2 {
                    WsEvent::Binary(buf)
                } else {
                    WsEvent::Closed(String::from_utf8_lossy(&buf).into_owned())
                })
            }
            3 => Some(WsEvent::Text),
            _ => None,
        }
    }
}

impl Drop for WebSocket {
    fn drop(&mut self) {
        self.close();
    }
}

/// What a browser WebTransport session reported, in order.
#[derive(Debug, PartialEq, Eq)]
pub enum WtEvent {
    /// The session is up: datagrams may be sent.
    Ready,
    /// A datagram.
    Datagram(Vec<u8>),
    /// Closed (or never opened), with why.
    Closed(String),
}

/// One browser WebTransport session, for datagrams only (see the module docs). Dropping it
/// closes the session.
#[derive(Debug)]
pub struct WebTransport {
    id: u32,
}

impl WebTransport {
    /// Opens a session to `url` (`https://…`), trusting the certificate with `hash` when given
    /// (`serverCertificateHashes`); problems arrive as [`WtEvent::Closed`].
    pub fn open(url: &str, hash: Option<[u8; 32]>) -> WebTransport {
        let (ptr, len) = match &hash {
            Some(h) => (h.as_ptr(), 32),
            None => (std::ptr::null(), 0),
        };
        // SAFETY: the URL and the hash are read within their lengths.
        let id = unsafe { sb_wt_open(url.as_ptr(), url.len() as u32, ptr, len) };
        WebTransport { id }
    }

    /// Sends one datagram; false when the session is not up.
    pub fn send(&self, bytes: &[u8]) -> bool {
        // SAFETY: the bytes are read within their length.
        unsafe { sb_wt_send(self.id, bytes.as_ptr(), bytes.len() as u32) == 1 }
    }

    /// The next event, if one is waiting; a datagram over `max` bytes is dropped.
    pub fn next(&self, max: usize) -> Option<WtEvent> {
        loop {
            // SAFETY: a plain call.
            let kind = unsafe { sb_wt_next(self.id) };
            return match kind {
                1 => Some(WtEvent::Ready),
                2 | 4 => {
                    // SAFETY: with a zero cap the plugin only reports the length.
                    let len = unsafe { sb_wt_take(self.id, std::ptr::null_mut(), 0) } as usize;
                    if kind == 2 && len > max {
                        continue;
                    }
                    let mut buf = vec![0u8; len.min(max.max(1024))];
                    // SAFETY: the plugin writes at most `cap` bytes at `ptr`, our buffer.
                    let n = unsafe { sb_wt_take(self.id, buf.as_mut_ptr(), buf.len() as u32) };
                    buf.truncate((n as usize).min(buf.len()));
                    Some(if kind == 2 {
                        WtEvent::Datagram(buf)
                    } else {
                        WtEvent::Closed(String::from_utf8_lossy(&buf).into_owned())
                    })
                }
                _ => None,
            };
        }
    }
}

impl Drop for WebTransport {
    fn drop(&mut self) {
        // SAFETY: a plain call; an unknown id is ignored by the plugin.
        unsafe { sb_wt_close(self.id) }
    }
}
