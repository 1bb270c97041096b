//! State-machine properties: a key-value store with a planted bug, under
//! every runner; shrinking keeps programs valid and reaches the minimal one;
//! the printed program and reproducer; two implementations compared.

use pbt::generators::{int, just, Gen};
use pbt::runners::{Config, Regressions, Report, Shrinker};
use pbt::stateful::{self, Program, StateMachine};
use pbt::Property;
use std::collections::BTreeMap;

#[path = "stateful/kv.rs"]
mod kv;
use kv::{Cmd, KvMachine, LeakyKv};

fn config(seed: u64) -> Config {
    Config::default()
        .seed(seed)
        .cases(2_000)
        .regressions(Regressions::Off)
        .ignore_env()
}

/// The shrunk program, read back from the report through `Debug` of
/// `Program` is not possible; so the tests re-find it through the property
/// and compare the printed counterexample.
fn printed(report: &Report) -> String {
    let failure = report
        .failure
        .as_ref()
        .unwrap_or_else(|| panic!("no failure: {report}"));
    failure.counterexample[0].value.clone()
}

/// The minimal failing program: three inserts, then removing a key. Every
/// argument at its simplest.
const MINIMAL: &str = "  1. Insert(0, 0)  // model: None, system: None
  2. Insert(0, 0)  // model: Some(0), system: Some(0)
  3. Insert(0, 0)  // model: Some(0), system: Some(0)
  4. Remove(0)  // model: Some(0), system: None   <-- fails here
";

fn assert_minimal(report: &Report) {
    let shown = printed(report);
    assert!(
        shown.contains(MINIMAL),
        "not the minimal program:\n{report}"
    );
    let reason = &report.failure.as_ref().unwrap().reason;
    assert!(
        reason.contains("step 4: Remove(0): the system returned None, the model expected Some(0)"),
        "{reason}"
    );
}

#[test]
fn generational_finds_and_shrinks_the_planted_bug_to_the_minimal_program() {
    for seed in 1..=5 {
        let report = pbt::runners::generational(&KvMachine.property(), config(seed));
        assert_minimal(&report);
    }
}

/// The integrated shrinker alone works on the whole choice sequence; it
/// deletes a step by lowering that step's continuation choice to "skip", so
/// it reaches the minimal program too, as does `Shrinker::Both`.
#[test]
fn integrated_and_both_shrink_the_planted_bug_to_the_minimal_program() {
    for seed in 1..=5 {
        let report = pbt::runners::integrated(&KvMachine.property(), config(seed));
        assert_minimal(&report);
        let both = config(seed).shrinker(Shrinker::Both);
        assert_minimal(&pbt::runners::integrated(&KvMachine.property(), both));
    }
}

#[path = "stateful/queue.rs"]
mod queue;

/// The bounded queue's planted bug (a full ring overwrites instead of
/// refusing) shrinks to its shortest program, four pushes of 0, under
/// every shrinker.
#[test]
fn the_queue_bug_shrinks_to_the_minimal_program_under_every_shrinker() {
    let minimal = "  1. Push(0)  // model: Ok(None), system: Ok(None)
  2. Push(0)  // model: Ok(None), system: Ok(None)
  3. Push(0)  // model: Ok(None), system: Ok(None)
  4. Push(0)  // model: Err(0), system: Ok(None)   <-- fails here
";
    for seed in 1..=3 {
        for shrinker in [Shrinker::External, Shrinker::Integrated, Shrinker::Both] {
            let config = config(seed).shrinker(shrinker);
            let report = pbt::runners::generational(&queue::QueueMachine.property(), config);
            assert!(printed(&report).contains(minimal), "{shrinker}: {report}");
        }
    }
}

#[test]
fn fuzz_finds_the_planted_bug() {
    let report = pbt::runners::fuzz(&KvMachine.property(), config(3));
    assert_minimal(&report);
}

#[test]
fn targeted_finds_the_planted_bug() {
    let report = pbt::runners::targeted(&KvMachine.property(), config(4));
    assert_minimal(&report);
}

