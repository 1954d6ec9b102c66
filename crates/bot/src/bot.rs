//! The driver: plans a placement when a piece appears, then hands out its key masks one frame
//! at a time, and plans again whenever the game is not where the plan expected.
//!
//! A plan is made on the frame a piece spawns (or at once, mid-piece, if the bot joins late or
//! the state diverged). The search ranks placements; the best one that the input compiler can
//! reach on a copy of the real [`Player`] becomes the plan, so the plan is exact for this
//! player's handling, gravity and lock delay. Each frame the driver checks the player against the
//! snapshot the plan predicted for that frame (piece, hold, board, last keys); any difference
//! (garbage rose, a frame was skipped, a rollback changed the past) throws the plan away.

use sevenbag_core::attack::Chain;
use sevenbag_core::{
    Board, Input, Match, Phase, Piece, PieceKind, Player, Randomizer, Rules, Seat,
};

use crate::bitboard::BitBoard;
use crate::eltetris;
use crate::eval::Weights;
use crate::inputs::{CompileOptions, Target, compile};
use crate::level::{BotConfig, Level, Planner};
use crate::movegen::{MoveGen, Placement, spawn_position};
use crate::opener::{Book, Opener, OpenerMove, OpenerQuery, piece_cells};
use crate::pc::{PcQuery, PcSearch};
use crate::search::{Incoming, MAX_INCOMING, Progress, Root, Searcher};
use crate::sim::{PlayerSim, Sim};

/// From this stack height, queued garbage counted, Max's beam search plays with
/// [`Weights::DEFENSIVE`]: the default weights shun plain clears, and after its opener took a
/// different turn Max once stacked a two-wide well to row 14 and topped out (botmatch seed 1015).
pub const DANGER_HEIGHT: i32 = 12;

/// Ranked placements tried by the compiler before the bot gives up and hard drops.
const CANDIDATES: usize = 16;

/// The piece after `seen[last]` when it is the last of its 7-bag and the bag's other six are
/// known: under a 7-bag every bag holds each kind once.
fn bag_tail(seen: &[Option<PieceKind>], last: usize) -> Option<PieceKind> {
    let bag = seen.get(last / 7 * 7..=last)?;
    if bag.len() == 6 && bag.iter().all(Option::is_some) {
        PieceKind::ALL
            .into_iter()
            .find(|k| !bag.contains(&Some(*k)))
    } else {
        None
    }
}

/// What the driver can see of a player, compared frame by frame against the plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Snapshot {
    active: Option<Piece>,
    hold: Option<PieceKind>,
    hold_used: bool,
    previous: Input,
    board: Board,
}

impl Snapshot {
    fn of(p: &Player) -> Snapshot {
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
struct Plan {
    start: u32,
    inputs: Vec<Input>,
    expect: Vec<Snapshot>,
    placement: Option<Placement>,
}

/// What [`Bot::drive`] decided for this frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drive {
    /// Hold these keys (the current plan's, or nothing).
    Input(Input),
    /// A new plan is needed: [`Bot::think`] about the position, then [`Bot::adopt`] the answer.
    Think,
}

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
    key: PositionKey,
    ranked: Vec<Placement>,
    nodes: u64,
    placements: u64,
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

/// Counters of the driver's work, for tools and benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BotStats {
    /// Plans made (one per piece, plus replans).
    pub plans: u64,
    /// Plans thrown away because the game was not where they expected.
    pub replans: u64,
    /// Ranked placements the compiler could not reach.
    pub compile_failures: u64,
    /// Plans that fell back to a plain hard drop.
    pub fallbacks: u64,
    /// Search nodes expanded.
    pub nodes: u64,
    /// Placements generated by move generation.
    pub placements: u64,
}

