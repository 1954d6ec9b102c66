//! Packing `Inputs` into their compact uplink form, [`ClientMessage::InputsSince`] (made of
//! [`InputStep`]s), and unpacking it again.
//!
//! An `Inputs` message carries absolute frame numbers, which bincode's varints spend three bytes
//! on past frame 250 (five past frame 65,535), twice or more per message: about 9 bytes of
//! payload for one key change. A client sends one such message every few frames, so those bytes
//! were most of its uplink (about 330 B/s per player, against a budget of 300).
//!
//! `InputsSince` says the same thing relative to the confirmation of the previous inputs message
//! **on the same connection** (`Inputs` or `InputsSince`): every number is a small offset, one
//! byte each, so one change costs 5 bytes of payload. It is a pure re-encoding: both ends keep
//! the same one number (the last confirmation sent / received), the [`InputsPacker`] on the
//! client and the [`InputsUnpacker`] on the server, and the server turns every `InputsSince`
//! back into the `Inputs` it stands for before anything else looks at it, so every check on
//! inputs (order, rewrites, the match clock, sizes) is unchanged. A client may always send
//! plain `Inputs` (the packer does whenever the offsets would be negative, such as the first
//! batch of a new match); `InputsSince` before any inputs message on a connection is refused.
//! Relayed inputs (server to client) stay `Inputs`.
//!
//! Rooms of several seats do the same with [`ClientMessage::BattleInputs`] and
//! [`ClientMessage::BattleInputsSince`] (key and target changes, one confirmation): their own
//! number on each end, the confirmation of the previous `BattleInputs` on the connection.
//! With no target changes in the batch (the usual case) the client sends
//! [`ClientMessage::BattleKeysSince`], the same without the empty target list, so a player of
//! a big room sends what a two-seat player does.

use crate::battle::TargetChange;
use crate::compact::InputStep;
use crate::gathered::TargetStep;
use crate::messages::{ClientMessage, InputChange};

/// Why an [`ClientMessage::InputsSince`] could not be read back as `Inputs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CompactError {
    /// `InputsSince` before any inputs message on this connection: nothing to count from.
    #[error("InputsSince or BattleInputsSince before any inputs on this connection")]
    NoBase,
    /// An offset past the largest frame number.
    #[error("InputsSince or BattleInputsSince offset overflows the frame number")]
    Overflow,
}

/// The client's side: turns `Inputs` into `InputsSince` where it can. One per connection, fed
/// every message in the order they are sent.
#[derive(Clone, Copy, Debug, Default)]
pub struct InputsPacker {
    /// The confirmation of the last inputs message sent on this connection.
    base: Option<u32>,
    /// The confirmation of the last `BattleInputs` sent on this connection.
    battle: Option<u32>,
}

impl InputsPacker {
    /// A packer for a new connection.
    pub fn new() -> InputsPacker {
        InputsPacker::default()
    }

    /// The message to send for `message`: an `Inputs` becomes `InputsSince` when every frame in
    /// it is at or after the previous confirmation; anything else passes unchanged.
    pub fn pack(&mut self, message: ClientMessage) -> ClientMessage {
        if let ClientMessage::InputsFrom { confirmed, .. } = &message {
            // A catch-up says where the inputs stand, for both ends alike.
            self.base = Some(*confirmed);
            return message;
        }
        if let ClientMessage::BattleInputs {
            changes,
            targets,
            confirmed,
        } = message
        {
            return self.pack_battle(changes, targets, confirmed);
        }
        let ClientMessage::Inputs { changes, confirmed } = message else {
            return message;
        };
        let base = self.base.replace(confirmed);
        match base {
            Some(base) if confirmed >= base && changes.iter().all(|c| c.frame >= base) => {
                ClientMessage::InputsSince {
                    steps: changes
                        .iter()
                        .map(|c| InputStep {
                            after: c.frame - base,
                            input: c.input,
                        })
                        .collect(),
                    frames: confirmed - base,
                }
            }
            _ => ClientMessage::Inputs { changes, confirmed },
        }
    }

