//! Each pass on its own does what its name says.

use super::passes::PassFn;
use super::shrinker::MAX_WIDENED_SIZE;
use super::*;
use crate::choices::*;
use crate::gen::{int, just, recursive, sized, vec, Gen};
use std::fmt::Debug;

/// A shrinker over `g` from `start` at `size`, whose test takes a candidate
/// when its value fails and changes (or keeps, as the step asks).
fn shrinker<'g, G, F>(
    g: &'g G,
    start: &[u64],
    size: usize,
    fails: F,
) -> ChoiceShrinker<impl FnMut(Attempt<'_>) -> Trial + 'g>
where
    G: Gen,
    G::Value: Debug,
    F: Fn(&G::Value) -> bool + 'g,
{
    let mut replay = Replay::new(start);
    let first = g.generate(&mut replay, size).expect("the start generates");
    assert!(fails(&first), "the start must fail: {first:?}");
    let mut shown = format!("{first:?}");
    let test = move |a: Attempt<'_>| {
        let mut replay = match a.mode {
            ReplayMode::Reencode => Replay::saturating(a.candidate),
            _ => Replay::new(a.candidate),
        };
        let Ok(v) = g.generate(&mut replay, a.size) else {
            return Trial::NotAStep;
        };
        let replayed = replay.into_replayed();
        let printed = format!("{v:?}");
        if fails(&v) && a.progress(&replayed.choices) && (printed == shown) == a.mode.keeps_value()
        {
            shown = printed;
            Trial::Shrunk(replayed)
        } else {
            Trial::NotAStep
        }
    };
    ChoiceShrinker::new(replay.into_replayed(), size, test).resizing(true)
}

/// Run `pass` alone to a fixed point; the value it ends at.
fn run<G: Gen, T: ShrinkTest>(g: &G, s: &mut ChoiceShrinker<T>, pass: PassFn<T>) -> G::Value {
    loop {
        let before = s.steps();
        pass(s).expect("these tests never stop");
        if s.steps() == before {
            break;
        }
    }
    g.generate(&mut Replay::new(s.choices()), s.size()).unwrap()
}

#[test]
fn delete_blocks_deletes_elements_and_lowers_the_length() {
    let g = vec(int(0..=9u8), 0..=10);
    let mut s = shrinker(&g, &[4, 1, 7, 2, 3], 10, |v| v.contains(&7));
    assert_eq!(run(&g, &mut s, super::delete::delete_blocks), vec![7]);
    assert_eq!(s.choices(), &[1, 7]);
}

/// A 4 096-element list that fails because of the one element `7` near its
/// front: halves go, two replays for each halving, until fewer than eight
/// elements are left.
#[test]
fn delete_halves_drops_most_of_a_long_list_in_few_short_replays() {
    let g = vec(int(0..=9u8), 0..=5000);
    let mut start = vec![4096];
    start.extend((0..4096).map(|i| if i == 5 { 7 } else { 1 }));
    let mut s = shrinker(&g, &start, 10, |v| v.contains(&7));
    let left = run(&g, &mut s, super::delete::delete_halves);
    assert!(left.contains(&7) && left.len() < 8, "{left:?}");
    // Nine halvings, two replays each, and the six that end the pass.
    assert!(s.attempts() <= 2 * 9 + 6, "{} replays", s.attempts());
}

/// A list none of whose halves or quarters can go costs six replays; when
/// its elements are all equal, every half is the same candidate, and so is
/// every quarter: two replays (a rejected candidate never runs again).
#[test]
fn delete_halves_gives_up_after_six_replays() {
    let g = vec(int(0..=9u8), 0..=100);
    let start: Vec<u64> = std::iter::once(64).chain((0..64).map(|i| i % 10)).collect();
    let mut s = shrinker(&g, &start, 10, |v| v.len() == 64);
    assert_eq!(run(&g, &mut s, super::delete::delete_halves).len(), 64);
    assert_eq!(s.attempts(), 6);
    let same: Vec<u64> = std::iter::once(64)
        .chain(std::iter::repeat_n(3, 64))
        .collect();
    let mut s = shrinker(&g, &same, 10, |v| v.len() == 64);
    assert_eq!(run(&g, &mut s, super::delete::delete_halves).len(), 64);
    assert_eq!(s.attempts(), 2);
}

