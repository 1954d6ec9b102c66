//! Clock sync and frame pacing, with time passed in so both are tested without sleeping.
//!
//! [`Clock`] turns `Ping`/`Pong` exchanges into a round-trip time and an offset to the server's
//! millisecond clock (NTP's trick: trust the sample with the shortest round trip, whose midpoint
//! is least uncertain). [`Pacer`] says which frame the local simulation should be at: the server
//! announces frame 0 at an instant (`MatchStart.start_in_ms`, or `MatchLog.now_frame` for late
//! joiners), and from then on one frame is due every 1/60 s. Three corrections keep the players
//! level with each other (frame-advantage balancing) and close to the server's clock:
//! - a stall (the opponent's inputs are too far behind) holds the clock back, so we do not race
//!   ahead again the moment they arrive;
//! - once level, we run slightly faster until the time lost to stalls is made up, so the server
//!   (which forfeits a player whose inputs fall too far behind its match clock) sees us keep
//!   up;
//! - when we are persistently ahead of where the opponent must be (its confirmed frame plus the
//!   relay time), we run slightly slower until we are level, by at most half the prediction
//!   window in total, so that two players who both misjudge the latency cannot drift off the
//!   server's clock together.

use std::collections::VecDeque;
use std::time::Duration;

use crate::time::Instant;

use sevenbag_protocol::ClientMessage;

/// One frame: 1/60 s.
pub const FRAME: Duration = Duration::from_nanos(16_666_667);
const FRAME_NANOS: u64 = 16_666_667;

/// Round-trip samples kept for the offset estimate.
const SAMPLES: usize = 16;
/// Unanswered pings remembered (older ones are forgotten; a late answer is then ignored).
const PENDING: usize = 8;

/// One ping's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Sample {
    rtt: Duration,
    /// Server milliseconds minus local milliseconds (since the clock's epoch).
    offset_ms: i64,
}

/// Round-trip time and server clock offset from `Ping`/`Pong`.
#[derive(Clone, Debug)]
pub struct Clock {
    /// Local instant of local millisecond 0.
    epoch: Instant,
    next_nonce: u64,
    /// Pings in flight: nonce and when it was sent.
    pending: VecDeque<(u64, Instant)>,
    /// The most recent samples, newest last.
    samples: VecDeque<Sample>,
    /// Smoothed round trip (RFC 6298's 1/8 gain).
    srtt: Option<Duration>,
    /// Smoothed mean deviation of the round trip (RFC 6298's RTTVAR, 1/4 gain): the jitter.
    rttvar: Duration,
}

impl Clock {
    /// A clock with no samples; `epoch` is the local instant that counts as local millisecond 0.
    pub fn new(epoch: Instant) -> Clock {
        Clock {
            epoch,
            next_nonce: 1,
            pending: VecDeque::with_capacity(PENDING),
            samples: VecDeque::with_capacity(SAMPLES),
            srtt: None,
            rttvar: Duration::ZERO,
        }
    }

    /// A `Ping` to send now; its answer goes to [`Clock::pong`].
    pub fn ping(&mut self, now: Instant) -> ClientMessage {
        let nonce = self.next_nonce;
        self.next_nonce += 1;
        if self.pending.len() == PENDING {
            self.pending.pop_front();
        }
        self.pending.push_back((nonce, now));
        ClientMessage::Ping { nonce }
    }

    /// Takes the server's `Pong`, received at `now`; returns the round trip it measured, or
    /// `None` for a nonce we did not send (or forgot).
    pub fn pong(&mut self, nonce: u64, server_ms: u64, now: Instant) -> Option<Duration> {
        let i = self.pending.iter().position(|&(n, _)| n == nonce)?;
        let (_, sent) = self.pending.remove(i)?;
        let rtt = now.saturating_duration_since(sent);
        // The server read its clock about half-way through the round trip.
        let midpoint = sent + rtt / 2;
        let local_ms = millis_between(self.epoch, midpoint);
        let offset_ms = i64::try_from(server_ms).unwrap_or(i64::MAX) - local_ms;
        if self.samples.len() == SAMPLES {
            self.samples.pop_front();
        }
        self.samples.push_back(Sample { rtt, offset_ms });
        self.rttvar = match self.srtt {
            None => rtt / 2,
            Some(s) => (self.rttvar * 3 + s.abs_diff(rtt)) / 4,
        };
        self.srtt = Some(match self.srtt {
            None => rtt,
            Some(s) => (s * 7 + rtt) / 8,
        });
        Some(rtt)
    }

