//! Seed pools (*Programmable Property-Based Testing* §6.3.1, Fig. 24): where a feedback-guided runner
//! keeps the inputs worth mutating, which one to mutate next (search
//! strategy), and for how long (power schedule, as energy).
//!
//! `sample` directs the next test: generate from scratch, or mutate a seed.
//! `invest` adds an input whose feedback was useful; `revise` spends energy
//! after a mutant that was not. The six pools of the paper are here, plus
//! hill climbing with random restarts and simulated annealing for the
//! targeted runner.

use super::erased::AnyInputs;
use super::found::Found;
use std::collections::VecDeque;

/// An input kept in a pool, with how it was generated and how interesting it was.
#[derive(Debug)]
pub struct Seed {
    /// The input.
    pub inputs: AnyInputs,
    /// How to generate it again (and how it is saved if a mutant fails).
    pub found: Found,
    /// The choices that generate it, and their bounds (for mutation); empty
    /// for an input mutated by value, which no choice sequence generates.
    pub choices: Vec<u64>,
    /// The bound of each choice.
    pub bounds: Vec<u64>,
    /// The size it was generated at.
    pub size: usize,
    /// How interesting it was (the utility of its feedback).
    pub feedback: f64,
    /// Mutations left before the pool moves on.
    pub energy: u64,
}

/// What the pool wants done next.
#[derive(Debug)]
pub enum Directive<'a> {
    /// Generate an input from scratch.
    Generate,
    /// Mutate this seed.
    Mutate(&'a Seed),
}

/// The power schedule: how much energy a new seed gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Energy {
    /// Every seed gets this much (*Programmable Property-Based Testing* §6.3.1 tries 1, 10, 100, 1000).
    Fixed(u64),
    /// Seeds start with this much, doubled each time mutating them finds a
    /// useful input (*Flexible and Automatic Targeted Property-Based Testing* §6.2 uses 5 000).
    Doubling(u64),
}

impl Energy {
    /// The energy of a new seed.
    pub fn initial(self) -> u64 {
        match self {
            Energy::Fixed(e) | Energy::Doubling(e) => e.max(1),
        }
    }

    /// The energy of a seed whose mutant was useful.
    pub fn reward(self, energy: u64) -> u64 {
        match self {
            Energy::Fixed(_) => energy,
            Energy::Doubling(_) => energy.saturating_mul(2),
        }
    }
}

/// A seed pool (*Programmable Property-Based Testing*, Fig. 24): the inputs
/// a feedback-guided runner keeps and mutates. [`Pool`] builds the six of
/// the paper; a pool of your own plugs into the same loop.
///
/// ```
/// use pbt_core::property::{Check, Forall, Prop};
/// use pbt_runners::components::feedback_loop::{feedback_loop, no_probe};
/// use pbt_runners::components::seed_pool::{Directive, Seed, SeedPool};
/// use pbt_runners::components::{supervise, utility::Maximize, DynProperty, Plan};
/// use pbt_runners::{Config, Regressions, Report};
///
/// /// Keeps the last useful input and mutates it three times.
/// #[derive(Default)]
/// struct Last { seed: Option<Seed>, energy: u32 }
///
/// impl SeedPool for Last {
///     fn invest(&mut self, seed: Seed) { (self.seed, self.energy) = (Some(seed), 3); }
///     fn revise(&mut self) { self.energy = self.energy.saturating_sub(1); }
///     fn sample(&mut self) -> Directive<'_> {
///         match &self.seed {
///             Some(seed) if self.energy > 0 => Directive::Mutate(seed),
///             _ => Directive::Generate,
///         }
///     }
///     fn best(&self) -> Option<&Seed> { self.seed.as_ref() }
/// }
///
/// // Climb towards large x (the check reports x as its target).
/// let prop = Prop::new(Forall::new("x", "u16", Check::new(|&(x, ()): &(u16, ())| {
///     pbt_core::feedback::target(f64::from(x));
///     x < 60_000
/// })));
/// let config = Config::default().ignore_env().seed(3).cases(10_000).regressions(Regressions::Off);
/// let plan = Plan::new(&config, &DynProperty::structure(&prop));
/// let report = supervise(&prop, &plan, |watch| {
///     let mut pool = Last::default();
///     feedback_loop(&prop, &plan, watch, &mut pool, &mut Maximize, &mut no_probe, Report::empty("mine", &plan))
/// });
/// assert!(report.failure.is_some(), "{report}");
/// ```
pub trait SeedPool {
    /// Add a useful input.
    fn invest(&mut self, seed: Seed);
    /// Spend energy after a mutant that was not useful.
    fn revise(&mut self);
    /// What to do next.
    fn sample(&mut self) -> Directive<'_>;
    /// The most interesting seed, if any.
    fn best(&self) -> Option<&Seed>;
    /// Whether an input exactly as interesting as the best replaces it, so
    /// that the search walks across a plateau (hill climbing with sideways
    /// moves) instead of staying on its first input there. `false` unless a
    /// pool says otherwise: a pool that keeps every useful input would grow
    /// on a plateau.
    fn walks(&self) -> bool {
        false
    }
}

