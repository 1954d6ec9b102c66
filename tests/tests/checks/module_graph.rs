//! No circles of imports between files, anywhere in the workspace: no file imports, directly or
//! through others, a file that imports it (the project rule "give a module a handle or a trait
//! instead of importing its caller"). On top of that the server's top-level modules depend on
//! each other one way, as whole folders, and so do the game's.
//!
//! The test reads the `src/` of every workspace member from its crate roots (`lib.rs`,
//! `main.rs`), following `mod` declarations, and turns every path that names this crate's
//! modules into an arrow from the file that writes it to the file that holds the module named:
//! `crate::a::b::Item`, `super::`, `self::`, a child module's name, and every leaf of a `use`
//! group, across lines. A parent declaring its children (`mod x;`) is not an import; using one
//! of their items is. A module and the files under it are one room: a child using what its
//! parent `mod.rs` (or the crate root) holds is no arrow, so a parent may hold what its children
//! share and use them in turn. Comments, strings and char literals are skipped; code under
//! `#[cfg(test)]` counts like any other code.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Circles that are known and being broken elsewhere, as the set of files each one joins. The
/// test fails once one of them is gone, so the entry is removed with the circle.
const ALLOWED: &[&[&str]] = &[];

/// One lexical token: an identifier, `::`, or any other punctuation character.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Ident(String),
    Sep,
    Punct(char),
}

/// The tokens of `src`, without comments, strings, char literals, lifetimes and numbers.
fn tokens(src: &str) -> Vec<Tok> {
    let c: Vec<char> = src.chars().collect();
    let at = |i: usize| c.get(i).copied().unwrap_or('\0');
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && at(i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if ch == '"' {
            i = skip_string(&c, i + 1);
        } else if ch == '\'' {
            if at(i + 1) == '\\' {
                // An escaped char literal: '\n', '\'', '\u{1F600}'.
                i += 2;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(i + 2) == '\'' {
                i += 3;
            } else {
                // A lifetime or a label: skip the quote and the name.
                i += 1;
                while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                    i += 1;
                }
            }
        } else if ch.is_ascii_alphabetic() || ch == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            let word: String = c[start..i].iter().collect();
            let raw_string = matches!(word.as_str(), "r" | "br" | "cr")
                && (at(i) == '"' || (at(i) == '#' && matches!(at(i + 1), '"' | '#')));
            if raw_string {
                let mut hashes = 0;
                while at(i) == '#' {
                    hashes += 1;
                    i += 1;
                }
                i += 1;
                while i < c.len() {
                    if c[i] == '"' && (1..=hashes).all(|k| at(i + k) == '#') {
                        i += 1 + hashes;
                        break;
                    }
                    i += 1;
                }
            } else if matches!(word.as_str(), "b" | "c") && at(i) == '"' {
                i = skip_string(&c, i + 1);
            } else if word == "b" && at(i) == '\'' {
                i += 1;
                while i < c.len() && c[i] != '\'' {
                    i += if c[i] == '\\' { 2 } else { 1 };
                }
                i += 1;
            } else if word == "r" && at(i) == '#' {
                // A raw identifier, r#type.
                i += 1;
            } else {
                out.push(Tok::Ident(word));
            }
        } else if ch.is_ascii_digit() {
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
        } else if ch == ':' && at(i + 1) == ':' {
            out.push(Tok::Sep);
            i += 2;
        } else {
            out.push(Tok::Punct(ch));
            i += 1;
        }
    }
    out
}

/// The index after the string whose body starts at `i` (escapes honoured).
fn skip_string(c: &[char], mut i: usize) -> usize {
    while i < c.len() && c[i] != '"' {
        i += if c[i] == '\\' { 2 } else { 1 };
    }
    i + 1
}

