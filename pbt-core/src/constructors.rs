//! The constructor view of a value, for the combinatorial runner
//! (*Programmable Property-Based Testing* §2.5): which constructors a value contains and how they nest.
//!
//! Combinatorial coverage *thins* a generator online: generate several
//! candidates, keep the one that covers the most constructor interactions not
//! seen before. An interaction here is a nesting pair `(parent, child)`: the
//! constructor directly enclosing another one (`None` at the root). A value
//! of a derived type reports one [`Constructor`] per variant (or struct) it is
//! built from; std types are transparent: a `Vec<Expr>` field reports the
//! `Expr`s inside it as children of the constructor holding the vector.
//!
//! Collecting is one walk over the value, pushing `&'static str` pairs into a
//! buffer the caller can reuse.
//!
//! ```
//! use pbt_core::constructors::{Constructor, Constructors};
//! let mut out = Vec::new();
//! vec![1u8, 2].constructors(&mut out);
//! assert!(out.is_empty()); // std types are transparent
//! ```

use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

/// One constructor occurrence in a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Constructor {
    /// The constructor: `Type::Variant` for an enum, `Type` for a struct.
    pub name: &'static str,
    /// The constructor directly enclosing it (`None` at the root).
    pub parent: Option<&'static str>,
}

impl Constructor {
    /// The nesting pair `(parent, child)`.
    pub fn pair(&self) -> (Option<&'static str>, &'static str) {
        (self.parent, self.name)
    }
}

