//! The annotations a node carries, each a function of the environment bound
//! so far: a [`super::Forall`]'s `gen`, `shrink`, `print` and `mutate`, and
//! an [`super::Implies`]'s `utility`.
//!
//! The defaults are type-based: [`GenByType`] ([`Arbitrary`]),
//! [`ShrinkByType`] ([`Shrink`]), [`PrintDebug`], and [`MutateByType`]
//! ([`Mutate`]) when the macros see that the type has a mutator, otherwise
//! [`MutateByGen`] (regenerate). A variable with a custom generator and no custom shrinker is
//! shrunk through its generator's choices ([`ShrinkByChoices`]), so shrinking
//! never leaves the generator's range.
//!
//! An [`super::Implies`] carries the fifth family, its precondition's
//! utility: [`NoUtility`] or [`UtilityWith`] (what `property!` derives).

use super::deep_debug::{debug_string, write_debug, Written};
use crate::arbitrary::Arbitrary;
use crate::gen::{Gen, Generated};
use crate::mutate::Mutate;
use crate::shrink::{Candidates, Shrink};
use crate::source::{Rng, Source};

/// How a variable is generated from the environment.
pub trait GenAnnotation<E, T> {
    /// Whether this is a custom generator (as opposed to `Arbitrary`).
    const CUSTOM: bool;
    /// Generate the variable under `env`.
    fn generate<S: Source + ?Sized>(&self, env: &E, src: &mut S, size: usize) -> Generated<T>;

    /// Whether the variable draws while the check runs (a
    /// [`Data`](crate::Data), [`GenData`]): its node then calls
    /// [`continue_from`](GenAnnotation::continue_from) once every variable
    /// is generated and [`begin_run`](GenAnnotation::begin_run) around
    /// each run of the check.
    const DRAWS_IN_CHECK: bool = false;

    /// Generation has ended with `src` where it is: `value` draws from
    /// there while the check runs.
    fn continue_from<S: Source + ?Sized>(&self, value: &T, src: &mut S) {
        let _ = (value, src);
    }

    /// A run of the check starts; it ends when the guard is dropped.
    fn begin_run<'v>(&self, value: &'v T) -> Option<crate::data::RunGuard<'v>> {
        let _ = value;
        None
    }
}

/// Generate a [`Data`](crate::Data): it draws nothing while the property
/// is generated, and continues the source when the check draws (what a
/// `Data` variable gets by type).
#[derive(Clone, Copy, Debug, Default)]
pub struct GenData;

impl<E> GenAnnotation<E, crate::Data> for GenData {
    const CUSTOM: bool = false;
    const DRAWS_IN_CHECK: bool = true;
    fn generate<S: Source + ?Sized>(
        &self,
        _env: &E,
        _src: &mut S,
        size: usize,
    ) -> Generated<crate::Data> {
        Ok(crate::Data::pending(size))
    }
    fn continue_from<S: Source + ?Sized>(&self, value: &crate::Data, src: &mut S) {
        value.continue_from(src);
    }
    fn begin_run<'v>(&self, value: &'v crate::Data) -> Option<crate::data::RunGuard<'v>> {
        Some(value.begin_run())
    }
}

/// Generate by [`Arbitrary`].
#[derive(Clone, Copy, Debug, Default)]
pub struct GenByType;

impl<E, T: Arbitrary> GenAnnotation<E, T> for GenByType {
    const CUSTOM: bool = false;
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn generate<S: Source + ?Sized>(&self, _env: &E, src: &mut S, size: usize) -> Generated<T> {
        Ok(T::arbitrary(src, size))
    }
}

/// Generate with the generator `f(env)` (`#[gen = …]`).
#[derive(Clone, Copy, Debug)]
pub struct GenWith<F>(pub F);

impl<E, T, G: Gen<Value = T>, F: Fn(&E) -> G> GenAnnotation<E, T> for GenWith<F> {
    const CUSTOM: bool = true;
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn generate<S: Source + ?Sized>(&self, env: &E, src: &mut S, size: usize) -> Generated<T> {
        (self.0)(env).generate(src, size)
    }
}

/// Generate with staged code written by the macro, in two copies: `fast`
/// over the default [`Rng`] (every draw inlined) and `slow` over `dyn Source`
/// (recording, replaying, fuzzing). Both make the same choices.
#[derive(Clone, Copy, Debug)]
pub struct GenStaged<F, D> {
    /// The copy over [`Rng`].
    pub fast: F,
    /// The copy over `dyn Source`.
    pub slow: D,
}

