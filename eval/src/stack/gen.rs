//! The stack machine's generators, one recipe each for every library.
//!
//! - **baseline** ([`baseline`]): the generator *Flexible and Automatic
//!   TPBT* §5.1 gives Hypothesis and its tool — Löscher and Sagonas's
//!   baseline with the *weighted*, *sequence* and *smart integers*
//!   modifications of *Testing Noninterference, Quickly*
//!   (`GenSequence`, `smart_ints`, the EENI weights, initial states: the
//!   Haskell `stack/Generation.hs`): 20 to 50 instructions built in chunks
//!   — one weighted instruction, or `Push; Push; Add`, `Push; Load`,
//!   `Push; Push; Store`, `Push; Jump`, or `Push; Call` with a procedure
//!   body and a `Return` — over a memory of zeros, an empty stack and the
//!   pc at 0, then a variation (`vary` under `EquivFull`): the secret
//!   values pushed by the program are redrawn.
//! - **naive** ([`naive`]): `GenNaive`, every instruction kind equally
//!   likely, the same start and variation: the type-based strategy.

use super::machine::{Atom, Instr, Label, Machine};
use crate::stlc::gen::Draw;

/// The program length's range (`gen_instrs_range`).
pub const INSTRS: (i64, i64) = (20, 50);
/// The largest number of call arguments (`conf_max_call_args`).
pub const MAX_CALL_ARGS: i64 = 2;
/// QuickCheck's largest size, for the memory's length.
pub const MAX_SIZE: usize = 99;

/// `choose (lo, hi)`, inclusive.
fn choose<D: Draw + ?Sized>(d: &mut D, lo: i64, hi: i64) -> i64 {
    if hi < lo {
        return lo;
    }
    lo + d.below((hi - lo + 1) as u64) as i64
}

/// `frequency`: an index drawn by weight.
fn freq<D: Draw + ?Sized>(d: &mut D, weights: &[u64]) -> usize {
    let total: u64 = weights.iter().sum();
    let mut n = d.below(total.max(1));
    for (i, w) in weights.iter().enumerate() {
        if n < *w {
            return i;
        }
        n -= w;
    }
    weights.len() - 1
}

/// A uniform label.
fn label<D: Draw + ?Sized>(d: &mut D) -> Label {
    if d.below(2) == 0 {
        Label::L
    } else {
        Label::H
    }
}

/// A uniform boolean.
fn boolean<D: Draw + ?Sized>(d: &mut D) -> bool {
    d.below(2) == 1
}

/// `int`: uniform in `-10..=10`.
fn int<D: Draw + ?Sized>(d: &mut D) -> i64 {
    choose(d, -10, 10)
}

/// `labeled g`: a label, then a value.
fn labeled<D: Draw + ?Sized>(d: &mut D, g: impl FnOnce(&mut D) -> i64) -> Atom {
    let l = label(d);
    Atom { v: g(d), l }
}

/// What the generator knows: the program's and the memory's sizes.
#[derive(Clone, Copy, Debug)]
struct Sizes {
    imem: i64,
    mem: i64,
}

impl Sizes {
    /// `smartInt`: an integer, a memory address or a code address, equally
    /// likely (the addresses one past the end included, as in Haskell).
    fn smart_int<D: Draw + ?Sized>(self, d: &mut D) -> i64 {
        match freq(d, &[1, 1, 1]) {
            0 => int(d),
            1 => choose(d, 0, self.mem),
            _ => choose(d, 0, self.imem),
        }
    }
}

/// The instruction weights (`weights_EENI` from an initial state, with
/// `genSequence`'s changes: no calls or returns, halts at 120).
fn weighted_instr<D: Draw + ?Sized>(d: &mut D, s: Sizes, naive: bool) -> Instr {
    // Noop, Halt, Add, Push, Pop, Store, Load, Call, Return, Jump.
    let weights: [u64; 10] = if naive {
        [1; 10]
    } else {
        [40, 120, 40, 400, 40, 40, 40, 0, 0, 40]
    };
    match freq(d, &weights) {
        0 => Instr::Noop,
        1 => Instr::Halt,
        2 => Instr::Add,
        3 => Instr::Push(labeled(d, |d| s.smart_int(d))),
        4 => Instr::Pop,
        5 => Instr::Store,
        6 => Instr::Load,
        7 => Instr::Call(choose(d, 0, MAX_CALL_ARGS) as u8, boolean(d)),
        8 => Instr::Return(boolean(d)),
        _ => Instr::Jump,
    }
}

