//! [`SkinStorage`] on PostgreSQL (migration 8, as on SQLite).

use super::{PostgresStorage, db};
use crate::moderation::unix;
use crate::skins::{MAX_SKINS_PER_PLAYER, SkinPut, SkinStorage, check_put};
use crate::{PlayerId, StorageError};

impl SkinStorage for PostgresStorage {
    fn put_skin(
        &self,
        id: &str,
        png: &[u8],
        owner: PlayerId,
        now_unix: u64,
    ) -> Result<SkinPut, StorageError> {
        check_put(id, png)?;
        let mut conn = self.write()?;
        let mut tx = conn.transaction().map_err(db)?;
        let row = tx
            .query_opt(
                "SELECT removed_unix FROM skins WHERE id = $1 FOR UPDATE",
                &[&id],
            )
            .map_err(db)?;
        let removed: Option<Option<i64>> = row.map(|r| r.try_get(0)).transpose().map_err(db)?;
        match removed {
            Some(Some(_)) => return Ok(SkinPut::Removed),
            Some(None) => {
                tx.execute(
                    "UPDATE skins SET published_unix = $1 WHERE id = $2",
                    &[&unix(now_unix), &id],
                )
                .map_err(db)?;
            }
            None => {
                // Two instances publishing the same pixels at once: the second insert is a
                // no-op, and the skin is stored either way.
                tx.execute(
                    "INSERT INTO skins (id, png, owner_id, published_unix) \
                     VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING",
                    &[&id, &png, &owner.0, &unix(now_unix)],
                )
                .map_err(db)?;
            }
        }
        tx.execute(
            "DELETE FROM skins WHERE id IN (SELECT id FROM skins \
             WHERE owner_id = $1 AND removed_unix IS NULL \
             ORDER BY published_unix DESC, id OFFSET $2)",
            &[&owner.0, &i64::from(MAX_SKINS_PER_PLAYER)],
        )
        .map_err(db)?;
        tx.commit().map_err(db)?;
        Ok(SkinPut::Stored)
    }

    fn skin(&self, id: &str) -> Result<Option<Vec<u8>>, StorageError> {
        let row = self
            .read()?
            .query_opt(
                "SELECT png FROM skins WHERE id = $1 AND removed_unix IS NULL",
                &[&id],
            )
            .map_err(db)?;
        row.map(|r| r.try_get(0)).transpose().map_err(db)
    }
}
