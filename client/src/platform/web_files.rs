//! The page's side of files and links (`client/web/sevenbag-storage.js`,
//! `client/web/sevenbag-files.js`), wrapped safely: the page's files that `platform::files`
//! reads and writes, what the page skipped of its stored entries, randomness, a `.sbrp` saved
//! through the browser's download or opened by the file picker or a drop, a link copied or
//! shared, and the address bar. Only built for `wasm32`. Every length the page reports is
//! checked against the game's own limit before anything is copied.

#![allow(unsafe_code)]

#[link(wasm_import_module = "env")]
unsafe extern "C" {
    fn sb_random(ptr: *mut u8, len: u32);
    fn sb_fs_ready() -> i32;
    fn sb_fs_read(path: *const u8, path_len: u32, ptr: *mut u8, cap: u32) -> i32;
    fn sb_fs_write(path: *const u8, path_len: u32, ptr: *const u8, len: u32) -> i32;
    fn sb_fs_remove(path: *const u8, path_len: u32) -> i32;
    fn sb_fs_rename(from: *const u8, from_len: u32, to: *const u8, to_len: u32) -> i32;
    fn sb_fs_list(prefix: *const u8, prefix_len: u32, ptr: *mut u8, cap: u32) -> i32;
    fn sb_fs_skipped(ptr: *mut u8, cap: u32) -> i32;
    fn sb_fs_problem(ptr: *mut u8, cap: u32) -> i32;
    fn sb_storage_persist() -> u32;
    fn sb_req_state(id: u32) -> i32;
    fn sb_req_take(id: u32, ptr: *mut u8, cap: u32) -> u32;
    fn sb_req_free(id: u32);
    fn sb_download(
        name: *const u8,
        name_len: u32,
        ptr: *const u8,
        len: u32,
        mime: *const u8,
        mime_len: u32,
    ) -> i32;
    fn sb_files_accept(ext: *const u8, ext_len: u32, max: u32);
    fn sb_file_pick() -> i32;
    fn sb_file_next() -> i32;
    fn sb_file_take(part: u32, ptr: *mut u8, cap: u32) -> u32;
    fn sb_clipboard_write(ptr: *const u8, len: u32) -> u32;
    fn sb_fetch_file(ptr: *const u8, len: u32, max: u32) -> u32;
    fn sb_history_replace(ptr: *const u8, len: u32) -> i32;
    fn sb_image_decode(ptr: *const u8, len: u32, max_pixels: u32) -> u32;
}

/// The most one file of the page may be (the replay format's limit).
pub const MAX_FILE: usize = sevenbag_protocol::replay::MAX_REPLAY_BYTES;
/// The most a listing or a message from the page may be.
const MAX_LIST: usize = 4 * 1024 * 1024;

/// Calls `call(ptr, cap)` first with capacity 0 for the length (negative: nothing there), then
/// with a buffer of that length, refusing more than `max` bytes.
fn fetch(max: usize, call: impl Fn(*mut u8, u32) -> i32) -> Option<Vec<u8>> {
    let len = usize::try_from(call(std::ptr::null_mut(), 0)).ok()?;
    if len > max {
        return None;
    }
    let mut buf = vec![0u8; len];
    if len > 0 {
        let n = usize::try_from(call(buf.as_mut_ptr(), len as u32)).ok()?;
        buf.truncate(n.min(len));
    }
    Some(buf)
}

/// Fills `out` from the browser's cryptographic randomness.
pub fn random(out: &mut [u8]) {
    // SAFETY: the page writes exactly `len` bytes at `ptr`, which is `out`.
    unsafe { sb_random(out.as_mut_ptr(), out.len() as u32) }
}

/// Whether the page has read its stored files: `Some(true)` ready, `Some(false)` kept in memory
/// only (IndexedDB unusable; [`problem`] says why), `None` still reading.
pub fn ready() -> Option<bool> {
    // SAFETY: a plain call.
    match unsafe { sb_fs_ready() } {
        1 => Some(true),
        -1 => Some(false),
        _ => None,
    }
}

