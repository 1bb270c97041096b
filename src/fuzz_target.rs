//! `fuzz_target!`: a property as the `main` of a fuzz engine's target
//! binary. Which engine it drives is a cargo feature of `pbt`:
//!
//! - `libfuzzer`: libFuzzer through `libfuzzer-sys` (what cargo-fuzz
//!   builds); the crate needs `#![no_main]`;
//! - `afl`: AFL++ through afl.rs (`cargo afl build`);
//! - neither: a plain `main` that replays the files (or directories of
//!   files) named on its command line, or standard input, and exits with
//!   status 1 after printing the first failure: a reproducer for crash
//!   files that needs no engine.
//!
//! See `FuzzTarget` in `pbt::runners::engine` for what one input goes
//! through, and `docs/fuzzing.md` for the commands.

/// The engines' runtimes, for the expansion of [`fuzz_target!`](crate::fuzz_target).
#[doc(hidden)]
pub mod __engines {
    #[cfg(feature = "afl")]
    pub use afl;
    #[cfg(feature = "libfuzzer")]
    pub use libfuzzer_sys;
}

/// Run a property under a fuzz engine: `pbt::fuzz_target!(property)` or
/// `pbt::fuzz_target!(property, max_size = 50)` at the top level of a
/// target binary.
///
/// The engine's bytes are decoded through
/// [`FuzzTarget`](crate::runners::engine::FuzzTarget): the first draw is the
/// size (`0..=max_size`, 100 by default), then the property's generators
/// draw the rest, in the compact encoding of
/// [`Bytes`](crate::source::Bytes). A failure (the check fails or panics, a
/// generator panics) is a panic the engine records as a crash, printed with
/// the counterexample and the `cx` line that replays it under `cargo test`;
/// a discarded input is not added to libFuzzer's corpus. The property
/// expression is evaluated once per input, so keep it cheap (a
/// `property! { .. }` or a function returning one is).
///
/// With the `libfuzzer` feature (in a `#![no_main]` crate built by
/// `cargo fuzz build`):
///
/// ```ignore
/// #![no_main]
/// pbt::fuzz_target!(pbt::property! {
///     forall s: Vec<u8>, #[gen = vec(int(0..=255u8), 0..8)];
///     check !s.starts_with(b"bug")
/// });
/// ```
///
/// Without an engine feature the macro writes a `main` that replays files:
///
/// ```no_run
/// pbt::fuzz_target!(pbt::property! {
///     forall x: u32;
///     check x < 1_000_000
/// }, max_size = 50);
/// ```
#[cfg(all(feature = "libfuzzer", not(feature = "afl")))]
#[macro_export]
macro_rules! fuzz_target {
    ($prop:expr $(, max_size = $max:expr)? $(,)?) => {
        // What `libfuzzer_sys::fuzz_target!` writes, with every path through
        // pbt (its own expansion names `::libfuzzer_sys`, which a crate that
        // depends on pbt alone does not have).
        const _: () = {
            /// libFuzzer calls this once before fuzzing: libfuzzer-sys's
            /// panic hook makes a panic abort, which libFuzzer records.
            #[unsafe(no_mangle)]
            pub extern "C" fn LLVMFuzzerInitialize(
                argc: *const isize,
                argv: *const *const *const u8,
            ) -> isize {
                $crate::__fuzz_engines::libfuzzer_sys::initialize(argc, argv);
                0
            }

            /// One input: `0` to keep it, `-1` to reject it.
            #[unsafe(no_mangle)]
            pub extern "C" fn rust_fuzzer_test_input(bytes: &[u8]) -> i32 {
                use $crate::__fuzz_engines::libfuzzer_sys::Corpus;
                // `cargo fuzz fmt` asks for the input's debug formatting.
                if let Some(path) = $crate::__fuzz_engines::libfuzzer_sys::rust_libfuzzer_debug_path() {
                    let prop = $prop;
                    let target = $crate::runners::engine::FuzzTarget::new(&prop)$(.max_size($max))?;
                    let text = ::std::format!("{:?}\n", target.import(bytes));
                    ::std::fs::write(path, text).expect("cannot write RUST_LIBFUZZER_DEBUG_PATH");
                    return 0;
                }
                let corpus = match pbt_fuzz_target(bytes) {
                    $crate::runners::engine::Interest::Keep => Corpus::Keep,
                    $crate::runners::engine::Interest::Reject => Corpus::Reject,
                };
                corpus.to_libfuzzer_code()
            }

            /// A frame named after the target, so that crash deduplication
            /// (OSS-Fuzz's) tells targets apart.
            #[inline(never)]
            fn pbt_fuzz_target(bytes: &[u8]) -> $crate::runners::engine::Interest {
                let prop = $prop;
                let target = $crate::runners::engine::FuzzTarget::new(&prop)$(.max_size($max))?;
                target.fuzz_one(bytes)
            }
        };
    };
}

/// Run a property under a fuzz engine (here AFL++, the `afl` feature); see
/// the `libfuzzer` and no-engine forms in `docs/fuzzing.md`.
///
/// ```ignore
/// pbt::fuzz_target!(pbt::property! { forall x: u32; check x < 1_000_000 });
/// ```
#[cfg(all(feature = "afl", not(feature = "libfuzzer")))]
#[macro_export]
macro_rules! fuzz_target {
    ($prop:expr $(, max_size = $max:expr)? $(,)?) => {
        fn main() {
            $crate::__fuzz_engines::afl::fuzz!(|data: &[u8]| {
                let prop = $prop;
                let target = $crate::runners::engine::FuzzTarget::new(&prop)$(.max_size($max))?;
                target.fuzz_one(data);
            });
        }
    };
}

/// Both engine features are on: a target binary drives one engine.
#[cfg(all(feature = "afl", feature = "libfuzzer"))]
#[macro_export]
macro_rules! fuzz_target {
    ($($any:tt)*) => {
        ::core::compile_error!(
            "pbt::fuzz_target!: the `libfuzzer` and `afl` features of pbt are both enabled; \
             a target binary drives one engine, so enable one of them"
        );
    };
}

/// Run a property under a fuzz engine. No engine feature is enabled, so
/// this writes a `main` that replays the files (or directories) named on
/// the command line, or standard input when none is: it prints each
/// input's outcome, and exits with status 1 after the first failure's
/// report. Enable pbt's `libfuzzer` or `afl` feature to drive an engine.
///
/// ```no_run
/// pbt::fuzz_target!(pbt::property! {
///     forall x: u32;
///     check x < 1_000_000
/// }, max_size = 50);
/// ```
#[cfg(not(any(feature = "afl", feature = "libfuzzer")))]
#[macro_export]
macro_rules! fuzz_target {
    ($prop:expr $(, max_size = $max:expr)? $(,)?) => {
        fn main() -> ::std::process::ExitCode {
            let prop = $prop;
            let target = $crate::runners::engine::FuzzTarget::new(&prop)$(.max_size($max))?;
            target.replay_main(::std::env::args_os().skip(1))
        }
    };
}
