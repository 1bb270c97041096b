//! A chart drawn from an observations file, the JSON lines that
//! `Config::observe` (or `PBT_OBSERVE=dir`) writes for the Tyche extension:
//! the distribution of the lengths of the lists a property was tested on,
//! passed and discarded tests stacked, as Tyche charts a run.
//!
//! The property inserts into a sorted list; its precondition (the list is
//! sorted) throws away most long lists, so the tests that pass are almost
//! all on short ones. The chart shows it at a glance.
//!
//! `cargo run --example observed_chart -- docs/guide/observed-lengths.svg`
//! draws the chart of the guide (chapter 7); the observations go to
//! `target/pbt-observed-example/`.

use pbt::prelude::*;
use pbt::runners::{generational, Regressions};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

fn main() {
    let out = std::env::args()
        .nth(1)
        .unwrap_or("observed-lengths.svg".into());
    let dir = Path::new("target/pbt-observed-example");
    let _ = std::fs::remove_dir_all(dir);
    let prop = property! {
        forall xs: Vec<u8>, x: u8;
        implies xs.windows(2).all(|w| w[0] <= w[1]);
        check {
            collect!(xs.len());
            let mut ys = xs.clone();
            ys.insert(ys.partition_point(|&y| y <= x), x);
            ys.windows(2).all(|w| w[0] <= w[1])
        }
    };
    let config = Config::default()
        .ignore_env()
        .regressions(Regressions::Off)
        .seed(7)
        .max_discard_ratio(50)
        .auto_target(false)
        .observe(dir);
    let report = generational(&prop, config);
    println!("{report}");
    let mut lines = Vec::new();
    for entry in std::fs::read_dir(dir).expect("the observations directory") {
        let path = entry.expect("an entry").path();
        if path.to_string_lossy().ends_with("_testcases.jsonl") {
            let text = std::fs::read_to_string(&path).expect("the observations file");
            lines.extend(
                text.lines()
                    .map(|l| serde_json::from_str::<Value>(l).unwrap()),
            );
        }
    }
    let svg = chart(&lines);
    std::fs::write(&out, svg).expect("the chart's file");
    println!("{} test cases charted in {out}", lines.len());
}

/// The tests by the length of `xs`: (passed, discarded) per length.
fn counts(lines: &[Value]) -> BTreeMap<usize, (u64, u64)> {
    let mut by_length = BTreeMap::new();
    for line in lines {
        let Some(xs) = line["arguments"]["xs"].as_array() else {
            continue;
        };
        let count = by_length.entry(xs.len()).or_insert((0, 0));
        match line["status"].as_str() {
            Some("passed") => count.0 += 1,
            Some("gave_up") => count.1 += 1,
            _ => {}
        }
    }
    by_length
}

/// A stacked bar chart, in SVG, of the tests by the length of `xs`, in
/// buckets of equal width.
fn chart(lines: &[Value]) -> String {
    let by_length = counts(lines);
    let longest = by_length.keys().last().copied().unwrap_or(0);
    let width = longest / 25 + 1;
    let buckets = longest / width + 1;
    let mut stacked = vec![(0u64, 0u64); buckets];
    for (&len, &(passed, discarded)) in &by_length {
        stacked[len / width].0 += passed;
        stacked[len / width].1 += discarded;
    }
    let tallest = stacked.iter().map(|(p, d)| p + d).max().unwrap_or(1).max(1);
    // Round ticks: a step of 1, 2 or 5 times a power of ten, about four of
    // them up to the tallest bar.
    let rough = (tallest as f64 / 4.0).max(1.0);
    let power = 10f64.powi(rough.log10().floor() as i32);
    let step = [1.0, 2.0, 5.0, 10.0]
        .map(|m| (m * power) as u64)
        .into_iter()
        .find(|&s| s as f64 >= rough)
        .unwrap_or(1);
    let ceiling = tallest.div_ceil(step) * step;
    let (passed, discarded): (u64, u64) = stacked
        .iter()
        .fold((0, 0), |(p, d), &(bp, bd)| (p + bp, d + bd));
    let (left, top, plot_w, plot_h) = (60.0, 50.0, 640.0, 260.0);
    let bar_w = plot_w / buckets as f64;
    let y = |n: u64| top + plot_h - plot_h * n as f64 / ceiling as f64;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="760" height="380" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(svg, r#"<rect width="760" height="380" fill="white"/>"#);
    let _ = writeln!(
        svg,
        r#"<text x="380" y="24" text-anchor="middle" font-size="15">Length of xs: {passed} passed, {discarded} discarded by the precondition</text>"#
    );
    for n in (0..=ceiling).step_by(step as usize) {
        let at = y(n);
        let _ = writeln!(
            svg,
            r##"<line x1="{left}" y1="{at:.1}" x2="{:.1}" y2="{at:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{n}</text>"##,
            left + plot_w,
            left - 6.0,
            at + 4.0
        );
    }
    for (i, &(p, d)) in stacked.iter().enumerate() {
        let x = left + bar_w * i as f64 + 1.0;
        let w = (bar_w - 2.0).max(1.0);
        let (p_top, d_top) = (y(p), y(p + d));
        let _ = writeln!(
            svg,
            r##"<rect x="{x:.1}" y="{p_top:.1}" width="{w:.1}" height="{:.1}" fill="#2a9d8f"><title>{p} passed</title></rect>"##,
            top + plot_h - p_top
        );
        let _ = writeln!(
            svg,
            r##"<rect x="{x:.1}" y="{d_top:.1}" width="{w:.1}" height="{:.1}" fill="#bbb"><title>{d} discarded</title></rect>"##,
            p_top - d_top
        );
        if i % 5 == 0 {
            let label = match width {
                1 => format!("{}", i * width),
                _ => format!("{}–{}", i * width, i * width + width - 1),
            };
            let _ = writeln!(
                svg,
                r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{label}</text>"#,
                x + w / 2.0,
                top + plot_h + 16.0
            );
        }
    }
    let _ = writeln!(
        svg,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">length of xs</text>"#,
        left + plot_w / 2.0,
        top + plot_h + 36.0
    );
    let _ = writeln!(
        svg,
        r#"<text x="16" y="{:.1}" transform="rotate(-90 16 {:.1})" text-anchor="middle">tests</text>"#,
        top + plot_h / 2.0,
        top + plot_h / 2.0
    );
    let legend_y = top + plot_h + 52.0;
    let _ = writeln!(
        svg,
        r##"<rect x="{left}" y="{:.1}" width="12" height="12" fill="#2a9d8f"/><text x="{:.1}" y="{legend_y:.1}">passed</text>"##,
        legend_y - 10.0,
        left + 18.0
    );
    let _ = writeln!(
        svg,
        r##"<rect x="{:.1}" y="{:.1}" width="12" height="12" fill="#bbb"/><text x="{:.1}" y="{legend_y:.1}">discarded (gave_up)</text>"##,
        left + 90.0,
        legend_y - 10.0,
        left + 108.0
    );
    svg.push_str("</svg>\n");
    svg
}
