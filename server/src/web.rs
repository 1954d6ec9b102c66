//! The browser build of the game, served from `--web-dir DIR` on the server's own port:
//! `GET /` and `GET /watch/{CODE}` answer `DIR/index.html` (the page reads its own location: a
//! room code in the path means "spectate it", and the WebSocket goes back to the same host),
//! and `GET /{file}` answers a file of `DIR` (`sevenbag.wasm`, the JavaScript loader...);
//! `GET /favicon.ico` is `204 No Content` when `DIR` has none (no console error in the page).
//! Files are also found under `/watch/` (`/watch/sevenbag.wasm`), so the page may name its
//! files relatively.
//!
//! # What is served, and how
//! - **Content types** are set here from the extension, not guessed: `application/wasm` (a
//!   browser refuses `WebAssembly.instantiateStreaming` for anything else), `text/javascript`,
//!   `text/html; charset=utf-8`, ... and `application/octet-stream` for the rest.
//! - **Caching**: every answer carries `Cache-Control: no-cache` (the browser keeps its copy
//!   but asks each time whether it changed) with `ETag` and `Last-Modified`, so an unchanged
//!   file costs a `304` and no body. The build writes fixed names (`sevenbag.wasm`, not
//!   content-hashed ones), so a longer `max-age` would keep players on an old game after an
//!   upgrade; revalidation is one small request per file.
//! - **Compression**: `DIR/F.gz` beside `DIR/F` is sent as is (`Content-Encoding: gzip`) to a
//!   client that accepts gzip; otherwise the answer is gzipped on the fly for such a client.
//! - **Same origin**: the page and its WebSocket come from one host and port, so no CORS
//!   header is needed (and none is sent: other sites' pages get nothing extra).
//!
//! # What is refused (`404`, the API's JSON error)
//! Paths whose decoded components are empty, `.`/`..`, hidden (`.git`), or hold `\`, `:` or
//! NUL (so `/../`, `%2e%2e`, absolute and Windows paths); paths longer than
//! [`MAX_PATH_BYTES`]; anything that is not a regular file once symlinks are resolved (no
//! directory listings); anything that resolves outside `DIR` (a symlink out of it); files over
//! [`MAX_FILE_BYTES`]. The `DIR` itself is resolved once at start-up (`resolve_root`).
//! A WebSocket upgrade never reaches this module: `crate::http` sends it to the game protocol
//! first, on every path.
//!
//! # Why tower-http
//! `tower-http`'s `ServeFile` does the HTTP side of file serving — `HEAD`, ranges,
//! `If-None-Match`/`If-Modified-Since` → `304`, precompressed variants, streaming the file in
//! 64 KiB chunks so memory stays bounded whatever its size — and its `CompressionLayer` the
//! gzip. It is the tower project's own middleware crate, on the same `http`/`tower` versions as
//! axum and hyper, and with only the `fs` and `compression-gzip` features it adds
//! `async-compression`, `http-range-header`, `mime_guess` and `httpdate` (`flate2` was already
//! in the tree). What is written here is only the choice of file: the path checks above, done
//! on the resolved path that is then handed to `ServeFile`, so the file checked is the file
//! served.

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tower::ServiceExt;
use tower_http::compression::CompressionLayer;
use tower_http::services::ServeFile;
use tracing::warn;

/// Largest file served: a release `.wasm` of the game is a few MB.
pub(crate) const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;
/// Longest request path looked up, in bytes (decoded).
pub(crate) const MAX_PATH_BYTES: usize = 512;
/// Longest room code in `/watch/{CODE}` (codes are 5 letters; some slack for later formats).
const MAX_CODE_LEN: usize = 16;
/// The page every route but files answers.
const INDEX: &str = "index.html";

