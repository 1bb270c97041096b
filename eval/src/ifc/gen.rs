//! The IFC generators, one recipe each for every library.
//!
//! - **bespoke** ([`variation`]): ETNA's `gen_variation_SState`
//!   (`Strategies/BespokeGenerator.v`). Two frames of two atoms stamped `L`
//!   (labels uniform), a program of two copies of one instruction chosen
//!   by `ainstrSSNI` from what the registers hold (its weights favour
//!   `Alloc`, `Store`, `Write` and `BRet`), ten registers, a stack of at
//!   most one frame, then the observer (uniform) and a *variation* of the
//!   state (`smart_vary`): what the observer cannot see is redrawn, so the
//!   pair is indistinguishable by construction.
//! - **type-based** ([`arbitrary_variation`]): QuickChick's derived
//!   `Arbitrary` for `Variation` (ETNA's `TypeBasedGenerator`): every
//!   constructor uniform, integers in `-n..=n` and lists of `0..=n`
//!   elements at the size `n`; the two states are drawn independently, so
//!   the pair is almost never indistinguishable.
//! - **variational** ([`copied_variation`]): ETNA's `gen_variation_copy`
//!   (`VariationalFuzzer`): a type-based state paired with itself, which
//!   the fuzzer's mutator then pulls apart.
//!
//! Sizes are QuickChick's: `0..=7` (its `defSize`). pbt scales its
//! schedule's size (`0..=100`) to that range; proptest and quickcheck draw
//! it uniformly per input.

use super::machine::{
    Atom, BinOpT, Block, Frame, Instr, Label, Memory, PtrAtom, Reg, StackFrame, State, Value,
};
use super::spec::Variation;
use crate::stlc::gen::Draw;

/// QuickChick's largest size (`defSize`).
pub const MAX_SIZE: usize = 7;
/// The bespoke generator's program length (`C.code_len`).
pub const CODE_LEN: i64 = 2;
/// The bespoke generator's register count (`C.no_registers`).
pub const NO_REGS: usize = 10;

/// pbt's size (`0..=100`) as a QuickChick size.
pub fn qc_size(size: usize) -> usize {
    size.min(100) * MAX_SIZE / 100
}

/// `elems_`: uniform among `xs`, `default` when there are none.
fn elems<T: Copy, D: Draw + ?Sized>(d: &mut D, xs: &[T], default: T) -> T {
    if xs.is_empty() {
        default
    } else {
        xs[d.below(xs.len() as u64) as usize]
    }
}

/// `freq_`: an index drawn by weight (zero weights never); `None` when
/// every weight is 0.
fn freq<D: Draw + ?Sized>(d: &mut D, weights: &[u64]) -> Option<usize> {
    let total: u64 = weights.iter().sum();
    if total == 0 {
        return None;
    }
    let mut n = d.below(total);
    for (i, w) in weights.iter().enumerate() {
        if n < *w {
            return Some(i);
        }
        n -= w;
    }
    None
}

/// `choose (lo, hi)`, inclusive.
fn choose<D: Draw + ?Sized>(d: &mut D, lo: i64, hi: i64) -> i64 {
    if hi < lo {
        return lo;
    }
    lo + d.below((hi - lo + 1) as u64) as i64
}

/// A uniform label (`gen_label`).
pub fn label<D: Draw + ?Sized>(d: &mut D) -> Label {
    Label::ALL[d.below(4) as usize]
}

/// QuickChick's `arbitrary` for `Z` at size `n`: uniform in `-n..=n`.
fn z<D: Draw + ?Sized>(d: &mut D, n: usize) -> i64 {
    choose(d, -(n as i64), n as i64)
}

/// What the bespoke generator knows about the state it builds (`Info`).
#[derive(Clone, Debug)]
pub struct Info {
    /// The default block (the first of `dfs`).
    pub def: Block,
    /// The frames and their lengths.
    pub dfs: Vec<(Block, i64)>,
    /// QuickChick's size, for `arbitrary` integers.
    pub size: usize,
}

/// `gen_int`: small integers, 0, and valid code addresses.
fn gen_int<D: Draw + ?Sized>(d: &mut D, inf: &Info) -> i64 {
    match freq(d, &[10, 1, 10]) {
        Some(0) => z(d, inf.size),
        Some(2) => choose(d, 0, CODE_LEN - 1),
        _ => 0,
    }
}

