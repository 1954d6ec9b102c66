//! End-to-end: a room of several seats picks every player's input delay from the worst link
//! that matters. Three players sit on loopback and one behind the delay proxy (250 ms each
//! way): each reports its round trip (`LinkReport`), the room announces every seat's before
//! the match (`BattleLinks`), and the near players, whose own link needs no delay at all, play
//! with the delay the far player's inputs need to arrive in time. The match then runs with no
//! desync.

use std::time::Duration;

use sevenbag_netplay::battle_links::battle_options;
use sevenbag_netplay::{BattleClient, SessionOptions};
use sevenbag_protocol::JoinRole;
use sevenbag_tests::ffa::{connect, connect_on, idle_all, options};
use sevenbag_tests::players::match_config;
use sevenbag_tests::proxy::{Proxy, ProxyConfig};

/// One way through the proxy.
const FAR: Duration = Duration::from_millis(250);

/// Waits (bounded) until `c`'s clock has measured a round trip of at least `least`.
async fn measured(c: &mut BattleClient, least: Duration) -> Duration {
    for _ in 0..60 {
        if let Some(rtt) = c.round_trip().filter(|&r| r >= least) {
            return rtt;
        }
        c.idle_for(Duration::from_millis(100)).await;
    }
    panic!("no round trip of {least:?} measured: {:?}", c.round_trip());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_input_delay_comes_from_the_worst_link_in_the_room() {
    let server = sevenbag_tests::start_server(match_config(Duration::from_millis(600))).await;
    let proxy = Proxy::start(server.addr(), ProxyConfig::latency(FAR, Duration::ZERO, 7))
        .await
        .expect("proxy");
    let url = server.url();
    let mut host = connect(&url, "near0").await;
    let code = host.create(options(4)).await.expect("create");
    let mut players = vec![host];
    for (i, via) in [(1, url.clone()), (2, url.clone()), (3, proxy.url())] {
        let name = if i == 3 {
            "far".to_string()
        } else {
            format!("near{i}")
        };
        // The delay proxy carries TCP only: the far player's inputs stay on the WebSocket.
        let mut p = connect_on(&via, &name, i != 3).await;
        assert_eq!(
            p.join(&code, JoinRole::Player).await.expect("join"),
            Some(i)
        );
        players.push(p);
    }
    // Every clock knows its round trip before the start. A client reports its round trip as it
    // takes the Pong that measured it, so the far one's report is on its connection before its
    // `Ready` below, and the server reads them in that order.
    for p in players.iter_mut().take(3) {
        measured(p, Duration::ZERO).await;
    }
    let far_rtt = measured(&mut players[3], 2 * FAR).await;
    for p in players.iter_mut() {
        p.ready().expect("ready");
    }
    for p in players.iter_mut() {
        p.wait_for_start(Duration::from_secs(10))
            .await
            .expect("starts");
    }
    let window = SessionOptions::default().window;
    for (me, p) in players.iter().enumerate() {
        let links = p.links().to_vec();
        assert_eq!(links.len(), 4, "{me}: {links:?}");
        assert!(
            u128::from(links[3]) + 20 >= far_rtt.as_millis(),
            "{me}: the far seat's link is announced: {links:?}, measured {far_rtt:?}"
        );
        assert!(links[..3].iter().all(|&l| l < 100), "{me}: {links:?}");
        let delay = p.session().expect("a session").options().input_delay;
        let expected = battle_options(p.round_trip(), &links, me, window).input_delay;
        assert!(
            delay.abs_diff(expected) <= 1,
            "{me}: delay {delay}, the worst link gives {expected} ({links:?})"
        );
        if me < 3 {
            let alone = SessionOptions::for_round_trip(p.round_trip(), window).input_delay;
            assert!(
                delay >= alone + 3,
                "{me}: delay {delay} is the far link's, not its own ({alone})"
            );
        }
    }
    // The match runs: the far player's inputs arrive and nobody desyncs or is cut.
    let players = idle_all(players, Duration::from_secs(3)).await;
    for p in &players {
        let session = p.session().expect("a session");
        assert!(
            session.frame() > 60,
            "{:?}: frame {}",
            p.names(),
            session.frame()
        );
        assert_eq!(session.stats().desyncs, 0);
        assert!(p.errors().is_empty(), "{:?}", p.errors());
        assert!(p.session_errors().is_empty(), "{:?}", p.session_errors());
    }
    assert!(players[0].session().expect("a session").remote_confirmed() > 30);
}
