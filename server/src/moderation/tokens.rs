//! The admin API's bearer tokens (`--admin-token-file`) and their constant-time check.
//!
//! The file holds one token per line, optionally named: `alice:TOKEN` (the audit log records
//! `alice` as the actor) or just `TOKEN` (recorded as `admin`). Blank lines and lines starting
//! with `#` are skipped. A token is 24 to 256 printable ASCII characters without spaces or `:`.
//! Only SHA-256 digests of the tokens are kept in memory.
//!
//! Why `subtle`: comparing a presented token with `==` stops at the first differing byte, so
//! its timing tells an attacker how much of a guess was right. The digests are compared with
//! `subtle::ConstantTimeEq` (already in the build through rustls), every configured token each
//! time, so neither the match nor its position shows in the timing; hashing first makes every
//! comparison the same length whatever was presented.

use std::path::Path;

use sevenbag_protocol::file::read_limited;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// Shortest token accepted (24 random characters is ~140 bits from a base64 alphabet).
pub const MIN_TOKEN_CHARS: usize = 24;
/// Longest token accepted.
pub const MAX_TOKEN_CHARS: usize = 256;
/// Longest operator name.
const MAX_NAME_CHARS: usize = 32;
/// Largest token file read: hundreds of named tokens fit in 64 KiB.
pub const MAX_TOKEN_FILE_BYTES: u64 = 64 * 1024;

/// Why the token file was refused (at start-up). Never contains a token.
#[derive(Debug, thiserror::Error)]
pub enum AdminTokenError {
    /// The file cannot be read.
    #[error("cannot read the admin token file {path}: {detail}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        detail: String,
    },
    /// A line is not `NAME:TOKEN` or `TOKEN`.
    #[error(
        "admin token file {path}, line {line}: {problem} (a line is NAME:TOKEN or TOKEN; a token is \
         {MIN_TOKEN_CHARS} to {MAX_TOKEN_CHARS} printable characters without spaces or ':')"
    )]
    Line {
        /// The file.
        path: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong (never the token itself).
        problem: &'static str,
    },
    /// No token in the file.
    #[error("admin token file {0} holds no token")]
    Empty(String),
}

/// The admin tokens, as digests with their operator names.
#[derive(Clone)]
pub(crate) struct AdminTokens {
    tokens: Vec<(String, [u8; 32])>,
}

impl std::fmt::Debug for AdminTokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AdminTokens")
            .field("count", &self.tokens.len())
            .finish()
    }
}

fn digest(token: &[u8]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"sevenbag admin token v1:");
    h.update(token);
    h.finalize().into()
}

fn valid_token(t: &str) -> bool {
    (MIN_TOKEN_CHARS..=MAX_TOKEN_CHARS).contains(&t.len())
        && t.bytes().all(|b| b.is_ascii_graphic() && b != b':')
}

