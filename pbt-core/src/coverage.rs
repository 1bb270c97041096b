//! Coverage feedback from SanitizerCoverage's inline 8-bit counters, for
//! the coverage-guided fuzzing runner (`runners::fuzz`).
//!
//! Build the tests instrumented (stable rustc) with the `coverage` feature of
//! `pbt` on, e.g. with this alias in your project's `.cargo/config.toml`
//! (`--target` with your host triple, from `rustc -vV`, keeps the flags off
//! build scripts and proc macros, which must not be instrumented):
//!
//! ```toml
//! [alias]
//! fuzz-test = "test --features pbtest/coverage --target x86_64-unknown-linux-gnu --config build.rustflags=['-Cpasses=sancov-module','-Cllvm-args=-sanitizer-coverage-level=3','-Cllvm-args=-sanitizer-coverage-inline-8bit-counters']"
//! ```
//!
//! then `cargo fuzz-test`.
//!
//! LLVM then gives every instrumented module an array of 8-bit counters, one
//! per edge, and announces it through `__sanitizer_cov_8bit_counters_init`,
//! which this module defines. [`hits`] reads the counters after a test and
//! [`reset`] clears them before the next. Without instrumentation (or without
//! the feature) [`instrumented`] is false and the fuzzing runner says so and
//! relies on `cover(id)` points and plain generation.

/// Whether coverage counters were registered (the binary is instrumented
/// and the `coverage` feature is on).
pub fn instrumented() -> bool {
    imp::instrumented()
}

/// Zero every counter (before a test).
pub fn reset() {
    imp::reset()
}

/// The counters hit since the last [`reset`], as `(index, count)` pairs.
pub fn hits(out: &mut Vec<(u64, u32)>) {
    imp::hits(out)
}

#[cfg(not(feature = "coverage"))]
mod imp {
    pub fn instrumented() -> bool {
        false
    }
    pub fn reset() {}
    pub fn hits(_out: &mut Vec<(u64, u32)>) {}
}

#[cfg(feature = "coverage")]
#[allow(unsafe_code)]
mod imp {
    use std::sync::Mutex;

    /// The counter regions announced by instrumented modules: start address
    /// and length.
    static REGIONS: Mutex<Vec<(usize, usize)>> = Mutex::new(Vec::new());

    /// Called by SanitizerCoverage's module constructors, once per module.
    ///
    /// # Safety
    /// `start..stop` must be a counter array that lives as long as the
    /// program, as LLVM guarantees for the arrays it emits.
    #[no_mangle]
    pub unsafe extern "C" fn __sanitizer_cov_8bit_counters_init(start: *mut u8, stop: *mut u8) {
        let len = (stop as usize).saturating_sub(start as usize);
        if len > 0 {
            if let Ok(mut regions) = REGIONS.lock() {
                regions.push((start as usize, len));
            }
        }
    }

    /// Called when the PC table is enabled too (`-sanitizer-coverage-pc-table`).
    ///
    /// # Safety
    /// Only called by instrumented module constructors; it reads nothing.
    #[no_mangle]
    pub unsafe extern "C" fn __sanitizer_cov_pcs_init(_start: *const usize, _stop: *const usize) {}

    pub fn instrumented() -> bool {
        REGIONS.lock().is_ok_and(|r| !r.is_empty())
    }

    fn each_region(mut f: impl FnMut(u64, &mut [u8])) {
        let Ok(regions) = REGIONS.lock() else { return };
        let mut base = 0u64;
        for &(start, len) in regions.iter() {
            // SAFETY: the region was announced by LLVM's module constructor
            // and lives for the whole program. Instrumented code on other
            // threads may bump counters concurrently; like every
            // SanitizerCoverage client we accept a racy byte as a lost hit.
            let counters = unsafe { std::slice::from_raw_parts_mut(start as *mut u8, len) };
            f(base, counters);
            base += len as u64;
        }
    }

    pub fn reset() {
        each_region(|_, counters| counters.fill(0));
    }

    pub fn hits(out: &mut Vec<(u64, u32)>) {
        each_region(|base, counters| {
            for (i, &c) in counters.iter().enumerate() {
                if c != 0 {
                    out.push((base + i as u64, u32::from(c)));
                }
            }
        });
    }
}