    /// Smoothed mean deviation of the round trip (jitter), once a pong came back.
    pub fn jitter(&self) -> Option<Duration> {
        self.srtt.map(|_| self.rttvar)
    }

    /// Smoothed round-trip time, once a pong came back.
    pub fn rtt(&self) -> Option<Duration> {
        self.srtt
    }

    /// Shortest recent round trip.
    pub fn min_rtt(&self) -> Option<Duration> {
        self.samples.iter().map(|s| s.rtt).min()
    }

    /// Server milliseconds minus local milliseconds, from the recent sample with the shortest
    /// round trip.
    pub fn offset_ms(&self) -> Option<i64> {
        self.samples
            .iter()
            .min_by_key(|s| s.rtt)
            .map(|s| s.offset_ms)
    }

    /// The server's clock (milliseconds since its epoch) at local instant `now`.
    pub fn server_ms(&self, now: Instant) -> Option<u64> {
        let offset = self.offset_ms()?;
        u64::try_from(millis_between(self.epoch, now) + offset).ok()
    }

    /// The local instant at which the server's clock reads `server_ms`.
    pub fn local_instant(&self, server_ms: u64) -> Option<Instant> {
        let local_ms = i64::try_from(server_ms).ok()? - self.offset_ms()?;
        let ms = u64::try_from(local_ms).ok()?;
        Some(self.epoch + Duration::from_millis(ms))
    }
}

/// Signed milliseconds from `from` to `to`.
fn millis_between(from: Instant, to: Instant) -> i64 {
    if to >= from {
        i64::try_from(to.duration_since(from).as_millis()).unwrap_or(i64::MAX)
    } else {
        -i64::try_from(from.duration_since(to).as_millis()).unwrap_or(i64::MAX)
    }
}

/// Most frames run in one tick: half a second. A tick runs every frame that is due, so the
/// match keeps real time however slowly the caller ticks (a game drawing 5 frames a second runs
/// 12 frames a tick) down to 2 ticks a second; only a longer hitch is spread over later ticks.
/// (It was 4, which let any machine drawing fewer than 15 frames a second fall behind for good,
/// until the server forfeited it while its player was still pressing keys.)
pub const MAX_CATCH_UP: u32 = 30;
/// Smoothed frame advantage above which we slow down, in frames.
const AHEAD_THRESHOLD: f64 = 2.0;
/// Smoothed frame advantage at or below which we may catch up with the server's clock.
const LEVEL_THRESHOLD: f64 = 1.0;
/// Frames the opponent's confirmation trails its simulation on average (it confirms at least
/// every 4 frames) plus half a tick of sampling.
const CONFIRM_LAG_FRAMES: f64 = 2.0;
/// Slowing down when ahead: an eighth of a frame per frame.
const SLOW_STEP: u64 = FRAME_NANOS / 8;
/// Catching up when a little behind the server's clock: a sixteenth of a frame per frame.
const CATCH_UP_STEP: u64 = FRAME_NANOS / 16;
/// Catching up when more than a second behind (after a reconnect): half a frame per frame.
const FAST_CATCH_UP_STEP: u64 = FRAME_NANOS / 2;

/// Which frame the simulation should be at, and gentle corrections to stay level with the
/// opponent and close to the server's clock (see the module docs).
#[derive(Clone, Debug)]
pub struct Pacer {
    /// Where the server's clock puts frame 0, locally. Never moves.
    anchor: Instant,
    /// How far behind the server's clock we run, in nanoseconds: frame 0 is due at
    /// `anchor + lag`. Stalls and balancing add to it; catching up takes it back.
    lag: u64,
    /// The part of `lag` balancing added, bounded by `max_balance`.
    balance_lag: u64,
    /// Half the prediction window: two players who both think they are ahead (both misjudging
    /// the latency) slow down by at most this much.
    max_balance: u64,
    /// Smoothed frame advantage over the opponent (frames; positive = we are ahead).
    advantage: f64,
}

impl Pacer {
    /// A pacer whose frame 0 is due at `frame0` by the server's clock; `window` is the
    /// session's prediction window.
    pub fn new(frame0: Instant, window: u32) -> Pacer {
        Pacer {
            anchor: frame0,
            lag: 0,
            balance_lag: 0,
            max_balance: u64::from(window.max(2) / 2) * FRAME_NANOS,
            advantage: 0.0,
        }
    }

