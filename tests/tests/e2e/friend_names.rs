//! Names in friend requests are hostile input: through the real server with a SQLite database,
//! a name carrying a format character (zero-width space, right-to-left override) or a
//! look-alike letter from another script is answered exactly as a name nobody has, so it never
//! reaches the player it imitates, and the connection carries on; the real name in another
//! case reaches them.

use sevenbag_protocol::social::RequestResult;
use sevenbag_protocol::{ClientMessage, ErrorCode, ServerMessage};
use sevenbag_tests::RawClient;
use sevenbag_tests::social::{ask, registered, with_database};

/// What the server answers `c`'s friend request to `name`.
async fn request(
    c: &mut RawClient,
    name: &str,
) -> anyhow::Result<Result<RequestResult, (ErrorCode, String)>> {
    let message = ClientMessage::SendFriendRequest { name: name.into() };
    ask(c, message, |m| match m {
        ServerMessage::FriendRequestSent { result, .. } => Some(*result),
        _ => None,
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_with_format_or_look_alike_characters_reach_nobody() -> anyhow::Result<()> {
    let (server, _dir) = with_database("friend-names").await;
    drop(registered(server.addr(), "ben", 2).await?);
    // Two senders, so that every request stays within the burst the rate limit allows.
    let mut ann = registered(server.addr(), "ann", 1).await?;
    let mut cid = registered(server.addr(), "cid", 3).await?;
    let nobody = request(&mut ann, "nobody").await?;
    assert!(
        matches!(&nobody, Err((ErrorCode::NoSuchPlayer, _))),
        "{nobody:?}"
    );
    // A zero-width space (from ann), a right-to-left override and a Cyrillic "е" (from cid).
    let answers = [
        request(&mut ann, "b\u{200B}en").await?,
        request(&mut cid, "ben\u{202E}").await?,
        request(&mut cid, "b\u{0435}n").await?,
    ];
    for answer in answers {
        assert_eq!(answer, nobody, "answered as a name nobody has");
    }
    assert_eq!(
        request(&mut ann, "BEN").await?,
        Ok(RequestResult::Sent),
        "the real name, in any case, reaches ben"
    );
    Ok(())
}
