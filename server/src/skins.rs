//! Published block skins: a player's skin file decoded, re-encoded and kept under its content
//! address, so that the rooms it joins show its boards in it to everyone (`SeatSkins`), and
//! the file served to whoever asks for it (`GetSkin`).
//!
//! - **Decoded here, not trusted.** A file is decoded with `sevenbag-skin`, the decoder the
//!   game and `sevenbag-tool skin check` use, under its limits (1 MiB, 1536×864 pixels, a
//!   bounded decoder), on a blocking thread; what is kept and served is the skin's canonical
//!   re-encoding ([`sevenbag_skin::Skin::to_png`]), never the bytes the player sent, and its
//!   id is the SHA-256 of the pixels ([`sevenbag_skin::Skin::id`]).
//! - **An identity publishes.** A skin is kept in the database with the identity that
//!   published it (at most [`sevenbag_storage::skins::MAX_SKINS_PER_PLAYER`] each), so
//!   operators know whose it is; guests' boards show in the default blocks to others.
//! - **Operators decide.** `--no-skins` refuses publishing (stored skins are still served);
//!   `POST /admin/skins/{id}/remove` takes one down, in the audit log, and the same pixels are
//!   not taken again.

use sevenbag_protocol::{ErrorCode, SkinId};
use sevenbag_storage::{PlayerId, SkinPut};

use crate::db::unix_now;
use crate::refusal::Refusal;
use crate::services::Services;

/// Publishes per connection per second, sustained (a decode and a database write each).
pub(crate) const PUBLISHES_PER_SECOND: u32 = 1;
/// ... and in a burst.
pub(crate) const PUBLISH_BURST: u32 = 3;
/// Skin fetches per connection per second, sustained.
pub(crate) const FETCHES_PER_SECOND: u32 = 4;
/// ... and in a burst: every seat of a room of eight, twice.
pub(crate) const FETCH_BURST: u32 = 16;

/// Decodes `png` under the skin limits, keeps its canonical file for `owner` and answers its
/// id; or why not, in words for the player.
pub(crate) async fn publish(
    services: &Services,
    owner: Option<PlayerId>,
    png: Vec<u8>,
) -> Result<SkinId, Refusal> {
    if !services.config.skins {
        return Err((
            ErrorCode::Unavailable,
            "this server takes no published skins: your skin shows on your screen only".into(),
        ));
    }
    let Some(db) = &services.db else {
        return Err((
            ErrorCode::Unavailable,
            "this server keeps no database, so it cannot keep skins".into(),
        ));
    };
    let Some(owner) = owner else {
        return Err((
            ErrorCode::NotIdentified,
            "publishing a skin needs an identity (register first)".into(),
        ));
    };
    let decoded = tokio::task::spawn_blocking(move || {
        let skin = sevenbag_skin::decode(&png)?;
        Ok::<_, sevenbag_skin::SkinError>((skin.id(), skin.to_png()))
    })
    .await;
    let (id, canonical) = match decoded {
        Ok(Ok(done)) => done,
        Ok(Err(e)) => {
            services.metrics.skin("refused");
            return Err((ErrorCode::BadSkin, format!("skin refused: {e}")));
        }
        Err(e) => {
            tracing::error!(error = %e, "skin decoding task failed");
            return Err((
                ErrorCode::BadSkin,
                "skin refused: it could not be read".into(),
            ));
        }
    };
    let Some(skin) = SkinId::parse(&id) else {
        tracing::error!(%id, "the skin decoder gave an id of another form");
        return Err((
            ErrorCode::BadSkin,
            "skin refused: it could not be read".into(),
        ));
    };
    let key = id.clone();
    let put = db
        .write(move |s| s.put_skin(&key, &canonical, owner, unix_now()))
        .await;
    match put {
        Ok(SkinPut::Stored) => {
            services.metrics.skin("published");
            tracing::info!(player = owner.0, skin = %id, "skin published");
            Ok(skin)
        }
        Ok(SkinPut::Removed) => {
            services.metrics.skin("refused");
            Err((
                ErrorCode::BadSkin,
                "skin refused: the server's operators removed this skin".into(),
            ))
        }
        Err(e) => {
            tracing::error!(error = %e, "cannot store a skin");
            Err((
                ErrorCode::Unavailable,
                "the server's database failed; try again later".into(),
            ))
        }
    }
}

/// The canonical file of skin `id`, if the server has it.
pub(crate) async fn fetch(services: &Services, id: &SkinId) -> Option<Vec<u8>> {
    let db = services.db.as_ref()?;
    let key = id.as_str().to_string();
    match db.read(move |s| s.skin(&key)).await {
        Ok(found) => found,
        Err(e) => {
            tracing::warn!(error = %e, "cannot read a skin");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_message_holds_any_file_the_skin_decoder_takes() {
        assert_eq!(
            sevenbag_protocol::skins::MAX_SKIN_FILE_BYTES,
            sevenbag_skin::limits::MAX_FILE_BYTES
        );
        assert_eq!(
            sevenbag_storage::skins::MAX_SKIN_BYTES,
            sevenbag_skin::limits::MAX_FILE_BYTES
        );
    }
}
