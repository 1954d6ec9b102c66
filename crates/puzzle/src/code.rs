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
    // `from_str_radix` would also take a leading `+`: only base-36 digits are a seed.
    if !seed.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(CodeError::Shape);
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_and_option_round_trips() {
        for kind in Kind::ALL {
            for rows in 1..=4 {
                for pieces in 1..=10 {
                    for hold in [false, true] {
                        let o = Options {
                            kind,
                            rows,
                            pieces,
                            hold,
                        };
                        if o.validate().is_err() {
                            continue;
                        }
                        for seed in [0, 1, 35, 36, 123_456_789, u64::MAX] {
                            let c = code(&o, seed);
                            assert_eq!(parse_code(&c), Ok((o, seed)), "{c}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn codes_are_read_in_any_case_with_spaces_around() {
        let o = Options::default_for(Kind::Pc);
        assert_eq!(code(&o, 100), "p24n-2s");
        assert_eq!(parse_code("  P24N-2S \n"), Ok((o, 100)));
    }

    #[test]
    fn malformed_codes_are_refused_with_the_shape_error() {
        for bad in [
            "",
            "-",
            "p24n",
            "p24n-",
            "p24-2s",
            "p24nn-2s",
            "x24n-2s",
            "p24q-2s",
            "p2!n-2s",
            "p24n-+2s",
            "p24n--2s",
            "p24n-2s-1",
            "p24n-2 s",
            "p24n-é",
            "p24n-zzzzzzzzzzzzzz",
            "p24n-3w5e11264sgsg",
            "ü24n-1",
            "p24n-0000000000000000000000",
        ] {
            assert_eq!(parse_code(bad), Err(CodeError::Shape), "{bad:?}");
        }
    }

    #[test]
    fn well_formed_codes_with_impossible_options_say_why() {
        for bad in [
            "p34n-1", "p21n-1", "t20n-1", "t27n-1", "d59n-1", "d10n-1", "p2an-1",
        ] {
            let err = parse_code(bad).expect_err(bad);
            assert!(matches!(err, CodeError::Options(_)), "{bad}: {err:?}");
            assert!(!err.to_string().is_empty());
        }
    }

    #[test]
    fn the_daily_puzzle_rotates_kinds_and_validates() {
        let kinds: Vec<Kind> = (20_000..20_003).map(|d| daily(d).0.kind).collect();
        assert_eq!(kinds.len(), 3);
        assert!(Kind::ALL.iter().all(|k| kinds.contains(k)));
        for d in [0, 1, 20_000, u64::MAX] {
            assert_eq!(daily(d).0.validate(), Ok(()));
        }
    }
}