/// What one `use` declaration names, leaf by leaf: `use a::{b, c::{d, e}}` is `a::b`, `a::c::d`
/// and `a::c::e`. `*i` starts after `use` and ends after the tree.
fn use_tree(t: &[Tok], i: &mut usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    let mut path = prefix;
    loop {
        match t.get(*i) {
            Some(Tok::Sep) => *i += 1,
            Some(Tok::Ident(s)) => {
                path.push(s.clone());
                *i += 1;
                if t.get(*i) == Some(&Tok::Sep) {
                    *i += 1;
                    continue;
                }
                if matches!(t.get(*i), Some(Tok::Ident(a)) if a == "as") {
                    *i += 2;
                }
                out.push(path);
                return;
            }
            Some(Tok::Punct('{')) => {
                *i += 1;
                while *i < t.len() && t[*i] != Tok::Punct('}') {
                    use_tree(t, i, path.clone(), out);
                    if t.get(*i) == Some(&Tok::Punct(',')) {
                        *i += 1;
                    } else if t.get(*i) != Some(&Tok::Punct('}')) {
                        break;
                    }
                }
                *i += 1;
                return;
            }
            _ => {
                // A glob (`*`), or the end of a malformed tree.
                if t.get(*i) == Some(&Tok::Punct('*')) {
                    *i += 1;
                }
                out.push(path);
                return;
            }
        }
    }
}

/// One module of a crate: the file that holds it and the names of its child modules.
#[derive(Debug, Default)]
struct Module {
    file: String,
    children: BTreeSet<String>,
}

/// The files of one crate and the modules they hold, keyed by module path (`[]` is the root).
type Tree = BTreeMap<Vec<String>, Module>;

/// What [`walk`] meets: a token (by index) outside `use` declarations, or a whole `use`
/// declaration as its leaves.
enum Met {
    Token(usize),
    Use(Vec<Vec<String>>),
}

/// Walks the tokens of a file whose module path is `base`, following the inline modules it
/// opens: calls `visit` with the module path in force and what it met.
fn walk(t: &[Tok], base: &[String], mut visit: impl FnMut(&[String], Met)) {
    let mut path = base.to_vec();
    // Open braces; inline modules remember the depth they opened at.
    let mut depth = 0usize;
    let mut inline: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < t.len() {
        match &t[i] {
            Tok::Ident(k) if k == "use" => {
                i += 1;
                let mut leaves = Vec::new();
                use_tree(t, &mut i, Vec::new(), &mut leaves);
                visit(&path, Met::Use(leaves));
                continue;
            }
            Tok::Ident(k) if k == "mod" => {
                if let (Some(Tok::Ident(name)), Some(Tok::Punct('{'))) =
                    (t.get(i + 1), t.get(i + 2))
                {
                    visit(&path, Met::Token(i));
                    path.push(name.clone());
                    inline.push(depth);
                    depth += 1;
                    i += 3;
                    continue;
                }
            }
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => {
                depth = depth.saturating_sub(1);
                if inline.last() == Some(&depth) {
                    inline.pop();
                    path.pop();
                }
            }
            _ => {}
        }
        visit(&path, Met::Token(i));
        i += 1;
    }
}

/// The module tree of the crate whose root is `root` (a key of `files`).
fn module_tree(files: &BTreeMap<String, String>, root: &str) -> Tree {
    let mut tree = Tree::new();
    let mut todo = vec![(Vec::new(), root.to_string())];
    while let Some((base, file)) = todo.pop() {
        let Some(src) = files.get(&file) else {
            continue;
        };
        let t = tokens(src);
        // Children of a `foo.rs` live in `foo/`; of a `mod.rs`, `lib.rs` or `main.rs` beside it.
        let dir = match file.rsplit_once('/') {
            Some((dir, name)) if base.is_empty() || name == "mod.rs" => dir.to_string(),
            _ => file.trim_end_matches(".rs").to_string(),
        };
        tree.entry(base.clone()).or_default().file = file.clone();
        let mut declared = Vec::new();
        walk(&t, &base, |here, met| {
            let Met::Token(i) = met else {
                return;
            };
            let (Some(Tok::Ident(k)), Some(Tok::Ident(name))) = (t.get(i), t.get(i + 1)) else {
                return;
            };
            if k != "mod" {
                return;
            }
            let mut child = here.to_vec();
            child.push(name.clone());
            declared.push((here.to_vec(), child, t.get(i + 2) == Some(&Tok::Punct(';'))));
        });
        for (parent, child, own_file) in declared {
            let name = child.last().expect("a child has a name").clone();
            tree.entry(parent.clone())
                .or_default()
                .children
                .insert(name.clone());
            let inner: Vec<&str> = child[base.len()..].iter().map(String::as_str).collect();
            if own_file {
                let stem = format!("{dir}/{}", inner.join("/"));
                let found = [format!("{stem}.rs"), format!("{stem}/mod.rs")]
                    .into_iter()
                    .find(|f| files.contains_key(f));
                if let Some(f) = found {
                    todo.push((child, f));
                }
            } else {
                tree.entry(child).or_default().file = file.clone();
            }
        }
    }
    tree
}

