//! Our bot as a TBP bot: keeps the game state the frontend sends and answers `suggest` with
//! the beam search's ranked placements, every one reachable under SRS from spawn (they come from
//! our move generation) and flagged with the core's spin kind.
//!
//! The bot thinks synchronously: a `suggest` runs one search of the configured budget and
//! answers at once.

use std::io::{self, BufRead, Write};

use sevenbag_bot::{BitBoard, Budget, Level, Planner, Root, Searcher, Weights, spawn_position};
use sevenbag_core::attack::{Chain, Clear};
use sevenbag_core::{Board, PieceKind};

use crate::convert::{board_from_tbp, chain_from_tbp, move_from_tbp, move_to_tbp, piece_from_tbp};
use crate::lines::{Line, read_line};
use crate::messages::{
    BotMessage, FrontendMessage, MoveInfo, Start, TbpMove, encode_line, parse_line,
};

/// Most moves sent in one suggestion.
const MAX_SUGGESTIONS: usize = 8;

/// The game as the frontend last described it.
#[derive(Clone, Debug)]
struct Game {
    board: Board,
    /// The current piece first.
    queue: Vec<PieceKind>,
    hold: Option<PieceKind>,
    chain: Chain,
}

/// A TBP bot backed by the beam search.
#[derive(Debug)]
pub struct TbpBot {
    budget: Budget,
    weights: Weights,
    searcher: Searcher,
    game: Option<Game>,
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
            FrontendMessage::Start(start) => match game_from_start(&start) {
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
                    game.queue.push(piece_from_tbp(piece));
                }
                None
            }
            FrontendMessage::Quit | FrontendMessage::Unknown => None,
        }
    }

    fn suggest(&mut self) -> BotMessage {
        let moves = self.game.as_ref().map_or_else(Vec::new, |g| {
            let Some((&first, rest)) = g.queue.split_first() else {
                return Vec::new();
            };
            let board = BitBoard::from_board(&g.board);
            let Some(current) = spawn_position(&board, first) else {
                return Vec::new();
            };
            let root = Root {
                board,
                current,
                hold: g.hold,
                hold_allowed: true,
                queue: rest.to_vec(),
                chain: g.chain,
                incoming: Vec::new(),
                allow_180: false,
                garbage_cap: 8,
            };
            self.searcher
                .search(&root, self.budget, &self.weights)
                .into_iter()
                .take(MAX_SUGGESTIONS)
                .map(|c| move_to_tbp(&c.placement.piece, c.placement.spin))
                .collect()
        });
        BotMessage::Suggestion {
            moves,
            move_info: Some(MoveInfo {
                nodes: self.searcher.expanded,
                nps: 0.0,
                extra: String::new(),
            }),
        }
    }
}

fn game_from_start(start: &Start) -> Result<Game, String> {
    Ok(Game {
        board: board_from_tbp(&start.board)?,
        queue: start.queue.iter().map(|&p| piece_from_tbp(p)).collect(),
        hold: start.hold.map(piece_from_tbp),
        chain: chain_from_tbp(start.combo, start.back_to_back),
    })
}

impl Game {
    /// Plays `mv`: takes its piece from the queue (through hold if needed), locks it and clears.
    fn play(&mut self, mv: &TbpMove) -> Result<(), String> {
        let (piece, spin) = move_from_tbp(mv).ok_or("move off the board")?;
        let first = *self.queue.first().ok_or("play with an empty queue")?;
        if piece.kind != first {
            match self.hold {
                Some(h) if h == piece.kind => self.hold = Some(first),
                None if self.queue.get(1) == Some(&piece.kind) => {
                    self.hold = Some(first);
                    self.queue.remove(0);
                }
                _ => {
                    return Err(format!(
                        "{:?} is neither the current nor the hold piece",
                        piece.kind
                    ));
                }
            }
        }
        self.queue.remove(0);
        if self.board.collides(&piece) {
            return Err("the move overlaps the stack".into());
        }
        self.board.place(&piece);
        let lines = self.board.clear_lines().lines;
        self.chain.apply(Clear {
            lines,
            spin,
            perfect: self.board.is_empty(),
        });
        Ok(())
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
