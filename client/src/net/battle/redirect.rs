//! A cluster's `Redirect` for a [`BattleOnline`]: the instance we asked sends us to another
//! (the room runs there, or it gathers the free-for-all queue). We connect there with a fresh
//! `Hello` and make the same request again once welcomed.

use sevenbag_protocol::ClientMessage;

use super::{BattleOnline, BattleStage};
use crate::net::online::transport::open;

impl BattleOnline {
    /// Follows a `Redirect` to `url`; a bad URL or too many redirects in a row fails.
    pub(super) fn follow_redirect(&mut self, url: &str) {
        let Some(asked) = self.asked.clone().filter(|_| self.code.is_none()) else {
            tracing::warn!("a redirect with no request of ours to make again: ignored");
            return;
        };
        let url = match self.redirects.follow(url) {
            Ok(url) => url,
            Err(e) => {
                self.stage = BattleStage::Failed(format!("Cannot reach the room: {e}."));
                return;
            }
        };
        tracing::info!(%url, "redirected to another server instance");
        if let Some(net) = &self.net {
            net.close();
        }
        match open(&url, self.hello.clone()) {
            Ok(link) => {
                self.net = Some(link);
                self.url = url;
                self.welcomed = false;
                self.request = Some(asked);
                self.stage = BattleStage::Connecting;
            }
            Err(e) => {
                self.net = None;
                self.stage = BattleStage::Failed(e);
            }
        }
    }

    /// Sends the request made once welcomed, kept for a redirect.
    pub(super) fn ask(&mut self, request: ClientMessage) {
        self.asked = Some(request.clone());
        self.send(request);
    }
}
