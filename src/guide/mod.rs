//! # The pbt guide
//!
//! From a first property to a runner of your own, in chapters; then tables
//! for readers coming from proptest, quickcheck and Hypothesis, and the
//! research behind pbt. Read the first five in order; the rest as you need
//! them. Every example compiles and runs as written.
//!
//! 1. [Your first property](ch01_first_property)
//! 2. [The generator DSL and runtime generators](ch02_generators)
//! 3. [Deriving generators, shrinkers and mutators](ch03_deriving)
//! 4. [Preconditions and discards](ch04_preconditions)
//! 5. [When a property fails](ch05_failures)
//! 6. [Choosing a runner](ch06_runners)
//! 7. [Statistics and coverage requirements](ch07_statistics)
//! 8. [Stateful testing](ch08_stateful)
//! 9. [Fuzzing with coverage](ch09_fuzzing)
//! 10. [Targeted search and automatic precondition targeting](ch10_targeted)
//! 11. [Writing your own runner](ch11_own_runner)
//! 12. [Testing async code](ch12_async)
//! 13. [Configuration](ch13_configuration)
//! 14. [Coming from proptest](ch14_from_proptest)
//! 15. [Coming from quickcheck](ch15_from_quickcheck)
//! 16. [Coming from Hypothesis](ch16_from_hypothesis)
//! 17. [References](ch17_references)

// Each chapter is a page of `docs/guide/` in the repository, included with
// `#[doc = include_str!(…)]`, rather than an mdBook or `//!` chapters
// (clap's `_tutorial`): one Markdown text reads as a page on a code host
// and as rustdoc on docs.rs, needs no extra tool, and every Rust example in
// it is a doctest, so the guide cannot drift from the library. What a
// doctest cannot run is checked by `tests/guide.rs`: the `#[property_test]`
// functions (compiled away outside the test harness), run verbatim and
// compared with the text, and the configuration chapter, which must name
// every option, `Config` field and `PBT_*` variable the code reads.
// The modules hold no items; they are the pages.

#[doc = include_str!("../../docs/guide/01-first-property.md")]
pub mod ch01_first_property {}

#[doc = include_str!("../../docs/guide/02-generators.md")]
pub mod ch02_generators {}

#[doc = include_str!("../../docs/guide/03-deriving.md")]
pub mod ch03_deriving {}

#[doc = include_str!("../../docs/guide/04-preconditions.md")]
pub mod ch04_preconditions {}

#[doc = include_str!("../../docs/guide/05-failures.md")]
pub mod ch05_failures {}

#[doc = include_str!("../../docs/guide/06-runners.md")]
pub mod ch06_runners {}

#[doc = include_str!("../../docs/guide/07-statistics.md")]
pub mod ch07_statistics {}

#[doc = include_str!("../../docs/guide/08-stateful.md")]
pub mod ch08_stateful {}

#[doc = include_str!("../../docs/guide/09-fuzzing.md")]
pub mod ch09_fuzzing {}

#[doc = include_str!("../../docs/guide/10-targeted.md")]
pub mod ch10_targeted {}

#[doc = include_str!("../../docs/guide/11-own-runner.md")]
pub mod ch11_own_runner {}

#[doc = include_str!("../../docs/guide/12-async.md")]
pub mod ch12_async {}

#[doc = include_str!("../../docs/guide/13-configuration.md")]
pub mod ch13_configuration {}

#[doc = include_str!("../../docs/guide/14-from-proptest.md")]
pub mod ch14_from_proptest {}

#[doc = include_str!("../../docs/guide/15-from-quickcheck.md")]
pub mod ch15_from_quickcheck {}

#[doc = include_str!("../../docs/guide/16-from-hypothesis.md")]
pub mod ch16_from_hypothesis {}

#[doc = include_str!("../../docs/guide/17-references.md")]
pub mod ch17_references {}
