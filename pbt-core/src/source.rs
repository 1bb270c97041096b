//! Sources of randomness: the only way a generator gets its choices.
//!
//! A [`Source`] offers one primitive, [`Source::draw`]: a uniform choice in
//! `0..=max`. Every generator in pbt is a function of the choices it draws, and
//! choice `0` is always the *simplest* choice (the value a shrinker would aim
//! for). That convention is what lets a replaying source fall back to `0` when
//! a recorded sequence runs out, and lets integrated shrinking minimize choices
//! instead of values.
//!
//! [`Rng`] (xoshiro256++) is the fast default. Generators are generic over the
//! source, so on the hot path a draw compiles down to a few xoshiro
//! instructions plus Lemire's multiply-and-reject step.

/// Where generators get their choices from.
///
/// The one required method is [`draw`](Source::draw). A source that wants the
/// property to keep each variable's choices (for shrinking through the
/// generator) says so with [`records`](Source::records).
///
/// ```
/// use pbt_core::{Rng, Source};
/// let mut rng = Rng::from_seed(7);
/// let d = rng.draw(9);
/// assert!(d <= 9);
/// ```
pub trait Source {
    /// A choice uniform in `0..=max`; `0` is the simplest choice.
    fn draw(&mut self, max: u64) -> u64;

    /// Whether the property should record each variable's choices while
    /// generating from this source (see [`crate::choices::Recorder`]).
    #[inline]
    fn records(&self) -> bool {
        false
    }

    /// A generator call of `kind` starts: the draws until the matching
    /// [`end_block`](Source::end_block) are its block. Generators that
    /// build values from parts (collections, their elements, recursive
    /// layers) mark them, so that the integrated shrinker can delete,
    /// reorder or replace whole parts. Marks never change the draws; a
    /// source that does not keep them (the default, and [`Rng`]) compiles
    /// them away. A source that keeps them also says it
    /// [`records`](Source::records) (generators on `dyn Source` may ask
    /// that first, to skip the marks).
    ///
    /// ```
    /// use pbt_core::{choices::Replay, gen::{int, vec, Gen}, source::BlockKind, Source};
    /// let mut replay = Replay::new(&[2, 3, 4]);
    /// replay.start_block(BlockKind::Element);
    /// replay.draw(9);
    /// replay.end_block();
    /// assert_eq!(replay.into_replayed().blocks[0].span(), 0..1);
    /// ```
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn start_block(&mut self, kind: BlockKind) {
        let _ = kind;
    }

    /// The innermost block started by [`start_block`](Source::start_block)
    /// ends.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn end_block(&mut self) {}

