//! `quadrille rate` against Sudoku Explainer (SE): the agreement on a fixed reference set
//! (`fixtures/se/generated_se121.txt`: 385 puzzles of our own generator, rated by SE with its
//! v1.2.1 techniques; provenance in `fixtures/README.md`) must not fall below what this branch
//! measured (Spearman 0.998, 89.9% exact, mean difference 0.04), less a small margin.
//! `benches/peers/se_agreement.sh` prints the same figures for any reference file.

use quadrille::io::puzzle::parse_line;
use quadrille::logic::LogicSolver;
use quadrille::sudoku::Shape;

/// Ranks with ties given their mean rank (1-based).
fn ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut result = vec![0.0; values.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && values[order[j + 1]] == values[order[i]] {
            j += 1;
        }
        for &k in &order[i..=j] {
            result[k] = (i + j) as f64 / 2.0 + 1.0;
        }
        i = j + 1;
    }
    result
}

fn pearson(xs: &[f64], ys: &[f64]) -> f64 {
    let n = xs.len() as f64;
    let (mx, my) = (xs.iter().sum::<f64>() / n, ys.iter().sum::<f64>() / n);
    let sxy: f64 = xs.iter().zip(ys).map(|(x, y)| (x - mx) * (y - my)).sum();
    let sxx: f64 = xs.iter().map(|x| (x - mx).powi(2)).sum();
    let syy: f64 = ys.iter().map(|y| (y - my).powi(2)).sum();
    sxy / (sxx * syy).sqrt()
}

fn spearman(xs: &[f64], ys: &[f64]) -> f64 {
    pearson(&ranks(xs), &ranks(ys))
}

#[test]
fn spearman_of_known_orders() {
    assert!((spearman(&[1.0, 2.0, 3.0], &[10.0, 20.0, 30.0]) - 1.0).abs() < 1e-12);
    assert!((spearman(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]) + 1.0).abs() < 1e-12);
    // Ties take their mean rank: ranks (1.5, 1.5, 3) against (1, 2, 3).
    let tied = spearman(&[1.0, 1.0, 2.0], &[1.0, 2.0, 3.0]);
    assert!((tied - 0.866_025_403_784_438_6).abs() < 1e-12, "{tied}");
}

#[test]
fn rate_agrees_with_sudoku_explainer_on_the_reference_set() {
    let text = include_str!("../fixtures/se/generated_se121.txt");
    let mut solver = LogicSolver::new(Shape::CLASSIC);
    let (mut se, mut ours) = (Vec::new(), Vec::new());
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let (puzzle, er) = line.split_once(' ').expect("PUZZLE ER");
        let grid = parse_line(puzzle, None).unwrap();
        let rating = solver.rate(&grid);
        assert!(rating.unique && rating.guesses == 0, "{puzzle}: {rating:?}");
        se.push(er.trim().parse::<f64>().unwrap());
        ours.push(rating.score());
    }
    assert_eq!(se.len(), 385);
    let rho = spearman(&se, &ours);
    let exact = se
        .iter()
        .zip(&ours)
        .filter(|(a, b)| (*a - *b).abs() < 0.05)
        .count();
    let mean_diff = se
        .iter()
        .zip(&ours)
        .map(|(a, b)| (a - b).abs())
        .sum::<f64>()
        / 385.0;
    assert!(rho >= 0.99, "Spearman {rho}");
    assert!(exact * 100 >= 85 * 385, "{exact} of 385 exact");
    assert!(mean_diff <= 0.08, "mean difference {mean_diff}");
}
