//! The comparison as a chart: one SVG file of stacked panels, engines in the same order and
//! colour throughout.
//!
//! 1. Time per puzzle and 2. search-tree nodes per puzzle, per engine, as horizontal box plots
//!    on log axes (box: quartiles; thick line: median; whiskers: 5th to 95th percentile; dots:
//!    the puzzles beyond; cross: mean). Engine names sit on the left, where long CSP names fit.
//! 3. The share of puzzles solved within a given time (a cumulative "cactus" curve per engine),
//!    which shows at a glance which engine is fastest on easy puzzles and which on the hardest.
//! 4. When puzzles carry labels: mean backtracks per puzzle, by label and engine (lines).
//!
//! Text: plotters is built without its `ttf` and `ab_glyph` features, so it uses its "naive"
//! font, which only estimates text widths for layout; the SVG backend writes every label as an
//! SVG `<text>` element with a font family, and the viewer's fonts draw it. So text needs no
//! font files at build time. Widths are estimated, so label areas are sized from the longest
//! name here rather than measured.

use std::path::Path;

use std::ops::Range;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{Comparison, Measurement};
use crate::error::{Error, ErrorKind, Result};

/// Tableau's ten colours: distinct, and readable on white.
const PALETTE: [(u8, u8, u8); 10] = [
    (31, 119, 180),
    (255, 127, 14),
    (44, 160, 44),
    (214, 39, 40),
    (148, 103, 189),
    (140, 86, 75),
    (227, 119, 194),
    (127, 127, 127),
    (188, 189, 34),
    (23, 190, 207),
];

const WIDTH: u32 = 1200;
const PANEL_HEIGHT: u32 = 340;
const FONT: &str = "sans-serif";
/// Dots drawn beyond each whisker, at most: a box plot of 50,000 puzzles stays a small file.
const MAX_OUTLIERS: usize = 200;
/// Points per cumulative curve, at most.
const MAX_CURVE_POINTS: usize = 400;

fn colour(index: usize) -> RGBColor {
    let (r, g, b) = PALETTE[index % PALETTE.len()];
    RGBColor(r, g, b)
}

/// An f64 axis (linear or log) with ticks where we put them: powers of ten, or one per row.
/// (plotters' own `with_key_points` drops the label formatter bound for f64 axes.)
struct Ticked<R> {
    inner: R,
    ticks: Vec<f64>,
}

impl<R: Ranged<ValueType = f64>> Ranged for Ticked<R> {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.inner.map(value, limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        // Only bold lines: light ones between the ticks would clutter the log axes.
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.inner.range()
    }

    fn axis_pixel_range(&self, limit: (i32, i32)) -> Range<i32> {
        self.inner.axis_pixel_range(limit)
    }
}

fn linear(range: Range<f64>, ticks: Vec<f64>) -> Ticked<RangedCoordf64> {
    Ticked {
        inner: range.into(),
        ticks,
    }
}

/// A log axis from `lo` to `hi` (powers of ten) with a tick at every power of ten.
fn log(lo: f64, hi: f64) -> Ticked<LogCoord<f64>> {
    Ticked {
        inner: (lo..hi).log_scale().into(),
        ticks: powers_of_ten(lo, hi),
    }
}

type DrawResult = std::result::Result<(), Box<dyn std::error::Error>>;

/// Writes the chart of `comparison` to `path` as SVG, with `title` on top.
///
/// ```
/// use quadrille::compare::{self, DEFAULT_REQUEST, plot};
/// use quadrille::engine::Engine;
/// use quadrille::io::puzzle::{Layout, PuzzleReader};
///
/// let text = "1...........4..2 easy\n................ open\n";
/// let puzzles = PuzzleReader::new(text.as_bytes(), None, Layout::Line);
/// let comparison = compare::run(puzzles, &Engine::defaults(), &DEFAULT_REQUEST);
/// let path = std::env::temp_dir().join("quadrille-plot-doc.svg");
/// plot::write_svg(&comparison, &path, "two 4x4 puzzles")?;
/// assert!(std::fs::read_to_string(&path)?.contains("csp:first+lex+fc"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_svg(comparison: &Comparison, path: &Path, title: &str) -> Result<()> {
    let failed = |e: &dyn std::fmt::Display| {
        Error::new(ErrorKind::Io(std::io::Error::other(format!(
            "{}: {e}",
            path.display()
        ))))
    };
    let svg = svg(comparison, title).map_err(|e| failed(&e))?;
    std::fs::write(path, svg).map_err(|e| failed(&e))
}

