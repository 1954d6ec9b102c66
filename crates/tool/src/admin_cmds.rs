//! `sevenbag-tool admin ...`: the server's admin API (`docs/MODERATION.md`) from the command
//! line. Every subcommand is one HTTP request; the answer's JSON is printed as is (pretty), and
//! an error answer ends the tool with its message and a non-zero status.
//!
//! The token comes from `--token-file` (the server's own `--admin-token-file` works: its first
//! token is used) or the `SEVENBAG_ADMIN_TOKEN` environment variable, never from the command
//! line, where every user of the machine could read it.

mod http;

use std::path::PathBuf;

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use hyper::Method;
use serde_json::{Value, json};
use sevenbag_netplay::TlsTrust;

use http::Server;

/// The admin API's commands.
#[derive(Subcommand, Debug)]
pub enum AdminCommand {
    /// Operator actions through a server's admin API (/admin/).
    Admin(AdminArgs),
}

/// Where the server is, how to authenticate, and what to do.
#[derive(Args, Debug)]
pub struct AdminArgs {
    /// The server: http://HOST:PORT or https://HOST:PORT (ws:// and wss:// are read as those).
    #[arg(long, default_value = "http://127.0.0.1:7878")]
    server: String,
    /// A file with the admin token: `TOKEN` or `NAME:TOKEN` on its first token line (the
    /// server's --admin-token-file is fine). Default: $SEVENBAG_ADMIN_TOKEN.
    #[arg(long, value_name = "FILE")]
    token_file: Option<PathBuf>,
    /// Also trust this PEM certificate for https:// (a self-signed server's).
    #[arg(long, value_name = "PEM")]
    trust_cert: Option<PathBuf>,
    #[command(subcommand)]
    action: Action,
}

/// A reason and an optional end, for sanctions.
#[derive(Args, Debug)]
struct Sanction {
    /// Why (shown to the player and kept in the audit log).
    #[arg(long)]
    reason: String,
    /// Ends after this many days (default: no end date).
    #[arg(long, conflicts_with = "until_unix")]
    days: Option<f64>,
    /// Ends at this Unix time.
    #[arg(long)]
    until_unix: Option<u64>,
}

/// One admin request.
#[derive(Subcommand, Debug)]
enum Action {
    /// List players (oldest first), optionally by a piece of their name or a filter.
    Players {
        /// A piece of the name (look-alikes folded).
        #[arg(long)]
        query: Option<String>,
        /// all, banned, muted, bots or delisted.
        #[arg(long)]
        filter: Option<String>,
        #[arg(long, default_value_t = 50)]
        limit: u32,
        #[arg(long, default_value_t = 0)]
        offset: u32,
    },
    /// One player, with every sanction they were given.
    Player { id: i64 },
    /// Ban a player: no identifying, queueing, creating or joining rooms; connected ones are cut.
    Ban {
        id: i64,
        #[command(flatten)]
        sanction: Sanction,
    },
    /// Lift a player's bans.
    Unban {
        id: i64,
        #[arg(long)]
        reason: String,
    },
    /// Mute a player (no chat).
    Mute {
        id: i64,
        #[command(flatten)]
        sanction: Sanction,
    },
    /// Lift a player's mutes.
    Unmute {
        id: i64,
        #[arg(long)]
        reason: String,
    },
    /// Give a player another name.
    Rename {
        id: i64,
        name: String,
        #[arg(long)]
        reason: String,
    },
    /// Take a player off every leaderboard.
    Delist {
        id: i64,
        #[arg(long)]
        reason: String,
    },
    /// Put a player back on the leaderboards.
    Relist {
        id: i64,
        #[arg(long)]
        reason: String,
    },
    /// Mark a player as a bot (or take the mark away with --unmark).
    MarkBot {
        id: i64,
        #[arg(long)]
        unmark: bool,
        #[arg(long)]
        reason: String,
    },
    /// Ban an address range (CIDR, e.g. 203.0.113.0/24; one address: /32 or /128).
    BanAddress {
        network: String,
        #[command(flatten)]
        sanction: Sanction,
    },
    /// List address bans.
    AddressBans,
    /// Lift an address ban.
    LiftAddressBan {
        id: i64,
        #[arg(long)]
        reason: String,
    },
    /// List reports (open ones by default), with links to their replays.
    Reports {
        /// open, closed or all.
        #[arg(long)]
        state: Option<String>,
        #[arg(long, default_value_t = 100)]
        limit: u32,
    },
    /// Close a report with an action on the reported player.
    CloseReport {
        /// The report's id (as listed).
        id: String,
        /// dismiss, ban, mute, rename or delist.
        #[arg(long)]
        action: String,
        #[arg(long)]
        reason: String,
        /// For ban and mute: ends after this many days.
        #[arg(long)]
        days: Option<f64>,
        /// For rename: the new name.
        #[arg(long)]
        name: Option<String>,
    },
    /// List ranked matches flagged for inhuman input (awaiting review by default).
    Flagged {
        /// open, closed or all.
        #[arg(long)]
        state: Option<String>,
        #[arg(long, default_value_t = 100)]
        limit: u32,
    },
    /// Close the review of a flagged match: human or cheat.
    Review {
        match_id: i64,
        #[arg(long)]
        verdict: String,
        #[arg(long)]
        reason: String,
    },
    /// The audit log, newest first.
    Audit {
        #[arg(long, default_value_t = 100)]
        limit: u32,
        /// Entries older than this id.
        #[arg(long)]
        before: Option<i64>,
    },
    /// Download a replay of the server by its id (the evidence of a report).
    Replay {
        id: String,
        /// Where to write it.
        #[arg(long, short)]
        out: PathBuf,
    },
}

