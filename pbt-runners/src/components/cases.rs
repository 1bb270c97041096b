//! The inputs stream: which test cases a run visits. Saved regressions
//! first — every one of them, whatever `cases` is, and without counting
//! toward it ([`super::replay_saved`] and [`super::replay_saved_with`], the
//! one place every runner replays them) — then one fresh case per test
//! ([`Plan::case`]), each with its own seed and size.

use super::found::{case_seed, CaseSeed, Found, MAX_SAVED_SIZE};
use super::observations::ObservationLog;
use super::regressions::{RegressionsFile, Saved};
use crate::config::{Config, Sizes};
use pbt_core::source::{mix, SeedState};
use pbt_core::Structure;
use std::sync::atomic::{AtomicU64, Ordering};

/// The resolved plan of a run: the configuration with the environment
/// applied, the run seed, and the regressions file.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The configuration in force.
    pub config: Config,
    /// The run seed.
    pub seed: u64,
    /// Where failures are saved, if anywhere.
    pub regressions: Option<RegressionsFile>,
    /// The property's name, for messages and the isolated mode's workers.
    pub name: String,
    /// The test the run belongs to, by its path: the key of its cases in
    /// the regressions file (see [`RegressionsFile::load_for`]). The
    /// property's name when the macros know its function
    /// (`#[property_test]`, `#[property]`), else the test's name under
    /// libtest (the thread's), else the property's name (`file:line`).
    pub test: String,
    /// The one input `PBT_REPLAY` names: the run replays it alone (no
    /// saved case, no fresh case).
    pub replay: Option<Found>,
    /// The test's name as libtest filters it (`cargo test -- <filter>
    /// --exact`), when known: what a failure report's replay command runs.
    pub(crate) filter: Option<String>,
    /// Where each test case is written as a JSON line
    /// ([`Config::observe`](crate::Config::observe), `PBT_OBSERVE`): the
    /// run's log, opened by [`Plan::new`]; `None` when the run is not
    /// observed.
    pub observations: Option<ObservationLog>,
}

/// The input `PBT_REPLAY` names, when `config` reads the environment and
/// it is set.
///
/// # Panics
///
/// When it is not a saved case's input (`cc <seed> <size>`, `cx <size>
/// <choices>`, …), naming the value.
fn replayed(config: &Config) -> Option<Found> {
    if !config.read_env {
        return None;
    }
    let raw = crate::config::with_environment(|env| env.replay.clone())?;
    match super::regressions::parse_line(&raw) {
        Some(found) => Some(found),
        None => panic!(
            "pbt: PBT_REPLAY={raw:?} is not a case (expected what a failure report prints after \
             PBT_REPLAY=, such as `cc 0x2a 7` or `cx 7 3,0,1f`)"
        ),
    }
}

/// The observations log of a run of `name` in `dir`.
///
/// # Panics
///
/// When `dir` cannot be created or its file opened, naming it.
fn observe_into(dir: &std::path::Path, name: &str) -> ObservationLog {
    match ObservationLog::open(dir, name) {
        Ok(log) => log,
        // The error names the directory or the file.
        Err(e) => panic!("pbt: cannot write observations (Config::observe or PBT_OBSERVE): {e}"),
    }
}

impl Plan {
    /// Resolve `config` for a property with this structure.
    pub fn new(config: &Config, structure: &Structure) -> Plan {
        let config = config.resolved_for(structure.origin.and_then(|o| o.manifest_dir));
        let regressions = RegressionsFile::locate(&config.regressions, structure.origin.as_ref());
        let name = structure
            .origin
            .map(|o| match o.name {
                // Not `format!`: this is a good part of a short run's start-up.
                Some(n) => [o.module, "::", n].concat(),
                None => {
                    use std::fmt::Write;
                    let mut name = String::with_capacity(o.file.len() + 6);
                    name.push_str(o.file);
                    let _ = write!(name, ":{}", o.line);
                    name
                }
            })
            .unwrap_or_else(|| "property".to_string());
        let named = structure.origin.is_some_and(|o| o.name.is_some());
        let thread = std::thread::current();
        let thread = thread.name().filter(|t| *t != "main");
        let test = match thread {
            Some(thread) if !named => thread.to_string(),
            _ => name.clone(),
        };
        // libtest names a test by its path below the crate's root: the
        // module path without the crate's name.
        let filter = match named {
            true => name.split_once("::").map(|(_, path)| path.to_string()),
            false => thread.map(str::to_string),
        };
        // Derandomized (the `ci` profile), the same test gets the same
        // seed in every run of the same code.
        let seed = match (config.seed, config.derandomize) {
            (Some(seed), _) => seed,
            (None, true) => derandomized_seed(&test),
            (None, false) => fresh_seed(),
        };
        let observations = config.observe.as_ref().map(|dir| observe_into(dir, &name));
        let mut config = config;
        let replay = replayed(&config);
        if replay.is_some() {
            config.cases = 0;
        }
        Plan {
            config,
            seed,
            regressions,
            name,
            test,
            replay,
            filter,
            observations,
        }
    }

