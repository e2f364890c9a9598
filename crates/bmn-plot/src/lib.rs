//! bmn-plot: the figures bmn draws, as SVG or PNG (chosen by the file's extension).
//!
//! Text is drawn with DejaVu Sans, embedded in the binary from `fonts/` (its licence is
//! beside it), never with a system font: a fresh machine has none, and the figure must come
//! out the same on every machine. The plotters crate draws; this crate only decides what.

#![forbid(unsafe_code)]

use std::ops::Range;
use std::path::Path;
use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::FontStyle;

/// DejaVu Sans (Bitstream Vera licence, `fonts/DejaVuSans-LICENSE.txt`).
static FONT: &[u8] = include_bytes!("../fonts/DejaVuSans.ttf");

/// Figure size in pixels (SVG user units).
const SIZE: (u32, u32) = (1000, 620);

/// Colours of the series, in order.
const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// Why a figure could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    #[error("cannot tell the image format of {0}: name it .svg or .png")]
    Format(String),
    #[error("nothing to plot: {0}")]
    Empty(&'static str),
    #[error("drawing {path}: {message}")]
    Draw { path: String, message: String },
}

/// The image formats a figure can be written in, named by the file's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Svg,
    Png,
}

impl Format {
    /// The format `path`'s extension names (`.svg` or `.png`, any case). Callers check a
    /// path with it before long work, so a bad name fails at once.
    pub fn of(path: &Path) -> Result<Format, PlotError> {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("svg") => Ok(Format::Svg),
            Some("png") => Ok(Format::Png),
            _ => Err(PlotError::Format(path.display().to_string())),
        }
    }
}

/// A named histogram of game lengths: `counts[t]` games of length `t`.
#[derive(Clone, Debug)]
pub struct Histogram {
    pub label: String,
    pub counts: Vec<u64>,
}

/// The length distributions of one or more runs on one plot with a logarithmic share axis
/// (Casella et al. 2024, Figure 1: uniform against balanced deals), each as the share of its
/// games at each length so runs of different sizes compare.
pub fn length_histogram(
    path: &Path,
    title: &str,
    x_label: &str,
    series: &[Histogram],
) -> Result<(), PlotError> {
    let shares: Vec<(String, Vec<(f64, f64)>)> = series
        .iter()
        .map(|h| {
            let total = h.counts.iter().sum::<u64>().max(1) as f64;
            let points = h
                .counts
                .iter()
                .enumerate()
                .filter(|&(_, &c)| c > 0)
                .map(|(t, &c)| (t as f64, c as f64 / total))
                .collect();
            (h.label.clone(), points)
        })
        .collect();
    let points = || shares.iter().flat_map(|(_, p)| p.iter());
    let x_max = points().map(|p| p.0).fold(0.0, f64::max);
    let y_min = points().map(|p| p.1).fold(1.0, f64::min);
    if x_max == 0.0 {
        return Err(PlotError::Empty("no games of positive length"));
    }
    let frame = Frame {
        title,
        x_label,
        y_label: "share of games (log scale)",
        x: 0.0..x_max * 1.02,
        y: y_min * 0.5..1.0,
        log_y: true,
    };
    draw(path, &Figure::Lines(&frame, &shares))
}

/// Each player's stack size trick by trick: `sizes[p][t]` is player p+1's stack after t
/// tricks (t = 0 is the deal).
pub fn stack_sizes(path: &Path, title: &str, sizes: &[Vec<u32>]) -> Result<(), PlotError> {
    let tricks = sizes.iter().map(Vec::len).max().unwrap_or(0);
    if tricks == 0 {
        return Err(PlotError::Empty("no positions"));
    }
    let top = sizes.iter().flatten().copied().max().unwrap_or(1).max(1);
    let lines: Vec<(String, Vec<(f64, f64)>)> = sizes
        .iter()
        .enumerate()
        .map(|(p, s)| {
            let points = s
                .iter()
                .enumerate()
                .map(|(t, &n)| (t as f64, f64::from(n)))
                .collect();
            (format!("player {}", p + 1), points)
        })
        .collect();
    let frame = Frame {
        title,
        x_label: "tricks",
        y_label: "cards held",
        x: 0.0..((tricks - 1).max(1)) as f64,
        y: 0.0..f64::from(top) * 1.05,
        log_y: false,
    };
    draw(path, &Figure::Lines(&frame, &lines))
}

