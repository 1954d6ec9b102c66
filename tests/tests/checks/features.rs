//! Building the whole workspace, the game, the server or the tool resolves the same features for
//! every crate they share, so `cargo build --release --workspace`, `cargo run --release`,
//! `cargo run --release -p sevenbag-server` and `-p sevenbag-tool`, in any order, compile each
//! shared crate once (a crate built with other features is another build of it, and of
//! everything that depends on it). Cargo unifies features over the packages a command selects;
//! its workspace-wide unification (`resolver.feature-unification`) is unstable on the cargo this
//! project pins, so the manifests turn the same features on instead: the workspace's
//! `Cargo.toml`, `server/Cargo.toml` and `crates/tool/Cargo.toml`. This test names the crate,
//! the selection and both feature lists when a new dependency breaks that.

use std::collections::BTreeMap;
use std::process::Command;

/// What each build command selects: the whole workspace first, then each binary's package.
const SELECTIONS: [&[&str]; 4] = [
    &["--workspace"],
    &["-p", "sevenbag"],
    &["-p", "sevenbag-server"],
    &["-p", "sevenbag-tool"],
];

/// `name version` → its features (one set per build of it: a host and a target build of one
/// crate may each appear), for the packages `selection` picks, built for this machine without
/// dev-dependencies (what `cargo build` and `cargo run` compile).
fn features(selection: &[&str]) -> BTreeMap<String, Vec<String>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["tree", "--offline", "-e", "normal,build"])
        .args(selection)
        .args(["--prefix", "none", "-f", "{p} [{f}]"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run cargo tree");
    assert!(
        out.status.success(),
        "cargo tree {}: {}",
        selection.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    let mut map: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Some((head, rest)) = line.split_once(" [") else {
            continue;
        };
        let Some((features, _)) = rest.split_once(']') else {
            continue;
        };
        // `name vX.Y.Z`, then perhaps ` (path)` or ` (proc-macro)`.
        let mut words = head.split_whitespace();
        let (Some(name), Some(version)) = (words.next(), words.next()) else {
            continue;
        };
        let builds = map.entry(format!("{name} {version}")).or_default();
        if !builds.iter().any(|f| f == features) {
            builds.push(features.to_string());
            builds.sort();
        }
    }
    map
}

#[test]
fn the_workspace_the_game_the_server_and_the_tool_build_shared_crates_with_the_same_features() {
    let all: Vec<(String, BTreeMap<String, Vec<String>>)> = SELECTIONS
        .iter()
        .map(|s| (s.join(" "), features(s)))
        .collect();
    let mut differing = Vec::new();
    for (i, (a, fa)) in all.iter().enumerate() {
        for (b, fb) in &all[i + 1..] {
            for (krate, features_a) in fa {
                if let Some(features_b) = fb.get(krate)
                    && features_a != features_b
                {
                    differing.push(format!(
                        "{krate}: `{a}` {features_a:?}, `{b}` {features_b:?}"
                    ));
                }
            }
        }
    }
    assert!(
        differing.is_empty(),
        "shared crates built with different features (switching between these builds would \
         rebuild them):\n{}",
        differing.join("\n")
    );
}
