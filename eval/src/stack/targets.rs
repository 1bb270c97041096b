//! The targets the stack machine's precondition reports to the targeted
//! runner: Table 1's, and one per rule of the machine that a user testing
//! that rule would write, steering towards the rule's secret case.
//!
//! | target | its rule | the bugs it is for |
//! |---|---|---|
//! | [`Target::Diversity`] | (every instruction) | Table 1 of *Flexible and Automatic TPBT* |
//! | [`Target::SecretStores`] | store, through a secret address | STORE\*A |
//! | [`Target::HighPcStores`] | store, in a secret context | STORE\*E |
//! | [`Target::SecretReturns`] | return, from a secret context | CALL\*A-2, RETURN\*A |
//!
//! Each rule target sums its score over both machines' runs, with a tenth
//! of Table 1's target as a tie-breaker; each scores only the steps a run
//! executed (a refused store or return leaves its machine stuck, the last
//! state of its trace, which no target scores).

use super::machine::{diversity, Instr, Label, Machine, StkElt};

/// The target the precondition reports to the targeted runner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Table 1 of *Flexible and Automatic TPBT*: the first machine's
    /// diversity-weighted count of executed instructions ([`diversity`]).
    Diversity,
    /// The store rule, through a secret address: [`secret_stores`].
    SecretStores,
    /// The store rule, in a secret context: [`high_pc_stores`].
    HighPcStores,
    /// The return rule, from a secret context: [`secret_returns`].
    SecretReturns,
}

impl Target {
    /// Every target, in the order of `--stack-target`'s help.
    pub const ALL: [Target; 4] = [
        Target::Diversity,
        Target::SecretStores,
        Target::HighPcStores,
        Target::SecretReturns,
    ];

    /// Its name on the command line (`etna --stack-target NAME`).
    ///
    /// ```
    /// use pbt_eval::stack::Target;
    /// assert_eq!(Target::from_name("secret-returns"), Some(Target::SecretReturns));
    /// assert_eq!(Target::SecretReturns.name(), "secret-returns");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Target::Diversity => "diversity",
            Target::SecretStores => "secret-stores",
            Target::HighPcStores => "high-pc-stores",
            Target::SecretReturns => "secret-returns",
        }
    }

    /// The target called `name`.
    pub fn from_name(name: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Its value on the runs `t1` and `t2` of a pair's two machines, of
    /// which `halted_low` says whether both halted with a public pc (EENI's
    /// precondition). A rule target counts twice on such a pair: the runs
    /// that reach the rule's secret case *and* end where EENI observes
    /// them are the ones that can fail, and the climb should prefer them
    /// without being confined to them (a bonus that dominates the rule's
    /// score keeps it among valid pairs, where the secret case is rare).
    pub fn value(self, t1: &[Machine], t2: &[Machine], halted_low: bool) -> f64 {
        let valid = if halted_low { 2.0 } else { 1.0 };
        let rule = |f: fn(&[Machine]) -> f64| valid * (f(t1) + f(t2) + 0.1 * diversity(t1));
        match self {
            Target::Diversity => diversity(t1),
            Target::SecretStores => rule(secret_stores),
            Target::HighPcStores => rule(high_pc_stores),
            Target::SecretReturns => rule(secret_returns),
        }
    }

    /// The coverage point a rule target reports for the fuzz runner: on a
    /// pair that EENI observes (both halted low), the integer part of the
    /// rule's score on both runs, so each new level of the rule's secret
    /// case reached by a valid pair is new coverage; `None` otherwise and
    /// for Table 1's target.
    pub fn level(self, t1: &[Machine], t2: &[Machine], halted_low: bool) -> Option<u64> {
        let score = match self {
            Target::Diversity => return None,
            _ if !halted_low => return None,
            Target::SecretStores => secret_stores(t1) + secret_stores(t2),
            Target::HighPcStores => high_pc_stores(t1) + high_pc_stores(t2),
            Target::SecretReturns => secret_returns(t1) + secret_returns(t2),
        };
        Some(score as u64)
    }
}

/// The states of a run at which it executed a step (all but the last),
/// each with the instruction it ran.
fn executed(trace: &[Machine]) -> impl Iterator<Item = (&Machine, Instr)> {
    trace[..trace.len().saturating_sub(1)]
        .iter()
        .filter_map(|m| {
            Some((
                m,
                *usize::try_from(m.pc.v).ok().and_then(|i| m.imem.get(i))?,
            ))
        })
}

