//! Our bot as a TBP bot: keeps the game state the frontend sends and answers `suggest` with
//! the beam search's ranked placements, every one reachable under SRS from spawn (they come from
//! our move generation) and flagged with the core's spin kind.
//!
//! At Max it plans as the driver does ([`sevenbag_bot::Bot`]): under the 7-bag it reads the
//! bag state the frontend sends (or keeps it from `new_piece`), so the piece after the queue is
//! known when it is the last of its bag; it first looks for a perfect clear in the known pieces
//! ([`sevenbag_bot::pc`]), then, while the board is on the way to a first-bag setup, asks the
//! opener ([`sevenbag_bot::opener`]); the move they find is suggested first, the beam search's
//! after it. When neither found one, the beam search's best are weighed by the odds of a perfect
//! clear beyond the queue ([`sevenbag_bot::pc_odds`], from the bag state; seeded by the cells on
//! the board, where the driver seeds by the piece count, so the two may sample differently).
//! From a stack of [`sevenbag_bot::bot::DANGER_HEIGHT`] rows the beam search plays
//! with the defensive weights. TBP has no 180° rotation, so none of these use it.
//!
//! The bot thinks synchronously: a `suggest` runs one search of the configured budget and
//! answers at once.

use std::io::{self, BufRead, Write};

use sevenbag_bot::opener::{Book, Opener, OpenerQuery};
use sevenbag_bot::pc::{PcQuery, PcSearch};
use sevenbag_bot::pc_odds::Odds;
use sevenbag_bot::{
    BitBoard, Budget, Level, MoveGen, Placement, Planner, Root, Searcher, Weights, spawn_position,
};
use sevenbag_core::PieceKind;

use crate::convert::{move_to_tbp, piece_from_tbp};
use crate::game::TbpGame;
use crate::lines::{Line, read_line};
use crate::messages::{BotMessage, FrontendMessage, MoveInfo, encode_line, parse_line};

/// Most moves sent in one suggestion.
const MAX_SUGGESTIONS: usize = 8;

/// A TBP bot backed by the beam search (and at Max the perfect-clear search and the opener).
#[derive(Debug)]
pub struct TbpBot {
    budget: Budget,
    weights: Weights,
    searcher: Searcher,
    /// Max's perfect-clear search and first-bag opener.
    max: Option<Box<(PcSearch, Opener)>>,
    movegen: MoveGen,
    game: Option<TbpGame>,
}

impl TbpBot {
    /// A bot searching like `level` (its speed cap is the frontend's business).
    pub fn new(level: Level) -> TbpBot {
        let config = level.config();
        let budget = match config.planner {
            Planner::Search(b) => b,
            Planner::ElTetris => Budget { beam: 1, depth: 1 },
        };
        TbpBot {
            budget,
            weights: config.weights,
            searcher: Searcher::new(),
            max: (level == Level::Max).then(|| Box::new((PcSearch::new(), Opener::new()))),
            movegen: MoveGen::new(),
            game: None,
        }
    }

    /// The `info` message.
    pub fn info() -> BotMessage {
        BotMessage::Info {
            name: "Sevenbag".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            author: "Sevenbag contributors".into(),
            features: vec!["randomizer".into()],
        }
    }

    /// Answers one frontend message; `Err(())` is not used, `None` means nothing to send.
    pub fn handle(&mut self, msg: FrontendMessage) -> Option<BotMessage> {
        match msg {
            FrontendMessage::Rules { .. } => Some(BotMessage::Ready),
            FrontendMessage::Start(start) => match TbpGame::from_start(&start) {
                Ok(game) => {
                    self.game = Some(game);
                    None
                }
                Err(reason) => {
                    eprintln!("sevenbag tbp: bad start message ignored: {reason}");
                    self.game = None;
                    None
                }
            },
            FrontendMessage::Stop => {
                self.game = None;
                None
            }
            FrontendMessage::Suggest => Some(self.suggest()),
            FrontendMessage::Play { mv } => {
                if let Some(game) = &mut self.game
                    && let Err(reason) = game.play(&mv)
                {
                    eprintln!("sevenbag tbp: play refused, waiting for a new start: {reason}");
                    self.game = None;
                }
                None
            }
            FrontendMessage::NewPiece { piece } => {
                if let Some(game) = &mut self.game {
                    game.new_piece(piece_from_tbp(piece));
                }
                None
            }
            FrontendMessage::Quit | FrontendMessage::Unknown => None,
        }
    }