#[test]
fn parallel_finds_the_planted_bug() {
    let report = pbt::runners::parallel(&KvMachine.property(), config(5).workers(2));
    assert_minimal(&report);
}

#[test]
fn the_report_prints_a_rust_reproducer() {
    let report = pbt::runners::generational(&KvMachine.property(), config(7));
    let shown = printed(&report);
    let expected = "    #[allow(unused_imports)]
    use Cmd::*;
    use pbt::stateful::StateMachine;
    let machine = KvMachine;
    let mut system = machine.init_system();
    machine.apply_system(&mut system, &Insert(0, 0));
    machine.apply_system(&mut system, &Insert(0, 0));
    machine.apply_system(&mut system, &Insert(0, 0));
    assert_eq!(machine.apply_system(&mut system, &Remove(0)), Some(0));
";
    assert!(shown.contains(expected), "{shown}");
}

/// The reproducer printed above, pasted: it fails as the report said.
#[test]
#[should_panic(expected = "assertion `left == right` failed")]
fn the_pasted_reproducer_fails() {
    use pbt::stateful::StateMachine;
    #[allow(unused_imports)]
    use Cmd::*;
    let machine = KvMachine;
    let mut system = machine.init_system();
    machine.apply_system(&mut system, &Insert(0, 0));
    machine.apply_system(&mut system, &Insert(0, 0));
    machine.apply_system(&mut system, &Insert(0, 0));
    assert_eq!(machine.apply_system(&mut system, &Remove(0)), Some(0));
}

/// Every generated program, and every shrink candidate of every generated
/// program, is valid: no command runs where its precondition fails.
#[test]
fn generated_and_shrunk_programs_are_valid() {
    let programs = KvMachine.programs();
    let mut rng = pbt::Rng::from_seed(11);
    let mut removes = 0;
    for _ in 0..200 {
        let program = programs.generate(&mut rng, 20).unwrap();
        assert!(program.is_valid(&KvMachine), "{program:?}");
        removes += program
            .commands()
            .filter(|c| matches!(c, Cmd::Remove(_)))
            .count();
        for candidate in programs.shrink(&program).take(200) {
            assert!(
                candidate.is_valid(&KvMachine),
                "{candidate:?} from {program:?}"
            );
        }
    }
    assert!(
        removes > 50,
        "state-dependent commands are generated: {removes} removes"
    );
}

/// Deleting an insert drops the removes that needed its key.
#[test]
fn deleting_a_step_drops_the_commands_it_enabled() {
    let programs = KvMachine.programs();
    let mut rng = pbt::Rng::from_seed(2);
    let program: Program<KvMachine> =
        std::iter::repeat_with(|| programs.generate(&mut rng, 20).unwrap())
            .find(|p| {
                matches!(p.commands().next(), Some(Cmd::Insert(..)))
                    && p.commands().any(|c| matches!(c, Cmd::Remove(_)))
            })
            .unwrap();
    let dropped = programs
        .shrink(&program)
        .find(|c| c.len() + 1 < program.len())
        .expect("some deletion drops more than the deleted step");
    assert!(dropped.is_valid(&KvMachine));
}

/// A machine whose invariant fails: a counter that may never pass 2.
#[derive(Debug)]
struct Bounded;

impl StateMachine for Bounded {
    type Model = u32;
    type System = u32;
    type Command = u32;
    type Output = ();
    fn init_model(&self) -> u32 {
        0
    }
    fn init_system(&self) -> u32 {
        0
    }
    fn commands<'a>(&'a self, _: &'a u32) -> impl Gen<Value = u32> + 'a {
        just(1u32)
    }
    fn apply_model(&self, n: &mut u32, by: &u32) {
        *n += by;
    }
    fn apply_system(&self, n: &mut u32, by: &u32) {
        *n += by;
    }
    fn invariant(&self, model: &u32, system: &u32) -> Result<(), String> {
        if *system > 2 {
            Err(format!(
                "the counter reached {system} (model {model}), past 2"
            ))
        } else {
            Ok(())
        }
    }
}

