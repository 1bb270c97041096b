//! The information-flow stack machine of *Testing Noninterference,
//! Quickly* (Hriţcu et al., ICFP 2013 / JFP 2016; its Haskell
//! `stack/Machine.hs` in QuickChick/TestingNoninterference), with calls and
//! returns, as re-implemented in *Flexible and Automatic Targeted
//! Property-Based Testing* §5.1, and its 14 injectable bugs.

/// A label of the two-point lattice `L ⊑ H`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Label {
    /// Public.
    L,
    /// Secret.
    H,
}

impl Label {
    /// The least upper bound.
    pub fn lub(self, other: Label) -> Label {
        self.max(other)
    }
}

/// A labelled integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Atom {
    /// The value.
    pub v: i64,
    /// The label.
    pub l: Label,
}

impl Atom {
    /// `a `tainting` b`: `b` with `a`'s label joined in.
    pub fn tainting(self, b: Atom) -> Atom {
        Atom {
            v: b.v,
            l: self.l.lub(b.l),
        }
    }
}

/// An instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Instr {
    /// Do nothing.
    Noop,
    /// `a b _ → (a+b) _`.
    Add,
    /// `_ → a _`.
    Push(Atom),
    /// `a _ → _`.
    Pop,
    /// `addr _ → mem[addr] _`.
    Load,
    /// `addr val _ → _`, `mem[addr] := val`.
    Store,
    /// `iaddr _ → _`, `pc := iaddr`.
    Jump,
    /// Call with this many arguments, returning a value or not.
    Call(u8, bool),
    /// Return (a value or not: only the `ValueOrVoidOnReturn` bug reads it).
    Return(bool),
    /// Stop.
    Halt,
}

/// The instruction kinds (Table 1's rows).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `Noop`.
    Noop,
    /// `Push`.
    Push,
    /// `Call`.
    Call,
    /// `Return`.
    Return,
    /// `Add`.
    Add,
    /// `Load`.
    Load,
    /// `Store`.
    Store,
    /// `Jump`.
    Jump,
    /// `Pop`.
    Pop,
    /// `Halt`.
    Halt,
}

impl Instr {
    /// Its kind.
    pub fn kind(self) -> Kind {
        match self {
            Instr::Noop => Kind::Noop,
            Instr::Add => Kind::Add,
            Instr::Push(_) => Kind::Push,
            Instr::Pop => Kind::Pop,
            Instr::Load => Kind::Load,
            Instr::Store => Kind::Store,
            Instr::Jump => Kind::Jump,
            Instr::Call(..) => Kind::Call,
            Instr::Return(_) => Kind::Return,
            Instr::Halt => Kind::Halt,
        }
    }
}

/// A stack entry: data, or a return address (with whether the call
/// returns a value).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StkElt {
    /// A labelled value.
    Data(Atom),
    /// A labelled return address.
    Ret {
        /// Where to return.
        addr: i64,
        /// Whether the call returns a value.
        returns: bool,
        /// Its label.
        l: Label,
    },
}

/// A machine: data memory, instruction memory, stack (top first), pc.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Machine {
    /// The data memory.
    pub mem: Vec<Atom>,
    /// The program.
    pub imem: Vec<Instr>,
    /// The stack, top first.
    pub stk: Vec<StkElt>,
    /// The program counter.
    pub pc: Atom,
}

crate::named_enum! {
    /// The 14 bugs of *Testing Noninterference, Quickly* (Table 2 of
    /// *Flexible and Automatic TPBT*; [`Bug::Base`] is the correct machine).
    /// The names are Table 2's, matched to the Haskell flags in the order of
    /// its `allIfcBugs` list (Table 2's order, `POP*` moved last), except
    /// `STORE*A` and `STORE*B`, swapped to match Table 2's difficulty (its
    /// `STORE*B` is found by every tool in every trial, as dropping all
    /// taint is here; its `STORE*A` in half the trials at best, as
    /// forgetting the address's label is here). The paper does not list
    /// the mapping; this one is inferred.
    Bug {
        /// The correct machine.
        Base = "base",
        /// `IfcBugArithNoTaint`: addition does not taint its result.
        Add = "ADD*",
        /// `IfcBugPushNoTaint`: push drops the label.
        Push = "PUSH*",
        /// `IfcBugLoadNoTaint`: load loses the address's label.
        Load = "LOAD*",
        /// `IfcBugStoreNoPointerTaint`: store forgets the address's label.
        StoreA = "STORE*A",
        /// `IfcBugStoreNoValueTaint`: store drops all taint.
        StoreB = "STORE*B",
        /// `IfcBugAllowWriteDownThroughHighPtr`: no sensitive-upgrade check
        /// on the address's label.
        StoreC = "STORE*C",
        /// `IfcBugJumpNoRaisePc`: jumping to a high address keeps the pc's label.
        JumpA = "JUMP*A",
        /// `IfcBugJumpLowerPc`: the pc takes the address's label, even lower.
        JumpB = "JUMP*B",
        /// `IfcBugStoreNoPcTaint`: store forgets the pc's label.
        StoreD = "STORE*D",
        /// `IfcBugAllowWriteDownWithHighPc`: no sensitive-upgrade check on
        /// the pc's label.
        StoreE = "STORE*E",
        /// `IfcBugCallNoRaisePc`: calling a high address does not raise the pc.
        CallA1 = "CALL*A-1",
        /// `IfcBugReturnNoTaint`: returning from a high context does not
        /// taint the returned value.
        CallA2 = "CALL*A-2",
        /// `IfcBugValueOrVoidOnReturn`: `Return` decides whether a value is
        /// returned, not `Call`.
        ReturnA = "RETURN*A",
        /// `IfcBugPopPopsReturns`: pop pops return addresses too.
        Pop = "POP*",
    }
}

