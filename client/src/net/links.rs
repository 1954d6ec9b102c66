//! The game's links: the server serves the browser game at `/room/CODE` (join that room),
//! `/watch/CODE` (spectate it), `/replay/ID` (play that replay) and `/puzzle/CODE` (play that
//! puzzle) (server/src/web/). Made here from the server's address, so the desktop game and the
//! page give the same links, and read here from the page's own address when it opens
//! (`crate::platform::clipboard` copies them).

/// What a link opens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Link {
    /// Take a seat in room CODE.
    Room(String),
    /// Spectate room CODE.
    Watch(String),
    /// Play the server's replay ID.
    Replay(String),
    /// Play the puzzle of share code CODE.
    Puzzle(String),
    /// A link of this kind (`room`...) whose code cannot be one: the page says so.
    #[cfg_attr(not(any(test, target_arch = "wasm32")), allow(dead_code))]
    Bad(&'static str, String),
}

/// Longest code or id read from a link (replay ids are at most 100 characters).
#[cfg_attr(not(any(test, target_arch = "wasm32")), allow(dead_code))]
const MAX_PART: usize = 100;

impl Link {
    /// The link's path on the server: `/room/ACD34`.
    pub fn path(&self) -> String {
        match self {
            Link::Room(c) => format!("/room/{c}"),
            Link::Watch(c) => format!("/watch/{c}"),
            Link::Replay(id) => format!("/replay/{id}"),
            Link::Puzzle(c) => format!("/puzzle/{c}"),
            Link::Bad(kind, part) => format!("/{kind}/{part}"),
        }
    }

    /// The whole link on the server at `server` (an address as in Settings), if it has a web
    /// address ([`http_base`]).
    pub fn url(&self, server: &str) -> Option<String> {
        http_base(server).map(|base| format!("{base}{}", self.path()))
    }
}

/// The page's link, read from its address (`href`), if its path is one.
#[cfg_attr(not(any(test, target_arch = "wasm32")), allow(dead_code))]
pub fn from_href(href: &str) -> Option<Link> {
    let rest = href.split_once("://").map_or(href, |(_, r)| r);
    let path = rest.find('/').map_or("", |i| &rest[i..]);
    let path = path.split(['?', '#']).next().unwrap_or("");
    let (kind, part) = path.strip_prefix('/')?.split_once('/')?;
    let part = part.strip_suffix('/').unwrap_or(part);
    let word = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    let ok = !part.is_empty() && part.len() <= MAX_PART && part.chars().all(word);
    let kind: &'static str = match kind {
        "room" => "room",
        "watch" => "watch",
        "replay" => "replay",
        "puzzle" => "puzzle",
        _ => return None,
    };
    if !ok {
        let shown: String = part.chars().take(48).collect();
        return Some(Link::Bad(kind, shown));
    }
    Some(match kind {
        "room" => Link::Room(part.to_ascii_uppercase()),
        "watch" => Link::Watch(part.to_ascii_uppercase()),
        "replay" => Link::Replay(part.to_owned()),
        _ => Link::Puzzle(part.to_ascii_lowercase()),
    })
}

/// The web address of a game server given as in Settings (`ws://host:port/`, `wss://...`, or
/// `host:port`): `http://host:port` (`https` for `wss`). `None` for an empty address.
pub fn http_base(server: &str) -> Option<String> {
    let server = server.trim();
    let (scheme, rest) = match server.split_once("://") {
        Some(("wss" | "https", rest)) => ("https", rest),
        Some((_, rest)) => ("http", rest),
        None => ("http", server),
    };
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    if host.is_empty() {
        return None;
    }
    // A bare host means the game's port, as everywhere in Settings.
    let has_port = match host.rfind(']') {
        Some(close) => host[close..].contains(':'),
        None => host.contains(':'),
    };
    let port = if has_port || server.contains("://") {
        String::new()
    } else {
        format!(":{}", crate::net::online::transport::DEFAULT_GAME_PORT)
    };
    Some(format!("{scheme}://{host}{port}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pages_address_names_its_link() {
        let at = |p: &str| from_href(&format!("http://h:1{p}"));
        assert_eq!(at("/room/acd34"), Some(Link::Room("ACD34".into())));
        assert_eq!(at("/room/ACD34/?x=1#y"), Some(Link::Room("ACD34".into())));
        assert_eq!(at("/watch/ACD34"), Some(Link::Watch("ACD34".into())));
        assert_eq!(
            at("/replay/20261127-1015_ACD34"),
            Some(Link::Replay("20261127-1015_ACD34".into()))
        );
        assert_eq!(at("/puzzle/P24N-2S"), Some(Link::Puzzle("p24n-2s".into())));
        assert_eq!(at("/"), None);
        assert_eq!(at("/sevenbag.wasm"), None);
        assert_eq!(at("/elsewhere/ACD34"), None);
        assert_eq!(at("/room/a%20b"), Some(Link::Bad("room", "a%20b".into())));
        assert_eq!(at("/replay/"), Some(Link::Bad("replay", String::new())));
    }

    #[test]
    fn links_are_made_from_the_servers_address() {
        let room = Link::Room("ACD34".into());
        assert_eq!(
            room.url("ws://127.0.0.1:7878/").as_deref(),
            Some("http://127.0.0.1:7878/room/ACD34")
        );
        assert_eq!(
            Link::Replay("x_1".into())
                .url("wss://play.example.org:443/")
                .as_deref(),
            Some("https://play.example.org:443/replay/x_1")
        );
        assert_eq!(
            Link::Puzzle("p24n-2s".into()).url("example.org").as_deref(),
            Some("http://example.org:7878/puzzle/p24n-2s")
        );
        assert_eq!(
            Link::Watch("ACD34".into()).url("[::1]:9000").as_deref(),
            Some("http://[::1]:9000/watch/ACD34")
        );
        assert_eq!(room.url(""), None);
        assert_eq!(room.url("ws:///"), None);
    }
}
