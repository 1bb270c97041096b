// filter((my_runtime_gen(), either(bool(), just(true), 0.25)), |(n, _)| n % 2 == 0)
fn generate<S: ::pbt::__private::Source + ?Sized>(
    src: &mut S,
    __pbt_size: usize,
) -> ::pbt::__private::Generated<(u32, bool)> {
    let size = __pbt_size;
    '__pbt_gen: {
        ::pbt::__private::Source::charge(&mut *src, 1u64);
        ::core::result::Result::Ok({
            let mut __pbt_tries = 0usize;
            loop {
                let __pbt_v = (
                    match ::pbt::__private::Gen::generate(
                        &(my_runtime_gen()),
                        &mut *src,
                        __pbt_size,
                    ) {
                        ::core::result::Result::Ok(__pbt_v) => __pbt_v,
                        ::core::result::Result::Err(e) => {
                            break '__pbt_gen <::core::result::Result<_, _>>::Err(e);
                        }
                    },
                    if ::pbt::__private::Source::draw_charged(
                        &mut *src,
                        ::pbt::__private::UNIT - 1,
                    ) < ::pbt::__private::threshold(0.25)
                    {
                        {
                            ::pbt::__private::Source::charge(&mut *src, 1u64);
                            match ::pbt::__private::Gen::generate(
                                &::pbt::__private::dsl::bool(),
                                &mut ::pbt::__private::Prepaid::new(&mut *src),
                                __pbt_size,
                            ) {
                                ::core::result::Result::Ok(__pbt_v) => __pbt_v,
                                ::core::result::Result::Err(e) => {
                                    break '__pbt_gen <::core::result::Result<_, _>>::Err(e);
                                }
                            }
                        }
                    } else {
                        true
                    },
                );
                if {
                    let (n, _) = &__pbt_v;
                    n % 2 == 0
                } {
                    break __pbt_v;
                }
                __pbt_tries += 1;
                if __pbt_tries == ::pbt::__private::FILTER_TRIES {
                    break '__pbt_gen <::core::result::Result<
                        _,
                        _,
                    >>::Err(
                        ::pbt::__private::rejected(
                            ::pbt::__private::Rejection::Filter(
                                ::core::option::Option::Some(
                                    ::core::stringify!(| (n, _) | n % 2 == 0),
                                ),
                            ),
                        ),
                    );
                }
                ::pbt::__private::Source::charge(&mut *src, 1u64);
            }
        })
    }
}
