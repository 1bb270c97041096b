//! Statistics of the generated tests (`label!`, `collect!`, `classify!`,
//! `tabulate!`), coverage requirements (`require_cover!` with and without
//! `Config::check_coverage`), the size distribution and discard rate, and
//! `note!` output for the final counterexample.

use pbt::prelude::*;
use pbt::runners::components::statistics::{CoverageCheck, CoverageOutcome};
use pbt::runners::{
    fuzz, generational, integrated, parallel, targeted, Regressions, Sizes, Verdict,
};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// No regressions file, no `PBT_*` overrides.
fn quiet() -> Config {
    Config::default().regressions(Regressions::Off).ignore_env()
}

fn row<'a>(
    rows: &'a [pbt::runners::components::statistics::Row],
    label: &str,
) -> &'a pbt::runners::components::statistics::Row {
    rows.iter()
        .find(|r| r.label == label)
        .unwrap_or_else(|| panic!("no row {label:?} in {rows:?}"))
}

#[test]
fn counts_exclude_shrink_runs_and_the_final_replay() {
    static RUNS: AtomicU64 = AtomicU64::new(0);
    let prop = property! {
        forall xs: Vec<u8>;
        check {
            RUNS.fetch_add(1, Relaxed);
            label!("length {}", xs.len().min(3));
            classify!(xs.is_empty(), "empty");
            xs.iter().all(|&x| x < 200)
        }
    };
    let report = generational(&prop, quiet().seed(3).cases(1000));
    assert_eq!(report.verdict, Verdict::Failed, "{report}");
    let stats = &report.statistics;
    // The check ran many more times (shrinking, the final replay) than tests were counted.
    assert!(RUNS.load(Relaxed) > report.tests + 5, "{report}");
    assert!(report.shrinks > 0, "{report}");
    // Every counted test has exactly one label: the table's total is the test count.
    assert_eq!(stats.tests, report.tests);
    assert_eq!(
        stats.labels.iter().map(|r| r.count).sum::<u64>(),
        report.tests
    );
    let total: f64 = stats.labels.iter().map(|r| r.percent).sum();
    assert!((total - 100.0).abs() < 1e-9, "{total}");
    assert!(row(&stats.classes, "empty").count < report.tests);
    // The table is shown with the failure, sorted by count.
    let shown = report.to_string();
    assert!(
        shown.contains(&format!("statistics of {} tests:", report.tests)),
        "{shown}"
    );
    assert!(stats.labels.windows(2).all(|w| w[0].count >= w[1].count));
}

#[test]
fn integrated_shrinking_is_not_counted_either() {
    let prop = property! {
        forall x: u32;
        check { collect!(x % 2); x < 1_000_000 }
    };
    let report = integrated(&prop, quiet().seed(1).cases(10_000));
    assert_eq!(report.verdict, Verdict::Failed, "{report}");
    let counted: u64 = report.statistics.labels.iter().map(|r| r.count).sum();
    assert_eq!(counted, report.tests, "{report}");
}

#[test]
fn discarded_tests_are_not_counted_and_the_discard_rate_is_reported() {
    let prop = property! {
        forall x: u8;
        implies x % 4 == 0;
        check { label!("kept"); true }
    };
    let report = generational(&prop, quiet().seed(5).auto_target(false));
    assert!(report.passed(), "{report}");
    let stats = &report.statistics;
    assert_eq!(row(&stats.labels, "kept").count, 100);
    assert_eq!(stats.tests, 100);
    assert_eq!(stats.discards, report.discards);
    assert!(report.discards > 100, "{report}");
    let rate = 100.0 * report.discards as f64 / (report.discards + 100) as f64;
    assert!((stats.discard_rate - rate).abs() < 1e-9);
}

#[test]
fn labels_of_one_test_form_one_row_and_classes_overlap() {
    let prop = property! {
        forall x: u8;
        check {
            // a value as well as format! arguments
            label!(if x % 2 == 0 { "even" } else { "odd" });
            if x < 128 { label!("low"); }
            classify!(x % 2 == 0, "even");
            classify!(x < 128, "low");
            tabulate!("last digit", x % 10);
            tabulate!("last digit", x % 10); // once per test
            true
        }
    };
    let report = generational(&prop, quiet().seed(11).cases(400));
    let stats = &report.statistics;
    let rows: u64 = stats.labels.iter().map(|r| r.count).sum();
    assert_eq!(rows, 400);
    assert!(
        stats.labels.iter().any(|r| r.label == "even, low"),
        "{report}"
    );
    assert!(stats.labels.iter().any(|r| r.label == "odd"), "{report}");
    let classes = row(&stats.classes, "even").count + row(&stats.classes, "low").count;
    assert!(classes > 400, "classes overlap: {report}");
    let table = &stats.tables[0];
    assert_eq!(table.name, "last digit");
    assert_eq!(table.total, 400);
    assert_eq!(table.rows.len(), 10);
}

