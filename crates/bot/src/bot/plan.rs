//! A plan: the key masks of one piece and the state expected before each, compiled from the
//! best reachable ranked placement and paced to the speed cap.

use sevenbag_core::{Board, Input, Piece, PieceKind, Player, Rules};

use super::Bot;
use crate::inputs::{CompileOptions, Target, compile};
use crate::movegen::Placement;
use crate::sim::{PlayerSim, Sim};

/// What the driver can see of a player, compared frame by frame against the plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Snapshot {
    pub(super) active: Option<Piece>,
    pub(super) hold: Option<PieceKind>,
    pub(super) hold_used: bool,
    pub(super) previous: Input,
    pub(super) board: Board,
}

impl Snapshot {
    pub(super) fn of(p: &Player) -> Snapshot {
        Snapshot {
            active: p.active(),
            hold: p.hold(),
            hold_used: p.hold_used(),
            previous: p.last_input(),
            board: *p.board(),
        }
    }
}

/// The inputs of one piece, from the frame `start` on, with the state expected before each.
#[derive(Clone, Debug)]
pub(super) struct Plan {
    pub(super) start: u32,
    pub(super) inputs: Vec<Input>,
    pub(super) expect: Vec<Snapshot>,
    pub(super) placement: Option<Placement>,
}

impl Bot {
    pub(super) fn make_plan(
        &mut self,
        player: &Player,
        rules: &Rules,
        frame: u32,
        ranked: &[Placement],
    ) -> Plan {
        self.stats.plans += 1;
        let sim = PlayerSim::new(player, rules, frame);
        let since_spawn = self.spawn_frame.map_or(0, |f| frame.saturating_sub(f));
        let min_frames = self
            .config
            .min_frames_per_piece()
            .saturating_sub(since_spawn);
        // A perfect-clear placement comes first; the beam search's follow if there is none or
        // it cannot be reached (see `think`).
        for placement in ranked {
            let target = Target::from(placement);
            let Some(mut inputs) = compile(&sim, &target, CompileOptions::default()) else {
                self.stats.compile_failures += 1;
                continue;
            };
            // Pace to the speed cap; a wait can absorb a release frame, so top up once or twice.
            let mut wait = 0;
            for _ in 0..3 {
                let short = min_frames.saturating_sub(inputs.len() as u32);
                if short == 0 {
                    break;
                }
                wait += short;
                let paced = CompileOptions {
                    wait,
                    ..CompileOptions::default()
                };
                match compile(&sim, &target, paced) {
                    Some(slower) if slower.len() > inputs.len() => inputs = slower,
                    _ => break,
                }
            }
            return Plan::new(&sim, frame, inputs, Some(*placement));
        }
        // Nothing compiles: release everything for a frame, then hard drop.
        self.stats.fallbacks += 1;
        let inputs = if sim.previous().contains(Input::HARD_DROP) {
            vec![Input::NONE, Input::HARD_DROP]
        } else {
            vec![Input::HARD_DROP]
        };
        Plan::new(&sim, frame, inputs, None)
    }
}

impl Plan {
    /// Records the snapshot before each frame by replaying the inputs on a copy.
    fn new(sim: &PlayerSim, start: u32, inputs: Vec<Input>, placement: Option<Placement>) -> Plan {
        let mut sim = sim.clone();
        let mut expect = Vec::with_capacity(inputs.len());
        for &input in &inputs {
            expect.push(Snapshot::of(&sim.player));
            sim.step(input);
        }
        Plan {
            start,
            inputs,
            expect,
            placement,
        }
    }
}
