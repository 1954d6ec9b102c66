//! Core subcommands: `bag` prints a piece sequence, `sim` runs an input script.
//!
//! The script format is documented in docs/SCRIPT.md; [`script`] parses it with errors that
//! name the line and what was wrong, and [`run_script`] plays it on a [`Match`].

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::Context as _;
use clap::Args;
use sevenbag_core::{Match, Phase, Randomizer, Seat, sequence};

/// Subcommands over the rules core.
#[derive(clap::Subcommand, Debug)]
pub enum CoreCommand {
    /// Print the first pieces of a seed's sequence as letters (IOTSZJL) on one line.
    Bag(BagArgs),
    /// Run a two-player input script (docs/SCRIPT.md) and print the final state and its hash.
    Sim(SimArgs),
}

/// Arguments of `bag`.
#[derive(Args, Debug)]
pub struct BagArgs {
    /// Match seed.
    #[arg(long)]
    seed: u64,
    /// How many pieces to print.
    #[arg(long, default_value_t = 70)]
    count: usize,
    /// Randomizer: 7bag, 14bag, random or history.
    #[arg(long, default_value = "7bag", value_parser = parse_randomizer)]
    randomizer: Randomizer,
}

/// Arguments of `sim`.
#[derive(Args, Debug)]
pub struct SimArgs {
    /// The script file to run.
    #[arg(long)]
    script: PathBuf,
    /// Also print `frame F hash H` after every N frames (0: only the final summary).
    #[arg(long, default_value_t = 0)]
    hash_every: u32,
}

fn parse_randomizer(s: &str) -> Result<Randomizer, String> {
    Randomizer::from_name(s)
        .ok_or_else(|| format!("unknown randomizer {s:?}: use 7bag, 14bag, random or history"))
}

/// Runs a core subcommand.
pub fn run(command: CoreCommand) -> anyhow::Result<()> {
    match command {
        CoreCommand::Bag(args) => {
            anyhow::ensure!(
                args.count <= 1_000_000,
                "--count {} is too large (at most 1000000)",
                args.count
            );
            let letters: String = sequence(args.randomizer, args.seed, args.count)
                .iter()
                .map(|p| p.letter())
                .collect();
            println!("{letters}");
            Ok(())
        }
        CoreCommand::Sim(args) => {
            let text = std::fs::read_to_string(&args.script)
                .with_context(|| format!("cannot read script {}", args.script.display()))?;
            let parsed = script::parse(&text)
                .with_context(|| format!("bad script {}", args.script.display()))?;
            let mut out = String::new();
            let m = run_script(&parsed, args.hash_every, &mut out);
            out.push_str(&summary(&m));
            print!("{out}");
            Ok(())
        }
    }
}

/// Plays `script` from frame 0 and returns the final match; with `hash_every` > 0, appends a
/// `frame F hash H` line to `trace` after every that many frames.
pub fn run_script(script: &script::Script, hash_every: u32, trace: &mut String) -> Match {
    let mut m = Match::new(script.header);
    let mut held = [sevenbag_core::Input::NONE; 2];
    let mut changes = script.changes.iter().peekable();
    let mut next_trace = hash_every;
    for frame in 0..script.frames {
        while let Some(change) = changes.next_if(|c| c.frame <= frame) {
            held = change.keys;
        }
        m.step(held);
        if hash_every > 0 && m.frame().0 == next_trace {
            let _ = writeln!(trace, "frame {} hash {:016x}", m.frame().0, m.state_hash());
            next_trace = next_trace.saturating_add(hash_every);
        }
    }
    m
}