#[test]
fn sizes_are_summarised() {
    let prop = property! { forall x: u8; check x == x };
    let fixed = generational(&prop, quiet().sizes(Sizes::Fixed(7)).cases(50));
    let sizes = fixed.statistics.sizes.expect("sizes");
    assert_eq!((sizes.min, sizes.median, sizes.max), (7, 7, 7));
    // The default schedule cycles 0..=100: 101 tests see every size once.
    let cycle = generational(&prop, quiet().cases(101));
    let sizes = cycle.statistics.sizes.expect("sizes");
    assert_eq!(
        (
            sizes.min,
            sizes.lower_quartile,
            sizes.median,
            sizes.upper_quartile,
            sizes.max
        ),
        (0, 25, 50, 75, 100)
    );
    let shown = cycle.statistics.to_string();
    assert!(
        shown.contains("sizes: min 0, quartiles 25 / 50 / 75, max 100"),
        "{shown}"
    );
}

#[test]
fn the_table_is_shown_for_passing_runs_only_when_asked() {
    let prop = property! {
        forall x: u8;
        check { classify!(x < 10, "small"); true }
    };
    let plain = generational(&prop, quiet().seed(2));
    assert!(!plain.to_string().contains("classes:"), "{plain}");
    // The counts are there all the same.
    assert!(plain.statistics.classes[0].count > 0);
    let shown = generational(&prop, quiet().seed(2).show_statistics(true));
    let text = shown.to_string();
    assert!(text.contains("classes:"), "{text}");
    assert!(
        text.contains("% small") || text.contains("%  small"),
        "{text}"
    );
    assert!(text.contains("discarded 0 of 100 tests"), "{text}");
}

#[test]
fn an_unmet_requirement_is_a_warning_without_the_check() {
    let prop = property! {
        forall x: u8, #[gen = int(0..=255u8)];
        check { require_cover!(10, x == 0, "zero"); true }
    };
    let report = generational(&prop, quiet().seed(4));
    assert!(report.passed(), "{report}");
    let zero = &report.statistics.coverage[0];
    assert_eq!(zero.outcome, CoverageOutcome::Below);
    assert_eq!(report.tests, 100);
    let text = report.to_string();
    assert!(text.contains("but 10% are required"), "{text}");
}

#[test]
fn a_share_that_is_not_a_percentage_fails_the_check_saying_so() {
    let prop = property! {
        forall x: u8;
        check { require_cover!(0.5 * 300.0, x > 0, "positive"); true }
    };
    let report = generational(&prop, quiet().seed(1));
    let failure = report.failure.as_ref().expect("fails");
    assert!(
        failure
            .reason
            .contains("a percentage in 0..=100, not 150 (for `positive`)"),
        "{report}"
    );
}

#[test]
fn a_met_requirement_is_shown_met_by_the_check() {
    let prop = property! {
        forall x: u8, #[gen = int(0..=255u8)];
        check { require_cover!(40, x % 2 == 0, "even"); true }
    };
    let report = generational(&prop, quiet().seed(6).check_coverage(true));
    assert!(report.passed(), "{report}");
    let even = &report.statistics.coverage[0];
    assert_eq!(even.outcome, CoverageOutcome::Met, "{report}");
    assert_eq!(even.tests, report.tests);
    assert!(report.tests >= 100);
}

