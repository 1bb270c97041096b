#[allow(non_local_definitions)]
const _: () = {
    #[automatically_derived]
    impl ::pbt::__private::Arbitrary for Expr {
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
                1u64 + __pbt_n * 3u64 - 1,
            );
            if __pbt_r < 1u64 {
                let __pbt_f0: i64 = <i64 as ::pbt::__private::Arbitrary>::arbitrary(
                    &mut *__pbt_src,
                    size,
                );
                Self::Lit(__pbt_f0)
            } else if __pbt_r < 1u64 + __pbt_n * 1u64 {
                let __pbt_f0: Box<Expr> = ::core::convert::From::from(
                    <Expr as ::pbt::__private::Arbitrary>::arbitrary(
                        &mut *__pbt_src,
                        ::core::primitive::usize::div_euclid(size, 2),
                    ),
                );
                Self::Neg(__pbt_f0)
            } else {
                let __pbt_f0: Box<Expr> = ::core::convert::From::from(
                    <Expr as ::pbt::__private::Arbitrary>::arbitrary(
                        &mut *__pbt_src,
                        ::core::primitive::usize::div_euclid(size, 2),
                    ),
                );
                let __pbt_f1: Box<Expr> = ::core::convert::From::from(
                    <Expr as ::pbt::__private::Arbitrary>::arbitrary(
                        &mut *__pbt_src,
                        ::core::primitive::usize::div_euclid(size, 2),
                    ),
                );
                Self::Add(__pbt_f0, __pbt_f1)
            }
        }
    }
    #[automatically_derived]
    impl ::pbt::__private::Shrink for Expr
    where
        Expr: ::core::clone::Clone,
    {
        #[allow(unused_variables)]
        fn shrink(&self) -> ::pbt::__private::Candidates<'_, Self> {
            match self {
                Self::Lit(__pbt_0) => {
                    ::pbt::__private::boxed_candidates(
                        ::core::iter::Iterator::chain(
                            ::core::iter::empty::<Self>(),
                            ::core::iter::Iterator::flatten(
                                ::core::iter::once_with(move || {
                                    ::core::iter::Iterator::map(
                                        <i64 as ::pbt::__private::Shrink>::shrink(__pbt_0),
                                        move |__pbt_c| Self::Lit(__pbt_c),
                                    )
                                }),
                            ),
                        ),
                    )
                }
                Self::Neg(__pbt_0) => {
                    ::pbt::__private::boxed_candidates(
                        ::core::iter::Iterator::chain(
                            ::core::iter::Iterator::chain(
                                ::core::iter::Iterator::chain(
                                    ::core::iter::empty::<Self>(),
                                    ::core::iter::Iterator::map(
                                        ::core::iter::once(&**(__pbt_0)),
                                        ::core::clone::Clone::clone,
                                    ),
                                ),
                                ::core::iter::Iterator::flatten(
                                    ::core::iter::once_with(move || -> ::core::option::Option<
                                        Self,
                                    > {
                                        let __pbt_src = &mut ::pbt::__private::Replay::new(&[]);
                                        let size: ::core::primitive::usize = 0;
                                        ::core::option::Option::Some({
                                            let __pbt_f0: i64 = <i64 as ::pbt::__private::Arbitrary>::arbitrary(
                                                &mut *__pbt_src,
                                                size,
                                            );
                                            Self::Lit(__pbt_f0)
                                        })
                                    }),
                                ),
                            ),
                            ::core::iter::Iterator::flatten(
                                ::core::iter::once_with(move || {
                                    ::core::iter::Iterator::map(
                                        <Box<Expr> as ::pbt::__private::Shrink>::shrink(__pbt_0),
                                        move |__pbt_c| Self::Neg(__pbt_c),
                                    )
                                }),
                            ),
                        ),
                    )
                }
                Self::Add(__pbt_0, __pbt_1) => {
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
                                                    ::core::iter::once(&**(__pbt_1)),
                                                    ::core::clone::Clone::clone,
                                                ),
                                            ),
                                            ::core::iter::Iterator::flatten(
                                                ::core::iter::once_with(move || -> ::core::option::Option<
                                                    Self,
                                                > {
                                                    let __pbt_src = &mut ::pbt::__private::Replay::new(&[]);
                                                    let size: ::core::primitive::usize = 0;
                                                    ::core::option::Option::Some({
                                                        let __pbt_f0: i64 = <i64 as ::pbt::__private::Arbitrary>::arbitrary(
                                                            &mut *__pbt_src,
                                                            size,
                                                        );
                                                        Self::Lit(__pbt_f0)
                                                    })
                                                }),
                                            ),
                                        ),
                                        ::core::iter::Iterator::flatten(
                                            ::core::iter::once_with(move || -> ::core::option::Option<
                                                Self,
                                            > {
                                                let __pbt_src = &mut ::pbt::__private::Replay::new(&[]);
                                                let size: ::core::primitive::usize = 0;
                                                ::core::option::Option::Some({
                                                    let __pbt_f0: Box<Expr> = ::core::convert::From::from(
                                                        <Expr as ::pbt::__private::Arbitrary>::arbitrary(
                                                            &mut *__pbt_src,
                                                            ::core::primitive::usize::div_euclid(size, 2),
                                                        ),
                                                    );
                                                    Self::Neg(__pbt_f0)
                                                })
                                            }),
                                        ),
                                    ),
                                    ::core::iter::Iterator::flatten(
                                        ::core::iter::once_with(move || -> ::core::option::Option<
                                            Self,
                                        > {
                                            let __pbt_src = &mut ::pbt::__private::Replay::new(&[]);
                                            let size: ::core::primitive::usize = 0;
                                            ::core::option::Option::Some({
                                                let __pbt_f0: Box<Expr> = ::core::clone::Clone::clone(
                                                    __pbt_0,
                                                );
                                                Self::Neg(__pbt_f0)
                                            })
                                        }),
                                    ),
                                ),
                                ::core::iter::Iterator::flatten(
                                    ::core::iter::once_with(move || {
                                        ::core::iter::Iterator::map(
                                            <Box<Expr> as ::pbt::__private::Shrink>::shrink(__pbt_0),
                                            move |__pbt_c| Self::Add(
                                                __pbt_c,
                                                ::core::clone::Clone::clone(__pbt_1),
                                            ),
                                        )
                                    }),
                                ),
                            ),
                            ::core::iter::Iterator::flatten(
                                ::core::iter::once_with(move || {
                                    ::core::iter::Iterator::map(
                                        <Box<Expr> as ::pbt::__private::Shrink>::shrink(__pbt_1),
                                        move |__pbt_c| Self::Add(
                                            ::core::clone::Clone::clone(__pbt_0),
                                            __pbt_c,
                                        ),
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
    impl ::pbt::__private::Constructors for Expr {
        fn constructors_under(
            &self,
            __pbt_parent: ::core::option::Option<&'static ::core::primitive::str>,
            __pbt_out: &mut ::std::vec::Vec<::pbt::__private::Constructor>,
        ) {
            #[allow(unused_imports)]
            use ::pbt::__private::{VisitConstructors as _, VisitNothing as _};
            match self {
                Self::Lit(__pbt_0) => {
                    __pbt_out
                        .push(::pbt::__private::Constructor {
                            name: "Expr::Lit",
                            parent: __pbt_parent,
                        });
                    (&::pbt::__private::Visit(__pbt_0))
                        .visit(::core::option::Option::Some("Expr::Lit"), __pbt_out);
                }
                Self::Neg(__pbt_0) => {
                    __pbt_out
                        .push(::pbt::__private::Constructor {
                            name: "Expr::Neg",
                            parent: __pbt_parent,
                        });
                    (&::pbt::__private::Visit(__pbt_0))
                        .visit(::core::option::Option::Some("Expr::Neg"), __pbt_out);
                }
                Self::Add(__pbt_0, __pbt_1) => {
                    __pbt_out
                        .push(::pbt::__private::Constructor {
                            name: "Expr::Add",
                            parent: __pbt_parent,
                        });
                    (&::pbt::__private::Visit(__pbt_0))
                        .visit(::core::option::Option::Some("Expr::Add"), __pbt_out);
                    (&::pbt::__private::Visit(__pbt_1))
                        .visit(::core::option::Option::Some("Expr::Add"), __pbt_out);
                }
            }
        }
    }
};
#[allow(non_local_definitions)]
const _: () = {
    #[automatically_derived]
    impl ::pbt::__private::Mutate for Expr
    where
        Expr: ::core::clone::Clone,
    {
        #[allow(unused_variables)]
        fn mutate<__PbtS: ::pbt::__private::Source + ?::core::marker::Sized>(
            &self,
            __pbt_src: &mut __PbtS,
            size: ::core::primitive::usize,
        ) -> Self {
            #[allow(unused_imports)]
            use ::pbt::__private::{
                BindCopy as _, BindRef as _, DifferEq as _, DifferUnknown as _,
            };
            match self {
                Self::Lit(__pbt_0) => {
                    match ::pbt::__private::Source::draw(&mut *__pbt_src, 3u64) {
                        0u64 => {
                            let __pbt_f0: i64 = <i64 as ::pbt::__private::Mutate>::mutate(
                                __pbt_0,
                                &mut *__pbt_src,
                                size,
                            );
                            Self::Lit(__pbt_f0)
                        }
                        1u64 => {
                            match ::pbt::__private::Source::draw(&mut *__pbt_src, 1u64) {
                                0u64 => {
                                    let __pbt_f0: Box<Expr> = ::core::convert::From::from(
                                        <Expr as ::pbt::__private::Arbitrary>::arbitrary(
                                            &mut *__pbt_src,
                                            ::core::primitive::usize::div_euclid(size, 2),
                                        ),
                                    );
                                    Self::Neg(__pbt_f0)
                                }
                                _ => {
                                    let __pbt_f0: Box<Expr> = ::core::convert::From::from(
                                        <Expr as ::pbt::__private::Arbitrary>::arbitrary(
                                            &mut *__pbt_src,
                                            ::core::primitive::usize::div_euclid(size, 2),
                                        ),
                                    );
                                    let __pbt_f1: Box<Expr> = ::core::convert::From::from(
                                        <Expr as ::pbt::__private::Arbitrary>::arbitrary(
                                            &mut *__pbt_src,
                                            ::core::primitive::usize::div_euclid(size, 2),
                                        ),
                                    );
                                    Self::Add(__pbt_f0, __pbt_f1)
                                }
                            }
                        }
                        2u64 => {
                            let mut __pbt_t: ::core::primitive::usize = 0;
                            loop {
                                let __pbt_new = <Self as ::pbt::__private::Arbitrary>::arbitrary(
                                    &mut *__pbt_src,
                                    size,
                                );
                                if ::core::mem::discriminant(&__pbt_new)
                                    != ::core::mem::discriminant(self)
                                {
                                    break __pbt_new;
                                }
                                __pbt_t += 1;
                                if __pbt_t >= ::pbt::__private::FIELD_TRIES {
                                    break match ::pbt::__private::Source::draw(
                                        &mut *__pbt_src,
                                        1u64,
                                    ) {
                                        0u64 => {
                                            let __pbt_f0: Box<Expr> = ::core::convert::From::from(
                                                <Expr as ::pbt::__private::Arbitrary>::arbitrary(
                                                    &mut *__pbt_src,
                                                    ::core::primitive::usize::div_euclid(size, 2),
                                                ),
                                            );
                                            Self::Neg(__pbt_f0)
                                        }
                                        _ => {
                                            let __pbt_f0: Box<Expr> = ::core::convert::From::from(
                                                <Expr as ::pbt::__private::Arbitrary>::arbitrary(
                                                    &mut *__pbt_src,
                                                    ::core::primitive::usize::div_euclid(size, 2),
                                                ),
                                            );
                                            let __pbt_f1: Box<Expr> = ::core::convert::From::from(
                                                <Expr as ::pbt::__private::Arbitrary>::arbitrary(
                                                    &mut *__pbt_src,
                                                    ::core::primitive::usize::div_euclid(size, 2),
                                                ),
                                            );
                                            Self::Add(__pbt_f0, __pbt_f1)
                                        }
                                    };
                                }
                            }
                        }
                        _ => {
                            match ::pbt::__private::Source::draw(&mut *__pbt_src, 2u64) {
                                0u64 => {
                                    let __pbt_f0: Box<Expr> = ::core::convert::From::from(
                                        ::core::clone::Clone::clone(self),
                                    );
                                    Self::Neg(__pbt_f0)
                                }
                                1u64 => {
                                    let __pbt_f0: Box<Expr> = ::core::convert::From::from(
                                        ::core::clone::Clone::clone(self),
                                    );
                                    let __pbt_f1: Box<Expr> = ::core::convert::From::from(
                                        <Expr as ::pbt::__private::Arbitrary>::arbitrary(
                                            &mut *__pbt_src,
                                            ::core::primitive::usize::div_euclid(size, 2),
                                        ),
                                    );
                                    Self::Add(__pbt_f0, __pbt_f1)
                                }
                                _ => {
                                    let __pbt_f0: Box<Expr> = ::core::convert::From::from(
                                        <Expr as ::pbt::__private::Arbitrary>::arbitrary(
                                            &mut *__pbt_src,
                                            ::core::primitive::usize::div_euclid(size, 2),
                                        ),
                                    );
                                    let __pbt_f1: Box<Expr> = ::core::convert::From::from(
                                        ::core::clone::Clone::clone(self),
                                    );
                                    Self::Add(__pbt_f0, __pbt_f1)
                                }
                            }
                        }
                    }
                }
                Self::Neg(__pbt_0) => {
                    match ::pbt::__private::Source::draw(&mut *__pbt_src, 4u64) {
                        0u64 => {
                            let __pbt_f0: Box<Expr> = <Box<
                                Expr,
                            > as ::pbt::__private::Mutate>::mutate(
                                __pbt_0,
                                &mut *__pbt_src,
                                size,
                            );
                            Self::Neg(__pbt_f0)
                        }
                        1u64 => {
                            match ::pbt::__private::Source::draw(&mut *__pbt_src, 1u64) {
                                0u64 => {
                                    let __pbt_f0: i64 = <i64 as ::pbt::__private::Arbitrary>::arbitrary(
                                        &mut *__pbt_src,
                                        size,
                                    );
                                    Self::Lit(__pbt_f0)
                                }
                                _ => {
                                    let __pbt_f0: Box<Expr> = ::core::clone::Clone::clone(
                                        __pbt_0,
                                    );
                                    let __pbt_f1: Box<Expr> = ::core::convert::From::from(
                                        <Expr as ::pbt::__private::Arbitrary>::arbitrary(
                                            &mut *__pbt_src,
                                            ::core::primitive::usize::div_euclid(size, 2),
                                        ),
                                    );
                                    Self::Add(__pbt_f0, __pbt_f1)
                                }
                            }
                        }
                        2u64 => {
                            let mut __pbt_t: ::core::primitive::usize = 0;
                            loop {
                                let __pbt_new = <Self as ::pbt::__private::Arbitrary>::arbitrary(
                                    &mut *__pbt_src,
                                    size,
                                );
                                if ::core::mem::discriminant(&__pbt_new)
                                    != ::core::mem::discriminant(self)
                                {
                                    break __pbt_new;
                                }
                                __pbt_t += 1;
                                if __pbt_t >= ::pbt::__private::FIELD_TRIES {
                                    break match ::pbt::__private::Source::draw(
                                        &mut *__pbt_src,
                                        1u64,
                                    ) {
                                        0u64 => {
                                            let __pbt_f0: i64 = <i64 as ::pbt::__private::Arbitrary>::arbitrary(
                                                &mut *__pbt_src,
                                                size,
                                            );
                                            Self::Lit(__pbt_f0)
                                        }
                                        _ => {
                                            let __pbt_f0: Box<Expr> = ::core::clone::Clone::clone(
                                                __pbt_0,
                                            );
                                            let __pbt_f1: Box<Expr> = ::core::convert::From::from(
                                                <Expr as ::pbt::__private::Arbitrary>::arbitrary(
                                                    &mut *__pbt_src,
                                                    ::core::primitive::usize::div_euclid(size, 2),
                                                ),
                                            );
                                            Self::Add(__pbt_f0, __pbt_f1)
                                        }
                                    };
                                }
                            }
                        }
                        3u64 => {
                            let __pbt_kids: ::core::primitive::usize = ::core::iter::Iterator::count(
                                ::core::iter::Iterator::chain(
                                    ::core::iter::empty::<&Self>(),
                                    ::core::iter::once(&**(__pbt_0)),
                                ),
                            );
                            let __pbt_at = if __pbt_kids == 0 {
                                ::core::option::Option::None
                            } else {
                                let __pbt_i = ::pbt::__private::Source::draw(
                                    &mut *__pbt_src,
                                    __pbt_kids as ::core::primitive::u64 - 1,
                                );
                                ::core::iter::Iterator::nth(
                                    &mut ::core::iter::Iterator::chain(
                                        ::core::iter::empty::<&Self>(),
                                        ::core::iter::once(&**(__pbt_0)),
                                    ),
                                    __pbt_i as ::core::primitive::usize,
                                )
                            };
                            match __pbt_at {
                                ::core::option::Option::Some(__pbt_kid) => {
                                    ::core::clone::Clone::clone(__pbt_kid)
                                }
                                ::core::option::Option::None => {
                                    match ::pbt::__private::Source::draw(
                                        &mut *__pbt_src,
                                        1u64,
                                    ) {
                                        0u64 => {
                                            let __pbt_f0: i64 = <i64 as ::pbt::__private::Arbitrary>::arbitrary(
                                                &mut *__pbt_src,
                                                size,
                                            );
                                            Self::Lit(__pbt_f0)
                                        }
                                        _ => {
                                            let __pbt_f0: Box<Expr> = ::core::clone::Clone::clone(
                                                __pbt_0,
                                            );
                                            let __pbt_f1: Box<Expr> = ::core::convert::From::from(
                                                <Expr as ::pbt::__private::Arbitrary>::arbitrary(
                                                    &mut *__pbt_src,
                                                    ::core::primitive::usize::div_euclid(size, 2),
                                                ),
                                            );
                                            Self::Add(__pbt_f0, __pbt_f1)
                                        }
                                    }
                                }
                            }
                        }
                        _ => {
                            match ::pbt::__private::Source::draw(&mut *__pbt_src, 2u64) {
                                0u64 => {
                                    let __pbt_f0: Box<Expr> = ::core::convert::From::from(
                                        ::core::clone::Clone::clone(self),
                                    );
                                    Self::Neg(__pbt_f0)
                                }
                                1u64 => {
                                    let __pbt_f0: Box<Expr> = ::core::convert::From::from(
                                        ::core::clone::Clone::clone(self),
                                    );
                                    let __pbt_f1: Box<Expr> = ::core::convert::From::from(
                                        <Expr as ::pbt::__private::Arbitrary>::arbitrary(
                                            &mut *__pbt_src,
                                            ::core::primitive::usize::div_euclid(size, 2),
                                        ),
                                    );
                                    Self::Add(__pbt_f0, __pbt_f1)
                                }
                                _ => {
                                    let __pbt_f0: Box<Expr> = ::core::convert::From::from(
                                        <Expr as ::pbt::__private::Arbitrary>::arbitrary(
                                            &mut *__pbt_src,
                                            ::core::primitive::usize::div_euclid(size, 2),
                                        ),
                                    );
                                    let __pbt_f1: Box<Expr> = ::core::convert::From::from(
                                        ::core::clone::Clone::clone(self),
                                    );
                                    Self::Add(__pbt_f0, __pbt_f1)
                                }
                            }
                        }
                    }
                }
                Self::Add(__pbt_0, __pbt_1) => {
                    match ::pbt::__private::Source::draw(&mut *__pbt_src, 5u64) {
                        0u64 => {
                            let __pbt_f0: Box<Expr> = <Box<
                                Expr,
                            > as ::pbt::__private::Mutate>::mutate(
                                __pbt_0,
                                &mut *__pbt_src,
                                size,
                            );
                            let __pbt_f1: Box<Expr> = ::core::clone::Clone::clone(
                                __pbt_1,
                            );
                            Self::Add(__pbt_f0, __pbt_f1)
                        }
                        1u64 => {
                            let __pbt_f0: Box<Expr> = ::core::clone::Clone::clone(
                                __pbt_0,
                            );
                            let __pbt_f1: Box<Expr> = <Box<
                                Expr,
                            > as ::pbt::__private::Mutate>::mutate(
                                __pbt_1,
                                &mut *__pbt_src,
                                size,
                            );
                            Self::Add(__pbt_f0, __pbt_f1)
                        }
                        2u64 => {
                            match ::pbt::__private::Source::draw(&mut *__pbt_src, 1u64) {
                                0u64 => {
                                    let __pbt_f0: i64 = <i64 as ::pbt::__private::Arbitrary>::arbitrary(
                                        &mut *__pbt_src,
                                        size,
                                    );
                                    Self::Lit(__pbt_f0)
                                }
                                _ => {
                                    let __pbt_f0: Box<Expr> = ::core::clone::Clone::clone(
                                        __pbt_0,
                                    );
                                    Self::Neg(__pbt_f0)
                                }
                            }
                        }
                        3u64 => {
                            let mut __pbt_t: ::core::primitive::usize = 0;
                            loop {
                                let __pbt_new = <Self as ::pbt::__private::Arbitrary>::arbitrary(
                                    &mut *__pbt_src,
                                    size,
                                );
                                if ::core::mem::discriminant(&__pbt_new)
                                    != ::core::mem::discriminant(self)
                                {
                                    break __pbt_new;
                                }
                                __pbt_t += 1;
                                if __pbt_t >= ::pbt::__private::FIELD_TRIES {
                                    break match ::pbt::__private::Source::draw(
                                        &mut *__pbt_src,
                                        1u64,
                                    ) {
                                        0u64 => {
                                            let __pbt_f0: i64 = <i64 as ::pbt::__private::Arbitrary>::arbitrary(
                                                &mut *__pbt_src,
                                                size,
                                            );
                                            Self::Lit(__pbt_f0)
                                        }
                                        _ => {
                                            let __pbt_f0: Box<Expr> = ::core::clone::Clone::clone(
                                                __pbt_0,
                                            );
                                            Self::Neg(__pbt_f0)
                                        }
                                    };
                                }
                            }
                        }
                        4u64 => {
                            let __pbt_kids: ::core::primitive::usize = ::core::iter::Iterator::count(
                                ::core::iter::Iterator::chain(
                                    ::core::iter::Iterator::chain(
                                        ::core::iter::empty::<&Self>(),
                                        ::core::iter::once(&**(__pbt_0)),
                                    ),
                                    ::core::iter::once(&**(__pbt_1)),
                                ),
                            );
                            let __pbt_at = if __pbt_kids == 0 {
                                ::core::option::Option::None
                            } else {
                                let __pbt_i = ::pbt::__private::Source::draw(
                                    &mut *__pbt_src,
                                    __pbt_kids as ::core::primitive::u64 - 1,
                                );
                                ::core::iter::Iterator::nth(
                                    &mut ::core::iter::Iterator::chain(
                                        ::core::iter::Iterator::chain(
                                            ::core::iter::empty::<&Self>(),
                                            ::core::iter::once(&**(__pbt_0)),
                                        ),
                                        ::core::iter::once(&**(__pbt_1)),
                                    ),
                                    __pbt_i as ::core::primitive::usize,
                                )
                            };
                            match __pbt_at {
                                ::core::option::Option::Some(__pbt_kid) => {
                                    ::core::clone::Clone::clone(__pbt_kid)
                                }
                                ::core::option::Option::None => {
                                    match ::pbt::__private::Source::draw(
                                        &mut *__pbt_src,
                                        1u64,
                                    ) {
                                        0u64 => {
                                            let __pbt_f0: i64 = <i64 as ::pbt::__private::Arbitrary>::arbitrary(
                                                &mut *__pbt_src,
                                                size,
                                            );
                                            Self::Lit(__pbt_f0)
                                        }
                                        _ => {
                                            let __pbt_f0: Box<Expr> = ::core::clone::Clone::clone(
                                                __pbt_0,
                                            );
                                            Self::Neg(__pbt_f0)
                                        }
                                    }
                                }
                            }
                        }
                        _ => {
                            match ::pbt::__private::Source::draw(&mut *__pbt_src, 2u64) {
                                0u64 => {
                                    let __pbt_f0: Box<Expr> = ::core::convert::From::from(
                                        ::core::clone::Clone::clone(self),
                                    );
                                    Self::Neg(__pbt_f0)
                                }
                                1u64 => {
                                    let __pbt_f0: Box<Expr> = ::core::convert::From::from(
                                        ::core::clone::Clone::clone(self),
                                    );
                                    let __pbt_f1: Box<Expr> = ::core::convert::From::from(
                                        <Expr as ::pbt::__private::Arbitrary>::arbitrary(
                                            &mut *__pbt_src,
                                            ::core::primitive::usize::div_euclid(size, 2),
                                        ),
                                    );
                                    Self::Add(__pbt_f0, __pbt_f1)
                                }
                                _ => {
                                    let __pbt_f0: Box<Expr> = ::core::convert::From::from(
                                        <Expr as ::pbt::__private::Arbitrary>::arbitrary(
                                            &mut *__pbt_src,
                                            ::core::primitive::usize::div_euclid(size, 2),
                                        ),
                                    );
                                    let __pbt_f1: Box<Expr> = ::core::convert::From::from(
                                        ::core::clone::Clone::clone(self),
                                    );
                                    Self::Add(__pbt_f0, __pbt_f1)
                                }
                            }
                        }
                    }
                }
            }
        }
    }
};
