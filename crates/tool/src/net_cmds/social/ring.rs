//! Who befriends whom in the social load, and the players' names and keys.
//!
//! Player `i` asks `i + 1` (mod N), which accepts; with N ≥ 5 it also asks `i + 2`, so each
//! player has four friends (two with N < 5). N is at least 3: with two players the ring's
//! requests would cross (each asking the other).

/// Fewest players a ring takes.
pub(super) const MIN_PLAYERS: usize = 3;
/// Most players a run takes (names carry four digits).
pub(super) const MAX_PLAYERS: usize = 5_000;

/// How far ahead in the ring player `i` sends requests: `i + d` for each `d`.
fn steps(n: usize) -> &'static [usize] {
    if n >= 5 { &[1, 2] } else { &[1] }
}

/// The players `i` asks.
pub(super) fn asks(i: usize, n: usize) -> Vec<usize> {
    steps(n).iter().map(|d| (i + d) % n).collect()
}

/// The players that ask `i`.
pub(super) fn asked_by(i: usize, n: usize) -> Vec<usize> {
    steps(n).iter().map(|d| (i + n - d) % n).collect()
}

/// Every friend of `i` (those it asks, then those that ask it).
pub(super) fn friends(i: usize, n: usize) -> Vec<usize> {
    let mut all = asks(i, n);
    all.extend(asked_by(i, n));
    all
}

/// Player `i`'s name: `s0001` for the first, then a tag of the run (letters that no name
/// folding touches), so runs against one database do not collide.
pub(super) fn name(i: usize, tag: &str) -> String {
    format!("s{:04}{tag}", i + 1)
}

/// The player a name of this run belongs to.
pub(super) fn index(name: &str, tag: &str, n: usize) -> Option<usize> {
    let digits = name.strip_prefix('s')?.strip_suffix(tag)?;
    let i = digits.parse::<usize>().ok()?.checked_sub(1)?;
    (digits.len() == 4 && i < n).then_some(i)
}

/// Letters that no name folding touches.
const TAG_LETTERS: &[u8] = b"cdefghjkmpqtuxy";

/// A tag of four letters from `seed`.
pub(super) fn tag(mut seed: u64) -> String {
    let base = TAG_LETTERS.len() as u64;
    (0..4)
        .map(|_| {
            let c = TAG_LETTERS[(seed % base) as usize] as char;
            seed /= base;
            c
        })
        .collect()
}

/// A fresh secret key for player `i` of the run `seed` (never all zeros).
pub(super) fn key(seed: u64, i: usize) -> [u8; 32] {
    let mut key = [0u8; 32];
    let mut state = seed.rotate_left(23) ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    for chunk in key.chunks_mut(8) {
        state = splitmix(state);
        chunk.copy_from_slice(&state.to_le_bytes());
    }
    key[31] |= 1;
    key
}

fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_request_has_one_receiver_and_friends_are_distinct() {
        for n in MIN_PLAYERS..12 {
            let mut asked = vec![Vec::new(); n];
            for i in 0..n {
                for j in asks(i, n) {
                    asked[j].push(i);
                }
            }
            for (i, by) in asked.iter_mut().enumerate() {
                by.sort_unstable();
                let mut expected = asked_by(i, n);
                expected.sort_unstable();
                assert_eq!(*by, expected, "n {n}, player {i}");
                let mut f = friends(i, n);
                f.sort_unstable();
                f.dedup();
                assert_eq!(f.len(), if n >= 5 { 4 } else { 2 }, "n {n}");
                assert!(!f.contains(&i));
                // No two players ask each other.
                for j in asks(i, n) {
                    assert!(!asks(j, n).contains(&i), "n {n}: {i} and {j}");
                }
            }
        }
    }

    #[test]
    fn names_read_back_and_are_valid() {
        let tag = tag(12345);
        for i in [0, 9, 999, MAX_PLAYERS - 1] {
            let name = name(i, &tag);
            assert!(sevenbag_protocol::identity::validate_name(&name).is_ok());
            assert_eq!(index(&name, &tag, MAX_PLAYERS), Some(i));
        }
        assert_eq!(name(0, &tag).len(), 9);
        assert_eq!(index("s0000cdef", "cdef", 10), None);
        assert_eq!(index("s0011cdef", "cdef", 10), None);
        assert_eq!(index("someone", "cdef", 10), None);
        assert_ne!(key(1, 0), key(1, 1));
    }
}
