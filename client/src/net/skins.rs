//! The skins of a room's seats, as the server tells them (`SeatSkins`): which skin each seat
//! wears, the files fetched for them (`GetSkin`) and decoded here under the skin limits, and
//! publishing our own skin after we identify (`PublishSkin`).
//!
//! A connection hands its book on with the connection (a room of several seats takes over a
//! connection that `Online` opened), so what was fetched is not fetched again. Natively a
//! fetched file is decoded at once with the skin decoder; the browser build links no PNG
//! decoder (its size), so there the file is checked by the skin rules and its pixels decoded
//! by the browser, a request [`SkinBook::pump`] finishes.

use std::collections::BTreeMap;
use std::rc::Rc;

use sevenbag_protocol::{ClientMessage, ErrorCode, ServerMessage, SkinId};
use sevenbag_skin::Skin;

/// Where publishing our skin stands.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Publish {
    /// Not asked on this connection.
    Idle,
    /// `PublishSkin` sent, its answer not yet heard.
    Asked,
    /// Answered (worn, or refused).
    Answered,
}

/// A fetched skin: its tiles, or `None` while asked, gone or refused here.
type Fetched = Option<Rc<Skin>>;

/// Most skins kept decoded: a room of eight's other seats, and a few rooms more.
const MOST_KEPT: usize = 32;

/// Every seat's skin on one connection (see the module docs).
#[derive(Debug)]
pub struct SkinBook {
    /// Per seat of the last room state: the skin it wears.
    seats: Vec<Option<SkinId>>,
    /// Skins asked for or fetched, by id.
    files: BTreeMap<SkinId, Fetched>,
    publish: Publish,
    /// A skin file this connection wears instead of the one in force (a capture's bots).
    wear: Option<Vec<u8>>,
    /// Fetched files the browser is decoding.
    #[cfg(target_arch = "wasm32")]
    decoding: Vec<(SkinId, crate::platform::web_files::Request)>,
}

impl Default for SkinBook {
    fn default() -> SkinBook {
        SkinBook {
            seats: Vec::new(),
            files: BTreeMap::new(),
            publish: Publish::Idle,
            wear: None,
            #[cfg(target_arch = "wasm32")]
            decoding: Vec::new(),
        }
    }
}

impl SkinBook {
    /// A book that publishes the skin file `png` instead of the skin in force.
    pub fn wearing(png: Vec<u8>) -> SkinBook {
        SkinBook {
            wear: Some(png),
            ..SkinBook::default()
        }
    }

    /// Our skin to publish now (the settings share it and one is in force), once a
    /// connection: sent right after `Identify`, so the server wears it before any request.
    pub fn publish(&mut self) -> Option<ClientMessage> {
        if self.publish != Publish::Idle {
            return None;
        }
        let png = self.wear.clone().or_else(crate::render::skin::to_publish)?;
        self.publish = Publish::Asked;
        Some(ClientMessage::PublishSkin { png })
    }

    /// A new connection (a reconnect) publishes again.
    pub fn reconnected(&mut self) {
        self.publish = Publish::Idle;
    }

    /// Notes `message` if it is about skins; returns whether it was consumed, and the
    /// requests to send (skins to fetch). A refusal of our own skin is said in `notice`.
    pub fn hear(&mut self, message: &ServerMessage) -> Heard {
        let mut heard = Heard::default();
        match message {
            ServerMessage::SeatSkins { skins } => {
                self.seats = skins.clone();
                for id in skins.iter().flatten() {
                    if !self.files.contains_key(id) {
                        self.files.insert(id.clone(), None);
                        heard.send.push(ClientMessage::GetSkin { id: id.clone() });
                    }
                }
                self.forget_unworn();
                heard.consumed = true;
            }
            ServerMessage::SkinFile { id, png } => {
                #[cfg(not(target_arch = "wasm32"))]
                if let Some(slot) = self.files.get_mut(id) {
                    *slot = decode(id, png).map(Rc::new);
                }
                #[cfg(target_arch = "wasm32")]
                if self.files.contains_key(id) && sevenbag_skin::check(png).is_ok() {
                    let most = sevenbag_skin::limits::MAX_PIXELS as u32;
                    let request = crate::platform::web_files::decode_image(png, most);
                    self.decoding.push((id.clone(), request));
                }
                heard.consumed = true;
            }
            ServerMessage::SkinGone { .. } => heard.consumed = true,
            ServerMessage::SkinPublished { .. } => {
                self.publish = Publish::Answered;
                heard.consumed = true;
            }
            // The answer to our `PublishSkin` comes before the request sent after it.
            ServerMessage::Error {
                code,
                message,
                fatal: false,
            } if self.publish == Publish::Asked && refuses_a_skin(*code) => {
                self.publish = Publish::Answered;
                // A server that takes no skins (or no identities) is said in the settings'
                // help, not before every match; a refused file or a flood is worth a notice.
                if matches!(code, ErrorCode::BadSkin | ErrorCode::RateLimited) {
                    heard.notice = Some(format!(
                        "Others see your boards in the default blocks: {message}"
                    ));
                } else {
                    tracing::info!(%message, "the server wears no skin of ours");
                }
                heard.consumed = true;
            }
            _ => {}
        }
        heard
    }

