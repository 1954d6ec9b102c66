//! Published block skins (migration 8): each a canonical PNG under its content address, who
//! published it first, and whether the operators removed it.
//!
//! The server decodes and re-encodes every skin before it gets here, so this module only
//! keeps bytes; it checks what it can without a decoder (the id's form, the size) so that a
//! caller's mistake cannot fill the database. A removed skin keeps its row with the bytes
//! dropped: the same pixels published again are refused ([`SkinPut::Removed`]), and
//! [`SkinStorage::skin`] reads it as unknown.

use crate::{PlayerId, StorageError};

/// The most bytes a stored skin may have: the skin decoder's own file limit (1 MiB).
pub const MAX_SKIN_BYTES: usize = 1024 * 1024;

/// Skins an identity keeps published: publishing one more drops its oldest (players who
/// wear it see the default blocks from their next room on).
pub const MAX_SKINS_PER_PLAYER: u32 = 8;

/// What [`SkinStorage::put_skin`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkinPut {
    /// The skin is stored now (new, or already there: the id is the content).
    Stored,
    /// The operators removed these pixels; they are not stored again.
    Removed,
}

/// A skin id is 64 lowercase hexadecimal digits (a SHA-256, `sevenbag_skin::Skin::id`).
pub fn is_skin_id(id: &str) -> bool {
    id.len() == 64 && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Checks what [`SkinStorage::put_skin`] is given.
pub(crate) fn check_put(id: &str, png: &[u8]) -> Result<(), StorageError> {
    if !is_skin_id(id) {
        return Err(StorageError::Db(format!("not a skin id: {id:?}")));
    }
    if png.is_empty() || png.len() > MAX_SKIN_BYTES {
        return Err(StorageError::Db(format!(
            "a skin file is 1 to {MAX_SKIN_BYTES} bytes, not {}",
            png.len()
        )));
    }
    Ok(())
}

/// Published skins, on both backends.
pub trait SkinStorage {
    /// Keeps `png` under `id`, published by `owner` (the first publisher stays the owner),
    /// then drops what the owner has over [`MAX_SKINS_PER_PLAYER`], oldest first, in one
    /// transaction. Publishing a skin it already has again makes it its newest.
    fn put_skin(
        &self,
        id: &str,
        png: &[u8],
        owner: PlayerId,
        now_unix: u64,
    ) -> Result<SkinPut, StorageError>;
    /// The stored file of skin `id`; `None` if it is unknown, dropped or removed.
    fn skin(&self, id: &str) -> Result<Option<Vec<u8>>, StorageError>;
}
