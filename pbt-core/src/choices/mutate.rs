//! Random edits of a traced choice sequence.

use super::Choices;
use crate::source::Source;

/// A random edit of a traced choice sequence (for mutation-based runners),
/// AFL "havoc" style: one to four stacked edits, each redrawing a choice
/// within its bound, nudging one by ±1, zeroing one, deleting or duplicating
/// a block, or inserting fresh choices (bounded like a neighbour) — so a
/// collection can grow by elements that are not all the simplest.
/// `bounds[i]` is the bound choice `i` was drawn with (missing bounds count
/// as `u64::MAX`).
///
/// ```
/// use pbt_core::{choices::mutate_choices, Rng};
/// let mut rng = Rng::from_seed(1);
/// let m = mutate_choices(&[3, 1, 4], &[9, 1, 9], &mut rng);
/// assert_ne!(m, vec![3, 1, 4]);
/// ```
pub fn mutate_choices<S: Source + ?Sized>(choices: &[u64], bounds: &[u64], src: &mut S) -> Choices {
    let mut out = choices.to_vec();
    let mut bnd: Vec<u64> = (0..choices.len())
        .map(|i| bounds.get(i).copied().unwrap_or(u64::MAX))
        .collect();
    let edits = 1 + src.draw(3);
    let mut done = 0;
    while done < edits || out == choices {
        done += 1;
        let n = out.len();
        if n == 0 {
            out.push(src.draw(u64::MAX));
            bnd.push(u64::MAX);
            continue;
        }
        let i = src.draw(n as u64 - 1) as usize;
        let span = 1 + src.draw((n - i - 1).min(7) as u64) as usize;
        match src.draw(6) {
            0 | 1 => out[i] = src.draw(bnd[i]),
            2 => {
                out[i] = if src.draw(1) == 0 {
                    out[i].saturating_sub(1)
                } else {
                    out[i].saturating_add(1).min(bnd[i])
                }
            }
            3 => out[i] = 0,
            4 => {
                out.drain(i..i + span);
                bnd.drain(i..i + span);
            }
            5 => {
                let (block, bblock) = (out[i..i + span].to_vec(), bnd[i..i + span].to_vec());
                out.splice(i + span..i + span, block);
                bnd.splice(i + span..i + span, bblock);
            }
            _ => {
                let fresh: Vec<u64> = (0..span).map(|k| src.draw(bnd[(i + k) % n])).collect();
                let fresh_bounds: Vec<u64> = (0..span).map(|k| bnd[(i + k) % n]).collect();
                out.splice(i + 1..i + 1, fresh);
                bnd.splice(i + 1..i + 1, fresh_bounds);
            }
        }
        if done > 64 {
            break;
        }
    }
    out
}
