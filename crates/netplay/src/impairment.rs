//! What the loopback proxies ([`crate::delay_proxy`] for TCP, [`crate::udp_proxy`] for
//! datagrams) do to each direction of a connection: a random one-way delay with jitter, and loss
//! in bursts ([`Loss`]; what a lost chunk means on a TCP stream is the delaying proxy's
//! retransmission-delay model). Test and tool code, never used by the server or the game.

use std::time::Duration;

/// How late a "lost" chunk of a TCP stream arrives by default: a retransmission after the
/// Linux minimum retransmission timeout (200 ms) plus a little.
pub const RETRANSMIT_DELAY: Duration = Duration::from_millis(220);

/// Packet loss, in bursts (see the module docs for what it means on each kind of proxy).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Loss {
    /// Long-run share of chunks (or datagrams) lost, 0.0..=1.0.
    pub probability: f64,
    /// Longest burst: each loss event takes 1 to this many chunks in a row (uniformly).
    pub burst: u32,
    /// TCP only: how much later a lost chunk is delivered (its retransmission).
    pub retransmit: Duration,
}

impl Loss {
    /// No loss.
    pub const NONE: Loss = Loss {
        probability: 0.0,
        burst: 1,
        retransmit: RETRANSMIT_DELAY,
    };

    /// Loss with probability `p` in bursts of up to `burst`, retransmitted after
    /// [`RETRANSMIT_DELAY`].
    pub fn bursts(p: f64, burst: u32) -> Loss {
        Loss {
            probability: p.clamp(0.0, 1.0),
            burst: burst.max(1),
            retransmit: RETRANSMIT_DELAY,
        }
    }

    /// Whether any chunk is ever lost.
    pub fn is_none(&self) -> bool {
        self.probability <= 0.0
    }
}

impl Default for Loss {
    fn default() -> Self {
        Loss::NONE
    }
}

/// The loss a running proxy applies, shared by all its connections and changeable while it
/// runs ([`crate::delay_proxy::Proxy::set_loss`]): e.g. a load test starts lossless and turns loss on for its
/// measurement window.
#[derive(Clone, Debug, Default)]
pub struct LossSwitch(std::sync::Arc<std::sync::Mutex<Loss>>);

impl LossSwitch {
    /// A switch set to `loss`.
    pub fn new(loss: Loss) -> LossSwitch {
        LossSwitch(std::sync::Arc::new(std::sync::Mutex::new(loss)))
    }

    /// The loss in force.
    pub fn get(&self) -> Loss {
        *self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Sets the loss from now on.
    pub fn set(&self, loss: Loss) {
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = loss;
    }
}

/// One direction's random delay and loss: a small deterministic generator per direction, so a
/// run is reproducible from its seed.
#[derive(Clone, Debug)]
pub struct Impairment {
    rng: u64,
    min_delay: Duration,
    /// Microseconds of spread above `min_delay`, plus one.
    spread: u64,
    loss: Loss,
    /// Chunks still to lose in the current burst.
    burst_left: u32,
}

impl Impairment {
    /// A generator for one direction of `config`, seeded with `seed`.
    pub fn new(config: &ProxyConfig, seed: u64) -> Impairment {
        Impairment {
            rng: seed,
            min_delay: config.min_delay,
            spread: config
                .max_delay
                .saturating_sub(config.min_delay)
                .as_micros() as u64
                + 1,
            loss: config.loss,
            burst_left: 0,
        }
    }

    fn next(&mut self) -> u64 {
        self.rng = splitmix(self.rng);
        self.rng
    }

    /// Changes the loss from the next chunk on.
    pub fn set_loss(&mut self, loss: Loss) {
        if loss != self.loss {
            self.loss = loss;
            self.burst_left = 0;
        }
    }

    /// The one-way delay for the next chunk.
    pub fn delay(&mut self) -> Duration {
        self.min_delay + Duration::from_micros(self.next() % self.spread)
    }

    /// Whether the next chunk (or datagram) is lost.
    pub fn lost(&mut self) -> bool {
        if self.burst_left > 0 {
            self.burst_left -= 1;
            return true;
        }
        if self.loss.is_none() {
            return false;
        }
        let burst = u64::from(self.loss.burst.max(1));
        let mean = (burst + 1) as f64 / 2.0;
        let start = (self.loss.probability / mean).min(1.0);
        let draw = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        if draw >= start {
            return false;
        }
        let len = 1 + self.next() % burst;
        self.burst_left = (len - 1) as u32;
        true
    }
}

/// How much delay (and loss) the proxy adds, each way.
#[derive(Clone, Copy, Debug)]
pub struct ProxyConfig {
    /// Least delay per direction.
    pub min_delay: Duration,
    /// Most delay per direction.
    pub max_delay: Duration,
    /// Seed of the jitter.
    pub seed: u64,
    /// Chunks lost (TCP: delivered late, see the module docs).
    pub loss: Loss,
}

impl ProxyConfig {
    /// `latency ± jitter` each way (so the round trip is about twice `latency`), never below 0.
    pub fn latency(latency: Duration, jitter: Duration, seed: u64) -> ProxyConfig {
        ProxyConfig {
            min_delay: latency.saturating_sub(jitter),
            max_delay: latency + jitter,
            seed,
            loss: Loss::NONE,
        }
    }

    /// The same with `loss`.
    pub fn with_loss(self, loss: Loss) -> ProxyConfig {
        ProxyConfig { loss, ..self }
    }
}

impl Default for ProxyConfig {
    fn default() -> Self {
        ProxyConfig {
            min_delay: Duration::from_millis(50),
            max_delay: Duration::from_millis(150),
            seed: 1,
            loss: Loss::NONE,
        }
    }
}

pub(crate) fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn share_lost(loss: Loss, n: u32) -> (f64, u32) {
        let config = ProxyConfig::default().with_loss(loss);
        let mut link = Impairment::new(&config, 7);
        let (mut lost, mut run, mut longest) = (0u32, 0u32, 0u32);
        for _ in 0..n {
            if link.lost() {
                lost += 1;
                run += 1;
                longest = longest.max(run);
            } else {
                run = 0;
            }
        }
        (f64::from(lost) / f64::from(n), longest)
    }

    #[test]
    fn no_loss_loses_nothing() {
        assert_eq!(share_lost(Loss::NONE, 10_000).0, 0.0);
    }

    #[test]
    fn the_share_lost_is_the_probability_whatever_the_burst() {
        for burst in [1, 3, 5] {
            let (share, longest) = share_lost(Loss::bursts(0.05, burst), 200_000);
            assert!((share - 0.05).abs() < 0.005, "burst {burst}: {share}");
            assert!(longest >= burst, "burst {burst}: longest run {longest}");
        }
    }

    #[test]
    fn bursts_are_at_most_their_length_apart_from_chance_meetings() {
        // With a low probability two bursts almost never touch: runs stay within the burst.
        let (_, longest) = share_lost(Loss::bursts(0.001, 3), 100_000);
        assert!(longest <= 3, "{longest}");
    }
}
