//! The fixed sequence matches the contract's first 24 bricks and piece counts.

use sevenbag_challenge::{Kind, MAX_BRICKS, Sequence};

#[test]
fn first_24_bricks_are_the_contracts() {
    let got: Vec<String> = Sequence::new()
        .take(24)
        .map(|b| format!("{}{}", b.kind.letter(), b.state))
        .collect();
    assert_eq!(
        got.join(" "),
        "Z0 I1 O2 S3 L0 Z1 S2 I3 Z0 J1 S2 S3 Z0 Z1 I2 Z3 Z0 J1 O2 L3 S0 O1 L2 L3"
    );
}

#[test]
fn piece_counts_over_10000_bricks_are_the_contracts() {
    let all = Sequence::all();
    assert_eq!(all.len(), MAX_BRICKS);
    let count = |k: Kind| all.iter().filter(|b| b.kind == k).count();
    let counts: Vec<usize> = Kind::ALL.iter().map(|&k| count(k)).collect();
    assert_eq!(counts, vec![722, 957, 1053, 1325, 1649, 2094, 2200]);
}

#[test]
fn starting_state_is_the_brick_index_mod_4() {
    for (i, b) in Sequence::new().take(100).enumerate() {
        assert_eq!(b.state as usize, i % 4);
    }
}
