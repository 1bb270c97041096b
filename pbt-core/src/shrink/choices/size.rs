//! Passes that replay the same value from other choices or at another size.
//!
//! - [`widen_size`]: replay at a larger size, the value kept (room for the
//!   passes that grow a length bounded by the size).
//! - [`shrink_size`]: replay the same choices at a smaller size.
//! - [`reencode`]: the same value in a simpler encoding (see
//!   [`reencodings`](super::reencodings)).

use super::shrinker::{ChoiceShrinker, ReplayMode, ShrinkTest, Shrinking, MAX_WIDENED_SIZE};

/// Replay the same choices at the largest size the shrinker widens to
/// ([`MAX_WIDENED_SIZE`]), else at twice
/// the size (at least 16), when that keeps the value: room for the passes
/// that grow a length bounded by the size. The largest size first: one
/// replay instead of a doubling in every round to the fixed point, each
/// round running the cheap passes again at the new size.
pub(crate) fn widen_size<T: ShrinkTest>(s: &mut ChoiceShrinker<T>) -> Shrinking {
    let cur = s.choices().to_vec();
    if s.consider_at(&cur, MAX_WIDENED_SIZE, ReplayMode::Widen)? {
        return Ok(());
    }
    let wider = s.size().saturating_mul(2).clamp(16, MAX_WIDENED_SIZE);
    s.consider_at(&cur, wider, ReplayMode::Widen)?;
    Ok(())
}

/// Replay the same choices at a smaller size: `0`, else a binary search
/// for the least size that still fails (lengths drawn in `0..=size` need
/// the size to stay as large as the failure's lists). The search ends at a
/// size that gives the value as it is ([`Trial::Unchanged`](super::Trial::Unchanged)): the sizes
/// above it clamp nothing more, so they give it too, and are no step.
pub(crate) fn shrink_size<T: ShrinkTest>(s: &mut ChoiceShrinker<T>) -> Shrinking {
    let size = s.size();
    if size == 0 {
        return Ok(());
    }
    let cur = s.choices().to_vec();
    if s.consider_at(&cur, 0, ReplayMode::Resize)? || s.unchanged() {
        return Ok(());
    }
    let (mut lo, mut hi) = (0usize, size);
    while lo + 1 < hi {
        let mid = lo + (hi - lo) / 2;
        let cur = s.choices().to_vec();
        if s.consider_at(&cur, mid, ReplayMode::Resize)? {
            hi = mid;
        } else if s.unchanged() {
            return Ok(());
        } else {
            lo = mid;
        }
    }
    Ok(())
}

/// Try [`reencodings`](super::reencodings) of the current sequence, in
/// order, until one is a step.
pub(crate) fn reencode<T: ShrinkTest>(s: &mut ChoiceShrinker<T>) -> Shrinking {
    let cur = s.choices().to_vec();
    for cand in super::reencodings(&cur) {
        if s.consider(&cand, ReplayMode::Reencode)? {
            break;
        }
    }
    Ok(())
}
