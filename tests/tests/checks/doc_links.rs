//! Every relative link in README.md, BENCHMARKS.md and docs/ leads somewhere: the file exists,
//! and a `#fragment` names a heading of that file, by GitHub's rule for heading anchors. Docs
//! are moved and split often; a link that breaks fails here rather than on a reader.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate sits in the workspace")
        .to_path_buf()
}

/// README.md, BENCHMARKS.md and every Markdown file under docs/.
fn checked_files(root: &Path) -> Vec<PathBuf> {
    let mut files = vec![root.join("README.md"), root.join("BENCHMARKS.md")];
    let mut dirs = vec![root.join("docs")];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(&dir).expect("docs/ is readable") {
            let path = entry.expect("a readable entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The text with fenced code blocks and inline code spans blanked out (links there are not
/// links), line structure kept.
fn prose(text: &str) -> Vec<String> {
    let mut fenced = false;
    text.lines()
        .map(|line| {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
                return String::new();
            }
            if fenced {
                return String::new();
            }
            let mut in_code = false;
            line.chars()
                .map(|c| {
                    if c == '`' {
                        in_code = !in_code;
                        ' '
                    } else if in_code {
                        ' '
                    } else {
                        c
                    }
                })
                .collect()
        })
        .collect()
}

/// GitHub's anchor for a heading: lower case, only letters, digits, `_`, `-` and spaces kept
/// (after dropping code marks and link targets), spaces turned into `-`; repeats get `-1`, `-2`.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#');
        if !title.starts_with(' ') {
            continue;
        }
        let slug: String = strip_link_targets(title.trim())
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | ' '))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let mut unique = slug.clone();
        let mut n = 0;
        while seen.contains(&unique) {
            n += 1;
            unique = format!("{slug}-{n}");
        }
        seen.insert(unique);
    }
    seen
}

/// `[text](target)` → `text`, so a link inside a heading counts by its words only.
fn strip_link_targets(title: &str) -> String {
    let mut out = String::new();
    let mut rest = title;
    while let Some(i) = rest.find("](") {
        out.push_str(&rest[..i]);
        rest = &rest[i + 2..];
        rest = rest.find(')').map_or("", |j| &rest[j + 1..]);
    }
    out.push_str(rest);
    out
}

/// The targets of the inline links and images of a file: `(line number, target)`.
fn link_targets(text: &str) -> Vec<(usize, String)> {
    let mut targets = Vec::new();
    for (n, line) in prose(text).iter().enumerate() {
        let mut rest = line.as_str();
        while let Some(i) = rest.find("](") {
            rest = &rest[i + 2..];
            let Some(end) = rest.find(')') else { break };
            let target = rest[..end].split_whitespace().next().unwrap_or("");
            targets.push((n + 1, target.trim_matches(['<', '>']).to_string()));
            rest = &rest[end..];
        }
    }
    targets
}

fn is_external(target: &str) -> bool {
    target.contains("://") || target.starts_with("mailto:")
}

#[test]
fn every_relative_link_in_the_docs_reaches_a_file_and_a_heading() {
    let root = workspace_root();
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in checked_files(&root) {
        let text = fs::read_to_string(&file).expect("a readable doc");
        for (line, target) in link_targets(&text) {
            if target.is_empty() || is_external(&target) {
                continue;
            }
            checked += 1;
            let (path, fragment) = match target.split_once('#') {
                Some((path, fragment)) => (path, Some(fragment)),
                None => (target.as_str(), None),
            };
            let dest = if path.is_empty() {
                file.clone()
            } else {
                file.parent().expect("a file has a folder").join(path)
            };
            let shown = file.strip_prefix(&root).unwrap_or(&file).display();
            if !dest.exists() {
                broken.push(format!("{shown}:{line}: {target}: no such file"));
                continue;
            }
            if let Some(fragment) = fragment {
                let dest_text = fs::read_to_string(&dest).unwrap_or_default();
                if !anchors(&dest_text).contains(fragment) {
                    broken.push(format!(
                        "{shown}:{line}: {target}: no heading with that anchor"
                    ));
                }
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} links found: is the parser still finding them?"
    );
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn anchors_follow_githubs_rule() {
    let headings = "# Title\n## The browser game (`--web-dir`)\n## Solo records (`SubmitSolo`)\n\
                    ### Max's pace, 2026-11-26\n## Title\n```\n# not a heading\n```\n";
    let found = anchors(headings);
    for anchor in [
        "title",
        "the-browser-game---web-dir",
        "solo-records-submitsolo",
        "maxs-pace-2026-11-26",
        "title-1",
    ] {
        assert!(found.contains(anchor), "{anchor} missing from {found:?}");
    }
    assert!(!found.contains("not-a-heading"));
}