/// The file at page path `key`.
pub fn read(key: &str) -> Option<Vec<u8>> {
    // SAFETY: the page writes at most `cap` bytes at `ptr`; the key is read within its length.
    fetch(MAX_FILE, |ptr, cap| unsafe {
        sb_fs_read(key.as_ptr(), key.len() as u32, ptr, cap)
    })
}

/// The size of the file at page path `key`.
pub fn len(key: &str) -> Option<usize> {
    // SAFETY: capacity 0 asks for the length only.
    let n = unsafe { sb_fs_read(key.as_ptr(), key.len() as u32, std::ptr::null_mut(), 0) };
    usize::try_from(n).ok()
}

/// Writes the file at page path `key`; false when the page refused (over its limits).
pub fn write(key: &str, bytes: &[u8]) -> bool {
    // SAFETY: both are read within their lengths.
    unsafe {
        sb_fs_write(
            key.as_ptr(),
            key.len() as u32,
            bytes.as_ptr(),
            bytes.len() as u32,
        ) == 1
    }
}

/// Deletes the file at page path `key`; false when there was none.
pub fn remove(key: &str) -> bool {
    // SAFETY: read within its length.
    unsafe { sb_fs_remove(key.as_ptr(), key.len() as u32) == 1 }
}

/// Renames a page file; false when `from` was not there or `to` was refused.
pub fn rename(from: &str, to: &str) -> bool {
    // SAFETY: both are read within their lengths.
    unsafe {
        sb_fs_rename(
            from.as_ptr(),
            from.len() as u32,
            to.as_ptr(),
            to.len() as u32,
        ) == 1
    }
}

/// The page paths starting with `prefix`, sorted.
pub fn list(prefix: &str) -> Vec<String> {
    // SAFETY: the page writes at most `cap` bytes at `ptr`; the prefix is read within its length.
    fetch(MAX_LIST, |ptr, cap| unsafe {
        sb_fs_list(prefix.as_ptr(), prefix.len() as u32, ptr, cap)
    })
    .map(|b| crate::platform::page::decode_list(&b))
    .unwrap_or_default()
}

/// "key: why" for each stored entry the page did not take as a file (read once, when the page's
/// files are ready, and kept).
pub fn skipped() -> &'static [String] {
    static SKIPPED: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    SKIPPED.get_or_init(|| {
        // SAFETY: the page writes at most `cap` bytes at `ptr`.
        fetch(MAX_LIST, |ptr, cap| unsafe { sb_fs_skipped(ptr, cap) })
            .map(|b| crate::platform::page::decode_list(&b))
            .unwrap_or_default()
    })
}

/// The last failure to keep a file, if any (then forgotten).
pub fn problem() -> Option<String> {
    // SAFETY: the page writes at most `cap` bytes at `ptr`.
    fetch(64 * 1024, |ptr, cap| unsafe { sb_fs_problem(ptr, cap) })
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .filter(|t| !t.is_empty())
}

/// Asks the browser to keep the site's storage under pressure (the player key is there).
pub fn ask_to_persist() {
    // SAFETY: a plain call; the answer is not needed, so the request is let go at once.
    unsafe { sb_req_free(sb_storage_persist()) }
}

/// Where a request of the page stands.
#[derive(Debug, PartialEq, Eq)]
pub enum Poll {
    /// Still running.
    Pending,
    /// Done.
    Done,
    /// Failed, for this reason.
    Failed(String),
}

/// A request of the page (clipboard...): poll it each frame; dropping it lets it go.
#[derive(Debug)]
pub struct Request(u32);

impl Request {
    /// Where it stands; a request the page refused to start (too many waiting) has failed.
    pub fn poll(&self) -> Poll {
        if self.0 == 0 {
            return Poll::Failed("the page is busy".into());
        }
        // SAFETY: a plain call.
        match unsafe { sb_req_state(self.0) } {
            0 => Poll::Pending,
            1 | 2 => Poll::Done,
            _ => {
                let id = self.0;
                // SAFETY: the page writes at most `cap` bytes at `ptr`.
                let why = fetch(64 * 1024, |ptr, cap| unsafe {
                    sb_req_take(id, ptr, cap) as i32
                })
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .unwrap_or_default();
                Poll::Failed(why)
            }
        }
    }
}