#[test]
fn invariants_are_checked_after_every_step() {
    let report = pbt::runners::generational(&Bounded.property(), config(1));
    let failure = report.failure.as_ref().expect("fails");
    assert!(
        failure.reason.contains(
            "step 3: after 1 the invariant failed: the counter reached 3 (model 3), past 2"
        ),
        "{report}"
    );
    let shown = printed(&report);
    assert!(shown.contains("// here the invariant fails"), "{report}");
    // A `u32` command has no variants: no `use u32::*;`, which would not
    // compile.
    assert!(
        shown
            .contains("reproducer (paste into a #[test]):\n    use pbt::stateful::StateMachine;\n"),
        "{report}"
    );
}

trait Store {
    fn put(&mut self, k: u8, v: u8) -> Option<u8>;
    fn take(&mut self, k: u8) -> Option<u8>;
}
impl Store for BTreeMap<u8, u8> {
    fn put(&mut self, k: u8, v: u8) -> Option<u8> {
        self.insert(k, v)
    }
    fn take(&mut self, k: u8) -> Option<u8> {
        self.remove(&k)
    }
}
impl Store for LeakyKv {
    fn put(&mut self, k: u8, v: u8) -> Option<u8> {
        self.insert(k, v)
    }
    fn take(&mut self, k: u8) -> Option<u8> {
        self.remove(k)
    }
}

fn run<S: Store>(store: &mut S, cmd: &(bool, u8)) -> Option<u8> {
    match *cmd {
        (false, k) => store.put(k, k),
        (true, k) => store.take(k),
    }
}

#[test]
fn compare_finds_the_first_difference_between_two_implementations() {
    let commands = (pbt::generators::bool(), int(0..4u8));
    let prop = stateful::compare(BTreeMap::new, LeakyKv::default, commands, run, run);
    let report = pbt::runners::generational(&prop, config(3));
    let shown = printed(&report);
    assert!(
        shown.contains(
            "  1. (false, 0)  // model: None, system: None
  2. (false, 0)  // model: Some(0), system: Some(0)
  3. (false, 0)  // model: Some(0), system: Some(0)
  4. (true, 0)  // model: Some(0), system: None   <-- fails here
"
        ),
        "{report}"
    );
}

#[test]
fn compare_passes_on_equal_implementations() {
    let commands = (pbt::generators::bool(), int(0..4u8));
    let prop = stateful::compare(BTreeMap::new, BTreeMap::new, commands, run, run);
    let report = pbt::runners::generational(&prop, config(3).cases(300));
    assert!(report.passed(), "{report}");
    assert_eq!(prop.structure().variables().count(), 1);
}

/// `property!` quantifies over programs like over any generator; with the
/// program shrinker and printer it reports the minimal program.
#[test]
fn property_macro_quantifies_over_programs() {
    let prop = pbt::property! {
        forall program: Program<KvMachine>,
            #[with = KvMachine.programs()],
            #[shrink = KvMachine.programs().shrinker()],
            #[print = KvMachine.programs().printer()];
        check stateful::check(&KvMachine, &program)
    };
    assert_minimal(&pbt::runners::generational(&prop, config(2)));
}

/// Without `#[shrink]`, a `#[with]` variable shrinks through its choices:
/// the program is regenerated from simpler choices, so it stays valid
/// (`check` discards an invalid program, so the failing counterexample is a
/// valid one); only the argument values may stay larger.
#[test]
fn programs_shrunk_through_their_choices_stay_valid() {
    let prop = pbt::property! {
        forall program: Program<KvMachine>, #[with = KvMachine.programs()];
        check stateful::check(&KvMachine, &program)
    };
    let report = pbt::runners::generational(&prop, config(2));
    let shown = printed(&report);
    // Printed by the program's `Debug`: the numbered steps and the
    // reproducer, as the program printer prints them.
    assert!(
        shown.contains("  1. ") && shown.contains("Remove(") && shown.contains("reproducer"),
        "{report}"
    );
    let fails = |s: &str| s.matches("Insert(").count() >= 3;
    assert!(
        fails(&shown),
        "three inserts before the failing remove: {report}"
    );
}

