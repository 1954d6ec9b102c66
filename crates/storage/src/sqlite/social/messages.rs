//! Direct messages on SQLite: kept under their pair (lower id first), read newest first.

use rusqlite::{Connection, Row, params};

use super::super::db;
use super::pairs::SqlitePairs;
use crate::PlayerId;
use crate::columns::MESSAGE_COLUMNS;
use crate::moderation::{from_unix, unix};
use crate::social::{DirectMessage, MAX_PAGE, MessageId, SocialError, check_message, may_message};

fn message_row(r: &Row<'_>) -> rusqlite::Result<DirectMessage> {
    let from = PlayerId(r.get(1)?);
    let (low, high) = (PlayerId(r.get(2)?), PlayerId(r.get(3)?));
    Ok(DirectMessage {
        id: MessageId(r.get(0)?),
        from,
        to: if from == low { high } else { low },
        text: r.get(4)?,
        sent_unix: from_unix(r.get(5)?),
    })
}

/// Keeps a message once the rules allow it, in one transaction with their checks.
pub(super) fn store(
    conn: &mut Connection,
    from: PlayerId,
    to: PlayerId,
    text: &str,
    sent_unix: u64,
) -> Result<MessageId, SocialError> {
    check_message(text)?;
    let tx = conn.transaction().map_err(db)?;
    may_message(&mut SqlitePairs(&tx), from, to)?;
    tx.execute(
        "INSERT INTO direct_messages (low_id, high_id, from_id, text, sent_unix) \
         VALUES (?1, ?2, ?3, ?4, ?5)",
        params![
            from.min(to).0,
            from.max(to).0,
            from.0,
            text,
            unix(sent_unix)
        ],
    )
    .map_err(db)?;
    let id = MessageId(tx.last_insert_rowid());
    tx.commit().map_err(db)?;
    Ok(id)
}

/// The pair's messages, newest first, older than `before`.
pub(super) fn between(
    conn: &Connection,
    a: PlayerId,
    b: PlayerId,
    before: Option<MessageId>,
    limit: u32,
) -> Result<Vec<DirectMessage>, SocialError> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {MESSAGE_COLUMNS} FROM direct_messages \
             WHERE low_id = ?1 AND high_id = ?2 AND id < ?3 ORDER BY id DESC LIMIT ?4"
        ))
        .and_then(|mut s| {
            s.query_map(
                params![
                    a.min(b).0,
                    a.max(b).0,
                    before.map_or(i64::MAX, |m| m.0),
                    limit.min(MAX_PAGE)
                ],
                message_row,
            )?
            .collect::<rusqlite::Result<Vec<_>>>()
        })
        .map_err(db)?)
}
