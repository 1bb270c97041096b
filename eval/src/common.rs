//! What the workloads share: the key and value types of the tree workloads
//! with their generators in all three libraries, and how each library's
//! runner is configured for a trial.
//!
//! Keys are uniform in `-20..=20` and values uniform booleans in every
//! strategy of every library (ETNA's bespoke RBT generator draws keys from
//! the same range), so that the strategies differ only in how they build
//! trees and terms.

use crate::probe::Probe;
use pbt::shrink::Candidates;
use pbt::Source;
use proptest::strategy::{Map, Strategy as _};
use std::any::Any;
use std::cell::RefCell;
use std::sync::{Arc, LazyLock};

/// The smallest key.
pub const KEY_MIN: i32 = -20;
/// The largest key.
pub const KEY_MAX: i32 = 20;

/// A key of the tree workloads: uniform in `KEY_MIN..=KEY_MAX`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key(pub i32);

/// A value of the tree workloads: a uniform boolean (ETNA's BST uses `Bool`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Val(pub bool);

impl pbt::Arbitrary for Key {
    #[inline]
    fn arbitrary<S: Source + ?Sized>(src: &mut S, _size: usize) -> Self {
        Key(KEY_MIN + src.draw((KEY_MAX - KEY_MIN) as u64) as i32)
    }
}

impl pbt::Arbitrary for Val {
    #[inline]
    fn arbitrary<S: Source + ?Sized>(src: &mut S, _size: usize) -> Self {
        Val(src.draw(1) == 1)
    }
}

/// A key a small step away, within the range.
impl pbt::Mutate for Key {
    fn mutate<S: Source + ?Sized>(&self, src: &mut S, _size: usize) -> Self {
        let step = 1 + src.draw(3) as i32;
        let k = if src.draw(1) == 0 {
            self.0 - step
        } else {
            self.0 + step
        };
        Key(k.clamp(KEY_MIN, KEY_MAX))
    }
}

/// The other value.
impl pbt::Mutate for Val {
    fn mutate<S: Source + ?Sized>(&self, _src: &mut S, _size: usize) -> Self {
        Val(!self.0)
    }
}

/// Keys and values are not shrunk: the benchmark times the first failure.
impl pbt::Shrink for Key {
    fn shrink(&self) -> Candidates<'_, Self> {
        Box::new(std::iter::empty())
    }
}

impl pbt::Shrink for Val {
    fn shrink(&self) -> Candidates<'_, Self> {
        Box::new(std::iter::empty())
    }
}

impl proptest::arbitrary::Arbitrary for Key {
    type Parameters = ();
    type Strategy = Map<std::ops::RangeInclusive<i32>, fn(i32) -> Key>;
    fn arbitrary_with(_: ()) -> Self::Strategy {
        (KEY_MIN..=KEY_MAX).prop_map(Key)
    }
}

impl proptest::arbitrary::Arbitrary for Val {
    type Parameters = ();
    type Strategy = Map<proptest::bool::Any, fn(bool) -> Val>;
    fn arbitrary_with(_: ()) -> Self::Strategy {
        proptest::bool::ANY.prop_map(Val)
    }
}

impl quickcheck::Arbitrary for Key {
    fn arbitrary(g: &mut quickcheck::Gen) -> Self {
        Key(KEY_MIN + qc_below(g, (KEY_MAX - KEY_MIN + 1) as usize) as i32)
    }
}

impl quickcheck::Arbitrary for Val {
    fn arbitrary(g: &mut quickcheck::Gen) -> Self {
        Val(<bool as quickcheck::Arbitrary>::arbitrary(g))
    }
}

/// `0, 1, …, 255`: quickcheck's `Gen` exposes no bounded draw, but
/// `Gen::choose` over a slice is uniform.
const INDICES: [u8; 256] = {
    let mut out = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        out[i] = i as u8;
        i += 1;
    }
    out
};

/// A uniform number in `0..n` (`n` in `1..=256`) from quickcheck's `Gen`.
#[inline]
pub fn qc_below(g: &mut quickcheck::Gen, n: usize) -> usize {
    debug_assert!((1..=256).contains(&n));
    *g.choose(&INDICES[..n]).unwrap_or(&0) as usize
}

/// The configuration of pbt's generational runner for a trial: effectively
/// unbounded tests and discards (the probe ends the trial), no shrinking,
/// no per-test watchdog, no regressions file, the environment ignored, and
/// no automatic targeting of preconditions inside the generational runner
/// (the headline strategies are plain generate-and-discard in every
/// library; the targeted runner strategies target through a graded
/// precondition of their own, see `drivers::pbt`). The size schedule is
/// pbt's default (cycling through `0..=100`).
///
/// The configuration is built once per process and cloned per trial:
/// `Config::default()` calls `std::thread::available_parallelism()` (for the
/// parallel runner's worker count), which reads the cgroup files and costs
/// about 23 µs — more than many whole ETNA trials. A test suite builds its
/// configuration once per property, not once per failure, so this cost is
/// kept out of the time-to-failure.
pub fn pbt_config(seed: u64) -> pbt::runners::Config {
    pbt_base_config().seed(seed).sizes(pbt_sizes())
}

/// The size schedule of every pbt strategy in this process (`etna
/// --pbt-sizes`; pbt's default, `Sizes::Cycle`, unless set).
static PBT_SIZES: std::sync::OnceLock<pbt::runners::Sizes> = std::sync::OnceLock::new();

