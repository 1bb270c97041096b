//! The watchdog is one thread per process: runs that overlap, with
//! different time limits, each have their slow tests caught.

use pbt::dbas::{Check, Forall, Prop};
use pbt::runners::{generational, Config, Regressions};
use std::time::Duration;

fn config(limit: Duration) -> Config {
    Config::default()
        .ignore_env()
        .regressions(Regressions::Off)
        .cases(3)
        .timeout(limit)
}

/// One watchdog serves every run of the process, however the runs
/// overlap: a run with a short limit that starts while the watchdog
/// sleeps for a run with a long one (in another thread) still has its
/// slow test caught, and so does the next one.
#[test]
fn the_shared_watchdog_catches_slow_tests_of_every_run() {
    let slow = Prop::new(Forall::new(
        "x",
        "u8",
        Check::new(|_: &(u8, ())| {
            std::thread::sleep(Duration::from_millis(100));
            true
        }),
    ));
    let quick = Prop::new(Forall::new("x", "u8", Check::new(|_: &(u8, ())| true)));
    let long = std::thread::spawn(move || {
        let slow_but_allowed = Prop::new(Forall::new(
            "x",
            "u8",
            Check::new(|_: &(u8, ())| {
                std::thread::sleep(Duration::from_millis(100));
                true
            }),
        ));
        // A report holds its typed counterexample on this thread
        // (not `Send`): send the verdict.
        generational(&slow_but_allowed, config(Duration::from_secs(5))).passed()
    });
    std::thread::sleep(Duration::from_millis(20));
    for _ in 0..2 {
        // 100 ms of sleep against a 5 ms limit: caught only if the
        // watchdog, asleep for the other run's 250 ms tick, is woken.
        let report = generational(&slow, config(Duration::from_millis(5)));
        let failure = report.failure.as_ref().expect("the slow test is caught");
        assert!(failure.reason.contains("time limit"), "{}", failure.reason);
        assert!(generational(&quick, config(Duration::from_secs(1))).passed());
    }
    assert!(long.join().expect("no panic"));
}
