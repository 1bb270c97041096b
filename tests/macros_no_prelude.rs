//! The macros and derives expand inside a `#![no_implicit_prelude]` module:
//! their output calls no trait method by method syntax (no `.map`,
//! `.chain`, `Config::default()` that needs `Iterator` or `Default` in
//! scope) and names every std item by absolute path. A generic enum whose
//! simpler variants hold the type parameter gets every bound its `Shrink`
//! needs (the simplest value of an earlier variant is generated).
#![deny(warnings)]

mod no_prelude {
    #![no_implicit_prelude]

    use ::pbt::prelude::*;
    use ::std::boxed::Box;
    use ::std::string::String;
    use ::std::vec::Vec;

    #[derive(::std::clone::Clone, ::std::fmt::Debug, ::std::cmp::PartialEq, Arbitrary, Mutate)]
    pub enum Tree {
        Leaf(u8),
        Node(Box<Self>, Box<Self>),
        Named {
            name: String,
            kids: Vec<Self>,
            tag: ::std::option::Option<Box<Self>>,
            pair: (u8, Box<Self>),
            row: [Box<Self>; 2],
        },
    }

    #[derive(::std::clone::Clone, ::std::fmt::Debug, ::std::cmp::PartialEq, Arbitrary, Mutate)]
    pub struct Window {
        #[pbt(with = int(-50..50i32))]
        pub start: i32,
        #[pbt(with = int(start..=start + 20))]
        pub end: i32,
        #[pbt(with = vec(int(start..=end), 0..=size))]
        pub marks: Vec<i32>,
    }

    /// The type parameter is held by `B` and `C`; `A` and `B` are simpler
    /// than `C`, so shrinking a `C` proposes a generated `B`.
    #[derive(::std::clone::Clone, ::std::fmt::Debug, ::std::cmp::PartialEq, Arbitrary, Mutate)]
    pub enum Generic<T> {
        A,
        B(T),
        C { t: Vec<T> },
    }

    pub fn nodes(t: &Tree) -> usize {
        match t {
            Tree::Leaf(_) => 1,
            Tree::Node(l, r) => 1 + nodes(l) + nodes(r),
            Tree::Named {
                kids,
                tag,
                pair,
                row,
                ..
            } => {
                let kids: usize =
                    ::std::iter::Iterator::sum(::std::iter::Iterator::map(kids.iter(), nodes));
                let tag = match tag {
                    ::std::option::Option::Some(t) => nodes(t),
                    ::std::option::Option::None => 0,
                };
                1 + kids + tag + nodes(&pair.1) + nodes(&row[0]) + nodes(&row[1])
            }
        }
    }

    #[property_test(cases = 30, examples = [(1, Vec::new())])]
    fn default_runner(
        #[with = int(0..10u32)] n: u32,
        #[with = vec(int(0..=n), 0..3)] xs: Vec<u32>,
    ) -> bool {
        ::std::iter::Iterator::all(&mut xs.iter(), |&x| x <= n)
    }

    #[property_test(cases = 30)]
    fn derived_types(
        t: Tree,
        w: Window,
        g: Generic<u8>,
        s: &str,
    ) -> ::std::result::Result<(), String> {
        let _ = (g, s);
        if nodes(&t) > 0 && w.start <= w.end {
            ::std::result::Result::Ok(())
        } else {
            ::std::result::Result::Err(::std::format!("{t:?} {w:?}"))
        }
    }

    #[property_test(cases = 30, runner = fuzz, shrink = "both")]
    fn fuzzed(t: Tree, g: Generic<i8>) {
        let _ = (t, g);
    }

    #[property_test(cases = 30, runner = targeted)]
    fn targeted(
        #[target = <f64 as ::std::convert::From<u8>>::from(x)] x: u8,
        #[shrink = |v| ::std::vec![*v / 2]]
        #[print = |v| ::std::format!("{v}")]
        y: u8,
    ) {
        let _ = (x, y);
    }

    #[::std::prelude::v1::test]
    fn property_and_generator_values() {
        let prop = property! {
            forall a: u8, #[with = one_of[just(1u8), int(2..5u8)]];
            forall b: u8, #[with = frequency[1 => just(0u8), size => int(0..=a)]];
            implies a >= b;
            forall c: String, #[with = regex("[a-z]{1,3}")];
            implies !c.is_empty() && c.len() <= 3;
            check a >= b
        };
        let config = <Config as ::std::default::Default>::default()
            .regressions(::pbt::runners::Regressions::Off)
            .ignore_env();
        let report = ::pbt::runners::generational(&prop, config);
        ::std::assert!(report.passed(), "{report}");
        let pair =
            ::pbt::generator!({ let x = int(0..10u8); let y = int(0..=x); ensure x >= y; (x, y) });
        let (x, y) = pair.generate(&mut ::pbt::Rng::from_seed(3), 10).unwrap();
        ::std::assert!(y <= x && x < 10);
    }

    #[::std::prelude::v1::test]
    fn a_generic_enum_shrinks_to_its_simpler_variants() {
        use ::pbt::Shrink;
        let c = Generic::<u8>::C { t: ::std::vec![7] };
        let candidates: Vec<Generic<u8>> = ::std::iter::Iterator::collect(c.shrink());
        ::std::assert!(candidates.contains(&Generic::A), "{candidates:?}");
        ::std::assert!(candidates.contains(&Generic::B(0)), "{candidates:?}");
    }
}
