#[derive(Clone, Debug, Arbitrary)]
enum Tree<K, V> {
    Leaf,
    Node {
        left: Box<Tree<K, V>>,
        key: K,
        value: V,
        right: Box<Tree<K, V>>,
    },
}