mod as_a_test {
    use super::*;
    use pbt::prelude::*;

    /// The passing twin of `KvMachine`: a store without the planted bug.
    #[derive(Debug)]
    struct Fixed;

    impl StateMachine for Fixed {
        type Model = BTreeMap<u8, u8>;
        type System = BTreeMap<u8, u8>;
        type Command = Cmd;
        type Output = Option<u8>;
        fn init_model(&self) -> Self::Model {
            BTreeMap::new()
        }
        fn init_system(&self) -> Self::System {
            BTreeMap::new()
        }
        fn commands<'a>(&'a self, model: &'a Self::Model) -> impl Gen<Value = Cmd> + 'a {
            KvMachine.commands(model)
        }
        fn precondition(&self, model: &Self::Model, cmd: &Cmd) -> bool {
            KvMachine.precondition(model, cmd)
        }
        fn apply_model(&self, model: &mut Self::Model, cmd: &Cmd) -> Option<u8> {
            KvMachine.apply_model(model, cmd)
        }
        fn apply_system(&self, map: &mut Self::System, cmd: &Cmd) -> Option<u8> {
            KvMachine.apply_model(map, cmd)
        }
    }

    #[property_test(cases = 200)]
    fn a_correct_store_agrees_with_its_model(
        #[with = Fixed.programs()]
        #[shrink = Fixed.programs().shrinker()]
        program: Program<Fixed>,
    ) -> Outcome {
        stateful::check(&Fixed, &program)
    }
}

/// A system that panics on its second command (or, with
/// `generator_panics`, a command generator that panics past state 4): the
/// panic becomes the failure, the program shrinks to the shortest one, and its printing shows
/// the panic at the step where it happened.
#[derive(Debug)]
struct Crashy {
    generator_panics: bool,
}

impl StateMachine for Crashy {
    type Model = u32;
    type System = u32;
    type Command = u8;
    type Output = u32;
    fn init_model(&self) -> u32 {
        0
    }
    fn init_system(&self) -> u32 {
        0
    }
    fn commands<'a>(&'a self, model: &'a u32) -> impl Gen<Value = u8> + 'a {
        pbt::generators::from_fn(move |src, size| {
            assert!(
                !self.generator_panics || *model < 5,
                "the command generator refuses state {model}"
            );
            int(0..=9u8).generate(src, size)
        })
    }
    fn apply_model(&self, n: &mut u32, c: &u8) -> u32 {
        *n += 1 + *c as u32;
        *n
    }
    fn apply_system(&self, n: &mut u32, c: &u8) -> u32 {
        let crashes = !self.generator_panics;
        assert!(
            !crashes || *n == 0,
            "the system crashed on its second command"
        );
        *n += 1 + *c as u32;
        *n
    }
}

#[test]
fn a_panicking_system_is_reported_and_shrunk() {
    let machine = Crashy {
        generator_panics: false,
    };
    let report = pbt::runners::generational(&machine.property(), config(1).cases(300));
    let failure = report
        .failure
        .as_ref()
        .unwrap_or_else(|| panic!("{report}"));
    assert!(
        failure
            .reason
            .contains("the system crashed on its second command"),
        "{report}"
    );
    let shown = printed(&report);
    assert!(
        shown.contains("  1. 0  // model: 1, system: 1\n  2. 0  // model: ?, system: <panicked: the system crashed on its second command>   <-- fails here\n"),
        "{report}"
    );
    assert!(
        shown.contains("    // the last call panics: the system crashed"),
        "{report}"
    );
}

#[test]
fn a_panicking_command_generator_is_reported() {
    let machine = Crashy {
        generator_panics: true,
    };
    let report = pbt::runners::generational(&machine.property(), config(1).cases(300));
    let failure = report
        .failure
        .as_ref()
        .unwrap_or_else(|| panic!("{report}"));
    assert!(
        failure
            .reason
            .contains("the generator panicked: the command generator refuses state"),
        "{report}"
    );
}

