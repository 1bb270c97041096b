//! [`Shrink`] for the std types of `arbitrary::std_types`: every candidate
//! is a valid value (a `NonZero` is never `0`, a path component never
//! holds a separator) and strictly simpler than the value shrunk, so
//! shrinking terminates.

use super::{boxed, Candidates, Shrink};
use crate::arbitrary::std_types::{MinPositive, PATH_ALPHABET};
use std::borrow::Cow;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
use std::num::{
    NonZeroI128, NonZeroI16, NonZeroI32, NonZeroI64, NonZeroI8, NonZeroIsize, NonZeroU128,
    NonZeroU16, NonZeroU32, NonZeroU64, NonZeroU8, NonZeroUsize,
};
use std::ops::{Range, RangeInclusive};
use std::path::{Component, PathBuf};

macro_rules! shrink_nonzero {
    ($($nz:ident: $int:ty),*) => {$(
        impl Shrink for $nz {
            /// Toward `1`: `1`, then the integer's candidates except `0`
            /// (`-x` for a negative `x`, then halving the distance to zero).
            fn shrink(&self) -> Candidates<'_, Self> {
                let x = self.get();
                let one = (*self != $nz::MIN_POSITIVE).then_some($nz::MIN_POSITIVE);
                let rest: Vec<$nz> = x
                    .shrink()
                    .filter_map($nz::new)
                    .filter(|&c| c != $nz::MIN_POSITIVE)
                    .collect();
                boxed(one.into_iter().chain(rest))
            }
        }
    )*};
}
for_each_nonzero!(shrink_nonzero);

impl Shrink for Ipv4Addr {
    /// As the `u32` it is, toward `0.0.0.0`.
    fn shrink(&self) -> Candidates<'_, Self> {
        let c: Vec<u32> = u32::from(*self).shrink().collect();
        boxed(c.into_iter().map(Ipv4Addr::from))
    }
}

impl Shrink for Ipv6Addr {
    /// As the `u128` it is, toward `::`.
    fn shrink(&self) -> Candidates<'_, Self> {
        let c: Vec<u128> = u128::from(*self).shrink().collect();
        boxed(c.into_iter().map(Ipv6Addr::from))
    }
}

impl Shrink for IpAddr {
    /// A V6 address first proposes `0.0.0.0` (V4 is simpler), then shrinks
    /// within its variant.
    fn shrink(&self) -> Candidates<'_, Self> {
        match self {
            IpAddr::V4(a) => boxed(a.shrink().map(IpAddr::V4)),
            IpAddr::V6(a) => boxed(
                std::iter::once(IpAddr::V4(Ipv4Addr::UNSPECIFIED))
                    .chain(a.shrink().map(IpAddr::V6)),
            ),
        }
    }
}

impl Shrink for SocketAddrV4 {
    /// The address, then the port.
    fn shrink(&self) -> Candidates<'_, Self> {
        let parts: Vec<(Ipv4Addr, u16)> = (*self.ip(), self.port()).shrink().collect();
        boxed(
            parts
                .into_iter()
                .map(|(ip, port)| SocketAddrV4::new(ip, port)),
        )
    }
}

impl Shrink for SocketAddrV6 {
    /// The address, the port, the flow info, then the scope id.
    fn shrink(&self) -> Candidates<'_, Self> {
        let parts: Vec<(Ipv6Addr, u16, u32, u32)> =
            (*self.ip(), self.port(), self.flowinfo(), self.scope_id())
                .shrink()
                .collect();
        boxed(
            parts
                .into_iter()
                .map(|(ip, port, flow, scope)| SocketAddrV6::new(ip, port, flow, scope)),
        )
    }
}

impl Shrink for SocketAddr {
    /// A V6 address first proposes `0.0.0.0:0` (V4 is simpler), then
    /// shrinks within its variant.
    fn shrink(&self) -> Candidates<'_, Self> {
        match self {
            SocketAddr::V4(a) => boxed(a.shrink().map(SocketAddr::V4)),
            SocketAddr::V6(a) => boxed(
                std::iter::once(SocketAddr::V4(SocketAddrV4::new(Ipv4Addr::UNSPECIFIED, 0)))
                    .chain(a.shrink().map(SocketAddr::V6)),
            ),
        }
    }
}

/// A path from a root flag and component names, when every name is one
/// component (no separator, not empty, not `.` in the middle).
fn build_path(rooted: bool, names: &[String]) -> Option<PathBuf> {
    let mut path = if rooted {
        PathBuf::from(std::path::MAIN_SEPARATOR_STR)
    } else {
        PathBuf::new()
    };
    for name in names {
        if name.is_empty() || name.contains(['/', '\\', '\0']) {
            return None;
        }
        path.push(name);
    }
    (path.components().count() == names.len() + usize::from(rooted)).then_some(path)
}

