//! ETNA bucket charts (*Programmable Property-Based Testing* Fig. 15–23) as SVG.
//!
//! One chart per workload: a horizontal bar per strategy, its length the
//! number of tasks, divided into the tasks solved within 0.1 s, 1 s, 10 s,
//! 60 s (darkest to lightest shade of the strategy's colour) and the
//! unsolved ones (white).

use crate::results::{bucket_counts, strategies, visible_buckets, workloads, Results, BUCKETS};
use crate::strategy::Strategy;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::{Path, PathBuf};

const WIDTH: u32 = 910;
const LEFT: i32 = 220;
const RIGHT: i32 = 30;
const ROW: i32 = 34;
const BAR: i32 = 24;
const TOP: i32 = 56;
const FONT: &str = "sans-serif";

/// The colour of a strategy (each library, and each of pbt's runners, a
/// hue; type-based a paler one).
fn colour(s: Strategy) -> RGBColor {
    use crate::strategy::{Kind, Library, Runner};
    let hue = match (s.library, s.runner) {
        (Library::Proptest, _) => RGBColor(0, 109, 44),
        (Library::Quickcheck, _) => RGBColor(191, 91, 0),
        (Library::Pbt, Runner::Generational) => RGBColor(84, 39, 143),
        (Library::Pbt, Runner::Parallel) => RGBColor(33, 102, 172),
        (Library::Pbt, Runner::FuzzChoices) => RGBColor(178, 24, 43),
        (Library::Pbt, Runner::FuzzValues) => RGBColor(214, 96, 77),
        (Library::Pbt, Runner::Targeted) => RGBColor(1, 133, 113),
        (Library::Pbt, Runner::Integrated) => RGBColor(140, 81, 10),
        (Library::Pbt, Runner::Exhaustive) => RGBColor(77, 77, 77),
        (Library::Pbt, Runner::ExhaustivePrefix) => RGBColor(118, 42, 131),
        (Library::Pbt, Runner::FuzzPool(p)) => pool_hue(p),
    };
    match s.kind {
        Kind::Bespoke | Kind::Variational => hue,
        Kind::TypeBased => {
            let pale = |x: u8| ((u16::from(x) * 3 + 2 * 160) / 5) as u8;
            RGBColor(pale(hue.0), pale(hue.1), pale(hue.2))
        }
    }
}

/// A seed pool's colour: one hue per pool, darker for more energy.
fn pool_hue(p: crate::strategy::PoolConfig) -> RGBColor {
    use crate::strategy::PoolConfig;
    let (base, energy) = match p {
        PoolConfig::Fifo(e) => (RGBColor(178, 24, 43), e),
        PoolConfig::Filo(e) => (RGBColor(33, 102, 172), e),
        PoolConfig::Heap(e) => (RGBColor(1, 133, 113), e),
        PoolConfig::DynamicMonotonic(e) => (RGBColor(140, 81, 10), e),
        PoolConfig::DynamicResetting(e) => (RGBColor(118, 42, 131), e),
        PoolConfig::Static => (RGBColor(77, 77, 77), 1000),
    };
    let dark = match energy {
        0..=1 => 0.55,
        2..=10 => 0.7,
        11..=100 => 0.85,
        _ => 1.0,
    };
    let f = |x: u8| (f64::from(x) * dark + 200.0 * (1.0 - dark)).round() as u8;
    RGBColor(f(base.0), f(base.1), f(base.2))
}

/// Bucket `b`'s shade of `c`: full for 0.1 s, lighter for each later bucket.
fn shade(c: RGBColor, b: usize) -> RGBColor {
    let keep = [1.0, 0.7, 0.45, 0.25][b.min(3)];
    let mix = |x: u8| (f64::from(x) * keep + 255.0 * (1.0 - keep)).round() as u8;
    RGBColor(mix(c.0), mix(c.1), mix(c.2))
}