/// A panel of the records figure: its quantity and its labelled points (year, length, label).
type Panel<'a> = (&'a str, Vec<(f64, f64, String)>);

/// One record game: when, how long, who.
#[derive(Clone, Debug)]
pub struct RecordPoint {
    pub year: f64,
    pub cards: u64,
    pub tricks: u64,
    pub label: String,
}

/// Record length against year, cards above and tricks below (Casella et al. 2024, Figure 2).
pub fn records(path: &Path, title: &str, records: &[RecordPoint]) -> Result<(), PlotError> {
    if records.is_empty() {
        return Err(PlotError::Empty("no records"));
    }
    let lines = |f: fn(&RecordPoint) -> u64| -> Vec<(f64, f64, String)> {
        records
            .iter()
            .map(|r| (r.year, f(r) as f64, r.label.clone()))
            .collect()
    };
    let panels = [
        ("cards", lines(|r| r.cards)),
        ("tricks", lines(|r| r.tricks)),
    ];
    draw(path, &Figure::Records(title, &panels))
}

/// The two panels of [`records`], one above the other.
fn records_figure<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    panels: &[Panel],
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    area.fill(&WHITE)?;
    let area = area.titled(title, ("sans-serif", 24))?;
    let years = panels[0].1.iter().map(|p| p.0);
    let (y0, y1) = years.fold((f64::MAX, f64::MIN), |(a, b), y| (a.min(y), b.max(y)));
    for (half, (name, points)) in area.split_evenly((2, 1)).iter().zip(panels) {
        let top = points.iter().map(|p| p.1).fold(0.0, f64::max) * 1.15;
        let mut chart = ChartBuilder::on(half)
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(70)
            .build_cartesian_2d(y0 - 1.0..y1 + 2.0, 0.0..top)?;
        chart
            .configure_mesh()
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_label_formatter(&|v| format!("{v:.0}"))
            .x_desc("year")
            .y_desc(format!("record length ({name})"))
            .label_style(("sans-serif", 14))
            .draw()?;
        let colour = PALETTE[0];
        chart.draw_series(LineSeries::new(points.iter().map(|p| (p.0, p.1)), colour))?;
        chart.draw_series(points.iter().map(|p| {
            EmptyElement::at((p.0, p.1))
                + Circle::new((0, 0), 4, colour.filled())
                + Text::new(p.2.clone(), (6, -14), ("sans-serif", 12))
        }))?;
    }
    Ok(())
}

/// A named series of points: one class's counts against a family's plain cards.
#[derive(Clone, Debug)]
pub struct Series {
    pub label: String,
    pub points: Vec<(f64, f64)>,
}

/// Counts against n along a family of decks: `deals` (endless deals by class) above, `cycles`
/// (cycles by class) below, a line with a dot at every row (rows with no count are zeros, so
/// the lines cross gaps in n only where rows were not played).
pub fn family(
    path: &Path,
    title: &str,
    deals: &[Series],
    cycles: &[Series],
) -> Result<(), PlotError> {
    if deals.iter().chain(cycles).all(|s| s.points.is_empty()) {
        return Err(PlotError::Empty("no rows"));
    }
    let panels = [("endless deals", deals), ("cycles", cycles)];
    draw(path, &Figure::Family(title, &panels))
}

