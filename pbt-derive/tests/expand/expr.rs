#[derive(Clone, Debug, Arbitrary, Mutate)]
enum Expr {
    Lit(i64),
    Neg(Box<Expr>),
    #[pbt(weight = 2)]
    Add(Box<Expr>, Box<Expr>),
}
