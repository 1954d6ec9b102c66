//! `sevenbag-tool admin` against a real server (the library on 127.0.0.1, SQLite in a temporary
//! directory): list, ban, audit, and a clean failure with a wrong token.

use std::process::{Command, Output};
use std::time::Duration;

use sevenbag_netplay::net::{self, NetHandle};
use sevenbag_netplay::{Hello, NetEvent};
use sevenbag_protocol::{ClientMessage, ServerMessage};

const TOKEN: &str = "tool-test-token-6b1f0c93de44a8";

fn tool(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sevenbag-tool"))
        .args(args)
        .output()
        .expect("run sevenbag-tool")
}

/// Waits for the first event `pick` takes, failing on a server error or a lost connection.
async fn wait_for(player: &mut NetHandle, what: &str, pick: impl Fn(&NetEvent) -> bool) {
    let events = async {
        loop {
            match player.recv().await {
                Some(event) if pick(&event) => return,
                Some(NetEvent::Message(ServerMessage::Error { message, .. })) => {
                    panic!("waiting for {what}: the server answered {message}")
                }
                Some(NetEvent::Disconnected(why)) => panic!("waiting for {what}: {why}"),
                None => panic!("waiting for {what}: the connection's task ended"),
                Some(_) => {}
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(10), events)
        .await
        .unwrap_or_else(|_| panic!("no {what} within 10 s"));
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_admin_commands_list_ban_and_audit_through_the_api() {
    let dir = tempfile::tempdir().expect("temp dir");
    let tokens = dir.path().join("tokens");
    std::fs::write(&tokens, format!("ops:{TOKEN}\n")).expect("token file");
    let config = sevenbag_server::Config {
        replay_dir: dir.path().join("replays"),
        db: Some(dir.path().join("sevenbag.db")),
        moderation: sevenbag_server::ModerationConfig {
            admin_token_file: Some(tokens.clone()),
            ..sevenbag_server::ModerationConfig::permissive()
        },
        ..sevenbag_server::Config::default()
    };
    let server = sevenbag_server::spawn(config).await.expect("server");
    let mut player = net::connect(&server.url(), Hello::new("mallory"));
    wait_for(&mut player, "Welcome", |e| {
        matches!(e, NetEvent::Welcome { .. })
    })
    .await;
    player
        .send(ClientMessage::Register {
            key: [5; 32],
            name: "mallory".into(),
        })
        .expect("register");
    // The server answers once the identity is stored.
    wait_for(&mut player, "Registered", |e| {
        matches!(e, NetEvent::Message(ServerMessage::Registered { .. }))
    })
    .await;
    let base = format!("http://{}", server.addr());
    let tokens = tokens.to_string_lossy().to_string();
    let run = |args: Vec<String>| async move {
        tokio::task::spawn_blocking(move || {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            tool(&args)
        })
        .await
        .expect("tool task")
    };
    let admin = |rest: &[&str]| {
        let mut args = vec![
            "admin".to_string(),
            "--server".into(),
            base.clone(),
            "--token-file".into(),
            tokens.clone(),
        ];
        args.extend(rest.iter().map(|s| s.to_string()));
        args
    };

    let out = run(admin(&["players", "--query", "mall"])).await;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let list: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    assert_eq!(list["players"][0]["name"], "mallory");
    let id = list["players"][0]["id"]
        .as_i64()
        .expect("an id")
        .to_string();

    let out = run(admin(&["ban", &id, "--reason", "tool test", "--days", "1"])).await;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run(admin(&["audit", "--limit", "1"])).await;
    let log: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    assert_eq!(log["entries"][0]["action"], "ban");
    assert_eq!(log["entries"][0]["actor"], "ops");

    // A wrong token: a clean failure naming the status.
    let wrong = dir.path().join("wrong");
    std::fs::write(&wrong, "not-the-right-token-000000000\n").expect("file");
    let out = run(vec![
        "admin".into(),
        "--server".into(),
        base.clone(),
        "--token-file".into(),
        wrong.to_string_lossy().to_string(),
        "players".into(),
    ])
    .await;
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("HTTP 401"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    server.shutdown().await.expect("shutdown");
}
