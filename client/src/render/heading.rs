//! A list screen's heading: its title and the subtitle under it, fitted to the title strip.
//!
//! Titles are the game's own words and shrink to fit ([`fit_size`]). Subtitles can carry what
//! the game does not choose (a server address, an error message), so they shrink first, then
//! wrap onto a second line at word boundaries; only a word too long for a whole line (an
//! address) is cut, with an ellipsis, as for anything a player typed. The fitting is a pure
//! function of a width measure ([`fit_heading`]), so the layout tests check it with the font
//! files alone ([`super::metrics::Metrics`]).

use macroquad::prelude::*;

use super::gfx::{Align, Gfx, Weight};
use super::metrics::{MIN_SHRINK, fit_size};
use super::theme;

/// Lines a subtitle may take.
pub const SUBTITLE_LINES: usize = 2;

/// The title's size for a heading drawn with `unit`.
pub fn title_size(unit: f32) -> f32 {
    (unit * 2.2).round()
}

/// The subtitle's size, before any shrinking, for a heading drawn with `unit`.
pub fn subtitle_size(unit: f32) -> f32 {
    (unit * 0.85).round()
}

/// How a heading is drawn in a strip `room` pixels wide.
#[derive(Clone, Debug, PartialEq)]
pub struct HeadingFit {
    /// The title's size.
    pub title_size: f32,
    /// The subtitle's size.
    pub subtitle_size: f32,
    /// The subtitle's lines (one or two).
    pub subtitle: Vec<String>,
    /// True when a word had to be cut (only ever for text the game did not write).
    pub cut: bool,
}

/// Fits `title` and `subtitle` to `room` pixels, measuring with `width(text, size, weight)`.
pub fn fit_heading(
    width: &dyn Fn(&str, f32, Weight) -> f32,
    room: f32,
    unit: f32,
    title: &str,
    subtitle: &str,
) -> HeadingFit {
    let title_size = fit_size(|s| width(title, s, Weight::Bold), title_size(unit), room);
    let full = subtitle_size(unit);
    let smallest = (full * MIN_SHRINK).floor().max(1.0);
    let measure = |s: &str, size: f32| width(s, size, Weight::Regular);
    // The largest size (one pixel steps) at which the subtitle takes at most two lines.
    let mut size = full;
    loop {
        let lines = wrap_words(&measure, subtitle, room, size);
        let fits = lines.len() <= SUBTITLE_LINES && lines.iter().all(|l| measure(l, size) <= room);
        if fits {
            return HeadingFit {
                title_size,
                subtitle_size: size,
                subtitle: lines,
                cut: false,
            };
        }
        if size <= smallest {
            break;
        }
        size = (size - 1.0).max(smallest);
    }
    // Still too long at the smallest size: keep two lines, each cut with an ellipsis where it
    // overflows (a long address, a long error).
    let mut lines = wrap_words(&measure, subtitle, room, smallest);
    if lines.len() > SUBTITLE_LINES {
        let rest = lines.split_off(SUBTITLE_LINES - 1).join(" ");
        lines.push(rest);
    }
    let lines = lines
        .into_iter()
        .map(|l| cut_to(&measure, &l, room, smallest))
        .collect();
    HeadingFit {
        title_size,
        subtitle_size: smallest,
        subtitle: lines,
        cut: true,
    }
}

/// Breaks `text` into lines at spaces, each no wider than `max_w` unless one word alone is.
pub fn wrap_words(
    measure: &dyn Fn(&str, f32) -> f32,
    text: &str,
    max_w: f32,
    size: f32,
) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let candidate = if line.is_empty() {
            word.to_owned()
        } else {
            format!("{line} {word}")
        };
        if !line.is_empty() && measure(&candidate, size) > max_w {
            lines.push(std::mem::replace(&mut line, word.to_owned()));
        } else {
            line = candidate;
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// `line` cut with an ellipsis so it fits `max_w` (unchanged when it fits).
fn cut_to(measure: &dyn Fn(&str, f32) -> f32, line: &str, max_w: f32, size: f32) -> String {
    if measure(line, size) <= max_w {
        return line.to_owned();
    }
    let mut out = line.to_owned();
    while !out.is_empty() && measure(&format!("{out}…"), size) > max_w {
        out.pop();
    }
    format!("{out}…")
}

/// Draws a screen heading: the title, an accent bar, and the subtitle (fitted by
/// [`fit_heading`]).
pub fn heading(gfx: &Gfx, r: Rect, unit: f32, title: &str, subtitle: &str) {
    // Never under a touch screen's back button (top right).
    let r = crate::input::taps::clear_of_back(r);
    let fit = fit_heading(
        &|s: &str, size: f32, weight: Weight| gfx.width(s, size, weight),
        r.w,
        unit,
        title,
        subtitle,
    );
    let size = title_size(unit);
    gfx.text(
        title,
        r.x,
        r.y + size,
        fit.title_size,
        Weight::Bold,
        Align::Left,
        theme::TEXT,
    );
    draw_rectangle(
        r.x,
        r.y + size + unit * 0.5,
        unit * 3.0,
        unit * 0.2,
        theme::ACCENT,
    );
    // One line sits where it always did; a second goes below it, still above the rows (the
    // strip is 5 units tall and the rows start 1.2 units under it).
    let mut y = r.y + size + unit * 1.8;
    for line in &fit.subtitle {
        gfx.text(
            line,
            r.x,
            y,
            fit.subtitle_size,
            Weight::Regular,
            Align::Left,
            theme::TEXT_DIM,
        );
        y += (fit.subtitle_size * 1.3).round();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::metrics::Metrics;

    fn fit(m: &Metrics, room: f32, title: &str, subtitle: &str) -> HeadingFit {
        fit_heading(
            &|s, size, w| m.width(s, size, w),
            room,
            14.0,
            title,
            subtitle,
        )
    }

    #[test]
    fn a_subtitle_that_fits_keeps_its_size_on_one_line() {
        let m = Metrics::load().expect("fonts");
        let f = fit(&m, 700.0, "Settings", "Keys, display and sound");
        assert_eq!(f.subtitle, vec!["Keys, display and sound".to_owned()]);
        assert_eq!(f.subtitle_size, subtitle_size(14.0));
        assert_eq!(f.title_size, title_size(14.0));
        assert!(!f.cut);
    }

    #[test]
    fn a_long_subtitle_wraps_at_a_space_instead_of_being_cut() {
        let m = Metrics::load().expect("fonts");
        let text = "Share the code; the match starts when both players are ready";
        let f = fit(&m, 200.0, "Room", text);
        assert!(!f.cut, "{f:?}");
        assert_eq!(f.subtitle.len(), 2, "{f:?}");
        assert_eq!(f.subtitle.join(" "), text);
    }

    #[test]
    fn an_address_longer_than_a_line_is_cut_with_an_ellipsis() {
        let m = Metrics::load().expect("fonts");
        let address = format!("wss://{}.example.org", "a".repeat(200));
        let f = fit(&m, 300.0, "Online", &format!("Connecting to {address}"));
        assert!(f.cut);
        assert!(f.subtitle.len() <= SUBTITLE_LINES);
        for line in &f.subtitle {
            assert!(
                m.width(line, f.subtitle_size, Weight::Regular) <= 300.0,
                "{line}"
            );
        }
        assert!(f.subtitle.last().is_some_and(|l| l.ends_with('…')));
    }
}