/// `gen_pointer`: into one of the frames.
fn gen_pointer<D: Draw + ?Sized>(d: &mut D, inf: &Info) -> Value {
    let (b, len) = elems(d, &inf.dfs, (inf.def, 0));
    let off = choose(d, 0, len - 1);
    Value::Ptr(b, off)
}

/// `gen_value`: an integer, a pointer or a label, equally likely.
fn gen_value<D: Draw + ?Sized>(d: &mut D, inf: &Info) -> Value {
    match d.below(3) {
        0 => Value::Int(gen_int(d, inf)),
        1 => gen_pointer(d, inf),
        _ => Value::Lab(label(d)),
    }
}

/// `gen_atom`.
fn gen_atom<D: Draw + ?Sized>(d: &mut D, inf: &Info) -> Atom {
    let v = gen_value(d, inf);
    Atom { v, l: label(d) }
}

/// `gen_PC`.
fn gen_pc<D: Draw + ?Sized>(d: &mut D) -> PtrAtom {
    let l = label(d);
    PtrAtom {
        addr: choose(d, 0, CODE_LEN - 1),
        l,
    }
}

/// `gen_registers`.
fn gen_regs<D: Draw + ?Sized>(d: &mut D, inf: &Info) -> Vec<Atom> {
    (0..NO_REGS).map(|_| gen_atom(d, inf)).collect()
}

/// `smart_gen_stack`: empty once in ten, else one frame.
fn gen_stack<D: Draw + ?Sized>(d: &mut D, inf: &Info) -> Vec<StackFrame> {
    if freq(d, &[1, 9]) != Some(1) {
        return Vec::new();
    }
    let regs = gen_regs(d, inf);
    let ret = gen_pc(d);
    let target = choose(d, 0, NO_REGS as i64 - 1);
    let lab = label(d);
    vec![StackFrame {
        ret,
        regs,
        target,
        lab,
    }]
}

/// `ainstrSSNI`: an instruction that the registers make likely to run.
pub fn ainstr<D: Draw + ?Sized>(d: &mut D, st: &State, size: usize) -> Instr {
    let (mut dptr, mut cptr, mut num, mut lab) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (n, a) in st.regs.iter().enumerate() {
        let n = n as Reg;
        match a.v {
            Value::Int(i) => {
                if 0 <= i && i < st.imem.len() as i64 {
                    cptr.push(n);
                }
                num.push(n);
            }
            Value::Ptr(..) => dptr.push(n),
            Value::Lab(_) => lab.push(n),
        }
    }
    let some = |xs: &Vec<Reg>, w: u64| if xs.is_empty() { 0 } else { w };
    let reg = |d: &mut D| choose(d, 0, st.regs.len() as i64 - 1);
    let weights = [
        1,                                        // Nop
        0,                                        // Halt
        10,                                       // PcLab
        10,                                       // Lab
        some(&dptr, 10),                          // MLab
        10,                                       // PutLab
        10 * some(&cptr, 1) * some(&lab, 1),      // BCall
        if st.stack.is_empty() { 0 } else { 50 }, // BRet
        200 * some(&num, 1) * some(&lab, 1),      // Alloc
        some(&dptr, 10),                          // Load
        some(&dptr, 100),                         // Store
        some(&dptr, 100),                         // Write
        some(&cptr, 10),                          // Jump
        some(&num, 10),                           // BNZ
        10 * some(&dptr, 1) * some(&num, 1),      // PSetOff
        10,                                       // Put
        some(&num, 10),                           // BinOp
        some(&dptr, 10),                          // MSize
        some(&dptr, 10),                          // PGetOff
        10,                                       // Mov
    ];
    match freq(d, &weights) {
        Some(2) => Instr::PcLab(reg(d)),
        Some(3) => Instr::Lab(reg(d), reg(d)),
        Some(4) => Instr::MLab(elems(d, &dptr, 0), reg(d)),
        Some(5) => Instr::PutLab(label(d), reg(d)),
        Some(6) => Instr::BCall(elems(d, &cptr, 0), elems(d, &lab, 0), reg(d)),
        Some(7) => Instr::BRet,
        Some(8) => Instr::Alloc(elems(d, &num, 0), elems(d, &lab, 0), reg(d)),
        Some(9) => Instr::Load(elems(d, &dptr, 0), reg(d)),
        Some(10) => Instr::Store(elems(d, &dptr, 0), reg(d)),
        Some(11) => Instr::Write(elems(d, &dptr, 0), reg(d)),
        Some(12) => Instr::Jump(elems(d, &cptr, 0)),
        Some(13) => Instr::Bnz(choose(d, -1, 2), elems(d, &num, 0)),
        Some(14) => Instr::PSetOff(elems(d, &dptr, 0), elems(d, &num, 0), reg(d)),
        Some(15) => Instr::Put(z(d, size), reg(d)),
        Some(16) => Instr::BinOp(
            BinOpT::ALL[d.below(5) as usize],
            elems(d, &num, 0),
            elems(d, &num, 0),
            reg(d),
        ),
        Some(17) => Instr::MSize(elems(d, &dptr, 0), reg(d)),
        Some(18) => Instr::PGetOff(elems(d, &dptr, 0), reg(d)),
        Some(19) => Instr::Mov(reg(d), reg(d)),
        _ => Instr::Nop,
    }
}

