//! The free-for-all room's words around the boards: the status line (targeting help, our
//! target, the round trip and the path), the title, and how the status line says to leave,
//! confirm leaving and ask for a rematch.

use sevenbag_core::Phase;

use super::PartyOnlineScreen;
use crate::net::battle::SEAT_LOST;
use crate::party::follow::Watch;

impl PartyOnlineScreen {
    /// The status line: the targeting help, our target, the round trip and the path our
    /// inputs take (UDP for datagrams, TCP for the WebSocket).
    pub(super) fn status(&self) -> String {
        let o = self.online();
        let path = match o.path() {
            sevenbag_netplay::TransportPath::Datagrams => "UDP",
            sevenbag_netplay::TransportPath::WebSocket => "TCP",
        };
        let ping = o.ping().map_or_else(String::new, |d| {
            format!("   ·   ping {} ms {path}", d.as_millis())
        });
        let leave = leave_words();
        if self.confirm_leave {
            return confirm_words().to_owned();
        }
        if let Some(r) = o.result()
            && !matches!(o.battle().phase(), Phase::MatchOver { .. })
        {
            // Decided off the boards (players left, the server stopped): no results table.
            let how = match r.reason {
                sevenbag_protocol::EndReason::Forfeit => "the others left",
                sevenbag_protocol::EndReason::Abandoned => "everyone left",
                _ => "the server ended it",
            };
            let keys = if o.battle_seat().is_some() {
                rematch_words()
            } else {
                leave
            };
            return format!("Match over: {how}   ·   {keys}{ping}");
        }
        if o.seat_lost() {
            return format!("{SEAT_LOST}   ·   {leave}{ping}");
        }
        let Some(me) = o.battle_seat() else {
            let shown = self.party.watch.shown();
            let name = o.names().get(shown.index()).map_or("—", String::as_str);
            return format!(
                "{}   ·   {leave}{ping}",
                watch_words(name, self.party.watch)
            );
        };
        let b = o.battle();
        if b.player(me).topped_out().is_some() && o.is_live() {
            let place = b
                .placement(me)
                .map_or_else(String::new, |p| format!(" ({})", crate::text::ordinal(p)));
            return format!("You are out{place}: watching the others   ·   {leave}{ping}");
        }
        if b.header().options.targeting != sevenbag_core::Targeting::Manual {
            let rule = b.header().options.targeting.name();
            return format!("Targeting {rule} picks whom you attack   ·   {leave}{ping}");
        }
        let names = o.names();
        let target = match o.target() {
            Some(t) => format!(
                "your target: {}",
                names.get(t.index()).map_or("—", String::as_str)
            ),
            None => "no target chosen: your attacks go round in turn".to_owned(),
        };
        format!(
            "{}   ·   {target}   ·   {leave}{ping}",
            crate::input::taps::hint(
                "Tab / 1–8 / a tap choose your target",
                "a tap on a board chooses your target"
            )
        )
    }

    pub(super) fn title(&self) -> String {
        let o = self.online();
        let code = o.code().unwrap_or("—");
        let verb = if o.is_spectator() {
            "WATCHING"
        } else {
            "ONLINE FREE-FOR-ALL"
        };
        format!("{verb}  ·  ROOM {code}")
    }
}

/// What a spectator's status line says of the board shown large (`name`'s) and its keys.
pub(super) fn watch_words(name: &str, watch: Watch) -> String {
    let pick = crate::input::taps::hint("Tab / 1–8 pick a board", "a tap on a board picks it");
    if watch.follows_leader() {
        format!("Watching {name}, the leader by VS   ·   {pick}")
    } else {
        let follow = crate::input::taps::hint("F", "a tap on the large board");
        format!("Watching {name}   ·   {pick}   ·   {follow} follows the leader")
    }
}

/// How the status line says to leave: Esc, or the back button on a touch screen.
pub(super) fn leave_words() -> &'static str {
    crate::input::taps::hint("Esc leave", "‹ leave")
}

/// The status line while "leave the match?" is asked.
pub(super) fn confirm_words() -> &'static str {
    crate::input::taps::hint(
        "Leave the match? You forfeit.   Esc / Enter leave   ·   any other key stays",
        "Leave the match? You forfeit.   ‹ again leaves   ·   a tap on a board stays",
    )
}

/// The status line's way to a rematch after a match decided off the boards.
pub(super) fn rematch_words() -> &'static str {
    crate::input::taps::hint(
        "Enter ready for a rematch   ·   Esc leave",
        "Rematch below   ·   ‹ leave",
    )
}

/// What the screen says in words, for the touch wording test.
#[cfg(test)]
pub fn touch_texts() -> Vec<String> {
    [leave_words(), confirm_words(), rematch_words()]
        .map(str::to_owned)
        .to_vec()
}
