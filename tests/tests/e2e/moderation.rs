//! Moderation and fair play through the real server (docs/MODERATION.md): the admin
//! API and its tokens, bans (identity and address range), mutes, renames, leaderboards,
//! registration limits, declared bots, reports with their replays, block lists, ranked pairing
//! rules and the inhuman-input screening. The sanction and report checks run on SQLite and on
//! a real PostgreSQL (`sevenbag_tests::services`); a ban crossing instances is in `cluster.rs`.

use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context, ensure};
use serde_json::{Value, json};
use sevenbag_bot::{Bot, Level};
use sevenbag_core::{Battle, Input, Seat, SeatInput};
use sevenbag_netplay::BattleClient;
use sevenbag_protocol::moderation::ReportCategory;
use sevenbag_protocol::{ClientMessage, ErrorCode, JoinRole, RoomOptions, ServerMessage};
use sevenbag_server::{Config, ModerationConfig, ScreenBounds};
use sevenbag_tests::http::{get, request, request_json};
use sevenbag_tests::services::Postgres;
use sevenbag_tests::social::registered;
use sevenbag_tests::{
    Event, RawClient, TempDir, TestServer, fast_config, player_key, scripted, start_server,
    temp_dir,
};

const LIMIT: Duration = Duration::from_secs(20);
/// A 30-character token (the server wants 24 or more).
const TOKEN: &str = "ops-token-4f9c2a7e1b8d6053ab12";

/// Where a test server keeps its data.
enum Backend {
    Sqlite,
    Postgres(Postgres),
}

/// A server with the admin API on (operator `ops`), its directory and its token.
struct Moderated {
    server: TestServer,
    _dir: TempDir,
}

impl Moderated {
    fn addr(&self) -> SocketAddr {
        self.server.addr()
    }
}

/// Writes the token file and returns the moderation settings around it (everything else as
/// `base`). The file is replaced whole (written aside, then renamed): a server of the same
/// directory still starting must never read it half written.
fn with_tokens(dir: &Path, base: ModerationConfig) -> ModerationConfig {
    let file = dir.join("admin-tokens");
    let aside = dir.join("admin-tokens.new");
    std::fs::write(&aside, format!("# operators\nops:{TOKEN}\n")).expect("token file");
    std::fs::rename(&aside, &file).expect("token file in place");
    ModerationConfig {
        admin_token_file: Some(file),
        sync_every: Duration::from_millis(200),
        ..base
    }
}

/// Starts a server on `backend` with the admin API and `moderation` (tokens added).
async fn moderated(backend: &Backend, moderation: ModerationConfig) -> Moderated {
    let dir = temp_dir("moderation");
    let mut config = Config {
        ranked_first_to: 1,
        moderation: with_tokens(dir.path(), moderation),
        ..fast_config()
    };
    match backend {
        Backend::Sqlite => config.db = Some(dir.path().join("sevenbag.db")),
        Backend::Postgres(pg) => config.postgres = Some(pg.url()),
    }
    Moderated {
        server: start_server(config).await,
        _dir: dir,
    }
}