/// The data entries above the first return address.
fn data_above_ret(stk: &[StkElt]) -> usize {
    stk.iter()
        .take_while(|e| matches!(e, StkElt::Data(_)))
        .count()
}

/// The data at the top of the stack.
fn data(e: &StkElt) -> Atom {
    match e {
        StkElt::Data(a) => *a,
        StkElt::Ret { .. } => unreachable!("checked by wf"),
    }
}

/// Whether the instruction at the pc may run (`wf_impl`): `None` when the
/// machine is stuck (a halt, an underflow, an address out of range, a
/// refused store).
fn wf(bug: Bug, m: &Machine) -> Option<Instr> {
    let i = *usize::try_from(m.pc.v).ok().and_then(|i| m.imem.get(i))?;
    let n = data_above_ret(&m.stk);
    let mptr = |m: &Machine| -> Option<usize> {
        let a = data(&m.stk[0]);
        usize::try_from(a.v).ok().filter(|p| *p < m.mem.len())
    };
    let ok = match i {
        Instr::Noop | Instr::Push(_) => true,
        Instr::Add => n >= 2,
        Instr::Pop => {
            if bug == Bug::Pop {
                !m.stk.is_empty()
            } else {
                n >= 1
            }
        }
        Instr::Load => n >= 1 && mptr(m).is_some(),
        Instr::Store => {
            if n < 2 {
                return None;
            }
            let p = mptr(m)?;
            let addr = data(&m.stk[0]);
            let cell = m.mem[p];
            (bug == Bug::StoreC || addr.l <= cell.l) && (bug == Bug::StoreE || m.pc.l <= cell.l)
        }
        Instr::Jump => n >= 1,
        Instr::Call(a, _) => n > usize::from(a),
        Instr::Return(b) => match m.stk.iter().find(|e| matches!(e, StkElt::Ret { .. })) {
            Some(StkElt::Ret { returns, .. }) => {
                let needs = if bug == Bug::ReturnA { b } else { *returns };
                n >= usize::from(needs)
            }
            _ => false,
        },
        Instr::Halt => false,
    };
    ok.then_some(i)
}

/// One step under `bug` (`astepFn` after `wf`): `None` when stuck.
pub fn step(bug: Bug, m: &Machine) -> Option<Machine> {
    let i = wf(bug, m)?;
    let mut out = m.clone();
    let next_pc = Atom {
        v: m.pc.v + 1,
        l: m.pc.l,
    };
    out.pc = next_pc;
    match i {
        Instr::Noop => {}
        Instr::Add => {
            let (a, b) = (data(&m.stk[0]), data(&m.stk[1]));
            let l = if bug == Bug::Add {
                Label::L
            } else {
                a.l.lub(b.l)
            };
            out.stk.drain(..2);
            out.stk.insert(
                0,
                StkElt::Data(Atom {
                    v: a.v.wrapping_add(b.v),
                    l,
                }),
            );
        }
        Instr::Push(a) => {
            let l = if bug == Bug::Push { Label::L } else { a.l };
            out.stk.insert(0, StkElt::Data(Atom { v: a.v, l }));
        }
        Instr::Pop => {
            out.stk.remove(0);
        }
        Instr::Load => {
            let a = data(&m.stk[0]);
            let cell = m.mem[a.v as usize];
            let v = if bug == Bug::Load {
                cell
            } else {
                a.tainting(cell)
            };
            out.stk[0] = StkElt::Data(v);
        }
        Instr::Store => {
            let (a, b) = (data(&m.stk[0]), data(&m.stk[1]));
            let pc = m.pc;
            let tainted = match bug {
                Bug::StoreB => Atom {
                    v: b.v,
                    l: Label::L,
                },
                Bug::StoreA => pc.tainting(b),
                Bug::StoreD => a.tainting(b),
                _ => pc.tainting(a.tainting(b)),
            };
            out.mem[a.v as usize] = tainted;
            out.stk.drain(..2);
        }
        Instr::Jump => {
            let p = data(&m.stk[0]);
            out.stk.remove(0);
            out.pc = match bug {
                Bug::JumpA => Atom { v: p.v, l: m.pc.l },
                Bug::JumpB => p,
                _ => m.pc.tainting(p),
            };
        }
        Instr::Call(a, r) => {
            let a = usize::from(a);
            let target = data(&m.stk[0]);
            let mut stk: Vec<StkElt> = m.stk[1..=a].to_vec();
            stk.push(StkElt::Ret {
                addr: next_pc.v,
                returns: r,
                l: next_pc.l,
            });
            stk.extend_from_slice(&m.stk[a + 1..]);
            out.stk = stk;
            out.pc = if bug == Bug::CallA1 {
                target
            } else {
                m.pc.tainting(target)
            };
        }
        Instr::Return(b) => {
            let k = m
                .stk
                .iter()
                .position(|e| matches!(e, StkElt::Ret { .. }))
                .expect("checked by wf");
            let StkElt::Ret { addr, returns, l } = m.stk[k] else {
                unreachable!("found above")
            };
            let keep = usize::from(if bug == Bug::ReturnA { b } else { returns });
            let mut stk: Vec<StkElt> = m.stk[..keep]
                .iter()
                .map(|e| {
                    let d = data(e);
                    StkElt::Data(if bug == Bug::CallA2 {
                        d
                    } else {
                        m.pc.tainting(d)
                    })
                })
                .collect();
            stk.extend_from_slice(&m.stk[k + 1..]);
            out.stk = stk;
            out.pc = Atom { v: addr, l };
        }
        Instr::Halt => return None,
    }
    Some(out)
}

