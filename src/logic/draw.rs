//! Pictures of a step: the candidate grid as text, and as an SVG drawing with the step's
//! units, cells and candidates highlighted.
//!
//! The SVG is written as text: a grid of rectangles, lines and `<text>` elements needs nothing
//! from a charting library (plotters draws charts with axes, which a Sudoku grid has none of),
//! and this keeps the drawing in the library without the `plot` feature.

use std::fmt::Write as _;

use super::state::{Candidates, digits};
use super::step::Step;
use super::technique::Technique;
use crate::sudoku::digit_char;

/// How a digit is written: `1`-`9`, `A`-`Z` up to 35, its number beyond.
fn symbol(d: u8, n: usize) -> String {
    if n <= 35 {
        digit_char(d).to_string()
    } else {
        d.to_string()
    }
}

/// Writes the candidate grid as text: each cell its digit or its candidates, padded to the
/// widest cell of its column, with box borders.
pub fn write_candidates(state: &Candidates, out: &mut String) {
    let shape = state.shape();
    let n = shape.size();
    let text = |c: usize| -> String {
        if state.values[c] != 0 {
            symbol(state.values[c], n)
        } else {
            let sep = if n > 35 { "," } else { "" };
            digits(state.cands[c])
                .map(|d| symbol(d, n))
                .collect::<Vec<_>>()
                .join(sep)
        }
    };
    let widths: Vec<usize> = (0..n)
        .map(|col| {
            (0..n)
                .map(|row| text(row * n + col).len())
                .max()
                .unwrap_or(1)
        })
        .collect();
    let rule: String = (0..n)
        .map(|col| {
            let dashes = "-".repeat(widths[col] + 1);
            if col > 0 && col.is_multiple_of(shape.box_cols()) {
                format!("-+{dashes}")
            } else {
                dashes
            }
        })
        .collect();
    for row in 0..n {
        if row > 0 && row.is_multiple_of(shape.box_rows()) {
            let _ = writeln!(out, "{rule}");
        }
        for (col, &width) in widths.iter().enumerate() {
            if col > 0 && col.is_multiple_of(shape.box_cols()) {
                out.push_str(" |");
            }
            let _ = write!(out, " {:<width$}", text(row * n + col));
        }
        out.push('\n');
    }
}

/// An SVG drawing of `step` on the candidate grid `state` it was found in: the units of the
/// pattern shaded blue, its cells yellow, digits placed in green, candidates removed in red
/// and struck through, the pattern's candidates in its cells in blue; the step's technique and
/// reason above the grid.
pub fn step_svg(state: &Candidates, step: &Step, title: &str) -> String {
    let shape = state.shape();
    let n = shape.size();
    let cell = if n <= 9 {
        48.0
    } else {
        (640.0 / n as f64).max(24.0)
    };
    let margin = 12.0;
    let header = 44.0;
    let side = cell * n as f64;
    let (width, height) = (side + 2.0 * margin, side + 2.0 * margin + header);
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif">"#
    );
    let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        svg,
        r#"<text x="{margin}" y="18" font-size="14" font-weight="bold">{}</text>"#,
        escape(title)
    );
    let _ = writeln!(
        svg,
        r#"<text x="{margin}" y="36" font-size="11">{}</text>"#,
        escape(&step.why())
    );
    let top = margin + header;
    let origin = |c: usize| (margin + (c % n) as f64 * cell, top + (c / n) as f64 * cell);
    let t = &*state.tables;
    let mut fill = vec![""; n * n];
    for &u in step.units() {
        for &c in t.unit(u) {
            fill[c as usize] = "#dbe9f7";
        }
    }
    for &c in &step.cells {
        fill[c as usize] = "#fff2a8";
    }
    for &(c, _) in &step.placements {
        fill[c as usize] = "#c8f0c8";
    }
    for (c, colour) in fill.iter().enumerate() {
        if !colour.is_empty() {
            let (x, y) = origin(c);
            let _ = writeln!(
                svg,
                r#"<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{colour}"/>"#
            );
        }
    }
    // Candidates sit in a small grid of box_rows x box_cols places, so every shape fits.
    let (sub_rows, sub_cols) = (shape.box_rows(), shape.box_cols());
    let small = (cell / sub_cols.max(sub_rows) as f64 * 0.8).min(cell * 0.3);
    for c in 0..n * n {
        let (x, y) = origin(c);
        if state.values[c] != 0 {
            let _ = writeln!(
                svg,
                r#"<text x="{}" y="{}" font-size="{}" text-anchor="middle">{}</text>"#,
                x + cell / 2.0,
                y + cell * 0.7,
                cell * 0.55,
                symbol(state.values[c], n)
            );
            continue;
        }
        for d in digits(state.cands[c]) {
            let i = usize::from(d) - 1;
            let cx =
                x + (i % sub_cols) as f64 * cell / sub_cols as f64 + cell / sub_cols as f64 / 2.0;
            let cy =
                y + (i / sub_cols) as f64 * cell / sub_rows as f64 + cell / sub_rows as f64 * 0.75;
            let placed = step.placements.contains(&(c as u16, d));
            let removed = step.eliminations.contains(&(c as u16, d));
            let in_pattern = step.cells.contains(&(c as u16)) && step.digits & (1 << i) != 0
                || step
                    .chain
                    .iter()
                    .any(|&(cc, dd, _)| (cc as usize, dd) == (c, d));
            let (colour, weight) = if placed {
                ("#178a17", "bold")
            } else if removed {
                ("#d62728", "bold")
            } else if in_pattern && step.technique() != Technique::NakedSingle {
                ("#1f5fbf", "bold")
            } else {
                ("#666666", "normal")
            };
            let _ = writeln!(
                svg,
                r#"<text x="{cx:.1}" y="{cy:.1}" font-size="{small:.1}" text-anchor="middle" fill="{colour}" font-weight="{weight}">{}</text>"#,
                symbol(d, n)
            );
            if removed {
                let half = small * 0.45;
                let _ = writeln!(
                    svg,
                    r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#d62728" stroke-width="1.5"/>"##,
                    cx - half,
                    cy - small * 0.3,
                    cx + half,
                    cy - small * 0.3
                );
            }
        }
    }
    for i in 0..=n {
        let thick = |k: usize| {
            if k.is_multiple_of(shape.box_cols()) {
                2.5
            } else {
                0.6
            }
        };
        let thick_row = |k: usize| {
            if k.is_multiple_of(shape.box_rows()) {
                2.5
            } else {
                0.6
            }
        };
        let p = i as f64 * cell;
        let _ = writeln!(
            svg,
            r#"<line x1="{}" y1="{top}" x2="{}" y2="{}" stroke="black" stroke-width="{}"/>"#,
            margin + p,
            margin + p,
            top + side,
            thick(i)
        );
        let _ = writeln!(
            svg,
            r#"<line x1="{margin}" y1="{}" x2="{}" y2="{}" stroke="black" stroke-width="{}"/>"#,
            top + p,
            margin + side,
            top + p,
            thick_row(i)
        );
    }
    svg.push_str("</svg>\n");
    svg
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
