//! Record parsing and validation: every rule of the organisers' later `validateRecord`, the
//! position of each error, and hostile input refused without panics or large allocations.

use sevenbag_challenge::Step;
use sevenbag_challenge::record::{MAX_RECORD_BYTES, Op, Record, RecordError};

fn syntax(text: &str) -> (usize, usize, &'static str) {
    match Record::parse(text) {
        Err(RecordError::Syntax { op, byte, what }) => (op, byte, what),
        other => panic!("expected a syntax error for {text:?}, got {other:?}"),
    }
}

#[test]
fn a_plain_record_parses_into_ops() {
    let r = Record::parse("N,C1,L4,D18,N,R2,D17\n").unwrap();
    assert_eq!(
        r.ops,
        vec![
            Op::New,
            Op::Steps(Step::Rotate, 1),
            Op::Steps(Step::Left, 4),
            Op::Steps(Step::Down, 18),
            Op::New,
            Op::Steps(Step::Right, 2),
            Op::Steps(Step::Down, 17),
        ]
    );
    assert_eq!(r.bricks(), 2);
}

#[test]
fn writing_then_parsing_gives_the_same_record() {
    let text = "N,C1,L4,D18,N,R2,D17";
    assert_eq!(Record::parse(text).unwrap().to_text(), text);
}

#[test]
fn from_bricks_merges_repeated_steps() {
    let steps = [Step::Left, Step::Left, Step::Down, Step::Down, Step::Down];
    let r = Record::from_bricks([&steps[..], &[Step::Rotate][..]]);
    assert_eq!(r.to_text(), "N,L2,D3,N,C1");
}

#[test]
fn the_first_op_must_be_n() {
    assert_eq!(
        Record::parse("D1,N,D1"),
        Err(RecordError::FirstNotN { op: 1, byte: 0 })
    );
}

#[test]
fn n_takes_no_count() {
    assert_eq!(syntax("N,D1,N2,D1"), (3, 5, "N takes no count"));
}

#[test]
fn unknown_ops_are_refused_with_their_position() {
    assert_eq!(
        syntax("N,D1,U3"),
        (3, 5, "unknown op (expected N, L, R, D or C)")
    );
    assert_eq!(syntax("N,d1").2, "unknown op (expected N, L, R, D or C)");
}

#[test]
fn a_step_needs_a_count() {
    assert_eq!(syntax("N,D"), (2, 2, "missing count"));
}

#[test]
fn a_count_of_zero_is_refused() {
    assert_eq!(syntax("N,D0"), (2, 2, "count 0"));
}

#[test]
fn counts_are_decimal_digits_only() {
    assert_eq!(syntax("N,D1x").2, "count is not a decimal number");
    assert_eq!(syntax("N,D-1").2, "count is not a decimal number");
    assert_eq!(syntax("N, D1").2, "unknown op (expected N, L, R, D or C)");
}

#[test]
fn leading_zeros_read_as_javascript_does() {
    assert_eq!(
        Record::parse("N,D007").unwrap().ops[1],
        Op::Steps(Step::Down, 7)
    );
}

#[test]
fn a_huge_count_is_refused_without_overflow() {
    assert_eq!(syntax("N,D99999999999999999999999999").2, "count above 100");
}

#[test]
fn empty_ops_are_refused() {
    assert_eq!(syntax("N,,D1").0, 2);
    assert_eq!(syntax("N,D1,").0, 3);
}

#[test]
fn a_brick_with_more_than_100_steps_is_refused() {
    assert_eq!(
        Record::parse("N,D60,L41"),
        Err(RecordError::BrickSteps {
            brick: 1,
            op: 3,
            byte: 6,
            sum: 101
        })
    );
    assert!(Record::parse("N,D60,L40").is_ok());
}

#[test]
fn a_brick_with_no_steps_is_refused() {
    assert_eq!(
        Record::parse("N,D1,N,N,D1"),
        Err(RecordError::BrickSteps {
            brick: 2,
            op: 3,
            byte: 5,
            sum: 0
        })
    );
    assert!(matches!(
        Record::parse("N"),
        Err(RecordError::BrickSteps { sum: 0, .. })
    ));
}

#[test]
fn a_final_n_may_stand_alone() {
    assert!(Record::parse("N,D5,N").is_ok());
}

#[test]
fn an_empty_record_is_refused() {
    assert_eq!(Record::parse(" \n"), Err(RecordError::Empty));
}

#[test]
fn a_record_over_the_size_limit_is_refused_before_parsing() {
    let commas = ",".repeat(100 << 20);
    assert_eq!(
        Record::parse(&commas),
        Err(RecordError::TooLarge(100 << 20))
    );
    let just_over = format!("N,{}", "D1,".repeat(MAX_RECORD_BYTES / 3));
    assert!(matches!(
        Record::parse(&just_over),
        Err(RecordError::TooLarge(_))
    ));
}

#[test]
fn commas_under_the_limit_get_a_position() {
    assert_eq!(syntax(&format!("N,D1{}", ",".repeat(1000))).0, 3);
}

#[test]
fn errors_read_with_their_position() {
    let e = Record::parse("N,D1,X9").unwrap_err().to_string();
    assert_eq!(e, "op 3 at byte 5: unknown op (expected N, L, R, D or C)");
}
