//! [`Arbitrary`] for the std types beyond numbers and containers:
//! `NonZero*` integers, IP and socket addresses, `PathBuf`, `Cow`, and
//! ranges. Choice `0` everywhere gives the simplest value (`1`, `0.0.0.0`,
//! the empty path, the empty string or slice, `0..0`).

use super::Arbitrary;
use crate::source::Source;
use std::borrow::Cow;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
use std::num::{
    NonZeroI128, NonZeroI16, NonZeroI32, NonZeroI64, NonZeroI8, NonZeroIsize, NonZeroU128,
    NonZeroU16, NonZeroU32, NonZeroU64, NonZeroU8, NonZeroUsize,
};
use std::ops::{Range, RangeInclusive};
use std::path::PathBuf;

macro_rules! arbitrary_nonzero {
    ($($nz:ident: $t:ty),*) => {$(
        impl Arbitrary for $nz {
            /// The integer's distribution (small, any, edges) with `0`
            /// replaced by `1`, so choice `0` gives `1`.
            #[inline]
            fn arbitrary<S: Source + ?Sized>(src: &mut S, size: usize) -> Self {
                $nz::new(<$t>::arbitrary(src, size)).unwrap_or($nz::MIN_POSITIVE)
            }
        }
    )*};
}

/// `1` for each `NonZero` type (for the signed ones `MIN` is negative).
pub(crate) trait MinPositive {
    const MIN_POSITIVE: Self;
}

macro_rules! min_positive {
    ($($nz:ident: $int:ty),*) => {$(
        impl MinPositive for $nz {
            const MIN_POSITIVE: Self = match $nz::new(1) {
                Some(one) => one,
                None => unreachable!(),
            };
        }
    )*};
}
for_each_nonzero!(min_positive);

for_each_nonzero!(arbitrary_nonzero);

/// Addresses that code treats specially, simplest first.
const V4_EDGES: [Ipv4Addr; 5] = [
    Ipv4Addr::UNSPECIFIED,
    Ipv4Addr::LOCALHOST,
    Ipv4Addr::BROADCAST,
    Ipv4Addr::new(10, 0, 0, 1),
    Ipv4Addr::new(192, 168, 1, 1),
];

impl Arbitrary for Ipv4Addr {
    /// A special address (unspecified, localhost, broadcast, private) a
    /// quarter of the time, choice `0` giving `0.0.0.0`; otherwise uniform.
    fn arbitrary<S: Source + ?Sized>(src: &mut S, _size: usize) -> Self {
        if src.draw(3) == 0 {
            V4_EDGES[src.draw(V4_EDGES.len() as u64 - 1) as usize]
        } else {
            Ipv4Addr::from(src.draw(u64::from(u32::MAX)) as u32)
        }
    }
}

const V6_EDGES: [Ipv6Addr; 5] = [
    Ipv6Addr::UNSPECIFIED,
    Ipv6Addr::LOCALHOST,
    Ipv6Addr::new(0, 0, 0, 0, 0, 0xffff, 0x7f00, 1),
    Ipv6Addr::new(0xfe80, 0, 0, 0, 0, 0, 0, 1),
    Ipv6Addr::new(0xff02, 0, 0, 0, 0, 0, 0, 1),
];

impl Arbitrary for Ipv6Addr {
    /// A special address (unspecified, localhost, IPv4-mapped, link-local,
    /// multicast) a quarter of the time, choice `0` giving `::`; otherwise
    /// uniform.
    fn arbitrary<S: Source + ?Sized>(src: &mut S, _size: usize) -> Self {
        if src.draw(3) == 0 {
            V6_EDGES[src.draw(V6_EDGES.len() as u64 - 1) as usize]
        } else {
            let high = u128::from(src.draw(u64::MAX)) << 64;
            Ipv6Addr::from(high | u128::from(src.draw(u64::MAX)))
        }
    }
}

impl Arbitrary for IpAddr {
    /// V4 or V6, evenly; choice `0` is V4.
    fn arbitrary<S: Source + ?Sized>(src: &mut S, size: usize) -> Self {
        if src.draw(1) == 0 {
            IpAddr::V4(Ipv4Addr::arbitrary(src, size))
        } else {
            IpAddr::V6(Ipv6Addr::arbitrary(src, size))
        }
    }
}