/// The file that holds what `path` names, read in module `here`; `None` for other crates and
/// local names.
fn resolve(tree: &Tree, here: &[String], path: &[String]) -> Option<String> {
    let first = path.first()?;
    let mut module: Vec<String> = match first.as_str() {
        "crate" => Vec::new(),
        "self" | "super" => here.to_vec(),
        name if tree.get(here).is_some_and(|m| m.children.contains(name)) => here.to_vec(),
        _ => return None,
    };
    let rest = if first == "crate" || first == "self" {
        &path[1..]
    } else {
        path
    };
    for seg in rest {
        match seg.as_str() {
            "super" => {
                module.pop();
            }
            "self" => {}
            name if tree.get(&module).is_some_and(|m| m.children.contains(name)) => {
                module.push(name.to_string());
            }
            _ => break,
        }
    }
    tree.get(&module).map(|m| m.file.clone())
}

/// Every arrow between files: (from, to) → the paths that make it.
type Arrows = BTreeMap<(String, String), BTreeSet<String>>;

/// The arrows of the crate rooted at `root`.
fn arrows(files: &BTreeMap<String, String>, root: &str, out: &mut Arrows) {
    let tree = module_tree(files, root);
    // Each file's own module (inline modules sort after the file that holds them).
    let mut own: BTreeMap<&str, &[String]> = BTreeMap::new();
    for (path, module) in &tree {
        own.entry(module.file.as_str()).or_insert(path.as_slice());
    }
    let mut seen = BTreeSet::new();
    for (base, module) in &tree {
        // A file is walked once, from its own module; the inline modules it holds (which sort
        // after it) are walked with it.
        if !seen.insert(module.file.clone()) {
            continue;
        }
        let t = tokens(&files[&module.file]);
        let mut found: Vec<(Vec<String>, Vec<String>)> = Vec::new();
        walk(&t, base, |here, met| {
            let i = match met {
                Met::Token(i) => i,
                Met::Use(leaves) => {
                    found.extend(leaves.into_iter().map(|l| (here.to_vec(), l)));
                    return;
                }
            };
            let Some(Tok::Ident(_)) = t.get(i) else {
                return;
            };
            if i > 0 && t[i - 1] == Tok::Sep || t.get(i + 1) != Some(&Tok::Sep) {
                return;
            }
            let mut path = Vec::new();
            let mut j = i;
            while let Some(Tok::Ident(s)) = t.get(j) {
                path.push(s.clone());
                if t.get(j + 1) != Some(&Tok::Sep) {
                    break;
                }
                j += 2;
            }
            found.push((here.to_vec(), path));
        });
        for (here, path) in found {
            // A file may use what the modules that contain it hold: that is no arrow.
            if let Some(to) = resolve(&tree, &here, &path)
                && to != module.file
                && !base.starts_with(own[to.as_str()])
            {
                out.entry((module.file.clone(), to))
                    .or_default()
                    .insert(path.join("::"));
            }
        }
    }
}