#[test]
fn zero_blocks_zeroes_elements() {
    let g = vec(int(0..=9u8), 3..=3);
    let mut s = shrinker(&g, &[0, 4, 5, 6], 10, |v| v.len() == 3);
    assert_eq!(run(&g, &mut s, super::minimize::zero_blocks), vec![0, 0, 0]);
}

/// A list that marks no blocks: "one more?" choices, then elements.
#[derive(Clone, Copy)]
struct Unmarked;

impl Gen for Unmarked {
    type Value = Vec<u64>;
    fn generate<S: crate::Source + ?Sized>(
        &self,
        src: &mut S,
        _size: usize,
    ) -> crate::Generated<Vec<u64>> {
        let mut out = Vec::new();
        while src.draw(1) != 0 {
            out.push(src.draw(9));
        }
        Ok(out)
    }
}

/// `[1, 3, 2]` fails while its 1s and 2s are as many (an `Inc` and its
/// `Dec`): no single deletion fails, the pair apart does.
#[test]
fn delete_pairs_deletes_two_elements_apart() {
    let g = vec(int(0..=9u8), 0..=10);
    let balanced = |v: &Vec<u8>| {
        let count = |x| v.iter().filter(|&&y| y == x).count();
        v.contains(&3) && count(1) == count(2)
    };
    let mut s = shrinker(&g, &[3, 1, 3, 2], 10, balanced);
    assert_eq!(run(&g, &mut s, super::delete::delete_blocks), vec![1, 3, 2]);
    assert_eq!(run(&g, &mut s, super::combine::delete_pairs), vec![3]);
}

/// `[0, 0, 0]` fails, and `[1, 0]`: shorter only with a value raised.
#[test]
fn delete_replacing_deletes_an_element_while_another_changes() {
    let g = vec(int(0..=9u8), 0..=10);
    let fails = |v: &Vec<u8>| v == &[0, 0, 0] || v == &[1, 0];
    let mut s = shrinker(&g, &[3, 0, 0, 0], 10, fails);
    assert_eq!(run(&g, &mut s, super::delete::delete_blocks), vec![0, 0, 0]);
    assert_eq!(
        run(&g, &mut s, super::combine::delete_replacing),
        vec![1, 0]
    );
}

/// A list drawn as a program is: each element a block of its "one
/// more?" choice (`0` ends the list) and its value, the end included.
#[derive(Clone, Copy)]
struct Continued;

impl Gen for Continued {
    type Value = Vec<u64>;
    fn generate<S: crate::Source + ?Sized>(
        &self,
        src: &mut S,
        _size: usize,
    ) -> crate::Generated<Vec<u64>> {
        use crate::source::BlockKind;
        let mut out = Vec::new();
        src.start_block(BlockKind::Collection);
        loop {
            src.start_block(BlockKind::Element);
            let more = src.draw(2) != 0;
            if more {
                out.push(src.draw(9));
            }
            src.end_block();
            if !more {
                break;
            }
        }
        src.end_block();
        Ok(out)
    }
}

/// The element that ends a list drawn as a program (its "no more" `0`,
/// the last choice) is read back by any replay of a candidate without it:
/// `delete_replacing` and `delete_pairs` do not delete it, and still
/// delete the others (`[0, 0, 0]` fails, and `[1, 0]`).
#[test]
fn deleting_the_zeros_that_end_the_sequence_is_not_tried() {
    let g = Continued;
    let fails = |v: &Vec<u64>| v == &[0, 0, 0] || v == &[1, 0];
    let start = [1, 0, 1, 0, 1, 0, 0];
    let tried = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let log = std::rc::Rc::clone(&tried);
    let mut inner = shrinker(&g, &start, 10, fails);
    assert_eq!(
        run(&g, &mut inner, super::combine::delete_replacing),
        vec![1, 0]
    );
    // The same start under a test that logs each candidate and takes none.
    let test = move |a: Attempt<'_>| {
        log.borrow_mut().push(a.candidate.to_vec());
        Trial::NotAStep
    };
    let mut replay = Replay::new(&start);
    g.generate(&mut replay, 10).unwrap();
    let mut s = ChoiceShrinker::new(replay.into_replayed(), 10, test);
    super::combine::delete_replacing(&mut s).unwrap();
    super::combine::delete_pairs(&mut s).unwrap();
    let tried = tried.borrow();
    assert!(!tried.is_empty());
    // Without the end (one choice fewer), every candidate would begin as
    // the start does, less its last choice, but for the one edited.
    assert!(
        tried.iter().all(|c| c.len() != start.len() - 1),
        "{tried:?}"
    );
}