/// Why `--web-dir` cannot be served.
#[derive(Debug, thiserror::Error)]
pub enum WebDirError {
    /// The directory cannot be resolved or read.
    #[error("cannot use web directory {path}: {source}")]
    Io {
        /// The directory as given.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// It is not a directory, or holds no `index.html`.
    #[error(
        "web directory {path} has no index.html (build the browser game with `bash client/web/build`, which writes target/web)"
    )]
    NoIndex {
        /// The directory as given.
        path: PathBuf,
    },
}

/// Resolves `--web-dir` once at start-up: the canonical directory (symlinks followed), which
/// must exist and hold an `index.html`.
pub(crate) fn resolve_root(dir: &Path) -> Result<PathBuf, WebDirError> {
    let root = std::fs::canonicalize(dir).map_err(|source| WebDirError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    if !root.join(INDEX).is_file() {
        return Err(WebDirError::NoIndex {
            path: dir.to_path_buf(),
        });
    }
    Ok(root)
}

/// The site's routes for the canonical directory `root` (from [`resolve_root`]), for any
/// router state. Every answer gets `Cache-Control: no-cache` and `X-Content-Type-Options:
/// nosniff`, and gzip for a client that accepts it.
pub(crate) fn routes<S: Clone + Send + Sync + 'static>(root: PathBuf) -> Router<S> {
    Router::new()
        .route("/", get(index))
        .route("/watch/{*path}", get(watch))
        .route("/favicon.ico", get(favicon))
        .route("/{*path}", get(file))
        .with_state(Arc::new(root))
        .layer(
            CompressionLayer::new()
                .gzip(true)
                .no_br()
                .no_deflate()
                .no_zstd(),
        )
        .layer(axum::middleware::map_response(headers))
}

/// Adds the caching and content-sniffing headers to every answer of the site.
async fn headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

/// `GET /`: the page.
async fn index(State(root): State<Arc<PathBuf>>, request: Request) -> Response {
    serve(&root, INDEX, request).await
}

/// `GET /watch/{CODE}`: the same page (it reads the code from its location). Any other path
/// under `/watch/` is a file of the directory, as if at the root: the page at `/watch/CODE`
/// may load its files by relative names (`sevenbag.wasm` → `/watch/sevenbag.wasm`), and a room
/// code (letters and digits only) is never a file name with a dot.
async fn watch(
    State(root): State<Arc<PathBuf>>,
    axum::extract::Path(path): axum::extract::Path<String>,
    request: Request,
) -> Response {
    let is_code = !path.is_empty()
        && path.len() <= MAX_CODE_LEN
        && path.bytes().all(|b| b.is_ascii_alphanumeric());
    if is_code {
        serve(&root, INDEX, request).await
    } else if path.contains('.') {
        serve(&root, &path, request).await
    } else {
        not_found()
    }
}

/// `GET /favicon.ico`: the directory's, or `204 No Content` when it has none (browsers ask for
/// it by themselves, and a `404` would be an error in the page's console).
async fn favicon(State(root): State<Arc<PathBuf>>, request: Request) -> Response {
    if resolve(&root, "favicon.ico").await.is_some() {
        serve(&root, "favicon.ico", request).await
    } else {
        StatusCode::NO_CONTENT.into_response()
    }
}

/// `GET /{path}`: a file of the directory.
async fn file(
    State(root): State<Arc<PathBuf>>,
    axum::extract::Path(path): axum::extract::Path<String>,
    request: Request,
) -> Response {
    serve(&root, &path, request).await
}

/// Serves `relative` (already percent-decoded) from `root` if every check passes.
async fn serve(root: &Path, relative: &str, request: Request) -> Response {
    let Some(file) = resolve(root, relative).await else {
        return not_found();
    };
    let mime = content_type(&file);
    let mut service = ServeFile::new_with_mime(&file, &mime);
    if gzip_sibling_is_safe(root, &file).await {
        service = service.precompressed_gzip();
    }
    match service.oneshot(request).await {
        Ok(response) => response.map(axum::body::Body::new),
        Err(e) => {
            warn!(file = %file.display(), error = %e, "cannot serve a web file");
            (StatusCode::INTERNAL_SERVER_ERROR, "cannot read the file\n").into_response()
        }
    }
}

