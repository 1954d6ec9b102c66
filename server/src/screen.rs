//! Ranked matches screened for inhuman input (`docs/MODERATION.md`, "Screening").
//!
//! When a ranked match ends, the database writer re-simulates it from its header and both
//! seats' inputs (a 2-minute match takes about a millisecond) and measures, per seat:
//! - **speed**: the most pieces locked within any [`ScreenBounds::speed_window_frames`];
//! - **taps**: of its key presses, how many were released on the very next frame (held one
//!   frame, 16.7 ms): a person's tap lasts 50–120 ms, a program's one frame;
//! - **gaps**: of the gaps between frames on which a new key went down, how many were at most
//!   two frames (33 ms): a program's rhythm, key after key as fast as the game takes them.
//!
//! Measured on the repository's own bot (every level, bot against bot, 2-minute matches): 96
//! to 99% of its presses are one-frame taps and 64 to 68% of its gaps are two frames or less,
//! at 1 to 3.5 pieces a second (`docs/MODERATION.md` has the table). Random keys (the load
//! tester's) show 26 to 34% one-frame taps.
//!
//! A seat past any bound is flagged: the match is stored, not rated, and listed for review
//! (`GET /admin/flagged`). The bounds are far from what people do, so a flag is worth a look,
//! not a verdict; a program that imitates human timing at a human pace is not caught by these.
//!
//! This module is pure (no I/O): it depends on the core and the protocol only.

use sevenbag_core::{Input, Match, MatchHeader, Seat};
use sevenbag_protocol::{InputLog, SeatInputs};

/// The screening's bounds (all checked per seat).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScreenBounds {
    /// The window the speed bound counts pieces in, in frames (1200: 20 seconds).
    pub speed_window_frames: u32,
    /// Most pieces locked within one window (140 in 20 s: 7 pieces a second sustained, the
    /// 40-line Sprint world record's pace held for longer than that record lasts).
    pub max_pieces_in_window: u32,
    /// Key presses a seat must make before the timing bounds apply (a short match says
    /// little).
    pub min_presses: u32,
    /// Most key presses held exactly one frame, in percent of all presses.
    pub max_one_frame_taps_percent: u32,
    /// Most press-to-press gaps of at most two frames, in percent of all gaps.
    pub max_quick_gaps_percent: u32,
}

impl Default for ScreenBounds {
    fn default() -> Self {
        ScreenBounds {
            speed_window_frames: 1200,
            max_pieces_in_window: 140,
            min_presses: 150,
            max_one_frame_taps_percent: 60,
            max_quick_gaps_percent: 60,
        }
    }
}

/// What the screening measured for one seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Measure {
    /// Pieces locked.
    pub pieces: u32,
    /// The most pieces locked within one speed window.
    pub most_in_window: u32,
    /// Keys pressed (each key going down counts once).
    pub presses: u32,
    /// Presses released on the very next frame.
    pub one_frame_taps: u32,
    /// Gaps between frames with a new press.
    pub gaps: u32,
    /// Of those, gaps of at most two frames (33 ms).
    pub quick_gaps: u32,
}

/// A seat past a bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The seat.
    pub seat: Seat,
    /// The bound: `speed`, `taps` or `gaps`.
    pub rule: &'static str,
    /// What was measured, for people.
    pub detail: String,
}

fn percent(part: u32, whole: u32) -> u32 {
    if whole == 0 {
        return 0;
    }
    (u64::from(part) * 100 / u64::from(whole)) as u32
}

/// Expands a seat's recorded changes to one mask per frame (`None` if the record is bad: the
/// room accepted these inputs, so that does not happen; a bad one is not screened).
fn masks(inputs: &SeatInputs) -> Option<InputLog> {
    InputLog::from_changes(&inputs.changes, inputs.confirmed).ok()
}

/// Key timing of one seat's masks.
fn timing(log: &InputLog, into: &mut Measure) {
    let mut held_since = [None::<u32>; 8];
    let mut last_press: Option<u32> = None;
    let mut previous = Input::NONE;
    for frame in 0..log.confirmed() {
        let mask = log.get(frame).unwrap_or_default();
        let pressed = mask.pressed_since(previous);
        for (bit, since) in held_since.iter_mut().enumerate() {
            let key = Input(1 << bit);
            if pressed.contains(key) {
                *since = Some(frame);
                into.presses += 1;
            } else if !mask.contains(key)
                && let Some(start) = since.take()
                && frame - start == 1
            {
                into.one_frame_taps += 1;
            }
        }
        if !pressed.is_empty() {
            if let Some(last) = last_press {
                into.gaps += 1;
                if frame - last <= 2 {
                    into.quick_gaps += 1;
                }
            }
            last_press = Some(frame);
        }
        previous = mask;
    }
}