    /// From a `MatchStart` received at `received`: frame 0 is `start_in_ms` after the server sent
    /// it, which was half a round trip before we got it.
    pub fn from_match_start(
        received: Instant,
        start_in_ms: u32,
        rtt: Option<Duration>,
        window: u32,
    ) -> Pacer {
        let start = received + Duration::from_millis(u64::from(start_in_ms));
        let frame0 = start
            .checked_sub(rtt.unwrap_or_default() / 2)
            .unwrap_or(start);
        Pacer::new(frame0, window)
    }

    /// From a `MatchLog` received at `received` saying the server's clock is at `now_frame`.
    pub fn from_now_frame(
        received: Instant,
        now_frame: u32,
        rtt: Option<Duration>,
        window: u32,
    ) -> Pacer {
        let at_server = received + rtt.unwrap_or_default() / 2;
        let elapsed = FRAME * now_frame;
        let frame0 = at_server.checked_sub(elapsed).unwrap_or(at_server);
        Pacer::new(frame0, window)
    }

    /// When frame 0 is due locally (the server's frame 0 plus our lag).
    pub fn frame0(&self) -> Instant {
        self.anchor + Duration::from_nanos(self.lag)
    }

    /// How far behind the server's match clock we are running.
    pub fn lag(&self) -> Duration {
        Duration::from_nanos(self.lag)
    }

    /// Frames that should have been simulated by `now`.
    pub fn target_frame(&self, now: Instant) -> u32 {
        let elapsed = now.saturating_duration_since(self.frame0()).as_nanos();
        u32::try_from(elapsed / FRAME.as_nanos()).unwrap_or(u32::MAX)
    }

    /// How many frames to simulate now, being at `frame`: the backlog, at most
    /// [`MAX_CATCH_UP`] per tick.
    pub fn frames_due(&self, now: Instant, frame: u32) -> u32 {
        self.target_frame(now)
            .saturating_sub(frame)
            .min(MAX_CATCH_UP)
    }

    /// When the frame after `frame` frames is due (the instant `target_frame` reaches
    /// `frame + 1`): the time to sleep until.
    pub fn next_due(&self, frame: u32) -> Instant {
        self.frame0() + FRAME * frame.saturating_add(1)
    }

    /// A due frame could not run (the session stalled at `frame`): hold the clock so that
    /// `frame` is what is due now, instead of racing ahead again the moment inputs arrive.
    /// The time lost is taken back gently by [`Pacer::balance`] once we are level.
    pub fn stalled(&mut self, now: Instant, frame: u32) {
        if let Some(held) = now.checked_sub(FRAME * frame)
            && let Some(lag) = held.checked_duration_since(self.anchor)
        {
            let lag = u64::try_from(lag.as_nanos()).unwrap_or(u64::MAX);
            self.lag = self.lag.max(lag);
        }
    }

    /// Frame-advantage balancing, called once per simulated frame: `frame` is ours,
    /// `remote_confirmed` the opponent's confirmed frame and `rtt` our round trip to the server.
    ///
    /// The opponent is estimated to be at `remote_confirmed` plus the relay time (their uplink
    /// and our downlink, taken as one round trip) plus 2 frames of confirmation lag. Ahead of
    /// that by more than two frames (smoothed), we slow down by an eighth until level (at most
    /// half the window in all). Level or behind, we catch up with the server's clock, which
    /// stalls left us behind: by a sixteenth of a frame per frame, or half a frame per frame when
    /// more than a second behind (after a reconnect), so the server never sees our inputs fall
    /// far behind its match clock.
    pub fn balance(&mut self, frame: u32, remote_confirmed: u32, rtt: Option<Duration>) {
        // Their inputs reach us over their uplink and our downlink: about one round trip when
        // both players are as far from the server.
        let travel = rtt.unwrap_or_default().as_secs_f64() * 60.0;
        let remote_now = f64::from(remote_confirmed) + travel + CONFIRM_LAG_FRAMES;
        let sample = f64::from(frame) - remote_now;
        self.advantage += (sample - self.advantage) / 16.0;
        if self.advantage > AHEAD_THRESHOLD {
            if self.balance_lag + SLOW_STEP <= self.max_balance {
                self.balance_lag += SLOW_STEP;
                self.lag += SLOW_STEP;
            }
        } else if self.advantage <= LEVEL_THRESHOLD && self.lag > 0 {
            let step = if self.lag > 60 * FRAME_NANOS {
                FAST_CATCH_UP_STEP
            } else {
                CATCH_UP_STEP
            };
            self.lag -= step.min(self.lag);
            self.balance_lag = self.balance_lag.min(self.lag);
        }
    }

