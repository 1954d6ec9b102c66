//! What the browser build reads from its page's address: the server to talk to (the link it
//! opens is read by `crate::net::links`), and the page's list encoding. Pure text functions, so
//! they are tested natively too.

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

/// A `?server=ADDRESS` in the page's address (a page served by something else than the game
/// server, e.g. during development): the server to use instead of the page's own host, when it
/// is at most `max_len` bytes long.
pub fn query_server(href: &str, max_len: usize) -> Option<String> {
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
        .filter(|v| !v.is_empty() && v.len() <= max_len)
}

/// Splits the page's list encoding: each item's UTF-8 length (u32, little-endian), then it.
pub fn decode_list(bytes: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = bytes;
    while rest.len() >= 4 {
        let len = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]) as usize;
        rest = &rest[4..];
        if len > rest.len() {
            break;
        }
        out.push(String::from_utf8_lossy(&rest[..len]).into_owned());
        rest = &rest[len..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pages_lists_are_split_and_a_cut_one_keeps_its_whole_items() {
        let mut bytes = Vec::new();
        for item in ["a/b", "", "ünï"] {
            bytes.extend_from_slice(&(item.len() as u32).to_le_bytes());
            bytes.extend_from_slice(item.as_bytes());
        }
        assert_eq!(decode_list(&bytes), vec!["a/b", "", "ünï"]);
        assert_eq!(decode_list(&bytes[..bytes.len() - 1]), vec!["a/b", ""]);
        assert_eq!(decode_list(&[9, 0, 0, 0, 1]), Vec::<String>::new());
    }

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
            query_server("http://h:1/?server=127.0.0.1%3A7878", 64).as_deref(),
            Some("127.0.0.1:7878")
        );
        assert_eq!(
            query_server("http://h:1/watch/ABCDE?x=1&server=ws://a:2/#z", 64).as_deref(),
            Some("ws://a:2/")
        );
        assert_eq!(query_server("http://h:1/", 64), None);
        assert_eq!(query_server("http://h:1/?server=", 64), None);
        assert_eq!(query_server("http://h:1/?server=ab:1", 3), None, "too long");
    }
}
