//! Utilities (*Programmable Property-Based Testing* Fig. 24; *Flexible and Automatic Targeted Property-Based Testing* §4): whether a test's feedback
//! is worth keeping its input for (`useful`), and how much (`utility`).
//!
//! - [`Maximize`]: targeted PBT — the value the check reports with
//!   `target(x)`, or else the utility of the preconditions (automatic
//!   precondition targeting); useful when it beats the pool's best.
//! - [`NewCoverage`]: coverage-guided fuzzing — useful when the test reached
//!   a point, or a hit-count bucket of a point, never seen before (AFL's
//!   buckets 1, 2, 3, 4–7, 8–15, 16–31, 32–127, 128+).
//! - [`Generalized`]: generalized targeting — a state `S`, the data `X` a
//!   check reports with `observe(x)`, and an update `f : S × X → S`; useful
//!   when the update changed the state (targeted PBT is `f = max`, coverage
//!   is `f = ∪`).

use super::seed_pool::SeedPool;
use std::any::Any;
use std::collections::{HashMap, HashSet};

/// What a feedback-guided runner observed about one test.
#[derive(Debug, Default)]
pub struct Observation {
    /// The largest `target(x)` the check reported.
    pub target: Option<f64>,
    /// The utility of the preconditions on the input (*Flexible and Automatic Targeted Property-Based Testing* §3).
    pub precondition: Option<f64>,
    /// Points the check reported with `cover(id)`, in order.
    pub points: Vec<u64>,
    /// Instrumentation hits: `(counter, count)` of SanitizerCoverage.
    pub hits: Vec<(u64, u32)>,
    /// The data of the last `observe(x)`.
    pub data: Option<Box<dyn Any>>,
    /// What the check reported for the statistics (`label!`, `classify!`,
    /// `tabulate!`, `require_cover!`), when anything.
    pub seen: Option<pbt_core::statistics::Observations>,
}

/// Whether, and how much, feedback is interesting (*Programmable
/// Property-Based Testing*, Fig. 24): what decides which inputs a
/// feedback-guided runner invests in its [`SeedPool`].
///
/// ```
/// use pbt_runners::components::utility::{Observation, Utility};
/// use pbt_runners::components::seed_pool::SeedPool;
/// use pbt_runners::components::seed_pool::{Energy, Pool};
/// use std::collections::HashSet;
///
/// /// Useful: a target value not seen before; more useful: a larger one.
/// struct Distinct(HashSet<u64>);
///
/// impl Utility for Distinct {
///     fn useful(&mut self, _pool: &dyn SeedPool, feedback: &Observation) -> bool {
///         feedback.target.is_some_and(|t| self.0.insert(t.to_bits()))
///     }
///     fn utility(&self, feedback: &Observation) -> f64 {
///         feedback.target.unwrap_or(f64::NEG_INFINITY)
///     }
/// }
///
/// let pool = Pool::FifoQueue(Energy::Fixed(5)).build();
/// let mut distinct = Distinct(HashSet::new());
/// let two = Observation { target: Some(2.0), ..Observation::default() };
/// assert!(distinct.useful(&*pool, &two));
/// assert!(!distinct.useful(&*pool, &two), "seen already");
/// assert_eq!(distinct.utility(&two), 2.0);
/// ```
pub trait Utility {
    /// Whether the input that gave `feedback` should join the pool.
    fn useful(&mut self, pool: &dyn SeedPool, feedback: &Observation) -> bool;
    /// How interesting `feedback` is (a seed's priority).
    fn utility(&self, feedback: &Observation) -> f64;
}

/// Targeted PBT: maximise the reported target, or else the preconditions'
/// utility.
///
/// Useful: an input better than the pool's best, or as good as it when the
/// pool walks plateaus ([`SeedPool::walks`], hill climbing). A precondition's
/// utility counts only until the precondition holds: every input that
/// satisfies it is worth 0. So once hill climbing reaches valid inputs it
/// walks among them, testing new ones, instead of mutating its first valid
/// input for ever; and a utility that keeps growing past 0 (`b - a` for
/// `a <= b`) does not drive the inputs to extremes.
///
/// ```
/// use pbt_runners::components::utility::{Maximize, Observation, Utility};
/// let valid = |u: f64| Observation { precondition: Some(u), ..Observation::default() };
/// assert_eq!(Maximize.utility(&valid(7.0)), 0.0, "satisfied is satisfied");
/// assert_eq!(Maximize.utility(&valid(-3.0)), -3.0, "still climbing");
/// let target = Observation { target: Some(7.0), ..Observation::default() };
/// assert_eq!(Maximize.utility(&target), 7.0, "a target is maximised");
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Maximize;

