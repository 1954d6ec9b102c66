//! The browser build of the game on the server's own port, from the directory `client/web/build`
//! writes (`--web-dir DIR`, else the first of [`default_dirs`] that holds a build):
//! `GET /` answers `DIR/index.html`, and so do the game's links `/room/CODE`, `/watch/CODE`,
//! `/replay/ID` and `/puzzle/CODE` when their code can be one (`links.rs`; the page reads its
//! own location, and its WebSocket goes back to the same host); a link whose code cannot be
//! one gets a page saying what such a link looks like (`pages.rs`). `GET /{file}` answers a
//! file of `DIR` (`sevenbag.wasm`, the JavaScript loader...); `GET /favicon.ico` is `204 No
//! Content` when `DIR` has none (no console error in the page). Files are also found under
//! `/watch/` (`/watch/sevenbag.wasm`), so an older page may name its files relatively.
//! Without a build to serve, `/` and the links answer a page saying how to build it.
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
//!   client that accepts gzip (the build writes `sevenbag.wasm.gz`); otherwise the answer is
//!   gzipped on the fly for such a client.
//! - **Same origin**: the page and its WebSocket come from one host and port, so no CORS
//!   header is needed (and none is sent: other sites' pages get nothing extra).
//!
//! # What is refused (`404`, the API's JSON error)
//! Paths whose decoded components are empty, `.`/`..`, hidden (`.git`), or hold `\`, `:` or
//! NUL (so `/../`, `%2e%2e`, absolute and Windows paths); paths longer than
//! [`files::MAX_PATH_BYTES`]; anything that is not a regular file once symlinks are resolved
//! (no directory listings); anything that resolves outside `DIR` (a symlink out of it); files
//! over [`files::MAX_FILE_BYTES`]. The `DIR` itself is resolved once at start-up
//! ([`resolve_root`]). A WebSocket upgrade never reaches this module: `crate::http` sends it to
//! the game protocol first, on every path.
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

mod files;
mod links;
mod pages;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tower_http::compression::CompressionLayer;

use links::LinkKind;

/// The page every route but files answers.
const INDEX: &str = "index.html";

/// Why `--web-dir` cannot be served.
#[derive(Debug, thiserror::Error)]
pub enum WebDirError {
    /// The directory does not exist.
    #[error("web directory {path} does not exist: the browser game is not built there; {hint}", hint = pages::BUILD_HINT)]
    Missing {
        /// The directory as given.
        path: PathBuf,
    },
    /// The directory cannot be resolved or read.
    #[error("cannot use web directory {path}: {source}")]
    Io {
        /// The directory as given.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// It is not a directory, or holds no `index.html` (an empty directory, say).
    #[error("web directory {path} has no index.html: the browser game is not built there; {hint}", hint = pages::BUILD_HINT)]
    NoIndex {
        /// The directory as given.
        path: PathBuf,
    },
}

/// Resolves `--web-dir` once at start-up: the canonical directory (symlinks followed), which
/// must exist and hold an `index.html`.
pub(crate) fn resolve_root(dir: &Path) -> Result<PathBuf, WebDirError> {
    let path = dir.to_path_buf();
    let root = std::fs::canonicalize(dir).map_err(|source| match source.kind() {
        std::io::ErrorKind::NotFound => WebDirError::Missing { path: path.clone() },
        _ => WebDirError::Io {
            path: path.clone(),
            source,
        },
    })?;
    if !root.join(INDEX).is_file() {
        return Err(WebDirError::NoIndex { path });
    }
    Ok(root)
}

/// The places looked at, in order, for the site `client/web/build` writes when no `--web-dir`
/// is given:
/// 1. `target/web` in the working directory (the source tree, under `cargo run`);
/// 2. `web` beside the running binary's folder: `target/release/sevenbag-server` →
///    `target/web` (a cargo target directory), `/opt/sevenbag/bin/sevenbag-server` →
///    `/opt/sevenbag/web` (an installed copy with its page);
/// 3. `target/web` of the source tree the binary was built from, so a server started from any
///    folder (or built with another `CARGO_TARGET_DIR`) serves the page built beside it.
///
/// Only a folder holding an `index.html` is served ([`default_dir`]).
pub fn default_dirs() -> Vec<PathBuf> {
    let mut dirs = vec![PathBuf::from("target").join("web")];
    let exe_parent = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.to_path_buf()));
    if let Some(parent) = exe_parent {
        dirs.push(parent.join("web"));
    }
    // This crate's manifest lies in `server/` of the source tree.
    let source_tree = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    dirs.push(source_tree.join("target").join("web"));
    dirs
}