impl Request {
    /// A finished request's result, at most `max` bytes (`None` past it, or before the end).
    pub fn take(&self, max: usize) -> Option<Vec<u8>> {
        let id = self.0;
        // SAFETY: the page writes at most `cap` bytes at `ptr`.
        fetch(max, |ptr, cap| unsafe { sb_req_take(id, ptr, cap) as i32 })
    }
}

/// Has the browser decode the image file `bytes` (already checked: see
/// `sevenbag_skin::check`) into 8-bit RGBA, refusing more than `max_pixels`: the result is the
/// width and height (u32 little-endian each), then the pixels.
pub fn decode_image(bytes: &[u8], max_pixels: u32) -> Request {
    // SAFETY: read within its length.
    Request(unsafe { sb_image_decode(bytes.as_ptr(), bytes.len() as u32, max_pixels) })
}

/// Reads the file at the http(s) link `url`, at most `max` bytes (the other site must allow
/// it: CORS); the result is the file's bytes.
pub fn fetch_file(url: &str, max: u32) -> Request {
    // SAFETY: read within its length.
    Request(unsafe { sb_fetch_file(url.as_ptr(), url.len() as u32, max) })
}

impl Drop for Request {
    fn drop(&mut self) {
        // SAFETY: a plain call; the page forgets the request (at once, or when it finishes).
        unsafe { sb_req_free(self.0) }
    }
}

/// Saves `bytes` as a file named `name` through the browser's download; false if refused.
pub fn download(name: &str, bytes: &[u8]) -> bool {
    let mime = "application/octet-stream";
    // SAFETY: all three are read within their lengths.
    unsafe {
        sb_download(
            name.as_ptr(),
            name.len() as u32,
            bytes.as_ptr(),
            bytes.len() as u32,
            mime.as_ptr(),
            mime.len() as u32,
        ) == 1
    }
}

/// What the game opens from the picker and drops: files ending in one of `extensions`
/// (comma-separated, `.sbrp`), at most `max` bytes.
pub fn accept_files(extensions: &str, max: usize) {
    let max = max.min(MAX_FILE) as u32;
    // SAFETY: read within its length.
    unsafe { sb_files_accept(extensions.as_ptr(), extensions.len() as u32, max) }
}

/// Opens the browser's file picker (it needs a recent tap, click or key); false if refused.
pub fn pick_file() -> bool {
    // SAFETY: a plain call.
    unsafe { sb_file_pick() == 1 }
}

/// A file the player picked or dropped.
#[derive(Debug, PartialEq, Eq)]
pub enum Opened {
    /// Its name and bytes (within the limit given to [`accept_files`]).
    File(String, Vec<u8>),
    /// Its name and why the page refused it (too large, another kind, unreadable).
    Refused(String, String),
}

/// The next file picked or dropped, if one is waiting.
pub fn next_file() -> Option<Opened> {
    // SAFETY: a plain call.
    let kind = unsafe { sb_file_next() };
    if kind == 0 {
        return None;
    }
    let take = |part: u32, max: usize| {
        // SAFETY: the page writes at most `cap` bytes at `ptr`.
        fetch(max, |ptr, cap| unsafe {
            sb_file_take(part, ptr, cap) as i32
        })
        .unwrap_or_default()
    };
    let name = String::from_utf8_lossy(&take(0, 1024)).into_owned();
    Some(match kind {
        1 => Opened::File(name, take(1, MAX_FILE)),
        _ => Opened::Refused(
            name,
            String::from_utf8_lossy(&take(1, 64 * 1024)).into_owned(),
        ),
    })
}

/// Copies `text` to the clipboard.
pub fn copy(text: &str) -> Request {
    // SAFETY: read within its length.
    Request(unsafe { sb_clipboard_write(text.as_ptr(), text.len() as u32) })
}

/// Shows `path` (this site's, from `/`) in the address bar without loading it.
pub fn show_path(path: &str) -> bool {
    // SAFETY: read within its length.
    unsafe { sb_history_replace(path.as_ptr(), path.len() as u32) == 1 }
}