/// The chart of `comparison` as SVG text, with `title` on top: what [`write_svg`] writes, for
/// a front end that shows it rather than saves it (`quadrille serve`).
pub fn svg(comparison: &Comparison, title: &str) -> Result<String> {
    let mut text = String::new();
    draw(comparison, &mut text, title)
        .map_err(|e| Error::new(ErrorKind::Io(std::io::Error::other(e.to_string()))))?;
    Ok(text)
}

fn draw(comparison: &Comparison, out: &mut String, title: &str) -> DrawResult {
    let labels = comparison.labels();
    let panels = if labels.is_empty() { 3 } else { 4 };
    let height = 60 + PANEL_HEIGHT * panels;
    let root = SVGBackend::with_string(out, (WIDTH, height)).into_drawing_area();
    root.fill(&WHITE)?;
    let root = root.titled(title, (FONT, 26))?;
    let areas = root.split_evenly((panels as usize, 1));
    let engines = comparison.engines();
    let summaries = comparison.summaries();
    let names: Vec<String> = summaries
        .iter()
        .map(|s| match s.gave_up {
            0 => s.engine.to_string(),
            k => format!("{} ({k} gave up)", s.engine),
        })
        .collect();
    let sorted = |value: fn(&Measurement) -> f64| -> Vec<Vec<f64>> {
        (0..engines.len())
            .map(|i| {
                let mut v: Vec<f64> = comparison.measurements(i).map(value).collect();
                v.sort_by(f64::total_cmp);
                v
            })
            .collect()
    };
    let micros = sorted(Measurement::micros);
    let nodes = sorted(|m| m.nodes as f64);
    let puzzles = comparison.puzzles().len();
    box_panel(
        &areas[0],
        &format!("Time per puzzle ({puzzles} puzzles; one engine at a time)"),
        "time per puzzle (log scale)",
        &names,
        &micros,
        tick_micros,
    )?;
    box_panel(
        &areas[1],
        "Search-tree nodes per puzzle",
        "nodes per puzzle (log scale)",
        &names,
        &nodes,
        tick_count,
    )?;
    let solved: Vec<Vec<f64>> = (0..engines.len())
        .map(|i| {
            let mut v: Vec<f64> = comparison
                .measurements(i)
                .filter(|m| !m.gave_up())
                .map(Measurement::micros)
                .collect();
            v.sort_by(f64::total_cmp);
            v
        })
        .collect();
    cactus_panel(&areas[2], &names, &solved, &micros, puzzles)?;
    if !labels.is_empty() {
        label_panel(&areas[3], comparison, &labels)?;
    }
    root.present()?;
    Ok(())
}

