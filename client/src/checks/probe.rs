//! The browser build's test hook: a one-line JSON summary of what the page shows, which the game
//! writes to `<html data-sevenbag="...">` (through `client/web/sevenbag.js`) whenever it changes.
//! The browser tests (tests/tests/browser/browser_play.rs) read it to know which screen is up, where an
//! online connection stands (with the message a failure shows), how a match goes and how long
//! the practice bot's plans took, instead of guessing from screenshots. Nothing reads it in
//! play; natively it is only built for its unit test.
//!
//! Fields (absent when they do not apply):
//! - `screen`: `welcome`, `menu`, `lobby`, `online`, `setup`, `play` or another screen's name;
//!   `frames`: frames the page has drawn (grows while the page runs: it is not hung);
//! - `skipped`: the page's stored entries it did not take ("key: why");
//! - `notice`: the notice on screen;
//! - `taps`: what can be tapped, `{"l": label, "x", "y"}` (the centre in CSS pixels): the rows
//!   drawn (by label), the touch buttons (`touch:hard_drop`...) and the back button
//!   (`touch:back`); `message`: what a message screen says (a bad link, a
//!   replay the server does not have);
//! - online: `stage` (`connecting`, `waiting`, `in_room`, `browsing`, `failed`), `message`
//!   (a failure's text, word for word as on screen), `code`, `seat` (0, 1 or null), `live`,
//!   `outcome` (the server's verdict: `winner` seat and `reason`), `skins` (the layout of the
//!   published skin each seat's board is drawn in, once fetched and decoded here, or null);
//! - a match on screen: `frame`, `phase` (`countdown`, `playing`, `round_over`, `match_over`),
//!   `winner` (the match winner once decided), `pieces` (pieces locked this round per seat),
//!   `hold` (the held piece per seat, or null),
//!   `wins` (rounds won per seat);
//! - a room of several seats (`party-online`): `stage` (`connecting`, `queued`, `in_room`,
//!   `failed`), `message`, `code`, `seat` (the room seat or null), `live`, `path` (`datagrams`
//!   or `websocket`: what carries our inputs), `desyncs` (desyncs the server reported to the
//!   session), `result` (the server's verdict: `winner` team or null, `placements`); with a
//!   match: `frame`, `phase`, `pieces` per battle seat, `hash` (the confirmed match's state
//!   hash, in hex: the replay's final hash once the match is decided);
//! - `plans`, `plan_mean_us`, `think_frame_max_us`, `plan_frames_mean_x100`,
//!   `plan_frames_max`, `plan_parts_max_us`: the page bot's plans so far, their mean thinking
//!   time, the longest thinking in one frame, the frames a plan took (mean ×100, most), and the
//!   longest start of a plan, slice of it and taking it up
//!   ([`crate::opponent::plan_times`]).

// Natively only the escaping is used (by its test).
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

use std::any::Any;

use sevenbag_core::{Match, Phase, Seat};
use sevenbag_netplay::TransportPath;

use crate::menu::link::MessageScreen;
use crate::net::battle::{BattleOnline, BattleStage};
use crate::net::online::Stage;
use crate::party::online::PartyOnlineScreen;
use crate::screen::{Ctx, Stack};
use crate::versus::online::OnlineScreen;
use crate::versus::play::PlayScreen;

/// Appends `"key":` then the JSON string `value`.
fn string(out: &mut Vec<String>, key: &str, value: &str) {
    let mut s = String::with_capacity(value.len() + key.len() + 6);
    s.push('"');
    s.push_str(key);
    s.push_str("\":\"");
    for c in value.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            c if (c as u32) < 0x20 => s.push_str(&format!("\\u{:04x}", c as u32)),
            c => s.push(c),
        }
    }
    s.push('"');
    out.push(s);
}

/// Appends `"key":value` for a value that is already JSON.
fn raw(out: &mut Vec<String>, key: &str, value: impl std::fmt::Display) {
    out.push(format!("\"{key}\":{value}"));
}

