//! The combinators of the DSL as runtime values.

use super::int::{threshold, UNIT};
use super::{BoxedGen, Gen, Generated};
use crate::arbitrary::Arbitrary;
use crate::source::Source;
use std::sync::{Arc, OnceLock, Weak};

/// Always `value` (cloned); draws nothing.
///
/// ```
/// use pbt_core::{gen::{just, Gen}, Rng};
/// assert_eq!(just(7).generate(&mut Rng::from_seed(0), 0), Ok(7));
/// ```
#[inline]
pub fn just<T: Clone>(value: T) -> Just<T> {
    Just(value)
}

/// See [`just`].
#[derive(Clone, Copy, Debug)]
pub struct Just<T>(pub T);

impl<T: Clone> Gen for Just<T> {
    type Value = T;
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn generate<S: Source + ?Sized>(&self, _src: &mut S, _size: usize) -> Generated<T> {
        Ok(self.0.clone())
    }
}

/// The type-based generator of `T` ([`Arbitrary`]).
///
/// ```
/// use pbt_core::{gen::{any, Gen}, Rng};
/// let _x: (u8, bool) = any().generate(&mut Rng::from_seed(0), 10).unwrap();
/// ```
#[inline]
pub fn any<T: Arbitrary>() -> Any<T> {
    Any(std::marker::PhantomData)
}

/// See [`any`].
pub struct Any<T>(std::marker::PhantomData<fn() -> T>);

impl<T> Clone for Any<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Any<T> {}

impl<T: Arbitrary> Gen for Any<T> {
    type Value = T;
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn generate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Generated<T> {
        Ok(T::arbitrary(src, size))
    }
}

/// One element of `items`, cloned; choice `0` is the first.
///
/// ```
/// use pbt_core::{gen::{choose, Gen}, Rng};
/// let c = choose(&["a", "b"]).generate(&mut Rng::from_seed(0), 0).unwrap();
/// assert!(c == "a" || c == "b");
/// ```
///
/// # Panics
/// When `items` is empty.
#[inline]
pub fn choose<T: Clone>(items: &[T]) -> Choose<'_, T> {
    assert!(
        !items.is_empty(),
        "pbt: choose(items) needs at least one item"
    );
    Choose(items)
}

/// See [`choose`].
#[derive(Clone, Copy, Debug)]
pub struct Choose<'a, T>(&'a [T]);

impl<T: Clone> Gen for Choose<'_, T> {
    type Value = T;
    #[inline]
    fn generate<S: Source + ?Sized>(&self, src: &mut S, _size: usize) -> Generated<T> {
        Ok(self.0[src.draw(self.0.len() as u64 - 1) as usize].clone())
    }
}

/// One of `alternatives`, uniformly: one draw picks it, then it generates.
///
/// # Panics
/// When there are no alternatives.
pub fn one_of<G: Gen>(alternatives: Vec<G>) -> OneOf<G> {
    assert!(
        !alternatives.is_empty(),
        "pbt: one_of needs at least one alternative"
    );
    OneOf(alternatives)
}

/// See [`one_of`].
#[derive(Clone, Debug)]
pub struct OneOf<G>(Vec<G>);

impl<G: Gen> Gen for OneOf<G> {
    type Value = G::Value;
    #[inline]
    fn generate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Generated<G::Value> {
        let i = src.draw(self.0.len() as u64 - 1) as usize;
        self.0[i].generate(src, size)
    }
}

/// The weight of a [`frequency`] alternative: fixed, or read from the size
/// at each draw (the runtime twin of `size => g` in the DSL).
#[derive(Clone, Copy, Debug)]
pub enum Weight {
    /// A constant weight.
    Fixed(u64),
    /// The current size.
    Size,
    /// A function of the current size.
    Of(fn(usize) -> u64),
}

impl Weight {
    /// The weight at `size`.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn at(self, size: usize) -> u64 {
        match self {
            Weight::Fixed(w) => w,
            Weight::Size => size as u64,
            Weight::Of(f) => f(size),
        }
    }
}

macro_rules! weight_from {
    ($($t:ty),*) => {$(
        impl From<$t> for Weight {
            #[allow(clippy::unnecessary_cast)]
            fn from(w: $t) -> Weight {
                #[allow(unused_comparisons)]
                let negative = w < 0;
                assert!(!negative, "pbt: a frequency weight is negative: {w}");
                Weight::Fixed(w as u64)
            }
        }
    )*};
}
with_weight_types!(weight_from);