#[test]
fn an_insufficient_requirement_fails_the_property_naming_it() {
    let prop = property! {
        forall x: u8, #[gen = int(0..=255u8)];
        check { require_cover!(10, x == 0, "zero"); require_cover!(20, x > 0, "positive"); true }
    };
    let report = generational(&prop, quiet().seed(8).check_coverage(true));
    assert_eq!(report.verdict, Verdict::InsufficientCoverage, "{report}");
    assert!(!report.passed());
    let zero = &report.statistics.coverage[0];
    assert_eq!(zero.outcome, CoverageOutcome::Insufficient);
    assert_eq!(report.statistics.coverage[1].outcome, CoverageOutcome::Met);
    let text = report.to_string();
    assert!(text.contains("insufficient coverage"), "{text}");
    assert!(
        text.contains(&format!(
            "`zero` held in {:.1}% of tests ({} of {}), but 10% is required",
            zero.observed, zero.covered, zero.tests
        )),
        "{text}"
    );
    assert!(!text.contains("`positive` held"), "{text}");
}

#[test]
fn the_check_keeps_testing_until_a_close_requirement_is_decided() {
    // 12.5% of uniform bytes are multiples of 8; 10% is required: 100 tests cannot tell.
    let prop = property! {
        forall x: u8, #[gen = int(0..=255u8)];
        check { require_cover!(10, x % 8 == 0, "multiple of 8"); true }
    };
    let report = generational(&prop, quiet().seed(10).check_coverage(true));
    assert!(report.passed(), "{report}");
    assert!(report.tests > 1000, "{report}");
    assert_eq!(report.tests % 100, 0, "stopped at a look: {report}");
    assert_eq!(report.statistics.coverage[0].outcome, CoverageOutcome::Met);
    // Without the check the run stops at `cases`.
    let unchecked = generational(&prop, quiet().seed(10));
    assert_eq!(unchecked.tests, 100);
}

#[test]
fn the_check_may_discard_in_proportion_to_the_tests_it_adds() {
    // Half the inputs are discarded; deciding needs thousands of tests, far
    // more discards than `cases * max_discard_ratio` = 1 000.
    let prop = property! {
        forall x: u8, #[gen = int(0..=255u8)];
        implies x % 2 == 0;
        check { require_cover!(10, x % 16 == 0, "multiple of 16"); true }
    };
    let report = generational(
        &prop,
        quiet().seed(14).auto_target(false).check_coverage(true),
    );
    assert!(report.passed(), "{report}");
    assert!(report.discards > 1_000, "{report}");
    assert_eq!(report.statistics.coverage[0].outcome, CoverageOutcome::Met);
    // A precondition that rejects everything still gives up early.
    let never = property! {
        forall x: u8;
        implies x.count_ones() > 8;
        check { require_cover!(10, x == 0, "zero"); true }
    };
    let report = generational(&never, quiet().auto_target(false).check_coverage(true));
    assert_eq!(report.verdict, Verdict::GaveUp, "{report}");
    assert!(report.discards <= 1_001, "{report}");
}

#[test]
fn an_undecided_requirement_fails_at_the_cap() {
    // 10% is required and the true rate is 10.2% (26 of 256): too close to
    // decide within 3 000 tests.
    let prop = property! {
        forall x: u8, #[gen = int(0..=255u8)];
        check { require_cover!(10, x < 26, "below 26"); true }
    };
    let cap = CoverageCheck {
        max_tests: 3_000,
        ..CoverageCheck::default()
    };
    let report = generational(&prop, quiet().seed(12).check_coverage_with(cap));
    assert_eq!(report.verdict, Verdict::InsufficientCoverage, "{report}");
    assert_eq!(report.tests, 3_000);
    assert_eq!(
        report.statistics.coverage[0].outcome,
        CoverageOutcome::Undecided
    );
    assert!(
        report.to_string().contains("at most 3000 tests"),
        "{report}"
    );
}

#[test]
fn the_feedback_guided_and_parallel_runners_count_too() {
    let prop = property! {
        forall x: u16;
        check { classify!(x % 2 == 0, "even"); require_cover!(30, x % 2 == 1, "odd"); true }
    };
    for report in [
        fuzz(&prop, quiet().seed(1).cases(300)),
        targeted(&prop, quiet().seed(1).cases(300)),
        parallel(&prop, quiet().seed(1).cases(300).workers(2)),
        parallel(
            &prop,
            quiet().seed(1).cases(300).workers(2).check_coverage(true),
        ),
    ] {
        assert!(report.passed(), "{report}");
        let stats = &report.statistics;
        assert_eq!(stats.tests, report.tests, "{report}");
        let even = stats
            .classes
            .iter()
            .find(|r| r.label == "even")
            .map_or(0, |r| r.count);
        let odd = row(&stats.classes, "odd").count;
        assert_eq!(even + odd, report.tests, "{report}");
    }
}