/// The states of a run from `m` (`traceN`): `m`, then each step while the
/// machine can step, at most `steps` steps.
pub fn trace(bug: Bug, m: &Machine, steps: usize) -> Vec<Machine> {
    let mut out = vec![m.clone()];
    for _ in 0..steps {
        match step(bug, out.last().expect("never empty")) {
            Some(next) => out.push(next),
            None => break,
        }
    }
    out
}

/// Whether `m` is about to halt with a public pc (EENI's observation).
pub fn halted_low(m: &Machine) -> bool {
    m.pc.l == Label::L
        && usize::try_from(m.pc.v)
            .ok()
            .and_then(|i| m.imem.get(i))
            .is_some_and(|i| *i == Instr::Halt)
}

/// Atoms an observer cannot tell apart: equal labels, equal values when
/// public.
pub fn atom_eq(a: Atom, b: Atom) -> bool {
    a.l == b.l && (a.l == Label::H || a.v == b.v)
}

/// Stack entries an observer cannot tell apart.
fn elt_eq(a: &StkElt, b: &StkElt) -> bool {
    match (a, b) {
        (StkElt::Data(x), StkElt::Data(y)) => atom_eq(*x, *y),
        (
            StkElt::Ret {
                addr: a1,
                returns: r1,
                l: l1,
            },
            StkElt::Ret {
                addr: a2,
                returns: r2,
                l: l2,
            },
        ) => l1 == l2 && (*l1 == Label::H || (a1 == a2 && r1 == r2)),
        _ => false,
    }
}

/// The stack from its first public return address (`cropTop`).
fn crop_top(s: &[StkElt]) -> &[StkElt] {
    let i = s
        .iter()
        .position(|e| matches!(e, StkElt::Ret { l: Label::L, .. }))
        .unwrap_or(s.len());
    &s[i..]
}

/// Machines an observer cannot tell apart (`~~~` with `EquivFull`).
pub fn indist(a: &Machine, b: &Machine) -> bool {
    let instr_eq = |x: &Instr, y: &Instr| match (x, y) {
        (Instr::Push(p), Instr::Push(q)) => atom_eq(*p, *q),
        _ => x == y,
    };
    let (sa, sb) = if a.pc.l == Label::L {
        (&a.stk[..], &b.stk[..])
    } else {
        (crop_top(&a.stk), crop_top(&b.stk))
    };
    a.pc.l == b.pc.l
        && a.imem.len() == b.imem.len()
        && a.imem.iter().zip(&b.imem).all(|(x, y)| instr_eq(x, y))
        && a.mem.len() == b.mem.len()
        && a.mem.iter().zip(&b.mem).all(|(x, y)| atom_eq(*x, *y))
        && atom_eq(a.pc, b.pc)
        && sa.len() == sb.len()
        && sa.iter().zip(sb).all(|(x, y)| elt_eq(x, y))
}

/// Table 1's weight of a kind: the first one executed counts this much,
/// each later one half the one before.
pub fn weight(k: Kind) -> f64 {
    match k {
        Kind::Noop | Kind::Return | Kind::Halt => 0.0,
        Kind::Call => 5.0,
        Kind::Store => 1.5,
        Kind::Push | Kind::Add | Kind::Load | Kind::Jump | Kind::Pop => 1.0,
    }
}

/// Table 1's target: the diversity-weighted count of the instructions a
/// run executed (the `n`-th of a kind weighs `weight / 2^n`).
pub fn diversity(trace: &[Machine]) -> f64 {
    let mut seen = [0i32; 10];
    let mut score = 0.0;
    for m in &trace[..trace.len().saturating_sub(1)] {
        let Some(i) = usize::try_from(m.pc.v).ok().and_then(|i| m.imem.get(i)) else {
            continue;
        };
        let k = i.kind();
        let n = &mut seen[k as usize];
        score += weight(k) / f64::from(1u32 << (*n).min(30));
        *n += 1;
    }
    score
}