    /// `BattleInputs` as `BattleInputsSince` when every frame in it is at or after the previous
    /// battle confirmation.
    fn pack_battle(
        &mut self,
        changes: Vec<InputChange>,
        targets: Vec<TargetChange>,
        confirmed: u32,
    ) -> ClientMessage {
        match self.battle.replace(confirmed) {
            Some(base)
                if confirmed >= base
                    && changes.iter().all(|c| c.frame >= base)
                    && targets.iter().all(|t| t.frame >= base) =>
            {
                let steps = changes
                    .iter()
                    .map(|c| InputStep {
                        after: c.frame - base,
                        input: c.input,
                    })
                    .collect();
                if targets.is_empty() {
                    return ClientMessage::BattleKeysSince {
                        steps,
                        frames: confirmed - base,
                    };
                }
                ClientMessage::BattleInputsSince {
                    steps,
                    frames: confirmed - base,
                    targets: targets
                        .iter()
                        .map(|t| TargetStep {
                            after: t.frame - base,
                            target: t.target,
                        })
                        .collect(),
                }
            }
            _ => ClientMessage::BattleInputs {
                changes,
                targets,
                confirmed,
            },
        }
    }
}

/// The server's side: turns `InputsSince` back into the `Inputs` it stands for. One per
/// connection, fed every message in the order they arrive.
#[derive(Clone, Copy, Debug, Default)]
pub struct InputsUnpacker {
    /// The confirmation of the last inputs message received on this connection.
    base: Option<u32>,
    /// The confirmation of the last `BattleInputs` received on this connection.
    battle: Option<u32>,
}

impl InputsUnpacker {
    /// An unpacker for a new connection.
    pub fn new() -> InputsUnpacker {
        InputsUnpacker::default()
    }