impl Arbitrary for SocketAddrV4 {
    fn arbitrary<S: Source + ?Sized>(src: &mut S, size: usize) -> Self {
        SocketAddrV4::new(Ipv4Addr::arbitrary(src, size), u16::arbitrary(src, size))
    }
}

impl Arbitrary for SocketAddrV6 {
    /// Address, port, flow info and scope id, each from its own default.
    fn arbitrary<S: Source + ?Sized>(src: &mut S, size: usize) -> Self {
        SocketAddrV6::new(
            Ipv6Addr::arbitrary(src, size),
            u16::arbitrary(src, size),
            u32::arbitrary(src, size),
            u32::arbitrary(src, size),
        )
    }
}

impl Arbitrary for SocketAddr {
    /// V4 or V6, evenly; choice `0` is V4.
    fn arbitrary<S: Source + ?Sized>(src: &mut S, size: usize) -> Self {
        if src.draw(1) == 0 {
            SocketAddr::V4(SocketAddrV4::arbitrary(src, size))
        } else {
            SocketAddr::V6(SocketAddrV6::arbitrary(src, size))
        }
    }
}

/// The characters of generated path components.
pub(crate) const PATH_ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789_-";

/// One path component: `..` one time in eight, otherwise a name of one to
/// eight characters from [`PATH_ALPHABET`] (choice `0` gives `a`).
pub(crate) fn path_component<S: Source + ?Sized>(src: &mut S) -> String {
    if src.draw(7) == 7 {
        return "..".to_owned();
    }
    let len = 1 + src.draw(7) as usize;
    (0..len)
        .map(|_| PATH_ALPHABET[src.draw(PATH_ALPHABET.len() as u64 - 1) as usize] as char)
        .collect()
}

impl Arbitrary for PathBuf {
    /// Rooted (`/…`) a quarter of the time, with `0..=min(size, 8)`
    /// components (see the component alphabet above); choice `0` gives the
    /// empty relative path.
    fn arbitrary<S: Source + ?Sized>(src: &mut S, size: usize) -> Self {
        let mut path = if src.draw(3) == 3 {
            PathBuf::from(std::path::MAIN_SEPARATOR_STR)
        } else {
            PathBuf::new()
        };
        for _ in 0..src.draw(size.min(8) as u64) {
            path.push(path_component(src));
        }
        path
    }
}

impl Arbitrary for Cow<'static, str> {
    /// An owned `String`.
    fn arbitrary<S: Source + ?Sized>(src: &mut S, size: usize) -> Self {
        Cow::Owned(String::arbitrary(src, size))
    }
}

impl<T: Arbitrary + Clone> Arbitrary for Cow<'static, [T]> {
    /// An owned `Vec<T>`.
    fn arbitrary<S: Source + ?Sized>(src: &mut S, size: usize) -> Self {
        Cow::Owned(<Vec<T>>::arbitrary(src, size))
    }
}

/// The ends of a range: ordered (`start <= end`) seven times in eight,
/// as drawn (possibly reversed, an empty range) otherwise.
fn range_ends<T: Arbitrary + PartialOrd, S: Source + ?Sized>(src: &mut S, size: usize) -> (T, T) {
    let as_drawn = src.draw(7) == 7;
    let (a, b) = (T::arbitrary(src, size), T::arbitrary(src, size));
    if !as_drawn && b < a {
        (b, a)
    } else {
        (a, b)
    }
}

impl<T: Arbitrary + PartialOrd> Arbitrary for Range<T> {
    /// `start..end` with `start <= end` seven times in eight, and otherwise
    /// the ends as drawn (possibly reversed); choice `0` gives `0..0`.
    fn arbitrary<S: Source + ?Sized>(src: &mut S, size: usize) -> Self {
        let (start, end) = range_ends(src, size);
        start..end
    }
}

impl<T: Arbitrary + PartialOrd> Arbitrary for RangeInclusive<T> {
    /// `start..=end` with `start <= end` seven times in eight, and otherwise
    /// the ends as drawn (possibly reversed); choice `0` gives `0..=0`.
    fn arbitrary<S: Source + ?Sized>(src: &mut S, size: usize) -> Self {
        let (start, end) = range_ends(src, size);
        start..=end
    }
}
