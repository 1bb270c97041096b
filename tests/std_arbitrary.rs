//! `Arbitrary`, `Shrink` and `Mutate` for `NonZero*`, `Duration`, IP and
//! socket addresses, `PathBuf`, `Cow` and ranges, tested with pbt itself:
//!
//! - every shrink candidate is valid and strictly simpler by a well-founded
//!   measure (so shrinking terminates), and greedy shrinking ends;
//! - every mutant is valid and differs from its input;
//! - generation reaches the simplest value and the special values.

use pbt::prelude::*;
use pbt::runners::{generational, Regressions};
use pbt::Rng;
use pbt::{Arbitrary, Mutate, Shrink};
use std::borrow::Cow;
use std::fmt::Debug;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
use std::num::*;
use std::ops::{Range, RangeInclusive};
use std::path::{Component, PathBuf};
use std::time::Duration;

/// A fixed seed, so that a failure reproduces (tests that need more loop
/// over seeds).
fn quiet() -> Config {
    Config::default()
        .regressions(Regressions::Off)
        .ignore_env()
        .seed(0x5eed)
}

/// Every candidate of `x` is valid and has a smaller measure; greedy
/// shrinking (always the first candidate) ends within 10 000 steps.
fn shrinks_well<T, M>(
    x: &T,
    measure: impl Fn(&T) -> M,
    valid: impl Fn(&T) -> bool,
) -> Result<(), String>
where
    T: Shrink + Clone + Debug,
    M: Ord + Debug,
{
    for c in x.shrink() {
        if !valid(&c) {
            return Err(format!("{x:?} has the invalid candidate {c:?}"));
        }
        if measure(&c) >= measure(x) {
            return Err(format!(
                "{x:?} ({:?}) has the candidate {c:?} ({:?}), not simpler",
                measure(x),
                measure(&c)
            ));
        }
    }
    let mut y = x.clone();
    for _ in 0..10_000 {
        let next = y.shrink().next();
        match next {
            Some(c) => y = c,
            None => return Ok(()),
        }
    }
    Err(format!("greedy shrinking from {x:?} did not end"))
}

/// Mutants of `x` at several sizes are valid and differ from `x`.
fn mutates_well<T>(x: &T, seed: u64, valid: impl Fn(&T) -> bool) -> Result<(), String>
where
    T: Mutate + PartialEq + Debug,
{
    let mut rng = Rng::from_seed(seed);
    for size in [0, 1, 10, 100] {
        let y = x.mutate(&mut rng, size);
        if y == *x || !valid(&y) {
            return Err(format!("{x:?} mutated into {y:?}"));
        }
    }
    Ok(())
}

/// Signed magnitude: smaller `|x|`, and positive before negative.
fn magnitude(x: i128) -> (u128, bool) {
    (x.unsigned_abs(), x < 0)
}

macro_rules! check_type {
    ($name:ident: $t:ty, $measure:expr, $valid:expr) => {
        #[test]
        fn $name() {
            let prop = property! {
                forall x: $t;
                forall seed: u64;
                check {
                    // `Copy` variables are bound by value, others by reference.
                    let x: &$t = std::borrow::Borrow::borrow(&x);
                    shrinks_well(x, $measure, $valid).and_then(|()| mutates_well(x, seed, $valid))
                }
            };
            let report = generational(&prop, quiet().cases(500));
            assert!(report.passed(), "{report}");
        }
    };
}

fn always<T>(_: &T) -> bool {
    true
}

macro_rules! check_nonzero {
    ($($name:ident: $t:ty),*) => {$(
        check_type!($name: $t, |x: &$t| magnitude(x.get() as i128), |x: &$t| x.get() != 0);
    )*};
}
check_nonzero!(
    nonzero_u8: NonZeroU8, nonzero_u16: NonZeroU16, nonzero_u32: NonZeroU32,
    nonzero_u64: NonZeroU64, nonzero_usize: NonZeroUsize,
    nonzero_i8: NonZeroI8, nonzero_i16: NonZeroI16, nonzero_i32: NonZeroI32,
    nonzero_i64: NonZeroI64, nonzero_i128: NonZeroI128, nonzero_isize: NonZeroIsize
);
check_type!(nonzero_u128: NonZeroU128, |x: &NonZeroU128| x.get(), |x: &NonZeroU128| x.get() != 0);