    fn suggest(&mut self) -> BotMessage {
        let mut nodes = 0;
        let moves = match self.game.clone() {
            Some(g) => self.ranked(&g, &mut nodes),
            None => Vec::new(),
        };
        BotMessage::Suggestion {
            moves: moves
                .iter()
                .take(MAX_SUGGESTIONS)
                .map(|p| move_to_tbp(&p.piece, p.spin))
                .collect(),
            move_info: Some(MoveInfo {
                nodes,
                nps: 0.0,
                extra: String::new(),
            }),
        }
    }

    /// The placements for `g`, best first: at Max a perfect-clear or opener placement, then
    /// the beam search's.
    fn ranked(&mut self, g: &TbpGame, nodes: &mut u64) -> Vec<Placement> {
        let Some((&first, rest)) = g.queue.split_first() else {
            return Vec::new();
        };
        let board = BitBoard::from_board(&g.board);
        let Some(current) = spawn_position(&board, first) else {
            return Vec::new();
        };
        let mut queue = rest.to_vec();
        let mut out = Vec::new();
        let mut weigh_odds = false;
        if self.max.is_some() {
            // The last piece of a 7-bag is known once the other six are.
            queue.extend(g.bag_tail());
            out.extend(self.perfect_clear(g, &board, current, &queue, nodes));
            if out.is_empty() {
                out.extend(self.opener_move(g, &board, current));
            }
            weigh_odds = out.is_empty();
        }
        let root = Root {
            board,
            current,
            hold: g.hold,
            hold_allowed: true,
            queue,
            chain: g.chain,
            incoming: Vec::new(),
            allow_180: false,
            garbage_cap: 8,
        };
        // Max, like the driver, plays safe once its stack is high (TBP sends no garbage queue).
        let weights = if self.max.is_some()
            && i32::from(board.max_height()) >= sevenbag_bot::bot::DANGER_HEIGHT
        {
            Weights::DEFENSIVE
        } else {
            self.weights
        };
        let found = self.searcher.search(&root, self.budget, &weights);
        *nodes += self.searcher.expanded;
        for c in found {
            if !out.iter().any(|p| p.key() == c.placement.key()) {
                out.push(c.placement);
            }
        }
        if weigh_odds {
            self.weigh_odds(g, &board, current, &root.queue, &mut out, nodes);
        }
        out
    }

    /// Max, like the driver: on a low board with no perfect clear in the known pieces, the beam
    /// search's best placements weighed by the odds of a perfect clear beyond the queue
    /// ([`sevenbag_bot::pc_odds`]). Needs the 7-bag state.
    fn weigh_odds(
        &mut self,
        g: &TbpGame,
        board: &BitBoard,
        current: sevenbag_core::Piece,
        queue: &[PieceKind],
        ranked: &mut [Placement],
        nodes: &mut u64,
    ) {
        let Some((pc, _)) = self.max.as_deref_mut() else {
            return;
        };
        let Some(left) = g.bag_left else {
            return;
        };
        // The kinds dealt before the first unknown piece in its bag: none when the queue (with
        // the deduced last piece) ends a bag.
        let prefix: Vec<PieceKind> = if g.bag_tail().is_some() {
            Vec::new()
        } else {
            PieceKind::ALL
                .into_iter()
                .filter(|k| left & 1 << k.index() == 0)
                .collect()
        };
        let cells: u32 = board.cols.iter().map(|c| c.count_ones()).sum();
        let seed = u64::from(cells / 4) + u64::from(g.hold.is_some());
        let query = g.pc_query(board, current, queue);
        let Some(mut odds) = Odds::start(query, &prefix, seed, ranked) else {
            return;
        };
        let first = odds.run(pc);
        *nodes += odds.expanded;
        ranked[..=first].rotate_right(1);
    }

    /// Max: the first placement of a perfect clear of the known pieces, if one is found.
    fn perfect_clear(
        &mut self,
        g: &TbpGame,
        board: &BitBoard,
        current: sevenbag_core::Piece,
        queue: &[PieceKind],
        nodes: &mut u64,
    ) -> Option<Placement> {
        let (pc, _) = &mut **self.max.as_mut()?;
        if board.max_height() > sevenbag_bot::pc::MAX_LINES as i8 {
            return None;
        }
        let found = pc.find(g.pc_query(board, current, queue));
        *nodes += pc.expanded;
        found
    }