impl Maximize {
    fn value(feedback: &Observation) -> Option<f64> {
        feedback
            .target
            .or(feedback.precondition.map(|u| u.min(0.0)))
    }
}

impl Utility for Maximize {
    fn useful(&mut self, pool: &dyn SeedPool, feedback: &Observation) -> bool {
        match (Self::value(feedback), pool.best()) {
            (None, _) => false,
            (Some(_), None) => true,
            (Some(v), Some(best)) => v > best.feedback || (v == best.feedback && pool.walks()),
        }
    }

    fn utility(&self, feedback: &Observation) -> f64 {
        Self::value(feedback).unwrap_or(f64::NEG_INFINITY)
    }
}

/// Every input is a candidate (for simulated annealing, which decides itself).
#[derive(Clone, Copy, Debug, Default)]
pub struct Always;

impl Utility for Always {
    fn useful(&mut self, _pool: &dyn SeedPool, feedback: &Observation) -> bool {
        Maximize::value(feedback).is_some()
    }

    fn utility(&self, feedback: &Observation) -> f64 {
        Maximize.utility(feedback)
    }
}

/// AFL's hit-count bucket of a count.
pub fn bucket(count: u32) -> u8 {
    match count {
        0 => 0,
        1 => 1,
        2 => 2,
        3 => 3,
        4..=7 => 4,
        8..=15 => 5,
        16..=31 => 6,
        32..=127 => 7,
        _ => 8,
    }
}

/// Coverage-guided fuzzing: new (point, bucket) pairs are useful.
#[derive(Debug, Default)]
pub struct NewCoverage {
    seen: HashSet<(u64, u8)>,
    last_new: usize,
}

impl NewCoverage {
    /// The (point, bucket) pairs of one test.
    fn pairs(feedback: &Observation) -> Vec<(u64, u8)> {
        // Reported points live in the upper half of the key space, counters
        // in the lower, so the two never collide.
        let mut counts: HashMap<u64, u32> = HashMap::new();
        for &p in &feedback.points {
            *counts
                .entry(pbt_core::source::mix(p) | 1 << 63)
                .or_default() += 1;
        }
        for &(counter, c) in &feedback.hits {
            *counts.entry(counter & !(1 << 63)).or_default() += c;
        }
        counts.into_iter().map(|(p, c)| (p, bucket(c))).collect()
    }

    /// How many distinct (point, bucket) pairs have been seen.
    pub fn covered(&self) -> usize {
        self.seen.len()
    }
}

impl Utility for NewCoverage {
    fn useful(&mut self, _pool: &dyn SeedPool, feedback: &Observation) -> bool {
        let before = self.seen.len();
        self.seen.extend(Self::pairs(feedback));
        self.last_new = self.seen.len() - before;
        self.last_new > 0
    }

    fn utility(&self, _feedback: &Observation) -> f64 {
        self.last_new as f64
    }
}

/// An update function of generalized targeting.
type Update<S, X> = Box<dyn FnMut(&mut S, &X) -> bool>;

/// Generalized targeting (*Flexible and Automatic Targeted Property-Based Testing* §4, Fig. 4): a state, and an update
/// from the data a check reports that says whether the state changed.
pub struct Generalized<S, X> {
    /// The history state `S`.
    pub state: S,
    update: Update<S, X>,
    changes: u64,
}

impl<S, X: 'static> Generalized<S, X> {
    /// Start from `state`; `update(state, data)` returns whether it changed it.
    pub fn new(state: S, update: impl FnMut(&mut S, &X) -> bool + 'static) -> Self {
        Generalized {
            state,
            update: Box::new(update),
            changes: 0,
        }
    }
}

impl<S, X: 'static> Utility for Generalized<S, X> {
    fn useful(&mut self, _pool: &dyn SeedPool, feedback: &Observation) -> bool {
        let Some(data) = feedback.data.as_ref().and_then(|d| d.downcast_ref::<X>()) else {
            return false;
        };
        let changed = (self.update)(&mut self.state, data);
        self.changes += u64::from(changed);
        changed
    }

    fn utility(&self, _feedback: &Observation) -> f64 {
        self.changes as f64
    }
}