    /// In a browser: takes the skins the browser has finished decoding (once a frame).
    #[cfg(target_arch = "wasm32")]
    pub fn pump(&mut self) {
        use crate::platform::web_files::Poll;
        let mut i = 0;
        while i < self.decoding.len() {
            let poll = self.decoding[i].1.poll();
            if poll == Poll::Pending {
                i += 1;
                continue;
            }
            let (id, request) = self.decoding.swap_remove(i);
            let most = 8 + sevenbag_skin::limits::MAX_DECODED_BYTES;
            let pixels = (poll == Poll::Done).then(|| request.take(most)).flatten();
            let skin = pixels.and_then(|p| crate::config::page_skin::from_sized_rgba(&p).ok());
            if let Some(slot) = self.files.get_mut(&id) {
                *slot = skin.map(Rc::new);
            }
        }
    }

    /// Natively nothing waits: fetched skins are decoded when they arrive.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn pump(&mut self) {}

    /// The skin room seat `seat` wears, with its id, if it is known here.
    pub fn worn(&self, seat: usize) -> Option<(&str, &Skin)> {
        let id = self.seats.get(seat)?.as_ref()?;
        let skin = self.files.get(id)?.as_deref()?;
        Some((id.as_str(), skin))
    }

    /// Drops decoded skins no seat wears once more than [`MOST_KEPT`] are kept.
    fn forget_unworn(&mut self) {
        if self.files.len() <= MOST_KEPT {
            return;
        }
        let seats = &self.seats;
        self.files
            .retain(|id, _| seats.iter().flatten().any(|worn| worn == id));
    }
}

/// What [`SkinBook::hear`] made of a message.
#[derive(Debug, Default)]
pub struct Heard {
    /// The message was about skins and needs nothing else.
    pub consumed: bool,
    /// Requests to send.
    pub send: Vec<ClientMessage>,
    /// Something to tell the player.
    pub notice: Option<String>,
}

/// Whether `code` is how a server refuses a `PublishSkin`.
fn refuses_a_skin(code: ErrorCode) -> bool {
    matches!(
        code,
        ErrorCode::BadSkin
            | ErrorCode::Unavailable
            | ErrorCode::NotIdentified
            | ErrorCode::RateLimited
    )
}

/// A fetched file decoded under the skin limits, if it is the skin it is said to be.
#[cfg(not(target_arch = "wasm32"))]
fn decode(id: &SkinId, png: &[u8]) -> Option<Skin> {
    match sevenbag_skin::decode(png) {
        Ok(skin) if skin.id() == id.as_str() => Some(skin),
        Ok(_) => {
            tracing::warn!(%id, "a served skin is not the skin of its id; drawn as default");
            None
        }
        Err(e) => {
            tracing::warn!(%id, error = %e, "a served skin was refused; drawn as default");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(name: &str) -> Vec<u8> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../crates/skin/tests/samples")
            .join(name);
        std::fs::read(path).expect("sample")
    }

    fn id_of(png: &[u8]) -> SkinId {
        let skin = sevenbag_skin::decode(png).expect("decodes");
        SkinId::parse(&skin.id()).expect("an id")
    }

    #[test]
    fn a_seat_wearing_an_unknown_skin_has_it_fetched_once_and_then_shows_it() {
        let png = sample("tetrio.png");
        let id = id_of(&png);
        let mut book = SkinBook::default();
        let skins = ServerMessage::SeatSkins {
            skins: vec![None, Some(id.clone())],
        };
        let heard = book.hear(&skins);
        assert_eq!(heard.send, vec![ClientMessage::GetSkin { id: id.clone() }]);
        assert!(book.worn(1).is_none(), "not until it arrives");
        assert!(book.hear(&skins).send.is_empty(), "asked once");
        book.hear(&ServerMessage::SkinFile {
            id: id.clone(),
            png,
        });
        assert_eq!(book.worn(1).map(|(i, _)| i), Some(id.as_str()));
        assert!(book.worn(0).is_none());
    }

    #[test]
    fn a_served_file_that_is_not_the_skin_of_its_id_is_not_drawn() {
        let jstris = sample("jstris.png");
        let id = id_of(&sample("tetrio.png"));
        let mut book = SkinBook::default();
        book.hear(&ServerMessage::SeatSkins {
            skins: vec![Some(id.clone())],
        });
        book.hear(&ServerMessage::SkinFile { id, png: jstris });
        assert!(book.worn(0).is_none());
    }

    fn asked() -> SkinBook {
        SkinBook {
            publish: Publish::Asked,
            ..SkinBook::default()
        }
    }

    fn error(code: ErrorCode, message: &str) -> ServerMessage {
        ServerMessage::Error {
            code,
            message: message.into(),
            fatal: false,
        }
    }

    #[test]
    fn a_refused_file_is_told_and_not_taken_for_the_requests_answer() {
        let mut book = asked();
        let refusal = error(ErrorCode::BadSkin, "skin refused: not a PNG file");
        let heard = book.hear(&refusal);
        assert!(heard.consumed);
        assert!(heard.notice.is_some_and(|n| n.contains("not a PNG file")));
        assert!(
            !book.hear(&refusal).consumed,
            "the next error is the request's"
        );
    }

    #[test]
    fn a_server_that_takes_no_skins_is_answered_quietly() {
        let mut book = asked();
        let heard = book.hear(&error(ErrorCode::Unavailable, "this server takes no skins"));
        assert!(heard.consumed, "not the request's failure");
        assert!(heard.notice.is_none(), "no notice before every match");
    }
}
