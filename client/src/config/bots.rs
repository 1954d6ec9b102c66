//! The outside bots the settings file lists (`[[bots]]`): programs that speak TBP, offered as
//! practice opponents (`crate::opponent` starts them).

use serde::{Deserialize, Serialize};

/// The most outside bots the settings file may list.
pub const MAX_OUTSIDE_BOTS: usize = 16;

/// An outside bot that speaks TBP (Cold Clear 2 and others), listed in the settings file as
/// `[[bots]]` with a `name` and a `command`; docs/CLIENT.md.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutsideBot {
    /// Its name in the opponent list.
    pub name: String,
    /// The command line that starts it (split on spaces; quotes group words).
    pub command: String,
    /// Thinking time per piece, in milliseconds.
    #[serde(default = "OutsideBot::default_think_ms")]
    pub think_ms: u32,
    /// Pieces per second at most.
    #[serde(default = "OutsideBot::default_pps")]
    pub pps: f64,
}

impl OutsideBot {
    fn default_think_ms() -> u32 {
        200
    }

    fn default_pps() -> f64 {
        2.0
    }

    /// Checks the entry: a name, a command, a think time up to 10 s, 0.1 to 30 pieces a second.
    pub fn validate(&self) -> Result<(), String> {
        if self.name.trim().is_empty() || self.name.chars().count() > 32 {
            return Err("the name must be 1 to 32 characters".to_owned());
        }
        if self.command.trim().is_empty() || self.command.len() > 1000 {
            return Err("the command must be 1 to 1000 bytes".to_owned());
        }
        if self.think_ms > 10_000 {
            return Err("think_ms is at most 10000".to_owned());
        }
        if !(0.1..=30.0).contains(&self.pps) {
            return Err("pps must be between 0.1 and 30".to_owned());
        }
        Ok(())
    }
}
