use super::{capture, Continuation, Data};
use crate::choices::{Replay, Tracer};
use crate::gen::{int, vec};
use crate::property::{Check, Forall, GenData, Prop};
use crate::{Outcome, Property, Rng, Source};

type Env = (Data, (u8, ()));

/// `forall x: u8; forall data: Data; check` drawing `n` then `n` elements,
/// failing when their sum reaches 50.
fn summing() -> impl Property<Inputs = crate::Case<Env>> {
    let check = Check::new(|(data, (x, ())): &Env| {
        let n = data.draw(int(0..=1000i64));
        let v = data.draw_named("v", vec(int(0..=n), 0..=10));
        let _ = x;
        v.iter().sum::<i64>() < 50
    });
    Prop::new(Forall::new(
        "x",
        "u8",
        Forall::new("data", "Data", check).gen_by(GenData),
    ))
}

fn failing_seed(prop: &impl Property<Inputs = crate::Case<Env>>) -> u64 {
    (0..1000)
        .find(|&seed| {
            let inputs = prop.generate(&mut Rng::from_seed(seed), 10).unwrap();
            prop.run(&inputs) != Outcome::Pass
        })
        .expect("a failing seed")
}

#[test]
fn a_check_draws_the_same_on_every_run_and_prints_the_last() {
    let prop = summing();
    let seed = failing_seed(&prop);
    let inputs = prop.generate(&mut Rng::from_seed(seed), 10).unwrap();
    let printed_before = prop.print(&inputs)[1].value.clone();
    assert_eq!(printed_before, "<no draws yet: the test has not run>");
    let (first, tail) = capture(|| prop.run(&inputs));
    let shown = prop.print(&inputs)[1].value.clone();
    let (second, again) = capture(|| prop.run(&inputs));
    assert_eq!(first, second);
    assert_eq!(tail, again);
    assert_eq!(prop.print(&inputs)[1].value, shown);
    assert!(
        shown.starts_with("draw 1: ") && shown.contains("; v: ["),
        "{shown}"
    );
    assert_eq!(
        tail.unwrap().choices().len(),
        again.unwrap().choices().len()
    );
}

#[test]
fn the_draws_continue_the_sequence_so_a_replay_of_it_draws_them_again() {
    let prop = summing();
    let seed = failing_seed(&prop);
    // Traced as a runner traces a failure: the generators' choices, then
    // the check's.
    let mut tracer = Tracer::marking(Rng::from_seed(seed));
    let inputs = prop.generate(&mut tracer, 10).unwrap();
    let (outcome, tail) = capture(|| prop.run(&inputs));
    assert!(matches!(outcome, Outcome::Fail(_)));
    let tail = tail.expect("the check drew");
    tracer.append(&tail);
    let traced = tracer.into_replayed();
    assert_eq!(traced.choices.len(), 2 + tail.choices().len());
    assert_eq!(traced.choices[2..], tail.choices()[..]);
    // The vector's blocks sit in the check's part of the sequence.
    assert!(traced.blocks.iter().any(|b| b.start >= 2));
    // The same choices replayed: the same draws, the same failure.
    let mut replay = Replay::new(&traced.choices);
    let replayed = prop.generate(&mut replay, 10).unwrap();
    let (again, tail_again) = capture(|| prop.run(&replayed));
    replay.append(&tail_again.unwrap());
    assert_eq!(again, outcome);
    assert_eq!(prop.print(&replayed), prop.print(&inputs));
    assert_eq!(replay.into_replayed().choices, traced.choices);
}

#[test]
fn smaller_choices_replayed_make_smaller_draws() {
    let prop = summing();
    // x = 0, then n = 60, a vector of one element 60: fails; all zeros pass.
    let failing = [0, 0, 60, 1, 60];
    let inputs = prop.generate(&mut Replay::new(&failing), 10).unwrap();
    let outcome = prop.run(&inputs);
    assert!(
        matches!(outcome, Outcome::Fail(_)),
        "{:?}",
        prop.print(&inputs)
    );
    assert_eq!(prop.print(&inputs)[1].value, "draw 1: 60; v: [60]");
    let zeros = prop.generate(&mut Replay::new(&[0, 0]), 10).unwrap();
    assert_eq!(prop.run(&zeros), Outcome::Pass);
    assert_eq!(prop.print(&zeros)[1].value, "draw 1: 0; v: []");
}

#[test]
fn a_replay_continues_with_the_rest_of_its_choices() {
    let mut replay = Replay::new(&[1, 2, 3]);
    replay.draw(5);
    match replay.continuation() {
        Continuation::Recorded { rest, saturate } => {
            assert_eq!((rest, saturate), (vec![2, 3], false))
        }
        other => panic!("{other:?}"),
    }
    let mut rng = Rng::from_seed(4);
    let Continuation::Random(mut continued) = rng.continuation() else {
        panic!("an Rng continues its stream")
    };
    assert_eq!(continued.draw(1 << 40), rng.draw(1 << 40));
}

#[test]
fn drawing_outside_the_run_or_after_it_panics() {
    let message = |payload: Box<dyn std::any::Any + Send>| match payload.downcast::<String>() {
        Ok(s) => *s,
        Err(payload) => payload.downcast_ref::<&str>().unwrap().to_string(),
    };
    let data = Data::pending(10);
    let outside = message(std::panic::catch_unwind(|| data.draw(int(0..9u8))).unwrap_err());
    assert!(outside.contains("outside its test"), "{outside}");
    let lent = {
        let _run = data.begin_run();
        let lent = data.lend();
        lent.draw(int(0..9u8));
        lent
    };
    let after = message(std::panic::catch_unwind(|| lent.draw(int(0..9u8))).unwrap_err());
    assert!(after.contains("after its test returned"), "{after}");
    // A lent handle of an earlier run does not draw in a later one either.
    let _run = data.begin_run();
    assert!(std::panic::catch_unwind(|| lent.draw(int(0..9u8))).is_err());
    assert!(data.draw(int(0..9u8)) < 9);
}

#[test]
fn a_clone_is_a_copy_with_its_own_runs() {
    let data = Data::pending(10);
    data.continue_from(&mut Rng::from_seed(9));
    let x = {
        let _run = data.begin_run();
        data.draw(int(0..1000u32))
    };
    let copy = data.clone();
    assert_eq!(format!("{copy:?}"), format!("draw 1: {x}"));
    {
        let _run = copy.begin_run();
        assert_eq!(copy.draw(int(0..1000u32)), x);
        copy.draw(int(0..1000u32));
    }
    assert_eq!(format!("{data:?}"), format!("draw 1: {x}"));
}

#[test]
fn a_rejected_draw_discards_the_test() {
    let data = Data::pending(10);
    let outcome = crate::macro_support::check(|| {
        let _run = data.begin_run();
        data.draw(crate::gen::filter(int(0..9u8), |_| false));
        Outcome::Pass
    });
    assert_eq!(outcome, Outcome::Discard);
}

#[test]
fn a_property_with_two_data_does_not_generate() {
    type Two = (Data, (Data, ()));
    let check = Check::new(|_: &Two| true);
    let prop = Prop::new(
        Forall::new("a", "Data", Forall::new("b", "Data", check).gen_by(GenData)).gen_by(GenData),
    );
    assert!(prop.draws_in_check());
    let failed = std::panic::catch_unwind(|| prop.generate(&mut Rng::from_seed(1), 10).is_ok());
    assert!(failed.is_err());
}