impl<E, T, F, D> GenAnnotation<E, T> for GenStaged<F, D>
where
    F: Fn(&E, &mut Rng, usize) -> Generated<T>,
    D: Fn(&E, &mut dyn Source, usize) -> Generated<T>,
{
    const CUSTOM: bool = true;
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn generate<S: Source + ?Sized>(&self, env: &E, src: &mut S, size: usize) -> Generated<T> {
        if let Some(rng) = src.as_rng() {
            return (self.fast)(env, rng, size);
        }
        let mut src = src;
        (self.slow)(env, &mut src, size)
    }
}

/// How a variable is shrunk.
pub trait ShrinkAnnotation<E, T> {
    /// Whether this is a user-supplied shrinker.
    const CUSTOM: bool = false;
    /// Whether shrinking the generator's choices already makes every
    /// simplification its candidates make (see
    /// [`Shrink::SUBSUMED_BY_CHOICES`]).
    const SUBSUMED_BY_CHOICES: bool = false;
    /// Candidates for `value` under `env`, or `None` to shrink through the
    /// generator's recorded choices instead.
    fn candidates<'a>(&'a self, env: &'a E, value: &'a T) -> Option<Candidates<'a, T>>;
}

/// Shrink by [`Shrink`].
#[derive(Clone, Copy, Debug, Default)]
pub struct ShrinkByType;

impl<E, T: Shrink> ShrinkAnnotation<E, T> for ShrinkByType {
    const SUBSUMED_BY_CHOICES: bool = T::SUBSUMED_BY_CHOICES;
    fn candidates<'a>(&'a self, _env: &'a E, value: &'a T) -> Option<Candidates<'a, T>> {
        Some(value.shrink())
    }
}

/// Shrink the generator's recorded choices and regenerate (the default for
/// variables with a custom generator).
#[derive(Clone, Copy, Debug, Default)]
pub struct ShrinkByChoices;

impl<E, T> ShrinkAnnotation<E, T> for ShrinkByChoices {
    const SUBSUMED_BY_CHOICES: bool = true;
    fn candidates<'a>(&'a self, _env: &'a E, _value: &'a T) -> Option<Candidates<'a, T>> {
        None
    }
}

/// Shrink with `f(env)`, a function from a value to its candidates (`#[shrink = …]`).
///
/// The candidates are taken lazily, one at a time, as the shrinker asks:
/// `#[shrink = |x: &u32| 0..*x]` costs nothing for the candidates never
/// tried. (So the iterator must own what it walks over: it may not borrow
/// from a shorter-lived local.)
#[derive(Clone, Copy, Debug)]
pub struct ShrinkWith<F>(pub F);

impl<E, T, F, Sh, I> ShrinkAnnotation<E, T> for ShrinkWith<F>
where
    F: Fn(&E) -> Sh,
    Sh: Fn(&T) -> I,
    I: IntoIterator<Item = T>,
    I::IntoIter: 'static,
{
    const CUSTOM: bool = true;
    fn candidates<'a>(&'a self, env: &'a E, value: &'a T) -> Option<Candidates<'a, T>> {
        Some(crate::shrink::boxed((self.0)(env)(value).into_iter()))
    }
}

/// How a variable is printed.
pub trait PrintAnnotation<E, T> {
    /// Whether this is a user-supplied printer.
    const CUSTOM: bool = false;
    /// The printed value.
    fn print(&self, env: &E, value: &T) -> String;

    /// Whether `value` prints as `printed` (what [`print`](Self::print)
    /// gives, compared; the printers here stop at the first difference and
    /// build no string): a shrinker asks this of every candidate.
    ///
    /// ```
    /// use pbt_core::property::{PrintAnnotation, PrintDebug};
    /// assert!(PrintAnnotation::<(), _>::prints_as(&PrintDebug, &(), &vec![1, 2], "[1, 2]"));
    /// assert!(!PrintAnnotation::<(), _>::prints_as(&PrintDebug, &(), &vec![1, 2], "[1, 2, 3]"));
    /// assert!(!PrintAnnotation::<(), _>::prints_as(&PrintDebug, &(), &vec![1, 2], "[1]"));
    /// ```
    fn prints_as(&self, env: &E, value: &T, printed: &str) -> bool {
        self.print(env, value) == printed
    }

    /// The printed value, cut short after `limit` bytes with a marker that
    /// says so (what [`print`](Self::print) gives when it is no longer;
    /// the printers here stop writing at the limit): a report shows the
    /// input as first found this way, where a long one is printed only to
    /// be read.
    ///
    /// ```
    /// use pbt_core::property::{PrintAnnotation, PrintDebug};
    /// let long: Vec<u32> = (0..1000).collect();
    /// let shown = PrintAnnotation::<(), _>::print_within(&PrintDebug, &(), &long, 12);
    /// assert_eq!(shown, "[0, 1, 2, 3,… [cut: only the first 12 bytes are printed]");
    /// assert_eq!(PrintAnnotation::<(), _>::print_within(&PrintDebug, &(), &vec![1], 12), "[1]");
    /// ```
    fn print_within(&self, env: &E, value: &T, limit: usize) -> String {
        cut_short(self.print(env, value), limit)
    }