/// The two panels of [`family`], one above the other.
fn family_figure<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    panels: &[(&str, &[Series])],
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    area.fill(&WHITE)?;
    let area = area.titled(title, ("sans-serif", 22))?;
    let xs = panels
        .iter()
        .flat_map(|p| p.1)
        .flat_map(|s| &s.points)
        .map(|p| p.0);
    let (x0, x1) = xs.fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)));
    for (half, (name, series)) in area.split_evenly((2, 1)).iter().zip(panels) {
        let top = series
            .iter()
            .flat_map(|s| &s.points)
            .map(|p| p.1)
            .fold(1.0, f64::max)
            * 1.15;
        let mut chart = ChartBuilder::on(half)
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(70)
            .build_cartesian_2d(x0 - 0.5..x1 + 0.5, 0.0..top)?;
        chart
            .configure_mesh()
            .x_label_formatter(&whole)
            .y_label_formatter(&whole)
            .x_desc("n (plain cards)")
            .y_desc(*name)
            .label_style(("sans-serif", 14))
            .draw()?;
        for (i, s) in series.iter().enumerate() {
            let colour = PALETTE[i % PALETTE.len()];
            chart
                .draw_series(LineSeries::new(s.points.iter().copied(), colour))?
                .label(s.label.as_str())
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], colour));
            chart.draw_series(s.points.iter().map(|&p| Circle::new(p, 3, colour.filled())))?;
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font(("sans-serif", 14))
            .position(SeriesLabelPosition::UpperLeft)
            .draw()?;
    }
    Ok(())
}

/// A tick's label where it falls on a whole number, else none: counts and n are whole, and
/// a fine axis would print 0, 0, 1, 1 at its half steps.
fn whole(v: &f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{v:.0}")
    } else {
        String::new()
    }
}

/// Axes, labels and ranges of a line plot.
struct Frame<'a> {
    title: &'a str,
    x_label: &'a str,
    y_label: &'a str,
    x: Range<f64>,
    y: Range<f64>,
    log_y: bool,
}

impl Frame<'_> {
    fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        lines: &[(String, Vec<(f64, f64)>)],
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        area.fill(&WHITE)?;
        let mut builder = ChartBuilder::on(area);
        builder
            .caption(self.title, ("sans-serif", 24))
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size(80);
        // The two axis kinds are different types, hence the two arms.
        if self.log_y {
            let mut chart =
                builder.build_cartesian_2d(self.x.clone(), self.y.clone().log_scale())?;
            chart
                .configure_mesh()
                .x_desc(self.x_label)
                .y_desc(self.y_label)
                .x_label_formatter(&|v| format!("{v:.0}"))
                .y_label_formatter(&|v| format!("{v:.0e}"))
                .label_style(("sans-serif", 14))
                .draw()?;
            lines_and_legend(&mut chart, lines)
        } else {
            let mut chart = builder.build_cartesian_2d(self.x.clone(), self.y.clone())?;
            chart
                .configure_mesh()
                .x_label_formatter(&|v| format!("{v:.0}"))
                .y_label_formatter(&|v| format!("{v:.0}"))
                .x_desc(self.x_label)
                .y_desc(self.y_label)
                .label_style(("sans-serif", 14))
                .draw()?;
            lines_and_legend(&mut chart, lines)
        }
    }
}

/// One coloured line per series, and the legend naming them.
fn lines_and_legend<'a, DB: DrawingBackend + 'a, CT: CoordTranslate<From = (f64, f64)>>(
    chart: &mut ChartContext<'a, DB, CT>,
    lines: &[(String, Vec<(f64, f64)>)],
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    for (i, (label, points)) in lines.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        for (k, run) in runs(points).into_iter().enumerate() {
            // A lone point is a dot: a line through it would span lengths no game had.
            let drawn = if run.len() == 1 {
                chart.draw_series(std::iter::once(Circle::new(run[0], 2, colour.filled())))?
            } else {
                chart.draw_series(LineSeries::new(run.iter().copied(), colour))?
            };
            if k == 0 {
                drawn
                    .label(label.as_str())
                    .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], colour));
            }
        }
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 16))
        .position(SeriesLabelPosition::UpperRight)
        .draw()
}

/// The runs of consecutive points (x one apart) of a series. A histogram leaves its empty bins
/// out, and a line drawn across the gap would lie along the plot's floor as if it were data.
fn runs(points: &[(f64, f64)]) -> Vec<&[(f64, f64)]> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..=points.len() {
        if i == points.len() || points[i].0 - points[i - 1].0 > 1.0 + 1e-9 {
            out.push(&points[start..i]);
            start = i;
        }
    }
    out
}