/// Shrinking replays user code; a generator that panics in the states a
/// candidate reaches loses that candidate, not the run.
#[test]
fn shrinking_survives_a_panicking_command_generator() {
    let machine = Crashy {
        generator_panics: true,
    };
    let programs = machine.programs();
    let mut rng = pbt::Rng::from_seed(4);
    for _ in 0..50 {
        let Ok(program) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            programs.generate(&mut rng, 10)
        })) else {
            continue;
        };
        let program = program.unwrap();
        for candidate in programs.shrink(&program).take(100) {
            assert!(candidate.is_valid(programs.machine()));
            assert!(candidate.len() <= program.len());
        }
    }
}

/// A machine that never allows a command generates only empty programs and
/// passes; one whose generator always rejects does too.
#[derive(Debug)]
struct Nothing;

impl StateMachine for Nothing {
    type Model = ();
    type System = ();
    type Command = u8;
    type Output = ();
    fn init_model(&self) {}
    fn init_system(&self) {}
    fn commands<'a>(&'a self, _: &'a ()) -> impl Gen<Value = u8> + 'a {
        int(0..=9u8).filter(|_| false)
    }
    fn apply_model(&self, _: &mut (), _: &u8) {}
    fn apply_system(&self, _: &mut (), _: &u8) {
        unreachable!("no command may run")
    }
}

#[test]
fn a_machine_without_valid_commands_runs_empty_programs() {
    let report = pbt::runners::generational(&Nothing.property(), config(1).cases(100));
    assert!(report.passed(), "{report}");
    let p = Nothing
        .programs()
        .generate(&mut pbt::Rng::from_seed(3), 10)
        .unwrap();
    assert!(p.is_empty());
}

/// The reproducer printed in a report, written to a file as the body of a
/// `main` (beside the machine's definition) and built with trybuild: it
/// compiles, and running it panics at the failing step as the report said.
#[test]
fn the_printed_reproducer_compiles_and_fails() {
    let report = pbt::runners::generational(&KvMachine.property(), config(9));
    let shown = printed(&report);
    let reproducer = shown
        .split("reproducer (paste into a #[test]):\n")
        .nth(1)
        .expect("a reproducer is printed");
    let kv = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/stateful/kv.rs");
    let source = format!(
        "include!({kv:?});\n\n\
         fn main() {{\n\
         let failed = std::panic::catch_unwind(|| {{\n{reproducer}}});\n\
         assert!(failed.is_err(), \"the reproducer must fail\");\n\
         }}\n"
    );
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("stateful_reproducer.rs");
    std::fs::write(&path, source).unwrap();
    trybuild::TestCases::new().pass(&path);
}

/// The report shows the shrunk program and its reproducer once; the
/// program as first found is summarised in one line (before, it was
/// printed again with its own reproducer: 55 of a report's 76 lines).
#[test]
fn the_report_shows_only_the_shrunk_programs_reproducer() {
    let report = pbt::runners::generational(&KvMachine.property(), config(7));
    let text = report.to_string();
    let failure = report.failure.as_ref().expect("fails");
    assert_ne!(failure.original, failure.counterexample, "{text}");
    assert_eq!(text.matches("reproducer (paste").count(), 1, "{text}");
    let first_found = text
        .lines()
        .find(|l| l.starts_with("first found as: "))
        .expect("a first-found line");
    assert!(first_found.contains("program = <"), "{first_found}");
    let after = text.split(first_found).nth(1).unwrap_or_default();
    assert!(!after.contains("  1. "), "{text}");
}

/// A machine's programs as a `#[property_test]` parameter take one
/// annotation, `#[with = …]`: the generator's choices shrink the program
/// to the minimal one, and its `Debug` prints the numbered steps and the
/// reproducer (before, `#[shrink = …]` and `#[print = …]` were needed too).
#[pbt::property_test(runner = quiet, seed = 7, cases = 2_000)]
#[should_panic(
    expected = "  4. Remove(0)  // model: Some(0), system: None   <-- fails here
reproducer (paste into a #[test]):"
)]
fn a_machine_parameter_takes_one_annotation(
    #[with = KvMachine.programs()] program: Program<KvMachine>,
) -> pbt::Outcome {
    stateful::check(&KvMachine, &program)
}

