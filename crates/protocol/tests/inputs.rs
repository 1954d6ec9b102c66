//! The input log: change lists expand to per-frame masks and bad batches are refused whole.

use sevenbag_core::Input;
use sevenbag_protocol::{InputChange, InputLog, InputLogError};

fn ch(frame: u32, input: Input) -> InputChange {
    InputChange { frame, input }
}

#[test]
fn changes_expand_to_one_mask_per_frame() {
    let mut log = InputLog::new();
    log.extend(&[ch(2, Input::LEFT), ch(4, Input::NONE)], 6)
        .unwrap();
    let masks: Vec<_> = (0..6).map(|f| log.get(f).unwrap()).collect();
    assert_eq!(
        masks,
        [
            Input::NONE,
            Input::NONE,
            Input::LEFT,
            Input::LEFT,
            Input::NONE,
            Input::NONE
        ]
    );
    assert_eq!(log.get(6), None);
}

#[test]
fn confirmation_alone_repeats_the_last_mask() {
    let mut log = InputLog::new();
    log.extend(&[ch(0, Input::RIGHT)], 1).unwrap();
    log.extend(&[], 5).unwrap();
    assert_eq!(log.get(4), Some(Input::RIGHT));
}

#[test]
fn rewriting_a_confirmed_frame_is_refused() {
    let mut log = InputLog::new();
    log.extend(&[], 10).unwrap();
    assert_eq!(
        log.extend(&[ch(5, Input::LEFT)], 12),
        Err(InputLogError::Rewrite {
            frame: 5,
            confirmed: 10
        })
    );
    assert_eq!(log.confirmed(), 10);
}

#[test]
fn a_change_at_or_past_the_confirmation_is_refused() {
    let mut log = InputLog::new();
    assert!(matches!(
        log.extend(&[ch(5, Input::LEFT)], 5),
        Err(InputLogError::Order { .. })
    ));
}

#[test]
fn out_of_order_changes_are_refused() {
    let mut log = InputLog::new();
    assert!(
        log.extend(&[ch(3, Input::LEFT), ch(2, Input::NONE)], 5)
            .is_err()
    );
}

#[test]
fn a_backwards_confirmation_is_refused() {
    let mut log = InputLog::new();
    log.extend(&[], 5).unwrap();
    assert_eq!(
        log.extend(&[], 4),
        Err(InputLogError::Backwards { from: 5, to: 4 })
    );
}

#[test]
fn diff_and_from_changes_round_trip() {
    let masks = [
        Input::NONE,
        Input::LEFT,
        Input::LEFT,
        Input::HOLD,
        Input::NONE,
    ];
    let changes = InputLog::diff(&masks, 0, Input::NONE);
    let log = InputLog::from_changes(&changes, 5).unwrap();
    let back: Vec<_> = (0..5).map(|f| log.get(f).unwrap()).collect();
    assert_eq!(back, masks);
}
