//! The `sim` script format (docs/SCRIPT.md), read the simple way for tests: any error panics.
//!
//! `sevenbag-tool sim` has its own careful parser with line-numbered errors; the CLI test runs
//! the golden script through it, so the two readings are checked against each other.

use sevenbag_core::{Handling, Input, Match, MatchHeader, Preset};

/// Letters of the keys, in bit order: left, right, soft, hard, cw, ccw, 180, hold.
pub const KEY_LETTERS: [char; 8] = ['L', 'R', 'S', 'H', 'C', 'W', 'F', 'D'];

/// A parsed script: the header, how many frames to run, and the key changes.
#[derive(Clone, Debug)]
pub struct Script {
    /// Rules, seed and handling.
    pub header: MatchHeader,
    /// Frames to simulate.
    pub frames: u32,
    /// (from frame, keys of seat 0, keys of seat 1), frames increasing.
    pub changes: Vec<(u32, Input, Input)>,
}

/// Keys as script letters (`-` for none).
pub fn keys_to_text(input: Input) -> String {
    let text: String = KEY_LETTERS
        .iter()
        .enumerate()
        .filter(|(bit, _)| input.0 >> bit & 1 == 1)
        .map(|(_, c)| *c)
        .collect();
    if text.is_empty() { "-".into() } else { text }
}

/// Script letters as keys.
pub fn keys_from_text(text: &str) -> Input {
    if text == "-" {
        return Input::NONE;
    }
    Input(text.chars().fold(0, |mask, c| {
        let bit = KEY_LETTERS
            .iter()
            .position(|&k| k == c)
            .expect("key letter");
        mask | 1 << bit
    }))
}

fn number(text: &str) -> u64 {
    match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).expect("hex number"),
        None => text.parse().expect("number"),
    }
}

/// Reads a script; panics on anything malformed.
pub fn parse(text: &str) -> Script {
    let mut seed = None;
    let mut preset = Preset::Versus;
    let mut frames = None;
    let mut handling = [Handling::default(); 2];
    let mut changes = Vec::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [] => {}
            ["seed", n] => seed = Some(number(n)),
            ["preset", name] => preset = Preset::from_name(name).expect("preset"),
            ["frames", n] => frames = Some(number(n) as u32),
            ["handling", seat, settings @ ..] => {
                let h = &mut handling[number(seat) as usize - 1];
                for setting in settings {
                    let (name, value) = setting.split_once('=').expect("name=value");
                    match name {
                        "das" => h.das = number(value) as u8,
                        "arr" => h.arr = number(value) as u8,
                        "dcd" => h.dcd = number(value) as u8,
                        "sdf" => h.sdf = number(value) as u8,
                        "irs" => h.irs = value == "on",
                        "ihs" => h.ihs = value == "on",
                        other => panic!("unknown handling {other}"),
                    }
                }
            }
            [frame, p1, p2] => {
                changes.push((number(frame) as u32, keys_from_text(p1), keys_from_text(p2)))
            }
            other => panic!("bad script line {other:?}"),
        }
    }
    Script {
        header: MatchHeader {
            rules: preset.rules(),
            seed: seed.expect("seed"),
            handling,
        },
        frames: frames.expect("frames"),
        changes,
    }
}

impl Script {
    /// The keys held on every frame, one pair per frame.
    pub fn inputs(&self) -> Vec<[Input; 2]> {
        let mut held = [Input::NONE; 2];
        let mut next = self.changes.iter().peekable();
        (0..self.frames)
            .map(|f| {
                while let Some(&&(at, a, b)) = next.peek() {
                    if at > f {
                        break;
                    }
                    held = [a, b];
                    next.next();
                }
                held
            })
            .collect()
    }

    /// Runs the whole script from frame 0 and returns the final match.
    pub fn run(&self) -> Match {
        let mut m = Match::new(self.header);
        for inputs in self.inputs() {
            m.step(inputs);
        }
        m
    }
}
