//! Files of the site: which file a path names, with every check on the resolved path, then
//! tower-http's `ServeFile` for the HTTP side (see the module docs of `web` for what is served
//! and refused, and why tower-http).

use std::path::{Component, Path, PathBuf};

use axum::extract::Request;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use tower::ServiceExt;
use tower_http::services::ServeFile;
use tracing::warn;

/// Largest file served: a release `.wasm` of the game is a few MB.
pub(crate) const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;
/// Longest request path looked up, in bytes (decoded).
pub(crate) const MAX_PATH_BYTES: usize = 512;

/// Serves `relative` (already percent-decoded) from `root` if every check passes.
pub(crate) async fn serve(root: &Path, relative: &str, request: Request) -> Response {
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
pub(crate) fn not_found() -> Response {
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
