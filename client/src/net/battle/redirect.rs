//! A cluster's `Redirect` for a [`BattleOnline`]: the instance we asked sends us to another
//! (the room runs there, or it gathers the free-for-all queue). We connect there with a fresh
//! `Hello` and make the same request again once welcomed.

use sevenbag_protocol::ClientMessage;

use super::{BattleOnline, BattleStage};
use crate::net::online::transport::{RedirectError, redirect};

impl BattleOnline {
    /// Follows a `Redirect` to `url`; a bad URL or too many redirects in a row fails.
    pub(super) fn follow_redirect(&mut self, url: &str) {
        let Some(asked) = self.asked.clone().filter(|_| self.code.is_none()) else {
            tracing::warn!("a redirect with no request of ours to make again: ignored");
            return;
        };
        let old = self.net.as_deref();
        match redirect(&mut self.redirects, old, url, self.hello.clone()) {
            Ok((link, url)) => {
                self.net = Some(link);
                self.url = url;
                self.welcomed = false;
                self.request = Some(asked);
                self.stage = BattleStage::Connecting;
            }
            Err(RedirectError::Refused(e)) => {
                self.stage = BattleStage::Failed(format!("Cannot reach the room: {e}."));
            }
            Err(RedirectError::Open(e)) => {
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