/// `[0, 0, 6]` fails, and `[0, 7]` (a call from the front, then an
/// `nth_back` too far): one element fewer only with a later one raised by
/// one, where `delete_replacing` (equal elements, small values) does not
/// reach.
#[test]
fn delete_raising_deletes_an_element_while_a_later_one_goes_up() {
    let g = vec(int(0..=9u8), 0..=10);
    let fails = |v: &Vec<u8>| v.len() >= 2 && usize::from(v[v.len() - 1]) + v.len() == 9;
    let mut s = shrinker(&g, &[3, 0, 0, 6], 10, fails);
    assert_eq!(
        run(&g, &mut s, super::combine::delete_replacing),
        vec![0, 0, 6]
    );
    assert_eq!(run(&g, &mut s, super::combine::delete_raising), vec![0, 7]);
}

/// A `u128` that fails from 71 bits on when it is 1 mod 3 (a third of
/// the values of each length): from `2^127 + …` the pass alone ends at 71
/// bits, where lowering the high half alone stays at the value's length.
#[test]
fn lower_magnitude_takes_a_wide_integer_to_the_least_failing_bit_length() {
    let g = crate::gen::any::<u128>();
    let fails = |x: &u128| *x >> 70 != 0 && *x % 3 == 1;
    let (hi, lo) = (0x8123_4567_89ab_cdef_u64, 0xfedc_ba98_7654_3210_u64);
    let start = (0..3)
        .map(|k| [4, hi, lo + k])
        .find(|c| fails(&g.generate(&mut Replay::new(c), 10).unwrap()))
        .expect("one of three is 1 mod 3");
    let mut s = shrinker(&g, &start, 10, fails);
    let x = run(&g, &mut s, super::magnitude::lower_magnitude);
    assert_eq!(128 - x.leading_zeros(), 71, "{x:#x}");
}

#[test]
fn delete_choices_deletes_runs_of_choices() {
    let mut s = shrinker(&Unmarked, &[1, 3, 1, 7, 1, 2, 1, 4, 0], 10, |v| {
        v.contains(&7)
    });
    assert_eq!(
        run(&Unmarked, &mut s, super::delete::delete_choices),
        vec![7]
    );
    assert_eq!(s.choices(), &[1, 7, 0]);
}

#[test]
fn delete_with_length_deletes_elements_drawn_after_their_length() {
    // `bind(len, vec of exactly len)`: the length is outside the vector.
    let g = crate::gen::bind(int(0..=5usize), |n| vec(int(0..=9u8), n..=n));
    let mut s = shrinker(&g, &[3, 0, 1, 7, 2], 10, |v| v.contains(&7));
    assert_eq!(run(&g, &mut s, super::delete::delete_with_length), vec![7]);
}

#[test]
fn minimize_choices_finds_the_least_failing_value() {
    let g = int(0..=1_000_000u32);
    let mut s = shrinker(&g, &[999_999], 10, |&x| x >= 321);
    assert_eq!(run(&g, &mut s, super::minimize::minimize_choices), 321);
    assert!(s.attempts() < 60, "{}", s.attempts());
}