/// The final report of `sim`: hash, frame, phase, round, wins and one line per player.
pub fn summary(m: &Match) -> String {
    let seat_name = |s: Seat| ["p1", "p2"][s.index()];
    let phase = match m.phase() {
        Phase::Countdown { go_at } => format!("countdown (play starts on frame {go_at})"),
        Phase::Playing => "playing".to_string(),
        Phase::RoundOver {
            winner: Some(w),
            next_at,
        } => format!(
            "round over (won by {}; next countdown on frame {next_at})",
            seat_name(w)
        ),
        Phase::RoundOver {
            winner: None,
            next_at,
        } => format!("round over (draw; next countdown on frame {next_at})"),
        Phase::MatchOver { winner } => format!("match over (won by {})", seat_name(winner)),
    };
    let wins = m.wins();
    let mut out = String::new();
    let _ = writeln!(out, "hash {:016x}", m.state_hash());
    let _ = writeln!(out, "frame {}", m.frame().0);
    let _ = writeln!(out, "phase {phase}");
    let _ = writeln!(out, "round {}", m.round() + 1);
    let _ = writeln!(out, "wins {} {}", wins[0], wins[1]);
    for seat in Seat::BOTH {
        let s = m.player(seat).stats();
        let _ = writeln!(
            out,
            "{} pieces {} lines {} attack {} sent {} received {}",
            seat_name(seat),
            s.pieces,
            s.lines,
            s.attack,
            s.sent,
            s.garbage_received
        );
    }
    out
}

/// The `sim` script format: header lines, then key changes per frame (docs/SCRIPT.md).
pub mod script {
    use sevenbag_core::{Handling, HeaderError, Input, MatchHeader, Preset};

    /// Letters of the keys, in bit order: left, right, soft drop, hard drop, rotate CW,
    /// rotate CCW, rotate 180, hold.
    pub const KEY_LETTERS: [char; 8] = ['L', 'R', 'S', 'H', 'C', 'W', 'F', 'D'];
    /// The longest script accepted, in frames (about 46 hours of play).
    pub const MAX_FRAMES: u32 = 10_000_000;