/// The strongly connected groups of more than one node (Tarjan's algorithm).
fn circles(
    nodes: &BTreeSet<String>,
    next: &BTreeMap<String, BTreeSet<String>>,
) -> Vec<BTreeSet<String>> {
    struct State<'a> {
        next: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<String, usize>,
        low: BTreeMap<String, usize>,
        stack: Vec<String>,
        on_stack: BTreeSet<String>,
        found: Vec<BTreeSet<String>>,
    }
    fn visit(s: &mut State<'_>, v: &str) {
        let n = s.index.len();
        s.index.insert(v.to_string(), n);
        s.low.insert(v.to_string(), n);
        s.stack.push(v.to_string());
        s.on_stack.insert(v.to_string());
        for w in s.next.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v.to_string(), low);
            } else if s.on_stack.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v.to_string(), low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut group = BTreeSet::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(&w);
                let done = w == v;
                group.insert(w);
                if done {
                    break;
                }
            }
            if group.len() > 1 {
                s.found.push(group);
            }
        }
    }
    let mut s = State {
        next,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in nodes {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.found
}

/// One loop through `group`, written out with the paths behind each arrow.
fn describe(group: &BTreeSet<String>, arrows: &Arrows) -> String {
    let start = group.first().expect("a circle has files").clone();
    // Breadth-first from `start` back to itself, inside the group.
    let mut back: BTreeMap<String, String> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start.clone()]);
    let mut last = None;
    'search: while let Some(v) = queue.pop_front() {
        for ((from, to), _) in arrows.range((v.clone(), String::new())..) {
            if *from != v {
                break;
            }
            if !group.contains(to) {
                continue;
            }
            if *to == start {
                last = Some(v.clone());
                break 'search;
            }
            if !back.contains_key(to) {
                back.insert(to.clone(), v.clone());
                queue.push_back(to.clone());
            }
        }
    }
    let mut order = vec![start.clone()];
    let mut v = last.expect("a circle leads back");
    while v != start {
        order.push(v.clone());
        v = back[&v].clone();
    }
    order.push(start.clone());
    let end = order.len() - 1;
    order[1..end].reverse();
    let mut text = format!("circle: {}", order.join(" -> "));
    for pair in order.windows(2) {
        let paths = &arrows[&(pair[0].clone(), pair[1].clone())];
        let shown: Vec<&str> = paths.iter().take(4).map(String::as_str).collect();
        text.push_str(&format!(
            "\n  {} -> {}: {}",
            pair[0],
            pair[1],
            shown.join(", ")
        ));
    }
    text
}

/// The workspace members, from the root Cargo.toml.
fn members(root: &Path) -> Vec<String> {
    let manifest =
        std::fs::read_to_string(root.join("Cargo.toml")).expect("the workspace manifest");
    let list = manifest
        .split_once("members = [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .expect("a members list")
        .0;
    list.lines()
        .map(|l| l.split("#").next().unwrap_or_default().trim())
        .filter_map(|l| l.strip_prefix('"')?.split('"').next())
        .map(str::to_string)
        .collect()
}

/// Every `.rs` file under `dir`, keyed by its path from `root` with `/` separators.
fn read_sources(root: &Path, dir: &Path, out: &mut BTreeMap<String, String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            read_sources(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let key = path
                .strip_prefix(root)
                .expect("under the workspace")
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            out.insert(
                key,
                std::fs::read_to_string(&path).expect("a readable source"),
            );
        }
    }
}

/// The whole workspace's arrows between files, and the files read.
fn workspace() -> (Arrows, BTreeSet<String>) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is in the workspace")
        .to_path_buf();
    let members = members(&root);
    for expected in [
        "crates/core",
        "crates/protocol",
        "crates/netplay",
        "crates/bot",
        "crates/tool",
        "crates/challenge",
        "crates/storage",
        "crates/puzzle",
        "crates/tbp",
        "crates/skin",
        "server",
        "client",
    ] {
        assert!(
            members.iter().any(|m| m == expected),
            "{expected} is a workspace member: {members:?}"
        );
    }
    let mut files = BTreeSet::new();
    let mut arrows_all = Arrows::new();
    for member in &members {
        let mut these = BTreeMap::new();
        read_sources(&root, &root.join(member).join("src"), &mut these);
        for crate_root in ["lib.rs", "main.rs"] {
            let key = format!("{member}/src/{crate_root}");
            if these.contains_key(&key) {
                arrows(&these, &key, &mut arrows_all);
            }
        }
        files.extend(these.into_keys());
    }
    (arrows_all, files)
}