/// The label of the memory cell a store at `m` writes, when its address is
/// in range.
fn store_cell(m: &Machine) -> Option<(Label, Label)> {
    let Some(StkElt::Data(a)) = m.stk.first() else {
        return None;
    };
    let cell = usize::try_from(a.v).ok().and_then(|p| m.mem.get(p))?;
    Some((a.l, cell.l))
}

/// How close a run comes to a store through a secret address: each store
/// executed scores by its address's label (4 through a secret address,
/// which may only store into a secret cell, the no-sensitive-upgrade
/// check; ½ through a public one; a refused store does not run and scores
/// nothing), and each secret cell the run leaves in memory scores 1 (the
/// cells such a store needs). A target for the store rule: STORE*A
/// (the store forgets the address's label) is a store through a secret
/// address that differs between the two runs, into cells both made secret.
pub fn secret_stores(trace: &[Machine]) -> f64 {
    let mut score = 0.0;
    for (m, i) in executed(trace) {
        if i != Instr::Store {
            continue;
        }
        score += match store_cell(m) {
            Some((Label::H, Label::H)) => 4.0,
            // Refused (stuck): the trace's last state, never here.
            Some((Label::H, Label::L)) | None => 0.0,
            Some((Label::L, _)) => 0.5,
        };
    }
    let last = trace.last().expect("a trace is never empty");
    score + last.mem.iter().filter(|c| c.l == Label::H).count() as f64
}

/// How close a run comes to a store in a secret context that then returns
/// to a public one: each store executed with a secret pc scores 4 when it
/// writes a public cell (the no-sensitive-upgrade check refuses it: only a
/// machine without that check runs it) and 1 when it writes a secret one;
/// each return from a secret context to a public one (the only way back to
/// a public pc, where EENI observes the machine) scores 1. A target for the
/// store rule's pc check: STORE*E (no sensitive-upgrade check on the pc's
/// label) is a store into a public cell made in a secret context, which
/// the other run, taking another branch there, does not make.
pub fn high_pc_stores(trace: &[Machine]) -> f64 {
    let mut score = 0.0;
    for (m, i) in executed(trace) {
        if m.pc.l != Label::H {
            continue;
        }
        score += match i {
            Instr::Store => match store_cell(m) {
                Some((_, Label::L)) => 4.0,
                Some((_, Label::H)) => 1.0,
                None => 0.0,
            },
            Instr::Return(_) => f64::from(u8::from(returns_to(m) == Some(Label::L))),
            _ => 0.0,
        };
    }
    score
}

/// The label of the return address a return at `m` goes back to, and
/// whether its call returns a value.
fn ret(m: &Machine) -> Option<(Label, bool)> {
    m.stk.iter().find_map(|e| match e {
        StkElt::Ret { l, returns, .. } => Some((*l, *returns)),
        StkElt::Data(_) => None,
    })
}

/// The label of the context a return at `m` goes back to.
fn returns_to(m: &Machine) -> Option<Label> {
    ret(m).map(|(l, _)| l)
}

/// How close a run comes to a return from a secret context that leaks:
/// each call through a secret address from a public context (it raises the
/// pc) scores 1; each return executed with a secret pc scores 1, 4 when it
/// goes back to a public context (where EENI observes the machine), and 2
/// more for each of: its call returns a value, the value on top is public
/// (the two runs' returned values must differ where an observer sees
/// them), the return's own flag disagrees with its call's (whether a value
/// comes back). A target for the return rule: CALL*A-2 (the returned
/// value is not tainted by the secret context) is a public value returned
/// from a call through a secret address; RETURN*A (the return, not the
/// call, decides whether a value comes back) is two runs returning from
/// the secret context by returns with different flags.
pub fn secret_returns(trace: &[Machine]) -> f64 {
    let mut score = 0.0;
    for (m, i) in executed(trace) {
        score += match i {
            Instr::Call(..) => match m.stk.first() {
                Some(StkElt::Data(a)) if a.l == Label::H && m.pc.l == Label::L => 1.0,
                _ => 0.0,
            },
            Instr::Return(flag) if m.pc.l == Label::H => {
                let Some((back, returns)) = ret(m) else {
                    continue;
                };
                let public_top = matches!(m.stk.first(), Some(StkElt::Data(a)) if a.l == Label::L);
                let two = |b: bool| if b { 2.0 } else { 0.0 };
                (if back == Label::L { 4.0 } else { 1.0 })
                    + two(returns)
                    + two(public_top)
                    + two(flag != returns)
            }
            _ => 0.0,
        };
    }
    score
}