    /// [`print`](Self::print), appended to `out` (the printers here write
    /// into it: a shrinker that prints every step reuses one buffer).
    ///
    /// ```
    /// use pbt_core::property::{PrintAnnotation, PrintDebug};
    /// let mut out = String::from("xs = ");
    /// PrintAnnotation::<(), _>::print_into(&PrintDebug, &(), &vec![1, 2], &mut out);
    /// assert_eq!(out, "xs = [1, 2]");
    /// ```
    fn print_into(&self, env: &E, value: &T, out: &mut String) {
        out.push_str(&self.print(env, value));
    }
}

/// `printed`, cut at `limit` bytes (at a character boundary) and marked as
/// cut, when it is longer.
pub(crate) fn cut_short(mut printed: String, limit: usize) -> String {
    if printed.len() <= limit {
        return printed;
    }
    let mut cut = limit;
    while !printed.is_char_boundary(cut) {
        cut -= 1;
    }
    printed.truncate(cut);
    mark_cut(printed, limit)
}

/// `printed` (its first `limit` bytes), marked as cut.
fn mark_cut(mut printed: String, limit: usize) -> String {
    use std::fmt::Write;
    let _ = write!(printed, "… [cut: only the first {limit} bytes are printed]");
    printed
}

/// What `write` writes, cut short after `limit` bytes (and marked): the
/// writing stops there (the writer then fails). `None` when the writer
/// failed of itself (`format!` would panic on it).
fn writes_within(
    write: impl FnOnce(&mut dyn std::fmt::Write) -> std::fmt::Result,
    limit: usize,
) -> Option<String> {
    struct Within {
        text: String,
        limit: usize,
        full: bool,
    }
    impl std::fmt::Write for Within {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            if self.full {
                return Err(std::fmt::Error);
            }
            if self.text.len() + s.len() <= self.limit {
                self.text.push_str(s);
                return Ok(());
            }
            let mut cut = self.limit - self.text.len();
            while !s.is_char_boundary(cut) {
                cut -= 1;
            }
            self.text.push_str(&s[..cut]);
            self.full = true;
            Err(std::fmt::Error)
        }
    }
    let mut within = Within {
        text: String::new(),
        limit,
        full: false,
    };
    match write(&mut within) {
        Ok(()) => Some(within.text),
        Err(_) if within.full => Some(mark_cut(within.text, limit)),
        Err(_) => None,
    }
}

/// Whether what `write` writes is exactly `expected`: the writing stops at
/// the first difference (the writer then fails). A writer that fails of
/// itself compares as different (`format!` would panic on it).
fn writes_as(
    write: impl FnOnce(&mut dyn std::fmt::Write) -> std::fmt::Result,
    expected: &str,
) -> bool {
    struct Compare<'a>(&'a str);
    impl std::fmt::Write for Compare<'_> {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            match self.0.strip_prefix(s) {
                Some(rest) => {
                    self.0 = rest;
                    Ok(())
                }
                None => Err(std::fmt::Error),
            }
        }
    }
    let mut rest = Compare(expected);
    write(&mut rest).is_ok() && rest.0.is_empty()
}

/// Print with `{:?}`.
#[derive(Clone, Copy, Debug, Default)]
pub struct PrintDebug;

impl<E, T: std::fmt::Debug> PrintAnnotation<E, T> for PrintDebug {
    // Every `{:?}` goes through `write_debug`: a value whose `Debug` goes
    // deeper into the stack than the thread allows is printed cut short,
    // not by overflowing the stack.
    fn print(&self, _env: &E, value: &T) -> String {
        debug_string(value)
    }

    fn prints_as(&self, env: &E, value: &T, printed: &str) -> bool {
        let mut written = Ok(Written::Whole);
        let same = writes_as(
            |w| {
                written = write_debug(w, value);
                written.map(|_| ())
            },
            printed,
        );
        match written {
            Ok(Written::Whole) | Err(_) => same,
            // Compared up to the cut, which wrote the marker: print again
            // to be sure.
            Ok(Written::CutDeep) => PrintAnnotation::<E, T>::print(self, env, value) == printed,
        }
    }

    fn print_within(&self, env: &E, value: &T, limit: usize) -> String {
        writes_within(|w| write_debug(w, value).map(|_| ()), limit)
            .unwrap_or_else(|| PrintAnnotation::<E, T>::print(self, env, value))
    }

    fn print_into(&self, env: &E, value: &T, out: &mut String) {
        let from = out.len();
        if write_debug(out, value).is_err() {
            // A `Debug` that fails of itself: as `format!` does with it.
            out.truncate(from);
            out.push_str(&PrintAnnotation::<E, T>::print(self, env, value));
        }
    }
}

