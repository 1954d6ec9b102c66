//! `replay stats FILE --plot OUT.png`: APM, PPS and VS of every seat over its seconds of play
//! (cumulative from its first frame, as a live stats panel shows them), and the attack each
//! sent and received, as four stacked line charts in one PNG.
//!
//! Why plotters, and built this way: it is the maintained Rust plotting crate, and with its
//! default features off it brings only what is drawn here. `bitmap_backend` draws into an RGB
//! buffer in memory, and `line_series` the lines; PNG encoding is left to the `png` crate the
//! skin decoder already builds, rather than plotters' `bitmap_encoder`, which would bring the
//! `image` crate with other features than the game's (tests/tests/checks/features.rs wants one
//! build of each shared crate), and text to [`super::glyphs`] (fontdue, as the game draws text,
//! with the DejaVu Sans file in `assets/fonts`), so no fontconfig or FreeType system library is
//! needed. Drawing is deterministic: the same report gives the same bytes.

use std::path::Path;

use anyhow::{Context, anyhow};
use plotters::prelude::*;
use sevenbag_stats::{TimePoint, timeline};

use super::glyphs::{TextBackend, font};
use super::stats::StatsReport;

/// The family name the charts ask for (every text is drawn in the one embedded font).
const FAMILY: &str = "sans-serif";
/// The picture's size in pixels.
const SIZE: (u32, u32) = (1000, 1100);
/// One colour per seat (8 seats at most), distinct for the common kinds of colour blindness
/// (Okabe and Ito's palette, black last).
const COLOURS: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(240, 228, 66),
    RGBColor(0, 0, 0),
];

/// One line a chart draws for each seat.
struct Line {
    /// Added to the seat's name in the legend.
    suffix: &'static str,
    /// The value at a point.
    value: fn(&TimePoint) -> f64,
    /// Drawn lighter (the second line of a chart).
    light: bool,
}

/// One chart: its title and its lines.
struct Chart {
    title: &'static str,
    lines: &'static [Line],
}

const fn line(value: fn(&TimePoint) -> f64) -> Line {
    Line {
        suffix: "",
        value,
        light: false,
    }
}

const CHARTS: [Chart; 4] = [
    Chart {
        title: "APM (attack per minute)",
        lines: &[line(|p| p.rates.apm)],
    },
    Chart {
        title: "PPS (pieces per second)",
        lines: &[line(|p| p.rates.pps)],
    },
    Chart {
        title: "VS ((attack + garbage cleared) per second × 100)",
        lines: &[line(|p| p.rates.vs)],
    },
    Chart {
        title: "Attack sent (solid) and garbage received (light), lines so far",
        lines: &[
            Line {
                suffix: " sent",
                value: |p| f64::from(p.sent),
                light: false,
            },
            Line {
                suffix: " received",
                value: |p| f64::from(p.received),
                light: true,
            },
        ],
    },
];

/// Draws the charts of `report` and writes them to `out` as a PNG.
pub fn write_png(report: &StatsReport, out: &Path) -> anyhow::Result<()> {
    let font = font()?;
    let (w, h) = SIZE;
    let mut pixels = vec![0u8; (w * h * 3) as usize];
    draw(report, &mut pixels, &font).map_err(|e| anyhow!("drawing the charts: {e}"))?;
    let file =
        std::fs::File::create(out).with_context(|| format!("cannot create {}", out.display()))?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), w, h);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder
        .write_header()
        .with_context(|| format!("writing {}", out.display()))?;
    writer
        .write_image_data(&pixels)
        .with_context(|| format!("writing {}", out.display()))?;
    writer
        .finish()
        .with_context(|| format!("writing {}", out.display()))
}

type DrawResult = Result<(), Box<dyn std::error::Error>>;

fn draw(report: &StatsReport, pixels: &mut [u8], font: &fontdue::Font) -> DrawResult {
    let root = TextBackend::new(pixels, SIZE, font).into_drawing_area();
    root.fill(&WHITE)?;
    let (top, body) = root.split_vertically(40);
    top.draw(&Text::new(
        format!("{} ({})", report.file, report.kind),
        (10, 10),
        (FAMILY, 18).into_font(),
    ))?;
    let timelines: Vec<Vec<TimePoint>> = report.seats.iter().map(|s| timeline(&s.counts)).collect();
    let names: Vec<&str> = report.seats.iter().map(|s| s.name.as_str()).collect();
    for (area, chart) in body.split_evenly((CHARTS.len(), 1)).iter().zip(&CHARTS) {
        draw_chart(area, chart, &timelines, &names)?;
    }
    root.present()?;
    Ok(())
}

fn draw_chart<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    chart: &Chart,
    timelines: &[Vec<TimePoint>],
    names: &[&str],
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let x_max = timelines
        .iter()
        .filter_map(|t| t.last().map(|p| p.seconds))
        .fold(1.0, f64::max);
    let y_max = timelines
        .iter()
        .flatten()
        .flat_map(|p| chart.lines.iter().map(move |l| (l.value)(p)))
        .fold(0.0, f64::max);
    let y_max = if y_max > 0.0 { y_max * 1.1 } else { 1.0 };
    let mut ctx = ChartBuilder::on(area)
        .caption(chart.title, (FAMILY, 16))
        .margin(8)
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(0.0..x_max, 0.0..y_max)?;
    ctx.configure_mesh()
        .x_desc("seconds of play")
        .label_style((FAMILY, 12))
        .light_line_style(WHITE.mix(0.0))
        .draw()?;
    for (seat, (points, name)) in timelines.iter().zip(names).enumerate() {
        let colour = COLOURS[seat % COLOURS.len()];
        for l in chart.lines {
            let style = if l.light {
                colour.mix(0.4).stroke_width(2)
            } else {
                colour.stroke_width(2)
            };
            let value = l.value;
            let line = points.iter().map(|p| (p.seconds, value(p)));
            ctx.draw_series(LineSeries::new(line, style))?
                .label(format!("{name}{}", l.suffix))
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], style));
        }
    }
    ctx.configure_series_labels()
        .label_font((FAMILY, 12))
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()?;
    Ok(())
}
