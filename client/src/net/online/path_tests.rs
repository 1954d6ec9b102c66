//! Which path the game's inputs take, as the network readout shows it: "UDP" once the datagram
//! session is up, "TCP" where UDP is blocked (the game stays on the WebSocket and plays) or
//! once the datagram path dies in a match (the game falls back by itself within 2 s and plays
//! on). Real server, real loopback proxies that block UDP.

use std::time::Duration;

use sevenbag_netplay::TransportPath;
use sevenbag_netplay::delay_proxy::{Proxy, ProxyConfig};
use sevenbag_netplay::time::Instant;
use sevenbag_netplay::udp_proxy::UdpProxy;
use sevenbag_protocol::RoomOptions;

use super::tests::{confirmed, connect, run, server};
use super::{Online, Request, Stage};
use crate::net::online::transport::runtime;

/// Alice and Bob in one room through `addr`, both ready.
fn ready_pair(addr: &str) -> (Online, Online) {
    let mut alice = connect(addr, "alice", Request::Create(RoomOptions::default()));
    run(&mut [&mut alice], 10, |c| c[0].code().is_some());
    let code = alice.code().unwrap_or_default().to_owned();
    let mut bob = connect(addr, "bob", Request::Join(code));
    run(&mut [&mut alice, &mut bob], 10, |c| {
        c.iter().all(|o| o.stage() == &Stage::InRoom) && c[0].seats()[1].is_some()
    });
    alice.ready();
    bob.ready();
    (alice, bob)
}

/// A TCP proxy to `server` with its UDP twin on the same port number, no delay.
fn proxies(server: std::net::SocketAddr) -> (Proxy, UdpProxy) {
    let direct = ProxyConfig::latency(Duration::ZERO, Duration::ZERO, 1);
    runtime()
        .expect("runtime")
        .block_on(Proxy::start_pair(server, direct, direct))
        .expect("proxies")
}

fn readout(o: &Online) -> String {
    o.status().readout()
}

#[test]
fn the_readout_says_udp_while_inputs_go_as_datagrams() {
    let server = server();
    let (mut alice, mut bob) = ready_pair(&server.addr().to_string());
    run(&mut [&mut alice, &mut bob], 30, |c| {
        c.iter()
            .all(|o| confirmed(o) >= 180 && o.path() == TransportPath::Datagrams)
    });
    for o in [&alice, &bob] {
        assert!(readout(o).contains(" UDP · "), "{}", readout(o));
    }
}

#[test]
fn where_udp_is_blocked_the_readout_says_tcp_and_the_match_plays() {
    let server = server();
    let (proxy, udp) = proxies(server.addr());
    udp.set_blocked(true);
    let (mut alice, mut bob) = ready_pair(&proxy.url());
    run(&mut [&mut alice, &mut bob], 30, |c| {
        c.iter().all(|o| confirmed(o) >= 300)
    });
    for o in [&alice, &bob] {
        assert_eq!(o.path(), TransportPath::WebSocket);
        assert!(readout(o).contains(" TCP · "), "{}", readout(o));
        assert!(o.is_live(), "{o:?}");
    }
}

#[test]
fn when_udp_stops_mid_match_the_game_falls_back_to_tcp_within_two_seconds() {
    let server = server();
    let (proxy, udp) = proxies(server.addr());
    let (mut alice, mut bob) = ready_pair(&proxy.url());
    run(&mut [&mut alice, &mut bob], 30, |c| {
        c.iter()
            .all(|o| confirmed(o) >= 120 && o.path() == TransportPath::Datagrams)
    });
    udp.set_blocked(true);
    let blocked = Instant::now();
    run(&mut [&mut alice, &mut bob], 10, |c| {
        c.iter().all(|o| o.path() == TransportPath::WebSocket)
    });
    let took = blocked.elapsed();
    // The link gives the path up 2 s after the first datagram left unanswered; a frame's poll
    // on a loaded machine may add a little.
    assert!(
        took < Duration::from_millis(2_600),
        "fell back after {took:?}"
    );
    let at = [confirmed(&alice), confirmed(&bob)];
    run(&mut [&mut alice, &mut bob], 30, |c| {
        c.iter().zip(at).all(|(o, f)| confirmed(o) >= f + 180)
    });
    for o in [&alice, &bob] {
        assert!(readout(o).contains(" TCP · "), "{}", readout(o));
        assert!(o.is_live(), "{o:?}");
    }
}
