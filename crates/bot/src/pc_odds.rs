//! Odds of a perfect clear beyond the known queue. On a low board where the known pieces make
//! no perfect clear, the beam search's best few placements are weighed by how many sampled
//! continuations of the 7-bag let the perfect-clear search empty a four-row box after them; a
//! placement that keeps a perfect clear possible more often than the beam search's first choice
//! (and in most samples) is played instead.
//!
//! Each sample is searched as if its order were known, so a count overstates the real odds; the
//! choice is made again at every piece, with the queue then known. The samples are the same for
//! every candidate and come from a fixed-seed generator, so the same position always gets the
//! same answer, and the work is counted in move-generation calls, never in time (at most
//! [`TOTAL_LIMIT`] for a whole weighing). The search runs a slice at a time like the others
//! ([`Odds::resume`]).
//!
//! Against El-Tetris this lifted Max from 0.976 / 0.977 / 0.951 attack per piece to 0.974 /
//! 1.040 / 0.977, and gained on all seven held-out seed sets (docs/history).

use sevenbag_core::PieceKind;
use sevenbag_core::attack::Chain;

use crate::bitboard::{BitBoard, COLUMNS};
use crate::movegen::{Placement, spawn_position};
use crate::pc::{PcQuery, PcSearch};
use crate::search::Progress;

/// Candidates, best first from the beam search, that are weighed.
pub const CANDIDATES: usize = 8;
/// Sampled continuations of the queue.
pub const SAMPLES: usize = 8;
/// Samples that must allow a perfect clear before a candidate may replace the first choice.
pub const MIN_SAMPLES: usize = 5;
/// Move-generation calls allowed for the search of one sample.
pub const SAMPLE_LIMIT: u32 = 1000;
/// Move-generation calls allowed for the whole weighing: the candidates not weighed by then
/// keep their places.
pub const TOTAL_LIMIT: u64 = 30_000;
/// The box the perfect clear must fit in.
const LINES: i8 = 4;

/// A splitmix64 step.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// `count` pieces that follow the pieces `prefix` of a 7-bag, drawn as the 7-bag would: the
/// rest of that bag in a random order, then whole bags.
pub fn sample_bags(prefix: &[PieceKind], count: usize, rng: &mut u64) -> Vec<PieceKind> {
    let mut used: Vec<PieceKind> = prefix.to_vec();
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        if used.len() >= PieceKind::ALL.len() {
            used.clear();
        }
        let rest: Vec<PieceKind> = PieceKind::ALL
            .into_iter()
            .filter(|k| !used.contains(k))
            .collect();
        let k = rest[(next(rng) % rest.len() as u64) as usize];
        used.push(k);
        out.push(k);
    }
    out
}

/// What a candidate leaves for the samples: the board, the hold slot and the known pieces
/// still to come.
#[derive(Clone, Debug)]
struct After {
    board: BitBoard,
    hold: Option<PieceKind>,
    rest: Vec<PieceKind>,
    /// Pieces a four-row perfect clear of `board` takes, plus one for hold.
    need: usize,
}

/// The position `placement` leaves from `q`, if a four-row perfect clear can still follow it.
fn after(q: &PcQuery, placement: &Placement) -> Option<After> {
    let (rest, hold) = match (placement.hold, q.hold) {
        (false, h) => (q.sequence.get(1..)?, h),
        (true, Some(_)) => (q.sequence.get(1..)?, Some(q.current.kind)),
        (true, None) => (q.sequence.get(2..)?, Some(q.current.kind)),
    };
    let mut board = q.board;
    board.place(&placement.piece);
    board.clear_lines();
    if board.max_height() > LINES || board.is_empty() || rest.is_empty() {
        return None;
    }
    let left: u32 = board.cols.iter().map(|c| c.count_ones()).sum();
    let need = (LINES as u32 * COLUMNS as u32 - left) as usize / 4 + 1;
    Some(After {
        board,
        hold,
        rest: rest.to_vec(),
        need,
    })
}

/// The weighing in progress.
#[derive(Clone, Debug)]
pub struct Odds {
    allow_180: bool,
    chain: Chain,
    tails: Vec<Vec<PieceKind>>,
    /// What each candidate leaves (`None`: no four-row perfect clear can follow it).
    afters: Vec<Option<After>>,
    /// The candidate and sample being searched.
    candidate: usize,
    sample: usize,
    /// Whether the search of (`candidate`, `sample`) was started.
    searching: bool,
    /// Samples that allowed a perfect clear for the candidate being weighed.
    count: usize,
    /// The best candidate so far: (count, index).
    best: (usize, usize),
    /// Move-generation calls so far.
    pub expanded: u64,
    /// Move-generation calls allowed for the whole weighing.
    limit: u64,
}

