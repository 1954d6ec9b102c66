//! Short puzzle codes to share (kind, options and seed) and the daily puzzle.

use crate::model::{Kind, Options};

/// A share code: kind letter, rows digit, pieces (base 36), `h` or `n` for hold, `-`, seed in
/// base 36. `p24n-2s` is the 2-row, 4-piece, no-hold perfect clear of seed 100.
pub fn code(options: &Options, seed: u64) -> String {
    let k = match options.kind {
        Kind::Pc => 'p',
        Kind::TSpin => 't',
        Kind::Dig => 'd',
    };
    let digit = |d: u32| char::from_digit(d, 36).unwrap_or('0');
    let mut s = format!(
        "{k}{}{}{}-",
        digit(u32::from(options.rows)),
        digit(u32::from(options.pieces)),
        if options.hold { 'h' } else { 'n' }
    );
    s.push_str(&base36(seed));
    s
}

fn base36(mut v: u64) -> String {
    let mut out = Vec::new();
    loop {
        out.push(char::from_digit((v % 36) as u32, 36).unwrap_or('0'));
        v /= 36;
        if v == 0 {
            break;
        }
    }
    out.iter().rev().collect()
}

/// Why a share code was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodeError {
    /// Not of the form `p24n-2s`.
    #[error("a puzzle code looks like `p24n-2s` (kind, rows, pieces, hold, seed)")]
    Shape,
    /// Valid shape, impossible options.
    #[error("{0}")]
    Options(#[from] crate::model::OptionsError),
}

/// Parses a share code (case-insensitive, surrounding spaces ignored).
pub fn parse_code(text: &str) -> Result<(Options, u64), CodeError> {
    let text = text.trim().to_ascii_lowercase();
    if text.len() > 24 {
        return Err(CodeError::Shape);
    }
    let (head, seed) = text.split_once('-').ok_or(CodeError::Shape)?;
    let h: Vec<char> = head.chars().collect();
    if h.len() != 4 || seed.is_empty() {
        return Err(CodeError::Shape);
    }
    let kind = match h[0] {
        'p' => Kind::Pc,
        't' => Kind::TSpin,
        'd' => Kind::Dig,
        _ => return Err(CodeError::Shape),
    };
    let rows = h[1].to_digit(36).ok_or(CodeError::Shape)? as u8;
    let pieces = h[2].to_digit(36).ok_or(CodeError::Shape)? as u8;
    let hold = match h[3] {
        'h' => true,
        'n' => false,
        _ => return Err(CodeError::Shape),
    };
    let seed = u64::from_str_radix(seed, 36).map_err(|_| CodeError::Shape)?;
    let options = Options {
        kind,
        rows,
        pieces,
        hold,
    };
    options.validate()?;
    Ok((options, seed))
}

/// The daily puzzle of a day (days since 1970-01-01, UTC): the kinds take turns, each with its
/// default options, and the seed is the day number mixed so neighbouring days differ widely.
pub fn daily(day: u64) -> (Options, u64) {
    let kind = Kind::ALL[(day % 3) as usize];
    let seed = day.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 16;
    (Options::default_for(kind), seed)
}
