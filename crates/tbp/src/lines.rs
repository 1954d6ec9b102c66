//! Reading size-limited lines from a pipe.

use std::io::{self, BufRead, Read};

use crate::messages::MAX_LINE;

/// One line read from the other end.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A complete line, without its newline.
    Text(String),
    /// A line longer than [`MAX_LINE`] (the rest of it was skipped).
    TooLong(usize),
    /// The other end closed the pipe.
    End,
}

/// Reads one line of at most [`MAX_LINE`] bytes; a longer line is consumed and reported.
pub fn read_line(reader: &mut impl BufRead) -> io::Result<Line> {
    let mut buf = Vec::new();
    let n = reader
        .by_ref()
        .take(MAX_LINE as u64 + 1)
        .read_until(b'\n', &mut buf)?;
    if n == 0 {
        return Ok(Line::End);
    }
    if buf.last() != Some(&b'\n') && buf.len() > MAX_LINE {
        let mut skipped = buf.len();
        loop {
            let chunk = reader.fill_buf()?;
            if chunk.is_empty() {
                break;
            }
            let (used, done) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            };
            reader.consume(used);
            skipped += used;
            if done {
                break;
            }
        }
        return Ok(Line::TooLong(skipped));
    }
    while matches!(buf.last(), Some(b'\n' | b'\r')) {
        buf.pop();
    }
    Ok(Line::Text(String::from_utf8_lossy(&buf).into_owned()))
}