/// Runs an admin subcommand.
pub fn run(command: AdminCommand) -> anyhow::Result<()> {
    let AdminCommand::Admin(args) = command;
    let mut trust = TlsTrust::default();
    if let Some(cert) = &args.trust_cert {
        trust = trust.with_cert_file(cert)?;
    }
    let server = Server::parse(&args.server, trust)?;
    let token = token(args.token_file.as_deref())?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(perform(&server, &token, args.action))
}

/// The token: the first token line of the file, or the environment variable.
fn token(file: Option<&std::path::Path>) -> anyhow::Result<String> {
    let text = match file {
        Some(path) => std::fs::read_to_string(path)
            .with_context(|| format!("cannot read the token file {}", path.display()))?,
        None => std::env::var("SEVENBAG_ADMIN_TOKEN")
            .context("give --token-file FILE or set SEVENBAG_ADMIN_TOKEN")?,
    };
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .context("no token in the token file")?;
    let token = line.rsplit_once(':').map_or(line, |(_, t)| t.trim());
    Ok(token.to_string())
}

/// Seconds from now as an end date.
fn until(days: Option<f64>, until_unix: Option<u64>) -> anyhow::Result<Option<u64>> {
    match (days, until_unix) {
        (Some(d), _) => {
            anyhow::ensure!(d.is_finite() && d > 0.0, "--days is a positive number");
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)?
                .as_secs();
            Ok(Some(now + (d * 86_400.0) as u64))
        }
        (None, t) => Ok(t),
    }
}

fn sanction_body(s: &Sanction) -> anyhow::Result<Value> {
    Ok(json!({ "reason": s.reason, "until_unix": until(s.days, s.until_unix)? }))
}

/// A query string of the parameters that are set (values are plain: names, numbers, words).
fn query(pairs: &[(&str, Option<String>)]) -> String {
    let set: Vec<String> = pairs
        .iter()
        .filter_map(|(k, v)| v.as_ref().map(|v| format!("{k}={}", escape(v))))
        .collect();
    if set.is_empty() {
        String::new()
    } else {
        format!("?{}", set.join("&"))
    }
}

