//! The first-bag perfect-clear opener (Max): its shipped book is well formed and holds what the
//! generator computes, the opener plays toward setups the bag can build and stands aside
//! elsewhere, and Max makes its first perfect clear with the first ten pieces.

use sevenbag_bot::opener::book::{LINES, PREFIXES, block, prefix_index};
use sevenbag_bot::opener::generate::{BOOK_SETUPS, Generator, generate};
use sevenbag_bot::opener::{Book, Opener, OpenerQuery, piece_cells};
use sevenbag_bot::{BOT_HANDLING, BitBoard, Bot, Level, find_moves, play_solo};
use sevenbag_core::{Board, PieceKind, Randomizer, Rules, sequence};

const FULL_ROW: u64 = 0x3ff;

fn bag(seed: u64) -> Vec<PieceKind> {
    sequence(Randomizer::SevenBag, seed, 14)
}

fn board_of(cells: u64) -> BitBoard {
    let mut b = BitBoard::new();
    for i in 0..40 {
        if cells >> i & 1 == 1 {
            b.cols[i % 10] |= 1 << (i / 10);
        }
    }
    b
}

#[test]
fn every_shipped_setup_is_six_first_bag_pieces_inside_four_rows() {
    let book = Book::first_bag();
    assert_eq!(book.setups.len(), BOOK_SETUPS);
    for (n, s) in book.setups.iter().enumerate() {
        assert!(s.pieces[s.hold.index()].is_none(), "setup {n}");
        let mut all = 0u64;
        for kind in PieceKind::ALL.into_iter().filter(|&k| k != s.hold) {
            let p = s.pieces[kind.index()].unwrap_or_else(|| panic!("setup {n}: no {kind:?}"));
            assert_eq!(p.kind, kind);
            let cells = piece_cells(&p);
            assert_eq!(cells.count_ones(), 4, "setup {n}: {kind:?} leaves the box");
            assert_eq!(all & cells, 0, "setup {n}: {kind:?} overlaps");
            all |= cells;
        }
        assert_eq!(all >> (10 * u32::from(LINES)), 0, "setup {n}");
        assert!(
            (0..LINES).all(|y| all >> (10 * y) & FULL_ROW != FULL_ROW),
            "setup {n}"
        );
        let successes: u32 = s.success.iter().map(|w| w.count_ones()).sum();
        assert!(successes > 0 && successes as usize <= PREFIXES, "setup {n}");
    }
}

#[test]
fn the_shipped_book_holds_the_success_the_generator_finds() {
    let book = Book::first_bag();
    let mut g = Generator::new();
    for n in [0, 1, BOOK_SETUPS / 2, BOOK_SETUPS - 1] {
        let s = &book.setups[n];
        assert_eq!(g.success(s.board(), s.hold), s.success, "setup {n}");
    }
}

#[test]
#[ignore = "a minute and a half in a release build"]
fn the_shipped_book_is_what_the_generator_writes() {
    let shipped = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src/opener/first_bag.book"
    ))
    .unwrap();
    assert!(generate(BOOK_SETUPS).to_bytes() == shipped);
}

#[test]
fn the_first_piece_goes_onto_a_setup_this_bag_can_build() {
    let book = Book::first_bag();
    let mut opener = Opener::new();
    for seed in 0..4 {
        let seq = bag(seed);
        let q = OpenerQuery {
            board: BitBoard::new(),
            bag: seq[..7].try_into().unwrap(),
            index: 0,
            hold: None,
            revealed: &[],
            allow_180: true,
        };
        let m = opener
            .choose(book, &q)
            .expect("a setup for every bag order");
        assert_eq!(m.orders, PREFIXES as u32);
        assert!(m.successes > 0 && m.successes <= m.orders);
        let expected = if m.hold { seq[1] } else { seq[0] };
        assert_eq!(m.piece.kind, expected, "seed {seed}");
        let cells = piece_cells(&m.piece);
        assert!(
            book.setups
                .iter()
                .any(|s| s.cells[m.piece.kind.index()] == cells),
            "seed {seed}: {m:?} is on no setup"
        );
        // The same question gets the same answer.
        assert_eq!(opener.choose(book, &q), Some(m));
    }
}

#[test]
fn a_board_on_no_setup_gets_no_opener_move() {
    let book = Book::first_bag();
    let seq = bag(0);
    let mut opener = Opener::new();
    // The first placement of seed 0's first piece (in move generation's order) that no setup
    // uses.
    let cells = find_moves(&Board::new(), seq[0], None, true)
        .iter()
        .map(|p| piece_cells(&p.piece))
        .find(|&c| !book.setups.iter().any(|s| s.cells[seq[0].index()] == c))
        .expect("a placement off the book");
    let q = OpenerQuery {
        board: board_of(cells),
        bag: seq[..7].try_into().unwrap(),
        index: 1,
        hold: None,
        revealed: &[],
        allow_180: true,
    };
    assert_eq!(opener.choose(book, &q), None);
}

#[test]
fn the_opener_stops_once_the_first_bag_is_drawn() {
    let seq = bag(0);
    let q = OpenerQuery {
        board: BitBoard::new(),
        bag: seq[..7].try_into().unwrap(),
        index: 7,
        hold: Some(seq[0]),
        revealed: &seq[7..],
        allow_180: true,
    };
    assert_eq!(Opener::new().choose(Book::first_bag(), &q), None);
}

#[test]
fn the_orders_still_possible_shrink_as_the_second_bag_shows() {
    let seq = bag(1);
    assert_eq!(block(&[]).1, 840);
    assert_eq!(block(&seq[7..8]).1, 120);
    assert_eq!(block(&seq[7..9]).1, 20);
    let first = prefix_index(seq[7..11].try_into().unwrap());
    assert!((block(&seq[7..9]).0..block(&seq[7..9]).0 + 20).contains(&first));
}

#[test]
fn max_makes_a_perfect_clear_with_its_first_ten_pieces() {
    let rules = Rules::versus();
    for seed in [0, 3] {
        let mut bot = Bot::new(Level::Max);
        let report = play_solo(&mut bot, &rules, BOT_HANDLING, seed, 10);
        assert_eq!(report.pieces, 10);
        // A perfect clear alone sends ten lines.
        assert!(report.attack >= 10, "seed {seed}: {report:?}");
    }
}