    /// A parsed script.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct Script {
        /// Rules, seed and both players' handling.
        pub header: MatchHeader,
        /// Frames to simulate.
        pub frames: u32,
        /// Key changes, frames strictly increasing.
        pub changes: Vec<Change>,
    }

    /// From `frame` on, these keys are held (seat 1, seat 2).
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct Change {
        /// The first frame the keys are held on.
        pub frame: u32,
        /// Keys of seat 1 and seat 2.
        pub keys: [Input; 2],
    }

    /// Why a script was refused.
    #[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
    pub enum ScriptError {
        /// A line that could not be read.
        #[error("line {line}: {what}")]
        Line {
            /// 1-based line number.
            line: usize,
            /// What was wrong.
            what: String,
        },
        /// A required header line is absent.
        #[error("the script has no `{0}` line (see docs/SCRIPT.md)")]
        Missing(&'static str),
        /// The header's values are out of range.
        #[error("the script's settings are out of range: {0}")]
        Header(#[from] HeaderError),
    }

    fn err(line: usize, what: impl Into<String>) -> ScriptError {
        ScriptError::Line {
            line,
            what: what.into(),
        }
    }

    /// A whole number, decimal or `0x` hexadecimal.
    fn number(text: &str) -> Option<u64> {
        let text = text.replace('_', "");
        match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
            Some(hex) => u64::from_str_radix(hex, 16).ok(),
            None => text.parse().ok(),
        }
    }

    fn number_in(line: usize, what: &str, text: &str, max: u64) -> Result<u64, ScriptError> {
        match number(text) {
            Some(n) if n <= max => Ok(n),
            Some(n) => Err(err(
                line,
                format!("{what} {n} is too large (at most {max})"),
            )),
            None => Err(err(
                line,
                format!("{what} needs a whole number (decimal or 0x hex), not `{text}`"),
            )),
        }
    }

    /// Reads one player's keys: letters from [`KEY_LETTERS`], or `-` for none.
    pub fn keys(text: &str) -> Result<Input, String> {
        if text == "-" {
            return Ok(Input::NONE);
        }
        let mut mask = 0u8;
        for c in text.chars() {
            let Some(bit) = KEY_LETTERS.iter().position(|&k| k == c) else {
                return Err(format!(
                    "unknown key `{c}` in `{text}`: use L R S H C W F D (left right soft \
                     hard cw ccw 180 hold), or - for none"
                ));
            };
            if mask >> bit & 1 == 1 {
                return Err(format!("key `{c}` appears twice in `{text}`"));
            }
            mask |= 1 << bit;
        }
        Ok(Input(mask))
    }

    fn handling(line: usize, h: &mut Handling, settings: &[&str]) -> Result<(), ScriptError> {
        if settings.is_empty() {
            return Err(err(
                line,
                "`handling` needs at least one NAME=VALUE setting",
            ));
        }
        for setting in settings {
            let Some((name, value)) = setting.split_once('=') else {
                return Err(err(
                    line,
                    format!("handling setting `{setting}` is not NAME=VALUE"),
                ));
            };
            let flag = || match value {
                "on" => Ok(true),
                "off" => Ok(false),
                _ => Err(err(
                    line,
                    format!("{name} must be on or off, not `{value}`"),
                )),
            };
            let byte = || number_in(line, name, value, 255).map(|n| n as u8);
            match name {
                "das" => h.das = byte()?,
                "arr" => h.arr = byte()?,
                "dcd" => h.dcd = byte()?,
                "sdf" => h.sdf = byte()?,
                "irs" => h.irs = flag()?,
                "ihs" => h.ihs = flag()?,
                _ => {
                    return Err(err(
                        line,
                        format!(
                            "unknown handling setting `{name}`: use das, arr, dcd, sdf, irs or ihs"
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Where a header line was first seen, to refuse repeats.
    #[derive(Default)]
    struct Seen {
        seed: Option<usize>,
        preset: Option<usize>,
        frames: Option<usize>,
        first_input: Option<usize>,
    }

    fn once(slot: &mut Option<usize>, line: usize, name: &str) -> Result<(), ScriptError> {
        if let Some(first) = *slot {
            return Err(err(
                line,
                format!("`{name}` given twice (first on line {first})"),
            ));
        }
        *slot = Some(line);
        Ok(())
    }

    /// Parses a script; errors name the 1-based line and what was wrong.
    pub fn parse(text: &str) -> Result<Script, ScriptError> {
        let mut seen = Seen::default();
        let mut seed = None;
        let mut preset = Preset::Versus;
        let mut frames = None;
        let mut handlings = [Handling::default(); 2];
        let mut changes: Vec<Change> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let content = raw.split('#').next().unwrap_or_default();
            let words: Vec<&str> = content.split_whitespace().collect();
            let Some(&first) = words.first() else {
                continue;
            };
            let is_input = first.chars().next().is_some_and(|c| c.is_ascii_digit());
            if !is_input && let Some(input_line) = seen.first_input {
                return Err(err(
                    line,
                    format!("`{first}` must come before the first input line (line {input_line})"),
                ));
            }
            match words.as_slice() {
                ["seed", n] => {
                    once(&mut seen.seed, line, "seed")?;
                    seed = Some(number_in(line, "seed", n, u64::MAX)?);
                }
                ["preset", name] => {
                    once(&mut seen.preset, line, "preset")?;
                    preset = Preset::from_name(name).ok_or_else(|| {
                        err(
                            line,
                            format!("unknown preset `{name}`: use versus, classic or chaos"),
                        )
                    })?;
                }
                ["frames", n] => {
                    once(&mut seen.frames, line, "frames")?;
                    frames = Some(number_in(line, "frames", n, u64::from(MAX_FRAMES))? as u32);
                }
                ["handling", seat, settings @ ..] => {
                    let index = match *seat {
                        "1" => 0,
                        "2" => 1,
                        other => {
                            return Err(err(
                                line,
                                format!("handling is for player 1 or 2, not `{other}`"),
                            ));
                        }
                    };
                    handling(line, &mut handlings[index], settings)?;
                }
                [frame, p1, p2] if is_input => {
                    let Some(total) = frames else {
                        return Err(err(line, "`frames N` must come before the input lines"));
                    };
                    seen.first_input.get_or_insert(line);
                    let frame = number_in(line, "frame", frame, u64::from(u32::MAX))? as u32;
                    if let Some(prev) = changes.last()
                        && frame <= prev.frame
                    {
                        return Err(err(
                            line,
                            format!(
                                "frame {frame} must be after the previous input line's frame {}",
                                prev.frame
                            ),
                        ));
                    }
                    if frame >= total {
                        return Err(err(
                            line,
                            format!("frame {frame} is past the script's end (frames {total})"),
                        ));
                    }
                    let p1 = keys(p1).map_err(|e| err(line, format!("player 1: {e}")))?;
                    let p2 = keys(p2).map_err(|e| err(line, format!("player 2: {e}")))?;
                    changes.push(Change {
                        frame,
                        keys: [p1, p2],
                    });
                }
                _ if is_input => {
                    return Err(err(
                        line,
                        format!(
                            "an input line is `FRAME P1KEYS P2KEYS` (3 words), not {} words",
                            words.len()
                        ),
                    ));
                }
                _ => {
                    return Err(err(
                        line,
                        format!(
                            "cannot read `{}`: expected `seed N`, `preset NAME`, `frames N`, \
                             `handling 1|2 NAME=VALUE…` or `FRAME P1KEYS P2KEYS`",
                            content.trim()
                        ),
                    ));
                }
            }
        }
        let header = MatchHeader {
            rules: preset.rules(),
            seed: seed.ok_or(ScriptError::Missing("seed N"))?,
            handling: handlings,
        };
        header.validate()?;
        Ok(Script {
            header,
            frames: frames.ok_or(ScriptError::Missing("frames N"))?,
            changes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::script::{Change, KEY_LETTERS, ScriptError, keys, parse};
    use sevenbag_core::Input;

    /// Writes one player's keys as script letters.
    fn keys_text(input: Input) -> String {
        let text: String = KEY_LETTERS
            .iter()
            .enumerate()
            .filter(|&(bit, _)| input.0 >> bit & 1 == 1)
            .map(|(_, &c)| c)
            .collect();
        if text.is_empty() { "-".into() } else { text }
    }

    fn line_error(text: &str) -> (usize, String) {
        match parse(text) {
            Err(ScriptError::Line { line, what }) => (line, what),
            other => panic!("expected a line error, got {other:?}"),
        }
    }

    #[test]
    fn a_small_script_parses() {
        let s = parse(
            "# two players\nseed 0x10\npreset classic\nframes 100\n\
             handling 2 das=8 arr=0 irs=off\n0 - -\n5 LC H  # comment\n",
        )
        .unwrap();
        assert_eq!(s.header.seed, 16);
        assert!(!s.header.rules.allow_180);
        assert_eq!(s.frames, 100);
        assert_eq!((s.header.handling[1].das, s.header.handling[1].arr), (8, 0));
        assert!(!s.header.handling[1].irs);
        assert_eq!(
            s.changes[1],
            Change {
                frame: 5,
                keys: [Input::LEFT | Input::ROTATE_CW, Input::HARD_DROP]
            }
        );
    }

    #[test]
    fn keys_round_trip() {
        for mask in 0..=255u8 {
            assert_eq!(keys(&keys_text(Input(mask))), Ok(Input(mask)));
        }
    }

    #[test]
    fn errors_name_the_line() {
        assert_eq!(line_error("seed 1\nframes 10\n0 X -\n").0, 3);
        assert!(
            line_error("seed 1\nframes 10\n0 X -\n")
                .1
                .contains("unknown key `X`")
        );
        assert!(line_error("seed one\n").1.contains("whole number"));
        assert!(line_error("seed 1\nseed 2\n").1.contains("twice"));
        assert!(
            line_error("seed 1\nframes 10\n5 - -\n5 L -\n")
                .1
                .contains("after")
        );
        assert!(line_error("seed 1\nframes 10\n10 - -\n").1.contains("past"));
        assert!(
            line_error("seed 1\nframes 10\n0 - -\npreset versus\n")
                .1
                .contains("before")
        );
        assert!(line_error("seed 1\n0 - -\n").1.contains("frames"));
        assert!(
            line_error("seed 1\nframes 10\n0 LL -\n")
                .1
                .contains("twice")
        );
        assert!(line_error("seed 1\nframes 10\n0 L\n").1.contains("3 words"));
        assert!(line_error("speed 1\n").1.contains("expected"));
        assert!(line_error("handling 3 das=1\n").1.contains("player 1 or 2"));
        assert!(line_error("handling 1 das\n").1.contains("NAME=VALUE"));
        assert!(line_error("frames 99999999999\n").1.contains("too large"));
    }

    #[test]
    fn missing_header_lines_and_bad_values_are_refused() {
        assert_eq!(parse(""), Err(ScriptError::Missing("seed N")));
        assert_eq!(parse("seed 1\n"), Err(ScriptError::Missing("frames N")));
        assert!(matches!(
            parse("seed 1\nframes 1\nhandling 1 das=200\n"),
            Err(ScriptError::Header(_))
        ));
    }
}