    /// The saved inputs to replay before generating, their sizes clamped
    /// to `max(max_size, MAX_SAVED_SIZE)`: this test's own, the newest
    /// first, then the lines of the file without a key
    /// ([`RegressionsFile::load_for`]).
    pub fn saved(&self) -> Vec<Found> {
        self.saved_cases().into_iter().map(|s| s.found).collect()
    }

    /// [`Plan::saved`], each with whether it is the test's own.
    pub fn saved_cases(&self) -> Vec<Saved> {
        if let Some(found) = &self.replay {
            return vec![Saved {
                found: found.clone(),
                own: true,
            }];
        }
        let ceiling = self.config.max_size.max(MAX_SAVED_SIZE);
        self.regressions
            .as_ref()
            .map(|r| r.load_for(&self.test))
            .unwrap_or_default()
            .into_iter()
            .map(|s| Saved {
                found: s.found.clamped(ceiling),
                own: s.own,
            })
            .collect()
    }

    /// The `n`th fresh case (counting from 0).
    pub fn case(&self, n: u64) -> CaseSeed {
        CaseSeed {
            seed: case_seed(self.seed, n),
            size: self.config.size_of(n),
        }
    }

    /// The fresh cases in order: `case(0)`, `case(1)`, … The size of each
    /// is counted along rather than computed from `n` (no division per
    /// test under the cycling schedule), and each case seed is worked out
    /// ahead of its case (see [`Cases`]).
    ///
    /// ```
    /// use pbt_runners::components::Plan;
    /// use pbt_runners::Config;
    /// let plan = Plan::new(&Config::default().seed(3).ignore_env(), &Default::default());
    /// let cases: Vec<_> = plan.cases().take(300).collect();
    /// assert!(cases.iter().enumerate().all(|(n, c)| *c == plan.case(n as u64)));
    /// ```
    pub fn cases(&self) -> Cases<'_> {
        self.cases_from(0)
    }

    /// The fresh cases from the `n`th on: `case(n)`, `case(n + 1)`, … (a
    /// runner that hands out numbers in blocks, such as the parallel
    /// runner's workers, tests each block in one batch).
    ///
    /// ```
    /// use pbt_runners::components::Plan;
    /// use pbt_runners::Config;
    /// let plan = Plan::new(&Config::default().seed(3).ignore_env(), &Default::default());
    /// let cases: Vec<_> = plan.cases_from(250).take(100).collect();
    /// assert!(cases.iter().zip(250..).all(|(c, n)| *c == plan.case(n)));
    /// ```
    pub fn cases_from(&self, n: u64) -> Cases<'_> {
        Cases {
            plan: self,
            n,
            size: self.config.size_of(n),
            seed: case_seed(self.seed, n),
            next_seed: case_seed(self.seed, n.wrapping_add(1)),
            mixed: mix(n.wrapping_add(2)),
            run_seed: self.seed,
            cycle: match self.config.sizes {
                Sizes::Cycle => Some(self.config.max_size),
                _ => None,
            },
        }
    }

    /// Whether a run that has passed `tests` tests and discarded
    /// `discards` is past the give-up threshold: `cases × max_discard_ratio`
    /// discards, or, once past `1000 × max_discard_ratio` of them, more
    /// than `max_discard_ratio` per passed test. The second rule changes
    /// nothing for up to 1000 cases; it is what ends a run of
    /// `cases(u64::MAX)` (`PBT_CASES=18446744073709551615`, "until a
    /// failure") whose precondition never holds, which would otherwise
    /// discard forever.
    ///
    /// ```
    /// use pbt_runners::components::{DynProperty, Plan};
    /// use pbt_core::property::{Check, Forall, Prop};
    /// use pbt_runners::{Config, Regressions};
    /// let prop = Prop::new(Forall::new("x", "u8", Check::new(|_: &(u8, ())| true)));
    /// let config = Config::default().ignore_env().regressions(Regressions::Off);
    /// let plan = Plan::new(&config.clone().cases(100), &DynProperty::structure(&prop));
    /// assert!(!plan.too_many_discards(0, 1000) && plan.too_many_discards(0, 1001));
    /// let forever = Plan::new(&config.cases(u64::MAX), &DynProperty::structure(&prop));
    /// assert!(forever.too_many_discards(0, 10_001));
    /// assert!(!forever.too_many_discards(5_000, 40_000));
    /// ```
    pub fn too_many_discards(&self, tests: u64, discards: u64) -> bool {
        let ratio = self.config.max_discard_ratio;
        let limit = self.config.cases.max(1).saturating_mul(ratio);
        let patience = ratio.saturating_mul(tests.max(1000));
        discards > limit.min(patience)
    }
}