/// Percent-encodes everything but unreserved characters.
fn escape(v: &str) -> String {
    v.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

async fn perform(server: &Server, token: &str, action: Action) -> anyhow::Result<()> {
    let player = |id: i64, what: &str| format!("/admin/players/{id}/{what}");
    let (method, path, body) = match action {
        Action::Players {
            query: q,
            filter,
            limit,
            offset,
        } => (
            Method::GET,
            format!(
                "/admin/players{}",
                query(&[
                    ("q", q),
                    ("filter", filter),
                    ("limit", Some(limit.to_string())),
                    ("offset", Some(offset.to_string())),
                ])
            ),
            None,
        ),
        Action::Player { id } => (Method::GET, format!("/admin/players/{id}"), None),
        Action::Ban { id, sanction } => (
            Method::POST,
            player(id, "ban"),
            Some(sanction_body(&sanction)?),
        ),
        Action::Mute { id, sanction } => (
            Method::POST,
            player(id, "mute"),
            Some(sanction_body(&sanction)?),
        ),
        Action::Unban { id, reason } => (
            Method::POST,
            player(id, "unban"),
            Some(json!({ "reason": reason })),
        ),
        Action::Unmute { id, reason } => (
            Method::POST,
            player(id, "unmute"),
            Some(json!({ "reason": reason })),
        ),
        Action::Rename { id, name, reason } => (
            Method::POST,
            player(id, "rename"),
            Some(json!({ "name": name, "reason": reason })),
        ),
        Action::Delist { id, reason } => (
            Method::POST,
            player(id, "delist"),
            Some(json!({ "reason": reason })),
        ),
        Action::Relist { id, reason } => (
            Method::POST,
            player(id, "relist"),
            Some(json!({ "reason": reason })),
        ),
        Action::MarkBot { id, unmark, reason } => (
            Method::POST,
            player(id, "bot"),
            Some(json!({ "bot": !unmark, "reason": reason })),
        ),
        Action::BanAddress { network, sanction } => {
            let mut body = sanction_body(&sanction)?;
            body["network"] = json!(network);
            (Method::POST, "/admin/address-bans".to_string(), Some(body))
        }
        Action::AddressBans => (Method::GET, "/admin/address-bans".to_string(), None),
        Action::LiftAddressBan { id, reason } => (
            Method::POST,
            format!("/admin/address-bans/{id}/lift"),
            Some(json!({ "reason": reason })),
        ),
        Action::Reports { state, limit } => (
            Method::GET,
            format!(
                "/admin/reports{}",
                query(&[("state", state), ("limit", Some(limit.to_string()))])
            ),
            None,
        ),
        Action::CloseReport {
            id,
            action,
            reason,
            days,
            name,
        } => (
            Method::POST,
            format!("/admin/reports/{}/close", escape(&id)),
            Some(json!({
                "action": action,
                "reason": reason,
                "until_unix": until(days, None)?,
                "name": name,
            })),
        ),
        Action::Flagged { state, limit } => (
            Method::GET,
            format!(
                "/admin/flagged{}",
                query(&[("state", state), ("limit", Some(limit.to_string()))])
            ),
            None,
        ),
        Action::Review {
            match_id,
            verdict,
            reason,
        } => (
            Method::POST,
            format!("/admin/flagged/{match_id}/review"),
            Some(json!({ "verdict": verdict, "reason": reason })),
        ),
        Action::Audit { limit, before } => (
            Method::GET,
            format!(
                "/admin/audit{}",
                query(&[
                    ("limit", Some(limit.to_string())),
                    ("before", before.map(|b| b.to_string())),
                ])
            ),
            None,
        ),
        Action::Replay { id, out } => {
            let path = format!("/admin/replays/{}", escape(&id));
            let (status, bytes) = server.request(Method::GET, &path, token, None).await?;
            if status != 200 {
                bail!("{}", explain(status, &bytes));
            }
            std::fs::write(&out, &bytes)
                .with_context(|| format!("cannot write {}", out.display()))?;
            println!("{} bytes written to {}", bytes.len(), out.display());
            return Ok(());
        }
    };
    let body = body.map(drop_nulls);
    let (status, bytes) = server.request(method, &path, token, body).await?;
    if !(200..300).contains(&status) {
        bail!("{}", explain(status, &bytes));
    }
    let answer: Value =
        serde_json::from_slice(&bytes).context("the server's answer is not JSON")?;
    println!("{}", serde_json::to_string_pretty(&answer)?);
    Ok(())
}

/// Leaves out fields without a value (the API refuses `null` where it wants a value or
/// nothing).
fn drop_nulls(mut body: Value) -> Value {
    if let Some(map) = body.as_object_mut() {
        map.retain(|_, v| !v.is_null());
    }
    body
}

/// `HTTP 401: send a valid admin token...`.
fn explain(status: u16, bytes: &[u8]) -> String {
    let message = serde_json::from_slice::<Value>(bytes)
        .ok()
        .and_then(|v| v["error"].as_str().map(str::to_string))
        .unwrap_or_else(|| String::from_utf8_lossy(bytes).chars().take(200).collect());
    format!("HTTP {status}: {message}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_is_the_first_token_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tokens");
        std::fs::write(&path, "# ops\n\nalice:abc123\nbob:zzz\n").unwrap();
        assert_eq!(token(Some(&path)).unwrap(), "abc123");
        std::fs::write(&path, "plain-token\n").unwrap();
        assert_eq!(token(Some(&path)).unwrap(), "plain-token");
    }

    #[test]
    fn queries_are_escaped_and_skip_unset_values() {
        assert_eq!(
            query(&[("q", Some("a b&c".into())), ("filter", None)]),
            "?q=a%20b%26c"
        );
        assert_eq!(query(&[("x", None)]), "");
    }
}
