//! A runner written outside pbt, over its public components alone: unlike
//! the built-in runners it keeps testing after the first failure, counts
//! how many inputs fail, and sends the smallest of them (by printed length)
//! down the shared failure path — saved, shrunk and reported exactly as by
//! `generational`. Nothing here is private to pbt.
//!
//! (A built-in runner takes the failure path the moment it finds a failing
//! input, which saves it at once; this one saves the input it chose at the
//! end of the run.)

use pbt::runners::components::{
    report_failure, supervise, CaseSeed, Discovery, DynProperty, Found, Plan, Tested, Watch,
};
use pbt::runners::{Config, Report};
use pbt::Property;
use std::ops::ControlFlow;
use std::time::Instant;

/// Run `config.cases` tests of `prop` without stopping at a failure, then
/// report the smallest failing input through the shared failure path.
pub fn count_then_shrink<P: Property>(prop: &P, config: Config) -> Report {
    let started = Instant::now();
    let plan = Plan::new(&config, &Property::structure(prop));
    supervise(prop, &plan, |watch| {
        // The saved cases first, as every runner does.
        let mut report = match pbt::runners::components::replay_saved(
            prop,
            &plan,
            watch,
            Report::empty("hand", &plan),
        ) {
            ControlFlow::Continue(report) => report,
            ControlFlow::Break(failed) => return failed,
        };
        let mut failing = Vec::new();
        for n in 0..plan.config.cases {
            let case = plan.case(n);
            watch.at_case(&case);
            match DynProperty::test(prop, &case, watch) {
                Tested::Passed => report.tests += 1,
                Tested::Discarded(_) => report.discards += 1,
                Tested::Failed(fault) => failing.push((case, fault)),
            }
        }
        report.notes.push(format!(
            "hand runner: {} of {} inputs failed; the shortest printed one was shrunk",
            failing.len(),
            plan.config.cases
        ));
        // Every failing test whose check ran is a test: counted here but for
        // the one reported, which `report_failure` counts.
        report.tests += failing.iter().filter(|(_, fault)| fault.counts()).count() as u64;
        let smallest = failing
            .into_iter()
            .min_by_key(|(case, _)| printed_length(prop, *case, watch));
        match smallest {
            Some((case, fault)) => {
                report.tests -= u64::from(fault.counts());
                let discovery = Discovery::fresh(Found::Case(case), fault);
                report_failure(prop, &plan, watch, discovery, report)
            }
            None => report,
        }
    })
    .finish(started)
}

/// How long `case`'s inputs are when printed (0 if they do not generate).
fn printed_length(prop: &dyn DynProperty, case: CaseSeed, watch: &Watch) -> usize {
    match prop.generate_traced(&Found::Case(case), watch).ok() {
        Some(traced) => prop
            .print_any(&*traced.inputs)
            .iter()
            .map(|b| b.value.len())
            .sum(),
        None => 0,
    }
}
