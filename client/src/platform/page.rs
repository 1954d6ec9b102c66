//! What the browser build reads from its page's address: the server to talk to and a
//! `/watch/CODE` room to spectate at once (the contract with `sevenbag-server --web-dir`). Pure
//! text functions, so they are tested natively too.

/// The server a page served by `sevenbag-server --web-dir` talks to: `ws://` (`wss://` under
/// https) + the page's host + `/`, with the web's port written out (80, 443) when the address
/// has none, since a typed address without a port means the game's 7878. `None` for a page not
/// served over http(s).
pub fn page_server(href: &str) -> Option<String> {
    let (scheme, rest) = href.split_once("://")?;
    let ws = match scheme {
        "http" => "ws",
        "https" => "wss",
        _ => return None,
    };
    let host = rest
        .split(['/', '?', '#'])
        .next()
        .filter(|h| !h.is_empty())?;
    let has_port = match host.rfind(']') {
        Some(close) => host[close..].contains(':'),
        None => host.contains(':'),
    };
    let port = match (has_port, ws) {
        (true, _) => "",
        (false, "ws") => ":80",
        (false, _) => ":443",
    };
    Some(format!("{ws}://{host}{port}/"))
}

/// The room code of a `/watch/CODE` page, if the page is one (letters and digits, at most 8).
pub fn watch_code(href: &str) -> Option<String> {
    let rest = href.split_once("://").map_or(href, |(_, r)| r);
    let path = rest.find('/').map_or("", |i| &rest[i..]);
    let path = path.split(['?', '#']).next().unwrap_or("");
    let code = path.strip_prefix("/watch/")?.trim_end_matches('/');
    let ok = !code.is_empty() && code.len() <= 8 && code.chars().all(|c| c.is_ascii_alphanumeric());
    ok.then(|| code.to_ascii_uppercase())
}

/// A `?server=ADDRESS` in the page's address (a page served by something else than the game
/// server, e.g. during development): the server to use instead of the page's own host.
pub fn query_server(href: &str) -> Option<String> {
    let query = href.split_once('?')?.1.split('#').next().unwrap_or("");
    query
        .split('&')
        .find_map(|kv| kv.strip_prefix("server="))
        .map(|v| {
            v.replace("%3A", ":")
                .replace("%3a", ":")
                .replace("%2F", "/")
                .replace("%2f", "/")
        })
        .filter(|v| !v.is_empty() && v.len() <= crate::settings::config::MAX_ADDRESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_server_is_the_pages_own_host_over_ws_or_wss() {
        assert_eq!(
            page_server("http://127.0.0.1:7878/").as_deref(),
            Some("ws://127.0.0.1:7878/")
        );
        assert_eq!(
            page_server("https://play.example.org/watch/ABCDE?x=1").as_deref(),
            Some("wss://play.example.org:443/")
        );
        assert_eq!(
            page_server("http://[::1]:9000/").as_deref(),
            Some("ws://[::1]:9000/")
        );
        assert_eq!(
            page_server("http://example.org/").as_deref(),
            Some("ws://example.org:80/")
        );
        assert_eq!(page_server("file:///tmp/index.html"), None);
    }

    #[test]
    fn a_server_in_the_query_overrides_the_pages_host() {
        assert_eq!(
            query_server("http://h:1/?server=127.0.0.1%3A7878").as_deref(),
            Some("127.0.0.1:7878")
        );
        assert_eq!(
            query_server("http://h:1/watch/ABCDE?x=1&server=ws://a:2/#z").as_deref(),
            Some("ws://a:2/")
        );
        assert_eq!(query_server("http://h:1/"), None);
        assert_eq!(query_server("http://h:1/?server="), None);
    }

    #[test]
    fn a_watch_page_names_its_room_code() {
        assert_eq!(
            watch_code("http://h:1/watch/abcde").as_deref(),
            Some("ABCDE")
        );
        assert_eq!(
            watch_code("http://h:1/watch/QWERT/?a#b").as_deref(),
            Some("QWERT")
        );
        assert_eq!(watch_code("http://h:1/"), None);
        assert_eq!(watch_code("http://h:1/watch/"), None);
        assert_eq!(watch_code("http://h:1/watch/a%20b"), None);
        assert_eq!(watch_code("http://h:1/watch/TOOLONGCODE"), None);
    }
}