#[test]
fn shrink_duplicates_lowers_equal_choices_together() {
    let g = (int(0..=1000u32), int(0..=9u32), int(0..=1000u32));
    let mut s = shrinker(&g, &[500, 3, 500], 10, |&(a, _, c)| a == c && a >= 10);
    assert_eq!(
        run(&g, &mut s, super::minimize::shrink_duplicates),
        (10, 3, 10)
    );
}

#[test]
fn lower_pairs_keeps_a_difference() {
    let g = (int(0..=1000u32), int(0..=1000u32));
    let mut s = shrinker(&g, &[50, 47], 10, |&(a, b)| a == b + 3);
    assert_eq!(run(&g, &mut s, super::minimize::lower_pairs), (3, 0));
}

#[test]
fn redistribute_moves_value_to_a_later_choice() {
    let g = (int(0..=1000u32), int(0..=1000u32));
    let mut s = shrinker(&g, &[6, 6], 10, |&(a, b)| a + b >= 10);
    assert_eq!(run(&g, &mut s, super::minimize::redistribute).0, 0);
}

#[derive(Clone, Debug, PartialEq)]
enum Tree {
    Leaf(u8),
    Node(Box<Tree>, Box<Tree>),
}

#[test]
fn pass_to_descendant_replaces_a_node_by_a_subtree() {
    let g = recursive(|rec| {
        crate::gen::frequency(vec![
            (1, int(0..=9u8).map(Tree::Leaf).boxed()),
            (
                2,
                (rec.clone(), rec)
                    .map(|(l, r)| Tree::Node(Box::new(l), Box::new(r)))
                    .boxed(),
            ),
        ])
    });
    // Node(Leaf(1), Node(Leaf(7), Leaf(2))): fails while it holds a 7.
    let start = [1, 0, 1, 1, 0, 7, 0, 2];
    let has7 = |t: &Tree| format!("{t:?}").contains('7');
    let mut s = shrinker(&g, &start, 10, has7);
    assert_eq!(
        run(&g, &mut s, super::restructure::pass_to_descendant),
        Tree::Leaf(7)
    );
}

#[test]
fn reorder_blocks_sorts_siblings() {
    let g = vec(int(0..=9u8), 0..=5);
    let mut s = shrinker(&g, &[3, 5, 1, 4], 10, |v| v.len() == 3 && v.contains(&5));
    assert_eq!(
        run(&g, &mut s, super::restructure::reorder_blocks),
        vec![1, 4, 5]
    );
}

#[test]
fn join_collections_joins_adjacent_lists() {
    let g = vec(vec(int(0..=9u8), 0..=5), 0..=5);
    let total = |v: &Vec<Vec<u8>>| v.iter().map(Vec::len).sum::<usize>();
    let mut s = shrinker(&g, &[2, 1, 4, 2, 5, 6], 10, move |v| total(v) >= 3);
    assert_eq!(
        run(&g, &mut s, super::restructure::join_collections),
        vec![vec![4, 5, 6]]
    );
}

#[test]
fn shrink_size_finds_the_least_failing_size() {
    let g = sized(just);
    let mut s = shrinker(&g, &[], 50, |&n| n >= 3);
    assert_eq!(run(&g, &mut s, super::size::shrink_size), 3);
    assert_eq!(s.size(), 3);
}

/// A size that gives the value as it is ends the size search: the sizes
/// above it clamp nothing more. Before, the search went on up to the
/// current size, one replay for each halving, none of them a step.
#[test]
fn shrink_size_stops_at_a_size_that_keeps_the_value() {
    let g = sized(|n| vec(int(0..=9u8), 0..=n));
    let start = [3, 7, 7, 7];
    let sizes = std::cell::RefCell::new(Vec::new());
    let test = |a: Attempt<'_>| {
        sizes.borrow_mut().push(a.size);
        let mut replay = Replay::new(a.candidate);
        let v = g.generate(&mut replay, a.size).unwrap();
        match (v.contains(&7), v == [7, 7, 7]) {
            (true, true) => Trial::Unchanged,
            (true, false) => Trial::Shrunk(replay.into_replayed()),
            (false, _) => Trial::NotAStep,
        }
    };
    let mut replay = Replay::new(&start);
    g.generate(&mut replay, 100).unwrap();
    let mut s = ChoiceShrinker::new(replay.into_replayed(), 100, test).resizing(true);
    super::size::shrink_size(&mut s).unwrap();
    assert_eq!((s.size(), s.steps()), (100, 0));
    drop(s);
    // Size 0 (the empty list passes), then 50 (the same list): done.
    assert_eq!(*sizes.borrow(), [0, 50]);
}