impl Odds {
    /// Starts weighing `ranked` (best first) from the known position `q` (its sequence starts
    /// with the current piece). `bag_prefix` holds the kinds of the 7-bag that the piece after
    /// `q.sequence` belongs to that come before it; `seed` fixes the samples. `None` when there
    /// is nothing to weigh: the board is above four rows or its cells are not a multiple of
    /// four, or fewer than two candidates.
    pub fn start(
        q: PcQuery,
        bag_prefix: &[PieceKind],
        seed: u64,
        ranked: &[Placement],
    ) -> Option<Odds> {
        let filled: u32 = q.board.cols.iter().map(|c| c.count_ones()).sum();
        if q.board.max_height() > LINES || !filled.is_multiple_of(4) || ranked.len() < 2 {
            return None;
        }
        let tails = (0..SAMPLES as u64)
            .map(|s| {
                let mut rng = seed.wrapping_mul(1_000_003).wrapping_add(s);
                sample_bags(bag_prefix, 12, &mut rng)
            })
            .collect();
        Some(Odds {
            allow_180: q.allow_180,
            chain: q.chain,
            tails,
            afters: ranked
                .iter()
                .take(CANDIDATES)
                .map(|p| after(&q, p))
                .collect(),
            candidate: 0,
            sample: 0,
            searching: false,
            count: 0,
            best: (0, 0),
            expanded: 0,
            limit: TOTAL_LIMIT,
        })
    }

    /// Caps the whole weighing at `limit` move-generation calls instead of [`TOTAL_LIMIT`]
    /// (the browser page, which thinks a few milliseconds a frame).
    pub fn with_limit(mut self, limit: u64) -> Odds {
        self.limit = limit;
        self
    }

    /// Weighs to the end at once: [`Odds::resume`]'s answer.
    pub fn run(&mut self, pc: &mut PcSearch) -> usize {
        loop {
            if let Progress::Done(first) = self.resume(pc, u32::MAX) {
                return first;
            }
        }
    }