/// The rank of a character in a path component: the generator's alphabet
/// first, in order, then every other character by code point.
fn path_char_rank(c: char) -> u64 {
    match PATH_ALPHABET.iter().position(|&a| a as char == c) {
        Some(i) => i as u64,
        None => PATH_ALPHABET.len() as u64 + u64::from(c as u32),
    }
}

/// Simpler names than `name`: one character removed, or one character
/// replaced by an alphabet character of lower rank (`a`, halfway, one
/// below).
fn shrink_name(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut out = Vec::new();
    for i in 0..chars.len() {
        let mut shorter = chars.clone();
        shorter.remove(i);
        out.push(shorter.into_iter().collect());
    }
    for (i, &c) in chars.iter().enumerate() {
        let rank = path_char_rank(c).min(PATH_ALPHABET.len() as u64);
        let mut tried = Vec::new();
        for r in [0, rank / 2, rank.saturating_sub(1)] {
            if r < path_char_rank(c) && !tried.contains(&r) {
                tried.push(r);
                let mut v = chars.clone();
                v[i] = PATH_ALPHABET[r as usize] as char;
                out.push(v.into_iter().collect());
            }
        }
    }
    out
}

impl Shrink for PathBuf {
    /// A rooted path first drops its root; then all components go, then
    /// each one; then each name gets shorter or simpler (toward `a`). Only
    /// candidates that are paths of exactly those components are kept.
    /// Paths that are not UTF-8, or have a Windows prefix, do not shrink.
    fn shrink(&self) -> Candidates<'_, Self> {
        let mut rooted = false;
        let mut names = Vec::new();
        for c in self.components() {
            match c {
                Component::RootDir => rooted = true,
                Component::CurDir => names.push(".".to_owned()),
                Component::ParentDir => names.push("..".to_owned()),
                Component::Normal(s) => match s.to_str() {
                    Some(s) => names.push(s.to_owned()),
                    None => return boxed(std::iter::empty()),
                },
                Component::Prefix(_) => return boxed(std::iter::empty()),
            }
        }
        let mut candidates: Vec<(bool, Vec<String>)> = Vec::new();
        if rooted {
            candidates.push((false, names.clone()));
        }
        if names.len() > 1 {
            candidates.push((rooted, Vec::new()));
        }
        for i in 0..names.len() {
            let mut fewer = names.clone();
            fewer.remove(i);
            candidates.push((rooted, fewer));
        }
        for (i, name) in names.iter().enumerate() {
            for simpler in shrink_name(name) {
                let mut v = names.clone();
                v[i] = simpler;
                candidates.push((rooted, v));
            }
        }
        boxed(
            candidates
                .into_iter()
                .filter_map(|(rooted, names)| build_path(rooted, &names)),
        )
    }
}

impl Shrink for Cow<'static, str> {
    /// As a `String`; candidates are owned.
    fn shrink(&self) -> Candidates<'_, Self> {
        let owned: String = self.clone().into_owned();
        let c: Vec<String> = owned.shrink().collect();
        boxed(c.into_iter().map(Cow::Owned))
    }
}

impl<T: Shrink + Clone> Shrink for Cow<'static, [T]> {
    /// As a `Vec<T>`; candidates are owned.
    fn shrink(&self) -> Candidates<'_, Self> {
        let c: Vec<Vec<T>> = super::shrink_slice(self).collect();
        boxed(c.into_iter().map(Cow::Owned))
    }
}

/// The candidates of `(start, end)`; for an ordered range only ordered ones.
fn range_ends<T: Shrink + Clone + PartialOrd>(start: &T, end: &T) -> Vec<(T, T)> {
    let ordered = start <= end;
    (start.clone(), end.clone())
        .shrink()
        .filter(|(s, e)| !ordered || s <= e)
        .collect()
}

impl<T: Shrink + Clone + PartialOrd> Shrink for Range<T> {
    /// The start, then the end; an ordered range (`start <= end`) stays
    /// ordered.
    fn shrink(&self) -> Candidates<'_, Self> {
        boxed(
            range_ends(&self.start, &self.end)
                .into_iter()
                .map(|(s, e)| s..e),
        )
    }
}

impl<T: Shrink + Clone + PartialOrd> Shrink for RangeInclusive<T> {
    /// The start, then the end; an ordered range (`start <= end`) stays
    /// ordered.
    fn shrink(&self) -> Candidates<'_, Self> {
        boxed(
            range_ends(self.start(), self.end())
                .into_iter()
                .map(|(s, e)| s..=e),
        )
    }
}