    /// Max: the first-bag opener's placement, when the board holds only pieces of the bag the
    /// queue is in (or of the one before it) and those lie on a setup of the book.
    fn opener_move(
        &mut self,
        g: &TbpGame,
        board: &BitBoard,
        current: sevenbag_core::Piece,
    ) -> Option<Placement> {
        let (_, opener) = &mut **self.max.as_mut()?;
        let left = g.bag_left?;
        let cells: u32 = board.cols.iter().map(|c| c.count_ones()).sum();
        if !cells.is_multiple_of(4) {
            return None;
        }
        // The piece in play's index, counting from the first piece on the board.
        let index = (cells / 4) as usize + usize::from(g.hold.is_some());
        let n = g.queue.len();
        // The bag the queue ends in began (7 - left) pieces before its end: that must be the
        // start of the first bag or of the second.
        let began = (index + n).checked_sub(7 - left.count_ones() as usize)?;
        if index >= 7 || !began.is_multiple_of(7) {
            return None;
        }
        let mut sequence = g.queue.clone();
        sequence.extend(g.bag_tail());
        // The first bag from the piece in play on must be known, in order.
        let upcoming = sequence.get(..7 - index)?;
        let earlier: Vec<PieceKind> = PieceKind::ALL
            .into_iter()
            .filter(|k| !upcoming.contains(k))
            .collect();
        if earlier.len() != index {
            return None;
        }
        let mut bag = [PieceKind::I; 7];
        bag[..index].copy_from_slice(&earlier);
        bag[index..].copy_from_slice(upcoming);
        let choice = opener.choose(
            Book::first_bag(),
            &OpenerQuery {
                board: *board,
                bag,
                index,
                hold: g.hold,
                revealed: &sequence[7 - index..],
                allow_180: false,
            },
        )?;
        choice.placement(
            board,
            Some(current),
            g.hold.or_else(|| g.queue.get(1).copied()),
            false,
            &mut self.movegen,
        )
    }
}

impl TbpGame {
    /// The perfect-clear query for `current` on `board` with `queue` after it (TBP has no 180°).
    fn pc_query(
        &self,
        board: &BitBoard,
        current: sevenbag_core::Piece,
        queue: &[PieceKind],
    ) -> PcQuery {
        let mut sequence = vec![current.kind];
        sequence.extend_from_slice(queue);
        PcQuery {
            board: *board,
            current,
            hold: self.hold,
            hold_allowed: true,
            sequence,
            allow_180: false,
            chain: self.chain,
            // TBP tells a bot nothing of incoming garbage.
            incoming: Vec::new(),
            rise_cap: 0,
        }
    }
}

