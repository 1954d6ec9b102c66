//! Starting the searches of a thought: the 7-bag memory, the perfect-clear search, the
//! first-bag opener and the beam search, each from the player's position.

use sevenbag_core::attack::Chain;
use sevenbag_core::{Piece, PieceKind, Player, Randomizer, Rules};

use super::{Bot, DANGER_HEIGHT};
use crate::bitboard::BitBoard;
use crate::eltetris;
use crate::eval::Weights;
use crate::inputs::{CompileOptions, Target, compile};
use crate::level::Planner;
use crate::movegen::{MoveGen, Placement, spawn_position};
use crate::opener::{OpenerMove, OpenerQuery};
use crate::pc::{PcQuery, Pending};
use crate::pc_odds::Odds;
use crate::search::{Incoming, MAX_INCOMING, Root};
use crate::sim::PlayerSim;

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

/// The pieces a player knows of: the piece in play (where it would spawn, if none is falling
/// yet) and the queue after it.
struct Known {
    board: BitBoard,
    current: Piece,
    hold_allowed: bool,
    /// The current piece's kind, then the queue.
    sequence: Vec<PieceKind>,
    /// Index of the current piece in the player's sequence: every piece placed, plus the one
    /// in hold.
    index: usize,
}

impl Known {
    /// `None` when no piece is falling and the next cannot spawn.
    fn of(player: &Player) -> Option<Known> {
        let board = BitBoard::from_board(player.board());
        let next = player.next();
        let (current, hold_allowed, queue) = match player.active() {
            Some(p) => (p, !player.hold_used(), &next[..]),
            None => (spawn_position(&board, *next.first()?)?, true, &next[1..]),
        };
        let mut sequence = vec![current.kind];
        sequence.extend_from_slice(queue);
        Some(Known {
            board,
            current,
            hold_allowed,
            sequence,
            index: player.stats().pieces as usize + usize::from(player.hold().is_some()),
        })
    }

    /// The perfect-clear query for these pieces; under a 7-bag with the piece after the queue
    /// appended when `seen` shows it is the last of its bag. The garbage queued against the
    /// player is ready after whole pieces of `per_piece` frames from `frame`, rounded down (a
    /// line that may rise before the piece in play locks counts as ready for that lock).
    fn query(
        mut self,
        player: &Player,
        rules: &Rules,
        seen: &[Option<PieceKind>],
        frame: u32,
        per_piece: u32,
    ) -> PcQuery {
        if rules.randomizer == Randomizer::SevenBag {
            let last = self.index + self.sequence.len() - 1;
            self.sequence.extend(bag_tail(seen, last));
        }
        PcQuery {
            board: self.board,
            current: self.current,
            hold: player.hold(),
            hold_allowed: self.hold_allowed,
            sequence: self.sequence,
            allow_180: rules.allow_180,
            chain: Chain {
                combo: player.combo(),
                b2b: player.b2b(),
            },
            incoming: player
                .garbage()
                .entries()
                .iter()
                .map(|e| Pending {
                    lines: e.lines,
                    ready_after: (e.ready_at.saturating_sub(frame) / per_piece.max(1)).min(255)
                        as u8,
                    hole: e.hole,
                })
                .collect(),
            // With messiness a risen attack's later lines may move their hole.
            rise_cap: if rules.messiness == 0 {
                rules.garbage_cap
            } else {
                0
            },
        }
    }
}

impl Bot {
    /// Frames a piece takes, for counting garbage's travel in pieces: the speed cap's, and at
    /// least 12 (a bot without a cap still waits for its keys).
    fn frames_per_piece(&self) -> u32 {
        self.config.min_frames_per_piece().max(12)
    }

    /// Starts the beam search for the piece in play (or about to spawn), or returns the ranked
    /// placements at once when there is nothing to search (the El-Tetris planner, or no room to
    /// spawn).
    pub(super) fn start_search(
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
                let per_piece = self.frames_per_piece();
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
    pub(super) fn start_perfect_clear(
        &mut self,
        player: &Player,
        rules: &Rules,
        frame: u32,
    ) -> bool {
        if self.pc.is_none() {
            return false;
        }
        let Some(known) = Known::of(player) else {
            return false;
        };
        if known.index == 0 {
            self.seen.clear();
        }
        let end = known.index + known.sequence.len();
        if self.seen.len() < end {
            self.seen.resize(end, None);
        }
        for (i, &k) in known.sequence.iter().enumerate() {
            self.seen[known.index + i] = Some(k);
        }
        if known.board.max_height() > crate::pc::MAX_LINES as i8 {
            return false;
        }
        let query = known.query(player, rules, &self.seen, frame, self.frames_per_piece());
        self.pc.as_mut().map(|pc| pc.start(query)).is_some()
    }

    /// Starts weighing `ranked` (the beam search's answer) by the odds of a perfect clear
    /// beyond the queue ([`crate::pc_odds`]), on Max under a 7-bag with no garbage queued,
    /// after [`Bot::start_perfect_clear`] noted the queue; `None` when it does not apply.
    pub(super) fn start_odds(
        &self,
        player: &Player,
        rules: &Rules,
        ranked: &[Placement],
    ) -> Option<Odds> {
        if self.pc.is_none()
            || self.odds_limit == 0
            || rules.randomizer != Randomizer::SevenBag
            || !player.garbage().entries().is_empty()
        {
            return None;
        }
        let known = Known::of(player)?;
        let index = known.index as u64;
        // No garbage is queued here.
        let query = known.query(player, rules, &self.seen, 0, 1);
        // The kinds dealt before the first unknown piece in its bag, all seen.
        let end = index as usize + query.sequence.len();
        let prefix = self
            .seen
            .get(end / 7 * 7..end)?
            .iter()
            .copied()
            .collect::<Option<Vec<_>>>()?;
        Odds::start(query, &prefix, index, ranked).map(|o| o.with_limit(self.odds_limit))
    }

    /// Starts the first-bag opener's decision for the piece in play, if the opener is on and
    /// the game is still in its first bag (whose order is known); whether it started.
    pub(super) fn start_opener(&mut self, player: &Player, rules: &Rules) -> bool {
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
    pub(super) fn opener_placement(
        &mut self,
        player: &Player,
        rules: &Rules,
        frame: u32,
        choice: OpenerMove,
    ) -> Option<Placement> {
        let placement = choice.placement(
            &BitBoard::from_board(player.board()),
            player.active(),
            player.hold().or_else(|| player.next().first().copied()),
            rules.allow_180,
            &mut MoveGen::new(),
        )?;
        let sim = PlayerSim::new(player, rules, frame);
        compile(&sim, &Target::from(&placement), CompileOptions::default())?;
        Some(placement)
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
    fn queued_garbage_is_ready_for_the_lock_it_can_rise_on() {
        // At 15 frames a piece the piece in play locks about 14 frames after its plan: a line
        // ready within 14 frames rises on that lock, one 15 frames away on the next.
        let rules = Rules::versus();
        let mut player = Player::new(&rules, sevenbag_core::Handling::default(), 0, 0, 0);
        player.receive(1, 100, 14);
        player.receive(2, 101, 14);
        let known = Known::of(&player).expect("a piece to play");
        let q = known.query(&player, &rules, &[], 100, 15);
        let ready: Vec<_> = q
            .incoming
            .iter()
            .map(|p| (p.lines, p.ready_after))
            .collect();
        assert_eq!(ready, [(1, 0), (2, 1)]);
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