#[test]
fn a_failing_parallel_run_counts_at_most_one_failure_per_worker() {
    let prop = property! {
        forall x: u32;
        check { classify!(x % 2 == 0, "even"); x < 1_000_000 }
    };
    let report = parallel(&prop, quiet().seed(1).workers(2).cases(10_000));
    assert_eq!(report.verdict, Verdict::Failed, "{report}");
    let counted = report.statistics.tests;
    assert!(
        report.tests <= counted && counted < report.tests + 2,
        "{counted}: {report}"
    );
}

#[test]
fn note_is_kept_for_the_final_counterexample_only() {
    static RUNS: AtomicU64 = AtomicU64::new(0);
    let prop = property! {
        forall x: u32;
        check {
            RUNS.fetch_add(1, Relaxed);
            note!("x = {x}, x / 2 = {}", x / 2);
            x < 1000
        }
    };
    let report = generational(&prop, quiet().seed(1));
    let failure = report.failure.as_ref().expect("fails");
    assert_eq!(failure.counterexample[0].value, "1000");
    assert!(
        RUNS.load(Relaxed) > 10,
        "shrinking ran the check many times"
    );
    assert_eq!(failure.notes, ["x = 1000, x / 2 = 500"]);
    let text = report.to_string();
    assert_eq!(text.matches("x / 2 =").count(), 1, "{text}");
    assert!(
        text.contains("notes:\n    x = 1000, x / 2 = 500\n"),
        "{text}"
    );
}

#[test]
fn the_report_serialises_the_statistics_and_the_notes() {
    let prop = property! {
        forall xs: Vec<u8>;
        check {
            collect!(xs.len() > 3);
            classify!(xs.is_empty(), "empty");
            tabulate!("first", format!("{:?}", xs.first()));
            require_cover!(1, !xs.is_empty(), "non-empty");
            note!("{} elements", xs.len());
            xs.len() < 10
        }
    };
    let report = generational(&prop, quiet().seed(2));
    let json: serde_json::Value = serde_json::from_str(&report.to_json()).expect("valid JSON");
    let stats = &json["statistics"];
    assert_eq!(stats["tests"], report.tests);
    assert!(stats["labels"][0]["label"].is_string(), "{stats}");
    assert!(stats["labels"][0]["count"].is_u64(), "{stats}");
    assert!(stats["labels"][0]["percent"].is_f64(), "{stats}");
    assert!(
        stats["classes"].as_array().is_some_and(|c| !c.is_empty()),
        "{stats}"
    );
    assert_eq!(stats["tables"][0]["name"], "first");
    assert_eq!(stats["coverage"][0]["label"], "non-empty");
    assert_eq!(stats["coverage"][0]["outcome"], "Reached");
    assert!(stats["sizes"]["median"].is_u64(), "{stats}");
    assert!(stats["discard_rate"].is_f64(), "{stats}");
    assert_eq!(json["failure"]["notes"][0], "10 elements");
}

// `#[property_test]` bodies use the same calls.

fn checking_runner<P: Property + Sync>(prop: &P, config: Config) -> Report {
    let report = generational(prop, config.regressions(Regressions::Off).ignore_env());
    assert_eq!(report.statistics.tests, report.tests);
    let failure = report.failure.as_ref().expect("the property fails");
    assert_eq!(failure.notes.len(), 1, "{report}");
    assert!(report.to_string().contains("classes:"), "{report}");
    report
}

#[property_test(runner = checking_runner, seed = 1)]
#[should_panic(expected = "notes:\n    n = 100 is not below 100\n")]
fn property_test_bodies_label_and_note(n: u8) -> bool {
    classify!(n % 2 == 0, "even");
    note!("n = {n} is not below 100");
    n < 100
}

fn statistics_runner<P: Property + Sync>(prop: &P, config: Config) -> Report {
    let report = generational(
        prop,
        config
            .regressions(Regressions::Off)
            .ignore_env()
            .show_statistics(true),
    );
    assert!(report.to_string().contains("small"), "{report}");
    report
}

#[property_test(runner = statistics_runner)]
fn a_passing_property_test_shows_its_statistics_when_asked(x: u8) {
    classify!(x < 50, "small");
}