/// Serves the protocol on `input`/`output` until `quit` or the end of input.
pub fn serve(level: Level, input: &mut impl BufRead, output: &mut impl Write) -> io::Result<()> {
    let mut bot = TbpBot::new(level);
    output.write_all(encode_line(&TbpBot::info()).as_bytes())?;
    output.flush()?;
    loop {
        let line = match read_line(input)? {
            Line::End => return Ok(()),
            Line::TooLong(n) => {
                eprintln!("sevenbag tbp: ignored a {n}-byte line (too long)");
                continue;
            }
            Line::Text(t) if t.trim().is_empty() => continue,
            Line::Text(t) => t,
        };
        let msg: FrontendMessage = match parse_line(&line) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("sevenbag tbp: ignored a bad line: {e}");
                continue;
            }
        };
        if msg == FrontendMessage::Quit {
            return Ok(());
        }
        if let Some(reply) = bot.handle(msg) {
            output.write_all(encode_line(&reply).as_bytes())?;
            output.flush()?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convert::{board_to_tbp, move_from_tbp, piece_to_tbp};
    use crate::messages::{Randomizer, Start, TbpPiece};
    use PieceKind::*;
    use sevenbag_bot::opener::piece_cells;
    use sevenbag_core::Board;

    fn start(board: &Board, queue: &[PieceKind], left: &[PieceKind]) -> FrontendMessage {
        FrontendMessage::Start(Start {
            board: board_to_tbp(board),
            queue: queue.iter().map(|&k| piece_to_tbp(k)).collect(),
            hold: None,
            combo: 0,
            back_to_back: false,
            randomizer: Some(Randomizer::seven_bag(
                left.iter().map(|&k| piece_to_tbp(k)).collect(),
            )),
        })
    }

    fn first_move(bot: &mut TbpBot) -> sevenbag_core::Piece {
        match bot.handle(FrontendMessage::Suggest) {
            Some(BotMessage::Suggestion { moves, .. }) => move_from_tbp(&moves[0]).unwrap().0,
            other => panic!("no suggestion: {other:?}"),
        }
    }

    #[test]
    fn max_suggests_the_perfect_clear_its_known_pieces_allow() {
        // Two I pieces lying flat empty the board.
        let board = Board::from_rows(&["....######", "....######"]);
        let mut bot = TbpBot::new(Level::Max);
        bot.handle(start(&board, &[I, I, T, S, Z, O], &[J, L]));
        let p = first_move(&mut bot);
        assert_eq!(p.kind, I);
        assert!(p.cells().iter().all(|&(x, y)| x < 4 && y < 2), "{p:?}");
    }

    #[test]
    fn max_opens_toward_a_first_bag_setup() {
        let seq = sevenbag_core::sequence(sevenbag_core::Randomizer::SevenBag, 0, 7);
        let mut bot = TbpBot::new(Level::Max);
        bot.handle(start(&Board::new(), &seq[..6], &seq[6..]));
        let p = first_move(&mut bot);
        let cells = piece_cells(&p);
        assert!(
            Book::first_bag()
                .setups
                .iter()
                .any(|s| s.cells[p.kind.index()] == cells),
            "{p:?} is on no setup"
        );
    }

    /// The TBP start our frontend sends for `player` (the 7-bag state from the true sequence).
    fn start_of(player: &sevenbag_core::Player, seq: &[PieceKind]) -> FrontendMessage {
        let mut queue = vec![player.active().unwrap().kind];
        queue.extend_from_slice(&player.next());
        let index = player.stats().pieces as usize + usize::from(player.hold().is_some());
        let last = index + queue.len() - 1;
        let mut left: Vec<PieceKind> = PieceKind::ALL
            .into_iter()
            .filter(|k| !seq[last / 7 * 7..=last].contains(k))
            .collect();
        if left.is_empty() {
            left = PieceKind::ALL.to_vec();
        }
        match start(player.board(), &queue, &left) {
            FrontendMessage::Start(s) => FrontendMessage::Start(Start {
                hold: player.hold().map(piece_to_tbp),
                ..s
            }),
            _ => unreachable!(),
        }
    }

    #[test]
    fn max_over_tbp_places_the_first_pieces_where_the_driver_does() {
        use sevenbag_bot::{BOT_HANDLING, Bot};
        use sevenbag_core::{Player, Rules, StepContext};
        // TBP has no 180° rotation: the driver plays without it too.
        let rules = Rules {
            allow_180: false,
            ..Rules::versus()
        };
        for seed in [0, 3] {
            let seq = sevenbag_core::sequence(rules.randomizer, seed, 40);
            let mut player = Player::new(&rules, BOT_HANDLING, seed, 0, 0);
            let mut driver = Bot::new(Level::Max);
            let mut tbp = TbpBot::new(Level::Max);
            let mut frame = 0;
            // Up to the first perfect clear: after it the odds of a perfect clear beyond the
            // queue are weighed from samples the driver seeds by the piece's index in the game,
            // which TBP does not tell a bot, so the two may part ways by chance.
            while player.stats().perfect_clears == 0 && player.stats().pieces < 12 {
                let plans = driver.stats().plans;
                let input = driver.next_input_for(&player, &rules, frame);
                if driver.stats().plans > plans {
                    let planned = driver.planned().unwrap().piece;
                    tbp.handle(start_of(&player, &seq));
                    let suggested = first_move(&mut tbp);
                    assert_eq!(
                        (suggested.kind, piece_cells(&suggested)),
                        (planned.kind, piece_cells(&planned)),
                        "seed {seed}, piece {}",
                        player.stats().pieces
                    );
                }
                let ctx = StepContext {
                    rules: &rules,
                    frame,
                    play_frame: frame,
                };
                player.step(input, ctx);
                frame += 1;
            }
            assert!(player.stats().perfect_clears > 0, "seed {seed}");
        }
    }

    #[test]
    fn a_start_without_a_bag_state_knows_no_bag() {
        let mut bot = TbpBot::new(Level::Max);
        bot.handle(FrontendMessage::Start(Start {
            board: board_to_tbp(&Board::new()),
            queue: vec![TbpPiece::T, TbpPiece::I],
            hold: None,
            combo: 0,
            back_to_back: false,
            randomizer: None,
        }));
        assert_eq!(bot.game.as_ref().unwrap().bag_left, None);
        assert!(matches!(
            bot.handle(FrontendMessage::Suggest),
            Some(BotMessage::Suggestion { moves, .. }) if !moves.is_empty()
        ));
    }
}