    /// The smoothed frame advantage (positive: we are ahead of the opponent).
    pub fn advantage(&self) -> f64 {
        self.advantage
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn jitter_is_the_smoothed_spread_of_the_round_trip() {
        let t0 = Instant::now();
        let mut clock = Clock::new(t0);
        assert_eq!(clock.jitter(), None);
        let mut at = t0;
        // Round trips alternate 100 and 140 ms: the mean deviation settles near 20 ms.
        for i in 0..40u32 {
            let ClientMessage::Ping { nonce } = clock.ping(at) else {
                panic!("not a ping");
            };
            let rtt = if i % 2 == 0 { 100 * MS } else { 140 * MS };
            clock.pong(nonce, 0, at + rtt);
            at += 1_000 * MS;
        }
        let jitter = clock.jitter().expect("measured");
        assert!((15 * MS..=25 * MS).contains(&jitter), "{jitter:?}");
    }

    #[test]
    fn a_pong_gives_the_round_trip_and_the_server_offset() {
        let t0 = Instant::now();
        let mut clock = Clock::new(t0);
        let ClientMessage::Ping { nonce } = clock.ping(t0 + 100 * MS) else {
            panic!("not a ping");
        };
        // The server read 5_000 ms at our 120 ms (the midpoint of 100..140).
        assert_eq!(clock.pong(nonce, 5_000, t0 + 140 * MS), Some(40 * MS));
        assert_eq!(clock.rtt(), Some(40 * MS));
        assert_eq!(clock.offset_ms(), Some(4_880));
        assert_eq!(clock.server_ms(t0 + 1_000 * MS), Some(5_880));
        assert_eq!(clock.local_instant(5_880), Some(t0 + 1_000 * MS));
    }

    #[test]
    fn the_offset_comes_from_the_shortest_round_trip() {
        let t0 = Instant::now();
        let mut clock = Clock::new(t0);
        // A slow sample whose midpoint is off, then a fast, accurate one.
        let ClientMessage::Ping { nonce: slow } = clock.ping(t0) else {
            panic!()
        };
        clock.pong(slow, 1_000 + 10, t0 + 300 * MS);
        let ClientMessage::Ping { nonce: fast } = clock.ping(t0 + 1_000 * MS) else {
            panic!()
        };
        clock.pong(fast, 2_000 + 10, t0 + 1_020 * MS);
        assert_eq!(clock.offset_ms(), Some(1_000));
        assert_eq!(clock.min_rtt(), Some(20 * MS));
        // Smoothing: 300 then 7/8 * 300 + 1/8 * 20.
        assert_eq!(clock.rtt(), Some(265 * MS));
    }

    #[test]
    fn an_unknown_nonce_is_ignored() {
        let t0 = Instant::now();
        let mut clock = Clock::new(t0);
        assert_eq!(clock.pong(42, 1, t0), None);
        assert_eq!(clock.rtt(), None);
        assert_eq!(clock.server_ms(t0), None);
    }

    #[test]
    fn frame_zero_is_the_announced_instant_less_half_a_round_trip() {
        let t0 = Instant::now();
        let pacer = Pacer::from_match_start(t0, 1_000, Some(100 * MS), 12);
        assert_eq!(pacer.frame0(), t0 + 950 * MS);
        assert_eq!(pacer.target_frame(t0 + 900 * MS), 0);
        assert_eq!(pacer.target_frame(t0 + 950 * MS + FRAME * 3), 3);
        assert_eq!(pacer.target_frame(t0 + 950 * MS + FRAME * 60), 60);
    }

    #[test]
    fn a_late_joiner_is_placed_at_the_servers_frame() {
        let t0 = Instant::now() + Duration::from_secs(100);
        let pacer = Pacer::from_now_frame(t0, 600, Some(40 * MS), 12);
        assert_eq!(pacer.target_frame(t0 + 20 * MS), 600);
    }

    #[test]
    fn a_late_tick_runs_its_whole_backlog_up_to_half_a_second() {
        let t0 = Instant::now();
        let pacer = Pacer::new(t0, 12);
        assert_eq!(pacer.frames_due(t0 + FRAME * 2, 1), 1);
        assert_eq!(pacer.frames_due(t0 + FRAME * 30, 10), 20);
        assert_eq!(pacer.frames_due(t0 + FRAME * 100, 10), MAX_CATCH_UP);
        assert_eq!(pacer.frames_due(t0 + FRAME * 5, 9), 0);
        assert_eq!(pacer.next_due(9), t0 + FRAME * 10);
    }

    /// A game drawing 8 (or 5) frames a second keeps the match clock in real time.
    #[test]
    fn ticking_at_a_low_frame_rate_keeps_real_time() {
        for fps in [8u32, 5] {
            let t0 = Instant::now();
            let pacer = Pacer::new(t0, 12);
            let mut frame = 0;
            for tick in 1..=10 * fps {
                let now = t0 + Duration::from_secs(1) * tick / fps;
                frame += pacer.frames_due(now, frame);
            }
            assert!(
                (599..=600).contains(&frame),
                "{fps} fps: {frame} frames in 10 s"
            );
        }
    }

    #[test]
    fn a_stall_holds_the_clock() {
        let t0 = Instant::now();
        let mut pacer = Pacer::new(t0, 12);
        let now = t0 + FRAME * 40;
        pacer.stalled(now, 30);
        assert_eq!(pacer.target_frame(now), 30);
        assert_eq!(pacer.next_due(30), now + FRAME);
        assert_eq!(pacer.lag(), FRAME * 10);
    }

    #[test]
    fn time_lost_to_stalls_is_caught_up_gently_once_level() {
        let t0 = Instant::now();
        let mut pacer = Pacer::new(t0, 12);
        pacer.stalled(t0 + FRAME * 40, 30);
        // Level with the opponent (0 ms round trip: they trail by the 2 frames of confirmation).
        for f in 30..(30 + 16 * 10) {
            pacer.balance(f, f - 2, Some(Duration::ZERO));
        }
        assert!(pacer.lag() < FRAME / 4, "{:?}", pacer.lag());
        for f in 190..200 {
            pacer.balance(f, f - 2, Some(Duration::ZERO));
        }
        assert_eq!(pacer.lag(), Duration::ZERO);
        assert_eq!(pacer.frame0(), t0);
    }

    #[test]
    fn a_long_absence_is_caught_up_at_one_and_a_half_speed() {
        let t0 = Instant::now();
        let mut pacer = Pacer::new(t0, 12);
        // Ten seconds lost (a reconnect): 600 frames behind the server's clock.
        pacer.stalled(t0 + FRAME * 1000, 400);
        assert_eq!(pacer.lag(), FRAME * 600);
        let mut f = 400;
        while pacer.lag() > Duration::ZERO && f < 10_000 {
            pacer.balance(f, f - 2, Some(Duration::ZERO));
            f += 1;
        }
        // 540 frames at half a frame each, then the last second at a sixteenth.
        assert!((2000..2200).contains(&(f - 400)), "{} frames", f - 400);
    }

    #[test]
    fn running_ahead_of_the_opponent_slows_down_within_a_bound() {
        let t0 = Instant::now();
        let mut pacer = Pacer::new(t0, 12);
        // We are at frame f, the opponent has only confirmed f - 10 with a 0 ms round trip.
        for f in 100..400 {
            pacer.balance(f, f - 10, Some(Duration::ZERO));
        }
        assert!(pacer.advantage() > 7.0);
        // At most half the window (6 frames) of slow-down in total.
        let shift = pacer.frame0() - t0;
        assert!(
            shift <= FRAME * 6 && shift > FRAME * 6 - FRAME / 8,
            "{shift:?}"
        );
        // Level again: the slow-down is taken back.
        for f in 400..800 {
            pacer.balance(f, f + 10, Some(Duration::ZERO));
        }
        assert_eq!(pacer.frame0(), t0);
    }

    #[test]
    fn level_players_are_left_alone() {
        let t0 = Instant::now();
        let mut pacer = Pacer::new(t0, 12);
        // 100 ms round trip: the opponent's confirmation trails by 6 frames of relay plus 2.
        for f in 100..1000 {
            pacer.balance(f, f - 8, Some(100 * MS));
        }
        assert_eq!(pacer.frame0(), t0);
    }
}
