//! The b-u-g property of `examples/bug.rs` (*Flexible and Automatic
//! Targeted Property-Based Testing* §4): fails on byte strings that start
//! with "bug". Written once, it runs under `cargo test` (every in-process
//! runner, `tests/fuzz_engines.rs`) and under libFuzzer and AFL++
//! (`fuzz/fuzz_targets/bug.rs`).

use pbt::feedback::cover;

/// Whether `s` does not start with "bug"; each branch on the way reports
/// itself with `cover`, for pbt's `fuzz` runner built without
/// SanitizerCoverage (an engine sees the branches through its own
/// instrumentation).
pub fn buggy(s: &[u8]) -> bool {
    if s.first() == Some(&b'b') {
        cover(1);
        if s.get(1) == Some(&b'u') {
            cover(2);
            if s.get(2) == Some(&b'g') {
                return false;
            }
        }
    }
    true
}

/// The property: up to 7 bytes, each from its own draw.
pub fn property() -> impl pbt::Property + Sync {
    pbt::property! {
        forall s: Vec<u8>, #[gen = vec(int(0..=255u8), 0..8)];
        check buggy(&s)
    }
}