    /// This source as the default [`Rng`], if it is one. Staged generators
    /// use it to take a fully inlined path for the common case and a
    /// `dyn Source` path for recording, replaying and fuzzing sources.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn as_rng(&mut self) -> Option<&mut Rng> {
        None
    }

    /// Every choice this source has handed out so far, when it keeps them
    /// (a [`Replay`](crate::choices::Replay) and a
    /// [`Recorder`](crate::choices::Recorder) do): a property then takes a
    /// variable's choices as a slice of them instead of recording them
    /// again. `None` (the default) when it keeps none.
    ///
    /// ```
    /// use pbt_core::{choices::Replay, Source};
    /// let mut replay = Replay::new(&[4, 7]);
    /// replay.draw(9);
    /// assert_eq!(replay.handed_out(), Some(&[4][..]));
    /// assert_eq!(pbt_core::Rng::from_seed(1).handed_out(), None);
    /// ```
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn handed_out(&self) -> Option<&[u64]> {
        None
    }

    /// Where draws go on once generation has ended: what a
    /// [`Data`](crate::Data) variable draws from while the check runs, so
    /// that the check's draws continue this source's sequence. A random
    /// generator continues its stream; a [`Replay`](crate::choices::Replay)
    /// the rest of its recorded choices; a recording source its inner
    /// source's (the check's draws reach it afterwards, as a
    /// [`Tail`](crate::data::Tail)). The default is a random stream seeded
    /// by one draw of this source.
    ///
    /// ```
    /// use pbt_core::{choices::Replay, data::Continuation, Source};
    /// let mut replay = Replay::new(&[4, 7, 9]);
    /// replay.draw(9);
    /// match replay.continuation() {
    ///     Continuation::Recorded { rest, .. } => assert_eq!(rest, [7, 9]),
    ///     other => panic!("{other:?}"),
    /// }
    /// ```
    fn continuation(&mut self) -> crate::data::Continuation {
        crate::data::Continuation::seeded_by(self)
    }

    /// The generator is about to make `draws` draws with
    /// [`draw_charged`](Source::draw_charged): a source that bounds how
    /// much one input may draw (a [limited](Rng::limited) [`Rng`]) counts
    /// them now, all at once, and stops the generator here if they take it
    /// past its bound. Other sources ignore it (the default), as their
    /// `draw_charged` is their `draw`.
    ///
    /// Staged generators charge once per straight run of draws, per
    /// collection (its length times its elements' draws) and per recursive
    /// layer, instead of having every draw counted: so their draws compile
    /// to the random number generator alone. A charge is exact: the draws
    /// counted are the draws made, whichever way they are made.
    ///
    /// ```
    /// use pbt_core::{overrun::Overrun, Rng, Source};
    /// let mut rng = Rng::from_seed(1).limited(100, 1 << 20);
    /// rng.charge(60);
    /// for _ in 0..60 { rng.draw_charged(9); }
    /// let stopped = std::panic::catch_unwind(move || rng.charge(41)).unwrap_err();
    /// assert_eq!(stopped.downcast_ref::<Overrun>(), Some(&Overrun::Draws { limit: 100 }));
    /// ```
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn charge(&mut self, draws: u64) {
        let _ = draws;
    }

    /// The generator is about to build `parts` parts of a value (elements
    /// of a collection, one recursive layer, repetitions of a fixed text)
    /// that make `draws` charged draws between them. A source that bounds
    /// how much one input may draw counts each part as one draw besides
    /// the draws: a part that draws nothing (`vec(just(x), 0..n)`, a
    /// recursion whose layers draw nothing) still uses up the budget, so a
    /// huge drawn length or an endless recursion ends as "data too large"
    /// instead of allocating without bound or overflowing the stack.
    /// The default counts the draws alone ([`charge`](Source::charge));
    /// a source that counts its draws as they are made and forwards to a
    /// bounded one (a [`Recorder`](crate::choices::Recorder)) forwards the
    /// parts.
    ///
    /// ```
    /// use pbt_core::{overrun::Overrun, Rng, Source};
    /// let mut rng = Rng::from_seed(1).limited(100, 1 << 20);
    /// rng.charge_parts(60, 0);
    /// let stopped = std::panic::catch_unwind(move || rng.charge_parts(30, 11)).unwrap_err();
    /// assert_eq!(stopped.downcast_ref::<Overrun>(), Some(&Overrun::Draws { limit: 100 }));
    /// ```
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn charge_parts(&mut self, parts: u64, draws: u64) {
        let _ = parts;
        self.charge(draws);
    }

    /// A recursive layer starts: it is counted as a part
    /// ([`charge_parts`](Source::charge_parts)), and, when this source
    /// keeps block marks ([`records`](Source::records)), a
    /// [`BlockKind::Recursion`] block starts, which the caller ends with
    /// [`end_block`](Source::end_block) (the result says whether). One call
    /// for both, so a layer generated through a `dyn Source` costs one
    /// virtual call, not three.
    ///
    /// ```
    /// use pbt_core::{choices::Replay, Rng, Source};
    /// assert!(!Rng::from_seed(1).start_layer());
    /// let mut replay = Replay::new(&[]);
    /// assert!(replay.start_layer());
    /// replay.end_block();
    /// ```
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn start_layer(&mut self) -> bool {
        self.charge_parts(1, 0);
        let marks = self.records();
        if marks {
            self.start_block(BlockKind::Recursion);
        }
        marks
    }

    /// Two choices: a kind `k` in `0..=7`, then a value in `0..=bounds[k]`
    /// (the bound of the value depends on the kind): the two choices that
    /// `draw(7)` then `draw(bounds[kind])` would make, record, replay and
    /// count (the default makes those two draws). An [`Rng`] gives the
    /// very same pair more cheaply, as one step: the kind is the top three
    /// bits of its first word (which is what Lemire's draw into `0..=7`
    /// is), both are charged at once, and the value's bound is picked
    /// without a branch on the random kind. A type-based integer, which
    /// shrinks as a kind and a value ordered by magnitude, uses it.
    ///
    /// ```
    /// use pbt_core::{choices::{Recorder, Replay}, Rng, Source};
    /// let bounds = [10, 10, 10, 10, u64::MAX, u64::MAX, u64::MAX, 4];
    /// let mut rec = Recorder::new(Rng::from_seed(9));
    /// let (kind, value) = rec.draw_kind_value(&bounds);
    /// assert!(kind <= 7 && value <= bounds[kind]);
    /// assert_eq!(rec.choices(), &[kind as u64, value]);
    /// // The same seed gives the same pair, recorded or not, and a replay
    /// // of the two choices gives it back.
    /// assert_eq!(Rng::from_seed(9).draw_kind_value(&bounds), (kind, value));
    /// let mut replay = Replay::new(rec.choices());
    /// assert_eq!(replay.draw_kind_value(&bounds), (kind, value));
    /// ```
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn draw_kind_value(&mut self, bounds: &[u64; 8]) -> (usize, u64) {
        let kind = self.draw(7) as usize & 7;
        (kind, self.draw(bounds[kind]))
    }

    /// A draw that [`charge`](Source::charge) counted beforehand: the same
    /// choice as [`draw`](Source::draw) (the default calls it), without
    /// counting it again.
    ///
    /// ```
    /// use pbt_core::{Rng, Source};
    /// let (mut a, mut b) = (Rng::from_seed(3), Rng::from_seed(3));
    /// b.charge(1);
    /// assert_eq!(a.draw(1000), b.draw_charged(1000));
    /// ```
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn draw_charged(&mut self, max: u64) -> u64 {
        self.draw(max)
    }
}

