//! The shrinkers' time limit (`Config::max_shrink_time`): a deadline read
//! before every candidate, on the coarse clock first where there is one.

use std::time::{Duration, Instant};

/// The end of the time a shrinker may take, read from the clock before
/// every candidate (so shrinking overruns it by one candidate at most):
/// an instant to compare with, not the time elapsed to subtract.
///
/// On Linux the check first reads the coarse monotonic clock (the kernel's
/// last tick: about a third of the precise clock's cost, which was 7–8 % of
/// shrinking a 100-element list), and reads the precise clock only once
/// the deadline is within two of its ticks.
#[derive(Debug)]
pub(crate) struct Deadline {
    /// `None`: a limit past what the clock counts (never reached).
    at: Option<Instant>,
    /// A coarse-clock reading below which the deadline has surely not
    /// passed (`0`: always read the precise clock).
    coarse_before: u64,
}

impl Deadline {
    pub(crate) fn new(limit: Duration) -> Self {
        let start = coarse::now();
        let at = Instant::now().checked_add(limit);
        // The coarse clock is the precise one's, late by less than one
        // tick: read at or before `at - limit`, it is below `at - 2 ticks`
        // while the precise clock is below `at - 1 tick`.
        let margin = coarse::resolution().saturating_mul(2);
        let coarse_before = match (start, at) {
            (Some(start), Some(_)) => {
                let limit = u64::try_from(limit.as_nanos()).unwrap_or(u64::MAX);
                start.saturating_add(limit.saturating_sub(margin))
            }
            _ => 0,
        };
        Deadline { at, coarse_before }
    }

    /// Whether the deadline has passed.
    pub(crate) fn passed(&self) -> bool {
        if coarse::now().is_some_and(|now| now < self.coarse_before) {
            return false;
        }
        self.at.is_some_and(|at| Instant::now() >= at)
    }
}

/// The coarse monotonic clock, where there is one.
#[allow(unsafe_code)]
mod coarse {
    /// Now, in nanoseconds, on the coarse clock.
    #[cfg(target_os = "linux")]
    pub(super) fn now() -> Option<u64> {
        read(libc::clock_gettime)
    }

    /// The coarse clock's tick, in nanoseconds (a large one when unknown,
    /// so that the precise clock is read early).
    #[cfg(target_os = "linux")]
    pub(super) fn resolution() -> u64 {
        read(libc::clock_getres).unwrap_or(100_000_000)
    }

    #[cfg(target_os = "linux")]
    fn read(
        call: unsafe extern "C" fn(libc::clockid_t, *mut libc::timespec) -> libc::c_int,
    ) -> Option<u64> {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid, writable timespec for the call's
        // duration, and CLOCK_MONOTONIC_COARSE is a clock id every Linux
        // since 2.6.32 knows (an unknown one is an error return, handled).
        let ok = unsafe { call(libc::CLOCK_MONOTONIC_COARSE, &mut ts) } == 0;
        let secs = u64::try_from(ts.tv_sec).ok()?;
        let nanos = u64::try_from(ts.tv_nsec).ok()?;
        ok.then(|| secs.saturating_mul(1_000_000_000).saturating_add(nanos))
    }

    /// Elsewhere: none (the precise clock is read every time).
    #[cfg(not(target_os = "linux"))]
    pub(super) fn now() -> Option<u64> {
        None
    }

    #[cfg(not(target_os = "linux"))]
    pub(super) fn resolution() -> u64 {
        u64::MAX
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deadline_passes_exactly_when_the_precise_clock_reaches_it() {
        // The coarse clock may only say "not yet" while the precise clock
        // agrees: whenever the deadline says it passed, the precise clock
        // (read after it) is at or past its instant; and once its time has
        // been slept away, it has passed.
        for limit in [
            Duration::ZERO,
            Duration::from_millis(3),
            Duration::from_millis(30),
        ] {
            let deadline = Deadline::new(limit);
            let at = deadline.at.expect("a limit the clock can count");
            while !deadline.passed() {
                std::hint::spin_loop();
            }
            assert!(
                Instant::now() >= at,
                "passed before its instant ({limit:?})"
            );
            let later = Deadline::new(limit);
            std::thread::sleep(limit);
            assert!(later.passed(), "not passed after sleeping {limit:?}");
        }
        assert!(
            !Deadline::new(Duration::MAX).passed(),
            "a limit past the clock's range"
        );
    }

    #[test]
    fn the_coarse_clock_is_monotonic_and_a_fresh_deadline_has_not_passed() {
        let mut last = 0;
        for _ in 0..1000 {
            if let Some(now) = coarse::now() {
                assert!(now >= last, "monotonic");
                last = now;
            }
            assert!(!Deadline::new(Duration::from_secs(1)).passed());
        }
    }
}
