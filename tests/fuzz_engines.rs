//! Fuzz engines without an engine: the compact byte encoding (`Bytes`),
//! the fuzz-target entry point (`FuzzTarget`, `pbt::fuzz_target!`) run
//! in-process over byte inputs, and crash files replayed and shrunk as saved
//! cases under `cargo test`. The engines themselves run from `fuzz/` (see
//! docs/fuzzing.md).

#[path = "../fuzz/properties/bug.rs"]
mod bug;

use pbt::runners::components::Found;
use pbt::runners::components::Tested;
use pbt::runners::engine::{FuzzTarget, Interest};
use pbt::runners::{fuzz, generational, integrated, Config, Mutation, Regressions};
use pbt::source::Bytes;
use pbt::Source;
use std::path::PathBuf;

/// The no-engine expansion of `fuzz_target!` compiles (the engine ones are
/// built in `fuzz/`): a `main` that replays files.
#[allow(dead_code)]
mod no_engine_target {
    pbt::fuzz_target!(super::bug::property(), max_size = 10);
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pbt-fuzz-engines-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn config(file: PathBuf) -> Config {
    Config::default()
        .ignore_env()
        .seed(7)
        .regressions(Regressions::File(file))
}

/// The draws of `Bytes` over `data` with these bounds.
fn decode(data: &[u8], bounds: &[u64]) -> Vec<u64> {
    let mut src = Bytes::new(data);
    bounds.iter().map(|&b| src.draw(b)).collect()
}

/// The format as docs/fuzzing.md states it, written plainly and
/// independently of `Bytes`: for each draw, where its bits start.
fn bit_offsets(bounds: &[u64]) -> Vec<usize> {
    let mut bit = 0usize;
    let mut out = Vec::new();
    for &max in bounds {
        let k = (64 - max.leading_zeros()) as usize;
        if k >= 8 {
            bit = bit.div_ceil(8) * 8;
        }
        out.push(bit);
        bit += if k >= 8 { k.div_ceil(8) * 8 } else { k };
    }
    out
}

/// The reference decoder of the documented format.
fn reference_decode(data: &[u8], bounds: &[u64]) -> Vec<u64> {
    let bit = |at: usize| data.get(at / 8).map_or(0, |b| u64::from(b >> (at % 8) & 1));
    bounds
        .iter()
        .zip(bit_offsets(bounds))
        .map(|(&max, start)| {
            let k = 64 - max.leading_zeros() as usize;
            let raw = (0..k).fold(0u64, |acc, b| acc | bit(start + b) << b);
            if max != u64::MAX && raw > max {
                raw - (max + 1)
            } else {
                raw
            }
        })
        .collect()
}

// --- The byte encoding, tested with pbt ---------------------------------

#[pbt::property_test(cases = 500)]
fn bytes_decode_as_the_documented_format(data: Vec<u8>, bounds: Vec<u64>) -> bool {
    decode(&data, &bounds) == reference_decode(&data, &bounds)
}

#[pbt::property_test(cases = 300)]
fn bytes_decoding_is_deterministic_and_within_bounds(data: Vec<u8>, bounds: Vec<u64>) -> bool {
    let first = decode(&data, &bounds);
    first == decode(&data, &bounds) && first.iter().zip(&bounds).all(|(c, b)| c <= b)
}

#[pbt::property_test(cases = 300)]
fn the_empty_input_gives_the_simplest_choices(bounds: Vec<u64>) -> bool {
    decode(&[], &bounds).iter().all(|&c| c == 0)
}

#[pbt::property_test(cases = 500)]
fn choices_round_trip_through_bytes(pairs: Vec<(u64, u64)>) -> bool {
    // A choice within its bound: any `u64`, wrapped into `0..=bound`.
    let bounds: Vec<u64> = pairs.iter().map(|&(_, b)| b).collect();
    let choices: Vec<u64> = pairs
        .iter()
        .map(|&(c, b)| b.checked_add(1).map_or(c, |r| c % r))
        .collect();
    decode(&Bytes::encode(&choices, &bounds), &bounds) == choices
}

#[pbt::property_test(cases = 300)]
fn truncation_keeps_whole_draws_and_zeroes_the_rest(data: Vec<u8>, bounds: Vec<u64>, cut: usize) {
    let cut = cut % (data.len() + 1);
    let (full, short) = (decode(&data, &bounds), decode(&data[..cut], &bounds));
    let ends = bounds
        .iter()
        .zip(bit_offsets(&bounds))
        .map(|(&max, start)| {
            let k = 64 - max.leading_zeros() as usize;
            (start, start + if k >= 8 { k.div_ceil(8) * 8 } else { k })
        });
    for (i, (start, end)) in ends.enumerate() {
        if end <= cut * 8 {
            assert_eq!(short[i], full[i], "draw {i} lies inside the kept bytes");
        } else if start >= cut * 8 {
            assert_eq!(short[i], 0, "draw {i} lies past the cut");
        }
    }
}

#[pbt::property_test(cases = 300)]
fn adding_one_to_a_wide_draws_first_byte_adds_one_to_its_choice(
    choices: Vec<u16>,
    at: usize,
) -> pbt::Outcome {
    if choices.is_empty() {
        return pbt::Outcome::Discard;
    }
    let at = at % choices.len();
    let bounds = vec![u64::from(u16::MAX); choices.len()];
    let wide: Vec<u64> = choices.iter().map(|&c| u64::from(c)).collect();
    let mut bytes = Bytes::encode(&wide, &bounds);
    bytes.resize(2 * choices.len(), 0);
    if bytes[2 * at] == u8::MAX {
        return pbt::Outcome::Discard;
    }
    bytes[2 * at] += 1;
    let mut expected = wide.clone();
    expected[at] += 1;
    if decode(&bytes, &bounds) == expected {
        pbt::Outcome::Pass
    } else {
        pbt::Outcome::Fail(format!("byte {} changed more than choice {at}", 2 * at))
    }
}

// --- The fuzz target, in-process -----------------------------------------

/// The engine input that decodes to `s` at `size` for the b-u-g property:
/// the size draw (`0..=100`), the length draw (`0..8`), then one byte per
/// draw (checked against the property's own decoding).
fn bug_input(s: &[u8], size: u64) -> Vec<u8> {
    let mut choices = vec![size, s.len() as u64];
    choices.extend(s.iter().map(|&b| u64::from(b)));
    let mut bounds = vec![100, 7];
    bounds.extend(s.iter().map(|_| 255));
    let bytes = Bytes::encode(&choices, &bounds);
    let prop = bug::property();
    assert_eq!(
        FuzzTarget::new(&prop).import(&bytes),
        Found::Choices {
            choices: choices[1..].to_vec(),
            size: size as usize
        },
        "the b-u-g generator draws a length in 0..8, then the bytes"
    );
    bytes
}

#[test]
fn the_target_runs_over_byte_inputs_without_an_engine() {
    let prop = bug::property();
    let target = FuzzTarget::new(&prop);
    assert_eq!(target.test(&[]), Tested::Passed, "the empty input: s = []");
    for data in [&b"\x00"[..], b"\xff\xff\xff\xff", b"hello, world", &[7; 64]] {
        assert!(
            !matches!(target.test(data), Tested::Discarded(_)),
            "the b-u-g property discards nothing"
        );
    }
    assert_eq!(target.fuzz_one(&bug_input(b"bud", 9)), Interest::Keep);
    // A discard is uninteresting to the engine.
    let evens = pbt::property! {
        forall x: u8, #[gen = int(0..=255u8)];
        implies x % 2 == 0;
        check x < 255
    };
    let evens = FuzzTarget::new(&evens);
    assert_eq!(evens.fuzz_one(&[0, 3]), Interest::Reject);
    assert_eq!(evens.fuzz_one(&[0, 4]), Interest::Keep);
}

#[test]
fn a_failing_input_is_a_crash_that_prints_its_cx_line() {
    let prop = bug::property();
    let target = FuzzTarget::new(&prop);
    let data = bug_input(b"bug", 3);
    // docs/fuzzing.md's worked example: size 3 in 7 bits, length 3 in 3
    // bits, then one byte-aligned byte per element.
    assert_eq!(data, [0x83, 0x01, b'b', b'u', b'g']);
    let Tested::Failed(fault) = target.test(&data) else {
        panic!("{:?} decodes to a failing input", target.import(&data));
    };
    let crash = target.crash(&data, fault);
    assert_eq!(crash.counterexample[0].value, "[98, 117, 103]");
    // The only test that crashes `fuzz_one`, so the variable is its own.
    let dir = scratch("env");
    let saved = dir.join("saved.pbt-regressions");
    std::env::set_var(pbt::runners::engine::REGRESSIONS_ENV, &saved);
    let panic = std::panic::catch_unwind(|| target.fuzz_one(&data)).unwrap_err();
    std::env::remove_var(pbt::runners::engine::REGRESSIONS_ENV);
    let message = panic.downcast_ref::<String>().unwrap();
    assert!(message.contains("cx 3 3,62,75,67"), "{message}");
    assert!(message.contains("s: Vec<u8> = [98, 117, 103]"), "{message}");
    // PBT_FUZZ_REGRESSIONS: the crash is saved before the engine aborts.
    let text = std::fs::read_to_string(&saved).unwrap();
    assert!(
        text.contains("cx 3 3,62,75,67 # fuzz: the check returned false"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_crash_file_replays_under_cargo_test_and_shrinks_to_pbts_own_minimum() {
    let dir = scratch("crash");
    let prop = bug::property();
    let target = FuzzTarget::new(&prop);
    // What an engine leaves behind: a crash longer than it needs to be.
    let artifacts = dir.join("artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    std::fs::write(artifacts.join("crash-1"), bug_input(b"bug!?xy", 60)).unwrap();
    std::fs::write(artifacts.join(".state"), b"not a crash").unwrap();
    std::fs::write(artifacts.join("README.txt"), b"AFL++'s note").unwrap();

    let imported = config(dir.join("imported.pbt-regressions"));
    let found = target.import_crashes(&artifacts, &imported).unwrap();
    assert_eq!(
        found.len(),
        1,
        "hidden files and README.txt are not crashes"
    );
    let text = std::fs::read_to_string(dir.join("imported.pbt-regressions")).unwrap();
    assert!(text.contains("cx 60 7,62,75,67,21,3f,78,79"), "{text}");

    // Under cargo test the saved case is replayed first (no fresh case
    // needed) and shrunk by pbt's shrinkers, by each runner.
    let mut minima: Vec<String> = Vec::new();
    for (name, report) in [
        (
            "generational",
            generational(&prop, imported.clone().cases(0)),
        ),
        ("integrated", integrated(&prop, imported.clone().cases(0))),
    ] {
        let failure = report
            .failure
            .unwrap_or_else(|| panic!("{name}: the crash replays"));
        assert!(
            failure.replayed_from.is_some(),
            "{name}: replayed from the file"
        );
        // The first run replays the crash; it saves its shrunk case, which
        // the test's next run replays first.
        let first = match name {
            "generational" => "[98, 117, 103, 33, 63, 120, 121]",
            _ => minima[0].as_str(),
        };
        assert_eq!(failure.original[0].value, first);
        minima.push(failure.counterexample[0].value.clone());
    }

    // pbt finds the bug itself with its fuzz runner and shrinks it.
    let own = fuzz(
        &prop,
        config(dir.join("own.pbt-regressions"))
            .cases(1_000_000)
            .mutation(Mutation::Both),
    );
    let own_min = own
        .failure
        .expect("pbt's fuzz runner finds b-u-g")
        .counterexample[0]
        .value
        .clone();
    assert_eq!(own_min, "[98, 117, 103]");
    assert!(
        minima.iter().all(|m| *m == own_min),
        "{minima:?} vs {own_min}"
    );

    // And pbt's own case seeds the engine's corpus: exported, it fails as
    // an engine input.
    let corpus = dir.join("corpus");
    let written = target
        .export_corpus(&config(dir.join("own.pbt-regressions")), &corpus)
        .unwrap();
    // The case as found, and the integrated shrinker's result when it
    // saved one (the default shrinker, `Both`, runs it first).
    assert!((1..=2).contains(&written), "{written} entries");
    for entry in std::fs::read_dir(&corpus).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        assert!(matches!(target.test(&bytes), Tested::Failed(_)));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A property that fails often, over several kinds of variable.
fn often_failing() -> impl pbt::Property {
    pbt::property! {
        forall xs: Vec<i32>;
        forall k: u8;
        forall word: String, #[gen = string('a'..='c', 0..4)];
        check xs.iter().all(|&x| x < i32::from(k) * 4) || word.contains('c')
    }
}

#[pbt::property_test(cases = 60)]
fn an_imported_input_replays_exactly(data: Vec<u8>) {
    let prop = often_failing();
    let target = FuzzTarget::new(&prop);
    let dir = scratch("exact");
    let file = dir.join("saved");
    let config = config(file.clone()).cases(0);
    let found = target.import(&data);
    // Saved without a test's key, as an engine's crash is: every test replays it.
    pbt::runners::components::regressions::RegressionsFile::at(&file)
        .save(&found, "", "")
        .unwrap();
    let report = generational(&prop, config);
    match target.test(&data) {
        Tested::Failed(fault) => {
            let crash = target.crash(&data, fault);
            let failure = report.failure.expect("the saved case fails too");
            assert_eq!(failure.original, crash.counterexample);
        }
        Tested::Passed | Tested::Discarded(_) => assert!(report.passed(), "{report}"),
    }
    // And it goes back to the same bytes, up to trailing zeros.
    let again = target.export(&found).unwrap();
    assert_eq!(target.import(&again), found);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_no_engine_main_replays_files_and_fails_on_a_crash() {
    let dir = scratch("main");
    let prop = bug::property();
    let target = FuzzTarget::new(&prop);
    std::fs::write(dir.join("a"), bug_input(b"bu", 5)).unwrap();
    let passing = format!("{:?}", target.replay_main([dir.clone().into_os_string()]));
    assert_eq!(passing, format!("{:?}", std::process::ExitCode::SUCCESS));
    std::fs::write(dir.join("b"), bug_input(b"bug", 5)).unwrap();
    let failing = format!("{:?}", target.replay_main([dir.clone().into_os_string()]));
    assert_eq!(failing, format!("{:?}", std::process::ExitCode::from(1)));
    let missing = target.replay_main([dir.join("none").into_os_string()]);
    assert_eq!(
        format!("{missing:?}"),
        format!("{:?}", std::process::ExitCode::from(2))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn random_engine_inputs_both_pass_and_fail_the_often_failing_property() {
    // So that `an_imported_input_replays_exactly` checks both sides.
    let prop = often_failing();
    let target = FuzzTarget::new(&prop);
    let mut rng = pbt::Rng::from_seed(3);
    let (mut passed, mut failed) = (0, 0);
    for _ in 0..60 {
        let len = rng.draw(40) as usize;
        let data: Vec<u8> = (0..len).map(|_| rng.draw(255) as u8).collect();
        match target.test(&data) {
            Tested::Passed => passed += 1,
            Tested::Failed(_) => failed += 1,
            Tested::Discarded(_) => {}
        }
    }
    assert!(passed > 5 && failed > 5, "passed {passed}, failed {failed}");
}

#[test]
fn real_libfuzzer_and_afl_crash_files_shrink_to_the_minimum_under_cargo_test() {
    // fuzz/crashes/bug/: crash files the engines wrote for the `bug` target:
    // libFuzzer's (`cargo fuzz run -s none bug -- -seed=1`), "/bbugb", that
    // is size 47, length 4, s = "bugb"; and AFL++'s (`cargo afl fuzz -s 10`).
    let crashes = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz/crashes/bug");
    let dir = scratch("real");
    let prop = bug::property();
    let config = config(dir.join("bug.pbt-regressions")).cases(0);
    let found = FuzzTarget::new(&prop)
        .import_crashes(&crashes, &config)
        .unwrap();
    assert_eq!(found.len(), 2);
    assert_eq!(
        found[1],
        Found::Choices {
            choices: vec![4, 98, 117, 103, 98],
            size: 47
        }
    );
    // Each saved case fails on replay and shrinks to pbt's own minimum.
    let text = std::fs::read_to_string(dir.join("bug.pbt-regressions")).unwrap();
    for line in text.lines().filter(|l| l.starts_with("cx ")) {
        let one = dir.join("one.pbt-regressions");
        std::fs::write(&one, format!("{line}\n")).unwrap();
        let failure = integrated(&prop, config.clone().regressions(Regressions::File(one)))
            .failure
            .expect("the crash replays");
        assert!(
            failure.original[0].value.starts_with("[98, 117, 103"),
            "{line}"
        );
        assert_eq!(failure.counterexample[0].value, "[98, 117, 103]", "{line}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// An engine's bytes drive a check that draws (a `Data`) too, and the case
/// they import as draws the same: the check's draws end its choices.
#[pbt::property_test(cases = 300)]
fn an_imported_input_with_draws_in_its_check_tests_as_its_bytes(data: Vec<u8>) {
    use pbt::generators::{int, vec};
    use pbt::runners::components::{DynProperty, Watch};
    let prop = pbt::property! {
        forall d: pbt::Data;
        check {
            let n = d.draw(int(0..=1000i64));
            let v = d.draw(vec(int(0..=n), 0..=10));
            v.iter().sum::<i64>() < 50
        }
    };
    let target = FuzzTarget::new(&prop);
    let found = target.import(&data);
    let dynamic: &dyn DynProperty = &prop;
    assert_eq!(
        target.test(&data),
        dynamic.test_found(&found, &Watch::new(None))
    );
}
