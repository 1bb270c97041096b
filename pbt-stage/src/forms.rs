//! The DSL's forms, one row each: the one table that the parser (`ast`,
//! `collections`, `normalize`), the draw accounting (`charge`), the shape
//! checks (`check`) and the "did you mean" suggestions read.
//!
//! A form also has its emitter (an arm of `emit`, or the runtime combinator
//! of the same name for a [`Args::Leaf`]), its runtime combinator in
//! `pbt_core::gen` (listed in `pbt_core::gen::dsl`, the names in scope inside
//! an annotation), and a staged ≡ runtime test in the facade's
//! `tests/staging.rs`. The facade's `tests/dsl_scope.rs` checks that this
//! table and the runtime DSL name the same forms; `docs/contributing.md`
//! has the recipe for adding one.

/// How the parser reads a form's arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Args {
    /// `name(e, …)`: exactly this many plain expressions, handed to the
    /// runtime combinator of the same name (a `Dsl::Leaf`).
    Leaf(usize),
    /// `name(g, …)`: this many generators, then a length range when `len`
    /// (`option`, `result` and the unique collections, staged by
    /// `collections`).
    Collection {
        /// How many generators.
        gens: usize,
        /// Whether a length range follows them.
        len: bool,
    },
    /// `name[…]`: not a Rust expression; `normalize` rewrites it to
    /// `name![…]` for the parser.
    Brackets,
    /// A form with an arm of its own in `ast::parse_form`.
    Own,
}

/// What kind of value a form produces, and the type heads that hold it
/// (`check`: a generator of integers for an `f64` variable is an error).
#[derive(Debug)]
pub(crate) struct Produces {
    /// The kind, as messages name it ("integers").
    pub kind: &'static str,
    /// The last path segments of the types that hold it.
    pub types: &'static [&'static str],
}

/// One DSL form.
#[derive(Debug)]
pub(crate) struct Form {
    /// Its name, the same as its runtime combinator's.
    pub name: &'static str,
    /// How its arguments are written.
    pub args: Args,
    /// How to write it, for messages.
    pub usage: &'static str,
    /// Whether its first draw is charged up front (`charge`): true of a
    /// primitive that draws at least once and never loops without bound.
    pub prepaid: bool,
    /// What it produces, when the macro can tell (`check`).
    pub produces: Option<Produces>,
}

pub(crate) const INTEGERS: &[&str] = &[
    "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
];

const fn form(name: &'static str, args: Args, usage: &'static str) -> Form {
    Form {
        name,
        args,
        usage,
        prepaid: false,
        produces: None,
    }
}

const fn primitive(name: &'static str, args: usize, usage: &'static str) -> Form {
    Form {
        prepaid: true,
        ..form(name, Args::Leaf(args), usage)
    }
}

const fn producing(f: Form, kind: &'static str, types: &'static [&'static str]) -> Form {
    Form {
        produces: Some(Produces { kind, types }),
        ..f
    }
}

const fn collection(name: &'static str, gens: usize, len: bool, usage: &'static str) -> Form {
    form(name, Args::Collection { gens, len }, usage)
}

/// Every form of the DSL.
pub(crate) const FORMS: &[Form] = &[
    // Primitives: their arguments are plain expressions.
    producing(primitive("int", 1, "int(range)"), "integers", INTEGERS),
    producing(primitive("float", 1, "float(range)"), "floats", &["f32", "f64"]),
    producing(primitive("bool", 0, "bool()"), "booleans", &["bool"]),
    producing(
        primitive("weighted_bool", 1, "weighted_bool(probability)"),
        "booleans",
        &["bool"],
    ),
    producing(primitive("char", 1, "char(range)"), "chars", &["char"]),
    primitive("chars", 1, "chars([range, …])"),
    primitive("choose", 1, "choose(slice)"),
    // Runtime generators called in place: they may loop, so each draw is
    // counted as it is made.
    producing(
        form(
            "string",
            Args::Leaf(2),
            "string(charset, length range)` (a charset such as `'a'..='z'`; for the characters of a generator, `string_of(generator, length range)",
        ),
        "strings",
        &["String"],
    ),
    form("subset", Args::Leaf(2), "subset(slice, k)"),
    form("any", Args::Leaf(0), "any::<T>()"),
    // Forms over generators.
    form("just", Args::Own, "just(value)"),
    form("regex", Args::Own, "regex(\"pattern\")"),
    producing(
        form("vec", Args::Own, "vec(generator, length range)"),
        "vectors",
        &["Vec"],
    ),
    form(
        "string_of",
        Args::Own,
        "string_of(generator of chars, length range)",
    ),
    form("either", Args::Own, "either(g1, g2, probability of g1)"),
    form("map", Args::Own, "map(generator, function)"),
    form("filter", Args::Own, "filter(generator, predicate)"),
    form("bind", Args::Own, "bind(generator, |x| generator)"),
    form("resize", Args::Own, "resize(size, generator)"),
    form("recursive", Args::Own, "recursive(|rec| generator)"),
    collection("option", 1, false, "option(generator)"),
    collection("result", 2, false, "result(ok generator, err generator)"),
    collection("hash_set", 1, true, "hash_set(generator, length range)"),
    collection("btree_set", 1, true, "btree_set(generator, length range)"),
    collection("vec_unique", 1, true, "vec_unique(generator, length range)"),
    collection(
        "hash_map",
        2,
        true,
        "hash_map(key generator, value generator, length range)",
    ),
    collection(
        "btree_map",
        2,
        true,
        "btree_map(key generator, value generator, length range)",
    ),
    form("one_of", Args::Brackets, "one_of[g1, g2, …]"),
    form("frequency", Args::Brackets, "frequency[w1 => g1, w2 => g2, …]"),
];

/// The form named `name`.
pub(crate) fn get(name: &str) -> Option<&'static Form> {
    FORMS.iter().find(|f| f.name == name)
}

/// Whether `name(…)` is a DSL form (the bracket forms are `name[…]`).
pub(crate) fn is_call(name: &str) -> bool {
    get(name).is_some_and(|f| f.args != Args::Brackets)
}

/// Whether `name[…]` is a DSL form.
pub(crate) fn is_bracketed(name: &str) -> bool {
    get(name).is_some_and(|f| f.args == Args::Brackets)
}

/// The names of the forms written `name[…]`.
pub(crate) fn bracketed() -> impl Iterator<Item = &'static str> + Clone {
    FORMS
        .iter()
        .filter(|f| f.args == Args::Brackets)
        .map(|f| f.name)
}

/// The usage of the form `name`, for messages.
pub(crate) fn usage(name: &str) -> &'static str {
    get(name).map_or("", |f| f.usage)
}

/// The name of every staged form, for the facade's test that the runtime
/// DSL (`pbt_core::gen::dsl`) has a combinator for each. Not a public API.
#[doc(hidden)]
pub fn names() -> Vec<&'static str> {
    FORMS.iter().map(|f| f.name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_has_one_row() {
        let mut names = names();
        names.sort_unstable();
        let len = names.len();
        names.dedup();
        assert_eq!(names.len(), len, "a form is listed twice");
    }

    #[test]
    fn only_primitives_are_prepaid() {
        for f in FORMS.iter().filter(|f| f.prepaid) {
            assert!(matches!(f.args, Args::Leaf(_)), "{} is prepaid", f.name);
        }
    }
}