/// Re-simulates the match and measures both seats (see the module docs).
pub fn measure(header: &MatchHeader, inputs: &[SeatInputs; 2], window: u32) -> [Measure; 2] {
    let mut out = [Measure::default(); 2];
    let (Some(a), Some(b)) = (masks(&inputs[0]), masks(&inputs[1])) else {
        return out;
    };
    let logs = [a, b];
    for (log, m) in logs.iter().zip(out.iter_mut()) {
        timing(log, m);
    }
    let mut game = Match::new(*header);
    let frames = logs[0].confirmed().min(logs[1].confirmed());
    let mut locks: [std::collections::VecDeque<u32>; 2] = Default::default();
    while game.winner().is_none() && game.frame().0 < frames {
        let f = game.frame().0;
        game.step([
            logs[0].get(f).unwrap_or_default(),
            logs[1].get(f).unwrap_or_default(),
        ]);
        for seat in Seat::BOTH {
            let i = seat.index();
            if game.player(seat).events().locked.is_none() {
                continue;
            }
            let recent = &mut locks[i];
            recent.push_back(f);
            while recent.front().is_some_and(|&first| first + window <= f) {
                recent.pop_front();
            }
            out[i].pieces += 1;
            out[i].most_in_window = out[i].most_in_window.max(recent.len() as u32);
        }
    }
    out
}

/// The seats of a finished match that break a bound, with what each broke.
pub fn screen(header: &MatchHeader, inputs: &[SeatInputs; 2], b: &ScreenBounds) -> Vec<Finding> {
    let measured = measure(header, inputs, b.speed_window_frames.max(1));
    let mut found = Vec::new();
    for seat in Seat::BOTH {
        let m = measured[seat.index()];
        let window_s = f64::from(b.speed_window_frames) / 60.0;
        if m.most_in_window > b.max_pieces_in_window {
            found.push(Finding {
                seat,
                rule: "speed",
                detail: format!(
                    "{} pieces within {window_s:.0} s ({:.1} per second; the bound is {})",
                    m.most_in_window,
                    f64::from(m.most_in_window) / window_s,
                    b.max_pieces_in_window
                ),
            });
        }
        if m.presses < b.min_presses {
            continue;
        }
        let taps = percent(m.one_frame_taps, m.presses);
        if taps > b.max_one_frame_taps_percent {
            found.push(Finding {
                seat,
                rule: "taps",
                detail: format!(
                    "{taps}% of {} key presses held for exactly one frame (16.7 ms; the bound \
                     is {}%)",
                    m.presses, b.max_one_frame_taps_percent
                ),
            });
        }
        let gaps = percent(m.quick_gaps, m.gaps);
        if gaps > b.max_quick_gaps_percent {
            found.push(Finding {
                seat,
                rule: "gaps",
                detail: format!(
                    "{gaps}% of {} gaps between key presses were 33 ms or less (the bound is \
                     {}%)",
                    m.gaps, b.max_quick_gaps_percent
                ),
            });
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A seat that holds each key `hold` frames, a new key every `every` frames.
    fn keys(frames: u32, every: u32, hold: u32, key: Input) -> SeatInputs {
        let masks: Vec<Input> = (0..frames)
            .map(|f| if f % every < hold { key } else { Input::NONE })
            .collect();
        SeatInputs::from_masks(&masks)
    }

    fn header() -> MatchHeader {
        let mut h = MatchHeader::versus(7);
        h.rules.countdown_frames = 10;
        h
    }

    #[test]
    fn one_frame_taps_are_counted_and_flagged() {
        let bot = keys(3000, 6, 1, Input::LEFT);
        let person = keys(3000, 9, 5, Input::LEFT);
        let found = screen(&header(), &[bot, person], &ScreenBounds::default());
        assert!(
            found
                .iter()
                .any(|f| f.seat == Seat::First && f.rule == "taps")
        );
        assert!(found.iter().all(|f| f.seat == Seat::First), "{found:?}");
    }

    #[test]
    fn keys_on_consecutive_frames_are_flagged_as_gaps() {
        // Left and right alternate every frame: each a press one frame after the last.
        let masks: Vec<Input> = (0..3000)
            .map(|f| {
                if f % 2 == 0 {
                    Input::LEFT
                } else {
                    Input::RIGHT
                }
            })
            .collect();
        let fast = SeatInputs::from_masks(&masks);
        let m = measure(&header(), &[fast.clone(), SeatInputs::default()], 1200);
        assert_eq!(m[0].quick_gaps, m[0].gaps);
        let found = screen(
            &header(),
            &[fast, keys(3000, 9, 5, Input::RIGHT)],
            &ScreenBounds::default(),
        );
        assert!(
            found
                .iter()
                .any(|f| f.seat == Seat::First && f.rule == "gaps"),
            "{found:?}"
        );
    }

    #[test]
    fn a_hard_drop_every_six_frames_is_too_fast() {
        // Ten pieces a second for as long as the board lasts; with a 60-frame window the
        // sustained count shows it.
        let drops = keys(1200, 6, 2, Input::HARD_DROP);
        let bounds = ScreenBounds {
            speed_window_frames: 60,
            max_pieces_in_window: 7,
            ..ScreenBounds::default()
        };
        let m = measure(
            &header(),
            &[drops.clone(), SeatInputs::from_masks(&[Input::NONE; 1200])],
            60,
        );
        assert!(m[0].pieces > 10 && m[0].most_in_window >= 9, "{m:?}");
        let found = screen(
            &header(),
            &[drops, SeatInputs::from_masks(&[Input::NONE; 1200])],
            &bounds,
        );
        assert!(
            found
                .iter()
                .any(|f| f.rule == "speed" && f.seat == Seat::First),
            "{found:?}"
        );
    }

    #[test]
    fn too_few_presses_are_not_judged_on_timing() {
        let short = keys(200, 4, 1, Input::LEFT);
        let found = screen(&header(), &[short.clone(), short], &ScreenBounds::default());
        assert!(found.is_empty(), "{found:?}");
    }
}
