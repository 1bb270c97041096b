// An enum with no variants has no values to generate.
#[derive(pbt::Arbitrary)]
enum Never {}

fn main() {}