/// Values that can report the constructors they are built from.
/// `#[derive(Arbitrary)]` implements it.
pub trait Constructors {
    /// Push one [`Constructor`] for every constructor in `self`, in
    /// pre-order, `parent` being the constructor that encloses `self`.
    fn constructors_under(&self, parent: Option<&'static str>, out: &mut Vec<Constructor>);

    /// Push the constructors of `self` as a root value.
    #[inline]
    fn constructors(&self, out: &mut Vec<Constructor>) {
        self.constructors_under(None, out);
    }
}

macro_rules! leaf {
    ($($t:ty),*) => {$(
        impl Constructors for $t {
            #[cfg_attr(not(debug_assertions), inline(always))]
            #[cfg_attr(debug_assertions, inline)]
            fn constructors_under(&self, _parent: Option<&'static str>, _out: &mut Vec<Constructor>) {}
        }
    )*};
}
leaf!(
    u8,
    u16,
    u32,
    u64,
    u128,
    usize,
    i8,
    i16,
    i32,
    i64,
    i128,
    isize,
    f32,
    f64,
    bool,
    char,
    (),
    String,
    str,
    std::time::Duration,
    std::num::NonZeroU8,
    std::num::NonZeroU16,
    std::num::NonZeroU32,
    std::num::NonZeroU64,
    std::num::NonZeroU128,
    std::num::NonZeroUsize,
    std::num::NonZeroI8,
    std::num::NonZeroI16,
    std::num::NonZeroI32,
    std::num::NonZeroI64,
    std::num::NonZeroI128,
    std::num::NonZeroIsize,
    std::net::Ipv4Addr,
    std::net::Ipv6Addr,
    std::net::IpAddr,
    std::net::SocketAddrV4,
    std::net::SocketAddrV6,
    std::net::SocketAddr,
    std::path::PathBuf,
    std::path::Path
);

impl<B: ToOwned + Constructors + ?Sized> Constructors for std::borrow::Cow<'_, B> {
    #[inline]
    fn constructors_under(&self, parent: Option<&'static str>, out: &mut Vec<Constructor>) {
        (**self).constructors_under(parent, out);
    }
}

impl<T: Constructors> Constructors for std::ops::Range<T> {
    fn constructors_under(&self, parent: Option<&'static str>, out: &mut Vec<Constructor>) {
        self.start.constructors_under(parent, out);
        self.end.constructors_under(parent, out);
    }
}

impl<T: Constructors> Constructors for std::ops::RangeInclusive<T> {
    fn constructors_under(&self, parent: Option<&'static str>, out: &mut Vec<Constructor>) {
        self.start().constructors_under(parent, out);
        self.end().constructors_under(parent, out);
    }
}

impl<T: ?Sized> Constructors for std::marker::PhantomData<T> {
    #[cfg_attr(not(debug_assertions), inline(always))]
    #[cfg_attr(debug_assertions, inline)]
    fn constructors_under(&self, _parent: Option<&'static str>, _out: &mut Vec<Constructor>) {}
}

macro_rules! through_iter {
    ($($c:ident),*) => {$(
        impl<T: Constructors> Constructors for $c<T> {
            fn constructors_under(&self, parent: Option<&'static str>, out: &mut Vec<Constructor>) {
                for x in self.iter() {
                    x.constructors_under(parent, out);
                }
            }
        }
    )*};
}
through_iter!(Vec, VecDeque, LinkedList, BTreeSet, HashSet, BinaryHeap, Option);

impl<T: Constructors> Constructors for [T] {
    fn constructors_under(&self, parent: Option<&'static str>, out: &mut Vec<Constructor>) {
        for x in self {
            x.constructors_under(parent, out);
        }
    }
}

impl<T: Constructors, const N: usize> Constructors for [T; N] {
    fn constructors_under(&self, parent: Option<&'static str>, out: &mut Vec<Constructor>) {
        self.as_slice().constructors_under(parent, out);
    }
}

macro_rules! through_map {
    ($($m:ident),*) => {$(
        impl<K: Constructors, V: Constructors> Constructors for $m<K, V> {
            fn constructors_under(&self, parent: Option<&'static str>, out: &mut Vec<Constructor>) {
                for (k, v) in self {
                    k.constructors_under(parent, out);
                    v.constructors_under(parent, out);
                }
            }
        }
    )*};
}
through_map!(BTreeMap, HashMap);

impl<T: Constructors, E: Constructors> Constructors for Result<T, E> {
    fn constructors_under(&self, parent: Option<&'static str>, out: &mut Vec<Constructor>) {
        match self {
            Ok(x) => x.constructors_under(parent, out),
            Err(e) => e.constructors_under(parent, out),
        }
    }
}

macro_rules! through_deref {
    ($($w:ident),*) => {$(
        impl<T: Constructors + ?Sized> Constructors for $w<T> {
            #[inline]
            fn constructors_under(&self, parent: Option<&'static str>, out: &mut Vec<Constructor>) {
                (**self).constructors_under(parent, out);
            }
        }
    )*};
}
through_deref!(Box, Rc, Arc);

macro_rules! through_tuple {
    ($($t:ident $i:tt),+) => {
        impl<$($t: Constructors),+> Constructors for ($($t,)+) {
            fn constructors_under(&self, parent: Option<&'static str>, out: &mut Vec<Constructor>) {
                $(self.$i.constructors_under(parent, out);)+
            }
        }
    };
}
through_tuple!(A 0);
through_tuple!(A 0, B 1);
through_tuple!(A 0, B 1, C 2);
through_tuple!(A 0, B 1, C 2, D 3);
through_tuple!(A 0, B 1, C 2, D 3, E 4);
through_tuple!(A 0, B 1, C 2, D 3, E 4, F 5);
through_tuple!(A 0, B 1, C 2, D 3, E 4, F 5, G 6);
through_tuple!(A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);

/// Support for the derives. Not a public API.
///
/// `(&Visit(&field)).visit(parent, out)` reports the field's constructors
/// when its type implements [`Constructors`] and nothing otherwise (autoref
/// specialisation), so a field of a type without the view does not stop the
/// derive.
#[doc(hidden)]
pub mod support {
    use super::{Constructor, Constructors};

    /// A field to visit.
    pub struct Visit<'a, T: ?Sized>(pub &'a T);

    /// Fields whose type has the view.
    pub trait VisitConstructors {
        /// Report the field's constructors.
        fn visit(&self, parent: Option<&'static str>, out: &mut Vec<Constructor>);
    }

    impl<T: Constructors + ?Sized> VisitConstructors for Visit<'_, T> {
        #[cfg_attr(not(debug_assertions), inline(always))]
        #[cfg_attr(debug_assertions, inline)]
        fn visit(&self, parent: Option<&'static str>, out: &mut Vec<Constructor>) {
            self.0.constructors_under(parent, out);
        }
    }

    /// Other fields: nothing to report.
    pub trait VisitNothing {
        /// Nothing.
        fn visit(&self, parent: Option<&'static str>, out: &mut Vec<Constructor>);
    }

    impl<T: ?Sized> VisitNothing for &Visit<'_, T> {
        #[cfg_attr(not(debug_assertions), inline(always))]
        #[cfg_attr(debug_assertions, inline)]
        fn visit(&self, _parent: Option<&'static str>, _out: &mut Vec<Constructor>) {}
    }
}