check_type!(duration: Duration, |d: &Duration| (d.as_secs(), d.subsec_nanos()), |d: &Duration| d.subsec_nanos() < 1_000_000_000);
check_type!(ipv4: Ipv4Addr, |a: &Ipv4Addr| u32::from(*a), always);
check_type!(ipv6: Ipv6Addr, |a: &Ipv6Addr| u128::from(*a), always);
check_type!(ip: IpAddr, ip_measure, always);
check_type!(socket_v4: SocketAddrV4, |a: &SocketAddrV4| (u32::from(*a.ip()), a.port()), always);
check_type!(socket_v6: SocketAddrV6, v6_measure, always);
check_type!(socket: SocketAddr, socket_measure, always);
check_type!(path: PathBuf, path_measure, path_valid);
check_type!(cow_str: Cow<'static, str>, |s: &Cow<'static, str>| string_measure(s), always);
check_type!(cow_slice: Cow<'static, [u8]>, |s: &Cow<'static, [u8]>| (s.len(), s.iter().map(|&b| u64::from(b)).sum::<u64>()), always);
check_type!(range: Range<i32>, |r: &Range<i32>| (magnitude(r.start.into()), magnitude(r.end.into())), |_: &Range<i32>| true);
check_type!(range_inclusive: RangeInclusive<u64>, |r: &RangeInclusive<u64>| (*r.start(), *r.end()), |_: &RangeInclusive<u64>| true);

// `char` and `String` shrink by the rank `a b A 0 space`, then code points
// (the simple characters used to propose lower code points: `'0'` and `'$'`
// shrank into each other).
check_type!(char_rank_descends: char, |c: &char| char_rank(*c), always);
check_type!(string_rank_descends: String, |s: &String| string_measure(s), always);

fn ip_measure(a: &IpAddr) -> (bool, u128) {
    match a {
        IpAddr::V4(a) => (false, u128::from(u32::from(*a))),
        IpAddr::V6(a) => (true, u128::from(*a)),
    }
}

fn v6_measure(a: &SocketAddrV6) -> (u128, u16, u32, u32) {
    (u128::from(*a.ip()), a.port(), a.flowinfo(), a.scope_id())
}

fn socket_measure(a: &SocketAddr) -> (bool, (u128, u16, u32, u32)) {
    match a {
        SocketAddr::V4(a) => (false, (u128::from(u32::from(*a.ip())), a.port(), 0, 0)),
        SocketAddr::V6(a) => (true, v6_measure(a)),
    }
}

/// The rank `char`'s shrinker descends: `a b A 0 space`, then code points.
fn char_rank(c: char) -> u64 {
    match ['a', 'b', 'A', '0', ' '].iter().position(|&s| s == c) {
        Some(i) => i as u64,
        None => 5 + u64::from(c as u32),
    }
}

fn string_measure(s: &str) -> (usize, u64) {
    (s.chars().count(), s.chars().map(char_rank).sum())
}

const ALPHABET: &str = "abcdefghijklmnopqrstuvwxyz0123456789_-";

fn path_rank(c: char) -> u64 {
    match ALPHABET.find(c) {
        Some(i) => i as u64,
        None => ALPHABET.len() as u64 + u64::from(c as u32),
    }
}

/// Components, characters, character ranks, then the root.
#[allow(clippy::ptr_arg)] // a measure of `PathBuf` values: `Fn(&PathBuf)`
fn path_measure(p: &PathBuf) -> (usize, usize, u64, bool) {
    let names: Vec<String> = p
        .components()
        .filter(|c| !matches!(c, Component::RootDir))
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    (
        names.len(),
        names.iter().map(|n| n.chars().count()).sum(),
        names.iter().flat_map(|n| n.chars()).map(path_rank).sum(),
        p.has_root(),
    )
}