/// The fresh cases of a plan in order ([`Plan::cases`]).
///
/// A case seed is two mixes deep (`mix(seed ^ mix(n))`), and nothing in a
/// test feeds it: the iterator works each one out in stages, one mix per
/// case handed out, ahead of the case, so that a loop over the cases does
/// not wait for a seed when its test starts. The seeds are those of
/// [`Plan::case`], only computed earlier. `Cases::seeded` adds the third
/// stage, the generator's state.
#[derive(Clone, Debug)]
pub struct Cases<'a> {
    plan: &'a Plan,
    n: u64,
    size: usize,
    /// The seed of case `n`.
    seed: u64,
    /// The seed of case `n + 1`.
    next_seed: u64,
    /// `mix(n + 2)`, the first half of case `n + 2`'s seed.
    mixed: u64,
    /// The plan's run seed and, under the cycling size schedule, its
    /// largest size (kept here, where the loop reads them).
    run_seed: u64,
    cycle: Option<usize>,
}

impl<'a> Cases<'a> {
    /// The number of the next case: how many were handed out so far, from
    /// [`Plan::cases`] (from [`Plan::cases_from`]`(n)`, `n` more).
    pub fn taken(&self) -> u64 {
        self.n
    }

    /// These cases, each handed out with the state its generator starts
    /// from, worked out one case ahead ([`SeededCases`]).
    #[inline]
    pub(crate) fn seeded(self) -> SeededCases<'a> {
        SeededCases {
            state: SeedState::new(self.seed),
            cases: self,
        }
    }
}

impl Iterator for Cases<'_> {
    type Item = CaseSeed;

    /// The next case (fresh cases never run out).
    #[inline]
    fn next(&mut self) -> Option<CaseSeed> {
        Some(self.advance())
    }
}

impl Cases<'_> {
    /// The next case.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn advance(&mut self) -> CaseSeed {
        let n = self.n;
        let case = CaseSeed {
            seed: self.seed,
            size: self.size,
        };
        // The stages move on by one case, each one mix deep, and none
        // waits on another's result from this call.
        self.seed = self.next_seed;
        self.next_seed = mix(self.run_seed ^ self.mixed);
        self.mixed = mix(n.wrapping_add(3));
        self.n = n.wrapping_add(1);
        self.size = match self.cycle {
            // The next size of the cycle `0..=max` without `n % period`.
            Some(max) => match self.size.wrapping_add(1) {
                next if next > max => 0,
                next => next,
            },
            None => self.plan.config.size_of(self.n),
        };
        case
    }
}

