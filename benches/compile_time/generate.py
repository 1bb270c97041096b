"""Writes tests/pbt20.rs and tests/proptest20.rs: the same 20 properties, each
with a generator of the shapes the generator benchmark uses, in pbt's staged
DSL and in proptest's strategies."""
import sys, pathlib

out = pathlib.Path(sys.argv[1])

# (pbt variables, proptest strategy, argument pattern, check)
shapes = [
    ("forall x: i64, #[gen = int(-1000..1000i64)];", "-1000..1000i64", "x", "x.abs() <= 1000"),
    ("forall p: (u32, u32), #[gen = { let x = int(0..1000u32); let y = int(0..=x); (x, y) }];",
     "(0..1000u32).prop_flat_map(|x| (Just(x), 0..=x))", "p", "p.1 <= p.0"),
    ("forall v: Vec<i64>, #[gen = vec(int(0..100i64), 0..50)];",
     "proptest::collection::vec(0..100i64, 0..50)", "v", "v.len() < 50"),
    ("forall c: u8, #[gen = one_of[just(1u8), int(10..20u8), map(bool(), |b| b as u8)]];",
     "prop_oneof![Just(1u8), 10..20u8, any::<bool>().prop_map(|b| b as u8)]", "c", "c < 20"),
    ("forall w: u32, #[gen = frequency[1 => just(0u32), 3 => int(1..100u32), 2 => int(100..200u32)]];",
     "prop_oneof![1 => Just(0u32), 3 => 1..100u32, 2 => 100..200u32]", "w", "w < 200"),
]

pbt = ["use pbt::prelude::*;", "use pbt::runners::{generational, Regressions};", ""]
pt = ["use proptest::prelude::*;", ""]
for i in range(20):
    vars_, strategy, arg, check = shapes[i % len(shapes)]
    pbt += [
        "#[test]",
        f"fn prop_{i}() {{",
        f"    let prop = property! {{ {vars_} check {check} }};",
        "    let report = generational(&prop, Config::default().cases(10).regressions(Regressions::Off));",
        "    assert!(report.passed(), \"{report}\");",
        "}",
        "",
    ]
    pt += [
        "proptest! {",
        "    #![proptest_config(ProptestConfig { cases: 10, failure_persistence: None, ..ProptestConfig::default() })]",
        "    #[test]",
        f"    fn prop_{i}({arg} in {strategy}) {{",
        f"        prop_assert!({check});",
        "    }",
        "}",
        "",
    ]
(out / "pbt20.rs").write_text("\n".join(pbt))
(out / "proptest20.rs").write_text("\n".join(pt))
