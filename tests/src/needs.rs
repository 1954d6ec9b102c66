//! What a test needing an outside program (Redis, PostgreSQL, Chromium, node with
//! playwright-core, the browser build of the game) does when it is missing.
//!
//! By default it skips: one line on stderr names what is missing and [`INSTALL`], the one
//! command that installs everything the tests need, and the test passes. Under
//! `SEVENBAG_REQUIRE_ALL=1` (what `.ci/run` exports) or `CI=true` nothing may skip: the same
//! line is the test's failure. A program that is present but does not start always fails.

use std::io::Write;

/// The command that installs every outside program the tests need (apt-get as root or through
/// sudo; playwright-core and the browser build as the calling user).
pub const INSTALL: &str = "bash .ci/install-test-deps";

/// Whether a missing program fails the test instead of skipping it: `SEVENBAG_REQUIRE_ALL=1`,
/// or `CI` set to `true` or `1`.
pub fn required() -> bool {
    let set = |name: &str, values: &[&str]| {
        std::env::var(name).is_ok_and(|v| values.contains(&v.trim().to_ascii_lowercase().as_str()))
    };
    set("SEVENBAG_REQUIRE_ALL", &["1", "true"]) || set("CI", &["1", "true"])
}

/// `None` after printing `SKIPPED: {what}` and the install command, or a panic with the same
/// words when [`required`].
pub fn missing<T>(what: &str) -> Option<T> {
    if required() {
        panic!(
            "{what}: install it with `{INSTALL}` (SEVENBAG_REQUIRE_ALL=1 or CI=true: nothing may \
             skip)"
        );
    }
    // Straight to stderr, not through `eprintln!`: the test harness captures that, and a
    // skipped test passes, so the line would never be seen.
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED: {what}; `{INSTALL}` installs everything the tests need"
    );
    None
}
