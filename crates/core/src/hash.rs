//! The state hash: 64-bit FNV-1a over canonical bytes.
//!
//! Algorithm (fixed; clients, server and replays compare it): start from the FNV offset basis
//! `0xcbf29ce484222325`; for each byte, XOR it in and multiply by the prime `0x100000001b3`
//! (wrapping). Integers are fed little-endian at their declared width; booleans as one byte 0/1;
//! an absent optional value as one byte 0, a present one as 1 followed by the value.
//! [`crate::Match::state_hash`] documents which fields go in and in what order.

/// Accumulates canonical bytes into an FNV-1a 64 hash.
#[derive(Clone, Copy, Debug)]
pub struct StateHasher {
    state: u64,
}

impl Default for StateHasher {
    fn default() -> Self {
        StateHasher::new()
    }
}

impl StateHasher {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;

    /// A hasher with no bytes fed yet.
    pub const fn new() -> StateHasher {
        StateHasher {
            state: Self::OFFSET,
        }
    }

    /// Feeds raw bytes.
    pub fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.state ^= u64::from(b);
            self.state = self.state.wrapping_mul(Self::PRIME);
        }
    }

    /// Feeds one byte.
    pub fn u8(&mut self, v: u8) {
        self.bytes(&[v]);
    }

    /// Feeds a bool as one byte.
    pub fn bool(&mut self, v: bool) {
        self.u8(u8::from(v));
    }

    /// Feeds a u16, little-endian.
    pub fn u16(&mut self, v: u16) {
        self.bytes(&v.to_le_bytes());
    }

    /// Feeds a u32, little-endian.
    pub fn u32(&mut self, v: u32) {
        self.bytes(&v.to_le_bytes());
    }

    /// Feeds a u64, little-endian.
    pub fn u64(&mut self, v: u64) {
        self.bytes(&v.to_le_bytes());
    }

    /// Feeds an i8 as its two's-complement byte.
    pub fn i8(&mut self, v: i8) {
        self.bytes(&v.to_le_bytes());
    }

    /// The hash of everything fed so far.
    pub const fn finish(&self) -> u64 {
        self.state
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_published_fnv1a_vectors() {
        let mut h = StateHasher::new();
        assert_eq!(h.finish(), 0xcbf29ce484222325);
        h.bytes(b"a");
        assert_eq!(h.finish(), 0xaf63dc4c8601ec8c);
        let mut h = StateHasher::new();
        h.bytes(b"foobar");
        assert_eq!(h.finish(), 0x85944171f73967e8);
    }
}