/// What a file holds: a line plot, or the records' two panels.
enum Figure<'a> {
    Lines(&'a Frame<'a>, &'a [(String, Vec<(f64, f64)>)]),
    Records(&'a str, &'a [Panel<'a>]),
    Family(&'a str, &'a [(&'a str, &'a [Series])]),
}

impl Figure<'_> {
    fn render<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        match self {
            Figure::Lines(frame, lines) => frame.draw(area, lines),
            Figure::Records(title, panels) => records_figure(area, title, panels),
            Figure::Family(title, panels) => family_figure(area, title, panels),
        }
    }
}

/// Registers the embedded font (once per process) and draws `figure` into `path` on the back
/// end its extension names.
fn draw(path: &Path, figure: &Figure) -> Result<(), PlotError> {
    static REGISTER: Once = Once::new();
    REGISTER.call_once(|| {
        // The font is a constant of the build: it parses, or no figure could ever be drawn.
        if plotters::style::register_font("sans-serif", FontStyle::Normal, FONT).is_err() {
            panic!("the embedded font does not parse");
        }
    });
    let failed = |e: &dyn std::fmt::Display| PlotError::Draw {
        path: path.display().to_string(),
        message: e.to_string(),
    };
    match Format::of(path)? {
        Format::Svg => {
            let area = SVGBackend::new(path, SIZE).into_drawing_area();
            figure.render(&area).map_err(|e| failed(&e))?;
            area.present().map_err(|e| failed(&e))
        }
        Format::Png => {
            let area = BitMapBackend::new(path, SIZE).into_drawing_area();
            figure.render(&area).map_err(|e| failed(&e))?;
            area.present().map_err(|e| failed(&e))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_series_breaks_where_bins_are_empty() {
        let points = [
            (3.0, 0.5),
            (4.0, 0.2),
            (9.0, 1e-6),
            (12.0, 1e-6),
            (13.0, 2e-6),
        ];
        let lengths: Vec<usize> = runs(&points).iter().map(|r| r.len()).collect();
        assert_eq!(lengths, [2, 1, 2]);
        assert!(runs(&[]).is_empty());
    }

    #[test]
    fn both_figures_render_in_both_formats() {
        let dir = std::env::temp_dir().join(format!("bmn-plot-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let h = |label: &str, k: u64| Histogram {
            label: label.into(),
            counts: (0..80u64).map(|t| (1u64 << 20) >> (t / k)).collect(),
        };
        for ext in ["svg", "png"] {
            let lengths = dir.join(format!("lengths.{ext}"));
            length_histogram(&lengths, "lengths", "tricks", &[h("a", 5), h("b", 8)]).unwrap();
            let stacks = dir.join(format!("stacks.{ext}"));
            stack_sizes(
                &stacks,
                "one game",
                &[vec![26, 20, 30, 52], vec![26, 32, 22, 0]],
            )
            .unwrap();
            let rows = dir.join(format!("family.{ext}"));
            let line = |label: &str| Series {
                label: label.into(),
                points: vec![(7.0, 84.0), (8.0, 90.0), (10.0, 13.0)],
            };
            family(
                &rows,
                "a family",
                &[line("all")],
                &[line("all"), line("some")],
            )
            .unwrap();
            for f in [lengths, stacks, rows] {
                assert!(std::fs::metadata(&f).unwrap().len() > 1000, "{f:?}");
            }
        }
        // Text is drawn as glyph outlines or text elements from the embedded font: the SVG
        // names the title.
        let svg = std::fs::read_to_string(dir.join("stacks.svg")).unwrap();
        assert!(svg.contains("one game"));
        assert!(matches!(
            stack_sizes(&dir.join("x.gif"), "t", &[vec![1]]),
            Err(PlotError::Format(_))
        ));
        std::fs::remove_dir_all(&dir).ok();
    }
}