/// Calls `$m!(types…)` with the integer types a `frequency` weight may have:
/// the one list for staged weights (`frequency[w => g, …]`, through
/// `macro_support::Weight`) and run-time ones (`Weight::from`), so that a
/// weight accepted in one is accepted in the other.
macro_rules! with_weight_types {
    ($m:ident) => {
        $m!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize);
    };
}
pub(crate) use with_weight_types;

/// A weighted choice: one draw in `0..total`, then the first alternative whose
/// cumulative weight exceeds it. Zero weights are never chosen. Weights are
/// integers or [`Weight`]s (`Weight::Size` is the current size).
///
/// ```
/// use pbt_core::{gen::{frequency, just, Gen, Weight}, Rng};
/// let g = frequency(vec![(0, just('x')), (3, just('y'))]);
/// assert_eq!(g.generate(&mut Rng::from_seed(1), 0), Ok('y'));
/// let sized = frequency(vec![(Weight::Fixed(1), just('a')), (Weight::Size, just('b'))]);
/// assert_eq!(sized.generate(&mut Rng::from_seed(1), 0), Ok('a'));
/// ```
///
/// # Panics
/// When every weight is zero.
pub fn frequency<W: Into<Weight>, G: Gen>(alternatives: Vec<(W, G)>) -> Frequency<G> {
    Frequency(
        alternatives
            .into_iter()
            .map(|(w, g)| (w.into(), g))
            .collect(),
    )
}

/// See [`frequency`].
#[derive(Clone, Debug)]
pub struct Frequency<G>(Vec<(Weight, G)>);

impl<G: Gen> Gen for Frequency<G> {
    type Value = G::Value;
    fn generate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Generated<G::Value> {
        let total: u64 = self.0.iter().map(|(w, _)| w.at(size)).sum();
        assert!(total > 0, "pbt: frequency needs a positive total weight");
        let mut r = src.draw(total - 1);
        for (w, g) in &self.0 {
            let w = w.at(size);
            if r < w {
                return g.generate(src, size);
            }
            r -= w;
        }
        unreachable!("r < total")
    }
}

/// `left` with probability `p`, otherwise `right` (*Property Based Testing in MIT-Scheme* `amb`).
pub fn either<A: Gen, B: Gen<Value = A::Value>>(left: A, right: B, p: f64) -> Either<A, B> {
    Either { left, right, p }
}

/// See [`either`].
#[derive(Clone, Copy, Debug)]
pub struct Either<A, B> {
    left: A,
    right: B,
    p: f64,
}

impl<A: Gen, B: Gen<Value = A::Value>> Gen for Either<A, B> {
    type Value = A::Value;
    #[inline]
    fn generate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Generated<A::Value> {
        if src.draw(UNIT - 1) < threshold(self.p) {
            self.left.generate(src, size)
        } else {
            self.right.generate(src, size)
        }
    }
}

/// Apply `f` to each generated value.
#[inline]
pub fn map<G: Gen, U, F: Fn(G::Value) -> U>(g: G, f: F) -> Map<G, F> {
    Map(g, f)
}

/// See [`map`].
#[derive(Clone, Copy, Debug)]
pub struct Map<G, F>(G, F);

impl<G: Gen, U, F: Fn(G::Value) -> U> Gen for Map<G, F> {
    type Value = U;
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn generate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Generated<U> {
        self.0.generate(src, size).map(&self.1)
    }
}

/// How many times [`filter`] regenerates before it gives up with [`Rejected`](super::Rejected).
pub const FILTER_TRIES: usize = 100;

/// Only values satisfying `pred`: regenerate up to [`FILTER_TRIES`] times,
/// then reject (the runner counts a discard).
#[inline]
pub fn filter<G: Gen, F: Fn(&G::Value) -> bool>(g: G, pred: F) -> Filter<G, F> {
    Filter(g, pred)
}

/// See [`filter`].
#[derive(Clone, Copy, Debug)]
pub struct Filter<G, F>(G, F);

impl<G: Gen, F: Fn(&G::Value) -> bool> Gen for Filter<G, F> {
    type Value = G::Value;
    #[inline]
    fn generate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Generated<G::Value> {
        for _ in 0..FILTER_TRIES {
            let v = self.0.generate(src, size)?;
            if (self.1)(&v) {
                return Ok(v);
            }
        }
        Err(crate::rejection::rejected(
            crate::rejection::Rejection::Filter(None),
        ))
    }
}

/// Monadic bind: generate `x` from `g`, then a value from `f(x)`.
///
/// ```
/// use pbt_core::{gen::{bind, int, Gen}, Rng};
/// let pair = bind(int(0..1000u32), |x| int(0..=x).map(move |y| (x, y)));
/// let (x, y) = pair.generate(&mut Rng::from_seed(3), 0).unwrap();
/// assert!(y <= x);
/// ```
#[inline]
pub fn bind<G: Gen, H: Gen, F: Fn(G::Value) -> H>(g: G, f: F) -> Bind<G, F> {
    Bind(g, f)
}

