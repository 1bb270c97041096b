//! Tests per second of the generational runner on a branchy check, to be run
//! twice — plain and instrumented with SanitizerCoverage — by
//! `bash benches/coverage/run.sh`, which prints the overhead. Run alone it
//! reports the build it is in.

use pbt::runners::{generational, Config, Regressions};
use std::time::Instant;

#[inline(never)]
fn buggy(s: &[u8]) -> bool {
    if s.first() == Some(&b'b') && s.get(1) == Some(&b'u') && s.get(2) == Some(&b'g') {
        return false;
    }
    s.iter().filter(|&&b| b.is_ascii_alphabetic()).count() <= s.len()
}

fn main() {
    let prop = pbt::property! {
        forall s: Vec<u8>, #[gen = vec(int(0..=255u8), 0..8)];
        check buggy(&s)
    };
    let n = 1_000_000;
    let mut times: Vec<f64> = (0..7)
        .map(|r| {
            let config = Config::default()
                .cases(n)
                .seed(r)
                .regressions(Regressions::Off)
                .ignore_env();
            let t = Instant::now();
            let report = generational(&prop, config);
            assert!(report.passed(), "{report}");
            t.elapsed().as_secs_f64() * 1e9 / n as f64
        })
        .collect();
    times.sort_by(f64::total_cmp);
    println!(
        "instrumented: {}  generational: {:.1} ns/test (median of 7)",
        pbt::coverage::instrumented(),
        times[3]
    );
}
