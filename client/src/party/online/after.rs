//! What the keys do once a room's match is over, for every seat count: Enter readies for a
//! rematch (a touch screen's Rematch button presses it; a tap elsewhere on the results of
//! several seats does not, so they stay until the player asks for more; on a two-seat room's
//! card a click readies, as on the versus card), L copies the replay's link, S fetches the
//! replay from the server and saves it with this machine's replays, G fetches it and opens
//! its statistics screen, as after a versus match;
//! Q after a quick-play match leaves the room and queues again (Requeue, as after a quick
//! match); a two-seat room's card adds friend, report and block ([`super::duel`]).

use macroquad::input::KeyCode;

use super::PartyOnlineScreen;
use crate::fetched_replay::{self, Wanted};
use crate::net::links::Link;
use crate::render::theme;
use crate::screen::{Ctx, FrameIo, Screen, Transition};
use crate::sound::sfx::Sfx;
use crate::versus::play::rematch_box;

/// What the screen says when the server kept no replay to link or save.
const NO_REPLAY: &str = "The server kept no replay of this match.";

impl PartyOnlineScreen {
    /// The keys of a finished match; Requeue replaces this screen with the queue's.
    pub(super) fn update_after(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Option<Transition> {
        let kb = &io.keyboard;
        if self.online().came_from_queue()
            && self.online().seat().is_some()
            && kb.pressed(KeyCode::Q)
        {
            ctx.play(Sfx::Select);
            let next = self.online().requeue();
            self.online_mut().leave();
            return Some(Transition::Replace(Box::new(PartyOnlineScreen::new(next))));
        }
        let card_clicked = self.duel() && io.mouse.clicked && io.mouse.over(rematch_box(io));
        if kb.pressed_any(&[KeyCode::Enter, KeyCode::KpEnter]) || card_clicked {
            ctx.play(Sfx::Select);
            self.online_mut().ready();
        }
        if self.duel() {
            self.update_duel_card(ctx, kb);
        }
        let replay = self.online().result().and_then(|r| r.replay.clone());
        if kb.pressed(KeyCode::L) {
            match &replay {
                Some(id) => ctx.copy_game_link(&Link::Replay(id.clone())),
                None => ctx.notify(NO_REPLAY, theme::BAD),
            }
        }
        let wanted = if kb.pressed(KeyCode::S) {
            Some(Wanted::Save)
        } else if kb.pressed(KeyCode::G) {
            Some(Wanted::Stats)
        } else {
            None
        };
        if let Some(wanted) = wanted {
            match replay {
                Some(id) => {
                    self.fetching = Some(wanted);
                    self.online_mut().fetch_replay(&id);
                    ctx.notify(wanted.asking(), theme::ACCENT2);
                }
                None => ctx.notify(NO_REPLAY, theme::BAD),
            }
        }
        None
    }

    /// Does what the replay was asked for once it arrives: saved, or the statistics screen
    /// to open.
    pub(super) fn land_fetched_replay(&mut self, ctx: &mut Ctx) -> Option<Box<dyn Screen>> {
        let (id, bytes) = self.online_mut().take_replay()?;
        let wanted = self.fetching.take()?;
        fetched_replay::land(ctx, wanted, &id, &bytes)
    }
}

/// The results' keys line of a seated player: rematch, replay and link until readied, and
/// Requeue after a quick-play match.
pub(super) fn results_keys(ready: bool, came_from_queue: bool) -> &'static str {
    match (ready, came_from_queue) {
        (false, false) => {
            "Enter  ready for a rematch   G  stats   S  save replay   L  link   Esc  leave"
        }
        (false, true) => {
            "Enter  rematch   Q  requeue   G  stats   S  save replay   L  link   Esc  leave"
        }
        (true, false) => "Ready: waiting for the others      Esc  leave",
        (true, true) => "Ready: waiting for the others   Q  requeue   Esc  leave",
    }
}
