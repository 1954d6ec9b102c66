//! No tracked text file keeps a git conflict marker: a line starting `<<<<<<< ` or `>>>>>>> `,
//! or a line that is exactly `=======` in a file that also has one of the other two (alone it
//! is a Markdown heading underline). Branches are merged often; a half-resolved merge fails
//! here, naming the file and line, rather than in a reader's hands or a compiler's.

use std::path::{Path, PathBuf};
use std::process::Command;

use sevenbag_tests::needs;

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the tests crate sits in the workspace")
        .to_path_buf()
}

/// The tracked files (`git ls-files`), relative to the root, each once; `None` after
/// [`needs::missing`] when git or the checkout is not there (a source archive).
fn tracked_files(root: &Path) -> Option<Vec<String>> {
    let output = match Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["ls-files", "-z"])
        .output()
    {
        Ok(output) => output,
        Err(_) => return needs::missing("git (to list the tracked files)"),
    };
    if !output.status.success() {
        return needs::missing("a git checkout of the workspace (`git ls-files` failed)");
    }
    let mut files: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .split('\0')
        .filter(|path| !path.is_empty())
        .map(str::to_owned)
        .collect();
    // An unmerged file is listed once per stage.
    files.sort();
    files.dedup();
    Some(files)
}

/// The 1-based numbers and texts of the conflict-marker lines of `text`.
fn marker_lines(text: &str) -> Vec<(usize, &str)> {
    let sides: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, line)| line.starts_with("<<<<<<< ") || line.starts_with(">>>>>>> "))
        .map(|(i, line)| (i + 1, line))
        .collect();
    if sides.is_empty() {
        return sides;
    }
    let mut found: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, line)| line.trim_end_matches('\r') == "=======")
        .map(|(i, line)| (i + 1, line))
        .chain(sides)
        .collect();
    found.sort();
    found
}

#[test]
fn no_tracked_file_holds_a_conflict_marker() {
    let root = workspace_root();
    let Some(files) = tracked_files(&root) else {
        return;
    };
    let mut problems = Vec::new();
    for file in &files {
        // A tracked file deleted in the working tree, or a directory (a submodule): nothing to read.
        let Ok(bytes) = std::fs::read(root.join(file)) else {
            continue;
        };
        // Binary files (a NUL byte, or not UTF-8) hold no text to merge by line.
        if bytes.contains(&0) {
            continue;
        }
        let Ok(text) = std::str::from_utf8(&bytes) else {
            continue;
        };
        for (line, marker) in marker_lines(text) {
            problems.push(format!("{file}:{line}: {}", marker.trim_end()));
        }
    }
    assert!(
        problems.is_empty(),
        "git conflict markers left in tracked files (resolve the merge):\n{}",
        problems.join("\n")
    );
}

#[test]
fn both_sides_and_the_divider_of_a_conflict_are_named() {
    let text = "fn a() {}\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> branch\n";
    assert_eq!(
        marker_lines(text),
        vec![(2, "<<<<<<< HEAD"), (4, "======="), (6, ">>>>>>> branch")]
    );
}

#[test]
fn one_side_left_alone_is_still_a_marker() {
    let text = "ours\ntheirs\n>>>>>>> branch\n";
    assert_eq!(marker_lines(text), vec![(3, ">>>>>>> branch")]);
}

#[test]
fn a_heading_underline_alone_is_no_marker() {
    let text = "Title\n=======\n\nText with <<<<<<< inside a line, and\n>>>>>>>without a space.\n";
    assert!(marker_lines(text).is_empty());
}
