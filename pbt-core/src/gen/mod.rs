//! Runtime generators: the unstaged twin of the `property!` DSL.
//!
//! Every DSL combinator exists here as an ordinary value that
//! implements [`Gen`]. The staged expansion of a DSL expression and the
//! runtime value built from the same combinators draw the same choices in the
//! same order and return the same value (*Fail Faster*, program equivalence).
//!
//! ```
//! use pbt_core::gen::{int, vec, Gen};
//! use pbt_core::Rng;
//! let g = vec(int(-5..=5i32), 0..10);
//! let xs = g.generate(&mut Rng::from_seed(1), 10).unwrap();
//! assert!(xs.len() < 10 && xs.iter().all(|x| (-5..=5).contains(x)));
//! ```

mod collection;
mod combinators;
pub(crate) use combinators::with_weight_types;
pub mod dsl;
mod float;
mod int;
mod length;
mod option;
mod regex;
mod staged;
mod text;
mod unique;

pub use collection::{subset, vec, Subset, VecOf, MAX_RESERVE};
pub use combinators::{
    any, bind, choose, either, filter, frequency, just, map, one_of, recursive, resize, sized, Any,
    Bind, Choose, Either, Filter, Frequency, Just, Map, OneOf, Rec, Recursive, Resize, Weight,
    WithSize, FILTER_TRIES,
};
pub(crate) use float::skip_offset;
pub use float::{float, Float, FloatType};
pub use int::{bool, int, weighted_bool, Bool, Int, IntType, WeightedBool};
/// Staging helpers (the unit draw of `weighted_bool` and `either`): the
/// macros reach them through `pbt::__private`; not part of the DSL.
#[doc(hidden)]
pub use int::{threshold, UNIT};
pub use length::Length;
pub use option::{option, result, OptionOf, ResultOf};
pub use regex::{regex, Regex, RegexError};
pub use staged::{Prepaid, Staged};
pub use text::{
    char, chars, string, string_of, CharSet, CharUnion, Chars, IntoCharSet, Str, StrOf,
};
pub use unique::{
    btree_map, btree_set, hash_map, hash_set, vec_unique, BTreeMapOf, BTreeSetOf, HashMapOf,
    HashSetOf, VecUnique, UNIQUE_TRIES,
};

use crate::source::Source;

/// A generator gave up: a `filter` or `ensure` found no acceptable value
/// within its budget. Runners count the test as discarded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rejected;

impl std::fmt::Display for Rejected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the generator rejected every candidate (filter/ensure gave up)")
    }
}

impl std::error::Error for Rejected {}

/// What a generator returns: a value, or [`Rejected`].
pub type Generated<T> = Result<T, Rejected>;

/// A generator of `Self::Value`s: a function of a [`Source`] and a size.
///
/// Generators are generic over the source, so a generator driven by
/// [`crate::Rng`] compiles to straight-line code. Use [`Gen::boxed`] when
/// alternatives of different types must share one type.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a generator: it does not implement `Gen`",
    label = "not a generator",
    note = "a generator annotation takes a DSL form (`int(0..10)`, `vec(g, 0..5)`, `one_of[g, …]`, `any::<T>()`, `just(x)` for one value) or a value implementing `pbt::generators::Gen`"
)]
pub trait Gen {
    /// The type of the values generated.
    type Value;

    /// Draw one value. `size` bounds the size of what is produced (lengths of
    /// collections, depth of recursion, magnitude of "small" numbers).
    fn generate<S: Source + ?core::marker::Sized>(
        &self,
        src: &mut S,
        size: usize,
    ) -> Generated<Self::Value>;

    /// Erase the type of this generator (one allocation, then a virtual call
    /// per generated value). Boxed generators are `Send + Sync`, so
    /// properties holding them can run on any runner.
    fn boxed<'a>(self) -> BoxedGen<'a, Self::Value>
    where
        Self: core::marker::Sized + Send + Sync + 'a,
    {
        BoxedGen(Box::new(self))
    }