/// The fresh cases of a plan, each with the state its generator starts
/// from ([`Cases::seeded`]): the state of the next case is worked out when
/// a case is handed out, so a loop that tests a case meanwhile does not
/// wait for the next one's seeding (four multiplication chains) when it
/// starts it. The state is the one `Rng::from_seed(case.seed)` starts from.
#[derive(Clone, Debug)]
pub(crate) struct SeededCases<'a> {
    cases: Cases<'a>,
    /// The state of the generator of the next case handed out.
    state: SeedState,
}

impl<'a> SeededCases<'a> {
    /// The next case, with the state its generator starts from.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(crate) fn next_case(&mut self) -> (CaseSeed, SeedState) {
        let state = self.state;
        let case = self.cases.advance();
        self.state = SeedState::new(self.cases.seed);
        (case, state)
    }

    /// The cases not handed out yet (the state worked out ahead is
    /// dropped; it is worked out again when they are seeded again).
    #[inline]
    pub(crate) fn into_cases(self) -> Cases<'a> {
        self.cases
    }
}

impl Cases<'_> {
    /// What works out any case from its index alone ([`super::found::case_at`]): the run
    /// seed, the index of the next case, and the size schedule as a word
    /// and `max_size`.
    #[inline]
    pub(crate) fn schedule(&self) -> (u64, u64, u64, usize) {
        let config = &self.plan.config;
        let sizes = match config.sizes {
            Sizes::Cycle => 0,
            Sizes::Log2 => 1,
            // Sizes are clamped to `max_size` anyway.
            Sizes::Fixed(s) => (s.min(config.max_size) as u64).saturating_add(2),
        };
        (self.run_seed, self.n, sizes, config.max_size)
    }
}

/// The run seed of the test at `path` when derandomized: FNV-1a of the
/// path, mixed, so the same test gets the same seed on every machine and
/// every version of Rust (unlike `std`'s hasher, which promises neither).
fn derandomized_seed(path: &str) -> u64 {
    let fnv = path.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    mix(fnv)
}

/// A seed nobody chose: time, process and a counter, mixed.
fn fresh_seed() -> u64 {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    // The process id, mixed once: asking for it is a system call, a good
    // part of a short run's start-up.
    static PROCESS: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    let process = *PROCESS.get_or_init(|| mix(u64::from(std::process::id())));
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    mix(nanos ^ process ^ mix(n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use pbt_core::{Rng, Source};

    #[test]
    fn a_derandomized_seed_is_fixed_by_the_path_alone() {
        // Pinned: a CI run and a run after an upgrade of Rust or pbt test
        // the same inputs (FNV-1a and `mix` are pbt's own).
        assert_eq!(derandomized_seed("tests::sorts"), 0xfa5b_161d_a0d2_0f8c);
        assert_eq!(
            derandomized_seed("tests::sorts"),
            derandomized_seed("tests::sorts")
        );
        assert_ne!(
            derandomized_seed("tests::sorts"),
            derandomized_seed("tests::sort")
        );
        let config = Config::default().ignore_env().derandomize(true);
        let (a, b) = (
            Plan::new(&config, &Default::default()),
            Plan::new(&config, &Default::default()),
        );
        assert_eq!(a.seed, b.seed);
        assert_eq!(a.seed, derandomized_seed(&a.test));
    }

    #[test]
    fn seeded_cases_are_the_plans_with_their_generators_states() {
        for seed in [0, 3, u64::MAX] {
            let plan = Plan::new(
                &Config::default().seed(seed).ignore_env(),
                &Default::default(),
            );
            let mut cases = plan.cases().seeded();
            for n in 0..300 {
                let (case, state) = cases.next_case();
                assert_eq!(case, plan.case(n));
                let mut rng = Rng::from_seed(0).limited(1000, 1 << 20);
                rng.draw(7);
                rng.restart(state);
                let mut fresh = Rng::from_seed(case.seed);
                for _ in 0..8 {
                    assert_eq!(rng.draw(u64::MAX), fresh.draw(u64::MAX));
                }
            }
            // Handing them back and seeding again goes on where they were.
            let mut cases = cases.into_cases();
            assert_eq!(cases.taken(), 300);
            assert_eq!(cases.next(), Some(plan.case(300)));
            let (case, _) = cases.seeded().next_case();
            assert_eq!(case, plan.case(301));
        }
    }
}