/// `METHOD path` with the operator's token: the status and JSON body.
async fn admin(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> anyhow::Result<(u16, Value)> {
    request_json(addr, method, path, Some(TOKEN), body.as_ref()).await
}

/// The id of the player named `name`, through the admin API.
async fn player_id(addr: SocketAddr, name: &str) -> anyhow::Result<i64> {
    let (status, list) = admin(addr, "GET", &format!("/admin/players?q={name}"), None).await?;
    ensure!(status == 200, "{status} {list}");
    list["players"]
        .as_array()
        .and_then(|p| p.iter().find(|p| p["name"] == name))
        .and_then(|p| p["id"].as_i64())
        .with_context(|| format!("{name} in {list}"))
}

/// The next `Error`, code and text.
async fn error(c: &mut RawClient) -> anyhow::Result<(ErrorCode, String)> {
    c.recv_until(LIMIT, |m| match m {
        ServerMessage::Error { code, message, .. } => Some((*code, message.clone())),
        _ => None,
    })
    .await
}

async fn created_room(c: &mut RawClient) -> anyhow::Result<String> {
    c.send(&ClientMessage::CreateRoom {
        options: RoomOptions {
            first_to: 1,
            ..RoomOptions::default()
        },
    })
    .await?;
    c.recv_until(LIMIT, |m| match m {
        ServerMessage::Joined { code, .. } => Some(code.clone()),
        _ => None,
    })
    .await
}

async fn join(c: &mut RawClient, code: &str, role: JoinRole) -> anyhow::Result<Option<Seat>> {
    c.send(&ClientMessage::JoinRoom {
        code: code.into(),
        role,
    })
    .await?;
    c.recv_until(LIMIT, |m| match m {
        ServerMessage::Joined { seat, .. } => Some(Ok(*seat)),
        ServerMessage::Error { code, message, .. } => {
            Some(Err(anyhow::anyhow!("{code:?}: {message}")))
        }
        _ => None,
    })
    .await?
}

/// Creates a general room of `seats` seats; its code.
async fn created_battle_room(c: &mut RawClient, seats: u8) -> anyhow::Result<String> {
    c.send(&ClientMessage::CreateBattleRoom {
        options: sevenbag_tests::ffa::options(seats),
    })
    .await?;
    c.recv_until(LIMIT, |m| match m {
        ServerMessage::BattleJoined { code, .. } => Some(code.clone()),
        _ => None,
    })
    .await
}

/// Joins the general room `code` as `role`.
async fn join_battle(c: &mut RawClient, code: &str, role: JoinRole) -> anyhow::Result<()> {
    c.send(&ClientMessage::JoinRoom {
        code: code.into(),
        role,
    })
    .await?;
    c.recv_until(LIMIT, |m| {
        matches!(m, ServerMessage::BattleJoined { .. }).then_some(())
    })
    .await
}

/// Bob speaks, then Carol; the first line Alice (who blocks Bob) hears is Carol's. Carol
/// hears Bob before she speaks, so Alice, who hears Carol, would have heard Bob first.
async fn blocked_line_is_hidden(
    alice: &mut RawClient,
    bob: &mut RawClient,
    carol: &mut RawClient,
) -> anyhow::Result<()> {
    bob.send(&ClientMessage::Chat {
        text: "psst".into(),
    })
    .await?;
    carol
        .recv_until(LIMIT, |m| match m {
            ServerMessage::Chat { from, .. } if from == "bob" => Some(()),
            _ => None,
        })
        .await?;
    carol
        .send(&ClientMessage::Chat {
            text: "hello".into(),
        })
        .await?;
    let first = alice
        .recv_until(LIMIT, |m| match m {
            ServerMessage::Chat { from, .. } => Some(from.clone()),
            _ => None,
        })
        .await?;
    ensure!(first == "carol", "bob's line was delivered to alice");
    Ok(())
}

/// Whether `c` is seated by a queue within `within` (a `BattleJoined`: quick and ranked
/// matches are rooms of the general kind); other messages are skipped.
async fn seated_within(c: &mut RawClient, within: Duration) -> anyhow::Result<bool> {
    let deadline = Instant::now() + within;
    while Instant::now() < deadline {
        let left = deadline.saturating_duration_since(Instant::now());
        match c.poll_event(left).await? {
            Some(Event::Message(ServerMessage::BattleJoined { .. })) => return Ok(true),
            Some(Event::Closed(_)) => anyhow::bail!("closed while waiting"),
            _ => {}
        }
    }
    Ok(false)
}

fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

async fn metric(addr: SocketAddr, event: &str) -> anyhow::Result<u64> {
    let (_, text) = get(addr, "/metrics").await?;
    let text = String::from_utf8_lossy(&text);
    let line = format!("sevenbag_moderation_total{{event=\"{event}\"}} ");
    text.lines()
        .find_map(|l| l.strip_prefix(&line))
        .and_then(|n| n.trim().parse().ok())
        .with_context(|| format!("no {event} in /metrics"))
}

// ---- bans ----------------------------------------------------------------------------------

/// A ban cuts the player's live connection and refuses them on identify, create, join and
/// every queue, saying why and until when; it is in the audit log; lifting it lets them back.
async fn a_ban_refuses_identify_queue_create_and_join(backend: Backend) -> anyhow::Result<()> {
    let m = moderated(&backend, ModerationConfig::permissive()).await;
    let mut alice = registered(m.addr(), "alice", 1).await?;
    let mut bob = registered(m.addr(), "bob", 2).await?;
    let code = created_room(&mut alice).await?;
    let bob_id = player_id(m.addr(), "bob").await?;
    let until = unix_now() + 3600;
    let (status, done) = admin(
        m.addr(),
        "POST",
        &format!("/admin/players/{bob_id}/ban"),
        Some(json!({ "reason": "farming ratings", "until_unix": until })),
    )
    .await?;
    assert_eq!(status, 200, "{done}");

    // Connected: cut, with the reason.
    let (code_cut, text, _) = bob.expect_cut(LIMIT).await?;
    assert_eq!(code_cut, ErrorCode::Banned);
    assert!(
        text.contains("farming ratings") && text.contains("until"),
        "{text}"
    );

    // A new connection: refused on identify, and then on everything that plays.
    let mut again = RawClient::hello(m.addr(), "bob").await?;
    again
        .send(&ClientMessage::Identify { key: player_key(2) })
        .await?;
    let (c, text) = error(&mut again).await?;
    assert_eq!(c, ErrorCode::Banned);
    assert!(text.contains("farming ratings"), "{text}");
    for request in [
        ClientMessage::JoinRoom {
            code: code.clone(),
            role: JoinRole::Player,
        },
        ClientMessage::CreateRoom {
            options: RoomOptions::default(),
        },
        ClientMessage::QuickMatch,
        ClientMessage::RankedMatch,
    ] {
        again.send(&request).await?;
        let (c, text) = error(&mut again).await?;
        assert_eq!(c, ErrorCode::Banned, "{request:?}");
        assert!(text.contains("farming ratings"), "{text}");
    }

    // Audited: who, what, when, why.
    let (_, log) = admin(m.addr(), "GET", "/admin/audit", None).await?;
    let entry = &log["entries"][0];
    assert_eq!(
        (&entry["actor"], &entry["action"], &entry["reason"]),
        (&json!("ops"), &json!("ban"), &json!("farming ratings"))
    );
    assert_eq!(entry["target"], format!("player:{bob_id}"));
    assert_eq!(entry["detail"]["until_unix"], until);
    let (_, listed) = admin(m.addr(), "GET", "/admin/players?filter=banned", None).await?;
    assert_eq!(listed["players"][0]["ban"]["reason"], "farming ratings");

    // Lifted: back in.
    let (status, _) = admin(
        m.addr(),
        "POST",
        &format!("/admin/players/{bob_id}/unban"),
        Some(json!({ "reason": "appeal accepted" })),
    )
    .await?;
    assert_eq!(status, 200);
    let mut back = RawClient::hello(m.addr(), "bob").await?;
    back.send(&ClientMessage::Identify { key: player_key(2) })
        .await?;
    assert_eq!(back.profile_reply(LIMIT).await?.name, "bob");
    assert_eq!(
        join(&mut back, &code, JoinRole::Player).await?,
        Some(Seat::Second)
    );
    assert!(metric(m.addr(), "refused_banned").await? >= 5);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ban_refuses_identify_queue_create_and_join_on_sqlite() -> anyhow::Result<()> {
    a_ban_refuses_identify_queue_create_and_join(Backend::Sqlite).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ban_refuses_identify_queue_create_and_join_on_postgres() -> anyhow::Result<()> {
    let Some(pg) = Postgres::start() else {
        return Ok(());
    };
    a_ban_refuses_identify_queue_create_and_join(Backend::Postgres(pg)).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_range_ban_refuses_connections_at_hello() -> anyhow::Result<()> {
    let m = moderated(&Backend::Sqlite, ModerationConfig::permissive()).await;
    let (status, body) = admin(
        m.addr(),
        "POST",
        "/admin/address-bans",
        Some(json!({ "network": "127.0.0.1/32", "reason": "ban evasion" })),
    )
    .await?;
    assert_eq!(status, 200, "{body}");
    let mut c = RawClient::connect(m.addr()).await?;
    c.send(&RawClient::hello_message("eve")).await?;
    let (code, text, _) = c.expect_cut(LIMIT).await?;
    assert_eq!(code, ErrorCode::Banned);
    assert!(text.contains("ban evasion"), "{text}");
    let (_, bans) = admin(m.addr(), "GET", "/admin/address-bans", None).await?;
    let id = bans["address_bans"][0]["id"].as_i64().context("an id")?;
    assert_eq!(bans["address_bans"][0]["network"], "127.0.0.1/32");
    let (status, _) = admin(
        m.addr(),
        "POST",
        &format!("/admin/address-bans/{id}/lift"),
        Some(json!({ "reason": "wrong range" })),
    )
    .await?;
    assert_eq!(status, 200);
    RawClient::hello(m.addr(), "eve").await?;
    Ok(())
}

/// On a server listening on `[::]`, an IPv4 peer arrives as `::ffff:127.0.0.1`; a ban written
/// as the IPv4-mapped range `::ffff:127.0.0.0/104` is stored as `127.0.0.0/8` and refuses it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mapped_ipv6_range_ban_refuses_ipv4_peers_on_a_dual_stack_server() -> anyhow::Result<()> {
    let listener = match tokio::net::TcpListener::bind("[::]:0").await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("SKIPPED: this machine cannot listen on [::] (no IPv6): {e}");
            return Ok(());
        }
    };
    let port = listener.local_addr()?.port();
    let dir = temp_dir("moderation-v6");
    let config = Config {
        db: Some(dir.path().join("sevenbag.db")),
        moderation: with_tokens(dir.path(), ModerationConfig::permissive()),
        ..fast_config()
    };
    let _server = sevenbag_tests::start_server_on(listener, config).await;
    let v4 = SocketAddr::from(([127, 0, 0, 1], port));
    if let Err(e) = RawClient::hello(v4, "eve").await {
        eprintln!("SKIPPED: 127.0.0.1 cannot reach a [::] listener (IPv6-only sockets): {e}");
        return Ok(());
    }
    let (status, body) = admin(
        v4,
        "POST",
        "/admin/address-bans",
        Some(json!({ "network": "::ffff:127.0.0.0/104", "reason": "ban evasion" })),
    )
    .await?;
    assert_eq!(status, 200, "{body}");
    let (_, bans) = admin(v4, "GET", "/admin/address-bans", None).await?;
    assert_eq!(bans["address_bans"][0]["network"], "127.0.0.0/8");
    let mut c = RawClient::connect(v4).await?;
    c.send(&RawClient::hello_message("eve")).await?;
    let (code, text, _) = c.expect_cut(LIMIT).await?;
    assert_eq!(code, ErrorCode::Banned);
    assert!(text.contains("ban evasion"), "{text}");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mute_refuses_chat_only_and_a_forced_rename_reaches_the_player() -> anyhow::Result<()> {
    let m = moderated(&Backend::Sqlite, ModerationConfig::permissive()).await;
    let mut alice = registered(m.addr(), "alice", 1).await?;
    let mut bob = registered(m.addr(), "b0ss", 2).await?;
    let code = created_room(&mut alice).await?;
    join(&mut bob, &code, JoinRole::Player).await?;
    let bob_id = player_id(m.addr(), "b0ss").await?;
    admin(
        m.addr(),
        "POST",
        &format!("/admin/players/{bob_id}/mute"),
        Some(json!({ "reason": "insults" })),
    )
    .await?;
    let (c, text) = error(&mut bob).await?;
    assert_eq!(c, ErrorCode::Muted, "told at once: {text}");
    bob.send(&ClientMessage::Chat { text: "hi".into() }).await?;
    let (c, text) = error(&mut bob).await?;
    assert_eq!(c, ErrorCode::Muted);
    assert!(
        text.contains("insults") && text.contains("no end date"),
        "{text}"
    );
    bob.send(&ClientMessage::Ready).await?;
    alice
        .recv_until(LIMIT, |m| match m {
            ServerMessage::RoomState { seats, .. } => {
                seats[1].as_ref().filter(|s| s.ready).map(|_| ())
            }
            _ => None,
        })
        .await
        .context("a muted player still plays")?;

    // A forced rename goes through the name rules of Register and Rename: no look-alike
    // letters, no invisible characters.
    for bad in ["\u{430}lice", "Al\u{200b}ice", "ab"] {
        let (status, body) = admin(
            m.addr(),
            "POST",
            &format!("/admin/players/{bob_id}/rename"),
            Some(json!({ "name": bad, "reason": "x" })),
        )
        .await?;
        assert_eq!(status, 400, "{bad:?}: {body}");
    }
    let (status, body) = admin(
        m.addr(),
        "POST",
        &format!("/admin/players/{bob_id}/rename"),
        Some(json!({ "name": "alice", "reason": "x" })),
    )
    .await?;
    assert_eq!(status, 409, "a taken name: {body}");
    let (status, _) = admin(
        m.addr(),
        "POST",
        &format!("/admin/players/{bob_id}/rename"),
        Some(json!({ "name": "Player_7", "reason": "offensive name" })),
    )
    .await?;
    assert_eq!(status, 200);
    let (c, text) = error(&mut bob).await?;
    assert_eq!(c, ErrorCode::BadName);
    assert!(text.contains("Player_7"), "{text}");
    let mut again = RawClient::hello(m.addr(), "whatever").await?;
    again
        .send(&ClientMessage::Identify { key: player_key(2) })
        .await?;
    assert_eq!(again.profile_reply(LIMIT).await?.name, "Player_7");
    Ok(())
}

// ---- the admin API itself ------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_admin_api_is_off_without_tokens_and_refuses_missing_and_wrong_ones()
-> anyhow::Result<()> {
    // Off: every /admin path is an ordinary 404.
    let dir = temp_dir("admin-off");
    let off = start_server(Config {
        db: Some(dir.path().join("sevenbag.db")),
        ..fast_config()
    })
    .await;
    for path in ["/admin/players", "/admin/audit", "/admin/nothing"] {
        let (status, _) = request(off.addr(), "GET", path, Some(TOKEN), None).await?;
        assert_eq!(status, 404, "{path}");
    }

    let m = moderated(&Backend::Sqlite, ModerationConfig::permissive()).await;
    registered(m.addr(), "alice", 1).await?;
    let id = player_id(m.addr(), "alice").await?;
    // Missing, wrong, almost right, wrong scheme: 401, the same for a player that exists, one
    // that does not, and a route that does not: nothing is revealed.
    let wrong = [
        None,
        Some("not-the-token-at-all-0000000000"),
        Some(&TOKEN[..TOKEN.len() - 1]),
    ];
    for token in wrong {
        for path in [
            format!("/admin/players/{id}"),
            "/admin/players/999999".to_string(),
            "/admin/no-such-route".to_string(),
        ] {
            let (status, body) = request_json(m.addr(), "GET", &path, token, None).await?;
            assert_eq!(status, 401, "{token:?} {path}");
            assert!(body["error"].is_string());
        }
    }
    let (status, _) = request(
        m.addr(),
        "POST",
        &format!("/admin/players/{id}/ban"),
        None,
        Some(&json!({ "reason": "x" })),
    )
    .await?;
    assert_eq!(status, 401, "no action without a token");
    assert_eq!(metric(m.addr(), "admin_unauthorized").await?, 10);

    // With the token: found, not found, validated.
    assert_eq!(
        admin(m.addr(), "GET", &format!("/admin/players/{id}"), None)
            .await?
            .0,
        200
    );
    assert_eq!(
        admin(m.addr(), "GET", "/admin/players/999999", None)
            .await?
            .0,
        404
    );
    assert_eq!(
        admin(m.addr(), "GET", "/admin/no-such-route", None)
            .await?
            .0,
        404
    );
    let ban = format!("/admin/players/{id}/ban");
    for (body, what) in [
        (json!({ "reason": "" }), "empty reason"),
        (json!({ "reason": "x".repeat(501) }), "long reason"),
        (json!({ "reason": "a\u{7}b" }), "control character"),
        (json!({ "reason": "x", "until_unix": 5 }), "end in the past"),
        (
            json!({ "reason": "x", "until_unix": u64::MAX }),
            "end too far",
        ),
        (json!({ "reason": "x", "admin": true }), "unknown field"),
        (json!(["x"]), "not an object"),
    ] {
        let (status, answer) = admin(m.addr(), "POST", &ban, Some(body)).await?;
        assert_eq!(status, 400, "{what}: {answer}");
    }
    for path in [
        "/admin/players/0/ban",
        "/admin/players/-1/ban",
        "/admin/players/x/ban",
    ] {
        let (status, _) = admin(m.addr(), "POST", path, Some(json!({ "reason": "x" }))).await?;
        assert_eq!(status, 400, "{path}");
    }
    for network in ["10.0.0.0/4", "banana", "1.2.3.4"] {
        let body = json!({ "network": network, "reason": "x" });
        let (status, _) = admin(m.addr(), "POST", "/admin/address-bans", Some(body)).await?;
        assert_eq!(status, 400, "{network}");
    }
    let (status, _) = admin(m.addr(), "GET", "/admin/players?limit=0", None).await?;
    assert_eq!(status, 400);
    let (status, _) = admin(m.addr(), "GET", "/admin/players?q=%25%27", None).await?;
    assert_eq!(status, 400, "search text is a piece of a name");

    // The audit log is read-only.
    for method in ["POST", "PUT", "DELETE", "PATCH"] {
        let (status, _) = request(m.addr(), method, "/admin/audit", Some(TOKEN), None).await?;
        assert_eq!(status, 405, "{method} /admin/audit");
    }
    let (_, log) = admin(m.addr(), "GET", "/admin/audit", None).await?;
    assert_eq!(log["entries"], json!([]), "refused calls leave no entry");
    Ok(())
}

// ---- sybil and farming limits --------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn registrations_from_one_address_are_limited() -> anyhow::Result<()> {
    let m = moderated(
        &Backend::Sqlite,
        ModerationConfig {
            registrations_per_hour: Some(2),
            registrations_per_day: Some(5),
            ..ModerationConfig::permissive()
        },
    )
    .await;
    registered(m.addr(), "one", 1).await?;
    registered(m.addr(), "two", 2).await?;
    let mut third = RawClient::hello(m.addr(), "three").await?;
    third
        .send(&ClientMessage::Register {
            key: player_key(3),
            name: "three".into(),
        })
        .await?;
    let (c, text) = error(&mut third).await?;
    assert_eq!(c, ErrorCode::RateLimited);
    assert!(text.contains("2 identities in the last hour"), "{text}");
    assert_eq!(metric(m.addr(), "registration_limited").await?, 1);
    // Identifying is not registering.
    let mut old = RawClient::hello(m.addr(), "one").await?;
    old.send(&ClientMessage::Identify { key: player_key(1) })
        .await?;
    old.profile_reply(LIMIT).await?;
    let (_, listed) = admin(m.addr(), "GET", "/admin/players", None).await?;
    assert_eq!(listed["players"][0]["registered_from"], "v4:127.0.0.1");
    Ok(())
}

/// Both queue for ranked; whether they were paired within `within`.
async fn ranked_paired(
    a: &mut RawClient,
    b: &mut RawClient,
    within: Duration,
) -> anyhow::Result<bool> {
    a.send(&ClientMessage::RankedMatch).await?;
    b.send(&ClientMessage::RankedMatch).await?;
    Ok(seated_within(a, within).await? && seated_within(b, LIMIT).await?)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ranked_refuses_one_address_for_both_seats() -> anyhow::Result<()> {
    let m = moderated(
        &Backend::Sqlite,
        ModerationConfig {
            ranked_same_address: false,
            ..ModerationConfig::permissive()
        },
    )
    .await;
    let mut a = registered(m.addr(), "alice", 1).await?;
    let mut b = registered(m.addr(), "bob", 2).await?;
    assert!(!ranked_paired(&mut a, &mut b, Duration::from_secs(2)).await?);
    assert_eq!(metric(m.addr(), "pair_skipped_same_address").await?, 1);
    // Quick match is not ranked: the same two are paired there.
    for c in [&mut a, &mut b] {
        c.send(&ClientMessage::LeaveRoom).await?;
    }
    a.send(&ClientMessage::QuickMatch).await?;
    b.send(&ClientMessage::QuickMatch).await?;
    assert!(
        seated_within(&mut a, LIMIT).await?,
        "quick match pairs them"
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ranked_pairs_the_same_two_identities_at_most_n_times_a_day() -> anyhow::Result<()> {
    let m = moderated(
        &Backend::Sqlite,
        ModerationConfig {
            ranked_pair_daily: Some(1),
            ..ModerationConfig::permissive()
        },
    )
    .await;
    let mut a = registered(m.addr(), "alice", 1).await?;
    let mut b = registered(m.addr(), "bob", 2).await?;
    assert!(ranked_paired(&mut a, &mut b, LIMIT).await?);
    // Seats depend on the queue; the script's seat only labels its outcome.
    let (x, y) = tokio::join!(
        scripted::play_battle(&mut a, 0, 6, LIMIT),
        scripted::play_battle(&mut b, 1, 12, LIMIT)
    );
    let _ = (x, y);
    for c in [&mut a, &mut b] {
        c.send(&ClientMessage::LeaveRoom).await?;
    }
    // Once the match is stored, they are not paired again today.
    let deadline = Instant::now() + LIMIT;
    while get(m.addr(), "/api/matches/1").await?.0 != 200 {
        ensure!(Instant::now() < deadline, "the match is stored");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(!ranked_paired(&mut a, &mut b, Duration::from_secs(2)).await?);
    assert_eq!(metric(m.addr(), "pair_skipped_daily_limit").await?, 1);
    Ok(())
}

// ---- bots ----------------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_declared_bot_is_marked_plays_rooms_and_quick_match_and_is_refused_ranked_and_records()
-> anyhow::Result<()> {
    let m = moderated(&Backend::Sqlite, ModerationConfig::permissive()).await;
    let mut bot = RawClient::hello(m.addr(), "tbp-bot").await?;
    bot.send(&ClientMessage::DeclareBot).await?;
    bot.send(&ClientMessage::Register {
        key: player_key(9),
        name: "tbpbot".into(),
    })
    .await?;
    bot.profile_reply(LIMIT).await?;
    bot.send(&ClientMessage::RankedMatch).await?;
    let (c, text) = error(&mut bot).await?;
    assert_eq!(c, ErrorCode::BotRefused, "{text}");
    bot.send(&ClientMessage::SubmitSolo {
        replay: b"SBSO".to_vec(),
    })
    .await?;
    assert_eq!(error(&mut bot).await?.0, ErrorCode::BotRefused);

    // In a room its seat is marked, and its chat too.
    let code = created_room(&mut bot).await?;
    let mut person = registered(m.addr(), "alice", 1).await?;
    join(&mut person, &code, JoinRole::Player).await?;
    let marks = person
        .recv_until(LIMIT, |m| match m {
            ServerMessage::SeatMarks { bots } => Some(bots.clone()),
            _ => None,
        })
        .await?;
    assert_eq!(marks, vec![true, false]);
    bot.send(&ClientMessage::Chat { text: "gl".into() }).await?;
    let line = person
        .recv_until(LIMIT, |m| match m {
            ServerMessage::BotChat { from, text, .. } => Some((from.clone(), text.clone())),
            ServerMessage::Chat { .. } => Some(("unmarked".into(), String::new())),
            _ => None,
        })
        .await?;
    assert_eq!(line, ("tbpbot".to_string(), "gl".to_string()));

    // The identity stays a bot: a new connection is marked without declaring.
    let mut again = RawClient::hello(m.addr(), "x").await?;
    again
        .send(&ClientMessage::Identify { key: player_key(9) })
        .await?;
    again.profile_reply(LIMIT).await?;
    again.send(&ClientMessage::RankedMatch).await?;
    assert_eq!(error(&mut again).await?.0, ErrorCode::BotRefused);
    // Quick match is open to bots.
    again.send(&ClientMessage::QuickMatch).await?;
    let mut guest = RawClient::hello(m.addr(), "guest").await?;
    guest.send(&ClientMessage::QuickMatch).await?;
    assert!(seated_within(&mut again, LIMIT).await?);
    let (_, bots) = admin(m.addr(), "GET", "/admin/players?filter=bots", None).await?;
    assert_eq!(bots["players"][0]["name"], "tbpbot");
    // Its profile is marked too.
    person
        .send(&ClientMessage::GetProfile {
            name: "TBPBOT".into(),
        })
        .await?;
    let bot_mark = person
        .recv_until(LIMIT, |m| match m {
            ServerMessage::ProfileMarks { bot, .. } => Some(*bot),
            _ => None,
        })
        .await?;
    assert!(bot_mark, "the profile says bot");
    let (_, page) = get_json_ok(m.addr(), "/api/players/tbpbot").await?;
    assert_eq!(page["bot"], true, "{page}");
    assert!(metric(m.addr(), "bot_refused").await? >= 3);
    Ok(())
}

/// A ranked match where one seat is the repository's bot, undeclared, against random keys: the
/// bot's seat is flagged (its presses are one-frame taps), the match stored but not rated, and
/// listed for review with its replay.
async fn machine_timing_is_flagged_not_rated(backend: Backend) -> anyhow::Result<()> {
    let m = moderated(
        &backend,
        ModerationConfig {
            // A short match says enough here (the default asks for 150 presses).
            screening: Some(ScreenBounds {
                min_presses: 20,
                ..ScreenBounds::default()
            }),
            ..ModerationConfig::permissive()
        },
    )
    .await;
    let url = m.server.url();
    let player = |name: &'static str, n: u8| {
        let url = url.clone();
        async move {
            let mut c = BattleClient::connect(&url, name).await?;
            c.send(ClientMessage::Register {
                key: player_key(n),
                name: name.into(),
            })?;
            c.ranked_match(player_key(n), LIMIT).await?;
            Ok::<_, anyhow::Error>(c)
        }
    };
    let (bot, person) = tokio::join!(player("robot", 1), player("human", 2));
    let (mut bot, mut person) = (bot?, person?);
    let mut brain = Bot::new(Level::Hard);
    let mut keys = move |battle: &Battle, me: usize| SeatInput {
        keys: Seat::new(me).map_or(Input::NONE, |seat| brain.next_battle_input(battle, seat)),
        target: None,
    };
    let mut random = sevenbag_netplay::RandomInputs::new(7)
        .with_drop_every(20, 40)
        .for_battle();
    let timeout = Duration::from_secs(60);
    let (a, b) = tokio::join!(
        bot.play(&mut keys, timeout),
        person.play(&mut random, timeout)
    );
    a?;
    b?;
    let deadline = Instant::now() + LIMIT;
    let flagged = loop {
        let (_, list) = admin(m.addr(), "GET", "/admin/flagged", None).await?;
        if list["flagged"].as_array().is_some_and(|f| !f.is_empty()) {
            break list;
        }
        ensure!(Instant::now() < deadline, "no flag: {list}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let flags = flagged["flagged"].as_array().context("a list")?;
    assert!(
        flags.iter().all(|f| f["name"] == "robot"),
        "only the bot: {flagged}"
    );
    assert!(flags.iter().any(|f| f["rule"] == "taps"), "{flagged}");
    let first = &flags[0];
    let match_id = first["match_id"].as_i64().context("a match id")?;
    let (status, bytes) = request(
        m.addr(),
        "GET",
        first["replay_url"].as_str().context("a replay url")?,
        None,
        None,
    )
    .await?;
    assert_eq!(status, 200);
    assert!(sevenbag_protocol::replay_file::open_two_seats(&bytes).is_ok());
    // Kept, decided, not rated.
    let (_, stored) = get_json_ok(m.addr(), &format!("/api/matches/{match_id}")).await?;
    assert!(stored["winner"].is_number(), "{stored}");
    assert!(stored["players"][0]["after"].is_null(), "{stored}");
    for n in [1, 2] {
        let mut c = RawClient::hello(m.addr(), "again").await?;
        c.send(&ClientMessage::Identify { key: player_key(n) })
            .await?;
        let p = c.profile_reply(LIMIT).await?;
        assert_eq!((p.rating, p.games), (1500, 0), "{} is not rated", p.name);
    }
    let (status, _) = admin(
        m.addr(),
        "POST",
        &format!("/admin/flagged/{match_id}/review"),
        Some(json!({ "verdict": "cheat", "reason": "one-frame taps all match" })),
    )
    .await?;
    assert_eq!(status, 200);
    let (_, open) = admin(m.addr(), "GET", "/admin/flagged", None).await?;
    assert_eq!(open["flagged"], json!([]));
    assert!(metric(m.addr(), "ranked_flagged").await? >= 1);
    Ok(())
}

async fn get_json_ok(addr: SocketAddr, path: &str) -> anyhow::Result<(u16, Value)> {
    let (status, v) = sevenbag_tests::http::get_json(addr, path).await?;
    ensure!(status == 200, "{path}: {status} {v}");
    Ok((status, v))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn machine_timing_is_flagged_not_rated_on_sqlite() -> anyhow::Result<()> {
    machine_timing_is_flagged_not_rated(Backend::Sqlite).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn machine_timing_is_flagged_not_rated_on_postgres() -> anyhow::Result<()> {
    let Some(pg) = Postgres::start() else {
        return Ok(());
    };
    machine_timing_is_flagged_not_rated(Backend::Postgres(pg)).await
}

// ---- reports -------------------------------------------------------------------------------

/// Alice and Bob play an unranked room match; returns both and the replay id.
async fn played(addr: SocketAddr) -> anyhow::Result<(RawClient, RawClient, String)> {
    let mut alice = registered(addr, "alice", 1).await?;
    let mut bob = registered(addr, "bob", 2).await?;
    let code = created_room(&mut alice).await?;
    join(&mut bob, &code, JoinRole::Player).await?;
    alice.send(&ClientMessage::Ready).await?;
    bob.send(&ClientMessage::Ready).await?;
    let (x, y) = tokio::join!(
        scripted::play(&mut alice, Seat::First, 6, LIMIT),
        scripted::play(&mut bob, Seat::Second, 12, LIMIT)
    );
    let replay = x?.replay.context("a replay")?;
    y?;
    Ok((alice, bob, replay))
}

fn report(name: &str, replay: Option<String>, text: &str) -> ClientMessage {
    ClientMessage::Report {
        name: name.into(),
        replay,
        category: ReportCategory::Cheating,
        text: text.into(),
    }
}

async fn a_report_is_listed_with_its_replay_and_closed_with_an_action(
    backend: Backend,
) -> anyhow::Result<()> {
    let m = moderated(
        &backend,
        ModerationConfig {
            reports_per_hour: 2,
            ..ModerationConfig::permissive()
        },
    )
    .await;
    let (mut alice, mut bob, replay) = played(m.addr()).await?;
    let mut carol = registered(m.addr(), "carol", 3).await?;
    // Hostile or wrong reports are refused, each with its reason.
    for (message, code) in [
        (report("bob", None, &"x".repeat(501)), ErrorCode::BadMessage),
        (report("bob", None, "\u{7}\u{1b}"), ErrorCode::BadMessage),
        (report("nobody", None, "x"), ErrorCode::NoSuchPlayer),
        (report("alice", None, "x"), ErrorCode::BadMessage),
        (
            report("bob", Some("../../../etc".into()), "x"),
            ErrorCode::BadMessage,
        ),
        (
            report("bob", Some("1-NOPE-1".into()), "x"),
            ErrorCode::NoSuchReplay,
        ),
    ] {
        alice.send(&message).await?;
        assert_eq!(error(&mut alice).await?.0, code, "{message:?}");
    }
    let mut guest = RawClient::hello(m.addr(), "guest").await?;
    guest.send(&report("bob", None, "x")).await?;
    assert_eq!(error(&mut guest).await?.0, ErrorCode::NotIdentified);

    alice
        .send(&report(
            "bob",
            Some(replay.clone()),
            "drops every six frames",
        ))
        .await?;
    alice
        .recv_until(LIMIT, |m| {
            matches!(m, ServerMessage::Reported).then_some(())
        })
        .await?;
    // Carol was not in that match: she cannot use it as evidence, once it is stored.
    let deadline = Instant::now() + LIMIT;
    while get(m.addr(), "/api/matches/1").await?.0 != 200 {
        ensure!(Instant::now() < deadline, "the match is stored");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    carol
        .send(&report("bob", Some(replay.clone()), "x"))
        .await?;
    assert_eq!(error(&mut carol).await?.0, ErrorCode::BadMessage);
    // Rate: a second report about the same player while one is open, and a third report in
    // the hour, are refused.
    alice.send(&report("bob", None, "again")).await?;
    assert_eq!(error(&mut alice).await?.0, ErrorCode::RateLimited);
    alice.send(&report("carol", None, "one")).await?;
    alice
        .recv_until(LIMIT, |m| {
            matches!(m, ServerMessage::Reported).then_some(())
        })
        .await?;
    let _dave = registered(m.addr(), "dave", 4).await?;
    alice.send(&report("dave", None, "three")).await?;
    let (c, text) = error(&mut alice).await?;
    assert_eq!(c, ErrorCode::RateLimited, "{text}");

    // The operator sees it, with its replay and match.
    let (_, list) = admin(m.addr(), "GET", "/admin/reports", None).await?;
    let r = list["reports"]
        .as_array()
        .and_then(|r| r.iter().find(|r| r["reported"]["name"] == "bob"))
        .with_context(|| format!("bob's report in {list}"))?
        .clone();
    assert_eq!(
        (&r["reporter"]["name"], &r["category"], &r["text"]),
        (
            &json!("alice"),
            &json!("cheating"),
            &json!("drops every six frames")
        )
    );
    assert_eq!(r["replay"], replay);
    assert_eq!(r["match_id"], 1);
    assert_eq!(r["match_replay_url"], "/api/matches/1/replay");
    let (status, bytes) = request(
        m.addr(),
        "GET",
        r["replay_url"].as_str().context("replay url")?,
        Some(TOKEN),
        None,
    )
    .await?;
    assert_eq!(status, 200);
    assert!(
        sevenbag_protocol::replay_file::open_two_seats(&bytes).is_ok(),
        "the evidence"
    );
    // A report id means nothing without the token.
    let id = r["id"].as_str().context("a string id")?;
    let (status, _) = request(m.addr(), "GET", &format!("/admin/reports/{id}"), None, None).await?;
    assert_eq!(status, 401);

    // Closed with an action: Bob is muted, the report leaves the open list.
    let (status, body) = admin(
        m.addr(),
        "POST",
        &format!("/admin/reports/{id}/close"),
        Some(json!({ "action": "mute", "reason": "confirmed", "until_unix": unix_now() + 600 })),
    )
    .await?;
    assert_eq!(status, 200, "{body}");
    bob.send(&ClientMessage::Chat { text: "hi".into() }).await?;
    assert_eq!(error(&mut bob).await?.0, ErrorCode::Muted);
    let (_, open) = admin(m.addr(), "GET", "/admin/reports", None).await?;
    assert!(
        open["reports"]
            .as_array()
            .is_some_and(|r| r.iter().all(|r| r["reported"]["name"] != "bob")),
        "{open}"
    );
    let (_, closed) = admin(m.addr(), "GET", "/admin/reports?state=closed", None).await?;
    assert_eq!(closed["reports"][0]["closed"]["resolution"], "muted");
    assert_eq!(closed["reports"][0]["closed"]["by"], "ops");
    let (status, _) = admin(
        m.addr(),
        "POST",
        &format!("/admin/reports/{id}/close"),
        Some(json!({ "action": "dismiss", "reason": "again" })),
    )
    .await?;
    assert_eq!(status, 404, "closed once");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_report_is_listed_with_its_replay_and_closed_with_an_action_on_sqlite()
-> anyhow::Result<()> {
    a_report_is_listed_with_its_replay_and_closed_with_an_action(Backend::Sqlite).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_report_is_listed_with_its_replay_and_closed_with_an_action_on_postgres()
-> anyhow::Result<()> {
    let Some(pg) = Postgres::start() else {
        return Ok(());
    };
    a_report_is_listed_with_its_replay_and_closed_with_an_action(Backend::Postgres(pg)).await
}

// ---- players' own tools --------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_blocked_player_is_never_matched_and_their_chat_is_hidden() -> anyhow::Result<()> {
    let m = moderated(&Backend::Sqlite, ModerationConfig::permissive()).await;
    let mut alice = registered(m.addr(), "alice", 1).await?;
    let mut bob = registered(m.addr(), "bob", 2).await?;
    let mut carol = registered(m.addr(), "carol", 3).await?;
    alice
        .send(&ClientMessage::Block { name: "B0B".into() })
        .await?;
    let names = alice
        .recv_until(LIMIT, |m| match m {
            ServerMessage::Blocked { names } => Some(names.clone()),
            _ => None,
        })
        .await?;
    assert_eq!(names, vec!["bob".to_string()]);
    for (message, code) in [
        (
            ClientMessage::Block {
                name: "alice".into(),
            },
            ErrorCode::BadMessage,
        ),
        (
            ClientMessage::Block {
                name: "ghost".into(),
            },
            ErrorCode::NoSuchPlayer,
        ),
    ] {
        alice.send(&message).await?;
        assert_eq!(error(&mut alice).await?.0, code);
    }

    // Quick match: Alice and Bob are kept apart; Carol is paired with Alice, who has waited
    // longest.
    alice.send(&ClientMessage::QuickMatch).await?;
    // Alice waits first: the server answers her Ping once it has handled her QuickMatch.
    alice.send(&ClientMessage::Ping { nonce: 7 }).await?;
    alice
        .recv_until(LIMIT, |m| {
            matches!(m, ServerMessage::Pong { nonce: 7, .. }).then_some(())
        })
        .await?;
    bob.send(&ClientMessage::QuickMatch).await?;
    assert!(!seated_within(&mut bob, Duration::from_millis(800)).await?);
    carol.send(&ClientMessage::QuickMatch).await?;
    assert!(seated_within(&mut carol, LIMIT).await?);
    assert!(seated_within(&mut alice, LIMIT).await?, "alice with carol");
    // Ranked: the blocked pair (from one address, allowed here) is not paired either.
    bob.send(&ClientMessage::LeaveRoom).await?;
    for c in [&mut alice, &mut carol] {
        c.send(&ClientMessage::LeaveRoom).await?;
    }
    assert!(!ranked_paired(&mut alice, &mut bob, Duration::from_secs(2)).await?);
    assert!(metric(m.addr(), "pair_skipped_blocked").await? >= 2);
    alice.send(&ClientMessage::LeaveRoom).await?;
    bob.send(&ClientMessage::LeaveRoom).await?;

    // Chat: in a room together, Bob's lines reach Carol but not Alice.
    let code = created_room(&mut carol).await?;
    join(&mut bob, &code, JoinRole::Player).await?;
    join(&mut alice, &code, JoinRole::Spectator).await?;
    blocked_line_is_hidden(&mut alice, &mut bob, &mut carol).await?;
    assert!(metric(m.addr(), "chat_hidden").await? >= 1);

    // Unblocked: heard again.
    alice
        .send(&ClientMessage::Unblock { name: "bob".into() })
        .await?;
    alice
        .recv_until(LIMIT, |m| match m {
            ServerMessage::Blocked { names } if names.is_empty() => Some(()),
            _ => None,
        })
        .await?;
    bob.send(&ClientMessage::Chat { text: "hi".into() }).await?;
    let heard = alice
        .recv_until(LIMIT, |m| match m {
            ServerMessage::Chat { from, .. } => Some(from.clone()),
            _ => None,
        })
        .await?;
    assert_eq!(heard, "bob");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_delisted_player_leaves_the_leaderboards_and_comes_back() -> anyhow::Result<()> {
    let m = moderated(&Backend::Sqlite, ModerationConfig::permissive()).await;
    let mut a = registered(m.addr(), "alice", 1).await?;
    let mut b = registered(m.addr(), "bob", 2).await?;
    assert!(ranked_paired(&mut a, &mut b, LIMIT).await?);
    let _ = tokio::join!(
        scripted::play_battle(&mut a, 0, 6, LIMIT),
        scripted::play_battle(&mut b, 1, 12, LIMIT)
    );
    let deadline = Instant::now() + LIMIT;
    let board = loop {
        let (_, board) = sevenbag_tests::http::get_json(m.addr(), "/api/leaderboard").await?;
        if board.as_array().is_some_and(|b| b.len() == 2) {
            break board;
        }
        ensure!(
            Instant::now() < deadline,
            "two players on the board: {board}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let top = board[0]["name"].as_str().context("a name")?.to_string();
    let id = player_id(m.addr(), &top).await?;
    admin(
        m.addr(),
        "POST",
        &format!("/admin/players/{id}/delist"),
        Some(json!({ "reason": "boosted" })),
    )
    .await?;
    let (_, board) = sevenbag_tests::http::get_json(m.addr(), "/api/leaderboard").await?;
    assert_eq!(board.as_array().map(Vec::len), Some(1), "{board}");
    assert_ne!(board[0]["name"], top.as_str());
    admin(
        m.addr(),
        "POST",
        &format!("/admin/players/{id}/relist"),
        Some(json!({ "reason": "cleared" })),
    )
    .await?;
    let (_, board) = sevenbag_tests::http::get_json(m.addr(), "/api/leaderboard").await?;
    assert_eq!(board[0]["name"], top.as_str());
    Ok(())
}

// ---- several instances ---------------------------------------------------------------------

/// A cluster instance (Redis for the queues and rooms, PostgreSQL shared) with the admin API.
async fn instance(
    redis: &sevenbag_tests::services::Redis,
    pg: &Postgres,
    dir: &Path,
) -> TestServer {
    let config = Config {
        postgres: Some(pg.url()),
        moderation: with_tokens(dir, ModerationConfig::permissive()),
        ..fast_config()
    };
    sevenbag_tests::start_cluster_instance(redis, Duration::from_secs(5), config).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ban_given_on_one_instance_takes_effect_on_another() -> anyhow::Result<()> {
    let Some(redis) = sevenbag_tests::services::Redis::start() else {
        return Ok(());
    };
    let Some(pg) = Postgres::start() else {
        return Ok(());
    };
    let dir = temp_dir("moderation-cluster");
    let a = instance(&redis, &pg, dir.path()).await;
    let b = instance(&redis, &pg, dir.path()).await;
    // Bob plays on B; the operator uses A's API.
    let mut bob = registered(b.addr(), "bob", 2).await?;
    let id = player_id(a.addr(), "bob").await?;
    let started = Instant::now();
    let (status, _) = admin(
        a.addr(),
        "POST",
        &format!("/admin/players/{id}/ban"),
        Some(json!({ "reason": "cheating" })),
    )
    .await?;
    assert_eq!(status, 200);
    let (code, text, _) = bob.expect_cut(LIMIT).await?;
    assert_eq!(code, ErrorCode::Banned, "{text}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "B heard within its sync interval: {:?}",
        started.elapsed()
    );
    let mut again = RawClient::hello(b.addr(), "bob").await?;
    again
        .send(&ClientMessage::Identify { key: player_key(2) })
        .await?;
    let (code, text) = error(&mut again).await?;
    assert_eq!(code, ErrorCode::Banned);
    assert!(text.contains("cheating"), "{text}");
    // Lifted through B, effective on A; both list the same audit log.
    admin(
        b.addr(),
        "POST",
        &format!("/admin/players/{id}/unban"),
        Some(json!({ "reason": "appeal" })),
    )
    .await?;
    let deadline = Instant::now() + LIMIT;
    loop {
        let mut c = RawClient::hello(a.addr(), "bob").await?;
        c.send(&ClientMessage::Identify { key: player_key(2) })
            .await?;
        if c.profile_reply(LIMIT).await.is_ok() {
            break;
        }
        ensure!(Instant::now() < deadline, "the unban reaches A");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let (_, log_a) = admin(a.addr(), "GET", "/admin/audit", None).await?;
    let (_, log_b) = admin(b.addr(), "GET", "/admin/audit", None).await?;
    assert_eq!(log_a, log_b);
    assert_eq!(log_a["entries"].as_array().map(Vec::len), Some(2));
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_room_of_several_seats_a_blocked_players_chat_is_hidden_too() -> anyhow::Result<()> {
    let m = moderated(&Backend::Sqlite, ModerationConfig::permissive()).await;
    let mut alice = registered(m.addr(), "alice", 1).await?;
    let mut bob = registered(m.addr(), "bob", 2).await?;
    let mut carol = registered(m.addr(), "carol", 3).await?;
    alice
        .send(&ClientMessage::Block { name: "bob".into() })
        .await?;
    alice
        .recv_until(LIMIT, |m| {
            matches!(m, ServerMessage::Blocked { .. }).then_some(())
        })
        .await?;
    let code = created_battle_room(&mut carol, 3).await?;
    join_battle(&mut bob, &code, JoinRole::Player).await?;
    join_battle(&mut alice, &code, JoinRole::Spectator).await?;
    blocked_line_is_hidden(&mut alice, &mut bob, &mut carol).await?;
    assert!(metric(m.addr(), "chat_hidden").await? >= 1);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_declared_bot_is_marked_in_a_room_of_several_seats_and_its_chat_too() -> anyhow::Result<()>
{
    let m = moderated(&Backend::Sqlite, ModerationConfig::permissive()).await;
    let mut bot = RawClient::hello(m.addr(), "tbp-bot").await?;
    bot.send(&ClientMessage::DeclareBot).await?;
    let code = created_battle_room(&mut bot, 3).await?;
    let mut person = registered(m.addr(), "alice", 1).await?;
    person
        .send(&ClientMessage::JoinRoom {
            code,
            role: JoinRole::Player,
        })
        .await?;
    let marks = person
        .recv_until(LIMIT, |m| match m {
            ServerMessage::SeatMarks { bots } if bots.get(1) == Some(&false) => Some(bots.clone()),
            _ => None,
        })
        .await?;
    assert_eq!(marks, vec![true, false, false]);
    bot.send(&ClientMessage::Chat { text: "gl".into() }).await?;
    let line = person
        .recv_until(LIMIT, |m| match m {
            ServerMessage::BotChat { from, text, .. } => Some((from.clone(), text.clone())),
            ServerMessage::Chat { .. } => Some(("unmarked".into(), String::new())),
            _ => None,
        })
        .await?;
    // A guest's name carries the guest mark.
    assert_eq!(line, ("~tbp-bot".to_string(), "gl".to_string()));
    Ok(())
}
