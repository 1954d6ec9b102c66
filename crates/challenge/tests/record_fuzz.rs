//! Property tests: no text, random or a truncated real record, makes parsing or scoring panic.

use proptest::prelude::*;
use sevenbag_challenge::{Record, score};

proptest! {
    #[test]
    fn random_text_never_panics(text in "[NLRDC0-9,\\n x]{0,400}") {
        if let Ok(r) = Record::parse(&text) {
            let _ = score(&r);
        }
    }

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(r) = Record::parse(&text) {
            let _ = score(&r);
        }
    }

    #[test]
    fn truncated_records_never_panic(cut in 0usize..200) {
        let full = "N,C1,L1,D18,N,R1,D19,L1,N,D18,N,R3,D18,N,R4,D19,N,R4,D16,N,R3,D15,N,C1,R5,D17,N,D16,R1,N,C1,L3,D17,N,C1,R5,D13";
        let text = &full[..cut.min(full.len())];
        if let Ok(r) = Record::parse(text) {
            let out = score(&r);
            prop_assert!(out.bricks <= r.bricks());
        }
    }
}
