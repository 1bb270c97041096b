//! The pass table: every pass of the integrated shrinker, once, by name, in
//! the order [`ChoiceShrinker::run`] runs them. [`ChoiceShrinker::run`]
//! reads it, [`ChoiceShrinker::stats`] is in its order, and the docs that
//! list the passes link here: see [`table`] (its source is the list).
//!
//! The cheap passes run first, until none of them makes progress; then the
//! expensive ones, back to the cheap ones as soon as one makes progress.
//! Deleting comes before zeroing among the cheap passes: a failing list
//! loses its passing elements without their being zeroed first, each
//! zeroing a printed step of the whole list.
//!
//! Adding a pass: write it in the family file it belongs to (`delete.rs`,
//! `minimize.rs`, `restructure.rs`, `size.rs`, `combine.rs`, `magnitude.rs`) following the contract of the
//! [parent module](super) ("Writing a pass"), add its row to [`table`], a test
//! `<pass>_<what it guarantees>` in `tests.rs`, and run the shrinking
//! challenge (`tests/shrinking_challenge.rs`) and `benches/shrinking.rs`
//! before and after.

use super::shrinker::{ChoiceShrinker, ShrinkTest, Shrinking};
use super::{combine, delete, magnitude, minimize, restructure, size};
use std::cell::Cell;
use std::sync::{Mutex, OnceLock};

/// When a pass runs: see the [module](self) docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tier {
    /// Run first, all of them again until none makes progress.
    Cheap,
    /// Run when no cheap pass makes progress.
    Expensive,
}

/// A pass: one sweep over the current sequence (see the
/// [parent module](super)'s "Writing a pass").
pub type PassFn<T> = fn(&mut ChoiceShrinker<T>) -> Shrinking;

/// A row of the [`table`].
pub struct Pass<T> {
    /// The pass's name: its function's.
    pub name: &'static str,
    /// When it runs.
    pub tier: Tier,
    /// The pass.
    pub run: PassFn<T>,
}

/// The passes, in the order the shrinker runs them (the cheap ones, then
/// the expensive ones).
///
/// ```
/// use pbt_core::shrink::choices::{passes::{table, Tier}, Attempt, Trial};
/// let rows = table::<fn(Attempt<'_>) -> Trial>();
/// assert_eq!(rows[0].name, "delete_halves");
/// assert!(rows.iter().skip_while(|p| p.tier == Tier::Cheap).all(|p| p.tier == Tier::Expensive));
/// ```
pub fn table<T: ShrinkTest>() -> [Pass<T>; 21] {
    use Tier::{Cheap, Expensive};
    let pass = |name, tier, run: PassFn<T>| Pass { name, tier, run };
    [
        pass("delete_halves", Cheap, delete::delete_halves),
        pass("lower_magnitude", Cheap, magnitude::lower_magnitude),
        pass("widen_size", Cheap, size::widen_size),
        pass("pass_to_descendant", Cheap, restructure::pass_to_descendant),
        pass("join_collections", Cheap, restructure::join_collections),
        pass("delete_blocks", Cheap, delete::delete_blocks),
        pass("zero_blocks", Cheap, minimize::zero_blocks),
        pass("delete_choices", Cheap, delete::delete_choices),
        pass("minimize_choices", Cheap, minimize::minimize_choices),
        pass("shrink_duplicates", Cheap, minimize::shrink_duplicates),
        pass("reorder_blocks", Expensive, restructure::reorder_blocks),
        pass(
            "move_to_next_list",
            Expensive,
            restructure::move_to_next_list,
        ),
        pass("delete_with_length", Expensive, delete::delete_with_length),
        pass("lower_pairs", Expensive, minimize::lower_pairs),
        pass("redistribute", Expensive, minimize::redistribute),
        pass(
            "lower_raising_next",
            Expensive,
            minimize::lower_raising_next,
        ),
        pass("shrink_size", Expensive, size::shrink_size),
        pass("reencode", Expensive, size::reencode),
        pass("delete_pairs", Expensive, combine::delete_pairs),
        pass("delete_replacing", Expensive, combine::delete_replacing),
        pass("delete_raising", Expensive, combine::delete_raising),
    ]
}

/// What one pass of the table did (Hypothesis's `ShrinkPass` counts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassStats {
    /// The pass's name in the table.
    pub name: &'static str,
    /// Its tier.
    pub tier: Tier,
    /// How many times it ran (one sweep each).
    pub runs: u64,
    /// The candidates it had the test run.
    pub attempts: u64,
    /// The candidates that were steps.
    pub steps: u64,
    /// The choices its steps removed from the sequence.
    pub choices_removed: u64,
}