#[test]
fn widen_size_widens_while_the_value_stays() {
    let g = sized(|n| vec(int(0..=0u8), 0..=n));
    let mut s = shrinker(&g, &[3, 0, 0, 0], 4, |v| v.len() >= 3);
    assert_eq!(run(&g, &mut s, super::size::widen_size), vec![0, 0, 0]);
    assert_eq!(s.size(), MAX_WIDENED_SIZE);
    // In one replay, not one for each doubling.
    assert_eq!(s.attempts(), 1);
}

#[test]
fn reencode_takes_a_simpler_kind_for_the_same_value() {
    // Arbitrary u32: kind 7 is an edge value; u32::MAX is also the
    // largest "any" value (kind 6).
    let g = crate::gen::any::<u32>();
    let start = [7, 3];
    let first = g.generate(&mut Replay::new(&start), 10).unwrap();
    let mut s = shrinker(&g, &start, 10, move |&x| x == first);
    let v = run(&g, &mut s, super::size::reencode);
    assert_eq!(v, first);
    assert!(shortlex_lt(s.choices(), &start));
}

/// A 4 096-element list with a `7` at every tenth element: the prefix of
/// 16 elements already fails, so one short replay replaces the nine
/// halvings of the whole list (each a replay of half of it).
#[test]
fn delete_halves_keeps_a_short_failing_prefix_of_a_long_list_first() {
    let g = vec(int(0..=9u8), 0..=5000);
    let mut start = vec![4096];
    start.extend((0..4096).map(|i| if i % 10 == 9 { 7 } else { 1 }));
    let mut s = shrinker(&g, &start, 10, |v| v.contains(&7));
    let left = run(&g, &mut s, super::delete::delete_halves);
    assert!(left.contains(&7) && left.len() < 8, "{left:?}");
    // Prefixes of 8 (rejected) and 16 elements, then halvings of 16.
    assert!(s.attempts() <= 8, "{} replays", s.attempts());
    assert!(s.choices().len() < 9);
}

/// A widening that grows no bound (the generator ignores the size) is no
/// step: the size passes would otherwise search down from it again.
#[test]
fn widen_size_takes_no_size_that_grows_no_bound() {
    let g = vec(int(0..=9u8), 0..=10);
    let mut s = shrinker(&g, &[2, 7, 7], 4, |v| v.contains(&7));
    run(&g, &mut s, super::size::widen_size);
    assert_eq!((s.size(), s.steps()), (4, 0));
    assert_eq!(s.attempts(), 2, "the largest size, then the doubled one");
}

