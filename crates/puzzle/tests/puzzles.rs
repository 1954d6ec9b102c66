//! The puzzle generator's promises: solvable, checked by the core, deterministic, clear errors.

use sevenbag_puzzle::{
    CheckError, GenError, GenLimits, Kind, Limits, Options, ParseError, check, code, daily,
    generate, generate_with, parse, parse_code, solve, to_text,
};

fn kinds() -> Vec<Options> {
    vec![
        Options::default_for(Kind::Pc),
        Options {
            hold: true,
            ..Options::default_for(Kind::Pc)
        },
        Options::default_for(Kind::TSpin),
        Options::default_for(Kind::Dig),
    ]
}

#[test]
fn every_kind_over_many_seeds_is_solvable_and_its_solution_checks_out_in_the_core() {
    for o in kinds() {
        for seed in 0..8 {
            let g = generate(&o, seed).unwrap_or_else(|e| panic!("{o:?} seed {seed}: {e}"));
            let p = &g.puzzle;
            let report = solve(p, Limits::default());
            assert!(
                report.solutions >= 1,
                "{o:?} seed {seed}: solver found nothing"
            );
            let printed = parse(&to_text(p)).expect("printed puzzle parses");
            check(&printed).unwrap_or_else(|e| panic!("{o:?} seed {seed}: {e}\n{}", to_text(p)));
        }
    }
}

#[test]
fn the_solvers_first_solution_also_checks_out_in_the_core() {
    for o in kinds() {
        let mut p = generate(&o, 3).expect("generates").puzzle;
        p.solution = solve(&p, Limits::default()).first.expect("solvable");
        check(&p).unwrap_or_else(|e| panic!("{o:?}: {e}"));
    }
}

#[test]
fn the_same_seed_gives_the_same_puzzle() {
    for o in kinds() {
        let a = to_text(&generate(&o, 42).expect("generates").puzzle);
        let b = to_text(&generate(&o, 42).expect("generates").puzzle);
        assert_eq!(a, b);
        let c = to_text(&generate(&o, 43).expect("generates").puzzle);
        assert_ne!(a, c, "{o:?}: seeds 42 and 43 gave the same puzzle");
    }
}

/// FNV-1a of a puzzle's text, for golden pins.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

#[test]
fn golden_puzzles_are_pinned_per_kind() {
    // Changing the generator changes these on purpose: update them and say so in the commit.
    let golden = [
        (Kind::Pc, GOLDEN_PC),
        (Kind::TSpin, GOLDEN_TSPIN),
        (Kind::Dig, GOLDEN_DIG),
    ];
    let got: Vec<u64> = golden
        .iter()
        .map(|&(kind, _)| {
            let p = generate(&Options::default_for(kind), 1)
                .expect("generates")
                .puzzle;
            fnv(&to_text(&p))
        })
        .collect();
    let want: Vec<u64> = golden.iter().map(|g| g.1).collect();
    assert_eq!(
        got, want,
        "a golden puzzle changed (pc, tspin, dig; seed 1)"
    );
}

const GOLDEN_PC: u64 = 2_202_314_733_995_711_472;
const GOLDEN_TSPIN: u64 = 333_696_076_116_809_626;
const GOLDEN_DIG: u64 = 13_513_367_077_613_627_519;

#[test]
fn impossible_options_give_a_clear_error() {
    let too_tall = Options {
        rows: 3,
        ..Options::default_for(Kind::Pc)
    };
    let e = generate(&too_tall, 0).expect_err("3-row PC is not offered");
    assert_eq!(
        e.to_string(),
        "invalid options: pc puzzles take rows 2 or 4, not 3"
    );
    let crowded = Options {
        pieces: 6,
        ..Options::default_for(Kind::Pc)
    };
    let e = generate(&crowded, 0).expect_err("6 pieces do not fit 2 rows");
    assert!(
        e.to_string()
            .contains("fill 24 cells but the rows to clear hold only 20"),
        "{e}"
    );
    let starved = GenLimits {
        steps_per_attempt: 1,
        restarts: 2,
    };
    let e = generate_with(
        &Options::default_for(Kind::Pc),
        0,
        starved,
        Limits::default(),
    )
    .expect_err("one placement per attempt cannot build a puzzle");
    assert!(
        matches!(e, GenError::Unsatisfiable { restarts: 2, .. }),
        "{e}"
    );
    assert!(
        e.to_string()
            .starts_with("no pc puzzle with 2 rows and 4 pieces"),
        "{e}"
    );
}

