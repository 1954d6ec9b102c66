//! One step of the compact uplink form of `Inputs`, [`crate::ClientMessage::InputsSince`]: a key
//! change counted from the previous inputs message's confirmation. Why the form exists and how
//! the two ends turn it back into `Inputs` is [`crate::packing`].

use serde::{Deserialize, Serialize};
use sevenbag_core::Input;

/// One key change in an [`crate::ClientMessage::InputsSince`]: `input` from frame `base + after` on,
/// where `base` is the previous inputs message's confirmation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct InputStep {
    /// Frames after the base.
    pub after: u32,
    /// Keys held from that frame on.
    pub input: Input,
}