/// `gen_vary_atom`: a hidden atom gets another value (of the same kind
/// nine times in ten), a visible one stays.
fn vary_atom<D: Draw + ?Sized>(d: &mut D, obs: Label, inf: &Info, a: Atom) -> Atom {
    if a.l.flows(obs) {
        return a;
    }
    let v = if freq(d, &[1, 9]) == Some(0) {
        gen_value(d, inf)
    } else {
        match a.v {
            Value::Int(_) => Value::Int(gen_int(d, inf)),
            Value::Ptr(..) => gen_pointer(d, inf),
            Value::Lab(_) => Value::Lab(label(d)),
        }
    };
    Atom { v, l: a.l }
}

/// `gen_high_label`: a label the observer cannot see.
fn high_label<D: Draw + ?Sized>(d: &mut D, obs: Label) -> Label {
    let highs: Vec<Label> = Label::ALL.into_iter().filter(|l| !l.flows(obs)).collect();
    elems(d, &highs, Label::H)
}

/// `gen_vary_pc`: a hidden pc moves anywhere, staying hidden.
fn vary_pc<D: Draw + ?Sized>(d: &mut D, obs: Label, pc: PtrAtom) -> PtrAtom {
    if pc.l.flows(obs) {
        return pc;
    }
    let addr = choose(d, 0, CODE_LEN - 1);
    PtrAtom {
        addr,
        l: high_label(d, obs),
    }
}

/// `gen_var_frame`: a hidden frame gets new contents, one atom longer
/// half the time; a visible one has its atoms varied.
fn vary_frame<D: Draw + ?Sized>(d: &mut D, obs: Label, inf: &Info, f: &Frame) -> Frame {
    let data = if !f.lab.flows(obs) {
        let len = choose(d, f.data.len() as i64, f.data.len() as i64 + 1);
        (0..len).map(|_| gen_atom(d, inf)).collect()
    } else {
        f.data.iter().map(|a| vary_atom(d, obs, inf, *a)).collect()
    };
    Frame { lab: f.lab, data }
}

/// `gen_vary_memory`: every frame, stamp by stamp.
fn vary_memory<D: Draw + ?Sized>(d: &mut D, obs: Label, inf: &Info, m: &Memory) -> Memory {
    let mut out = m.clone();
    for b in m.blocks(Label::ALL.into_iter()) {
        if let Some(f) = m.get(b) {
            let f2 = vary_frame(d, obs, inf, f);
            if let Some(slot) = out.get_mut(b) {
                *slot = f2;
            }
        }
    }
    out
}

