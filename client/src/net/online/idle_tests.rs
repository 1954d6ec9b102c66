//! After a match the game's connection stays up however long the players sit on the result
//! card: through a real server whose idle rule is short (2 s), two players of a ranked match
//! (a room of two seats of the general kind) keep polling as the result card does, for several idle timeouts, and neither is cut.

use std::time::Duration;

use sevenbag_server::Limits;

use super::Request;
use super::tests::{connect, run};
use crate::net::battle::{BattleOnline, BattleStage};
use crate::net::battle_fixture::{dropper, idle, tick_both_until, tick_until};
use crate::net::test_server::LocalServer;

const IDLE: Duration = Duration::from_secs(2);

#[test]
fn ranked_players_idle_on_the_result_card_stay_connected() {
    let server = LocalServer::start_with(|config, dir| {
        config.db = Some(dir.join("s.db"));
        config.ranked_first_to = 1;
        // No pairing limits for two fresh identities from one address.
        config.moderation = sevenbag_server::ModerationConfig::permissive();
        config.limits = Limits {
            idle_timeout: IDLE,
            ping_interval: Duration::from_millis(500),
            ..Limits::default()
        };
    });
    let addr = server.addr().to_string();
    let mut a = connect(&addr, "annie", Request::Ranked([7; 32]));
    let mut b = connect(&addr, "bobby", Request::Ranked([8; 32]));
    // A ranked match is a room of two seats of the general kind: its controller takes over.
    run(&mut [&mut a, &mut b], 30, |c| {
        c.iter().all(|o| o.joined_battle())
    });
    let mut a = BattleOnline::joined(a.take_battle().expect("handed over"));
    let mut b = BattleOnline::joined(b.take_battle().expect("handed over"));
    let (mut drops_a, mut drops_b) = (dropper(2), dropper(3));
    tick_both_until((&mut a, &mut drops_a), (&mut b, &mut drops_b), &|o| {
        o.result().is_some()
    });
    tick_until(&mut a, &mut idle, |o| o.result().is_some());
    // The result card: polled every frame, nothing pressed, for four idle timeouts (or until
    // one of them is cut).
    let until = std::time::Instant::now() + IDLE * 4;
    let failed = |o: &BattleOnline| matches!(o.stage(), BattleStage::Failed(_));
    while std::time::Instant::now() < until && !failed(&a) && !failed(&b) {
        let now = sevenbag_netplay::time::Instant::now();
        a.tick(now, &mut idle);
        b.tick(now, &mut idle);
        std::thread::sleep(Duration::from_millis(4));
    }
    for o in [&a, &b] {
        assert!(!failed(o), "cut while idle: {:?}", o.stage());
    }
    // Each heard its new rating after the rated match, in the two-seat controller's words.
    for o in [&mut a, &mut b] {
        assert_eq!(o.queue_title(), Some("RANKED MATCH"));
        let notices = o.take_notices();
        assert!(
            notices.iter().any(|n| n.starts_with("Rating 1500 → ")),
            "{notices:?}"
        );
    }
}
