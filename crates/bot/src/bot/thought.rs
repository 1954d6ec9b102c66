//! Thinking: a position's key, the planner's answer for it, and the thought in progress that
//! runs the perfect-clear search, the opener and the beam search in turn, a slice at a time.

use sevenbag_core::{Board, PieceKind, Player, Rules};

use super::{Bot, CANDIDATES};
use crate::inputs::{CompileOptions, Target, compile};
use crate::movegen::Placement;
use crate::pc_odds::Odds;
use crate::search::Progress;
use crate::sim::PlayerSim;

/// The first-bag opener's expectimax nodes in a unit of [`Bot::think_more`]'s work: a node
/// costs about a sixteenth of the other searches' steps (a move generation), so slices of the
/// same work take about the same time in every search.
const OPENER_NODES_A_UNIT: u32 = 16;

/// Which position a [`Thought`] is about: everything that decides which placements exist and
/// where the pieces come from (not the exact spot of the falling piece, which only the compiler
/// needs, and it reads the current state).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionKey {
    board: Board,
    active: Option<PieceKind>,
    hold: Option<PieceKind>,
    hold_used: bool,
    next: Vec<PieceKind>,
    pieces: u32,
}

impl PositionKey {
    /// The key of `player`'s position now.
    pub fn of(player: &Player) -> PositionKey {
        PositionKey {
            board: *player.board(),
            active: player.active().map(|p| p.kind),
            hold: player.hold(),
            hold_used: player.hold_used(),
            next: player.next().to_vec(),
            pieces: player.stats().pieces,
        }
    }
}

/// The planner's answer for one position: placements, best first, for [`Bot::adopt`].
#[derive(Clone, Debug)]
pub struct Thought {
    pub(super) key: PositionKey,
    pub(super) ranked: Vec<Placement>,
    pub(super) nodes: u64,
    pub(super) placements: u64,
}

impl Thought {
    /// A thought about `player`'s position from placements ranked elsewhere (another bot, such
    /// as a TBP bot), best first.
    pub fn from_placements(player: &Player, ranked: Vec<Placement>) -> Thought {
        Thought {
            key: PositionKey::of(player),
            ranked,
            nodes: 0,
            placements: 0,
        }
    }

    /// The position this thought is about.
    pub fn key(&self) -> &PositionKey {
        &self.key
    }

    /// The placements, best first.
    pub fn ranked(&self) -> &[Placement] {
        &self.ranked
    }
}

/// A thought in progress: the position it is about and how far it got.
#[derive(Clone, Debug)]
pub(super) struct Thinking {
    key: PositionKey,
    player: Player,
    rules: Rules,
    frame: u32,
    /// Search nodes and placements so far, for the thought's counters.
    nodes: u64,
    placements: u64,
    stage: Stage,
    /// Whether the beam search was started.
    search_started: bool,
}

/// Which search a thought is in.
#[derive(Clone, Debug)]
enum Stage {
    /// The perfect-clear search (Max).
    PerfectClear,
    /// The first-bag opener (Max), when the perfect-clear search found nothing.
    Opener,
    /// The beam search, after the perfect-clear placement found, if any (it was unreachable).
    Search(Vec<Placement>),
    /// The odds of a perfect clear beyond the queue (Max, on a low board), weighing the beam
    /// search's ranked placements.
    Odds(Vec<Placement>, Box<Odds>),
}

impl Thinking {
    fn into_thought(self, ranked: Vec<Placement>) -> Thought {
        Thought {
            key: self.key,
            ranked,
            nodes: self.nodes,
            placements: self.placements,
        }
    }
}

impl Bot {
    /// The expensive half: ranks the placements for `player`'s position (on Max the
    /// perfect-clear search first, then in the first bag the opener, then the beam search unless
    /// one of those found a reachable placement).
    /// Deterministic: the same position, on a bot of the same level that saw the same earlier
    /// positions (for 7-bag deduction), gets the same thought. Its search nodes join
    /// [`Bot::stats`] of the bot that adopts it.
    pub fn think(&mut self, player: &Player, rules: &Rules, frame: u32) -> Thought {
        self.begin_think(player, rules, frame);
        loop {
            if let Some(thought) = self.think_more(u32::MAX) {
                return thought;
            }
        }
    }

    /// Starts thinking about `player`'s position, dropping any unfinished thought; call
    /// [`Bot::think_more`] until it answers. Where there are no threads (a browser page) this
    /// spreads [`Bot::think`] over frames: the thought is the same however it is sliced.
    pub fn begin_think(&mut self, player: &Player, rules: &Rules, frame: u32) {
        let stage = if self.start_perfect_clear(player, rules, frame) {
            Stage::PerfectClear
        } else {
            Stage::Search(Vec::new())
        };
        self.thinking = Some(Box::new(Thinking {
            key: PositionKey::of(player),
            player: *player,
            rules: *rules,
            frame,
            nodes: 0,
            placements: 0,
            stage,
            search_started: false,
        }));
    }

