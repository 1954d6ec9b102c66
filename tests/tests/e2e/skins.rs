//! Published skins through the real server and its database: a player's skin file is decoded
//! and kept under its content address, the rooms it joins tell every seat and spectator which
//! skin each board wears, and the file they fetch decodes to the same skin. Hostile files are
//! refused in words, guests and a server with skins off publish nothing, and a skin the
//! operators take down is gone for everyone and refused again.

use std::io::Cursor;
use std::path::PathBuf;

use serde_json::json;
use sevenbag_protocol::{ClientMessage, ErrorCode, JoinRole, RoomOptions, ServerMessage, SkinId};
use sevenbag_server::{Config, ModerationConfig};
use sevenbag_tests::http::request_json;
use sevenbag_tests::social::{LIMIT, ask, config, registered};
use sevenbag_tests::{RawClient, TempDir, TestServer, start_server, temp_dir};

const TOKEN: &str = "ops-token-skins-7d1e0c4b93a2";

/// A skin file committed with the skin decoder's tests.
fn sample(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../crates/skin/tests/samples")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A server with a database and the admin API, `tweak`ed.
async fn skin_server(tag: &str, tweak: impl FnOnce(&mut Config)) -> (TestServer, TempDir) {
    let dir = temp_dir(tag);
    let tokens = dir.path().join("admin-tokens");
    std::fs::write(&tokens, format!("ops:{TOKEN}\n")).expect("token file");
    let mut config = Config {
        moderation: ModerationConfig {
            admin_token_file: Some(tokens),
            ..ModerationConfig::default()
        },
        ..config(dir.path().join("sevenbag.db"))
    };
    tweak(&mut config);
    (start_server(config).await, dir)
}

/// What the server answers `c` publishing `png`: the skin's id, or the error.
async fn publish(
    c: &mut RawClient,
    png: Vec<u8>,
) -> anyhow::Result<Result<SkinId, (ErrorCode, String)>> {
    ask(c, ClientMessage::PublishSkin { png }, |m| match m {
        ServerMessage::SkinPublished { id } => Some(id.clone()),
        _ => None,
    })
    .await
}

/// The file `c` is served for `id` (`None`: `SkinGone`).
async fn fetch(c: &mut RawClient, id: &SkinId) -> anyhow::Result<Option<Vec<u8>>> {
    let asked = ClientMessage::GetSkin { id: id.clone() };
    let answer = ask(c, asked, |m| match m {
        ServerMessage::SkinFile { id: got, png } if got == id => Some(Some(png.clone())),
        ServerMessage::SkinGone { id: got } if got == id => Some(None),
        _ => None,
    })
    .await?;
    answer.map_err(|(code, text)| anyhow::anyhow!("{code:?}: {text}"))
}

/// The next `SeatSkins` `c` hears that satisfies `wanted`.
async fn seat_skins(
    c: &mut RawClient,
    wanted: impl Fn(&[Option<SkinId>]) -> bool,
) -> anyhow::Result<Vec<Option<SkinId>>> {
    c.recv_until(LIMIT, |m| match m {
        ServerMessage::SeatSkins { skins } if wanted(skins) => Some(skins.clone()),
        _ => None,
    })
    .await
}

/// `c` creates a two-seat room and answers its code.
async fn create_room(c: &mut RawClient) -> anyhow::Result<String> {
    let options = RoomOptions::default();
    c.send(&ClientMessage::CreateRoom { options }).await?;
    c.recv_until(LIMIT, |m| match m {
        ServerMessage::Joined { code, .. } => Some(code.clone()),
        _ => None,
    })
    .await
}

/// `c` asks to join room `code` as `role`.
async fn join(c: &mut RawClient, code: &str, role: JoinRole) -> anyhow::Result<()> {
    c.send(&ClientMessage::JoinRoom {
        code: code.into(),
        role,
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_opponent_and_a_spectator_see_a_published_skin() -> anyhow::Result<()> {
    let (server, _dir) = skin_server("skins-seen", |_| {}).await;
    let addr = server.addr();
    let mut ann = registered(addr, "ann", 1).await?;
    let file = sample("tetrio.png");
    let id = publish(&mut ann, file.clone()).await?.expect("published");
    let expected = sevenbag_skin::decode(&file).expect("the sample decodes");
    assert_eq!(id.as_str(), expected.id(), "the id is the pixels' address");

    let code = create_room(&mut ann).await?;
    let mut ben = registered(addr, "ben", 2).await?;
    join(&mut ben, &code, JoinRole::Player).await?;
    let mut cat = RawClient::hello(addr, "cat").await?;
    join(&mut cat, &code, JoinRole::Spectator).await?;
    for watcher in [&mut ben, &mut cat] {
        let skins = seat_skins(watcher, |s| s.len() == 2 && s[0].is_some()).await?;
        assert_eq!(skins, vec![Some(id.clone()), None], "ann's seat wears it");
        let served = fetch(watcher, &id).await?.expect("served");
        let skin = sevenbag_skin::decode(&served).expect("the served file decodes");
        assert_eq!(skin, expected, "the same skin, pixel for pixel");
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_of_several_seats_tells_each_seats_skin() -> anyhow::Result<()> {
    let (server, _dir) = skin_server("skins-ffa", |_| {}).await;
    let addr = server.addr();
    let mut ann = registered(addr, "ann", 1).await?;
    let mut ben = registered(addr, "ben", 2).await?;
    let jstris = publish(&mut ben, sample("jstris.png"))
        .await?
        .expect("published");
    let options = sevenbag_protocol::BattleRoomOptions::ffa(3);
    ann.send(&ClientMessage::CreateBattleRoom { options })
        .await?;
    let code = ann
        .recv_until(LIMIT, |m| match m {
            ServerMessage::BattleJoined { code, .. } => Some(code.clone()),
            _ => None,
        })
        .await?;
    join(&mut ben, &code, JoinRole::Player).await?;
    let skins = seat_skins(&mut ann, |s| s.get(1).is_some_and(Option::is_some)).await?;
    assert_eq!(skins, vec![None, Some(jstris), None]);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_skin_put_on_or_off_while_seated_shows_at_once() -> anyhow::Result<()> {
    let (server, _dir) = skin_server("skins-seated", |_| {}).await;
    let addr = server.addr();
    let mut ann = registered(addr, "ann", 1).await?;
    let code = create_room(&mut ann).await?;
    let mut ben = registered(addr, "ben", 2).await?;
    join(&mut ben, &code, JoinRole::Player).await?;
    seat_skins(&mut ben, |s| s == [None, None]).await?;

    let id = publish(&mut ann, sample("jstris.png"))
        .await?
        .expect("published");
    let worn = seat_skins(&mut ben, |s| s.first().is_some_and(Option::is_some)).await?;
    assert_eq!(worn, vec![Some(id), None], "told without a new room state");
    ann.send(&ClientMessage::ClearSkin).await?;
    seat_skins(&mut ben, |s| s == [None, None]).await?;
    Ok(())
}

/// A PNG of `width` × `height` transparent pixels, 8 bits a channel.
fn blank_png(width: u32, height: u32) -> Vec<u8> {
    let image = image::RgbaImage::new(width, height);
    let mut out = Cursor::new(Vec::new());
    image
        .write_to(&mut out, image::ImageFormat::Png)
        .expect("encodes");
    out.into_inner()
}

/// `file` with its header's width and height replaced (the header's CRC made right again).
fn claiming(file: &[u8], width: u32, height: u32) -> Vec<u8> {
    let mut out = file.to_vec();
    out[16..20].copy_from_slice(&width.to_be_bytes());
    out[20..24].copy_from_slice(&height.to_be_bytes());
    let crc = crc32(&out[12..29]);
    out[29..33].copy_from_slice(&crc.to_be_bytes());
    out
}

/// `file` with an `acTL` chunk (an animated PNG's) right after its header.
fn animated(file: &[u8]) -> Vec<u8> {
    let mut data = 2u32.to_be_bytes().to_vec();
    data.extend_from_slice(&0u32.to_be_bytes());
    let mut chunk = (data.len() as u32).to_be_bytes().to_vec();
    chunk.extend_from_slice(b"acTL");
    chunk.extend_from_slice(&data);
    let crc = crc32(&chunk[4..]);
    chunk.extend_from_slice(&crc.to_be_bytes());
    let at = 8 + 8 + 13 + 4;
    [&file[..at], &chunk[..], &file[at..]].concat()
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_files_are_refused_in_words_and_the_connection_carries_on() -> anyhow::Result<()> {
    let (server, _dir) = skin_server("skins-hostile", |_| {}).await;
    let mut ann = registered(server.addr(), "ann", 1).await?;
    let tetrio = sample("tetrio.png");
    let sixteen = {
        let image = image::ImageBuffer::<image::Rgba<u16>, _>::new(372, 30);
        let mut out = Cursor::new(Vec::new());
        image
            .write_to(&mut out, image::ImageFormat::Png)
            .expect("encodes");
        out.into_inner()
    };
    let cases: [(&str, Vec<u8>, &str); 7] = [
        ("not a PNG", b"GIF89a\x01\x00\x01\x00".to_vec(), "not a PNG"),
        (
            "truncated",
            tetrio[..tetrio.len() / 2].to_vec(),
            "truncated",
        ),
        (
            "60000 × 1",
            claiming(&blank_png(8, 1), 60_000, 1),
            "60000×1",
        ),
        ("bomb", claiming(&tetrio, 4096, 4096), "over the limit"),
        ("wrong aspect", blank_png(100, 30), "aspect"),
        ("animated", animated(&tetrio), "animated"),
        ("16-bit", sixteen, "16 bits"),
    ];
    // The rate allows a burst of three publishes, then one a second.
    for (what, file, says) in cases {
        let answer = loop {
            match publish(&mut ann, file.clone()).await? {
                Err((ErrorCode::RateLimited, _)) => {
                    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
                }
                answer => break answer,
            }
        };
        let Err((code, text)) = answer else {
            panic!("{what}: published: {answer:?}");
        };
        assert_eq!(code, ErrorCode::BadSkin, "{what}: {text}");
        assert!(text.contains(says), "{what}: {text:?} should say {says:?}");
    }
    // Still connected, and a good file still goes through.
    let good = loop {
        match publish(&mut ann, tetrio.clone()).await? {
            Err((ErrorCode::RateLimited, _)) => {
                tokio::time::sleep(std::time::Duration::from_millis(300)).await;
            }
            answer => break answer,
        }
    };
    assert!(good.is_ok(), "{good:?}");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_and_a_server_with_skins_off_publish_nothing() -> anyhow::Result<()> {
    let (on, _dir) = skin_server("skins-guest", |_| {}).await;
    let mut guest = RawClient::hello(on.addr(), "guest").await?;
    let answer = publish(&mut guest, sample("tetrio.png")).await?;
    assert!(
        matches!(&answer, Err((ErrorCode::NotIdentified, _))),
        "{answer:?}"
    );

    let (off, _dir) = skin_server("skins-off", |c| c.skins = false).await;
    let mut ann = registered(off.addr(), "ann", 1).await?;
    let answer = publish(&mut ann, sample("tetrio.png")).await?;
    let Err((ErrorCode::Unavailable, text)) = &answer else {
        panic!("{answer:?}");
    };
    assert!(text.contains("takes no published skins"), "{text}");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_skin_the_operators_remove_is_gone_and_refused_again() -> anyhow::Result<()> {
    let (server, _dir) = skin_server("skins-removed", |_| {}).await;
    let addr = server.addr();
    let mut ann = registered(addr, "ann", 1).await?;
    let id = publish(&mut ann, sample("connected.png"))
        .await?
        .expect("published");
    assert!(fetch(&mut ann, &id).await?.is_some());

    let path = format!("/admin/skins/{id}/remove");
    let body = json!({ "reason": "offensive imagery" });
    let (status, answer) = request_json(addr, "POST", &path, Some(TOKEN), Some(&body)).await?;
    assert_eq!(status, 200, "{answer}");
    let (_, audit) = request_json(addr, "GET", "/admin/audit", Some(TOKEN), None).await?;
    let newest = &audit["entries"][0];
    assert_eq!(newest["action"], "remove_skin", "{audit}");
    assert_eq!(newest["target"], format!("skin:{id}"), "{audit}");

    assert_eq!(fetch(&mut ann, &id).await?, None, "gone for everyone");
    let again = publish(&mut ann, sample("connected.png")).await?;
    let Err((ErrorCode::BadSkin, text)) = &again else {
        panic!("{again:?}");
    };
    assert!(text.contains("removed"), "{text}");
    let (status, _) = request_json(addr, "POST", &path, Some(TOKEN), Some(&body)).await?;
    assert_eq!(status, 404, "removed once");
    let (status, _) = request_json(
        addr,
        "POST",
        "/admin/skins/x/remove",
        Some(TOKEN),
        Some(&body),
    )
    .await?;
    assert_eq!(status, 400, "not a skin id");
    Ok(())
}
