//! Two implementations compared on one generated command sequence
//! ("Property Based Testing in MIT-Scheme", §2.3).

use super::machine::StateMachine;
use super::property::{property, ProgramCase};
use pbt_core::gen::Gen;
use pbt_core::Property;
use std::fmt::Debug;

/// The machine behind [`compare`]: the first implementation is the model,
/// the second the system; every command is allowed.
pub struct Compare<FA, FB, G, RA, RB> {
    first: FA,
    second: FB,
    commands: G,
    run_first: RA,
    run_second: RB,
}

impl<A, B, C, O, FA, FB, G, RA, RB> StateMachine for Compare<FA, FB, G, RA, RB>
where
    FA: Fn() -> A + Send + Sync + 'static,
    FB: Fn() -> B + Send + Sync + 'static,
    G: Gen<Value = C> + Send + Sync + 'static,
    RA: Fn(&mut A, &C) -> O + Send + Sync + 'static,
    RB: Fn(&mut B, &C) -> O + Send + Sync + 'static,
    C: Clone + Debug + Send + Sync + 'static,
    O: Debug + PartialEq,
{
    type Model = A;
    type System = B;
    type Command = C;
    type Output = O;

    fn init_model(&self) -> A {
        (self.first)()
    }
    fn init_system(&self) -> B {
        (self.second)()
    }
    fn commands<'a>(&'a self, _model: &'a A) -> impl Gen<Value = C> + 'a {
        &self.commands
    }
    fn apply_model(&self, model: &mut A, cmd: &C) -> O {
        (self.run_first)(model, cmd)
    }
    fn apply_system(&self, system: &mut B, cmd: &C) -> O {
        (self.run_second)(system, cmd)
    }
    fn print_machine(&self) -> String {
        "/* the compare(..) of your test */".into()
    }
}

/// Run the same generated command sequence on two implementations — built
/// by `first()` and `second()`, each command run by `run_first` and
/// `run_second` (often one generic function, passed twice) — and fail on
/// the first command whose results differ. The failing sequence shrinks to
/// the shortest one that shows a difference.
///
/// ```
/// use pbt::generators::{int, Gen};
/// use std::collections::{BTreeSet, HashSet};
///
/// trait Set { fn insert(&mut self, x: u8) -> bool; }
/// impl Set for BTreeSet<u8> { fn insert(&mut self, x: u8) -> bool { BTreeSet::insert(self, x) } }
/// impl Set for HashSet<u8> { fn insert(&mut self, x: u8) -> bool { HashSet::insert(self, x) } }
/// fn insert<S: Set>(s: &mut S, x: &u8) -> bool { s.insert(*x) }
///
/// let same = pbt::stateful::compare(BTreeSet::new, HashSet::new, int(0..10u8), insert, insert);
/// assert!(pbt::runners::generational(&same, pbt::runners::Config::default()).passed());
/// ```
pub fn compare<A, B, C, O, FA, FB, G, RA, RB>(
    first: FA,
    second: FB,
    commands: G,
    run_first: RA,
    run_second: RB,
) -> impl Property<Inputs = ProgramCase<Compare<FA, FB, G, RA, RB>>> + Send + Sync
where
    FA: Fn() -> A + Send + Sync + 'static,
    FB: Fn() -> B + Send + Sync + 'static,
    G: Gen<Value = C> + Send + Sync + 'static,
    RA: Fn(&mut A, &C) -> O + Send + Sync + 'static,
    RB: Fn(&mut B, &C) -> O + Send + Sync + 'static,
    C: Clone + Debug + Send + Sync + 'static,
    O: Debug + PartialEq,
{
    property(Compare {
        first,
        second,
        commands,
        run_first,
        run_second,
    })
}