/// Every candidate the shrinker runs is counted, and none runs twice: a
/// candidate the test rejected is never run again (at the same size), and
/// one it took is the current sequence, which later candidates are smaller
/// than.
#[test]
fn the_shrinker_counts_every_run_and_runs_no_candidate_twice() {
    use std::cell::RefCell;
    let g = vec((int(0..=1000u32), int(0..=1000u32)), 0..=40);
    let fails = |v: &Vec<(u32, u32)>| v.iter().filter(|(a, b)| a + b > 700).count() >= 2;
    let start: Vec<u64> = std::iter::once(30)
        .chain((0..60).map(|i| (i * 379 + 11) % 1000))
        .collect();
    let first = g.generate(&mut Replay::new(&start), 10).unwrap();
    assert!(fails(&first));
    let runs = RefCell::new(Vec::new());
    let mut shown = format!("{first:?}");
    let test = |a: Attempt<'_>| {
        runs.borrow_mut()
            .push((a.candidate.to_vec(), a.size, a.mode));
        let mut replay = match a.mode {
            ReplayMode::Reencode => Replay::saturating(a.candidate),
            _ => Replay::new(a.candidate),
        };
        let Ok(v) = g.generate(&mut replay, a.size) else {
            return Trial::NotAStep;
        };
        let replayed = replay.into_replayed();
        let printed = format!("{v:?}");
        if fails(&v) && a.progress(&replayed.choices) && (printed == shown) == a.mode.keeps_value()
        {
            shown = printed;
            Trial::Shrunk(replayed)
        } else {
            Trial::NotAStep
        }
    };
    let mut replay = Replay::new(&start);
    g.generate(&mut replay, 10).unwrap();
    let mut s = ChoiceShrinker::new(replay.into_replayed(), 10, test).resizing(true);
    s.run();
    let attempts = s.attempts();
    let end = s.choices().to_vec();
    drop(s);
    let runs = runs.into_inner();
    assert_eq!(attempts, runs.len() as u64);
    let mut seen = std::collections::HashSet::new();
    for (candidate, size, step) in &runs {
        if *step == ReplayMode::Simplify {
            assert!(seen.insert((candidate, size)), "ran twice: {candidate:?}");
        }
    }
    let shrunk = g.generate(&mut Replay::new(&end), 10).unwrap();
    assert!(fails(&shrunk) && shrunk.len() == 2, "{shrunk:?}");
}

/// A failing list loses its passing elements without their being zeroed
/// first: deleting comes before zeroing among the cheap passes (each
/// zeroing would be a printed step of the whole list).
#[test]
fn a_failing_list_loses_elements_before_any_is_zeroed() {
    use std::cell::RefCell;
    let g = vec(int(0..=9u8), 0..=40);
    let start: Vec<u64> = std::iter::once(30)
        .chain((0..30).map(|i| if i == 17 { 7 } else { 1 + i % 5 }))
        .collect();
    let steps = RefCell::new(Vec::new());
    let mut shown = String::new();
    let test = |a: Attempt<'_>| {
        let mut replay = Replay::new(a.candidate);
        let Ok(v) = g.generate(&mut replay, a.size) else {
            return Trial::NotAStep;
        };
        let replayed = replay.into_replayed();
        let printed = format!("{v:?}");
        if v.contains(&7)
            && a.progress(&replayed.choices)
            && printed != shown
            && !a.mode.keeps_value()
        {
            shown = printed;
            steps.borrow_mut().push(v);
            Trial::Shrunk(replayed)
        } else {
            Trial::NotAStep
        }
    };
    let mut replay = Replay::new(&start);
    g.generate(&mut replay, 10).unwrap();
    let mut s = ChoiceShrinker::new(replay.into_replayed(), 10, test);
    s.run();
    drop(s);
    let steps = steps.into_inner();
    assert_eq!(steps.last(), Some(&vec![7]));
    assert!(
        steps.iter().all(|v| !v.contains(&0)),
        "an element was zeroed: {steps:?}"
    );
}

/// Each pass is in the table once, so its statistics are its own.
#[test]
fn the_table_names_each_pass_once() {
    let rows = super::passes::table::<fn(Attempt<'_>) -> Trial>();
    let mut names: Vec<&str> = rows.iter().map(|p| p.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), rows.len());
}

/// The passes find integers by their marks: every `Arbitrary` integer
/// (a 128-bit one too, and one drawn through a [`crate::gen::Prepaid`])
/// is marked where its kind is, a tracer and a replay mark the same, and
/// another draw with the kind's bound is not taken for one.
#[test]
fn integers_are_marked_where_their_kind_is_drawn() {
    use crate::{Arbitrary, Rng};
    let g = (
        crate::gen::any::<u8>(),
        crate::gen::any::<i128>(),
        int(0..=7u8),
        crate::gen::any::<u64>(),
    );
    for seed in 0..20 {
        let mut tracer = Tracer::marking(Rng::from_seed(seed));
        g.generate(&mut tracer, 10).unwrap();
        let traced = tracer.into_replayed();
        let mut replay = Replay::new(&traced.choices);
        g.generate(&mut replay, 10).unwrap();
        assert_eq!(replay.into_replayed(), traced);
        let marks: Vec<usize> = traced.integers.iter().collect();
        assert_eq!(marks.len(), 3, "{marks:?}");
        assert_eq!(marks[..2], [0, 2]);
        let eight = marks[2] - 1;
        assert_eq!(traced.bounds[eight], 7);
        assert!(!traced.integers.starts_at(eight));
    }
    let mut replay = Replay::new(&[5, 9]);
    u32::arbitrary(&mut crate::gen::Prepaid::new(&mut replay), 10);
    assert!(replay.into_replayed().integers.starts_at(0));
}