/// Every component is a name of the alphabet or `..` (or `.` at the start).
#[allow(clippy::ptr_arg)] // a validity test of `PathBuf` values: `Fn(&PathBuf)`
fn path_valid(p: &PathBuf) -> bool {
    p.components().all(|c| match c {
        Component::RootDir | Component::ParentDir | Component::CurDir => true,
        Component::Normal(s) => s
            .to_str()
            .is_some_and(|s| !s.is_empty() && !s.contains('/')),
        Component::Prefix(_) => false,
    })
}

/// Zero choices give the simplest values.
#[test]
fn the_simplest_values() {
    let z = || pbt::choices::Replay::new(&[]);
    assert_eq!(NonZeroI32::arbitrary(&mut z(), 10).get(), 1);
    assert_eq!(NonZeroU128::arbitrary(&mut z(), 10).get(), 1);
    assert_eq!(Ipv4Addr::arbitrary(&mut z(), 10), Ipv4Addr::UNSPECIFIED);
    assert_eq!(
        IpAddr::arbitrary(&mut z(), 10),
        IpAddr::V4(Ipv4Addr::UNSPECIFIED)
    );
    assert_eq!(PathBuf::arbitrary(&mut z(), 10), PathBuf::new());
    assert_eq!(Cow::<'static, str>::arbitrary(&mut z(), 10), "");
    assert_eq!(Range::<i64>::arbitrary(&mut z(), 10), 0..0);
    assert_eq!(RangeInclusive::<u8>::arbitrary(&mut z(), 10), 0..=0);
}

/// Generation reaches the special values and keeps ranges mostly ordered.
#[test]
fn generation_reaches_special_values() {
    let mut rng = Rng::from_seed(3);
    let mut seen_loopback = (false, false);
    let mut ordered = 0;
    let mut rooted = 0;
    let mut negative_nonzero = false;
    for i in 0..2_000 {
        let size = i % 50;
        match IpAddr::arbitrary(&mut rng, size) {
            IpAddr::V4(a) if a.is_loopback() => seen_loopback.0 = true,
            IpAddr::V6(a) if a.is_loopback() => seen_loopback.1 = true,
            _ => {}
        }
        let r = Range::<i16>::arbitrary(&mut rng, size);
        ordered += usize::from(r.start <= r.end);
        let p = PathBuf::arbitrary(&mut rng, size);
        assert!(path_valid(&p), "{p:?}");
        rooted += usize::from(p.has_root());
        negative_nonzero |= NonZeroI8::arbitrary(&mut rng, size).get() < 0;
    }
    assert_eq!(seen_loopback, (true, true));
    assert!(
        (1_700..2_000).contains(&ordered),
        "{ordered} of 2000 ordered"
    );
    assert!((350..650).contains(&rooted), "{rooted} of 2000 rooted");
    assert!(negative_nonzero);
}

/// The property fails and shrinks to `minimum` from each of six seeds.
macro_rules! assert_minimum {
    ($prop:expr, $minimum:expr) => {
        for seed in 0..6 {
            let report = generational(&$prop, quiet().seed(seed));
            let failure = report.failure.as_ref().expect("the property is false");
            assert_eq!(
                failure.counterexample[0].value, $minimum,
                "seed {seed}: {report}"
            );
        }
    };
}

/// Failing properties over the new types shrink to their minimal values.
#[test]
fn shrinking_reaches_the_minimum() {
    let prop = property! {
        forall n: NonZeroU32;
        check n.get() < 1000
    };
    assert_minimum!(prop, "1000");

    let prop = property! {
        forall n: NonZeroI64;
        check n.get() > 0
    };
    assert_minimum!(prop, "-1");

    let prop = property! {
        forall p: PathBuf;
        check p.components().filter(|c| matches!(c, Component::Normal(_))).count() < 2
    };
    assert_minimum!(prop, "\"a/a\"");

    let prop = property! {
        forall r: Range<u32>;
        check r.len() < 10
    };
    assert_minimum!(prop, "0..10");
}
