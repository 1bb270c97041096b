//! The clock the benchmarks time with: this thread's CPU time.
//!
//! The machine these numbers come from is shared: wall time counts the
//! milliseconds in which other processes held the CPU, CPU time does not
//! (it still counts cache and memory effects of the neighbours). Time a
//! thread blocks (waiting for another thread, say) is not counted either,
//! which is why `benches/startup.rs` reports wall time beside it.

use std::time::Duration;

/// This thread's CPU time so far.
pub fn now() -> Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}
