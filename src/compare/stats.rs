//! The numbers of a comparison: quantiles, per-engine summaries, and the text table.
//!
//! Quantiles interpolate linearly between the two nearest ranks (the "type 7" rule of R and
//! numpy's default), so the median of an even count is the mean of the middle two and the
//! 95th percentile of a short list lies between its top values rather than jumping to one.

use std::fmt::Write as _;
use std::time::Duration;

use super::{Comparison, LabelGroup, Measurement};
use crate::engine::Engine;

/// The `q`-quantile (0 <= q <= 1) of values sorted ascending; 0 for no values.
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    match sorted.len() {
        0 => 0.0,
        1 => sorted[0],
        len => {
            let rank = q.clamp(0.0, 1.0) * (len - 1) as f64;
            let below = rank.floor() as usize;
            let above = (below + 1).min(len - 1);
            let fraction = rank - below as f64;
            sorted[below] + (sorted[above] - sorted[below]) * fraction
        }
    }
}

/// Mean, median, 95th percentile and maximum of a list of measurements.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Spread {
    /// The arithmetic mean.
    pub mean: f64,
    /// The median (0.5-quantile).
    pub median: f64,
    /// The 95th percentile (0.95-quantile).
    pub p95: f64,
    /// The largest value.
    pub max: f64,
}

impl Spread {
    /// The spread of `values` (sorted in place); all zero for no values.
    ///
    /// ```
    /// use quadrille::compare::Spread;
    ///
    /// let mut values: Vec<f64> = (1..=20).map(f64::from).collect();
    /// let spread = Spread::of(&mut values);
    /// assert_eq!((spread.mean, spread.median, spread.max), (10.5, 10.5, 20.0));
    /// assert!((spread.p95 - 19.05).abs() < 1e-9);
    /// ```
    pub fn of(values: &mut [f64]) -> Spread {
        if values.is_empty() {
            return Spread::default();
        }
        values.sort_by(f64::total_cmp);
        Spread {
            mean: values.iter().sum::<f64>() / values.len() as f64,
            median: quantile(values, 0.5),
            p95: quantile(values, 0.95),
            max: values[values.len() - 1],
        }
    }
}

/// What one engine did over all the puzzles of a comparison: one row of the table.
///
/// Puzzles the engine gave up on (its budget ran out) are in every statistic with the time
/// and nodes they used, so means and percentiles are then lower bounds of the true cost.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSummary {
    /// The engine.
    pub engine: Engine,
    /// Puzzles run (bad lines excluded).
    pub puzzles: usize,
    /// Puzzles answered within the budget: solved, or proven to have no solution.
    pub solved: usize,
    /// Puzzles whose node or time budget ran out first.
    pub gave_up: usize,
    /// Time per puzzle, in microseconds.
    pub micros: Spread,
    /// Search-tree nodes per puzzle.
    pub nodes: Spread,
    /// Mean backtracks per puzzle.
    pub backtracks_mean: f64,
    /// The share (0..=1) of puzzles solved without backtracking (`backtracks == 0`).
    pub no_backtracking: f64,
    /// Time spent on all puzzles together.
    pub total: Duration,
}

/// A duration given in microseconds, with a unit that keeps 3 or 4 significant digits:
/// `12.3 µs`, `4.56 ms`, `1.23 s`.
pub fn format_micros(micros: f64) -> String {
    if micros < 1_000.0 {
        format!("{micros:.1} µs")
    } else if micros < 1_000_000.0 {
        format!("{:.2} ms", micros / 1e3)
    } else {
        format!("{:.2} s", micros / 1e6)
    }
}

/// A count per puzzle, short: one decimal below 100, whole numbers below 100 000, then `k`
/// or `M` with three significant digits (`1.23M`).
pub fn format_count(value: f64) -> String {
    if value < 100.0 {
        format!("{value:.1}")
    } else if value < 100_000.0 {
        format!("{value:.0}")
    } else if value < 999_500.0 {
        // Below this, `k` with no decimals does not round up to `1000k`.
        format!("{:.0}k", value / 1e3)
    } else {
        format!("{:.2}M", value / 1e6)
    }
}

/// Lays out rows of cells in aligned columns: the first column left-aligned, the others
/// right-aligned, two spaces apart. The first row is the header, underlined.
pub(crate) fn aligned(rows: &[Vec<String>]) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let width = |c: usize| {
        rows.iter()
            .filter_map(|r| r.get(c))
            .map(|cell| cell.chars().count())
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..columns).map(width).collect();
    let mut out = String::new();
    for (i, row) in rows.iter().enumerate() {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            if c == 0 {
                let _ = write!(line, "{cell:<w$}", w = widths[0]);
            } else {
                let _ = write!(line, "  {cell:>w$}", w = widths[c]);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
        if i == 0 {
            let total = widths.iter().sum::<usize>() + 2 * columns.saturating_sub(1);
            out.push_str(&"-".repeat(total));
            out.push('\n');
        }
    }
    out
}

/// The table of summaries, one row per engine, in aligned columns.
pub fn table(summaries: &[EngineSummary]) -> String {
    let header = [
        "engine",
        "solved",
        "gave up",
        "t mean",
        "t median",
        "t p95",
        "t max",
        "nodes mean",
        "nodes median",
        "backtracks mean",
        "no backtrack",
        "total",
    ];
    let mut rows = vec![header.iter().map(|h| h.to_string()).collect::<Vec<_>>()];
    for s in summaries {
        rows.push(vec![
            s.engine.to_string(),
            format!("{}/{}", s.solved, s.puzzles),
            s.gave_up.to_string(),
            format_micros(s.micros.mean),
            format_micros(s.micros.median),
            format_micros(s.micros.p95),
            format_micros(s.micros.max),
            format_count(s.nodes.mean),
            format_count(s.nodes.median),
            format_count(s.backtracks_mean),
            format!("{:.1}%", s.no_backtracking * 100.0),
            format_micros(s.total.as_secs_f64() * 1e6),
        ]);
    }
    aligned(&rows)
}

