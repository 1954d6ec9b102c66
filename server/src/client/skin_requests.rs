//! Published skins: `PublishSkin`, `ClearSkin` and `GetSkin`, each under its own rate, handed
//! to `crate::skins`. The skin a connection wears lives in its tags, which its rooms read
//! whenever they tell their seats (`SeatSkins`); a change while seated has them tell it again.

use super::*;

/// A connection's rates of skin requests.
pub(super) struct SkinBuckets {
    publish: TokenBucket,
    fetch: TokenBucket,
}

impl SkinBuckets {
    pub(super) fn new(now: Instant) -> SkinBuckets {
        SkinBuckets {
            publish: TokenBucket::new(skins::PUBLISHES_PER_SECOND, skins::PUBLISH_BURST, now),
            fetch: TokenBucket::new(skins::FETCHES_PER_SECOND, skins::FETCH_BURST, now),
        }
    }
}

impl Client {
    /// Answers `PublishSkin`, `ClearSkin` or `GetSkin`.
    pub(super) async fn skin_request(&mut self, request: ClientMessage) {
        let now = Instant::now();
        match request {
            ClientMessage::PublishSkin { png } => {
                if !self.skin_buckets.publish.take(now) {
                    self.error(
                        ErrorCode::RateLimited,
                        "skins are published at most once a second",
                    );
                    return;
                }
                let owner = self.identity.map(|i| i.id);
                match skins::publish(&self.shared.services, owner, png).await {
                    Ok(id) => {
                        self.tags.wear(Some(id.clone()));
                        self.outbox.send(&ServerMessage::SkinPublished { id });
                        self.send_seated(RoomCommand::SkinChanged).await;
                    }
                    Err((code, message)) => self.error(code, message),
                }
            }
            ClientMessage::ClearSkin => {
                self.tags.wear(None);
                self.send_seated(RoomCommand::SkinChanged).await;
            }
            ClientMessage::GetSkin { id } => {
                if !self.skin_buckets.fetch.take(now) {
                    self.error(ErrorCode::RateLimited, "too many skins asked for at once");
                    return;
                }
                let metrics = &self.shared.services.metrics;
                match skins::fetch(&self.shared.services, &id).await {
                    Some(png) => {
                        metrics.skin("served");
                        self.outbox.send(&ServerMessage::SkinFile { id, png });
                    }
                    None => {
                        metrics.skin("gone");
                        self.outbox.send(&ServerMessage::SkinGone { id });
                    }
                }
            }
            _ => {}
        }
    }
}