/// The first of [`default_dirs`] that holds a build (an `index.html`).
pub fn default_dir() -> Option<PathBuf> {
    default_dirs()
        .into_iter()
        .find(|dir| dir.join(INDEX).is_file())
}

/// What the site serves from: the canonical build directory, or nothing yet.
type Root = Arc<Option<PathBuf>>;

/// The site's routes for the canonical directory `root` (from [`resolve_root`]), or for no
/// build at all, for any router state. Every answer gets `Cache-Control: no-cache` and
/// `X-Content-Type-Options: nosniff`, and gzip for a client that accepts it.
pub(crate) fn routes<S: Clone + Send + Sync + 'static>(root: Option<PathBuf>) -> Router<S> {
    let mut router = Router::new()
        .route("/", get(index))
        .route("/favicon.ico", get(favicon));
    for kind in LinkKind::ALL {
        let prefix = kind.prefix();
        let bad = move |State(root): State<Root>| async move {
            match root.as_ref() {
                Some(_) => pages::bad_link(kind, ""),
                None => pages::not_built(),
            }
        };
        router = router
            .route(&format!("/{prefix}"), get(bad))
            .route(&format!("/{prefix}/"), get(bad))
            .route(
                &format!("/{prefix}/{{*path}}"),
                get(
                    move |State(root): State<Root>,
                          axum::extract::Path(path): axum::extract::Path<String>,
                          request: Request| link(kind, root, path, request),
                ),
            );
    }
    router
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

/// `GET /`: the page, or how to build it.
async fn index(State(root): State<Root>, request: Request) -> Response {
    match root.as_ref() {
        Some(root) => files::serve(root, INDEX, request).await,
        None => pages::not_built(),
    }
}

/// `GET /{prefix}/{path}`: the page when `path` can be what a link of `kind` names, else a page
/// saying what one looks like. Under `/watch/` a name with a dot is a file of the directory, as
/// if at the root (a room code never has a dot).
async fn link(kind: LinkKind, root: Root, path: String, request: Request) -> Response {
    let Some(root) = root.as_ref() else {
        return pages::not_built();
    };
    if kind.accepts(&path) {
        files::serve(root, INDEX, request).await
    } else if kind == LinkKind::Watch && path.contains('.') {
        files::serve(root, &path, request).await
    } else {
        pages::bad_link(kind, &path)
    }
}

/// `GET /favicon.ico`: the directory's, or `204 No Content` when it has none (browsers ask for
/// it by themselves, and a `404` would be an error in the page's console).
async fn favicon(State(root): State<Root>, request: Request) -> Response {
    match root.as_ref() {
        Some(root) if files::resolve(root, "favicon.ico").await.is_some() => {
            files::serve(root, "favicon.ico", request).await
        }
        _ => StatusCode::NO_CONTENT.into_response(),
    }
}

/// `GET /{path}`: a file of the directory.
async fn file(
    State(root): State<Root>,
    axum::extract::Path(path): axum::extract::Path<String>,
    request: Request,
) -> Response {
    match root.as_ref() {
        Some(root) => files::serve(root, &path, request).await,
        None => files::not_found(),
    }
}
