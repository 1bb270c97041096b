//! Indistinguishability, well-formedness and single-step noninterference
//! (ETNA's `Indist.v`, `Reachability.v` and `SSNI.v`).

use super::machine::{fstep, Atom, Block, Frame, Label, Memory, Mutant, StackFrame, State, Value};

/// A pair of states and the observer's label (`Variation`): the input of
/// SSNI.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Variation {
    /// The observer: what flows to it is visible.
    pub obs: Label,
    /// The first state.
    pub st1: State,
    /// The second state.
    pub st2: State,
}

/// Atoms: equal labels, and equal values when visible (`indistAtom`).
pub fn atom(obs: Label, a1: &Atom, a2: &Atom) -> bool {
    a1.l == a2.l && (!a1.l.flows(obs) || a1.v == a2.v)
}

/// Lists of atoms: the same length, pointwise indistinguishable.
pub fn atoms(obs: Label, xs: &[Atom], ys: &[Atom]) -> bool {
    xs.len() == ys.len() && xs.iter().zip(ys).all(|(a, b)| atom(obs, a, b))
}

/// Frames (`indistFrame`).
fn frame(obs: Label, f1: &Frame, f2: &Frame) -> bool {
    f1.lab == f2.lab && (!f1.lab.flows(obs) || atoms(obs, &f1.data, &f2.data))
}

/// One direction of memory indistinguishability (`indistMemAsym`): every
/// block of `m1` stamped below the observer is indistinguishable in `m2`.
fn mem_asym(obs: Label, m1: &Memory, m2: &Memory) -> bool {
    m1.blocks(obs.below())
        .into_iter()
        .all(|b| match (m1.get(b), m2.get(b)) {
            (None, None) => true,
            (Some(f1), Some(f2)) => frame(obs, f1, f2),
            _ => false,
        })
}

/// Memories (`indistMem`).
pub fn memory(obs: Label, m1: &Memory, m2: &Memory) -> bool {
    mem_asym(obs, m1, m2) && mem_asym(obs, m2, m1)
}

/// Stack frames (`indistStackFrame`): when either returns to a visible
/// pc, everything but the high registers' values must agree.
fn stack_frame(obs: Label, s1: &StackFrame, s2: &StackFrame) -> bool {
    !(s1.ret.l.flows(obs) || s2.ret.l.flows(obs))
        || (s1.ret == s2.ret
            && atoms(obs, &s1.regs, &s2.regs)
            && s1.target == s2.target
            && s1.lab == s2.lab)
}

/// Stacks: the same length, pointwise indistinguishable.
fn stack(obs: Label, s1: &[StackFrame], s2: &[StackFrame]) -> bool {
    s1.len() == s2.len() && s1.iter().zip(s2).all(|(a, b)| stack_frame(obs, a, b))
}

/// The stack from its first frame that returns to a visible pc (`cropTop`).
fn crop_top(obs: Label, s: &[StackFrame]) -> &[StackFrame] {
    let i = s.iter().position(|f| f.ret.l.flows(obs)).unwrap_or(s.len());
    &s[i..]
}

/// States (`indistSState`): the same program, indistinguishable memories,
/// and — when either pc is visible — the same pc, stacks and registers
/// indistinguishable; otherwise the stacks from their first visible frame.
pub fn state(obs: Label, s1: &State, s2: &State) -> bool {
    s1.imem == s2.imem
        && memory(obs, &s1.mem, &s2.mem)
        && if s1.pc.l.flows(obs) || s2.pc.l.flows(obs) {
            s1.pc == s2.pc && stack(obs, &s1.stack, &s2.stack) && atoms(obs, &s1.regs, &s2.regs)
        } else {
            stack(obs, crop_top(obs, &s1.stack), crop_top(obs, &s2.stack))
        }
}

/// The blocks of the pointers in `atoms` visible to `obs`
/// (`get_mframes_from_atoms`).
fn low_pointers(obs: Label, atoms: &[Atom], out: &mut Vec<Block>) {
    for a in atoms {
        if let Value::Ptr(b, _) = a.v {
            if a.l.flows(obs) && !out.contains(&b) {
                out.push(b);
            }
        }
    }
}