/// The targeted runner's default patience ([`Pool::HillClimbing`]):
/// mutants in a row without a better input before the climb restarts.
pub const RESTART: u64 = 1_000;

/// The pools a [`crate::Config`] can name.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pool {
    /// A FIFO queue of seeds (FuzzChick's default).
    FifoQueue(Energy),
    /// A FILO queue (a stack) of seeds.
    FiloQueue(Energy),
    /// A priority queue: the most interesting seed first.
    Heap(Energy),
    /// One seed, replaced by better ones (or equal ones: it walks plateaus),
    /// never exhausted: hill climbing.
    StaticSingleton,
    /// Hill climbing with random restarts (the targeted runner's default):
    /// a static singleton that, after `restart` mutants in a row without a
    /// strictly better input, drops its seed and climbs again from the next
    /// fresh input. The restarts start from across the size schedule, and
    /// they leave a local optimum or a plateau whose inputs are all alike
    /// (say, tiny valid inputs once a precondition holds).
    HillClimbing {
        /// Mutants without a strict improvement before the climb restarts
        /// (at least 1).
        restart: u64,
    },
    /// One seed with energy; when spent, generate until a better one appears.
    DynamicMonotonicSingleton(Energy),
    /// One seed with energy; when spent, it is dropped for the next useful input.
    DynamicResettingSingleton(Energy),
    /// One seed; a worse input replaces it with probability `exp(Δ / T)`,
    /// the temperature `T` cooling by `cooling` per test.
    SimulatedAnnealing {
        /// The starting temperature.
        temperature: f64,
        /// The factor the temperature is multiplied by after each test.
        cooling: f64,
    },
}

impl Pool {
    /// A fresh pool of this kind.
    pub fn build(self) -> Box<dyn SeedPool> {
        match self {
            Pool::FifoQueue(e) => Box::new(Queue::new(e, End::Front)),
            Pool::FiloQueue(e) => Box::new(Queue::new(e, End::Back)),
            Pool::Heap(e) => Box::new(Heap {
                seeds: Vec::new(),
                energy: e,
                mutated: false,
            }),
            Pool::StaticSingleton => Box::new(Singleton::new(None, false)),
            Pool::HillClimbing { restart } => Box::new(Singleton {
                restart: Some(restart.max(1)),
                ..Singleton::new(None, false)
            }),
            Pool::DynamicMonotonicSingleton(e) => Box::new(Singleton::new(Some(e), false)),
            Pool::DynamicResettingSingleton(e) => Box::new(Singleton::new(Some(e), true)),
            Pool::SimulatedAnnealing {
                temperature,
                cooling,
            } => Box::new(Annealing {
                seed: None,
                temperature,
                cooling,
                coin: 0x2545_F491_4F6C_DD1D,
            }),
        }
    }
}

/// A well-mixed number from a counter (the pools' own choices).
fn spread(n: u64) -> u64 {
    pbt_core::source::mix(n)
}