/// A bot that plays one seat through per-frame [`Input`] masks, like a person.
#[derive(Clone, Debug)]
pub struct Bot {
    config: BotConfig,
    weights: Weights,
    /// The weights of the beam search in progress.
    search_weights: Weights,
    searcher: Searcher,
    /// The perfect-clear search, when it is on.
    pc: Option<Box<PcSearch>>,
    /// The first-bag opener and its book, when it is on.
    opener: Option<Box<(Opener, &'static Book)>>,
    /// Every piece seen in the queue, by its index in the player's sequence (for 7-bag
    /// deduction).
    seen: Vec<Option<PieceKind>>,
    plan: Option<Plan>,
    /// The frame the current piece spawned on, for the speed cap.
    spawn_frame: Option<u32>,
    stats: BotStats,
    /// The thought in progress (see [`Bot::begin_think`]).
    thinking: Option<Box<Thinking>>,
}

/// A thought in progress: the position it is about and how far it got.
#[derive(Clone, Debug)]
struct Thinking {
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
    /// A bot playing at `level`.
    pub fn new(level: Level) -> Bot {
        Bot::with_config(level.config()).with_perfect_clears(level == Level::Max)
    }

    /// A bot with an explicit planner and speed cap.
    pub fn with_config(config: BotConfig) -> Bot {
        Bot {
            config,
            weights: config.weights,
            search_weights: config.weights,
            searcher: Searcher::new(),
            pc: None,
            opener: None,
            seen: Vec::new(),
            plan: None,
            spawn_frame: None,
            stats: BotStats::default(),
            thinking: None,
        }
    }

    /// The El-Tetris baseline (greedy, no hold), capped at `pps_cap_x100` pieces per second ×100.
    pub fn el_tetris(pps_cap_x100: Option<u32>) -> Bot {
        Bot::with_config(BotConfig {
            planner: Planner::ElTetris,
            weights: Weights::DEFAULT,
            pps_cap_x100,
        })
    }

    /// Turns the perfect-clear search on or off (on for [`Level::Max`]): on a low board the bot
    /// first looks for placements of the known pieces that empty the board within six rows
    /// (module [`crate::pc`]), and plays them when found. Search planners only. It also keeps
    /// the 7-bag memory that lets the beam search see the piece after the queue when it is the
    /// last of its bag (measured stronger at Max; the other levels keep their plain search), and
    /// turns on the first-bag opener ([`crate::opener`]): while no perfect clear is in sight in
    /// the first bag, it builds the book's setup that keeps a perfect clear possible for the
    /// most orders of the second bag.
    pub fn with_perfect_clears(mut self, on: bool) -> Bot {
        self.pc = on.then(|| Box::new(PcSearch::new()));
        self.opener = on.then(|| Box::new((Opener::new(), Book::first_bag())));
        self
    }

    /// Replaces the first-bag opener's book (`None` turns the opener off); the opener runs only
    /// with the perfect-clear search on.
    pub fn with_opener_book(mut self, book: Option<&'static Book>) -> Bot {
        self.opener = book.map(|b| Box::new((Opener::new(), b)));
        self
    }

    /// Replaces the evaluation weights (for tuning).
    pub fn with_weights(mut self, weights: Weights) -> Bot {
        self.weights = weights;
        self
    }

    /// The configuration this bot plays with.
    pub fn config(&self) -> &BotConfig {
        &self.config
    }

    /// Counters of the work done so far.
    pub fn stats(&self) -> &BotStats {
        &self.stats
    }

    /// The placement the current plan is heading for, if any.
    pub fn planned(&self) -> Option<Placement> {
        self.plan.as_ref().and_then(|p| p.placement)
    }

    /// The keys to hold on the next frame for `seat` of `m` (call once per simulated frame).
    pub fn next_input(&mut self, m: &Match, seat: Seat) -> Input {
        match self.drive(m, seat) {
            Drive::Input(input) => input,
            Drive::Think => self.plan_now(m.player(seat), &m.header().rules, m.frame().0),
        }
    }

    /// Same, for a lone Player (solo games): `frame` is the frame about to be simulated.
    pub fn next_input_for(&mut self, player: &Player, rules: &Rules, frame: u32) -> Input {
        match self.drive_for(player, frame) {
            Drive::Input(input) => input,
            Drive::Think => self.plan_now(player, rules, frame),
        }
    }