fn seat(s: Seat) -> u8 {
    s.index() as u8
}

/// The match fields of `m`.
fn match_fields(out: &mut Vec<String>, m: &Match) {
    raw(out, "frame", m.frame().0);
    let (phase, winner) = match m.phase() {
        Phase::Countdown { .. } => ("countdown", None),
        Phase::Playing => ("playing", None),
        Phase::RoundOver { .. } => ("round_over", None),
        Phase::MatchOver { winner } => ("match_over", Some(winner)),
    };
    string(out, "phase", phase);
    if let Some(w) = winner {
        raw(out, "winner", seat(w));
    }
    let pieces = Seat::BOTH.map(|s| m.player(s).stats().pieces);
    raw(out, "pieces", format!("[{},{}]", pieces[0], pieces[1]));
    let hold = Seat::BOTH.map(|s| {
        m.player(s)
            .hold()
            .map_or("null".to_owned(), |k| format!("\"{k:?}\""))
    });
    raw(out, "hold", format!("[{},{}]", hold[0], hold[1]));
}

/// The fields of a room of several seats (see the module docs).
fn party_fields(out: &mut Vec<String>, o: &BattleOnline) {
    let stage = match o.stage() {
        BattleStage::Connecting => "connecting",
        BattleStage::Queued(_) => "queued",
        BattleStage::InRoom => "in_room",
        BattleStage::Failed(_) => "failed",
    };
    string(out, "stage", stage);
    if let BattleStage::Failed(message) = o.stage() {
        string(out, "message", message);
    }
    if let Some(code) = o.code() {
        string(out, "code", code);
    }
    raw(
        out,
        "seat",
        o.seat().map_or("null".into(), |s| s.to_string()),
    );
    raw(out, "live", o.is_live());
    let path = match o.path() {
        TransportPath::Datagrams => "datagrams",
        TransportPath::WebSocket => "websocket",
    };
    string(out, "path", path);
    if let Some(r) = o.result() {
        let placements: Vec<String> = r.placements.iter().map(u8::to_string).collect();
        raw(
            out,
            "result",
            format!(
                "{{\"winner\":{},\"placements\":[{}]}}",
                r.winner.map_or("null".into(), |w| w.to_string()),
                placements.join(",")
            ),
        );
    }
    let Some(session) = o.session() else {
        return;
    };
    raw(out, "desyncs", session.stats().desyncs);
    let b = o.battle();
    raw(out, "frame", b.frame().0);
    let phase = match b.phase() {
        Phase::Countdown { .. } => "countdown",
        Phase::Playing => "playing",
        Phase::RoundOver { .. } => "round_over",
        Phase::MatchOver { .. } => "match_over",
    };
    string(out, "phase", phase);
    let pieces: Vec<String> = (0..b.seats())
        .filter_map(Seat::new)
        .map(|s| b.player(s).stats().pieces.to_string())
        .collect();
    raw(out, "pieces", format!("[{}]", pieces.join(",")));
    string(
        out,
        "hash",
        &format!("{:016x}", session.confirmed().state_hash()),
    );
}