#[test]
fn no_file_imports_a_file_that_imports_it() {
    let (arrows, files) = workspace();
    assert!(
        files.len() > 200,
        "read the workspace's sources: {} files",
        files.len()
    );
    let mut next: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, to) in arrows.keys() {
        next.entry(from.clone()).or_default().insert(to.clone());
    }
    let found = circles(&files, &next);
    let allowed: Vec<BTreeSet<String>> = ALLOWED
        .iter()
        .map(|c| c.iter().map(|f| f.to_string()).collect())
        .collect();
    let new: Vec<String> = found
        .iter()
        .filter(|g| !allowed.contains(g))
        .map(|g| describe(g, &arrows))
        .collect();
    assert!(
        new.is_empty(),
        "import circles between files (give a module a handle or a trait instead of importing \
         its caller):\n{}",
        new.join("\n")
    );
    let gone: Vec<&BTreeSet<String>> = allowed.iter().filter(|a| !found.contains(a)).collect();
    assert!(
        gone.is_empty(),
        "these allowed circles are gone: remove them from ALLOWED: {gone:?}"
    );
}

/// Arrows between the game's top-level modules that run back up (from a lower module to one
/// that uses it, closing a circle), each as (from, to, why it stands), while one is being
/// broken; none today. The order, bottom to top (docs/CLIENT.md): layout, text, drill, sound,
/// platform, cli, identity, input, match_source, render, match_stats, config, opponent,
/// name_field, replay_files, net, screen, stats_screen, fetched_replay, on_screen, list_nav,
/// account, challenge, settings, solo, versus, party, puzzles, replays, friends, menu, checks,
/// start, screen_texts. The test takes these arrows out, fails on any circle
/// left, and fails once one of them is gone, so the entry is removed with the arrow.
const GAME_BACK_ARROWS: &[(&str, &str, &str)] = &[];

/// The arrows between the top-level modules (a folder or a file right under `src`) of the crate
/// whose sources start with `src`, with the paths that make them, and the modules found. The
/// crate roots belong to no module.
fn top_level(src: &str) -> (Arrows, BTreeSet<String>) {
    let (arrows, files) = workspace();
    let top = |f: &str| -> Option<String> {
        let rest = f.strip_prefix(src)?;
        match rest.split_once('/') {
            Some((dir, _)) => Some(dir.to_string()),
            None if rest == "lib.rs" || rest == "main.rs" => None,
            None => Some(rest.trim_end_matches(".rs").to_string()),
        }
    };
    let modules: BTreeSet<String> = files.iter().filter_map(|f| top(f)).collect();
    let mut top_arrows = Arrows::new();
    for ((from, to), paths) in &arrows {
        if let (Some(a), Some(b)) = (top(from), top(to))
            && a != b
        {
            top_arrows
                .entry((a, b))
                .or_default()
                .extend(paths.iter().cloned());
        }
    }
    (top_arrows, modules)
}

/// Fails on circles among the top-level modules of the crate under `src` once the arrows in
/// `back` (from, to, why) are taken out, and on an arrow of `back` that is gone.
fn top_level_modules_import_each_other_one_way(src: &str, back: &[(&str, &str, &str)]) {
    let (mut arrows, modules) = top_level(src);
    assert!(
        modules.len() > 10,
        "found the modules of {src}: {modules:?}"
    );
    let gone: Vec<String> = back
        .iter()
        .filter(|(from, to, _)| arrows.remove(&(from.to_string(), to.to_string())).is_none())
        .map(|(from, to, _)| format!("{from} -> {to}"))
        .collect();
    let mut next: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, to) in arrows.keys() {
        next.entry(from.clone()).or_default().insert(to.clone());
    }
    let found: Vec<String> = circles(&modules, &next)
        .iter()
        .map(|g| describe(g, &arrows))
        .collect();
    assert!(
        found.is_empty(),
        "the top-level modules of {src} import each other in a circle (move what they share \
         below them, or give a module a handle or a trait instead of importing its caller):\n{}",
        found.join("\n")
    );
    assert!(
        gone.is_empty(),
        "these allowed arrows of {src} are gone: remove them from the list: {gone:?}"
    );
}

#[test]
fn the_servers_top_level_modules_import_each_other_one_way() {
    top_level_modules_import_each_other_one_way("server/src/", &[]);
}

#[test]
fn the_games_top_level_modules_import_each_other_one_way() {
    top_level_modules_import_each_other_one_way("client/src/", GAME_BACK_ARROWS);
}