/// Which end of a queue is sampled.
#[derive(Clone, Copy, Debug)]
enum End {
    Front,
    Back,
}

/// FIFO and FILO queues: sample one end; retire a seed when its energy is
/// spent. With the queue empty, alternate between generating and mutating a
/// random retired seed (*Flexible and Automatic Targeted Property-Based Testing* §6.2).
struct Queue {
    seeds: VecDeque<Seed>,
    retired: Vec<Seed>,
    energy: Energy,
    end: End,
    mutated: bool,
    turn: u64,
}

impl Queue {
    fn new(energy: Energy, end: End) -> Self {
        Queue {
            seeds: VecDeque::new(),
            retired: Vec::new(),
            energy,
            end,
            mutated: false,
            turn: 0,
        }
    }

    fn current(&mut self) -> Option<&mut Seed> {
        match self.end {
            End::Front => self.seeds.front_mut(),
            End::Back => self.seeds.back_mut(),
        }
    }
}

impl SeedPool for Queue {
    fn invest(&mut self, mut seed: Seed) {
        let energy = self.energy;
        if self.mutated {
            if let Some(parent) = self.current() {
                parent.energy = energy.reward(parent.energy);
            }
        }
        seed.energy = energy.initial();
        // A FILO pool keeps mutating its current seed; new seeds wait behind it.
        match self.end {
            End::Front => self.seeds.push_back(seed),
            End::Back => {
                let top = self.seeds.pop_back();
                self.seeds.push_back(seed);
                self.seeds.extend(top);
            }
        }
    }

    fn revise(&mut self) {
        let end = self.end;
        if let Some(seed) = self.current() {
            seed.energy = seed.energy.saturating_sub(1);
            if seed.energy == 0 {
                let spent = match end {
                    End::Front => self.seeds.pop_front(),
                    End::Back => self.seeds.pop_back(),
                };
                self.retired.extend(spent);
            }
        }
    }

    fn sample(&mut self) -> Directive<'_> {
        self.mutated = !self.seeds.is_empty();
        if self.seeds.is_empty() {
            self.turn = self.turn.wrapping_add(1);
            if self.retired.is_empty() || self.turn.is_multiple_of(2) {
                return Directive::Generate;
            }
            let i = (spread(self.turn) % self.retired.len() as u64) as usize;
            return Directive::Mutate(&self.retired[i]);
        }
        match self.end {
            End::Front => self
                .seeds
                .front()
                .map_or(Directive::Generate, Directive::Mutate),
            End::Back => self
                .seeds
                .back()
                .map_or(Directive::Generate, Directive::Mutate),
        }
    }

    fn best(&self) -> Option<&Seed> {
        self.seeds
            .iter()
            .chain(&self.retired)
            .max_by(|a, b| a.feedback.total_cmp(&b.feedback))
    }
}

/// A priority queue by feedback.
struct Heap {
    seeds: Vec<Seed>,
    energy: Energy,
    mutated: bool,
}

impl Heap {
    fn top(&self) -> Option<usize> {
        (0..self.seeds.len())
            .max_by(|&a, &b| self.seeds[a].feedback.total_cmp(&self.seeds[b].feedback))
    }
}

impl SeedPool for Heap {
    fn invest(&mut self, mut seed: Seed) {
        if self.mutated {
            if let Some(i) = self.top() {
                self.seeds[i].energy = self.energy.reward(self.seeds[i].energy);
            }
        }
        seed.energy = self.energy.initial();
        self.seeds.push(seed);
    }

    fn revise(&mut self) {
        if let Some(i) = self.top() {
            self.seeds[i].energy = self.seeds[i].energy.saturating_sub(1);
            if self.seeds[i].energy == 0 {
                self.seeds.swap_remove(i);
            }
        }
    }

    fn sample(&mut self) -> Directive<'_> {
        self.mutated = !self.seeds.is_empty();
        match self.top() {
            Some(i) => Directive::Mutate(&self.seeds[i]),
            None => Directive::Generate,
        }
    }

    fn best(&self) -> Option<&Seed> {
        self.top().map(|i| &self.seeds[i])
    }
}