/// `gen_vary_stack_loc`: a frame returning to a visible pc has its
/// registers varied; one returning to a hidden pc is redrawn (hidden).
fn vary_stack_frame<D: Draw + ?Sized>(
    d: &mut D,
    obs: Label,
    inf: &Info,
    s: &StackFrame,
) -> StackFrame {
    if s.ret.l.flows(obs) {
        StackFrame {
            regs: s.regs.iter().map(|a| vary_atom(d, obs, inf, *a)).collect(),
            ..s.clone()
        }
    } else {
        let regs = gen_regs(d, inf);
        let ret = vary_pc(d, obs, s.ret);
        let lab = label(d);
        let target = choose(d, 0, NO_REGS as i64 - 1);
        StackFrame {
            ret,
            regs,
            target,
            lab,
        }
    }
}

/// `gen_vary_SState`: a variation of `st` that `obs` cannot tell apart.
pub fn vary_state<D: Draw + ?Sized>(d: &mut D, obs: Label, inf: &Info, st: &State) -> State {
    if st.pc.l.flows(obs) {
        let regs = st.regs.iter().map(|a| vary_atom(d, obs, inf, *a)).collect();
        let mem = vary_memory(d, obs, inf, &st.mem);
        let stack = st
            .stack
            .iter()
            .map(|s| vary_stack_frame(d, obs, inf, s))
            .collect();
        State {
            imem: st.imem.clone(),
            mem,
            stack,
            regs,
            pc: st.pc,
        }
    } else {
        let pc = vary_pc(d, obs, st.pc);
        let mem = vary_memory(d, obs, inf, &st.mem);
        let stack = st
            .stack
            .iter()
            .map(|s| vary_stack_frame(d, obs, inf, s))
            .collect();
        let regs = gen_regs(d, inf);
        State {
            imem: st.imem.clone(),
            mem,
            stack,
            regs,
            pc,
        }
    }
}

/// ETNA's bespoke generator (`gen_variation_SState`) at QuickChick size
/// `size` (`0..=7`).
pub fn variation<D: Draw + ?Sized>(d: &mut D, size: usize) -> Variation {
    // gen_init_mem: two frames of two zeros, labels uniform, stamp L.
    let mut mem = Memory::default();
    let mut dfs = Vec::new();
    for _ in 0..2 {
        let lab = label(d);
        let b = mem.alloc(
            Label::L,
            Frame {
                lab,
                data: vec![
                    Atom {
                        v: Value::Int(0),
                        l: Label::L
                    };
                    2
                ],
            },
        );
        dfs.insert(0, (b, 2));
    }
    let inf = Info {
        def: dfs[0].0,
        dfs,
        size: size.min(MAX_SIZE),
    };
    let pc = gen_pc(d);
    let regs = gen_regs(d, &inf);
    let stack = gen_stack(d, &inf);
    // populate_memory, frame by frame in `dfs` order.
    for (b, len) in inf.dfs.clone() {
        let data = (0..len).map(|_| gen_atom(d, &inf)).collect();
        if let Some(f) = mem.get_mut(b) {
            f.data = data;
        }
    }
    let mut st = State {
        imem: vec![Instr::Nop; CODE_LEN as usize],
        mem,
        stack,
        regs,
        pc,
    };
    let instr = ainstr(d, &st, inf.size);
    st.imem = vec![instr; CODE_LEN as usize];
    let obs = label(d);
    let st2 = vary_state(d, obs, &inf, &st);
    Variation { obs, st1: st, st2 }
}

// ---------------------------------------------------------------------------
// The type-based recipe (QuickChick's derived generators).

/// A list of `0..=n` elements.
fn list<T, D: Draw + ?Sized>(d: &mut D, n: usize, mut f: impl FnMut(&mut D) -> T) -> Vec<T> {
    let k = d.below(n as u64 + 1);
    (0..k).map(|_| f(d)).collect()
}

