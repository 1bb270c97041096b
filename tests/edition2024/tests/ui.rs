//! The mistakes that only edition 2024 can show, with their `.stderr`
//! snapshots (`TRYBUILD=overwrite cargo test -p pbt-edition2024 --test ui`
//! regenerates them; read every one).

#[test]
fn ui() {
    trybuild::TestCases::new().compile_fail("tests/ui/*.rs");
}