/// Powers of ten covering `values` (positive ones; the lowest is also where values of zero
/// are drawn).
fn decades(values: &[Vec<f64>]) -> (f64, f64) {
    let positive = values.iter().flatten().copied().filter(|&v| v > 0.0);
    let (lo, hi) = positive.fold((f64::INFINITY, 0.0f64), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if hi == 0.0 {
        return (1.0, 10.0);
    }
    let lo = 10f64.powf((lo * 0.95).log10().floor());
    // A little headroom, so that values at a power of ten (a node budget of 1M, say) are not
    // drawn on the frame.
    let hi = 10f64.powf((hi * 1.05).log10().ceil()).max(lo * 10.0);
    (lo, hi)
}

fn powers_of_ten(lo: f64, hi: f64) -> Vec<f64> {
    let mut ticks = Vec::new();
    let mut t = lo;
    while t <= hi * 1.0001 {
        ticks.push(t);
        t *= 10.0;
    }
    ticks
}

/// A tick label for a power of ten of microseconds: `100 µs`, `1 ms`, `10 s`.
fn tick_micros(micros: f64) -> String {
    let (value, unit) = if micros < 1e3 {
        (micros, "µs")
    } else if micros < 1e6 {
        (micros / 1e3, "ms")
    } else {
        (micros / 1e6, "s")
    };
    format!("{} {unit}", trim(value))
}

/// A tick label for a power of ten of a count: `100`, `10k`, `1M`.
fn tick_count(count: f64) -> String {
    if count < 1e3 {
        trim(count)
    } else if count < 1e6 {
        format!("{}k", trim(count / 1e3))
    } else {
        format!("{}M", trim(count / 1e6))
    }
}

fn trim(value: f64) -> String {
    let text = format!("{value:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The width of the label area for the longest of `names` (the naive font only estimates).
fn name_area(names: &[String]) -> u32 {
    let longest = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
    (longest as u32 * 8 + 40).clamp(80, 440)
}

/// Horizontal box plots, one row per engine, first engine on top, on a log x axis.
fn box_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    caption: &str,
    x_title: &str,
    names: &[String],
    sorted: &[Vec<f64>],
    tick: fn(f64) -> String,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let rows = names.len();
    let (lo, hi) = decades(sorted);
    let y_keys: Vec<f64> = (0..rows).map(|i| i as f64).collect();
    let mut chart = ChartBuilder::on(area)
        .caption(caption, (FONT, 20))
        .margin(12)
        .margin_right(30)
        .x_label_area_size(48)
        .y_label_area_size(name_area(names))
        .build_cartesian_2d(log(lo, hi), linear(-0.6..rows as f64 - 0.4, y_keys))?;
    let row_of = |y: f64| rows.saturating_sub(1 + y.round().max(0.0) as usize);
    chart
        .configure_mesh()
        .disable_y_mesh()
        .x_desc(x_title)
        .x_label_formatter(&|x| tick(*x))
        .y_label_formatter(&|y| names.get(row_of(*y)).cloned().unwrap_or_default())
        .label_style((FONT, 14))
        .axis_desc_style((FONT, 15))
        .draw()?;
    for (i, values) in sorted.iter().enumerate() {
        if values.is_empty() {
            continue;
        }
        let c = colour(i);
        let y = (rows - 1 - i) as f64;
        let at = |q: f64| super::stats::quantile(values, q).max(lo);
        let (p5, q1, median, q3, p95) = (at(0.05), at(0.25), at(0.5), at(0.75), at(0.95));
        let mean = (values.iter().sum::<f64>() / values.len() as f64).max(lo);
        let h = 0.28;
        chart.draw_series([
            Rectangle::new([(q1, y - h), (q3, y + h)], c.mix(0.3).filled()),
            Rectangle::new([(q1, y - h), (q3, y + h)], c.stroke_width(1)),
        ])?;
        chart.draw_series([
            PathElement::new(vec![(p5, y), (q1, y)], c.stroke_width(1)),
            PathElement::new(vec![(q3, y), (p95, y)], c.stroke_width(1)),
            PathElement::new(
                vec![(p5, y - h / 2.0), (p5, y + h / 2.0)],
                c.stroke_width(1),
            ),
            PathElement::new(
                vec![(p95, y - h / 2.0), (p95, y + h / 2.0)],
                c.stroke_width(1),
            ),
            PathElement::new(vec![(median, y - h), (median, y + h)], c.stroke_width(3)),
        ])?;
        // The puzzles beyond the whiskers, spread a little vertically so that dense tails
        // stay visible; a long tail is thinned evenly, keeping its extremes.
        let low: Vec<f64> = values.iter().copied().filter(|&v| v.max(lo) < p5).collect();
        let high: Vec<f64> = values.iter().copied().filter(|&v| v > p95).collect();
        let dots = thin(&low, MAX_OUTLIERS)
            .into_iter()
            .chain(thin(&high, MAX_OUTLIERS))
            .enumerate()
            .map(|(k, v)| {
                let jitter = ((k * 7919) % 13) as f64 / 12.0 - 0.5;
                Circle::new((v.max(lo), y + jitter * h * 0.9), 2, c.mix(0.6).filled())
            });
        chart.draw_series(dots)?;
        chart.draw_series([Cross::new((mean, y), 5, BLACK.stroke_width(2))])?;
    }
    // A key to the marks, under the engine names, clear of the data and the axis title.
    let key = "box: 25-75%, thick line: median, whiskers: 5-95%, dots: beyond, x: mean";
    let (_, height) = area.dim_in_pixel();
    area.draw_text(
        key,
        &TextStyle::from((FONT, 12)).color(&RGBColor(90, 90, 90)),
        (8, height as i32 - 18),
    )?;
    Ok(())
}

/// At most `max` values of `sorted`, evenly spaced, first and last included.
fn thin(sorted: &[f64], max: usize) -> Vec<f64> {
    if sorted.len() <= max {
        return sorted.to_vec();
    }
    (0..max)
        .map(|k| sorted[k * (sorted.len() - 1) / (max - 1)])
        .collect()
}

/// Share of puzzles solved within each time: one rising curve per engine.
fn cactus_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    names: &[String],
    solved: &[Vec<f64>],
    all: &[Vec<f64>],
    puzzles: usize,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let (lo, hi) = decades(all);
    let mut chart = ChartBuilder::on(area)
        .caption("Share of puzzles solved within a given time", (FONT, 20))
        .margin(12)
        .margin_right(30)
        .x_label_area_size(48)
        .y_label_area_size(name_area(names))
        .build_cartesian_2d(
            log(lo, hi),
            linear(0.0..100.0, vec![0.0, 25.0, 50.0, 75.0, 100.0]),
        )?;
    chart
        .configure_mesh()
        .x_desc("time per puzzle (log scale)")
        .x_label_formatter(&|x| tick_micros(*x))
        .y_label_formatter(&|y| format!("{y:.0}%"))
        .label_style((FONT, 14))
        .axis_desc_style((FONT, 15))
        .draw()?;
    for (i, times) in solved.iter().enumerate() {
        let c = colour(i);
        let n = times.len();
        let step = n.div_ceil(MAX_CURVE_POINTS).max(1);
        // A step curve: the share rises at each puzzle's time and holds until the next.
        let share = |k: usize| 100.0 * k as f64 / puzzles.max(1) as f64;
        let mut points: Vec<(f64, f64)> = vec![(lo, 0.0)];
        let mut last = 0.0;
        for k in (0..n).filter(|k| k % step == 0 || *k == n - 1) {
            let x = times[k].max(lo);
            points.push((x, last));
            last = share(k + 1);
            points.push((x, last));
        }
        points.push((hi, last));
        chart.draw_series(LineSeries::new(points, c.stroke_width(2)))?;
    }
    legend(area, names)?;
    Ok(())
}

/// The engines' colours, listed in the empty left part of a panel (where the other panels
/// have engine names), so that no legend box covers the curves.
fn legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    names: &[String],
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    for (i, name) in names.iter().enumerate() {
        let y = 44 + 18 * i as i32;
        area.draw(&PathElement::new(
            vec![(8, y), (30, y)],
            colour(i).stroke_width(3),
        ))?;
        area.draw_text(
            name,
            &TextStyle::from((FONT, 12)).pos(Pos::new(HPos::Left, VPos::Center)),
            (36, y),
        )?;
    }
    Ok(())
}

