//! The b-u-g property as a fuzz target: `cargo fuzz run bug` (libFuzzer),
//! `cargo afl build --no-default-features --features afl` (AFL++), or built
//! with `--no-default-features`, a binary that replays crash files.
#![cfg_attr(feature = "libfuzzer", no_main)]

#[path = "../properties/bug.rs"]
mod bug;

pbt::fuzz_target!(bug::property());
