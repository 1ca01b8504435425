//! The histogram of a batch's ratings (feature `plot`): how many puzzles at each score.

use std::path::Path;

use plotters::prelude::*;

use crate::error::{Error, ErrorKind, Result};

/// Writes an SVG bar chart of `counts`, where `counts[t]` puzzles scored `t` tenths, to
/// `path`, titled `title`.
pub fn write_histogram(counts: &[u64], path: &Path, title: &str) -> Result<()> {
    draw(counts, path, title).map_err(|e| {
        Error::new(ErrorKind::Io(std::io::Error::other(format!(
            "{}: {e}",
            path.display()
        ))))
    })
}

fn draw(
    counts: &[u64],
    path: &Path,
    title: &str,
) -> std::result::Result<(), Box<dyn std::error::Error>> {
    let top = counts.iter().copied().max().unwrap_or(0).max(1);
    let last = counts.iter().rposition(|&c| c > 0).unwrap_or(0).max(20) as u32 + 1;
    let root = SVGBackend::new(path, (900, 480)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d((10u32..last).into_segmented(), 0u64..top + top / 10 + 1)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc("score (Sudoku Explainer's scale)")
        .y_desc("puzzles")
        .x_label_formatter(&|v| match v {
            SegmentValue::Exact(t) | SegmentValue::CenterOf(t) => {
                format!("{:.1}", f64::from(*t) / 10.0)
            }
            SegmentValue::Last => String::new(),
        })
        .draw()?;
    chart.draw_series(
        Histogram::vertical(&chart)
            .style(RGBColor(31, 119, 180).filled())
            .margin(1)
            .data(
                counts
                    .iter()
                    .enumerate()
                    .filter(|&(t, &c)| c > 0 && t >= 10)
                    .map(|(t, &c)| (t as u32, c)),
            ),
    )?;
    root.present()?;
    Ok(())
}
