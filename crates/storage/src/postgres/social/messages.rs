//! Direct messages on PostgreSQL: kept under their pair (lower id first), read newest first.

use postgres::{GenericClient, Row};

use super::super::db;
use super::pairs::PgPairs;
use crate::PlayerId;
use crate::columns::MESSAGE_COLUMNS;
use crate::moderation::{from_unix, unix};
use crate::social::{DirectMessage, MAX_PAGE, MessageId, SocialError, check_message, may_message};

fn message_row(r: &Row) -> Result<DirectMessage, postgres::Error> {
    let from = PlayerId(r.try_get(1)?);
    let (low, high) = (PlayerId(r.try_get(2)?), PlayerId(r.try_get(3)?));
    Ok(DirectMessage {
        id: MessageId(r.try_get(0)?),
        from,
        to: if from == low { high } else { low },
        text: r.try_get(4)?,
        sent_unix: from_unix(r.try_get(5)?),
    })
}

/// Keeps a message once the rules allow it; `tx` is committed by the caller.
pub(super) fn store(
    tx: &mut impl GenericClient,
    from: PlayerId,
    to: PlayerId,
    text: &str,
    sent_unix: u64,
) -> Result<MessageId, SocialError> {
    check_message(text)?;
    let mut pairs = PgPairs(&mut *tx);
    pairs.lock_pair(from, to)?;
    may_message(&mut pairs, from, to)?;
    let id: i64 = tx
        .query_one(
            "INSERT INTO direct_messages (low_id, high_id, from_id, text, sent_unix) \
             VALUES ($1, $2, $3, $4, $5) RETURNING id",
            &[
                &from.min(to).0,
                &from.max(to).0,
                &from.0,
                &text,
                &unix(sent_unix),
            ],
        )
        .and_then(|r| r.try_get(0))
        .map_err(db)?;
    Ok(MessageId(id))
}

/// The pair's messages, newest first, older than `before`.
pub(super) fn between(
    conn: &mut impl GenericClient,
    a: PlayerId,
    b: PlayerId,
    before: Option<MessageId>,
    limit: u32,
) -> Result<Vec<DirectMessage>, SocialError> {
    let rows = conn
        .query(
            &format!(
                "SELECT {MESSAGE_COLUMNS} FROM direct_messages \
                 WHERE low_id = $1 AND high_id = $2 AND id < $3 ORDER BY id DESC LIMIT $4"
            ),
            &[
                &a.min(b).0,
                &a.max(b).0,
                &before.map_or(i64::MAX, |m| m.0),
                &i64::from(limit.min(MAX_PAGE)),
            ],
        )
        .map_err(db)?;
    Ok(rows
        .iter()
        .map(message_row)
        .collect::<Result<Vec<_>, _>>()
        .map_err(db)?)
}