/// Draw the chart of `workload` into `path`.
pub fn draw(results: &Results, workload: &str, path: &Path) -> Result<(), String> {
    let strategies = strategies(results);
    let rows = strategies.len() as i32;
    let height = (TOP + rows * ROW + 90) as u32;
    let root = SVGBackend::new(path, (WIDTH, height)).into_drawing_area();
    let err = |e: DrawingAreaErrorKind<_>| format!("drawing {}: {e}", path.display());
    root.fill(&WHITE).map_err(err)?;

    let counts: Vec<[usize; 5]> = strategies
        .iter()
        .map(|s| bucket_counts(results, workload, *s))
        .collect();
    let total = counts
        .iter()
        .map(|c| c.iter().sum::<usize>())
        .max()
        .unwrap_or(0)
        .max(1);
    let span = WIDTH as i32 - LEFT - RIGHT;
    let x_of = |n: usize| LEFT + (span as f64 * n as f64 / total as f64).round() as i32;

    // Trials per strategy (the fewest any of its tasks planned), and the
    // limit: runs merged with `--from-json a,b` may differ in both, and keep
    // the largest limit.
    let trials: Vec<u32> = strategies
        .iter()
        .filter_map(|s| {
            results
                .results
                .iter()
                .filter(|r| r.workload == workload && r.strategy == s.name())
                .map(|r| r.trials_planned)
                .min()
        })
        .collect();
    let (lo, hi) = (
        trials.iter().min().copied().unwrap_or(results.trials),
        trials.iter().max().copied().unwrap_or(results.trials),
    );
    let trials = if lo == hi {
        format!("{lo} trials")
    } else {
        format!("{lo}–{hi} trials")
    };
    let merged = results.command.contains(" + ");
    let limit = if merged { "≤ " } else { "" };
    let title = format!(
        "{workload}: {total} tasks, {trials}, {limit}{} s limit per trial",
        results.timeout
    );
    let big = TextStyle::from((FONT, 22).into_font()).color(&BLACK);
    root.draw(&Text::new(title, (LEFT, 18), big)).map_err(err)?;

    let label = TextStyle::from((FONT, 17).into_font())
        .color(&BLACK)
        .pos(Pos::new(HPos::Right, VPos::Center));
    let inside = |light: bool| {
        TextStyle::from((FONT, 15).into_font())
            .color(if light { &WHITE } else { &BLACK })
            .pos(Pos::new(HPos::Center, VPos::Center))
    };
    for (i, (s, c)) in strategies.iter().zip(&counts).enumerate() {
        let y = TOP + i as i32 * ROW;
        let mid = y + BAR / 2;
        root.draw(&Text::new(s.name(), (LEFT - 10, mid), label.clone()))
            .map_err(err)?;
        let mut done = 0;
        for (b, n) in c.iter().enumerate() {
            if *n == 0 {
                continue;
            }
            let (x0, x1) = (x_of(done), x_of(done + n));
            done += n;
            let fill = if b == BUCKETS.len() {
                WHITE
            } else {
                shade(colour(*s), b)
            };
            root.draw(&Rectangle::new([(x0, y), (x1, y + BAR)], fill.filled()))
                .map_err(err)?;
            root.draw(&Rectangle::new(
                [(x0, y), (x1, y + BAR)],
                RGBColor(90, 90, 90).stroke_width(1),
            ))
            .map_err(err)?;
            if x1 - x0 >= 16 {
                root.draw(&Text::new(
                    n.to_string(),
                    ((x0 + x1) / 2, mid),
                    inside(b < 2),
                ))
                .map_err(err)?;
            }
        }
    }

    // The legend (Fig. 15): the shades of one grey, left to right.
    let y = TOP + rows * ROW + 24;
    let small = TextStyle::from((FONT, 16).into_font())
        .color(&BLACK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    let mut legend = visible_buckets(results.timeout);
    legend.push((BUCKETS.len(), "unsolved".to_string()));
    let mut x = LEFT;
    for (b, name) in legend {
        let fill = if b == BUCKETS.len() {
            WHITE
        } else {
            shade(RGBColor(60, 60, 60), b)
        };
        root.draw(&Rectangle::new([(x, y), (x + 22, y + 16)], fill.filled()))
            .map_err(err)?;
        root.draw(&Rectangle::new(
            [(x, y), (x + 22, y + 16)],
            RGBColor(90, 90, 90).stroke_width(1),
        ))
        .map_err(err)?;
        root.draw(&Text::new(name, (x + 28, y + 8), small.clone()))
            .map_err(err)?;
        x += 128;
    }
    let note = "tasks solved within the limit in the mean of all trials; unsolved: some trial found no failure";
    let tiny = TextStyle::from((FONT, 15).into_font()).color(&RGBColor(80, 80, 80));
    root.draw(&Text::new(note, (LEFT, y + 34), tiny))
        .map_err(err)?;
    root.present().map_err(err)
}

/// Draw every workload's chart into `dir` (`bst.svg`, `rbt.svg`, `stlc.svg`).
pub fn draw_all(results: &Results, dir: &Path) -> Result<Vec<PathBuf>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    workloads(results)
        .iter()
        .map(|w| {
            let path = dir.join(format!("{}.svg", w.to_lowercase()));
            draw(results, w, &path).map(|()| path)
        })
        .collect()
}