/// `genInstrMem`: chunks until `max` instructions, each chunk put in
/// front of the ones before (as the Haskell `instrs ++ acc`).
fn instr_mem<D: Draw + ?Sized>(d: &mut D, s: Sizes, max: i64) -> Vec<Instr> {
    let mut acc: Vec<Instr> = Vec::new();
    let mut i = 0;
    while i < max {
        let chunk = match freq(d, &[10, 1, 1, 1, 1, 1]) {
            0 => vec![weighted_instr(d, s, false)],
            1 => {
                let a = labeled(d, |d| s.smart_int(d));
                let b = labeled(d, |d| s.smart_int(d));
                vec![Instr::Push(a), Instr::Push(b), Instr::Add]
            }
            2 => vec![
                Instr::Push(labeled(d, |d| choose(d, 0, s.mem))),
                Instr::Load,
            ],
            3 => {
                let v = labeled(d, |d| s.smart_int(d));
                let a = labeled(d, |d| choose(d, 0, s.mem));
                vec![Instr::Push(v), Instr::Push(a), Instr::Store]
            }
            4 => vec![
                Instr::Push(labeled(d, |d| choose(d, 0, s.imem))),
                Instr::Jump,
            ],
            _ => {
                let args = choose(d, 0, MAX_CALL_ARGS) as u8;
                let ret = boolean(d);
                let addr = labeled(d, |d| choose(d, 0, s.imem));
                let proc_size = choose(d, 0, (max - i) / 2);
                let body = instr_mem(d, s, proc_size);
                let b = boolean(d);
                let mut c = vec![Instr::Push(addr), Instr::Call(args, ret)];
                c.extend(body);
                c.push(Instr::Return(b));
                c
            }
        };
        i += chunk.len() as i64;
        let mut next = chunk;
        next.extend(acc);
        acc = next;
    }
    acc
}

/// `vary` under `EquivFull` from an initial state: every secret value the
/// program pushes is redrawn (`varyInt`: a memory address or a code
/// address ten times as often as an integer when it was one).
pub fn vary<D: Draw + ?Sized>(d: &mut D, m: &Machine) -> Machine {
    let (nmem, nimem) = (m.mem.len() as i64, m.imem.len() as i64);
    let imem = m
        .imem
        .iter()
        .map(|i| match i {
            Instr::Push(a) if a.l == Label::H => {
                // (weight, 0: a memory address, 1: a code address, 2: an integer)
                let mut options: Vec<(u64, u8)> = Vec::new();
                if (0..nmem).contains(&a.v) {
                    options.push((10, 0));
                }
                if (0..nimem).contains(&a.v) {
                    options.push((10, 1));
                }
                options.push((1, 2));
                let weights: Vec<u64> = options.iter().map(|o| o.0).collect();
                let v = match options[freq(d, &weights)].1 {
                    0 => choose(d, 0, nmem - 1),
                    1 => choose(d, 0, nimem - 1),
                    _ => int(d),
                };
                Instr::Push(Atom { v, l: Label::H })
            }
            i => *i,
        })
        .collect();
    Machine { imem, ..m.clone() }
}

/// An initial machine and a variation of it, at QuickCheck size `size`:
/// the baseline generator, or with `naive` every instruction kind equally
/// likely and no chunks.
pub fn pair<D: Draw + ?Sized>(d: &mut D, size: usize, naive: bool) -> (Machine, Machine) {
    let size = size.min(MAX_SIZE) as i64;
    let amem_size = choose(d, 0, size);
    // initMem: `listOf (pure 0@L)`.
    let mem_len = choose(d, 0, size);
    let mem = vec![Atom { v: 0, l: Label::L }; mem_len as usize];
    let n = choose(d, INSTRS.0, INSTRS.1);
    let s = Sizes {
        imem: n,
        mem: amem_size,
    };
    let imem = if naive {
        (0..n).map(|_| weighted_instr(d, s, true)).collect()
    } else {
        instr_mem(d, s, n)
    };
    let m = Machine {
        mem,
        imem,
        stk: Vec::new(),
        pc: Atom { v: 0, l: Label::L },
    };
    let m2 = vary(d, &m);
    (m, m2)
}

/// The baseline generator's pair.
pub fn baseline<D: Draw + ?Sized>(d: &mut D, size: usize) -> (Machine, Machine) {
    pair(d, size, false)
}

/// The naive (type-based) generator's pair.
pub fn naive<D: Draw + ?Sized>(d: &mut D, size: usize) -> (Machine, Machine) {
    pair(d, size, true)
}
