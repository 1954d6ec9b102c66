//! The game, the server and the tool resolve the same features for every crate they share, so
//! `cargo run --release`, `cargo run --release -p sevenbag-server` and `-p sevenbag-tool` one
//! after another compile each shared crate once (a crate built with other features is another
//! build of it, and of everything that depends on it). Where they would differ, the workspace's
//! `Cargo.toml`, `server/Cargo.toml` and `crates/tool/Cargo.toml` turn the same features on;
//! this test names the crate and the features when a new dependency breaks that.

use std::collections::BTreeMap;
use std::process::Command;

const BINARIES: [&str; 3] = ["sevenbag", "sevenbag-server", "sevenbag-tool"];

/// `name version` → its features (one set per build of it: a host and a target build of one
/// crate may each appear), for package `package` built for this machine.
fn features(package: &str) -> BTreeMap<String, Vec<String>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["tree", "--offline", "-p", package, "-e", "normal,build"])
        .args(["--prefix", "none", "-f", "{p} [{f}]"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run cargo tree");
    assert!(
        out.status.success(),
        "cargo tree -p {package}: {}",
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
fn the_game_the_server_and_the_tool_build_shared_crates_with_the_same_features() {
    let all: Vec<(&str, BTreeMap<String, Vec<String>>)> =
        BINARIES.iter().map(|b| (*b, features(b))).collect();
    let mut differing = Vec::new();
    for (i, (a, fa)) in all.iter().enumerate() {
        for (b, fb) in &all[i + 1..] {
            for (krate, features_a) in fa {
                if let Some(features_b) = fb.get(krate)
                    && features_a != features_b
                {
                    differing.push(format!("{krate}: {a} {features_a:?}, {b} {features_b:?}"));
                }
            }
        }
    }
    assert!(
        differing.is_empty(),
        "shared crates built with different features (each switch between the binaries \
         would rebuild them):\n{}",
        differing.join("\n")
    );
}
