//! The room's durable log: written as the match goes, read back after a restart.

use super::*;

impl Room {
    /// Takes up a match read back from its room log: the seats keep their names, handlings,
    /// identities and tokens and wait for their players for the reconnect window; the match
    /// clock keeps the wall-clock time of frame 0, so it agrees with the clients' clocks.
    pub(super) async fn restore(&mut self, loaded: Loaded) {
        let Loaded { open, sim, .. } = loaded;
        let MatchOpen {
            header,
            names,
            tokens,
            players,
            started_unix,
            frame0_unix_ms,
            matches,
            ranked,
            ..
        } = open;
        let now = Instant::now();
        let window = Duration::from_secs(u64::from(self.options.reconnect_seconds.max(1)));
        let players = players.map(|p| p.map(PlayerId));
        for seat in Seat::BOTH {
            let i = seat.index();
            self.directory.token_issued(tokens[i], &self.code);
            self.seats[i] = Some(SeatSlot {
                name: names[i].clone(),
                handling: header.handling[i],
                resume: tokens[i],
                ready: false,
                conn: None,
                deadline: Some(now + window),
                player: players[i],
            });
        }
        self.matches = matches;
        let since_frame0 = Duration::from_millis(unix_now_ms().saturating_sub(frame0_unix_ms));
        let frame0 = now.checked_sub(since_frame0).unwrap_or(now);
        let confirmed = Seat::BOTH.map(|s| sim.log(s).confirmed());
        info!(
            room = %self.code,
            ?confirmed,
            frame = sim.frame(),
            window_s = window.as_secs(),
            "match restored from its room log; waiting for the players"
        );
        let decided = sim.winner();
        self.running = Some(Running {
            sim,
            names,
            frame0,
            started_unix,
            desync_answered: [0; 2],
            tally: Tally::new(ranked, players),
            last_inputs: [now; 2],
            warned: [None; 2],
            _live: GaugeGuard::new(&self.services.metrics.matches_running),
            log: self
                .services
                .room_logs
                .as_ref()
                .map(|l| l.resume(&self.code)),
            tokens,
        });
        if let Some(winner) = decided {
            // The server died between the deciding inputs and writing the replay.
            self.finish(Some(winner), EndReason::TopOut).await;
        }
    }
}
