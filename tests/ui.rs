//! Every mistake a user can make with `property!` and `#[property_test]`
//! is a compile error on the tokens at fault that says what was expected.
//! One file per mistake under `tests/ui/<macro>/`, each with its `.stderr`
//! snapshot (`TRYBUILD=overwrite cargo test --test ui` regenerates them;
//! read every one before committing).

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*/*.rs");
}