    /// Thinks and adopts the plan at once, on this thread.
    fn plan_now(&mut self, player: &Player, rules: &Rules, frame: u32) -> Input {
        let thought = self.think(player, rules, frame);
        self.adopt(player, rules, frame, &thought)
            .unwrap_or(Input::NONE)
    }

    /// The cheap half of [`Bot::next_input`]: the next key of the current plan while the game is
    /// where the plan expected, or [`Drive::Think`] when a new plan is needed. The expensive half
    /// is [`Bot::think`] (which may run on another thread, on another `Bot` of the same level),
    /// and its answer becomes the plan with [`Bot::adopt`].
    pub fn drive(&mut self, m: &Match, seat: Seat) -> Drive {
        let frame = m.frame().0;
        let playing = match m.phase() {
            Phase::Playing => true,
            Phase::Countdown { go_at } => frame >= go_at,
            Phase::RoundOver { .. } | Phase::MatchOver { .. } => false,
        };
        if !playing {
            self.plan = None;
            return Drive::Input(Input::NONE);
        }
        self.drive_for(m.player(seat), frame)
    }

    /// Same, for a lone Player: `frame` is the frame about to be simulated.
    pub fn drive_for(&mut self, player: &Player, frame: u32) -> Drive {
        if player.topped_out().is_some() {
            self.plan = None;
            return Drive::Input(Input::NONE);
        }
        if let Some(plan) = &self.plan
            && frame >= plan.start
            && let Some(i) = usize::try_from(frame - plan.start).ok()
            && i < plan.inputs.len()
        {
            if plan.expect[i] == Snapshot::of(player) {
                return Drive::Input(plan.inputs[i]);
            }
            self.stats.replans += 1;
        }
        self.plan = None;
        if player.active().is_none() {
            // The next piece spawns during this frame. Holding nothing now costs no time (it
            // releases the last piece's keys, which would need a release frame anyway) and next
            // frame the queue shows one more piece, so plan then.
            self.spawn_frame = Some(frame);
            return Drive::Input(Input::NONE);
        }
        Drive::Think
    }

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
        let stage = if self.start_perfect_clear(player, rules) {
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

    /// Whether the unfinished thought (if any) is about `player`'s position as it is now.
    pub fn is_thinking_about(&self, player: &Player) -> bool {
        self.thinking
            .as_ref()
            .is_some_and(|t| t.key == PositionKey::of(player))
    }

    /// Goes on with the thought begun by [`Bot::begin_think`] for about `work` more search
    /// nodes (move-generation calls of each search): the thought once it is ready. `None` also
    /// when no thought was begun.
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
                }
                Stage::Opener => {
                    let Some((opener, book)) = self.opener.as_deref_mut() else {
                        t.stage = Stage::Search(Vec::new());
                        continue;
                    };
                    let Progress::Done(found) = opener.resume(book, work) else {
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
                }
                Stage::Search(ranked) => {
                    if !t.search_started {
                        t.search_started = true;
                        if let Some(now) = self.start_search(&t.player, &t.rules, t.frame) {
                            ranked.extend(now.into_iter().take(CANDIDATES));
                            let ranked = std::mem::take(ranked);
                            return Some(t.into_thought(ranked));
                        }
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
                    return Some(t.into_thought(ranked));
                }
            }
        }
    }

    /// Makes `thought` the plan from `player`'s state on `frame` and returns this frame's keys,
    /// or `None` (and keeps no plan) if the thought is stale: it was for another position (a
    /// piece locked, garbage rose, the hold or the queue changed). The placements are compiled
    /// here, from the exact current state, so a thought that arrives some frames late (the piece
    /// fell a row meanwhile) still gives frame-exact keys; the frames spent waiting count
    /// towards the speed cap.
    pub fn adopt(
        &mut self,
        player: &Player,
        rules: &Rules,
        frame: u32,
        thought: &Thought,
    ) -> Option<Input> {
        if player.active().is_none() || thought.key != PositionKey::of(player) {
            return None;
        }
        self.stats.nodes += thought.nodes;
        self.stats.placements += thought.placements;
        let plan = self.make_plan(player, rules, frame, &thought.ranked);
        let input = plan.inputs[0];
        self.plan = Some(plan);
        Some(input)
    }