/// Print with `f(env)`, a function from a value to a `String` (`#[print = …]`).
#[derive(Clone, Copy, Debug)]
pub struct PrintWith<F>(pub F);

impl<E, T, F, P, R> PrintAnnotation<E, T> for PrintWith<F>
where
    F: Fn(&E) -> P,
    P: Fn(&T) -> R,
    R: std::fmt::Display,
{
    const CUSTOM: bool = true;
    fn print(&self, env: &E, value: &T) -> String {
        (self.0)(env)(value).to_string()
    }

    fn prints_as(&self, env: &E, value: &T, printed: &str) -> bool {
        let shown = (self.0)(env)(value);
        writes_as(|w| write!(w, "{shown}"), printed)
    }

    fn print_within(&self, env: &E, value: &T, limit: usize) -> String {
        let shown = (self.0)(env)(value);
        writes_within(|w| write!(w, "{shown}"), limit).unwrap_or_else(|| shown.to_string())
    }
}

/// How a variable is mutated.
pub trait MutateAnnotation<E, T> {
    /// Whether this is a user-supplied mutator.
    const CUSTOM: bool = false;
    /// Whether this mutates the value (as opposed to regenerating it).
    const BY_VALUE: bool = false;
    /// A mutant of `value`, or `None` to regenerate the variable instead.
    fn mutate(&self, env: &E, value: &T, src: &mut dyn Source, size: usize) -> Option<T>;
}

/// Mutate by regenerating the variable from its generator.
#[derive(Clone, Copy, Debug, Default)]
pub struct MutateByGen;

impl<E, T> MutateAnnotation<E, T> for MutateByGen {
    fn mutate(&self, _env: &E, _value: &T, _src: &mut dyn Source, _size: usize) -> Option<T> {
        None
    }
}

/// Mutate with `f(env)`, a function `(value, source, size) -> value` (`#[mutate = …]`).
#[derive(Clone, Copy, Debug)]
pub struct MutateWith<F>(pub F);

impl<E, T, F, M> MutateAnnotation<E, T> for MutateWith<F>
where
    F: Fn(&E) -> M,
    M: Fn(&T, &mut dyn Source, usize) -> T,
{
    const CUSTOM: bool = true;
    const BY_VALUE: bool = true;
    fn mutate(&self, env: &E, value: &T, src: &mut dyn Source, size: usize) -> Option<T> {
        Some((self.0)(env)(value, src, size))
    }
}

/// Mutate with the type's [`Mutate`] impl (derived with `#[derive(Mutate)]`
/// or std's). The macros pick it for a variable generated by type whose
/// type implements `Mutate`; a variable with a `gen` annotation is mutated
/// through its generator instead, so its mutants stay in the generator's
/// range.
///
/// ```
/// use pbt_core::property::{Check, Forall, Prop, MutateByType};
/// use pbt_core::{Property, Rng};
/// let prop = Prop::new(
///     Forall::new("xs", "Vec<u8>", Check::new(|(xs, ()): &(Vec<u8>, ())| xs.len() < 100))
///         .mutate_by(MutateByType),
/// );
/// let mut rng = Rng::from_seed(1);
/// let case = prop.generate(&mut rng, 10).unwrap();
/// let mutant = prop.mutate(&case, &mut rng, 10).unwrap();
/// assert_ne!(prop.print(&case), prop.print(&mutant));
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct MutateByType;

impl<E, T: Mutate> MutateAnnotation<E, T> for MutateByType {
    const BY_VALUE: bool = true;
    fn mutate(&self, _env: &E, value: &T, src: &mut dyn Source, size: usize) -> Option<T> {
        Some(value.mutate(src, size))
    }
}

/// The utility of a precondition, if one is attached (*Flexible and Automatic Targeted Property-Based Testing* §3).
pub trait UtilityAnnotation<E> {
    /// Whether a utility is attached.
    const PRESENT: bool;
    /// The utility on `env`: `>= 0` exactly when the precondition holds.
    fn utility(&self, env: &E) -> Option<f64>;
}

/// No utility attached.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoUtility;

impl<E> UtilityAnnotation<E> for NoUtility {
    const PRESENT: bool = false;
    fn utility(&self, _env: &E) -> Option<f64> {
        None
    }
}

/// The utility `f(env)`.
#[derive(Clone, Copy, Debug)]
pub struct UtilityWith<F>(pub F);

impl<E, F: Fn(&E) -> f64> UtilityAnnotation<E> for UtilityWith<F> {
    const PRESENT: bool = true;
    fn utility(&self, env: &E) -> Option<f64> {
        Some((self.0)(env))
    }
}