impl Comparison {
    /// One summary per engine, in the engines' order.
    pub fn summaries(&self) -> Vec<EngineSummary> {
        (0..self.engines.len()).map(|i| self.summary(i)).collect()
    }

    fn summary(&self, index: usize) -> EngineSummary {
        let puzzles = self.puzzles.len();
        let per = |x: f64| if puzzles > 0 { x / puzzles as f64 } else { 0.0 };
        let mut micros: Vec<f64> = self.measurements(index).map(Measurement::micros).collect();
        let mut nodes: Vec<f64> = self.measurements(index).map(|m| m.nodes as f64).collect();
        let gave_up = self.measurements(index).filter(|m| m.gave_up()).count();
        EngineSummary {
            engine: self.engines[index],
            puzzles,
            solved: puzzles - gave_up,
            gave_up,
            micros: Spread::of(&mut micros),
            nodes: Spread::of(&mut nodes),
            backtracks_mean: per(self.measurements(index).map(|m| m.backtracks as f64).sum()),
            no_backtracking: per(self
                .measurements(index)
                .filter(|m| m.backtracks == 0)
                .count() as f64),
            total: self.measurements(index).map(|m| m.elapsed).sum(),
        }
    }

    /// Mean backtracks per label and engine, labels in order of first appearance; empty when
    /// no puzzle has a label. Unlabelled puzzles are left out.
    pub fn labels(&self) -> Vec<LabelGroup> {
        let mut groups: Vec<LabelGroup> = Vec::new();
        for puzzle in &self.puzzles {
            let Some(label) = &puzzle.label else { continue };
            let at = match groups.iter().position(|g| &g.label == label) {
                Some(at) => at,
                None => {
                    groups.push(LabelGroup {
                        label: label.clone(),
                        puzzles: 0,
                        backtracks_mean: vec![0.0; self.engines.len()],
                    });
                    groups.len() - 1
                }
            };
            let group = &mut groups[at];
            group.puzzles += 1;
            for (sum, m) in group.backtracks_mean.iter_mut().zip(&puzzle.results) {
                *sum += m.backtracks as f64;
            }
        }
        for group in &mut groups {
            for sum in &mut group.backtracks_mean {
                *sum /= group.puzzles as f64;
            }
        }
        groups
    }
}

#[cfg(test)]
mod tests {

    use super::*;

    #[test]
    fn quantiles_of_known_vectors() {
        assert_eq!(quantile(&[], 0.5), 0.0);
        assert_eq!(quantile(&[7.0], 0.0), 7.0);
        assert_eq!(quantile(&[1.0, 2.0, 3.0], 0.5), 2.0);
        assert_eq!(quantile(&[1.0, 2.0, 3.0, 4.0], 0.5), 2.5);
        assert_eq!(quantile(&[1.0, 2.0, 3.0, 4.0], 0.0), 1.0);
        assert_eq!(quantile(&[1.0, 2.0, 3.0, 4.0], 1.0), 4.0);
        // numpy.percentile(range(1, 101), 95) == 95.05
        let hundred: Vec<f64> = (1..=100).map(f64::from).collect();
        assert!((quantile(&hundred, 0.95) - 95.05).abs() < 1e-9);
        // numpy.percentile([1, 2, 3, 4, 10], 95) == 8.8
        assert!((quantile(&[1.0, 2.0, 3.0, 4.0, 10.0], 0.95) - 8.8).abs() < 1e-9);
    }

    #[test]
    fn spread_sorts_and_summarises() {
        let mut values = vec![10.0, 1.0, 4.0, 3.0, 2.0];
        let s = Spread::of(&mut values);
        assert_eq!(values, [1.0, 2.0, 3.0, 4.0, 10.0]);
        assert_eq!((s.mean, s.median, s.max), (4.0, 3.0, 10.0));
        assert!((s.p95 - 8.8).abs() < 1e-9);
        assert_eq!(Spread::of(&mut []), Spread::default());
    }

    #[test]
    fn units_change_where_they_should() {
        assert_eq!(format_micros(0.0), "0.0 µs");
        assert_eq!(format_micros(999.94), "999.9 µs");
        assert_eq!(format_micros(1_000.0), "1.00 ms");
        assert_eq!(format_micros(999_000.0), "999.00 ms");
        assert_eq!(format_micros(1_000_000.0), "1.00 s");
        assert_eq!(format_count(0.0), "0.0");
        assert_eq!(format_count(250_000.0), "250k");
        assert_eq!(format_count(999_999.9), "1.00M");
    }

    #[test]
    fn table_columns_line_up() {
        let rows = vec![
            vec!["engine".to_string(), "n".to_string()],
            vec!["dlx".to_string(), "12345".to_string()],
            vec!["csp:mrv+lex+fc".to_string(), "7".to_string()],
        ];
        let text = aligned(&rows);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "engine              n");
        assert_eq!(lines[1], "-".repeat(21));
        assert_eq!(lines[2], "dlx             12345");
        assert_eq!(lines[3], "csp:mrv+lex+fc      7");
    }
}
