//! The site's own small pages, for people rather than the game: "the browser game is not built
//! here" (how to build it) and "that is not a good link" (what one looks like). Plain HTML with
//! its style inline (nothing else to load), readable on a phone, `404` so that monitors and
//! crawlers do not take them for the game.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::links::LinkKind;

/// How to get the browser game served: said at start for a `--web-dir` that cannot be served,
/// and by the page that stands in for the game.
pub(crate) const BUILD_HINT: &str = "build it with `bash client/web/build` in the source tree \
     (it writes target/web, which the server finds by default), then restart the server, or \
     give the server the built folder with `--web-dir DIR`";

/// Most characters of a bad link shown back on its page.
const SHOWN_CHARS: usize = 48;

/// `GET /` (and every link) when the server has no browser build to serve.
pub(crate) fn not_built() -> Response {
    html(page(
        "Sevenbag: the browser game is not built here",
        "<h1>The browser game is not built on this server</h1>\
         <p>This Sevenbag server runs, but it has no browser build of the game to serve.</p>\
         <p>If you run it: build the page in the source tree with</p>\
         <pre>bash client/web/build</pre>\
         <p>which writes <code>target/web</code>. The server looks for it when it starts (in \
         its working folder, beside its own program, and in the source tree it was built \
         from), so restart the server then, or give it the built folder with \
         <code>--web-dir DIR</code>; its log names the folders it looked in.</p>\
         <p>The desktop game plays on this server as it is: <code>cargo run --release</code>, \
         then Settings › Server.</p>",
    ))
}

/// A link of `kind` whose code cannot be one (`part` is what followed the prefix).
pub(crate) fn bad_link(kind: LinkKind, part: &str) -> Response {
    let shown: String = part.chars().take(SHOWN_CHARS).collect();
    let more = if part.chars().count() > SHOWN_CHARS {
        "…"
    } else {
        ""
    };
    let what = match kind {
        LinkKind::Room => "room link",
        LinkKind::Watch => "spectator link",
        LinkKind::Replay => "replay link",
        LinkKind::Puzzle => "puzzle link",
    };
    let body = format!(
        "<h1>That is not a {what}</h1>\
         <p><code>/{}/{}{more}</code> cannot be opened: {}.</p>\
         <p>Check the link you were given, or ask for it again.</p>\
         <p><a href=\"/\">Open the game</a></p>",
        kind.prefix(),
        escape(&shown),
        escape(kind.shape()),
    );
    html(page(&format!("Sevenbag: not a {what}"), &body))
}

/// A whole page around `body` (already HTML).
fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{}</title><style>\
         body{{margin:0;padding:2em 1.2em;background:#0b0d14;color:#dfe3ee;\
         font:17px/1.5 system-ui,sans-serif}}\
         main{{max-width:36em;margin:auto}}h1{{font-size:1.4em;color:#fff}}\
         code,pre{{font-family:ui-monospace,monospace;background:#1a1e2b;border-radius:4px;\
         padding:0.1em 0.3em;overflow-wrap:anywhere}}pre{{padding:0.6em 0.8em}}\
         a{{color:#7cc4ff}}</style></head>\
         <body><main>{body}</main></body></html>\n",
        escape(title)
    )
}

/// `text` with `&`, `<`, `>`, `"` and `'` written as entities.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

fn html(text: String) -> Response {
    let mut response = (StatusCode::NOT_FOUND, text).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_in_a_link_is_shown_as_text() {
        assert_eq!(
            escape("<script>'a'&\"b\"</script>"),
            "&lt;script&gt;&#39;a&#39;&amp;&quot;b&quot;&lt;/script&gt;"
        );
        assert_eq!(escape("a\u{0}b"), "a\u{fffd}b");
    }
}