/// The summary of the top screen of `stack` after `frames` frames, with what can be tapped
/// (`taps`: a label and its centre in CSS pixels; see the module docs).
pub fn state(stack: &Stack, ctx: &Ctx, frames: u64, taps: &[(String, (f32, f32))]) -> String {
    let mut out = Vec::new();
    let top = stack.top();
    let name = top.map_or("none", |s| s.name());
    string(&mut out, "screen", name);
    raw(&mut out, "frames", frames);
    if let Some(n) = &ctx.notice {
        string(&mut out, "notice", &n.text);
    }
    let top: Option<&dyn Any> = top.map(|s| s as &dyn Any);
    if let Some(s) = top.and_then(|s| s.downcast_ref::<OnlineScreen>()) {
        let o = s.online();
        let stage = match o.stage() {
            Stage::Connecting => "connecting",
            Stage::Waiting => "waiting",
            Stage::InRoom => "in_room",
            Stage::Browsing => "browsing",
            Stage::Failed(_) => "failed",
        };
        string(&mut out, "stage", stage);
        if let Stage::Failed(message) = o.stage() {
            string(&mut out, "message", message);
        }
        if let Some(code) = o.code() {
            string(&mut out, "code", code);
        }
        raw(
            &mut out,
            "seat",
            o.seat().map_or("null".into(), |s| seat(s).to_string()),
        );
        raw(&mut out, "live", o.is_live());
        let skins = Seat::BOTH.map(|s| {
            o.seat_skin(s).map_or("null".to_owned(), |(_, skin)| {
                format!("\"{}\"", skin.layout().name())
            })
        });
        raw(&mut out, "skins", format!("[{},{}]", skins[0], skins[1]));
        if let Some(r) = o.outcome() {
            raw(
                &mut out,
                "outcome",
                format!(
                    "{{\"winner\":{},\"reason\":\"{:?}\"}}",
                    seat(r.winner),
                    r.reason
                ),
            );
        }
        if o.matches_started() > 0 {
            match_fields(&mut out, o.current());
            let w = o.wins();
            raw(&mut out, "wins", format!("[{},{}]", w[0], w[1]));
        }
    } else if let Some(s) = top.and_then(|s| s.downcast_ref::<PartyOnlineScreen>()) {
        party_fields(&mut out, s.online());
    } else if let Some(p) = top.and_then(|s| s.downcast_ref::<PlayScreen>()) {
        match_fields(&mut out, p.session().current());
    } else if let Some(m) = top.and_then(|s| s.downcast_ref::<MessageScreen>()) {
        string(&mut out, "message", &m.text());
    }
    #[cfg(target_arch = "wasm32")]
    {
        let skipped = crate::platform::web_files::skipped();
        if !skipped.is_empty() {
            let list: Vec<String> = skipped
                .iter()
                .map(|k| {
                    let mut one = Vec::new();
                    string(&mut one, "k", k);
                    one[0][4..].to_owned()
                })
                .collect();
            raw(&mut out, "skipped", format!("[{}]", list.join(",")));
        }
    }
    if !taps.is_empty() {
        let list: Vec<String> = taps
            .iter()
            .map(|(label, (x, y))| {
                let mut one = Vec::new();
                string(&mut one, "l", label);
                format!("{{{},\"x\":{x:.0},\"y\":{y:.0}}}", one[0])
            })
            .collect();
        raw(&mut out, "taps", format!("[{}]", list.join(",")));
    }
    let t = crate::opponent::plan_times();
    if t.plans > 0 {
        raw(&mut out, "plans", t.plans);
        raw(&mut out, "plan_mean_us", t.total_us / t.plans);
        raw(&mut out, "think_frame_max_us", t.frame_max_us);
        raw(&mut out, "plan_frames_mean_x100", t.frames * 100 / t.plans);
        raw(&mut out, "plan_frames_max", t.plan_frames_max);
        let [start, slice, adopt] = t.parts_max_us;
        raw(
            &mut out,
            "plan_parts_max_us",
            format!("[{start},{slice},{adopt}]"),
        );
    }
    format!("{{{}}}", out.join(","))
}

/// In a browser: the test hook's summary ([`probe`]) on the page, when it changed (the frame
/// count is only refreshed every 30 frames, so a page at rest is not rewritten each frame).
#[cfg(target_arch = "wasm32")]
pub fn publish(
    stack: &Stack,
    ctx: &Ctx,
    frames: u64,
    taps: &[(String, (f32, f32))],
    published: &mut String,
) {
    let state = state(stack, ctx, frames - frames % 30, taps);
    if state != *published {
        crate::platform::web::set_state(&state);
        *published = state;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped_as_json() {
        let mut out = Vec::new();
        string(&mut out, "message", "say \"hi\"\\\n");
        assert_eq!(out[0], r#""message":"say \"hi\"\\\u000a""#);
    }
}