    /// Goes on for at most about `work` more move-generation calls of `pc`: once done, the
    /// index in the ranked list of the placement to play first (0: keep the beam search's).
    pub fn resume(&mut self, pc: &mut PcSearch, work: u32) -> Progress<usize> {
        let mut left = u64::from(work);
        while self.candidate < self.afters.len() {
            if self.expanded >= self.limit {
                break;
            }
            // The count a later candidate must reach to be chosen: above the best so far (the
            // first candidate's own count included) and at least `MIN_SAMPLES`.
            let target = if self.candidate == 0 {
                0
            } else {
                (self.best.0 + 1).max(MIN_SAMPLES)
            };
            let hopeless = self.count + (SAMPLES - self.sample) < target;
            let after = self.afters[self.candidate].as_ref();
            if self.sample == SAMPLES || hopeless || after.is_none() {
                if self.candidate == 0 {
                    self.best = (self.count, 0);
                    if self.count == SAMPLES {
                        break;
                    }
                } else if self.count >= target && !hopeless {
                    self.best = (self.count, self.candidate);
                }
                self.candidate += 1;
                self.sample = 0;
                self.count = 0;
                continue;
            }
            let Some(after) = after else { continue };
            if !self.searching {
                let mut sequence = after.rest.clone();
                sequence.extend_from_slice(&self.tails[self.sample]);
                sequence.truncate(after.need.max(after.rest.len()));
                let Some(current) = spawn_position(&after.board, sequence[0]) else {
                    self.sample = SAMPLES;
                    continue;
                };
                pc.start_exists(
                    PcQuery {
                        board: after.board,
                        current,
                        hold: after.hold,
                        hold_allowed: true,
                        sequence,
                        allow_180: self.allow_180,
                        chain: self.chain,
                        incoming: Vec::new(),
                        rise_cap: 0,
                    },
                    SAMPLE_LIMIT,
                );
                self.searching = true;
            }
            if left == 0 {
                return Progress::Paused;
            }
            let slice = left.min(u64::from(u32::MAX)) as u32;
            let before = pc.expanded;
            let progress = pc.resume(slice);
            let spent = pc.expanded.saturating_sub(before);
            left = left.saturating_sub(spent.max(1));
            let Progress::Done(found) = progress else {
                self.expanded += spent;
                return Progress::Paused;
            };
            self.expanded += spent;
            self.searching = false;
            self.count += usize::from(found.is_some());
            self.sample += 1;
        }
        Progress::Done(self.best.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::MoveGen;
    use PieceKind::*;

    /// An O in the corner, an I to place, the rest of a bag known; the I stood on the O (six
    /// rows) or laid flat beside it.
    fn o_in_the_corner() -> (PcQuery, Vec<Placement>) {
        let board = BitBoard::from_rows(&["##........", "##........"]);
        let current = spawn_position(&board, I).expect("room to spawn");
        let mut all = Vec::new();
        MoveGen::new().generate(&board, current, true, false, &mut all);
        let on_the_o = |p: &&Placement| p.piece.cells().iter().all(|&(x, _)| x == 0);
        let flat = |p: &&Placement| {
            let cells = p.piece.cells();
            cells.iter().all(|&(_, y)| y == 0) && cells.iter().any(|&(x, _)| x == 2)
        };
        let ranked = vec![
            *all.iter().find(on_the_o).expect("an I on the O"),
            *all.iter().find(flat).expect("a flat I beside it"),
        ];
        let q = PcQuery {
            board,
            current,
            hold: None,
            hold_allowed: true,
            sequence: vec![I, T, L, J, S, Z],
            allow_180: true,
            chain: Chain::default(),
            incoming: Vec::new(),
            rise_cap: 0,
        };
        (q, ranked)
    }

    fn weigh_in_slices(odds: &mut Odds, work: u32) -> (usize, u32) {
        let mut pc = PcSearch::new();
        let mut calls = 0;
        loop {
            calls += 1;
            if let Progress::Done(first) = odds.resume(&mut pc, work) {
                return (first, calls);
            }
        }
    }

    #[test]
    fn a_placement_that_keeps_a_perfect_clear_open_beats_one_that_rules_it_out() {
        let (q, ranked) = o_in_the_corner();
        // The O was the bag's first piece and the queue holds the other six: the next bag is
        // unseen.
        let mut odds = Odds::start(q, &[], 3, &ranked).expect("a low board");
        let first = odds.run(&mut PcSearch::new());
        assert_eq!(first, 1);
        assert!(odds.expanded > 0);
    }

    #[test]
    fn weighing_in_slices_gives_the_same_answer_as_at_once() {
        let (q, ranked) = o_in_the_corner();
        let prefix = [];
        let mut whole = Odds::start(q.clone(), &prefix, 3, &ranked).expect("a low board");
        let mut sliced = Odds::start(q, &prefix, 3, &ranked).expect("a low board");
        let at_once = whole.run(&mut PcSearch::new());
        let (in_slices, calls) = weigh_in_slices(&mut sliced, 3);
        assert_eq!(at_once, in_slices);
        assert_eq!(whole.expanded, sliced.expanded);
        assert!(calls > 10, "{calls} slices");
    }

    #[test]
    fn a_weighing_out_of_work_keeps_the_beam_searchs_first_choice() {
        let (q, ranked) = o_in_the_corner();
        let mut capped = Odds::start(q, &[], 3, &ranked)
            .expect("a low board")
            .with_limit(0);
        assert_eq!(capped.run(&mut PcSearch::new()), 0);
        assert_eq!(capped.expanded, 0);
    }

    #[test]
    fn a_high_or_uneven_board_is_not_weighed() {
        let (mut q, ranked) = o_in_the_corner();
        q.board = BitBoard::from_rows(&[
            "#.........",
            "#.........",
            "#.........",
            "#.........",
            "#.........",
        ]);
        assert!(Odds::start(q.clone(), &[], 0, &ranked).is_none());
        q.board = BitBoard::from_rows(&["###......."]);
        assert!(Odds::start(q, &[], 0, &ranked).is_none());
    }

    #[test]
    fn a_sample_finishes_the_bag_then_deals_whole_bags() {
        let prefix = [PieceKind::T, PieceKind::I, PieceKind::O];
        let mut rng = 7;
        let tail = sample_bags(&prefix, 11, &mut rng);
        let mut first: Vec<PieceKind> = prefix.to_vec();
        first.extend_from_slice(&tail[..4]);
        first.sort_by_key(|k| k.index());
        assert_eq!(first, PieceKind::ALL.to_vec());
        let mut second = tail[4..11].to_vec();
        second.sort_by_key(|k| k.index());
        assert_eq!(second, PieceKind::ALL.to_vec());
    }

    #[test]
    fn samples_are_the_same_for_the_same_seed() {
        let (mut a, mut b) = (42, 42);
        assert_eq!(sample_bags(&[], 14, &mut a), sample_bags(&[], 14, &mut b));
        let mut c = 43;
        assert_ne!(sample_bags(&[], 14, &mut a), sample_bags(&[], 14, &mut c));
    }
}
