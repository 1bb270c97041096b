#[allow(non_local_definitions)]
const _: () = {
    #[automatically_derived]
    impl<K, V> ::pbt::__private::Arbitrary for Tree<K, V>
    where
        K: ::pbt::__private::Arbitrary,
        V: ::pbt::__private::Arbitrary,
    {
        #[allow(unused_variables)]
        fn arbitrary<__PbtS: ::pbt::__private::Source + ?::core::marker::Sized>(
            __pbt_src: &mut __PbtS,
            size: ::core::primitive::usize,
        ) -> Self {
            let __pbt_n: ::core::primitive::u64 = ::core::cmp::Ord::min(
                size as ::core::primitive::u64,
                2147483648u64,
            );
            let __pbt_r = ::pbt::__private::Source::draw(
                &mut *__pbt_src,
                1u64 + __pbt_n * 1u64 - 1,
            );
            if __pbt_r < 1u64 {
                Self::Leaf
            } else {
                let __pbt_f0: Box<Tree<K, V>> = ::core::convert::From::from(
                    <Tree<
                        K,
                        V,
                    > as ::pbt::__private::Arbitrary>::arbitrary(
                        &mut *__pbt_src,
                        ::core::primitive::usize::div_euclid(size, 2),
                    ),
                );
                let __pbt_f1: K = <K as ::pbt::__private::Arbitrary>::arbitrary(
                    &mut *__pbt_src,
                    size,
                );
                let __pbt_f2: V = <V as ::pbt::__private::Arbitrary>::arbitrary(
                    &mut *__pbt_src,
                    size,
                );
                let __pbt_f3: Box<Tree<K, V>> = ::core::convert::From::from(
                    <Tree<
                        K,
                        V,
                    > as ::pbt::__private::Arbitrary>::arbitrary(
                        &mut *__pbt_src,
                        ::core::primitive::usize::div_euclid(size, 2),
                    ),
                );
                Self::Node {
                    left: __pbt_f0,
                    key: __pbt_f1,
                    value: __pbt_f2,
                    right: __pbt_f3,
                }
            }
        }
    }
    #[automatically_derived]
    impl<K, V> ::pbt::__private::Shrink for Tree<K, V>
    where
        K: ::pbt::__private::Shrink + ::core::clone::Clone,
        V: ::pbt::__private::Shrink + ::core::clone::Clone,
        Tree<K, V>: ::core::clone::Clone,
    {
        #[allow(unused_variables)]
        fn shrink(&self) -> ::pbt::__private::Candidates<'_, Self> {
            match self {
                Self::Leaf => {
                    ::pbt::__private::boxed_candidates(::core::iter::empty::<Self>())
                }
                Self::Node {
                    left: __pbt_0,
                    key: __pbt_1,
                    value: __pbt_2,
                    right: __pbt_3,
                } => {
                    ::pbt::__private::boxed_candidates(
                        ::core::iter::Iterator::chain(
                            ::core::iter::Iterator::chain(
                                ::core::iter::Iterator::chain(
                                    ::core::iter::Iterator::chain(
                                        ::core::iter::Iterator::chain(
                                            ::core::iter::Iterator::chain(
                                                ::core::iter::Iterator::chain(
                                                    ::core::iter::empty::<Self>(),
                                                    ::core::iter::Iterator::map(
                                                        ::core::iter::once(&**(__pbt_0)),
                                                        ::core::clone::Clone::clone,
                                                    ),
                                                ),
                                                ::core::iter::Iterator::map(
                                                    ::core::iter::once(&**(__pbt_3)),
                                                    ::core::clone::Clone::clone,
                                                ),
                                            ),
                                            ::core::iter::Iterator::flatten(
                                                ::core::iter::once_with(move || -> ::core::option::Option<
                                                    Self,
                                                > {
                                                    let __pbt_src = &mut ::pbt::__private::Replay::new(&[]);
                                                    let size: ::core::primitive::usize = 0;
                                                    ::core::option::Option::Some({ Self::Leaf })
                                                }),
                                            ),
                                        ),
                                        ::core::iter::Iterator::flatten(
                                            ::core::iter::once_with(move || {
                                                ::core::iter::Iterator::map(
                                                    <Box<
                                                        Tree<K, V>,
                                                    > as ::pbt::__private::Shrink>::shrink(__pbt_0),
                                                    move |__pbt_c| Self::Node {
                                                        left: __pbt_c,
                                                        key: ::core::clone::Clone::clone(__pbt_1),
                                                        value: ::core::clone::Clone::clone(__pbt_2),
                                                        right: ::core::clone::Clone::clone(__pbt_3),
                                                    },
                                                )
                                            }),
                                        ),
                                    ),
                                    ::core::iter::Iterator::flatten(
                                        ::core::iter::once_with(move || {
                                            ::core::iter::Iterator::map(
                                                <K as ::pbt::__private::Shrink>::shrink(__pbt_1),
                                                move |__pbt_c| Self::Node {
                                                    left: ::core::clone::Clone::clone(__pbt_0),
                                                    key: __pbt_c,
                                                    value: ::core::clone::Clone::clone(__pbt_2),
                                                    right: ::core::clone::Clone::clone(__pbt_3),
                                                },
                                            )
                                        }),
                                    ),
                                ),
                                ::core::iter::Iterator::flatten(
                                    ::core::iter::once_with(move || {
                                        ::core::iter::Iterator::map(
                                            <V as ::pbt::__private::Shrink>::shrink(__pbt_2),
                                            move |__pbt_c| Self::Node {
                                                left: ::core::clone::Clone::clone(__pbt_0),
                                                key: ::core::clone::Clone::clone(__pbt_1),
                                                value: __pbt_c,
                                                right: ::core::clone::Clone::clone(__pbt_3),
                                            },
                                        )
                                    }),
                                ),
                            ),
                            ::core::iter::Iterator::flatten(
                                ::core::iter::once_with(move || {
                                    ::core::iter::Iterator::map(
                                        <Box<
                                            Tree<K, V>,
                                        > as ::pbt::__private::Shrink>::shrink(__pbt_3),
                                        move |__pbt_c| Self::Node {
                                            left: ::core::clone::Clone::clone(__pbt_0),
                                            key: ::core::clone::Clone::clone(__pbt_1),
                                            value: ::core::clone::Clone::clone(__pbt_2),
                                            right: __pbt_c,
                                        },
                                    )
                                }),
                            ),
                        ),
                    )
                }
            }
        }
    }
    #[automatically_derived]
    impl<K, V> ::pbt::__private::Constructors for Tree<K, V> {
        fn constructors_under(
            &self,
            __pbt_parent: ::core::option::Option<&'static ::core::primitive::str>,
            __pbt_out: &mut ::std::vec::Vec<::pbt::__private::Constructor>,
        ) {
            #[allow(unused_imports)]
            use ::pbt::__private::{VisitConstructors as _, VisitNothing as _};
            match self {
                Self::Leaf => {
                    __pbt_out
                        .push(::pbt::__private::Constructor {
                            name: "Tree::Leaf",
                            parent: __pbt_parent,
                        });
                }
                Self::Node {
                    left: __pbt_0,
                    key: __pbt_1,
                    value: __pbt_2,
                    right: __pbt_3,
                } => {
                    __pbt_out
                        .push(::pbt::__private::Constructor {
                            name: "Tree::Node",
                            parent: __pbt_parent,
                        });
                    (&::pbt::__private::Visit(__pbt_0))
                        .visit(::core::option::Option::Some("Tree::Node"), __pbt_out);
                    (&::pbt::__private::Visit(__pbt_1))
                        .visit(::core::option::Option::Some("Tree::Node"), __pbt_out);
                    (&::pbt::__private::Visit(__pbt_2))
                        .visit(::core::option::Option::Some("Tree::Node"), __pbt_out);
                    (&::pbt::__private::Visit(__pbt_3))
                        .visit(::core::option::Option::Some("Tree::Node"), __pbt_out);
                }
            }
        }
    }
};