impl PassStats {
    /// Nothing done yet by the pass `name`.
    pub(crate) fn new(name: &'static str, tier: Tier) -> Self {
        PassStats {
            name,
            tier,
            runs: 0,
            attempts: 0,
            steps: 0,
            choices_removed: 0,
        }
    }

    /// `rows` as a table, one line per pass, with a header and the totals.
    ///
    /// ```
    /// use pbt_core::shrink::choices::passes::{take_totals, PassStats};
    /// let text = PassStats::table(&take_totals());
    /// assert!(text.starts_with("pass"));
    /// ```
    pub fn table(rows: &[PassStats]) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let line = |out: &mut String, name: &str, tier: &str, r: [u64; 4]| {
            let _ = writeln!(
                out,
                "{name:<20} {tier:<9} {:>7} {:>9} {:>7} {:>9}",
                r[0], r[1], r[2], r[3]
            );
        };
        let _ = writeln!(
            out,
            "{:<20} {:<9} {:>7} {:>9} {:>7} {:>9}",
            "pass", "tier", "runs", "attempts", "steps", "removed"
        );
        let mut total = [0; 4];
        for r in rows {
            let counts = [r.runs, r.attempts, r.steps, r.choices_removed];
            let tier = match r.tier {
                Tier::Cheap => "cheap",
                Tier::Expensive => "expensive",
            };
            line(&mut out, r.name, tier, counts);
            total.iter_mut().zip(counts).for_each(|(t, c)| *t += c);
        }
        line(&mut out, "total", "", total);
        out
    }
}

/// The sums of every [`ChoiceShrinker::run`] in this process.
static TOTALS: Mutex<Vec<PassStats>> = Mutex::new(Vec::new());

/// The statistics of every [`ChoiceShrinker::run`] in this process since
/// the last call, summed per pass in the table's order (empty when none
/// ran), and the sums reset: what a benchmark reads after each row.
///
/// ```
/// use pbt_core::shrink::choices::passes::take_totals;
/// let _ = take_totals();
/// assert!(take_totals().is_empty());
/// ```
pub fn take_totals() -> Vec<PassStats> {
    std::mem::take(&mut *TOTALS.lock().unwrap_or_else(|e| e.into_inner()))
}

/// Add what one run did (the statistics `after` it, less those `before`
/// it, if any) to the process's totals, and print it when
/// `PBT_SHRINK_STATS` is on.
pub(crate) fn record(before: &[PassStats], after: &[PassStats]) {
    let less = |a: &PassStats, b: &PassStats| PassStats {
        runs: a.runs - b.runs,
        attempts: a.attempts - b.attempts,
        steps: a.steps - b.steps,
        choices_removed: a.choices_removed - b.choices_removed,
        ..*a
    };
    let run: std::borrow::Cow<'_, [PassStats]> = if before.is_empty() {
        after.into()
    } else {
        after.iter().zip(before).map(|(a, b)| less(a, b)).collect()
    };
    {
        let mut totals = TOTALS.lock().unwrap_or_else(|e| e.into_inner());
        if totals.is_empty() {
            totals.extend(run.iter().map(|r| PassStats::new(r.name, r.tier)));
        }
        for (t, r) in totals.iter_mut().zip(run.iter()) {
            t.runs += r.runs;
            t.attempts += r.attempts;
            t.steps += r.steps;
            t.choices_removed += r.choices_removed;
        }
    }
    if printing() || ASKED.with(Cell::get) {
        eprint!(
            "pbt: integrated shrinking, per pass\n{}",
            PassStats::table(&run)
        );
    }
}

thread_local! {
    /// Whether this thread's runs print their table whatever
    /// `PBT_SHRINK_STATS` says ([`print_on_this_thread`]).
    static ASKED: Cell<bool> = const { Cell::new(false) };
}

/// Print what each pass did after each [`ChoiceShrinker::run`] on this
/// thread, as `PBT_SHRINK_STATS=1` does for every thread (a runner at
/// debug verbosity asks for it around its shrinking); `false` stops. The
/// setting it replaces is returned, to be put back.
///
/// ```
/// use pbt_core::shrink::choices::passes::print_on_this_thread;
/// let before = print_on_this_thread(true);
/// assert!(print_on_this_thread(before));
/// ```
pub fn print_on_this_thread(on: bool) -> bool {
    ASKED.with(|asked| asked.replace(on))
}

/// Whether `PBT_SHRINK_STATS` is on (`1`, `true`, `yes`, `on`), read once
/// per process.
fn printing() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| {
        std::env::var("PBT_SHRINK_STATS").is_ok_and(|v| {
            matches!(
                v.trim().to_ascii_lowercase().as_str(),
                "1" | "true" | "yes" | "on"
            )
        })
    })
}