    /// `message` with any `InputsSince` rewritten as `Inputs`; other messages pass unchanged.
    pub fn unpack(&mut self, message: ClientMessage) -> Result<ClientMessage, CompactError> {
        match message {
            ClientMessage::Inputs { changes, confirmed } => {
                self.base = Some(confirmed);
                Ok(ClientMessage::Inputs { changes, confirmed })
            }
            ClientMessage::InputsSince { steps, frames } => {
                let base = self.base.ok_or(CompactError::NoBase)?;
                let confirmed = base.checked_add(frames).ok_or(CompactError::Overflow)?;
                let changes = steps
                    .iter()
                    .map(|s| {
                        Some(InputChange {
                            frame: base.checked_add(s.after)?,
                            input: s.input,
                        })
                    })
                    .collect::<Option<Vec<_>>>()
                    .ok_or(CompactError::Overflow)?;
                self.base = Some(confirmed);
                Ok(ClientMessage::Inputs { changes, confirmed })
            }
            ClientMessage::InputsFrom {
                from,
                changes,
                confirmed,
            } => {
                self.base = Some(confirmed);
                Ok(ClientMessage::InputsFrom {
                    from,
                    changes,
                    confirmed,
                })
            }
            ClientMessage::BattleInputs {
                changes,
                targets,
                confirmed,
            } => {
                self.battle = Some(confirmed);
                Ok(ClientMessage::BattleInputs {
                    changes,
                    targets,
                    confirmed,
                })
            }
            ClientMessage::BattleKeysSince { steps, frames } => {
                self.unpack(ClientMessage::BattleInputsSince {
                    steps,
                    frames,
                    targets: Vec::new(),
                })
            }
            ClientMessage::BattleInputsSince {
                steps,
                frames,
                targets,
            } => {
                let base = self.battle.ok_or(CompactError::NoBase)?;
                let confirmed = base.checked_add(frames).ok_or(CompactError::Overflow)?;
                let at = |after: u32| base.checked_add(after).ok_or(CompactError::Overflow);
                let changes = steps
                    .iter()
                    .map(|s| {
                        Ok(InputChange {
                            frame: at(s.after)?,
                            input: s.input,
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                let targets = targets
                    .iter()
                    .map(|t| {
                        Ok(TargetChange {
                            frame: at(t.after)?,
                            target: t.target,
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                self.battle = Some(confirmed);
                Ok(ClientMessage::BattleInputs {
                    changes,
                    targets,
                    confirmed,
                })
            }
            other => Ok(other),
        }
    }
}

#[cfg(test)]
mod tests {
    use sevenbag_core::Input;

    use super::*;

    fn inputs(changes: &[(u32, u8)], confirmed: u32) -> ClientMessage {
        ClientMessage::Inputs {
            changes: changes
                .iter()
                .map(|&(frame, m)| InputChange {
                    frame,
                    input: Input(m),
                })
                .collect(),
            confirmed,
        }
    }

    /// Packs and unpacks `sent` in order on one connection: every message comes back as it was
    /// sent, and a compact one is no larger than the plain; returns how many were compact.
    fn pack_and_unpack(sent: &[ClientMessage], compact: fn(&ClientMessage) -> bool) -> usize {
        let mut packer = InputsPacker::new();
        let mut unpacker = InputsUnpacker::new();
        let mut count = 0;
        for message in sent {
            let packed = packer.pack(message.clone());
            if compact(&packed) {
                count += 1;
                let plain = crate::encode(message).unwrap().len();
                let small = crate::encode(&packed).unwrap().len();
                assert!(small <= plain, "{small} > {plain} for {message:?}");
            }
            assert_eq!(&unpacker.unpack(packed).unwrap(), message);
        }
        count
    }

    #[test]
    fn packed_inputs_unpack_to_the_same_inputs_and_are_smaller() {
        let sent = [
            inputs(&[(0, 1)], 4),
            inputs(&[], 8),
            inputs(&[(9, 2), (11, 0)], 12),
            inputs(&[(70_000, 3)], 70_004),
            inputs(&[(70_004, 1)], 70_006),
            // A new match on the same connection: back to frame 0, sent plain.
            inputs(&[(0, 4)], 2),
            inputs(&[(3, 0)], 5),
        ];
        let compact = pack_and_unpack(&sent, |m| matches!(m, ClientMessage::InputsSince { .. }));
        assert_eq!(compact, 5);
    }

    #[test]
    fn one_change_packs_into_five_bytes() {
        let mut packer = InputsPacker::new();
        packer.pack(inputs(&[], 1_000));
        let packed = packer.pack(inputs(&[(1_001, 1)], 1_004));
        assert_eq!(crate::encode(&packed).unwrap().len(), 5);
    }

    #[test]
    fn inputs_since_without_a_base_or_past_the_last_frame_is_refused() {
        let since = |after: u32, frames: u32| ClientMessage::InputsSince {
            steps: vec![InputStep {
                after,
                input: Input(1),
            }],
            frames,
        };
        let mut fresh = InputsUnpacker::new();
        assert_eq!(fresh.unpack(since(0, 1)), Err(CompactError::NoBase));
        let mut late = InputsUnpacker::new();
        late.unpack(inputs(&[], u32::MAX - 1)).unwrap();
        assert_eq!(late.unpack(since(0, 5)), Err(CompactError::Overflow));
        assert_eq!(late.unpack(since(5, 1)), Err(CompactError::Overflow));
    }

    fn battle(
        changes: &[(u32, u8)],
        targets: &[(u32, Option<u8>)],
        confirmed: u32,
    ) -> ClientMessage {
        let ClientMessage::Inputs { changes, .. } = inputs(changes, confirmed) else {
            unreachable!()
        };
        ClientMessage::BattleInputs {
            changes,
            targets: targets
                .iter()
                .map(|&(frame, target)| TargetChange { frame, target })
                .collect(),
            confirmed,
        }
    }

    #[test]
    fn packed_battle_inputs_unpack_to_the_same_inputs_and_are_smaller() {
        let sent = [
            battle(&[(0, 1)], &[], 4),
            battle(&[], &[(5, Some(3))], 8),
            // Two-seat inputs on the same connection keep their own base.
            inputs(&[(0, 1)], 2),
            battle(&[(9, 2), (11, 0)], &[(10, None)], 12),
            battle(&[(70_000, 3)], &[], 70_004),
            battle(&[], &[], 70_006),
            // A new match: back to frame 0, sent plain.
            battle(&[(0, 4)], &[], 2),
            battle(&[(3, 0)], &[], 5),
        ];
        let compact = pack_and_unpack(&sent, |m| {
            matches!(
                m,
                ClientMessage::BattleInputsSince { .. } | ClientMessage::BattleKeysSince { .. }
            )
        });
        assert_eq!(compact, 5);
    }

    #[test]
    fn battle_inputs_without_target_changes_pack_without_a_target_list() {
        let mut packer = InputsPacker::new();
        packer.pack(battle(&[], &[], 1_000));
        let keys = packer.pack(battle(&[(1_001, 1)], &[], 1_004));
        assert!(matches!(keys, ClientMessage::BattleKeysSince { .. }));
        let targets = packer.pack(battle(&[], &[(1_005, Some(2))], 1_008));
        assert!(matches!(targets, ClientMessage::BattleInputsSince { .. }));
    }

    #[test]
    fn one_battle_change_packs_into_five_bytes_as_in_a_two_seat_room() {
        let mut packer = InputsPacker::new();
        packer.pack(battle(&[], &[], 1_000));
        let packed = packer.pack(battle(&[(1_001, 1)], &[], 1_004));
        assert_eq!(crate::encode(&packed).unwrap().len(), 5);
        let mut two_seat = InputsPacker::new();
        two_seat.pack(inputs(&[], 1_000));
        let packed = two_seat.pack(inputs(&[(1_001, 1)], 1_004));
        assert_eq!(crate::encode(&packed).unwrap().len(), 5);
    }

    #[test]
    fn battle_inputs_since_without_a_base_or_past_the_last_frame_is_refused() {
        let since = |after: u32, frames: u32, target: u32| ClientMessage::BattleInputsSince {
            steps: vec![InputStep {
                after,
                input: Input(1),
            }],
            frames,
            targets: vec![TargetStep {
                after: target,
                target: Some(1),
            }],
        };
        let mut fresh = InputsUnpacker::new();
        assert_eq!(fresh.unpack(since(0, 1, 0)), Err(CompactError::NoBase));
        // A two-seat base is not a battle base.
        fresh.unpack(inputs(&[], 10)).unwrap();
        assert_eq!(fresh.unpack(since(0, 1, 0)), Err(CompactError::NoBase));
        let mut late = InputsUnpacker::new();
        late.unpack(battle(&[], &[], u32::MAX - 1)).unwrap();
        assert_eq!(late.unpack(since(0, 5, 0)), Err(CompactError::Overflow));
        assert_eq!(late.unpack(since(5, 1, 0)), Err(CompactError::Overflow));
        assert_eq!(late.unpack(since(0, 1, 5)), Err(CompactError::Overflow));
    }

    #[test]
    fn battle_keys_since_without_a_base_or_past_the_last_frame_is_refused() {
        let keys = |after: u32, frames: u32| ClientMessage::BattleKeysSince {
            steps: vec![InputStep {
                after,
                input: Input(1),
            }],
            frames,
        };
        let mut fresh = InputsUnpacker::new();
        assert_eq!(fresh.unpack(keys(0, 1)), Err(CompactError::NoBase));
        fresh.unpack(inputs(&[], 10)).unwrap();
        assert_eq!(fresh.unpack(keys(0, 1)), Err(CompactError::NoBase));
        let mut late = InputsUnpacker::new();
        late.unpack(battle(&[], &[], u32::MAX - 1)).unwrap();
        assert_eq!(late.unpack(keys(0, 5)), Err(CompactError::Overflow));
        assert_eq!(late.unpack(keys(5, 1)), Err(CompactError::Overflow));
        let mut ok = InputsUnpacker::new();
        ok.unpack(battle(&[], &[], 100)).unwrap();
        assert_eq!(
            ok.unpack(keys(2, 4)).unwrap(),
            battle(&[(102, 1)], &[], 104)
        );
    }

    #[test]
    fn unsorted_battle_steps_unpack_unsorted_for_the_usual_checks_to_refuse() {
        let mut unpacker = InputsUnpacker::new();
        unpacker.unpack(battle(&[], &[], 100)).unwrap();
        let backwards = ClientMessage::BattleInputsSince {
            steps: vec![
                InputStep {
                    after: 3,
                    input: Input(1),
                },
                InputStep {
                    after: 1,
                    input: Input(0),
                },
            ],
            frames: 4,
            targets: Vec::new(),
        };
        assert_eq!(
            unpacker.unpack(backwards).unwrap(),
            battle(&[(103, 1), (101, 0)], &[], 104)
        );
    }
}
