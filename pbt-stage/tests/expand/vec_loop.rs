// vec(one_of[int(0..10i64), just(-1)], 0..100)
fn generate<S: ::pbt::__private::Source + ?Sized>(
    src: &mut S,
    __pbt_size: usize,
) -> ::pbt::__private::Generated<Vec<i64>> {
    let size = __pbt_size;
    '__pbt_gen: {
        ::pbt::__private::Source::charge(&mut *src, 1u64);
        ::core::result::Result::Ok({
            ::pbt::__private::Source::start_block(
                &mut *src,
                ::pbt::__private::BlockKind::Collection,
            );
            let __pbt_n: ::core::primitive::usize = match ::pbt::__private::Gen::generate(
                &::pbt::__private::Length::lengths(0..100),
                &mut ::pbt::__private::Prepaid::new(&mut *src),
                __pbt_size,
            ) {
                ::core::result::Result::Ok(__pbt_v) => __pbt_v,
                ::core::result::Result::Err(e) => {
                    break '__pbt_gen <::core::result::Result<_, _>>::Err(e);
                }
            };
            {
                let __pbt_parts: ::core::primitive::u64 = __pbt_n
                    as ::core::primitive::u64;
                ::pbt::__private::Source::charge_parts(
                    &mut *src,
                    __pbt_parts,
                    __pbt_parts,
                );
            }
            let mut __pbt_v = ::std::vec::Vec::with_capacity(
                ::core::cmp::Ord::min(__pbt_n, ::pbt::__private::MAX_RESERVE),
            );
            for _ in 0..__pbt_n {
                ::pbt::__private::Source::start_block(
                    &mut *src,
                    ::pbt::__private::BlockKind::Element,
                );
                __pbt_v
                    .push({
                        let __pbt_e: i64 = match ::pbt::__private::Source::draw_charged(
                            &mut *src,
                            1u64,
                        ) {
                            0u64 => {
                                ::pbt::__private::Source::charge(&mut *src, 1u64);
                                match ::pbt::__private::Gen::generate(
                                    &::pbt::__private::dsl::int(0..10i64),
                                    &mut ::pbt::__private::Prepaid::new(&mut *src),
                                    __pbt_size,
                                ) {
                                    ::core::result::Result::Ok(__pbt_v) => __pbt_v,
                                    ::core::result::Result::Err(e) => {
                                        break '__pbt_gen <::core::result::Result<_, _>>::Err(e);
                                    }
                                }
                            }
                            _ => -1,
                        };
                        __pbt_e
                    });
                ::pbt::__private::Source::end_block(&mut *src);
            }
            ::pbt::__private::Source::end_block(&mut *src);
            __pbt_v
        })
    }
}
