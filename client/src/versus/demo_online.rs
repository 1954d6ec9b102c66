//! `--demo --online`: the demo bots playing through a real server on 127.0.0.1.
//!
//! An embedded server ([`HostedServer`] on loopback, ephemeral port) and two [`Online`]
//! controllers, each driven by an automatic player: the first creates a room, the second joins
//! it by code, both ready up (again after every match). The screen draws the first one, so the
//! demo exercises the connection, the room flow, the rollback session and the pacer.

use sevenbag_netplay::time::Instant;
use std::net::Ipv4Addr;
use std::sync::atomic::{AtomicU64, Ordering};

use sevenbag_core::{Handling, Match};
use sevenbag_protocol::{EndReason, RoomOptions};

use crate::input::{KeyMap, Keyboard};
use crate::match_source::{MatchSource, NetStatus};
use crate::net::lan::HostedServer;
use crate::net::online::{Online, Request, Stage};
use crate::opponent::Opponent;

/// Match frames the shown client simulated, over every match of this process.
static MATCH_FRAMES: AtomicU64 = AtomicU64::new(0);
/// Matches of the shown client the server ended by forfeit.
static FORFEITS: AtomicU64 = AtomicU64::new(0);

/// The line `--demo --online --seconds S` prints at exit, so a claim of real time can be checked:
/// 60 match frames a second means the match clock kept up however slowly the screen drew.
pub fn stats_line(seconds: f64) -> String {
    let frames = MATCH_FRAMES.load(Ordering::Relaxed);
    let rate = if seconds > 0.0 {
        frames as f64 / seconds
    } else {
        0.0
    };
    format!(
        "match frames: {frames} in {seconds:.1} s ({rate:.1} per s), forfeits: {}",
        FORFEITS.load(Ordering::Relaxed)
    )
}

/// The demo's session (see the module docs).
pub struct OnlineDemo {
    // Dropped last: stops the server once both clients are gone.
    shown: Online,
    other: Option<Online>,
    other_player: Opponent,
    _server: HostedServer,
    addr: String,
    /// The last match result already counted in [`FORFEITS`] (by matches started).
    counted: u32,
}

impl OnlineDemo {
    /// Starts the server and the first client.
    pub fn start(players: [Opponent; 2]) -> Result<OnlineDemo, String> {
        let dir = std::env::temp_dir().join(format!("sevenbag-demo-{}", std::process::id()));
        let server = HostedServer::start_on(Ipv4Addr::LOCALHOST, 0, dir)?;
        let addr = format!("127.0.0.1:{}", server.port());
        let shown = Online::connect(
            &addr,
            &players[0].label(),
            Handling::default(),
            KeyMap::guideline(),
            Request::Create(RoomOptions::default()),
        )
        .with_auto(players[0].player(0xA));
        Ok(OnlineDemo {
            shown,
            other: None,
            other_player: players[1].clone(),
            _server: server,
            addr,
            counted: 0,
        })
    }

    fn drive_other(&mut self) {
        if self.other.is_none()
            && let Some(code) = self.shown.code()
        {
            let o = Online::connect(
                &self.addr,
                &self.other_player.label(),
                Handling::default(),
                KeyMap::guideline(),
                Request::Join(code.to_owned()),
            )
            .with_auto(self.other_player.player(0xB));
            self.other = Some(o);
        }
        if let Some(o) = &mut self.other {
            o.poll(Instant::now());
            while o.frames_due() > 0 && MatchSource::step(o) {}
            if o.stage() == &Stage::InRoom {
                o.ready();
            }
        }
        if self.shown.stage() == &Stage::InRoom {
            self.shown.ready();
        }
    }
}

impl MatchSource for OnlineDemo {
    fn sample(&mut self, _keyboard: &Keyboard) {}

    fn pump(&mut self, clock_steps: u32) -> u32 {
        let due = self.shown.pump(clock_steps);
        self.drive_other();
        due
    }

    fn step(&mut self) -> bool {
        let stepped = MatchSource::step(&mut self.shown);
        if stepped {
            MATCH_FRAMES.fetch_add(1, Ordering::Relaxed);
        }
        let started = self.shown.matches_started();
        if started != self.counted
            && let Some(result) = self.shown.outcome()
        {
            self.counted = started;
            if result.reason == EndReason::Forfeit {
                FORFEITS.fetch_add(1, Ordering::Relaxed);
            }
        }
        stepped
    }

    fn current(&self) -> &Match {
        self.shown.current()
    }

    fn net(&self) -> NetStatus {
        let mut status = self.shown.status();
        status.peers[0] = crate::match_source::Peer::Bot;
        status
    }

    fn can_pause(&self) -> bool {
        false
    }

    fn rematch(&mut self, _seed: u64) {
        self.shown.ready();
    }

    fn local_seats(&self) -> [bool; 2] {
        [false, false]
    }

    fn title(&self) -> Option<String> {
        let stage = match self.shown.stage() {
            Stage::Failed(e) => return Some(format!("ONLINE DEMO  ·  {e}")),
            _ if !self.shown.is_live() && self.shown.matches_started() == 0 => "CONNECTING",
            _ => "ESC FOR THE MENU",
        };
        Some(format!("ONLINE DEMO  ·  {stage}"))
    }

    fn names(&self) -> Option<[String; 2]> {
        Some(self.shown.names())
    }
}