fn valid_name(n: &str) -> bool {
    (1..=MAX_NAME_CHARS).contains(&n.len())
        && n.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

impl AdminTokens {
    /// Reads and checks the token file: a regular file of at most [`MAX_TOKEN_FILE_BYTES`],
    /// read as every file read at start is (`read_limited`), so a link to a device or a FIFO
    /// is refused, never read or waited on.
    pub(crate) fn load(path: &Path) -> Result<AdminTokens, AdminTokenError> {
        let shown = path.display().to_string();
        let unreadable = |detail: String| AdminTokenError::Read {
            path: shown.clone(),
            detail,
        };
        let bytes =
            read_limited(path, MAX_TOKEN_FILE_BYTES).map_err(|e| unreadable(e.to_string()))?;
        let text =
            String::from_utf8(bytes).map_err(|_| unreadable("not UTF-8 text".to_string()))?;
        #[cfg(unix)]
        if let Ok(meta) = std::fs::metadata(path) {
            use std::os::unix::fs::PermissionsExt;
            if meta.permissions().mode() & 0o004 != 0 {
                tracing::warn!(file = %shown, "the admin token file is readable by every user: chmod 600 it");
            }
        }
        let tokens = AdminTokens::parse(&text, &shown)?;
        tracing::info!(tokens = tokens.tokens.len(), "admin API on (/admin/)");
        Ok(tokens)
    }

    fn parse(text: &str, path: &str) -> Result<AdminTokens, AdminTokenError> {
        let mut tokens = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = |problem| AdminTokenError::Line {
                path: path.to_string(),
                line: i + 1,
                problem,
            };
            let (name, token) = match line.split_once(':') {
                Some((name, token)) => (name.trim(), token.trim()),
                None => ("admin", line),
            };
            if !valid_name(name) {
                return Err(bad(
                    "the name is not 1 to 32 letters, digits, '_', '-' or '.'",
                ));
            }
            if !valid_token(token) {
                return Err(bad(
                    "the token is too short, too long, or has a space or ':'",
                ));
            }
            tokens.push((name.to_string(), digest(token.as_bytes())));
        }
        if tokens.is_empty() {
            return Err(AdminTokenError::Empty(path.to_string()));
        }
        Ok(AdminTokens { tokens })
    }

    /// The operator whose token `presented` is, compared in constant time against every
    /// token (see the module docs).
    pub(crate) fn check(&self, presented: &[u8]) -> Option<&str> {
        let given = digest(presented);
        let mut found = None;
        for (name, want) in &self.tokens {
            // Every token is compared; the branch on the result reveals only whether some
            // token matched, which the caller's answer (200 or 401) reveals anyway.
            let equal: bool = want.ct_eq(&given).into();
            if equal && found.is_none() {
                found = Some(name.as_str());
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T1: &str = "k7Qv2n8LwX4pZr6Ts1Yb3Mh9";
    const T2: &str = "Ab0Cd1Ef2Gh3Ij4Kl5Mn6Op7Qr8";

    #[test]
    fn named_and_unnamed_tokens_are_recognised() {
        let file = format!("# operators\n\nalice:{T1}\n  {T2}  \n");
        let tokens = AdminTokens::parse(&file, "f").expect("valid");
        assert_eq!(tokens.check(T1.as_bytes()), Some("alice"));
        assert_eq!(tokens.check(T2.as_bytes()), Some("admin"));
        assert_eq!(tokens.check(b"k7Qv2n8LwX4pZr6Ts1Yb3Mh8"), None);
        assert_eq!(tokens.check(b""), None);
        assert_eq!(tokens.check(&T1.as_bytes()[..10]), None);
    }

    #[test]
    fn bad_lines_are_refused_without_echoing_the_token() {
        for (text, line) in [
            ("short", 1),
            (&format!("{T1}\nbad name:{T2}") as &str, 2),
            (&format!("x:{T1} {T2}"), 1),
        ] {
            let err = AdminTokens::parse(text, "f").unwrap_err();
            let shown = err.to_string();
            assert!(shown.contains(&format!("line {line}")), "{shown}");
            assert!(!shown.contains(T1) && !shown.contains(T2), "{shown}");
        }
        assert!(matches!(
            AdminTokens::parse("# nothing\n", "f"),
            Err(AdminTokenError::Empty(_))
        ));
    }

    /// A token file that is a link to an endless device, or is over the size limit, is
    /// refused at once without being read whole.
    #[cfg(unix)]
    #[test]
    fn a_device_or_an_oversized_token_file_is_refused() {
        let dir = tempfile::tempdir().expect("temp dir");
        let link = dir.path().join("tokens");
        std::os::unix::fs::symlink("/dev/zero", &link).expect("symlink");
        let err = AdminTokens::load(&link).unwrap_err();
        assert!(err.to_string().contains("not a regular file"), "{err}");

        let big = dir.path().join("big");
        let line = format!("{T1}\n");
        let lines = MAX_TOKEN_FILE_BYTES as usize / line.len() + 1;
        std::fs::write(&big, line.repeat(lines)).expect("write");
        let err = AdminTokens::load(&big).unwrap_err();
        assert!(err.to_string().contains("limit"), "{err}");
    }

    /// A FIFO in the token file's place is refused, not waited on (start-up never hangs).
    #[cfg(unix)]
    #[test]
    fn a_fifo_token_file_is_refused_without_waiting() {
        let dir = tempfile::tempdir().expect("temp dir");
        let fifo = dir.path().join("tokens");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo runs");
        assert!(made.success());
        let err = AdminTokens::load(&fifo).unwrap_err();
        assert!(err.to_string().contains("FIFO"), "{err}");
    }
}