fn sample() -> String {
    to_text(
        &generate(&Options::default_for(Kind::Pc), 5)
            .expect("generates")
            .puzzle,
    )
}

/// The 1-based number of the first line starting with `prefix`.
fn line_of(text: &str, prefix: &str) -> usize {
    text.lines()
        .position(|l| l.starts_with(prefix))
        .expect("line present")
        + 1
}

#[test]
fn a_malformed_file_is_refused_with_its_line_number() {
    let text = sample();
    let n = line_of(&text, "queue");
    let bad = text.replace("queue ", "queue X");
    match parse(&bad) {
        Err(ParseError::Line { line, reason }) => {
            assert_eq!(line, n);
            assert!(reason.contains("not a piece letter"), "{reason}");
        }
        other => panic!("accepted or wrong error: {other:?}"),
    }
    let n = line_of(&text, "hold");
    let e = parse(&text.replace("hold off", "hold maybe")).expect_err("refused");
    assert_eq!(
        e.to_string(),
        format!("line {n}: hold must be `on` or `off`, not `maybe`")
    );
}

#[test]
fn a_truncated_file_is_refused() {
    let text = sample();
    let cut: String = text
        .lines()
        .take(text.lines().count() - 2)
        .map(|l| format!("{l}\n"))
        .collect();
    let e = parse(&cut).expect_err("truncated");
    assert!(matches!(e, ParseError::Missing { .. }), "{e}");
}

#[test]
fn an_oversized_file_is_refused() {
    let big = "#\n".repeat(300);
    assert!(matches!(parse(&big), Err(ParseError::TooLarge(_))));
}

#[test]
fn an_altered_solution_fails_the_check_with_a_reason() {
    let mut p = generate(&Options::default_for(Kind::Pc), 5)
        .expect("generates")
        .puzzle;
    p.solution.pop();
    assert!(matches!(check(&p), Err(CheckError::GoalMissed(..))));
    let mut p = generate(&Options::default_for(Kind::Pc), 5)
        .expect("generates")
        .puzzle;
    p.solution[0].piece.y += 5;
    assert!(check(&p).is_err());
    let mut p = generate(&Options::default_for(Kind::Pc), 5)
        .expect("generates")
        .puzzle;
    p.solution[0].hold = true;
    assert_eq!(check(&p), Err(CheckError::HoldOff(1)));
}

#[test]
fn share_codes_round_trip() {
    for o in kinds() {
        let c = code(&o, 123_456_789);
        assert_eq!(parse_code(&c).expect("parses"), (o, 123_456_789), "{c}");
    }
    assert_eq!(code(&Options::default_for(Kind::Pc), 100), "p24n-2s");
    assert!(parse_code("zz-1").is_err());
    assert!(parse_code("p34n-1").is_err());
}

#[test]
fn the_daily_puzzle_depends_only_on_the_day() {
    assert_eq!(daily(20_000), daily(20_000));
    assert_ne!(daily(20_000), daily(20_001));
}

mod never_panics {
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn random_text_never_panics(s in "\\PC{0,400}") {
            let _ = sevenbag_puzzle::parse(&s);
        }

        #[test]
        fn truncated_or_mutated_puzzles_never_panic(cut in 0usize..600, at in 0usize..600, c in any::<char>()) {
            let text = super::sample();
            let cut = cut.min(text.len());
            let truncated: String = text.chars().take(cut).collect();
            let _ = sevenbag_puzzle::parse(&truncated);
            let mut chars: Vec<char> = text.chars().collect();
            if !chars.is_empty() {
                let i = at % chars.len();
                chars[i] = c;
            }
            let mutated: String = chars.into_iter().collect();
            if let Ok(p) = sevenbag_puzzle::parse(&mutated) {
                let _ = sevenbag_puzzle::check(&p);
            }
        }
    }
}
