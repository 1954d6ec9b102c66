//! [`SkinStorage`] on SQLite (migration 8).

use rusqlite::{OptionalExtension, params};

use super::{SqliteStorage, db};
use crate::moderation::unix;
use crate::skins::{MAX_SKINS_PER_PLAYER, SkinPut, SkinStorage, check_put};
use crate::{PlayerId, StorageError};

impl SkinStorage for SqliteStorage {
    fn put_skin(
        &self,
        id: &str,
        png: &[u8],
        owner: PlayerId,
        now_unix: u64,
    ) -> Result<SkinPut, StorageError> {
        check_put(id, png)?;
        let mut conn = self.write();
        let tx = conn.transaction().map_err(db)?;
        let removed: Option<Option<i64>> = tx
            .query_row("SELECT removed_unix FROM skins WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .optional()
            .map_err(db)?;
        match removed {
            Some(Some(_)) => return Ok(SkinPut::Removed),
            Some(None) => {
                tx.execute(
                    "UPDATE skins SET published_unix = ?1 WHERE id = ?2",
                    params![unix(now_unix), id],
                )
                .map_err(db)?;
            }
            None => {
                tx.execute(
                    "INSERT INTO skins (id, png, owner_id, published_unix) \
                     VALUES (?1, ?2, ?3, ?4)",
                    params![id, png, owner.0, unix(now_unix)],
                )
                .map_err(db)?;
            }
        }
        // The owner's oldest skins past the cap go; removed rows stay (they hold no bytes).
        tx.execute(
            "DELETE FROM skins WHERE id IN (SELECT id FROM skins \
             WHERE owner_id = ?1 AND removed_unix IS NULL \
             ORDER BY published_unix DESC, id LIMIT -1 OFFSET ?2)",
            params![owner.0, MAX_SKINS_PER_PLAYER],
        )
        .map_err(db)?;
        tx.commit().map_err(db)?;
        Ok(SkinPut::Stored)
    }

    fn skin(&self, id: &str) -> Result<Option<Vec<u8>>, StorageError> {
        self.read()
            .query_row(
                "SELECT png FROM skins WHERE id = ?1 AND removed_unix IS NULL",
                [id],
                |r| r.get(0),
            )
            .optional()
            .map_err(db)
    }
}