impl<S: Source + ?Sized> Source for &mut S {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn draw(&mut self, max: u64) -> u64 {
        (**self).draw(max)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn records(&self) -> bool {
        (**self).records()
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn start_block(&mut self, kind: BlockKind) {
        (**self).start_block(kind)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn end_block(&mut self) {
        (**self).end_block()
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn as_rng(&mut self) -> Option<&mut Rng> {
        (**self).as_rng()
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn handed_out(&self) -> Option<&[u64]> {
        (**self).handed_out()
    }
    fn continuation(&mut self) -> crate::data::Continuation {
        (**self).continuation()
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn charge(&mut self, draws: u64) {
        (**self).charge(draws)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn charge_parts(&mut self, parts: u64, draws: u64) {
        (**self).charge_parts(parts, draws)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn draw_kind_value(&mut self, bounds: &[u64; 8]) -> (usize, u64) {
        (**self).draw_kind_value(bounds)
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn start_layer(&mut self) -> bool {
        (**self).start_layer()
    }
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn draw_charged(&mut self, max: u64) -> u64 {
        (**self).draw_charged(max)
    }
}

/// What a marked generator call generates (see [`Source::start_block`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlockKind {
    /// A collection: its length draw, then its elements.
    Collection,
    /// One element of a collection.
    Element,
    /// One layer of a recursive generator.
    Recursion,
}

/// The default source: xoshiro256++ (the generator of `rand_xoshiro`'s
/// `Xoshiro256PlusPlus`, written out; a test checks that the streams are
/// equal), seeded from a `u64`.
///
/// Draws in a bounded range use Lemire's nearly-divisionless method, so there
/// is no modulo bias.
///
/// ```
/// use pbt_core::{Rng, Source};
/// let (mut a, mut b) = (Rng::from_seed(1), Rng::from_seed(1));
/// assert_eq!(a.draw(1000), b.draw(1000));
/// ```
#[derive(Clone, Debug)]
pub struct Rng {
    inner: Xoshiro256,
    /// Draws that may be counted before the budget is looked at again.
    countdown: u32,
    budget: Budget,
}

/// How much one generated input may draw (see [`Rng::limited`]).
#[derive(Clone, Copy, Debug)]
struct Budget {
    /// The draws counted once `countdown` reaches zero: the count so far
    /// is `drawn - countdown`.
    drawn: u64,
    max_draws: u64,
    stack_start: usize,
    max_stack: usize,
}

/// The budget is looked at once every this many draws (one decrement and a
/// well-predicted branch per counted draw), and as the count reaches the
/// limit: the draw limit is exact, the stack is measured every 64 draws.
const CHECK_EVERY: u32 = 64;

/// The state of xoshiro256++ (Blackman and Vigna), as four words.
///
/// Written out rather than taken from `rand_xoshiro`, whose constructor
/// takes the state as 32 bytes: runners seed a fresh generator for every
/// test, and going through bytes costs a store-forwarding stall (eight-byte
/// stores read back as sixteen-byte loads) worth a third of a short test.
#[derive(Clone, Debug)]
struct Xoshiro256 {
    s: [u64; 4],
}

impl Xoshiro256 {
    /// `Xoshiro256PlusPlus::seed_from_u64(seed)`: the state is four
    /// SplitMix64 outputs.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn seeded(seed: u64) -> Self {
        Xoshiro256 {
            s: seed_state::words(seed),
        }
    }

    /// The next 64 bits (xoshiro256++).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }
}

impl Rng {
    /// A generator whose whole stream is determined by `seed`.
    // Inlined, like `limited`: runners seed a generator for every test, and
    // a call returning the 72-byte generator by value costs more than the
    // seeding (copies, and a store-forwarding stall on the countdown).
    #[inline]
    pub fn from_seed(seed: u64) -> Self {
        Rng {
            inner: Xoshiro256::seeded(seed),
            countdown: CHECK_EVERY,
            budget: Budget {
                drawn: CHECK_EVERY as u64,
                max_draws: u64::MAX,
                stack_start: 0,
                max_stack: usize::MAX,
            },
        }
    }

    /// This generator, bounded for one generated input: the draw past
    /// `max_draws` draws, or one made more than `max_stack` bytes deeper
    /// into the stack than this call (measured every 64 draws), panics with
    /// an [`crate::overrun::Overrun`] payload, which runners report as
    /// "data too large". Draws are counted as they are made, or ahead
    /// of time by [`Source::charge`].
    ///
    /// ```
    /// use pbt_core::{overrun::Overrun, Rng, Source};
    /// let mut rng = Rng::from_seed(1).limited(100, 1 << 20);
    /// let stopped = std::panic::catch_unwind(move || {
    ///     for _ in 0..1000 { rng.draw(9); }
    /// }).unwrap_err();
    /// assert_eq!(stopped.downcast_ref::<Overrun>(), Some(&Overrun::Draws { limit: 100 }));
    /// ```
    #[inline]
    pub fn limited(mut self, max_draws: u64, max_stack: usize) -> Self {
        self.budget = Budget {
            drawn: 0,
            max_draws,
            stack_start: crate::overrun::stack_position(),
            max_stack,
        };
        self.restart_count();
        self
    }

    /// Count from zero draws, looking at the budget after the first
    /// `CHECK_EVERY` or when the limit is reached, whichever comes first.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn restart_count(&mut self) {
        let first = self.budget.max_draws.min(u64::from(CHECK_EVERY));
        self.countdown = first as u32;
        self.budget.drawn = first;
    }

    /// Start this generator over from `seed`, keeping its limits: the same
    /// draws as `Rng::from_seed(seed)` with the limits of
    /// [`Rng::limited`] (the stack measured from where `limited` was
    /// called). A loop that tests many cases from one place seeds one
    /// generator per case this way, without measuring the stack each time.
    ///
    /// ```
    /// use pbt_core::{Rng, Source};
    /// let mut rng = Rng::from_seed(1).limited(1000, 1 << 20);
    /// rng.draw(9);
    /// rng.reseed(2);
    /// let mut fresh = Rng::from_seed(2);
    /// assert_eq!(rng.draw(1 << 40), fresh.draw(1 << 40));
    /// ```
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn reseed(&mut self, seed: u64) {
        self.restart(SeedState::new(seed));
    }

    /// [`Rng::reseed`] from a state worked out ahead: after
    /// `restart(SeedState::new(seed))` the draws are those of
    /// `Rng::from_seed(seed)`, with this generator's limits (see
    /// [`SeedState`]).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn restart(&mut self, state: SeedState) {
        self.inner = Xoshiro256 { s: state.s };
        self.restart_count();
    }

    /// Count `draws` more draws, more than the countdown has left: stop the
    /// generator if they take the count past the limit or the stack is
    /// too deep, else start the next countdown.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn check_budget(&mut self, draws: u64) {
        // By value, field by field: the call gets no pointer into the
        // generator (a 32-byte `Budget` argument is passed as one), so the
        // compiler may keep the generator's state in registers around it.
        let b = self.budget;
        let (countdown, drawn) = recount(
            self.countdown,
            draws,
            b.drawn,
            b.max_draws,
            b.stack_start,
            b.max_stack,
        );
        self.countdown = countdown;
        self.budget.drawn = drawn;
    }

    /// The end of [`bounded`] for a product `m` whose low word is below
    /// `range` (rarely: `range / 2^64`): the draws it rejects, as
    /// `bounded` makes them. Out of line, so that the common way of
    /// [`Source::draw_kind_value`] stays small enough to inline; it takes
    /// and gives back the generator's state by value, so that a caller
    /// holding a generator in a local (a collection's loop) can keep it
    /// in registers.
    #[cold]
    #[inline(never)]
    fn lemire_rejection(mut inner: Xoshiro256, mut m: u128, range: u64) -> (Xoshiro256, u64) {
        let threshold = range.wrapping_neg() % range;
        while (m as u64) < threshold {
            m = u128::from(inner.next_u64()) * u128::from(range);
        }
        (inner, (m >> 64) as u64)
    }

    /// [`Source::draw_kind_value`] for bounds in three groups, the
    /// kinds `0..=3` bounded by `small`, `4..=6` by `any` and `7` by
    /// `edge` (a type-based integer's): the very same pair as
    /// `draw_kind_value(&[small, small, small, small, any, any, any,
    /// edge])`, with the bound picked by masks from the kind instead of
    /// from a table on the stack (which the compiler rebuilt for every
    /// element of a collection).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(crate) fn kind_value_grouped(&mut self, small: u64, any: u64, edge: u64) -> (usize, u64) {
        self.charge(2);
        self.kind_value_grouped_prepaid(small, any, edge)
    }

    /// [`Rng::kind_value_grouped`] whose two draws were charged already
    /// (a collection charges its elements' draws at once).
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub(crate) fn kind_value_grouped_prepaid(
        &mut self,
        small: u64,
        any: u64,
        edge: u64,
    ) -> (usize, u64) {
        let kind = self.inner.next_u64() >> 61;
        // `kind >> 2` is 0 for the small kinds; `(kind + 1) >> 3` is 1
        // for the edge kind alone.
        let bound = select((kind >> 2) == 0, small, any);
        let edge_mask = ((kind + 1) >> 3).wrapping_neg();
        let bound = bound ^ ((bound ^ edge) & edge_mask);
        let value = self.kind_value_of(bound);
        (kind as usize, value)
    }

    /// The value of a kind-value pair: the next word drawn into
    /// `0..=bound` as [`bounded`] draws it, the whole `u64` range (for
    /// which Lemire's method is the word itself, never rejected) picked
    /// by a mask, and the rare rejection out of line.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn kind_value_of(&mut self, bound: u64) -> u64 {
        let word = self.inner.next_u64();
        let range = bound.wrapping_add(1);
        let m = u128::from(word) * u128::from(range);
        let value = if (m as u64) < range {
            let (inner, value) = Self::lemire_rejection(self.inner.clone(), m, range);
            self.inner = inner;
            value
        } else {
            (m >> 64) as u64
        };
        select(range == 0, word, value)
    }

    /// The next raw 64 random bits.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    pub fn next_u64(&mut self) -> u64 {
        self.inner.next_u64()
    }
}

impl Source for Rng {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn draw(&mut self, max: u64) -> u64 {
        self.charge(1);
        self.draw_charged(max)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn as_rng(&mut self) -> Option<&mut Rng> {
        Some(self)
    }