/// Every arrow between the game's top-level modules, those inside a circle marked, for
/// breaking them: `cargo test -p sevenbag-tests --test checks module_graph -- --ignored --nocapture`.
#[test]
#[ignore = "a listing, not a check"]
fn list_the_games_arrows() {
    let (arrows, modules) = top_level("client/src/");
    let mut next: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, to) in arrows.keys() {
        next.entry(from.clone()).or_default().insert(to.clone());
    }
    let groups = circles(&modules, &next);
    for ((a, b), paths) in &arrows {
        let inside = groups.iter().any(|g| g.contains(a) && g.contains(b));
        let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
        let mark = if inside { "circle" } else { "" };
        println!("arrow {mark:6} {a} -> {b}: {}", paths.join(", "));
    }
}

/// The arrows of a small crate given as (file, source) pairs, its root first.
fn arrows_of(sources: &[(&str, &str)]) -> Vec<String> {
    let files: BTreeMap<String, String> = sources
        .iter()
        .map(|(f, s)| (f.to_string(), s.to_string()))
        .collect();
    let mut out = Arrows::new();
    arrows(&files, sources[0].0, &mut out);
    out.keys().map(|(a, b)| format!("{a} -> {b}")).collect()
}

#[test]
fn a_parent_declaring_its_children_is_no_import() {
    let found = arrows_of(&[
        ("src/lib.rs", "mod a;\npub mod b;\n"),
        ("src/a.rs", "pub struct A;"),
        ("src/b/mod.rs", "mod c;"),
        ("src/b/c.rs", "pub struct C;"),
    ]);
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn use_groups_across_lines_super_self_and_children_are_imports() {
    let found = arrows_of(&[
        ("src/lib.rs", "mod a;\nmod b;\nuse a::A;\n"),
        (
            "src/a.rs",
            "use crate::{\n    b::{\n        self,\n        c::C,\n    },\n};\n",
        ),
        ("src/b.rs", "pub mod c;\nfn f() { self::c::g(); }\n"),
        (
            "src/b/c.rs",
            "fn g() { super::super::a::A; }\n#[cfg(test)]\nmod tests {\n    use super::*;\n}\n",
        ),
    ]);
    assert_eq!(
        found,
        [
            "src/a.rs -> src/b.rs",
            "src/a.rs -> src/b/c.rs",
            "src/b.rs -> src/b/c.rs",
            "src/b/c.rs -> src/a.rs",
            "src/lib.rs -> src/a.rs"
        ]
    );
}

#[test]
fn comments_strings_and_other_crates_are_no_imports() {
    let found = arrows_of(&[
        ("src/lib.rs", "mod a;\nmod b;\n"),
        (
            "src/a.rs",
            "//! See [`crate::b`].\n/* crate::b::B */\nfn f() -> &'static str { let _c = '\"'; \"crate::b::B\" }\nuse std::fmt;\nuse sevenbag_core::b;\n",
        ),
        ("src/b.rs", "pub struct B;"),
    ]);
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn siblings_importing_each_other_make_a_circle_and_a_child_using_its_parent_does_not() {
    let found = arrows_of(&[
        (
            "src/lib.rs",
            "mod a;\nmod b;\npub struct Shared;\nuse a::A;\n",
        ),
        (
            "src/a.rs",
            "use crate::b::B;\nuse crate::Shared;\npub struct A;\n",
        ),
        ("src/b.rs", "use super::a::A;\npub struct B;\n"),
    ]);
    assert_eq!(
        found,
        [
            "src/a.rs -> src/b.rs",
            "src/b.rs -> src/a.rs",
            "src/lib.rs -> src/a.rs"
        ]
    );
    let mut next: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for arrow in &found {
        let (from, to) = arrow.split_once(" -> ").expect("an arrow");
        next.entry(from.into()).or_default().insert(to.into());
    }
    let files = ["src/lib.rs", "src/a.rs", "src/b.rs"]
        .map(String::from)
        .into();
    let groups = circles(&files, &next);
    assert_eq!(groups, [["src/a.rs", "src/b.rs"].map(String::from).into()]);
}
