//! The checksummed envelope every Sevenbag file shares: magic, version, bincode body, and an
//! FNV-1a 64 checksum of everything before it (docs/REPLAY.md).
//!
//! [`Envelope::open`] checks size, magic, length, version and checksum, in that order, before a
//! byte of the body is decoded, and refuses stray bytes after it; each format maps
//! [`EnvelopeError`] onto its own error type and then checks its own counts.

use bincode::config::Config;
use serde::Serialize;
use serde::de::DeserializeOwned;
use sevenbag_core::StateHasher;

/// bincode's standard configuration (little-endian, varints) refusing bodies over `N` bytes:
/// every file format decodes with one, so a forged length can never allocate past its limit.
pub(crate) type Limited<const N: usize> = bincode::config::Configuration<
    bincode::config::LittleEndian,
    bincode::config::Varint,
    bincode::config::Limit<N>,
>;

/// The [`Limited`] configuration for bodies of at most `N` bytes.
pub(crate) const fn limited<const N: usize>() -> Limited<N> {
    bincode::config::standard().with_limit::<N>()
}

/// Bytes of the trailing checksum.
const CHECKSUM_BYTES: usize = 8;

/// One file format's framing.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Envelope {
    /// The first four bytes.
    pub(crate) magic: [u8; 4],
    /// The version bytes written after the magic (little-endian), as this build writes them.
    pub(crate) version: &'static [u8],
    /// The largest file accepted.
    pub(crate) max_bytes: usize,
}

/// Why an envelope could not be opened.
#[derive(Debug)]
pub(crate) enum EnvelopeError {
    /// Larger than the format's limit.
    TooLarge { len: usize },
    /// Does not start with the magic.
    BadMagic { found: Vec<u8> },
    /// Shorter than the header and the checksum.
    Truncated { len: usize },
    /// Another version (read little-endian from the version bytes).
    Version { found: u32 },
    /// The checksum does not match.
    Checksum { stored: u64, computed: u64 },
    /// The body did not decode, or bytes were left after it.
    Malformed(String),
}

impl Envelope {
    fn head_bytes(&self) -> usize {
        self.magic.len() + self.version.len()
    }

    /// The format's version as a number (little-endian bytes).
    pub(crate) fn version_number(bytes: &[u8]) -> u32 {
        bytes
            .iter()
            .rev()
            .fold(0u32, |n, &b| (n << 8) | u32::from(b))
    }

    /// Encodes `value` as a whole file. Fails only if the body is over `config`'s limit.
    pub(crate) fn seal<T: Serialize, C: Config>(
        &self,
        value: &T,
        config: C,
    ) -> Result<Vec<u8>, String> {
        let body = bincode::serde::encode_to_vec(value, config).map_err(|e| e.to_string())?;
        let mut out = Vec::with_capacity(self.head_bytes() + body.len() + CHECKSUM_BYTES);
        out.extend_from_slice(&self.magic);
        out.extend_from_slice(self.version);
        out.extend_from_slice(&body);
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        Ok(out)
    }

    /// Checks the framing of `bytes` and decodes the body. Never panics.
    pub(crate) fn open<T: DeserializeOwned, C: Config>(
        &self,
        bytes: &[u8],
        config: C,
    ) -> Result<T, EnvelopeError> {
        if bytes.len() > self.max_bytes {
            return Err(EnvelopeError::TooLarge { len: bytes.len() });
        }
        if bytes.len() < self.magic.len() || bytes[..self.magic.len()] != self.magic {
            return Err(EnvelopeError::BadMagic {
                found: bytes.iter().take(self.magic.len()).copied().collect(),
            });
        }
        let head = self.head_bytes();
        if bytes.len() < head + CHECKSUM_BYTES {
            return Err(EnvelopeError::Truncated { len: bytes.len() });
        }
        let version = &bytes[self.magic.len()..head];
        if version != self.version {
            return Err(EnvelopeError::Version {
                found: Self::version_number(version),
            });
        }
        let (covered, tail) = bytes.split_at(bytes.len() - CHECKSUM_BYTES);
        let mut stored = [0u8; CHECKSUM_BYTES];
        stored.copy_from_slice(tail);
        let stored = u64::from_le_bytes(stored);
        let computed = checksum(covered);
        if stored != computed {
            return Err(EnvelopeError::Checksum { stored, computed });
        }
        let body = &covered[head..];
        let (value, used): (T, usize) = bincode::serde::decode_from_slice(body, config)
            .map_err(|e| EnvelopeError::Malformed(e.to_string()))?;
        if used != body.len() {
            return Err(EnvelopeError::Malformed(format!(
                "{} stray bytes after the body",
                body.len() - used
            )));
        }
        Ok(value)
    }
}

/// FNV-1a 64 of `bytes`, the files' checksum.
pub fn checksum(bytes: &[u8]) -> u64 {
    let mut h = StateHasher::new();
    h.bytes(bytes);
    h.finish()
}

/// `bytes` with its trailing checksum recomputed over everything before it, as a forger can:
/// fuzzing and hostile tests use it to reach past the checksum into the body. `None` if the
/// bytes are too short to hold a checksum.
pub fn forge_checksum(bytes: &[u8]) -> Option<Vec<u8>> {
    let body = bytes.len().checked_sub(CHECKSUM_BYTES)?;
    let mut forged = bytes.to_vec();
    let sum = checksum(&forged[..body]);
    forged[body..].copy_from_slice(&sum.to_le_bytes());
    Some(forged)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEST: Envelope = Envelope {
        magic: *b"TEST",
        version: &[2, 1],
        max_bytes: 64,
    };

    fn open(bytes: &[u8]) -> Result<Vec<u8>, EnvelopeError> {
        TEST.open(bytes, bincode::config::standard())
    }

    #[test]
    fn a_sealed_value_opens_to_itself() {
        let bytes = TEST.seal(&vec![1u8, 2, 3], bincode::config::standard());
        assert_eq!(open(&bytes.unwrap()).unwrap(), vec![1, 2, 3]);
    }

    #[test]
    fn another_version_is_named_by_its_number() {
        let mut bytes = TEST.seal(&vec![1u8], bincode::config::standard()).unwrap();
        bytes[4] = 3;
        assert!(matches!(
            open(&bytes),
            Err(EnvelopeError::Version { found: 0x0103 })
        ));
    }

    #[test]
    fn stray_bytes_after_the_body_are_refused() {
        let mut covered = b"TEST".to_vec();
        covered.extend_from_slice(&[2, 1, 1, 7, 9]);
        let sum = checksum(&covered);
        covered.extend_from_slice(&sum.to_le_bytes());
        assert!(matches!(open(&covered), Err(EnvelopeError::Malformed(m)) if m.contains("stray")));
    }

    #[test]
    fn a_forged_checksum_opens_a_changed_body() {
        let mut bytes = TEST
            .seal(&vec![1u8, 2], bincode::config::standard())
            .unwrap();
        bytes[8] = 5;
        assert!(matches!(open(&bytes), Err(EnvelopeError::Checksum { .. })));
        let forged = forge_checksum(&bytes).unwrap();
        assert_eq!(open(&forged).unwrap(), vec![1, 5]);
    }

    #[test]
    fn an_oversized_file_is_refused_before_reading_it() {
        assert!(matches!(
            open(&[0; 65]),
            Err(EnvelopeError::TooLarge { len: 65 })
        ));
    }
}