    /// Starts the beam search for the piece in play (or about to spawn), or returns the ranked
    /// placements at once when there is nothing to search (the El-Tetris planner, or no room to
    /// spawn).
    fn start_search(
        &mut self,
        player: &Player,
        rules: &Rules,
        frame: u32,
    ) -> Option<Vec<Placement>> {
        let board = BitBoard::from_board(player.board());
        let next = player.next();
        let (current, hold_allowed, queue) = match player.active() {
            Some(p) => (p, !player.hold_used(), next.to_vec()),
            None => match spawn_position(&board, next[0]) {
                Some(p) => (p, true, next[1..].to_vec()),
                None => return Some(Vec::new()),
            },
        };
        // Under a 7-bag the piece after the queue is known when it is the last of its bag and
        // the other six were seen (tracked on Max, with the perfect-clear search): the search
        // can then hold at the last depth.
        let mut queue = queue;
        if self.pc.is_some() && rules.randomizer == Randomizer::SevenBag {
            let index = player.stats().pieces as usize + usize::from(player.hold().is_some());
            queue.extend(bag_tail(&self.seen, index + queue.len()));
        }
        match self.config.planner {
            Planner::ElTetris => Some(eltetris::rank(&board, &current)),
            Planner::Search(budget) => {
                let per_piece = self.config.min_frames_per_piece().max(12);
                let incoming = player
                    .garbage()
                    .entries()
                    .iter()
                    .take(MAX_INCOMING)
                    .map(|e| Incoming {
                        lines: e.lines,
                        hole: e.hole as u8,
                        ready_after: e
                            .ready_at
                            .saturating_sub(frame)
                            .div_ceil(per_piece)
                            .min(255) as u8,
                    })
                    .collect();
                let danger = i32::from(board.max_height())
                    + player
                        .garbage()
                        .entries()
                        .iter()
                        .map(|e| i32::from(e.lines))
                        .sum::<i32>();
                self.search_weights = if self.pc.is_some() && danger >= DANGER_HEIGHT {
                    Weights::DEFENSIVE
                } else {
                    self.weights
                };
                let root = Root {
                    board,
                    current,
                    hold: player.hold(),
                    hold_allowed,
                    queue,
                    chain: Chain {
                        combo: player.combo(),
                        b2b: player.b2b(),
                    },
                    incoming,
                    allow_180: rules.allow_180,
                    garbage_cap: rules.garbage_cap,
                };
                self.searcher.start(root, budget);
                None
            }
        }
    }

    /// Notes the queue for 7-bag deduction and starts the perfect-clear search for the piece in
    /// play, if the search is on and the board is low enough; whether it started.
    fn start_perfect_clear(&mut self, player: &Player, rules: &Rules) -> bool {
        let Some(pc) = self.pc.as_mut() else {
            return false;
        };
        let board = BitBoard::from_board(player.board());
        let next = player.next();
        let (current, hold_allowed, queue) = match player.active() {
            Some(p) => (p, !player.hold_used(), &next[..]),
            None => match spawn_position(&board, next[0]) {
                Some(p) => (p, true, &next[1..]),
                None => return false,
            },
        };
        // Index of the current piece in the player's sequence: every piece placed, plus the one
        // in hold.
        let index = player.stats().pieces as usize + usize::from(player.hold().is_some());
        if index == 0 {
            self.seen.clear();
        }
        let mut sequence = vec![current.kind];
        sequence.extend_from_slice(queue);
        if self.seen.len() < index + sequence.len() {
            self.seen.resize(index + sequence.len(), None);
        }
        for (i, &k) in sequence.iter().enumerate() {
            self.seen[index + i] = Some(k);
        }
        if board.max_height() > crate::pc::MAX_LINES as i8 {
            return false;
        }
        // Under a 7-bag, the last piece of a bag is known once the other six have been seen.
        if rules.randomizer == Randomizer::SevenBag {
            sequence.extend(bag_tail(&self.seen, index + sequence.len() - 1));
        }
        pc.start(PcQuery {
            board,
            current,
            hold: player.hold(),
            hold_allowed,
            sequence,
            allow_180: rules.allow_180,
            chain: Chain {
                combo: player.combo(),
                b2b: player.b2b(),
            },
        });
        true
    }