/// The blocks `obs` can reach (`reachable`): from the visible pointers in
/// the registers (when the pc is visible) and in the visible stack frames,
/// through visible pointers in frames whose label is visible.
pub fn reachable(obs: Label, st: &State) -> Vec<Block> {
    let mut work = Vec::new();
    if st.pc.l.flows(obs) {
        low_pointers(obs, &st.regs, &mut work);
    }
    for f in &st.stack {
        if f.ret.l.flows(obs) {
            low_pointers(obs, &f.regs, &mut work);
        }
    }
    let mut visited: Vec<Block> = Vec::new();
    while let Some(b) = work.pop() {
        if visited.contains(&b) {
            continue;
        }
        visited.push(b);
        if let Some(fr) = st.mem.get(b) {
            if fr.lab.flows(obs) {
                low_pointers(obs, &fr.data, &mut work);
            }
        }
    }
    visited
}

/// Well-formedness (`well_formed`): for every label, every block it can
/// reach is stamped below it.
pub fn well_formed(st: &State) -> bool {
    Label::ALL
        .iter()
        .all(|&l| reachable(l, st).iter().all(|b| b.stamp.flows(l)))
}

/// SSNI's precondition: the pair is indistinguishable and both states are
/// well-formed.
pub fn precondition(v: &Variation) -> bool {
    state(v.obs, &v.st1, &v.st2) && well_formed(&v.st1) && well_formed(&v.st2)
}

/// Single-step noninterference (`propSSNI_smart`) for a pair that meets
/// the precondition: `None` when a machine is stuck (ETNA discards those),
/// else whether the property holds.
///
/// - From a visible pc both machines step, and the results must be
///   indistinguishable and well-formed.
/// - From a hidden pc that the first machine leaves for a visible one, if
///   the second does too their results must be indistinguishable.
/// - From a hidden pc that stays hidden, the first machine's step must be
///   indistinguishable from where it started.
pub fn ssni(t: Mutant, v: &Variation) -> Option<bool> {
    let obs = v.obs;
    let st1 = fstep(t, &v.st1)?;
    let low = |s: &State| s.pc.l.flows(obs);
    if low(&v.st1) {
        let st2 = fstep(t, &v.st2)?;
        Some(state(obs, &st1, &st2) && well_formed(&st1) && well_formed(&st2))
    } else if low(&st1) {
        let st2 = fstep(t, &v.st2)?;
        Some(!low(&st2) || (state(obs, &st1, &st2) && well_formed(&st1) && well_formed(&st2)))
    } else {
        Some(state(obs, &v.st1, &st1) && well_formed(&st1))
    }
}

/// How far `v` is from the precondition, for the targeted runner: the
/// number of its parts (program, memory blocks, pc, stack frames,
/// registers, and the two well-formedness checks) that break it; 0
/// exactly when [`precondition`] holds.
pub fn defects(v: &Variation) -> u64 {
    let obs = v.obs;
    let (s1, s2) = (&v.st1, &v.st2);
    let mut n = 0u64;
    // The program: every differing instruction, and the difference in length.
    n += s1.imem.iter().zip(&s2.imem).filter(|(a, b)| a != b).count() as u64;
    n += s1.imem.len().abs_diff(s2.imem.len()) as u64;
    // The memory: each visible block that differs, or that one side lacks.
    for stamp in obs.below() {
        let (f1, f2) = (
            &s1.mem.frames[stamp as usize],
            &s2.mem.frames[stamp as usize],
        );
        n += f1.len().abs_diff(f2.len()) as u64;
        n += f1.iter().zip(f2).filter(|(a, b)| !frame(obs, a, b)).count() as u64;
    }
    let lists = |xs: &[Atom], ys: &[Atom]| {
        xs.len().abs_diff(ys.len()) as u64
            + xs.iter().zip(ys).filter(|(a, b)| !atom(obs, a, b)).count() as u64
    };
    let frames = |xs: &[StackFrame], ys: &[StackFrame]| {
        xs.len().abs_diff(ys.len()) as u64
            + xs.iter()
                .zip(ys)
                .filter(|(a, b)| !stack_frame(obs, a, b))
                .count() as u64
    };
    if s1.pc.l.flows(obs) || s2.pc.l.flows(obs) {
        n += u64::from(s1.pc != s2.pc);
        n += frames(&s1.stack, &s2.stack);
        n += lists(&s1.regs, &s2.regs);
    } else {
        n += frames(crop_top(obs, &s1.stack), crop_top(obs, &s2.stack));
    }
    n += u64::from(!well_formed(s1)) + u64::from(!well_formed(s2));
    n
}
