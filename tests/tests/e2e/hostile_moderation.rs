//! Hostile players against identities and moderation, on a server with a database: a guest
//! taking a registered player's name (as typed, or with look-alike letters), and a report whose
//! text is only invisible characters. Each is refused with its reason; a guest under a name of
//! their own plays with the guest mark, and a report or block of a marked name names no one.

use std::time::Duration;

use sevenbag_protocol::moderation::ReportCategory;
use sevenbag_protocol::{ClientMessage, ErrorCode, JoinRole, RoomOptions, ServerMessage};
use sevenbag_server::Config;
use sevenbag_tests::social::registered;
use sevenbag_tests::{RawClient, TempDir, TestServer, fast_config, start_server};

/// Bound on every wait for a reply.
const LIMIT: Duration = Duration::from_secs(20);

/// A server keeping identities in a SQLite file (and the directory holding it).
async fn with_database() -> (TestServer, TempDir) {
    let dir = sevenbag_tests::temp_dir("hostile-moderation");
    let config = Config {
        db: Some(dir.path().join("sevenbag.db")),
        ..fast_config()
    };
    (start_server(config).await, dir)
}

/// Creates a room; its code.
async fn created_room(c: &mut RawClient) -> anyhow::Result<String> {
    c.send(&ClientMessage::CreateRoom {
        options: RoomOptions::default(),
    })
    .await?;
    c.recv_until(LIMIT, |m| match m {
        ServerMessage::Joined { code, .. } => Some(code.clone()),
        _ => None,
    })
    .await
}

/// Asks to join `code` as a player: `Ok` when seated, else the refusal's code and text.
async fn join(c: &mut RawClient, code: &str) -> anyhow::Result<Result<(), (ErrorCode, String)>> {
    c.send(&ClientMessage::JoinRoom {
        code: code.into(),
        role: JoinRole::Player,
    })
    .await?;
    c.recv_until(LIMIT, |m| match m {
        ServerMessage::Joined { .. } => Some(Ok(())),
        ServerMessage::Error { code, message, .. } => Some(Err((*code, message.clone()))),
        _ => None,
    })
    .await
}

/// The next `Error`'s code.
async fn error(c: &mut RawClient) -> anyhow::Result<ErrorCode> {
    c.recv_until(LIMIT, |m| match m {
        ServerMessage::Error { code, .. } => Some(*code),
        _ => None,
    })
    .await
}

fn report(name: &str, text: &str) -> ClientMessage {
    ClientMessage::Report {
        name: name.into(),
        replay: None,
        category: ReportCategory::Abuse,
        text: text.into(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_cannot_play_under_a_registered_name_or_a_look_alike_of_it() -> anyhow::Result<()> {
    let (server, _dir) = with_database().await;
    let mut alice = registered(server.addr(), "alice", 1).await?;
    let code = created_room(&mut alice).await?;
    for impostor in [
        "alice",
        "ALICE",
        "A1ice",
        "ａｌｉｃｅ",                          // full width
        "\u{430}\u{4CF}\u{456}\u{441}\u{435}", // Cyrillic а ӏ і с е
    ] {
        let mut guest = RawClient::hello(server.addr(), impostor).await?;
        let refused = join(&mut guest, &code).await?;
        let Err((code, text)) = refused else {
            panic!("{impostor:?} was seated in alice's room");
        };
        assert_eq!(code, ErrorCode::NameTaken, "{impostor:?}: {text}");
        assert!(text.contains("registered player alice"), "{text}");
        // Nor may they open a room or queue under it.
        guest
            .send(&ClientMessage::CreateRoom {
                options: RoomOptions::default(),
            })
            .await?;
        assert_eq!(
            error(&mut guest).await?,
            ErrorCode::NameTaken,
            "{impostor:?}"
        );
        guest.send(&ClientMessage::QuickMatch).await?;
        assert_eq!(
            error(&mut guest).await?,
            ErrorCode::NameTaken,
            "{impostor:?}"
        );
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_is_shown_with_the_guest_mark_and_a_marked_name_cannot_be_reported()
-> anyhow::Result<()> {
    let (server, _dir) = with_database().await;
    let mut alice = registered(server.addr(), "alice", 1).await?;
    let code = created_room(&mut alice).await?;
    let mut guest = RawClient::hello(server.addr(), "zed").await?;
    assert_eq!(join(&mut guest, &code).await?, Ok(()));
    let names = alice
        .recv_until(LIMIT, |m| match m {
            ServerMessage::RoomState { seats, .. } if seats.iter().all(Option::is_some) => Some(
                seats
                    .iter()
                    .flatten()
                    .map(|s| s.name.clone())
                    .collect::<Vec<_>>(),
            ),
            _ => None,
        })
        .await?;
    assert_eq!(names, ["alice", "~zed"]);
    guest
        .send(&ClientMessage::Chat { text: "hi".into() })
        .await?;
    let from = alice
        .recv_until(LIMIT, |m| match m {
            ServerMessage::Chat { from, .. } => Some(from.clone()),
            _ => None,
        })
        .await?;
    assert_eq!(from, "~zed");
    // Reports and blocks name identities: the guest's shown name is none.
    alice.send(&report("~zed", "spam")).await?;
    assert_eq!(error(&mut alice).await?, ErrorCode::NoSuchPlayer);
    alice
        .send(&ClientMessage::Block {
            name: "~zed".into(),
        })
        .await?;
    assert_eq!(error(&mut alice).await?, ErrorCode::NoSuchPlayer);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_report_of_only_invisible_characters_is_refused_like_an_empty_chat_line()
-> anyhow::Result<()> {
    let (server, _dir) = with_database().await;
    let mut alice = registered(server.addr(), "alice", 1).await?;
    let _bob = registered(server.addr(), "bob", 2).await?;
    for invisible in [
        "\u{200B}\u{200C}\u{200D}\u{2060}\u{FEFF}",
        "\u{3164}\u{115F}\u{1160}\u{FFA0}",
        "\u{202E}\u{2066} \u{2800} \u{3000}",
    ] {
        alice.send(&report("bob", invisible)).await?;
        assert_eq!(
            error(&mut alice).await?,
            ErrorCode::BadMessage,
            "{invisible:?}"
        );
    }
    alice.send(&report("bob", "spam\u{200B} in chat")).await?;
    alice
        .recv_until(LIMIT, |m| {
            matches!(m, ServerMessage::Reported).then_some(())
        })
        .await?;
    Ok(())
}