/// A rejected replay that read only a prefix of its candidate
/// ([`Trial::NotAStepReading`]) rejects every candidate that begins with
/// that prefix: none of them is run, and the shrinker ends where it ends
/// when the test says only [`Trial::NotAStep`], in fewer runs.
#[test]
fn a_rejected_prefix_runs_no_candidate_that_begins_with_it() {
    use std::cell::RefCell;
    let g = vec((int(0..=1000u32), int(0..=1000u32)), 0..=40);
    let fails = |v: &Vec<(u32, u32)>| v.iter().filter(|(a, b)| a + b > 700).count() >= 2;
    let start: Vec<u64> = std::iter::once(30)
        .chain((0..60).map(|i| (i * 379 + 11) % 1000))
        .collect();
    // Shrink, the test telling what a rejected replay read (`reading`) or
    // not; the choices it ends at, and each run with the prefix it read
    // when it said so.
    let shrink = |reading: bool| {
        let runs = RefCell::new(Vec::new());
        let mut shown = format!("{:?}", g.generate(&mut Replay::new(&start), 10).unwrap());
        let test = |a: Attempt<'_>| {
            let mut replay = match a.mode {
                ReplayMode::Reencode => Replay::saturating(a.candidate),
                _ => Replay::new(a.candidate),
            };
            let v = g.generate(&mut replay, a.size);
            let replayed = replay.into_replayed();
            let read = &replayed.choices;
            let printed = format!("{v:?}");
            let taken = v.as_ref().is_ok_and(&fails)
                && a.progress(read)
                && (printed == shown) == a.mode.keeps_value();
            let prefix = (a.candidate.get(..read.len()) == Some(&read[..])
                && matches!(a.mode, ReplayMode::Simplify | ReplayMode::Reencode)
                && !v.as_ref().is_ok_and(|v| fails(v) && a.progress(read)))
            .then(|| read.clone());
            let replayed_as_is = matches!(a.mode, ReplayMode::Simplify | ReplayMode::Reencode);
            runs.borrow_mut()
                .push((a.candidate.to_vec(), a.size, replayed_as_is, prefix.clone()));
            match (taken, prefix) {
                (true, _) => {
                    shown = printed;
                    Trial::Shrunk(replayed)
                }
                (false, Some(p)) if reading => Trial::NotAStepReading(p.len()),
                (false, _) => Trial::NotAStep,
            }
        };
        let mut replay = Replay::new(&start);
        g.generate(&mut replay, 10).unwrap();
        let mut s = ChoiceShrinker::new(replay.into_replayed(), 10, test).resizing(true);
        s.run();
        let end = s.choices().to_vec();
        drop(s);
        (end, runs.into_inner())
    };
    let (plain_end, plain_runs) = shrink(false);
    let (end, runs) = shrink(true);
    assert_eq!(end, plain_end);
    assert!(
        runs.len() < plain_runs.len(),
        "{} runs, {} without the prefixes",
        runs.len(),
        plain_runs.len()
    );
    for (i, (candidate, size, as_is, _)) in runs.iter().enumerate() {
        let earlier = runs[..i]
            .iter()
            .filter_map(|(c, s, _, p)| Some((c, s, p.as_ref()?)));
        for (before, at, read) in earlier {
            assert!(
                !(*as_is && size == at && read.len() < before.len() && candidate.starts_with(read)),
                "{candidate:?} begins with {read:?}, read and rejected"
            );
        }
    }
}
