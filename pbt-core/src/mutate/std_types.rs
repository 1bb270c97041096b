//! [`Mutate`] for the std types of `arbitrary::std_types`: mutants are
//! valid values (a `NonZero` is never `0`) and differ from the input.

use super::{mutate_slice, Mutate};
use crate::arbitrary::std_types::{path_component, MinPositive};
use crate::arbitrary::Arbitrary;
use crate::source::Source;
use std::borrow::Cow;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
use std::num::{
    NonZeroI128, NonZeroI16, NonZeroI32, NonZeroI64, NonZeroI8, NonZeroIsize, NonZeroU128,
    NonZeroU16, NonZeroU32, NonZeroU64, NonZeroU8, NonZeroUsize,
};
use std::ops::{Range, RangeInclusive};
use std::path::PathBuf;

macro_rules! mutate_nonzero {
    ($($nz:ident: $int:ty),*) => {$(
        impl Mutate for $nz {
            /// The integer's mutation; a `0` becomes `1` (or `2` when the
            /// input is `1`).
            fn mutate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Self {
                let x = self.get();
                let y = x.mutate(src, size);
                let y = if y != 0 { y } else if x == 1 { 2 } else { 1 };
                $nz::new(y).unwrap_or($nz::MIN_POSITIVE)
            }
        }
    )*};
}
for_each_nonzero!(mutate_nonzero);

impl Mutate for Ipv4Addr {
    /// As the `u32` it is.
    fn mutate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Self {
        Ipv4Addr::from(u32::from(*self).mutate(src, size))
    }
}

impl Mutate for Ipv6Addr {
    /// As the `u128` it is.
    fn mutate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Self {
        Ipv6Addr::from(u128::from(*self).mutate(src, size))
    }
}

impl Mutate for IpAddr {
    /// Mutate within the variant, or (a quarter of the time) switch to a
    /// fresh address of the other one.
    fn mutate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Self {
        let switch = src.draw(3) == 0;
        match (self, switch) {
            (IpAddr::V4(a), false) => IpAddr::V4(a.mutate(src, size)),
            (IpAddr::V6(a), false) => IpAddr::V6(a.mutate(src, size)),
            (IpAddr::V4(_), true) => IpAddr::V6(Ipv6Addr::arbitrary(src, size)),
            (IpAddr::V6(_), true) => IpAddr::V4(Ipv4Addr::arbitrary(src, size)),
        }
    }
}

impl Mutate for SocketAddrV4 {
    /// The address or the port.
    fn mutate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Self {
        let (ip, port) = (*self.ip(), self.port()).mutate(src, size);
        SocketAddrV4::new(ip, port)
    }
}

impl Mutate for SocketAddrV6 {
    /// The address, the port, the flow info or the scope id.
    fn mutate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Self {
        let (ip, port, flow, scope) =
            (*self.ip(), self.port(), self.flowinfo(), self.scope_id()).mutate(src, size);
        SocketAddrV6::new(ip, port, flow, scope)
    }
}

impl Mutate for SocketAddr {
    /// Mutate within the variant, or (a quarter of the time) switch to a
    /// fresh address of the other one.
    fn mutate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Self {
        let switch = src.draw(3) == 0;
        match (self, switch) {
            (SocketAddr::V4(a), false) => SocketAddr::V4(a.mutate(src, size)),
            (SocketAddr::V6(a), false) => SocketAddr::V6(a.mutate(src, size)),
            (SocketAddr::V4(_), true) => SocketAddr::V6(SocketAddrV6::arbitrary(src, size)),
            (SocketAddr::V6(_), true) => SocketAddr::V4(SocketAddrV4::arbitrary(src, size)),
        }
    }
}

impl Mutate for PathBuf {
    /// Push a fresh component, pop the last one, replace the last one by a
    /// fresh one, or toggle the root (`/`). A mutant equal to the input
    /// (a replaced component drawn the same) gets a fresh component pushed.
    fn mutate<S: Source + ?Sized>(&self, src: &mut S, _size: usize) -> Self {
        let mut out = self.clone();
        match src.draw(3) {
            0 => out.push(path_component(src)),
            1 => {
                out.pop();
            }
            2 => {
                out.pop();
                out.push(path_component(src));
            }
            _ => {
                out = if self.has_root() {
                    self.components()
                        .filter(|c| !matches!(c, std::path::Component::RootDir))
                        .collect()
                } else {
                    PathBuf::from(std::path::MAIN_SEPARATOR_STR).join(self)
                };
            }
        }
        if out == *self {
            out.push(path_component(src));
        }
        out
    }
}

impl Mutate for Cow<'static, str> {
    /// As a `String`; the mutant is owned.
    fn mutate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Self {
        let owned: String = self.clone().into_owned();
        Cow::Owned(owned.mutate(src, size))
    }
}

impl<T: Mutate + Arbitrary + Clone> Mutate for Cow<'static, [T]> {
    /// [`mutate_slice`]; the mutant is owned.
    fn mutate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Self {
        Cow::Owned(mutate_slice(self, src, size))
    }
}

impl<T: Mutate + Clone> Mutate for Range<T> {
    /// Mutate the start or the end (the range may become reversed: empty).
    fn mutate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Self {
        let (start, end) = (self.start.clone(), self.end.clone()).mutate(src, size);
        start..end
    }
}

impl<T: Mutate + Clone> Mutate for RangeInclusive<T> {
    /// Mutate the start or the end (the range may become reversed: empty).
    fn mutate<S: Source + ?Sized>(&self, src: &mut S, size: usize) -> Self {
        let (start, end) = (self.start().clone(), self.end().clone()).mutate(src, size);
        start..=end
    }
}