    /// Starts the first-bag opener's decision for the piece in play, if the opener is on and
    /// the game is still in its first bag (whose order is known); whether it started.
    fn start_opener(&mut self, player: &Player, rules: &Rules) -> bool {
        let Some((opener, book)) = self.opener.as_deref_mut() else {
            return false;
        };
        let index = player.stats().pieces as usize + usize::from(player.hold().is_some());
        if rules.randomizer != Randomizer::SevenBag || index >= 7 || player.hold_used() {
            return false;
        }
        let mut bag = [PieceKind::I; 7];
        for (i, slot) in bag.iter_mut().enumerate() {
            *slot = match self.seen.get(i).copied().flatten() {
                Some(k) => k,
                None if i == 6 => match bag_tail(&self.seen, 5) {
                    Some(k) => k,
                    None => return false,
                },
                None => return false,
            };
        }
        let revealed: Vec<PieceKind> = self.seen.iter().skip(7).map_while(|k| *k).collect();
        opener.start(
            book,
            &OpenerQuery {
                board: BitBoard::from_board(player.board()),
                bag,
                index,
                hold: player.hold(),
                revealed: &revealed,
                allow_180: rules.allow_180,
            },
        );
        true
    }

    /// The opener's choice as a placement the input compiler can reach from `player`'s state.
    fn opener_placement(
        &mut self,
        player: &Player,
        rules: &Rules,
        frame: u32,
        choice: OpenerMove,
    ) -> Option<Placement> {
        let board = BitBoard::from_board(player.board());
        let start = if choice.hold {
            spawn_position(&board, player.hold().unwrap_or(player.next()[0]))?
        } else {
            player.active()?
        };
        let mut placements = Vec::new();
        MoveGen::new().generate(&board, start, rules.allow_180, choice.hold, &mut placements);
        let cells = piece_cells(&choice.piece);
        let placement = placements
            .into_iter()
            .find(|p| piece_cells(&p.piece) == cells)?;
        let sim = PlayerSim::new(player, rules, frame);
        compile(&sim, &Target::from(&placement), CompileOptions::default())?;
        Some(placement)
    }

    fn make_plan(
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

#[cfg(test)]
mod tests {
    use super::*;
    use PieceKind::*;

    #[test]
    fn the_last_piece_of_a_bag_is_deduced_from_the_other_six() {
        let seen: Vec<_> = [T, S, Z, O, I, L].into_iter().map(Some).collect();
        assert_eq!(bag_tail(&seen, 5), Some(J));
        // The second bag: six seen after the first seven.
        let mut two: Vec<_> = [T, S, Z, O, I, L, J].into_iter().map(Some).collect();
        two.extend([J, L, I, O, Z, T].into_iter().map(Some));
        assert_eq!(bag_tail(&two, 12), Some(S));
    }

    #[test]
    fn no_piece_is_deduced_before_six_of_the_bag_are_seen() {
        let seen: Vec<_> = [T, S, Z, O, I].into_iter().map(Some).collect();
        assert_eq!(bag_tail(&seen, 4), None);
        let gap = vec![Some(T), None, Some(Z), Some(O), Some(I), Some(L)];
        assert_eq!(bag_tail(&gap, 5), None);
        // The last piece known is the bag's last: nothing after it in this bag.
        let full: Vec<_> = [T, S, Z, O, I, L, J].into_iter().map(Some).collect();
        assert_eq!(bag_tail(&full, 6), None);
    }
}