/// The file `relative` names inside `root`, or `None` when the path is refused (see the
/// module docs) or names no regular file of at most [`MAX_FILE_BYTES`] inside `root`.
pub(crate) async fn resolve(root: &Path, relative: &str) -> Option<PathBuf> {
    if relative.len() > MAX_PATH_BYTES {
        return None;
    }
    let mut path = root.to_path_buf();
    for part in relative.split('/') {
        let plain = !part.is_empty()
            && !part.starts_with('.')
            && !part.contains(['\\', ':', '\0'])
            && matches!(
                Path::new(part).components().next(),
                Some(Component::Normal(_))
            )
            && Path::new(part).components().count() == 1;
        if !plain {
            return None;
        }
        path.push(part);
    }
    inside(root, &path).await
}

/// `path` with symlinks resolved if that is a regular file inside `root` of at most
/// [`MAX_FILE_BYTES`].
async fn inside(root: &Path, path: &Path) -> Option<PathBuf> {
    let real = tokio::fs::canonicalize(path).await.ok()?;
    if !real.starts_with(root) {
        warn!(path = %path.display(), "a web file resolves outside the web directory");
        return None;
    }
    let meta = tokio::fs::metadata(&real).await.ok()?;
    if !meta.is_file() {
        return None;
    }
    if meta.len() > MAX_FILE_BYTES {
        warn!(path = %real.display(), bytes = meta.len(), "a web file is over the size limit");
        return None;
    }
    Some(real)
}

/// Whether `file.gz`, if there is one, passes the same checks (so a symlinked `.gz` cannot
/// lead out of the directory either).
async fn gzip_sibling_is_safe(root: &Path, file: &Path) -> bool {
    let mut gz = file.as_os_str().to_owned();
    gz.push(".gz");
    inside(root, Path::new(&gz)).await.is_some()
}

/// The `Content-Type` of a file, by extension.
fn content_type(file: &Path) -> mime::Mime {
    let ext = file
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let name = match ext.as_deref() {
        Some("html" | "htm") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript",
        Some("wasm") => "application/wasm",
        Some("css") => "text/css; charset=utf-8",
        Some("json" | "map") => "application/json",
        Some("txt") => "text/plain; charset=utf-8",
        Some("png") => "image/png",
        Some("svg") => "image/svg+xml",
        Some("ico") => "image/x-icon",
        Some("ttf") => "font/ttf",
        Some("woff2") => "font/woff2",
        Some("gz") => "application/gzip",
        _ => "application/octet-stream",
    };
    name.parse().unwrap_or(mime::APPLICATION_OCTET_STREAM)
}

/// The API's JSON `404`.
fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        axum::Json(serde_json::json!({ "error": "no such page" })),
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_types_are_the_ones_browsers_insist_on() {
        let ct = |f: &str| content_type(Path::new(f)).to_string();
        assert_eq!(ct("/x/sevenbag.wasm"), "application/wasm");
        assert_eq!(ct("/x/gl.js"), "text/javascript");
        assert_eq!(ct("/x/index.html"), "text/html; charset=utf-8");
        assert_eq!(ct("/x/README"), "application/octet-stream");
    }

    #[tokio::test]
    async fn paths_with_dots_hidden_parts_or_separators_are_refused() {
        let root = std::env::temp_dir();
        for bad in [
            "",
            "..",
            "../etc/passwd",
            "a/../b",
            "./a",
            ".git/config",
            "a//b",
            "a\\b",
            "c:x",
            "a\0b",
            "/etc/passwd",
        ] {
            assert_eq!(resolve(&root, bad).await, None, "{bad:?}");
        }
        assert_eq!(resolve(&root, &"a".repeat(MAX_PATH_BYTES + 1)).await, None);
    }
}
