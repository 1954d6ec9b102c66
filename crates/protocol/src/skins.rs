//! What the published-skin messages carry (`docs/PROTOCOL.md`, "Published skins"): a skin's
//! content address and the bounds its file is held to on decode.
//!
//! The messages are appended to [`crate::ClientMessage`] (`PublishSkin`, `ClearSkin`,
//! `GetSkin`) and [`crate::ServerMessage`] (`SkinPublished`, `SkinFile`, `SkinGone`,
//! `SeatSkins`). The server decodes every published file with the skin decoder and stores
//! its canonical re-encoding; a client decodes what it fetches again, under the same limits,
//! before it draws anything from it.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize};

/// The largest skin file a message may carry: the skin decoder's file limit (1 MiB;
/// `sevenbag_skin::limits::MAX_FILE_BYTES`, held equal by a test of the server's).
pub const MAX_SKIN_FILE_BYTES: usize = 1024 * 1024;

/// A published skin's content address: 64 lowercase hexadecimal digits, the SHA-256 of its
/// pixels (`sevenbag_skin::Skin::id`). Anything else is refused on decode.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct SkinId(String);

impl SkinId {
    /// `id` as a skin id, if it has the form of one.
    pub fn parse(id: &str) -> Option<SkinId> {
        let hex = |b: u8| matches!(b, b'0'..=b'9' | b'a'..=b'f');
        (id.len() == 64 && id.bytes().all(hex)).then(|| SkinId(id.to_string()))
    }

    /// The 64 hexadecimal digits.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for SkinId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for SkinId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<SkinId, D::Error> {
        let s = String::deserialize(d)?;
        SkinId::parse(&s).ok_or_else(|| serde::de::Error::custom("not a skin id"))
    }
}

/// Decodes a skin file of at most [`MAX_SKIN_FILE_BYTES`].
pub(crate) fn at_most_skin_bytes<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
    let bytes = Vec::<u8>::deserialize(d)?;
    if bytes.len() > MAX_SKIN_FILE_BYTES {
        return Err(serde::de::Error::custom(format!(
            "a skin file is at most {MAX_SKIN_FILE_BYTES} bytes"
        )));
    }
    Ok(bytes)
}

/// The most seats a [`crate::ServerMessage::SeatSkins`] names: a room's most seats.
pub const MAX_SEAT_SKINS: usize = 8;

/// Decodes a seat list of at most [`MAX_SEAT_SKINS`].
pub(crate) fn at_most_seats<'de, D: Deserializer<'de>>(
    d: D,
) -> Result<Vec<Option<SkinId>>, D::Error> {
    let seats = Vec::<Option<SkinId>>::deserialize(d)?;
    if seats.len() > MAX_SEAT_SKINS {
        return Err(serde::de::Error::custom("more seats than a room has"));
    }
    Ok(seats)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_skin_id_is_64_lowercase_hex_digits() {
        let id = "0123456789abcdef".repeat(4);
        assert_eq!(SkinId::parse(&id).map(|s| s.to_string()), Some(id.clone()));
        assert!(SkinId::parse(&id.to_uppercase()).is_none());
        assert!(SkinId::parse(&id[1..]).is_none());
        assert!(SkinId::parse(&format!("{}g", &id[1..])).is_none());
        assert!(SkinId::parse("../../etc/passwd").is_none());
    }

    #[test]
    fn a_message_naming_a_malformed_skin_id_does_not_decode() {
        let bad = crate::ClientMessage::GetSkin {
            id: SkinId("zz".into()),
        };
        let bytes = crate::encode(&bad).expect("encodes");
        assert!(crate::decode_client(&bytes, crate::MAX_MESSAGE_BYTES).is_err());
    }

    #[test]
    fn a_skin_file_over_the_limit_does_not_decode() {
        let big = crate::ClientMessage::PublishSkin {
            png: vec![0; MAX_SKIN_FILE_BYTES + 1],
        };
        let bytes = crate::encode(&big).expect("encodes");
        assert!(crate::decode_client(&bytes, crate::MAX_MESSAGE_BYTES).is_err());
    }
}
