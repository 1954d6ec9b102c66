//! A skin PNG's link as typed or pasted in the page's Settings › Skin link: checked before
//! the browser is asked to read it, and named after its last path part for the notices.

/// Longest link taken, in characters.
pub const MAX_LINK: usize = 2048;

/// The link in `typed` (trimmed), or why it is not one the page reads: http or https only,
/// no spaces or control characters, at most [`MAX_LINK`] characters.
pub fn check(typed: &str) -> Result<&str, String> {
    let link = typed.trim();
    if link.is_empty() {
        return Err("type or paste a link to a skin PNG first".into());
    }
    if link.chars().count() > MAX_LINK {
        return Err(format!("a link is at most {MAX_LINK} characters"));
    }
    if link.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err("a link has no spaces".into());
    }
    let lower = link.to_ascii_lowercase();
    let rest = ["https://", "http://"]
        .iter()
        .find_map(|scheme| lower.strip_prefix(scheme))
        .ok_or_else(|| "only http:// and https:// links are read".to_owned())?;
    if rest.is_empty() || rest.starts_with('/') {
        return Err("the link names no site".into());
    }
    Ok(link)
}

/// The file name the link ends in (its last path part, without query or fragment, at most
/// 64 characters), or `skin.png`.
pub fn file_name(link: &str) -> String {
    let after_scheme = link.split_once("://").map_or(link, |(_, rest)| rest);
    let path = after_scheme.split(['?', '#']).next().unwrap_or_default();
    // The first part is the site, not a file.
    let name = path
        .split_once('/')
        .and_then(|(_, file)| file.split('/').rfind(|part| !part.is_empty()))
        .unwrap_or("skin.png");
    name.chars().take(64).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_https_link_is_taken_trimmed() {
        assert_eq!(
            check("  https://example.org/skins/neon.png \n"),
            Ok("https://example.org/skins/neon.png")
        );
        assert!(check("HTTP://example.org/a.png").is_ok());
    }

    #[test]
    fn other_schemes_and_empty_or_spaced_links_are_refused_in_words() {
        for (typed, why) in [
            ("", "type or paste"),
            ("file:///home/me/skin.png", "only http"),
            ("javascript:alert(1)", "only http"),
            ("data:image/png;base64,AAAA", "only http"),
            ("https://", "names no site"),
            ("https:///skin.png", "names no site"),
            ("https://example.org/my skin.png", "no spaces"),
        ] {
            let refused = check(typed).expect_err(typed);
            assert!(refused.contains(why), "{typed}: {refused}");
        }
        let long = format!("https://example.org/{}", "a".repeat(MAX_LINK));
        assert!(check(&long).is_err());
    }

    #[test]
    fn the_name_is_the_last_path_part_without_query() {
        assert_eq!(
            file_name("https://example.org/s/neon.png?v=2#x"),
            "neon.png"
        );
        assert_eq!(file_name("https://example.org/s/neon.png/"), "neon.png");
        assert_eq!(file_name("https://example.org"), "skin.png");
        assert_eq!(file_name("https://example.org/?q=1"), "skin.png");
        assert_eq!(
            file_name(&format!("https://e.org/{}", "n".repeat(99))).len(),
            64
        );
    }
}