/// A derived instruction: every constructor equally likely.
pub fn arbitrary_instr<D: Draw + ?Sized>(d: &mut D, n: usize) -> Instr {
    match d.below(20) {
        0 => Instr::Put(z(d, n), z(d, n)),
        1 => Instr::Mov(z(d, n), z(d, n)),
        2 => Instr::Load(z(d, n), z(d, n)),
        3 => Instr::Store(z(d, n), z(d, n)),
        4 => Instr::Write(z(d, n), z(d, n)),
        5 => Instr::BinOp(BinOpT::ALL[d.below(5) as usize], z(d, n), z(d, n), z(d, n)),
        6 => Instr::Nop,
        7 => Instr::Halt,
        8 => Instr::Jump(z(d, n)),
        9 => Instr::Bnz(z(d, n), z(d, n)),
        10 => Instr::BCall(z(d, n), z(d, n), z(d, n)),
        11 => Instr::BRet,
        12 => Instr::Lab(z(d, n), z(d, n)),
        13 => Instr::PcLab(z(d, n)),
        14 => Instr::PutLab(label(d), z(d, n)),
        15 => Instr::Alloc(z(d, n), z(d, n), z(d, n)),
        16 => Instr::PGetOff(z(d, n), z(d, n)),
        17 => Instr::PSetOff(z(d, n), z(d, n), z(d, n)),
        18 => Instr::MSize(z(d, n), z(d, n)),
        _ => Instr::MLab(z(d, n), z(d, n)),
    }
}

/// A derived block: an index (`Z`) and a stamp.
fn arbitrary_block<D: Draw + ?Sized>(d: &mut D, n: usize) -> Block {
    Block {
        index: z(d, n),
        stamp: label(d),
    }
}

/// A derived value.
pub fn arbitrary_value<D: Draw + ?Sized>(d: &mut D, n: usize) -> Value {
    match d.below(3) {
        0 => Value::Int(z(d, n)),
        1 => Value::Ptr(arbitrary_block(d, n), z(d, n)),
        _ => Value::Lab(label(d)),
    }
}

/// A derived atom.
pub fn arbitrary_atom<D: Draw + ?Sized>(d: &mut D, n: usize) -> Atom {
    Atom {
        v: arbitrary_value(d, n),
        l: label(d),
    }
}

/// A derived pc.
fn arbitrary_pc<D: Draw + ?Sized>(d: &mut D, n: usize) -> PtrAtom {
    PtrAtom {
        addr: z(d, n),
        l: label(d),
    }
}

/// A derived stack frame.
pub fn arbitrary_stack_frame<D: Draw + ?Sized>(d: &mut D, n: usize) -> StackFrame {
    StackFrame {
        ret: arbitrary_pc(d, n),
        regs: list(d, n, |d| arbitrary_atom(d, n)),
        target: z(d, n),
        lab: label(d),
    }
}

/// A derived frame.
pub fn arbitrary_frame<D: Draw + ?Sized>(d: &mut D, n: usize) -> Frame {
    Frame {
        lab: label(d),
        data: list(d, n, |d| arbitrary_atom(d, n)),
    }
}

/// A derived memory (`genSizedMap`): `n` stamps, each with a list of
/// frames, later ones replacing earlier ones.
pub fn arbitrary_memory<D: Draw + ?Sized>(d: &mut D, n: usize) -> Memory {
    let keys: Vec<Label> = (0..n).map(|_| label(d)).collect();
    let mut m = Memory::default();
    for k in keys {
        m.frames[k as usize] = list(d, n, |d| arbitrary_frame(d, n));
    }
    m
}

/// A derived state.
pub fn arbitrary_state<D: Draw + ?Sized>(d: &mut D, n: usize) -> State {
    State {
        imem: list(d, n, |d| arbitrary_instr(d, n)),
        mem: arbitrary_memory(d, n),
        stack: list(d, n, |d| arbitrary_stack_frame(d, n)),
        regs: list(d, n, |d| arbitrary_atom(d, n)),
        pc: arbitrary_pc(d, n),
    }
}

/// QuickChick's derived `Variation` generator (ETNA's type-based strategy)
/// at size `n`.
pub fn arbitrary_variation<D: Draw + ?Sized>(d: &mut D, n: usize) -> Variation {
    let n = n.min(MAX_SIZE);
    Variation {
        obs: label(d),
        st1: arbitrary_state(d, n),
        st2: arbitrary_state(d, n),
    }
}

/// ETNA's `gen_variation_copy`: a derived state paired with itself.
pub fn copied_variation<D: Draw + ?Sized>(d: &mut D, n: usize) -> Variation {
    let n = n.min(MAX_SIZE);
    let obs = label(d);
    let st = arbitrary_state(d, n);
    Variation {
        obs,
        st1: st.clone(),
        st2: st,
    }
}