/// Set the size schedule of every pbt strategy in this process, once,
/// before the first trial (`etna --pbt-sizes`: to measure how a schedule
/// changes the number of tests to a failure). `false` when it was already
/// set.
pub fn set_pbt_sizes(sizes: pbt::runners::Sizes) -> bool {
    PBT_SIZES.set(sizes).is_ok()
}

/// The size schedule of the pbt strategies ([`set_pbt_sizes`]).
pub fn pbt_sizes() -> pbt::runners::Sizes {
    PBT_SIZES
        .get()
        .copied()
        .unwrap_or(pbt::runners::Sizes::Cycle)
}

/// [`pbt_config`] without its seed and schedule, built once.
fn pbt_base_config() -> pbt::runners::Config {
    static BASE: LazyLock<pbt::runners::Config> = LazyLock::new(|| {
        pbt::runners::Config::default()
            .cases(1 << 40)
            .max_discard_ratio(1 << 20)
            .no_timeout()
            .max_shrinks(0)
            .regressions(pbt::runners::Regressions::Off)
            .auto_target(false)
            .ignore_env()
    });
    BASE.clone()
}

/// The configuration of proptest's runner for a trial: effectively
/// unbounded tests and rejections, no shrinking, no failure persistence,
/// the run seeded with `seed` (default ChaCha generator).
pub fn proptest_config(seed: u64) -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases: u32::MAX,
        max_local_rejects: u32::MAX,
        max_global_rejects: u32::MAX,
        max_shrink_iters: 0,
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(seed),
        ..proptest::test_runner::Config::default()
    }
}

/// quickcheck's default generator size, used for its runs; proptest, which
/// has no size, builds its type-based strategies at this size too.
pub const TYPED_SIZE: usize = 100;

/// Run `prop` with quickcheck's runner from `seed` at its default size,
/// with effectively unbounded tests (the probe ends the trial).
pub fn quickcheck_run<A: quickcheck::Testable>(seed: u64, prop: A) -> Result<(), String> {
    let gen = quickcheck::Gen::from_size_and_seed(TYPED_SIZE, seed);
    match quickcheck::QuickCheck::new()
        .rng(gen)
        .tests(u64::MAX)
        .max_tests(u64::MAX)
        .quicktest(prop)
    {
        Ok(n) => Err(format!("quickcheck stopped after {n} tests")),
        Err(_) => Ok(()),
    }
}

thread_local! {
    /// What a quickcheck property (a plain `fn`) needs from the trial: the
    /// mutant, the probe and the check, set by [`with_quickcheck_context`].
    static QUICKCHECK_CONTEXT: RefCell<Option<Box<dyn Any>>> = const { RefCell::new(None) };
}

/// The context a quickcheck property of a trial reads.
pub struct QcContext<M, C> {
    /// The mutant in effect.
    pub mutant: M,
    /// The trial's probe.
    pub probe: Arc<Probe>,
    /// The property's check.
    pub check: C,
}

/// Run `body` with `context` readable by [`quickcheck_context`] on this thread.
pub fn with_quickcheck_context<M: 'static, C: 'static, R>(
    context: QcContext<M, C>,
    body: impl FnOnce() -> R,
) -> R {
    QUICKCHECK_CONTEXT.with(|c| *c.borrow_mut() = Some(Box::new(context)));
    let out = body();
    QUICKCHECK_CONTEXT.with(|c| *c.borrow_mut() = None);
    out
}

/// Call `f` with the context of the trial running on this thread.
#[inline]
pub fn quickcheck_context<M: 'static, C: 'static, R>(f: impl FnOnce(&QcContext<M, C>) -> R) -> R {
    QUICKCHECK_CONTEXT.with(|c| {
        let c = c.borrow();
        let context = c
            .as_ref()
            .and_then(|b| b.downcast_ref::<QcContext<M, C>>())
            .expect("a quickcheck property ran outside its trial");
        f(context)
    })
}

/// A quickcheck verdict: discard when the precondition fails, otherwise
/// the check through the probe.
#[inline]
pub fn qc_verdict(
    probe: &Probe,
    valid: bool,
    holds: impl FnOnce() -> bool,
) -> quickcheck::TestResult {
    if !probe.admit(valid) {
        return quickcheck::TestResult::discard();
    }
    quickcheck::TestResult::from_bool(probe.check(holds))
}

/// A proptest verdict: reject when the precondition fails, otherwise the
/// check through the probe.
#[inline]
pub fn proptest_verdict(
    probe: &Probe,
    valid: bool,
    holds: impl FnOnce() -> bool,
) -> Result<(), proptest::test_runner::TestCaseError> {
    use proptest::test_runner::TestCaseError;
    if !probe.admit(valid) {
        return Err(TestCaseError::reject("precondition"));
    }
    if probe.check(holds) {
        Ok(())
    } else {
        Err(TestCaseError::fail(probe.reason()))
    }
}

/// What a proptest run ended with, when it ended without a failure.
pub fn proptest_outcome<T: std::fmt::Debug>(
    result: Result<(), proptest::test_runner::TestError<T>>,
) -> Result<(), String> {
    match result {
        Err(proptest::test_runner::TestError::Fail(..)) => Ok(()),
        Err(proptest::test_runner::TestError::Abort(why)) => {
            Err(format!("proptest aborted: {why}"))
        }
        Ok(()) => Err("proptest passed every case".into()),
    }
}

/// What a pbt run ended with, when it ended without a failure.
pub fn pbt_outcome(report: pbt::runners::Report) -> Result<(), String> {
    if report.failure.is_some() {
        Ok(())
    } else {
        Err(format!("pbt stopped without a failure: {report}"))
    }
}