    /// Which search the unfinished thought is in ("perfect clear", "opener", "beam search" or
    /// "odds"), for tools that time its slices; `None` when no thought is under way.
    pub fn thinking_stage(&self) -> Option<&'static str> {
        Some(match self.thinking.as_ref()?.stage {
            Stage::PerfectClear => "perfect clear",
            Stage::Opener => "opener",
            Stage::Search(_) => "beam search",
            Stage::Odds(..) => "odds",
        })
    }

    /// Whether the unfinished thought (if any) is about `player`'s position as it is now.
    pub fn is_thinking_about(&self, player: &Player) -> bool {
        self.thinking
            .as_ref()
            .is_some_and(|t| t.key == PositionKey::of(player))
    }

    /// Goes on with the thought begun by [`Bot::begin_think`] for about `work` more steps of
    /// its searches (each about a move generation's cost: a move generation of the
    /// perfect-clear search, a step of the beam search, a few nodes of the opener): the thought
    /// once it is ready. `None` also when no thought was begun.
    pub fn think_more(&mut self, work: u32) -> Option<Thought> {
        let mut t = self.thinking.take()?;
        loop {
            match &mut t.stage {
                Stage::PerfectClear => {
                    let Some(pc) = self.pc.as_mut() else {
                        t.stage = Stage::Search(Vec::new());
                        continue;
                    };
                    let Progress::Done(found) = pc.resume(work) else {
                        self.thinking = Some(t);
                        return None;
                    };
                    t.nodes += pc.expanded;
                    let ranked: Vec<Placement> = found.into_iter().collect();
                    let sim = PlayerSim::new(&t.player, &t.rules, t.frame);
                    let reachable = ranked.iter().any(|p| {
                        compile(&sim, &Target::from(p), CompileOptions::default()).is_some()
                    });
                    if reachable {
                        return Some(t.into_thought(ranked));
                    }
                    t.stage = if ranked.is_empty() && self.start_opener(&t.player, &t.rules) {
                        Stage::Opener
                    } else {
                        Stage::Search(ranked)
                    };
                    // A new stage starts in the next call: a caller slicing the thought looks
                    // at its clock between stages.
                    self.thinking = Some(t);
                    return None;
                }
                Stage::Opener => {
                    let Some((opener, book)) = self.opener.as_deref_mut() else {
                        t.stage = Stage::Search(Vec::new());
                        continue;
                    };
                    let nodes = work.saturating_mul(OPENER_NODES_A_UNIT);
                    let Progress::Done(found) = opener.resume(book, nodes) else {
                        self.thinking = Some(t);
                        return None;
                    };
                    t.nodes += u64::from(opener.expanded);
                    if let Some(p) =
                        found.and_then(|m| self.opener_placement(&t.player, &t.rules, t.frame, m))
                    {
                        return Some(t.into_thought(vec![p]));
                    }
                    t.stage = Stage::Search(Vec::new());
                    self.thinking = Some(t);
                    return None;
                }
                Stage::Search(ranked) => {
                    if !t.search_started {
                        t.search_started = true;
                        if let Some(now) = self.start_search(&t.player, &t.rules, t.frame) {
                            ranked.extend(now.into_iter().take(CANDIDATES));
                            let ranked = std::mem::take(ranked);
                            return Some(t.into_thought(ranked));
                        }
                        self.thinking = Some(t);
                        return None;
                    }
                    let Progress::Done(found) =
                        self.searcher.resume(&self.search_weights, work.into())
                    else {
                        self.thinking = Some(t);
                        return None;
                    };
                    t.nodes += self.searcher.expanded;
                    t.placements += self.searcher.generated;
                    ranked.extend(found.into_iter().map(|c| c.placement).take(CANDIDATES));
                    let ranked = std::mem::take(ranked);
                    if let Some(odds) = self.start_odds(&t.player, &t.rules, &ranked) {
                        t.stage = Stage::Odds(ranked, Box::new(odds));
                        self.thinking = Some(t);
                        return None;
                    }
                    return Some(t.into_thought(ranked));
                }
                Stage::Odds(ranked, odds) => {
                    let Some(pc) = self.pc.as_mut() else {
                        let ranked = std::mem::take(ranked);
                        return Some(t.into_thought(ranked));
                    };
                    let Progress::Done(first) = odds.resume(pc, work) else {
                        self.thinking = Some(t);
                        return None;
                    };
                    t.nodes += odds.expanded;
                    let mut ranked = std::mem::take(ranked);
                    ranked[..=first].rotate_right(1);
                    return Some(t.into_thought(ranked));
                }
            }
        }
    }
}
