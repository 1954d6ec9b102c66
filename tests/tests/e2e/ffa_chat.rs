//! Chat in a room of several seats reaches everyone from every seat: a line from the third
//! seat (beyond the two-seat wire's seat numbers) arrives, marked as a seated player's.

use sevenbag_protocol::{BattleRoomOptions, ClientMessage, JoinRole, ServerMessage};
use sevenbag_tests::social::LIMIT;
use sevenbag_tests::{RawClient, fast_config, start_server};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_line_from_the_third_seat_reaches_the_others_as_a_players() -> anyhow::Result<()> {
    let server = start_server(fast_config()).await;
    let addr = server.addr();
    let mut ann = RawClient::hello(addr, "ann").await?;
    let options = BattleRoomOptions::ffa(3);
    ann.send(&ClientMessage::CreateBattleRoom { options })
        .await?;
    let code = ann
        .recv_until(LIMIT, |m| match m {
            ServerMessage::BattleJoined { code, .. } => Some(code.clone()),
            _ => None,
        })
        .await?;
    let mut seated = Vec::new();
    for name in ["ben", "cat"] {
        let mut c = RawClient::hello(addr, name).await?;
        let join = ClientMessage::JoinRoom {
            code: code.clone(),
            role: JoinRole::Player,
        };
        c.send(&join).await?;
        let seat = c
            .recv_until(LIMIT, |m| match m {
                ServerMessage::BattleJoined { seat, .. } => Some(*seat),
                _ => None,
            })
            .await?;
        seated.push((c, seat));
    }
    let (mut cat, cat_seat) = seated.pop().expect("cat");
    let (mut ben, _) = seated.pop().expect("ben");
    assert_eq!(cat_seat, Some(2), "cat sits in the third seat");
    cat.send(&ClientMessage::Chat {
        text: "hi all".into(),
    })
    .await?;
    for c in [&mut ann, &mut ben] {
        let (from, seat) = c
            .recv_until(LIMIT, |m| match m {
                ServerMessage::Chat { from, seat, text } if text == "hi all" => {
                    Some((from.clone(), *seat))
                }
                _ => None,
            })
            .await?;
        assert_eq!(from, "cat");
        assert!(seat.is_some(), "said from a seat, not by a spectator");
    }
    Ok(())
}