// ---------------------------------------------------------------------------
// The type-based mutator (QuickChick's derived `Fuzzy`, with ETNA's
// `FuzzyZ`: an integer moves by at most 5).

/// An integer nudged by `-5..=5` (`FuzzyZ`).
fn fuzz_z<D: Draw + ?Sized>(d: &mut D, x: i64) -> i64 {
    x.wrapping_add(choose(d, -5, 5))
}

/// An atom with its value or its label changed.
fn fuzz_atom<D: Draw + ?Sized>(d: &mut D, a: Atom, n: usize) -> Atom {
    match d.below(3) {
        0 => Atom { l: label(d), ..a },
        1 => Atom {
            v: match a.v {
                Value::Int(i) => Value::Int(fuzz_z(d, i)),
                Value::Ptr(b, off) => Value::Ptr(b, fuzz_z(d, off)),
                Value::Lab(_) => Value::Lab(label(d)),
            },
            ..a
        },
        _ => arbitrary_atom(d, n),
    }
}

/// A list with one element changed by `f`, one fresh element inserted, or
/// one removed.
fn fuzz_list<T: Clone, D: Draw + ?Sized>(
    d: &mut D,
    xs: &mut Vec<T>,
    fresh: impl FnOnce(&mut D) -> T,
    change: impl FnOnce(&mut D, &T) -> T,
) {
    match d.below(4) {
        0 => {
            let at = d.below(xs.len() as u64 + 1) as usize;
            let x = fresh(d);
            xs.insert(at, x);
        }
        1 if !xs.is_empty() => {
            let at = d.below(xs.len() as u64) as usize;
            xs.remove(at);
        }
        _ if !xs.is_empty() => {
            let at = d.below(xs.len() as u64) as usize;
            xs[at] = change(d, &xs[at]);
        }
        _ => {
            let x = fresh(d);
            xs.push(x);
        }
    }
}

/// One mutation of a state: a part of it (program, memory, stack,
/// registers, pc) changed a little.
pub fn fuzz_state<D: Draw + ?Sized>(d: &mut D, st: &mut State, n: usize) {
    match d.below(5) {
        0 => fuzz_list(
            d,
            &mut st.imem,
            |d| arbitrary_instr(d, n),
            |d, _| arbitrary_instr(d, n),
        ),
        1 => {
            let s = d.below(4) as usize;
            let frames = &mut st.mem.frames[s];
            fuzz_list(
                d,
                frames,
                |d| arbitrary_frame(d, n),
                |d, f| {
                    let mut f = f.clone();
                    if d.below(4) == 0 {
                        f.lab = label(d);
                    } else {
                        fuzz_list(
                            d,
                            &mut f.data,
                            |d| arbitrary_atom(d, n),
                            |d, a| fuzz_atom(d, *a, n),
                        );
                    }
                    f
                },
            );
        }
        2 => fuzz_list(
            d,
            &mut st.stack,
            |d| arbitrary_stack_frame(d, n),
            |d, f| {
                let mut f = f.clone();
                match d.below(4) {
                    0 => f.ret.addr = fuzz_z(d, f.ret.addr),
                    1 => f.ret.l = label(d),
                    2 => f.target = fuzz_z(d, f.target),
                    _ => fuzz_list(
                        d,
                        &mut f.regs,
                        |d| arbitrary_atom(d, n),
                        |d, a| fuzz_atom(d, *a, n),
                    ),
                }
                f
            },
        ),
        3 => fuzz_list(
            d,
            &mut st.regs,
            |d| arbitrary_atom(d, n),
            |d, a| fuzz_atom(d, *a, n),
        ),
        _ => {
            if d.below(2) == 0 {
                st.pc.addr = fuzz_z(d, st.pc.addr);
            } else {
                st.pc.l = label(d);
            }
        }
    }
}

/// The type-based mutator of a pair: the observer, or one state, changed.
pub fn fuzz_variation<D: Draw + ?Sized>(d: &mut D, v: &Variation, n: usize) -> Variation {
    let n = n.clamp(1, MAX_SIZE);
    let mut out = v.clone();
    match d.below(9) {
        0 => out.obs = label(d),
        1..=4 => fuzz_state(d, &mut out.st1, n),
        _ => fuzz_state(d, &mut out.st2, n),
    }
    out
}