/// See [`bind`].
#[derive(Clone, Copy, Debug)]
pub struct Bind<G, F>(G, F);

impl<G: Gen, H: Gen, F: Fn(G::Value) -> H> Gen for Bind<G, F> {
    type Value = H::Value;
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn generate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Generated<H::Value> {
        let x = self.0.generate(src, size)?;
        (self.1)(x).generate(src, size)
    }
}

/// A generator built from the current size.
///
/// ```
/// use pbt_core::{gen::{int, sized, Gen}, Rng};
/// let g = sized(|n| int(0..=n));
/// assert!(g.generate(&mut Rng::from_seed(0), 5).unwrap() <= 5);
/// ```
#[inline]
pub fn sized<G: Gen, F: Fn(usize) -> G>(f: F) -> WithSize<F> {
    WithSize(f)
}

/// See [`sized`].
#[derive(Clone, Copy, Debug)]
pub struct WithSize<F>(F);

impl<G: Gen, F: Fn(usize) -> G> Gen for WithSize<F> {
    type Value = G::Value;
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn generate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Generated<G::Value> {
        (self.0)(size).generate(src, size)
    }
}

/// Run `g` at size `n` instead of the current size.
#[inline]
pub fn resize<G: Gen>(n: usize, g: G) -> Resize<G> {
    Resize(n, g)
}

/// See [`resize`].
#[derive(Clone, Copy, Debug)]
pub struct Resize<G>(usize, G);

impl<G: Gen> Gen for Resize<G> {
    type Value = G::Value;
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn generate<S: Source + ?Sized>(&self, src: &mut S, _size: usize) -> Generated<G::Value> {
        self.1.generate(src, self.0)
    }
}

/// A recursive generator (a fixed point, *Fail Faster* §4.5).
///
/// `step` receives a handle, [`Rec`], that generates the whole recursive value
/// again at **half the current size**; `step` returns the generator of one
/// layer. Recursion ends when the weights in `step` make the base case certain
/// at small sizes, e.g. `frequency[1 => leaf, size => node]`.
///
/// ```
/// use pbt_core::gen::{frequency, just, map, recursive, sized, Gen};
/// #[derive(Debug)]
/// enum Tree { Leaf, Node(Box<Tree>, Box<Tree>) }
/// let tree = recursive(|rec| sized(move |n| frequency(vec![
///     (1, just(()).map(|_| Tree::Leaf).boxed()),
///     (n as u64, (rec.clone(), rec.clone()).map(|(l, r)| Tree::Node(Box::new(l), Box::new(r))).boxed()),
/// ])));
/// let _t = tree.generate(&mut pbt_core::Rng::from_seed(0), 30).unwrap();
/// ```
pub fn recursive<T: 'static, G, F>(step: F) -> Recursive<T>
where
    G: Gen<Value = T> + Send + Sync + 'static,
    F: FnOnce(Rec<T>) -> G,
{
    let cell: Arc<OnceLock<BoxedGen<'static, T>>> = Arc::new(OnceLock::new());
    let body = step(Rec(Arc::downgrade(&cell)));
    let _ = cell.set(body.boxed());
    Recursive(cell)
}

/// See [`recursive`].
pub struct Recursive<T: 'static>(Arc<OnceLock<BoxedGen<'static, T>>>);

impl<T> Gen for Recursive<T> {
    type Value = T;
    fn generate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Generated<T> {
        let body = self
            .0
            .get()
            .expect("recursive: body is set at construction");
        // Each layer is a part of the budget, even one that draws nothing.
        let marks = src.start_layer();
        let v = body.generate(src, size);
        if marks {
            src.end_block();
        }
        v
    }
}

/// The recursive call inside [`recursive`]: generates at half the size.
pub struct Rec<T: 'static>(Weak<OnceLock<BoxedGen<'static, T>>>);

impl<T> Clone for Rec<T> {
    fn clone(&self) -> Self {
        Rec(self.0.clone())
    }
}

impl<T> Gen for Rec<T> {
    type Value = T;
    fn generate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Generated<T> {
        let cell = self
            .0
            .upgrade()
            .expect("recursive: the handle outlived its generator");
        let body = cell.get().expect("recursive: body is set at construction");
        let mut src = src;
        // Nested layers run on `dyn Source`: one virtual call counts the
        // layer and says whether the marks are kept, instead of no-op ones.
        let marks = src.start_layer();
        let v = body.0.generate_dyn(&mut src, size / 2);
        if marks {
            src.end_block();
        }
        v
    }
}