    fn continuation(&mut self) -> crate::data::Continuation {
        crate::data::Continuation::Random(self.clone())
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn charge(&mut self, draws: u64) {
        if draws > u64::from(self.countdown) {
            self.check_budget(draws);
        } else {
            self.countdown -= draws as u32;
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn charge_parts(&mut self, parts: u64, draws: u64) {
        self.charge(parts.saturating_add(draws));
    }

    // The choices of `draw(7)` then `draw(bounds[kind])`, the very same
    // (Lemire's draw into `0..=7` is the top three bits of its word), made
    // cheaper: the kind is a shift, the two draws are charged at once, and
    // the value is picked without a branch on the random kind.
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn draw_kind_value(&mut self, bounds: &[u64; 8]) -> (usize, u64) {
        self.charge(2);
        let kind = (self.inner.next_u64() >> 61) as usize;
        let value = self.kind_value_of(bounds[kind]);
        (kind, value)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn draw_charged(&mut self, max: u64) -> u64 {
        bounded(max, || self.inner.next_u64())
    }
}

/// [`Rng::check_budget`]: the next countdown and the count once it is
/// over, or the generator stopped.
#[cold]
#[inline(never)]
fn recount(
    countdown: u32,
    draws: u64,
    drawn: u64,
    max_draws: u64,
    stack_start: usize,
    max_stack: usize,
) -> (u32, u64) {
    use crate::overrun::{raise, stack_position, Overrun};
    let b = Budget {
        drawn,
        max_draws,
        stack_start,
        max_stack,
    };
    let counted = (b.drawn - u64::from(countdown)).saturating_add(draws);
    if counted > b.max_draws {
        raise(Overrun::Draws { limit: b.max_draws });
    }
    if b.max_stack != usize::MAX && stack_position().abs_diff(b.stack_start) > b.max_stack {
        raise(Overrun::Stack { limit: b.max_stack });
    }
    let next = (b.max_draws - counted).min(u64::from(CHECK_EVERY));
    (next as u32, counted + next)
}

/// `if cond { a } else { b }` by masks, for a condition that is random:
/// a branch on it would be mispredicted half the time.
/// (`std::hint::select_unpredictable` needs Rust 1.88, above this
/// workspace's minimum.)
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub(crate) fn select(cond: bool, a: u64, b: u64) -> u64 {
    let mask = u64::from(cond).wrapping_neg();
    b ^ ((a ^ b) & mask)
}

/// Lemire's unbiased mapping of 64 random bits into `0..=max`.
#[cfg_attr(not(debug_assertions), inline(always))]
#[cfg_attr(debug_assertions, inline)]
pub fn bounded(max: u64, mut next: impl FnMut() -> u64) -> u64 {
    let Some(range) = max.checked_add(1) else {
        return next();
    };
    let mut m = u128::from(next()) * u128::from(range);
    if (m as u64) < range {
        let threshold = range.wrapping_neg() % range;
        while (m as u64) < threshold {
            m = u128::from(next()) * u128::from(range);
        }
    }
    (m >> 64) as u64
}

/// SplitMix64's finaliser: a cheap, well-mixed hash of a `u64`.
///
/// Runners use it to derive one independent seed per test case from a run seed,
/// so a single case can be replayed without replaying the run.
///
/// ```
/// assert_ne!(pbt_core::source::mix(1), pbt_core::source::mix(2));
/// ```
#[inline]
pub fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

mod bytes;
mod seed_state;
pub use bytes::Bytes;
pub use seed_state::SeedState;

#[cfg(test)]
mod seeding_tests {
    use super::*;

    use rand_xoshiro::rand_core::{Rng as _, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn seeding_written_out_gives_the_libraries_state() {
        let seeds = (0..10_000u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .chain([0, 1, u64::MAX, 0x9e37_79b9_7f4a_7c15u64.wrapping_neg()]);
        for seed in seeds {
            let mut ours = Xoshiro256::seeded(seed);
            let mut theirs = Xoshiro256PlusPlus::seed_from_u64(seed);
            for _ in 0..64 {
                assert_eq!(ours.next_u64(), theirs.next_u64(), "seed {seed}");
            }
        }
    }
}

#[cfg(test)]
mod kind_value_tests {
    use super::*;

    /// The bounds an `i64` and an `i32` draw with at size 30.
    const I64: [u64; 8] = [60, 60, 60, 60, u64::MAX, u64::MAX, u64::MAX, 4];
    const I32: [u64; 8] = [
        60,
        60,
        60,
        60,
        u32::MAX as u64,
        u32::MAX as u64,
        u32::MAX as u64,
        4,
    ];

    #[test]
    fn one_draw_pairs_are_uniform_in_kind_and_in_value() {
        for bounds in [I64, I32] {
            let mut rng = Rng::from_seed(5);
            let (mut kinds, mut small, mut odd, mut high) = ([0u32; 8], [0u32; 61], [0u32; 8], 0);
            let n = 80_000;
            for _ in 0..n {
                let (k, v) = rng.draw_kind_value(&bounds);
                assert!(v <= bounds[k], "{v} > {}", bounds[k]);
                kinds[k] += 1;
                if k < 4 {
                    small[v as usize] += 1;
                } else if k < 7 {
                    // The "any" value's bits are not the kind's: its low
                    // bits and its top bit are uniform whatever the kind.
                    odd[(v & 7) as usize] += 1;
                    high += u32::from(v > bounds[k] / 2);
                }
            }
            let near =
                |count: u32, expected: f64| (f64::from(count) - expected).abs() < expected * 0.1;
            assert!(kinds.iter().all(|&c| near(c, n as f64 / 8.0)), "{kinds:?}");
            let any = f64::from(kinds[4] + kinds[5] + kinds[6]);
            assert!(odd.iter().all(|&c| near(c, any / 8.0)), "{odd:?}");
            assert!(near(high, any / 2.0), "{high} of {any}");
            let per_small = f64::from(kinds[..4].iter().sum::<u32>()) / 61.0;
            let roughly = |c: u32| (f64::from(c) - per_small).abs() < per_small * 0.25;
            assert!(small.iter().all(|&c| roughly(c)), "{small:?}");
        }
    }

    #[test]
    fn a_one_draw_pair_counts_two_draws() {
        let mut rng = Rng::from_seed(1).limited(5, 1 << 20);
        rng.draw_kind_value(&I64);
        rng.draw_kind_value(&I64);
        rng.draw(3);
        let stopped = std::panic::catch_unwind(move || rng.draw_kind_value(&I64)).unwrap_err();
        assert_eq!(
            stopped.downcast_ref::<crate::overrun::Overrun>(),
            Some(&crate::overrun::Overrun::Draws { limit: 5 })
        );
    }

    #[test]
    fn a_grouped_pair_is_the_pair_of_its_table() {
        let groups = [
            (60, u64::MAX, 4),
            (60, u32::MAX as u64, 2),
            (0, 1, 0),
            (u64::MAX, 5, u64::MAX - 1),
        ];
        for (small, any, edge) in groups {
            let table = [small, small, small, small, any, any, any, edge];
            let (mut one, mut two) = (Rng::from_seed(11), Rng::from_seed(11));
            for _ in 0..20_000 {
                assert_eq!(
                    one.kind_value_grouped(small, any, edge),
                    two.draw_kind_value(&table)
                );
            }
        }
    }

    #[test]
    fn a_pair_is_the_two_draws_it_stands_for() {
        // The same choices, from the same stream, as `draw(7)` then
        // `draw(bounds[kind])`: values are those of two draws.
        let wide = [3, 1 << 20, u64::MAX - 5, u64::MAX, 0, 1, 2, 1 << 63];
        for bounds in [I64, I32, wide] {
            let (mut one, mut two) = (Rng::from_seed(8), Rng::from_seed(8));
            for _ in 0..20_000 {
                let kind = two.draw(7) as usize;
                let pair = (kind, two.draw(bounds[kind]));
                assert_eq!(one.draw_kind_value(&bounds), pair);
            }
        }
    }
}