/// Mean backtracks per puzzle, by label (x) and engine (one line each), on a log y axis.
fn label_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    comparison: &Comparison,
    labels: &[super::LabelGroup],
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    // Means of zero have no place on a log axis: they are drawn on the floor, a decade below
    // the smallest positive mean (and said so in the axis title).
    let positive: Vec<f64> = labels
        .iter()
        .flat_map(|g| g.backtracks_mean.iter().copied())
        .filter(|&v| v > 0.0)
        .collect();
    let (lo, hi) = decades(&[positive]);
    let floor = lo / 10.0;
    let x_keys: Vec<f64> = (0..labels.len()).map(|i| i as f64).collect();
    let names: Vec<String> = comparison.engines().iter().map(|e| e.to_string()).collect();
    let mut chart = ChartBuilder::on(area)
        .caption(
            "Mean backtracks per puzzle, by label (log scale; a mean of 0 is drawn on the floor)",
            (FONT, 20),
        )
        .margin(12)
        .margin_right(30)
        .x_label_area_size(48)
        .y_label_area_size(name_area(&names))
        .build_cartesian_2d(
            linear(-0.5..labels.len() as f64 - 0.5, x_keys),
            log(floor, hi),
        )?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc("label (puzzles)")
        .x_label_formatter(&|x| {
            let i = x.round().max(0.0) as usize;
            labels
                .get(i)
                .map(|g| format!("{} ({})", g.label, g.puzzles))
                .unwrap_or_default()
        })
        .y_label_formatter(&|y| tick_count(*y))
        .label_style((FONT, 14))
        .axis_desc_style((FONT, 15))
        .draw()?;
    for i in 0..names.len() {
        let c = colour(i);
        let points: Vec<(f64, f64)> = labels
            .iter()
            .enumerate()
            .map(|(x, g)| (x as f64, g.backtracks_mean[i].max(floor)))
            .collect();
        chart.draw_series(LineSeries::new(points.clone(), c.stroke_width(2)))?;
        chart.draw_series(points.into_iter().map(|p| Circle::new(p, 4, c.filled())))?;
    }
    legend(area, &names)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{DEFAULT_REQUEST, run};
    use super::*;
    use crate::engine::Engine;
    use crate::io::puzzle::{Layout, PuzzleReader};

    #[test]
    fn tick_labels_read_well() {
        assert_eq!(tick_micros(1.0), "1 µs");
        assert_eq!(tick_micros(100.0), "100 µs");
        assert_eq!(tick_micros(1e3), "1 ms");
        assert_eq!(tick_micros(1e7), "10 s");
        assert_eq!(tick_count(0.1), "0.1");
        assert_eq!(tick_count(1e4), "10k");
        assert_eq!(tick_count(1e6), "1M");
    }

    #[test]
    fn decades_cover_the_values() {
        assert_eq!(decades(&[vec![3.0, 450.0]]), (1.0, 1000.0));
        assert_eq!(decades(&[vec![0.0, 10.0]]), (1.0, 100.0));
        assert_eq!(decades(&[vec![20.0, 1e6]]), (10.0, 1e7));
        assert_eq!(decades(&[vec![1.0, 50.0]]), (0.1, 100.0));
        assert_eq!(decades(&[vec![]]), (1.0, 10.0));
        assert_eq!(powers_of_ten(1.0, 1000.0), [1.0, 10.0, 100.0, 1000.0]);
    }

    #[test]
    fn thinning_keeps_the_ends() {
        let values: Vec<f64> = (0..1000).map(f64::from).collect();
        let kept = thin(&values, 10);
        assert_eq!(kept.len(), 10);
        assert_eq!((kept[0], kept[9]), (0.0, 999.0));
        assert_eq!(thin(&values[..5], 10).len(), 5);
    }

    #[test]
    fn svg_is_written_with_engine_names() {
        let text = "1...........4..2 easy\n1.3.34.2.......1 hard\n................ easy\n";
        let puzzles = PuzzleReader::new(text.as_bytes(), None, Layout::Line);
        let all = Engine::defaults();
        let c = run(puzzles, &all, &DEFAULT_REQUEST);
        let path =
            std::env::temp_dir().join(format!("quadrille-compare-{}.svg", std::process::id()));
        write_svg(&c, &path, "test chart").unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..50]);
        for engine in &all {
            assert!(svg.contains(&engine.to_string()), "{engine}");
        }
        for text in [
            "test chart",
            "Time per puzzle",
            "Search-tree nodes",
            "by label",
            "easy (2)",
            "hard (1)",
        ] {
            assert!(svg.contains(text), "{text}");
        }
        // A path in a missing directory is an error, not a panic.
        let bad = std::env::temp_dir()
            .join("no-such-dir-quadrille")
            .join("x.svg");
        assert!(write_svg(&c, &bad, "x").is_err());
    }
}
