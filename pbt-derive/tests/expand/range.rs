#[derive(Clone, Debug, Arbitrary)]
struct Range {
    #[pbt(gen = int(0..100u32))]
    lo: u32,
    #[pbt(gen = int(lo..=lo + 10))]
    hi: u32,
    label: String,
}