/// The runner of [`a_machine_parameter_takes_one_annotation`]: nothing
/// saved (it fails on purpose), the report panicked with.
fn quiet<P: Property + Sync>(prop: &P, config: Config) -> Report {
    pbt::runners::generational(prop, config.ignore_env().regressions(Regressions::Off))
}

#[path = "stateful/kv_enum_out.rs"]
mod kv_enum_out;

/// A machine whose output is an enum, with a variant named like a
/// command's: the printed reproducer names the output's variants in their
/// own scope, so it compiles (before, `use Cmd::*;` then `Get(Some(0))`
/// called the command's constructor, E0618/E0308), and it fails as the
/// report said.
#[test]
fn the_printed_reproducer_compiles_with_an_enum_output() {
    let machine = kv_enum_out::KvOutMachine;
    let report = pbt::runners::generational(&machine.property(), config(9));
    let shown = printed(&report);
    let reproducer = shown
        .split("reproducer (paste into a #[test]):\n")
        .nth(1)
        .expect("a reproducer is printed");
    assert!(reproducer.contains("Get(Some(0))"), "{reproducer}");
    let kv = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/stateful/kv_enum_out.rs");
    let source = format!(
        "include!({kv:?});\n\n\
         fn main() {{\n\
         let failed = std::panic::catch_unwind(|| {{\n{reproducer}}});\n\
         assert!(failed.is_err(), \"the reproducer must fail\");\n\
         }}\n"
    );
    let path =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("stateful_reproducer_enum.rs");
    std::fs::write(&path, source).unwrap();
    trybuild::TestCases::new().pass(&path);
}

#[path = "stateful/concurrent.rs"]
mod concurrent_systems;

#[path = "stateful/linearizability.rs"]
mod linearizability;

/// The common case without a derive: the staged DSL writes a machine's
/// commands as one expression, a weight reading the model turning "remove
/// a key that exists" off while there is none.
mod staged_commands {
    use super::kv::{Cmd, KvMachine, LeakyKv};
    use super::{assert_minimal, config};
    use pbt::generators::Gen;
    use pbt::stateful::StateMachine;
    use std::collections::BTreeMap;

    #[derive(Debug)]
    struct Staged;

    /// A key of a non-empty `model`, as a generator.
    fn choose_key(model: &BTreeMap<u8, u8>) -> impl Gen<Value = u8> + '_ {
        pbt::generators::map(pbt::generators::int(0..model.len()), move |i| {
            *model.keys().nth(i).expect("i < len")
        })
    }

    impl StateMachine for Staged {
        type Model = BTreeMap<u8, u8>;
        type System = LeakyKv;
        type Command = Cmd;
        type Output = Option<u8>;
        fn init_model(&self) -> Self::Model {
            BTreeMap::new()
        }
        fn init_system(&self) -> LeakyKv {
            LeakyKv::default()
        }
        fn commands<'a>(&'a self, model: &'a Self::Model) -> impl Gen<Value = Cmd> + 'a {
            pbt::generator!(frequency[
                1 => map((int(0..10u8), int(0..=255u8)), |(k, v)| Cmd::Insert(k, v)),
                1 => map(int(0..10u8), Cmd::Get),
                model.len().min(1) => map(choose_key(model), Cmd::Remove),
            ])
        }
        fn precondition(&self, model: &Self::Model, cmd: &Cmd) -> bool {
            KvMachine.precondition(model, cmd)
        }
        fn apply_model(&self, model: &mut Self::Model, cmd: &Cmd) -> Option<u8> {
            KvMachine.apply_model(model, cmd)
        }
        fn apply_system(&self, kv: &mut LeakyKv, cmd: &Cmd) -> Option<u8> {
            KvMachine.apply_system(kv, cmd)
        }
        fn print_machine(&self) -> String {
            "KvMachine".into()
        }
    }

    #[test]
    fn staged_commands_find_and_shrink_the_planted_bug() {
        assert_minimal(&pbt::runners::generational(&Staged.property(), config(1)));
    }
}
