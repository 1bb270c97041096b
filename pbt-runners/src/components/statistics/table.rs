//! The statistics as the report prints them: one table per kind, most
//! frequent first, like QuickCheck's
//!
//! ```text
//! statistics of 100 tests:
//!      55  55.0%  short
//!      45  45.0%  long
//! classes:
//!      12  12.0%  empty
//! coverage:
//!     empty: 12.0% (12 of 100 tests), required 10%: met
//! sizes: min 0, quartiles 24 / 49 / 74, max 99; discarded 3 of 103 tests (2.9%)
//! ```

use super::{CoverageOutcome, Row, Statistics};
use std::fmt;

fn rows(f: &mut fmt::Formatter<'_>, rows: &[Row]) -> fmt::Result {
    let width = rows
        .iter()
        .map(|r| r.count.to_string().len())
        .max()
        .unwrap_or(1);
    for r in rows {
        writeln!(
            f,
            "    {:>width$}  {:>5.1}%  {}",
            r.count, r.percent, r.label
        )?;
    }
    Ok(())
}

impl fmt::Display for Statistics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.labels.is_empty() {
            writeln!(f, "statistics of {} tests:", self.tests)?;
            rows(f, &self.labels)?;
        }
        if !self.classes.is_empty() {
            writeln!(f, "classes:")?;
            rows(f, &self.classes)?;
        }
        for table in &self.tables {
            writeln!(f, "table {:?} ({} values):", table.name, table.total)?;
            rows(f, &table.rows)?;
        }
        if !self.coverage.is_empty() {
            writeln!(f, "coverage:")?;
        }
        for c in &self.coverage {
            let verdict = match c.outcome {
                CoverageOutcome::Reached => "reached",
                CoverageOutcome::Below => "NOT reached",
                CoverageOutcome::Met => "met (statistically)",
                CoverageOutcome::Insufficient => "NOT met (statistically)",
                CoverageOutcome::Undecided => "NOT shown before the test cap",
            };
            writeln!(
                f,
                "    {}: {:.1}% ({} of {} tests), required {}%: {verdict}",
                c.label, c.observed, c.covered, c.tests, c.required
            )?;
        }
        match self.sizes {
            Some(s) => write!(
                f,
                "sizes: min {}, quartiles {} / {} / {}, max {}",
                s.min, s.lower_quartile, s.median, s.upper_quartile, s.max
            )?,
            None => write!(f, "sizes: no test counted")?,
        }
        write!(
            f,
            "; discarded {} of {} tests ({:.1}%)",
            self.discards,
            self.tests + self.discards,
            self.discard_rate
        )
    }
}