    /// `map(self, f)`.
    fn map<U, F: Fn(Self::Value) -> U>(self, f: F) -> Map<Self, F>
    where
        Self: core::marker::Sized,
    {
        map(self, f)
    }

    /// `filter(self, pred)`.
    fn filter<F: Fn(&Self::Value) -> bool>(self, pred: F) -> Filter<Self, F>
    where
        Self: core::marker::Sized,
    {
        filter(self, pred)
    }

    /// `bind(self, f)`: a generator chosen from the value of this one.
    fn and_then<G: Gen, F: Fn(Self::Value) -> G>(self, f: F) -> Bind<Self, F>
    where
        Self: core::marker::Sized,
    {
        bind(self, f)
    }
}

impl<G: Gen + ?core::marker::Sized> Gen for &G {
    type Value = G::Value;
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn generate<S: Source + ?core::marker::Sized>(
        &self,
        src: &mut S,
        size: usize,
    ) -> Generated<G::Value> {
        (**self).generate(src, size)
    }
}

/// Object-safe form of [`Gen`], used by [`BoxedGen`].
pub trait DynGen<T> {
    /// [`Gen::generate`] through a `dyn Source`.
    fn generate_dyn(&self, src: &mut dyn Source, size: usize) -> Generated<T>;
}

impl<G: Gen> DynGen<G::Value> for G {
    fn generate_dyn(&self, src: &mut dyn Source, size: usize) -> Generated<G::Value> {
        self.generate(src, size)
    }
}

/// A type-erased generator.
///
/// ```
/// use pbt_core::gen::{int, just, one_of, Gen};
/// let g = one_of(vec![just(0u8).boxed(), int(10..20u8).boxed()]);
/// let v = g.generate(&mut pbt_core::Rng::from_seed(5), 10).unwrap();
/// assert!(v == 0 || (10..20).contains(&v));
/// ```
pub struct BoxedGen<'a, T>(pub(crate) Box<dyn DynGen<T> + Send + Sync + 'a>);

impl<T> Gen for BoxedGen<'_, T> {
    type Value = T;
    fn generate<S: Source + ?core::marker::Sized>(&self, src: &mut S, size: usize) -> Generated<T> {
        let mut src = src;
        self.0.generate_dyn(&mut src, size)
    }
}

/// A generator from a function of the source and the size.
///
/// ```
/// use pbt_core::{gen::{from_fn, Gen}, Source};
/// let dice = from_fn(|src, _size| Ok(1 + src.draw(5) as u8));
/// assert!((1..=6).contains(&dice.generate(&mut pbt_core::Rng::from_seed(0), 0).unwrap()));
/// ```
pub fn from_fn<T, F>(f: F) -> FromFn<F>
where
    F: Fn(&mut dyn Source, usize) -> Generated<T>,
{
    FromFn(f)
}

/// See [`from_fn`].
#[derive(Clone, Copy, Debug)]
pub struct FromFn<F>(F);

impl<T, F: Fn(&mut dyn Source, usize) -> Generated<T>> Gen for FromFn<F> {
    type Value = T;
    fn generate<S: Source + ?core::marker::Sized>(&self, src: &mut S, size: usize) -> Generated<T> {
        let mut src = src;
        (self.0)(&mut src, size)
    }
}

macro_rules! tuple_gen {
    ($($g:ident $v:ident),+) => {
        impl<$($g: Gen),+> Gen for ($($g,)+) {
            type Value = ($($g::Value,)+);
            #[inline]
            fn generate<S: Source + ?core::marker::Sized>(&self, src: &mut S, size: usize) -> Generated<Self::Value> {
                let ($($v,)+) = self;
                Ok(($($v.generate(src, size)?,)+))
            }
        }
    };
}
tuple_gen!(A a);
tuple_gen!(A a, B b);
tuple_gen!(A a, B b, C c);
tuple_gen!(A a, B b, C c, D d);
tuple_gen!(A a, B b, C c, D d, E e);
tuple_gen!(A a, B b, C c, D d, E e, F f);
tuple_gen!(A a, B b, C c, D d, E e, F f, G g);
tuple_gen!(A a, B b, C c, D d, E e, F f, G g, H h);
