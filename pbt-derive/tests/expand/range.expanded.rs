#[allow(non_local_definitions)]
const _: () = {
    #[automatically_derived]
    impl ::pbt::__private::Arbitrary for Range {
        #[allow(unused_variables)]
        fn arbitrary<__PbtS: ::pbt::__private::Source + ?::core::marker::Sized>(
            __pbt_src: &mut __PbtS,
            size: ::core::primitive::usize,
        ) -> Self {
            {
                let __pbt_f0: u32 = {
                    let __pbt_size: ::core::primitive::usize = size;
                    #[allow(unused_imports)]
                    use ::pbt::__private::dsl::*;
                    #[allow(unused_imports)]
                    use ::pbt::__private::{BindCopy as _, BindRef as _};
                    let mut __pbt_tries: ::core::primitive::usize = 0;
                    loop {
                        let __pbt_r: ::pbt::__private::Generated<u32> = '__pbt_gen: {
                            ::pbt::__private::Source::charge(&mut *__pbt_src, 1u64);
                            ::core::result::Result::Ok(
                                match ::pbt::__private::Gen::generate(
                                    &::pbt::__private::dsl::int(0..100u32),
                                    &mut ::pbt::__private::Prepaid::new(&mut *__pbt_src),
                                    __pbt_size,
                                ) {
                                    ::core::result::Result::Ok(__pbt_v) => {
                                        ::pbt::__private::Produces::<u32>::produced(__pbt_v)
                                    }
                                    ::core::result::Result::Err(e) => {
                                        break '__pbt_gen <::core::result::Result<_, _>>::Err(e);
                                    }
                                },
                            )
                        };
                        match __pbt_r {
                            ::core::result::Result::Ok(__pbt_v) => break __pbt_v,
                            ::core::result::Result::Err(_) => {
                                __pbt_tries += 1;
                                if __pbt_tries >= ::pbt::__private::FIELD_TRIES {
                                    ::core::panic!(
                                        "pbt: the `#[pbt(with = …)]` of field `{}` rejected every candidate in {} tries",
                                        "Range::lo", ::pbt::__private::FIELD_TRIES,
                                    )
                                }
                            }
                        }
                    }
                };
                let __pbt_f1: u32 = {
                    let __pbt_size: ::core::primitive::usize = size;
                    #[allow(unused_imports)]
                    use ::pbt::__private::dsl::*;
                    #[allow(unused_imports)]
                    use ::pbt::__private::{BindCopy as _, BindRef as _};
                    let lo = (&::pbt::__private::Bind(&__pbt_f0)).bind();
                    let mut __pbt_tries: ::core::primitive::usize = 0;
                    loop {
                        let __pbt_r: ::pbt::__private::Generated<u32> = '__pbt_gen: {
                            ::pbt::__private::Source::charge(&mut *__pbt_src, 1u64);
                            ::core::result::Result::Ok(
                                match ::pbt::__private::Gen::generate(
                                    &::pbt::__private::dsl::int(lo..=lo + 10),
                                    &mut ::pbt::__private::Prepaid::new(&mut *__pbt_src),
                                    __pbt_size,
                                ) {
                                    ::core::result::Result::Ok(__pbt_v) => {
                                        ::pbt::__private::Produces::<u32>::produced(__pbt_v)
                                    }
                                    ::core::result::Result::Err(e) => {
                                        break '__pbt_gen <::core::result::Result<_, _>>::Err(e);
                                    }
                                },
                            )
                        };
                        match __pbt_r {
                            ::core::result::Result::Ok(__pbt_v) => break __pbt_v,
                            ::core::result::Result::Err(_) => {
                                __pbt_tries += 1;
                                if __pbt_tries >= ::pbt::__private::FIELD_TRIES {
                                    ::core::panic!(
                                        "pbt: the `#[pbt(with = …)]` of field `{}` rejected every candidate in {} tries",
                                        "Range::hi", ::pbt::__private::FIELD_TRIES,
                                    )
                                }
                            }
                        }
                    }
                };
                let __pbt_f2: String = <String as ::pbt::__private::Arbitrary>::arbitrary(
                    &mut *__pbt_src,
                    size,
                );
                Self {
                    lo: __pbt_f0,
                    hi: __pbt_f1,
                    label: __pbt_f2,
                }
            }
        }
    }
    #[automatically_derived]
    impl ::pbt::__private::Shrink for Range {
        #[allow(unused_variables)]
        fn shrink(&self) -> ::pbt::__private::Candidates<'_, Self> {
            match self {
                Self { lo: __pbt_0, hi: __pbt_1, label: __pbt_2 } => {
                    ::pbt::__private::boxed_candidates(
                        ::core::iter::Iterator::chain(
                            ::core::iter::empty::<Self>(),
                            ::core::iter::Iterator::flatten(
                                ::core::iter::once_with(move || {
                                    ::core::iter::Iterator::map(
                                        <String as ::pbt::__private::Shrink>::shrink(__pbt_2),
                                        move |__pbt_c| Self {
                                            lo: ::core::clone::Clone::clone(__pbt_0),
                                            hi: ::core::clone::Clone::clone(__pbt_1),
                                            label: __pbt_c,
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
    impl ::pbt::__private::Constructors for Range {
        fn constructors_under(
            &self,
            __pbt_parent: ::core::option::Option<&'static ::core::primitive::str>,
            __pbt_out: &mut ::std::vec::Vec<::pbt::__private::Constructor>,
        ) {
            #[allow(unused_imports)]
            use ::pbt::__private::{VisitConstructors as _, VisitNothing as _};
            match self {
                Self { lo: __pbt_0, hi: __pbt_1, label: __pbt_2 } => {
                    __pbt_out
                        .push(::pbt::__private::Constructor {
                            name: "Range",
                            parent: __pbt_parent,
                        });
                    (&::pbt::__private::Visit(__pbt_0))
                        .visit(::core::option::Option::Some("Range"), __pbt_out);
                    (&::pbt::__private::Visit(__pbt_1))
                        .visit(::core::option::Option::Some("Range"), __pbt_out);
                    (&::pbt::__private::Visit(__pbt_2))
                        .visit(::core::option::Option::Some("Range"), __pbt_out);
                }
            }
        }
    }
};
