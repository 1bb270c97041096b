// hash_map(int(0..10u8), option(bool()), 1..=3)
fn generate<S: ::pbt::__private::Source + ?Sized>(
    src: &mut S,
    __pbt_size: usize,
) -> ::pbt::__private::Generated<std::collections::HashMap<u8, Option<bool>>> {
    let size = __pbt_size;
    '__pbt_gen: {
        ::pbt::__private::Source::charge(&mut *src, 1u64);
        ::core::result::Result::Ok({
            let __pbt_len = ::pbt::__private::Length::lengths(1..=3);
            let __pbt_target: ::core::primitive::usize = match ::pbt::__private::Gen::generate(
                &__pbt_len,
                &mut ::pbt::__private::Prepaid::new(&mut *src),
                __pbt_size,
            ) {
                ::core::result::Result::Ok(__pbt_v) => __pbt_v,
                ::core::result::Result::Err(e) => {
                    break '__pbt_gen <::core::result::Result<_, _>>::Err(e);
                }
            };
            let mut __pbt_out = ::std::collections::HashMap::new();
            let mut __pbt_misses = 0usize;
            while __pbt_out.len() < __pbt_target
                && __pbt_misses < ::pbt::__private::UNIQUE_TRIES
            {
                ::pbt::__private::Source::charge(&mut *src, 1u64);
                let __pbt_added: ::core::primitive::bool = {
                    let __pbt_k = match ::pbt::__private::Gen::generate(
                        &::pbt::__private::dsl::int(0..10u8),
                        &mut ::pbt::__private::Prepaid::new(&mut *src),
                        __pbt_size,
                    ) {
                        ::core::result::Result::Ok(__pbt_v) => __pbt_v,
                        ::core::result::Result::Err(e) => {
                            break '__pbt_gen <::core::result::Result<_, _>>::Err(e);
                        }
                    };
                    let __pbt_new = !__pbt_out.contains_key(&__pbt_k);
                    if __pbt_new {
                        ::pbt::__private::Source::charge(&mut *src, 1u64);
                        let __pbt_v = if ::pbt::__private::Source::draw_charged(
                            &mut *src,
                            3u64,
                        ) == 0
                        {
                            ::core::option::Option::None
                        } else {
                            ::core::option::Option::Some({
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
                            })
                        };
                        __pbt_out.insert(__pbt_k, __pbt_v);
                    }
                    __pbt_new
                };
                if __pbt_added {
                    __pbt_misses = 0;
                } else {
                    __pbt_misses += 1;
                }
            }
            if __pbt_out.len() < __pbt_len.lo {
                break '__pbt_gen <::core::result::Result<
                    _,
                    _,
                >>::Err(
                    ::pbt::__private::rejected(::pbt::__private::Rejection::MinimumLength {
                        min: __pbt_len.lo,
                        reached: __pbt_out.len(),
                    }),
                );
            }
            __pbt_out
        })
    }
}