/// The singleton pools: static (no energy; with restarts, hill climbing
/// with random restarts), dynamic monotonic, and dynamic resetting.
struct Singleton {
    seed: Option<Seed>,
    energy: Option<Energy>,
    resetting: bool,
    mutated: bool,
    /// Restart after this many mutants without a strict improvement.
    restart: Option<u64>,
    /// Mutants sampled since the last strict improvement (or restart).
    stale: u64,
}

impl Singleton {
    fn new(energy: Option<Energy>, resetting: bool) -> Self {
        Singleton {
            seed: None,
            energy,
            resetting,
            mutated: false,
            restart: None,
            stale: 0,
        }
    }

    fn spent(&self) -> bool {
        self.energy.is_some() && self.seed.as_ref().is_some_and(|s| s.energy == 0)
    }
}

impl SeedPool for Singleton {
    fn invest(&mut self, mut seed: Seed) {
        let better = match &self.seed {
            None => true,
            Some(current) => {
                seed.feedback > current.feedback
                    || (self.walks() && seed.feedback == current.feedback)
                    || (self.resetting && current.energy == 0)
            }
        };
        let improves = self
            .seed
            .as_ref()
            .is_none_or(|current| seed.feedback > current.feedback);
        if improves {
            self.stale = 0;
        }
        if better {
            seed.energy = self.energy.map_or(u64::MAX, Energy::initial);
            if self.mutated {
                if let (Some(e), Some(parent)) = (self.energy, &self.seed) {
                    seed.energy = seed.energy.max(e.reward(parent.energy));
                }
            }
            self.seed = Some(seed);
        }
    }

    fn revise(&mut self) {
        if let (Some(_), Some(seed)) = (self.energy, &mut self.seed) {
            seed.energy = seed.energy.saturating_sub(1);
            if seed.energy == 0 && self.resetting {
                self.seed = None;
            }
        }
    }

    fn sample(&mut self) -> Directive<'_> {
        if self.seed.is_some() && self.restart.is_some_and(|r| self.stale >= r) {
            // Stuck: climb again from the next fresh input.
            (self.seed, self.stale) = (None, 0);
        }
        let generate = self.seed.is_none() || self.spent();
        self.stale += u64::from(!generate);
        self.mutated = !generate;
        match (&self.seed, generate) {
            (Some(seed), false) => Directive::Mutate(seed),
            _ => Directive::Generate,
        }
    }

    fn best(&self) -> Option<&Seed> {
        self.seed.as_ref()
    }

    /// The static singleton (hill climbing) walks plateaus; the dynamic ones
    /// spend their seed's energy and generate afresh instead.
    fn walks(&self) -> bool {
        self.energy.is_none()
    }
}

/// Simulated annealing over one seed.
struct Annealing {
    seed: Option<Seed>,
    temperature: f64,
    cooling: f64,
    coin: u64,
}

impl Annealing {
    /// A uniform number in `[0, 1)` from a xorshift of the pool's own.
    fn flip(&mut self) -> f64 {
        self.coin ^= self.coin << 13;
        self.coin ^= self.coin >> 7;
        self.coin ^= self.coin << 17;
        (self.coin >> 11) as f64 / (1u64 << 53) as f64
    }
}

impl SeedPool for Annealing {
    fn invest(&mut self, seed: Seed) {
        let accept = match &self.seed {
            None => true,
            Some(current) if seed.feedback >= current.feedback => true,
            Some(current) => {
                let delta = seed.feedback - current.feedback;
                self.temperature > 0.0 && self.flip() < (delta / self.temperature).exp()
            }
        };
        if accept {
            self.seed = Some(seed);
        }
        self.temperature *= self.cooling;
    }

    fn revise(&mut self) {
        self.temperature *= self.cooling;
    }

    fn sample(&mut self) -> Directive<'_> {
        self.seed
            .as_ref()
            .map_or(Directive::Generate, Directive::Mutate)
    }

    fn best(&self) -> Option<&Seed> {
        self.seed.as_ref()
    }
}
