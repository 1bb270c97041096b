// A recursive generator that is not a variable's whole generator names its type.
#[derive(Debug)]
enum Tree {
    Leaf,
    Node(Box<Tree>, Box<Tree>),
}

fn main() {
    let _g = pbt::generator!(recursive(|rec| frequency[
        1 => just(Tree::Leaf),
        size => map((rec, rec), |(l, r)| Tree::Node(Box::new(l), Box::new(r)))
    ]));
}
