//! After a match the game's connection stays up however long the players sit on the result
//! card: through a real server whose idle rule is short (2 s), two players of a ranked match
//! keep polling as the result card does, for several idle timeouts, and neither is cut.

use std::time::Duration;

use sevenbag_server::Limits;

use super::tests::{connect, run};
use super::{Request, Stage};
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
    run(&mut [&mut a, &mut b], 30, |c| c.iter().all(|o| o.is_live()));
    run(&mut [&mut a, &mut b], 60, |c| {
        c.iter().all(|o| o.outcome().is_some())
    });
    // The result card: polled every frame, nothing pressed, for four idle timeouts (or until
    // one of them is cut).
    let until = std::time::Instant::now() + IDLE * 4;
    run(&mut [&mut a, &mut b], 20, |c| {
        std::time::Instant::now() >= until
            || c.iter().any(|o| matches!(o.stage(), Stage::Failed(_)))
    });
    for o in [&a, &b] {
        assert!(
            !matches!(o.stage(), Stage::Failed(_)),
            "cut while idle: {:?}",
            o.stage()
        );
    }
}
