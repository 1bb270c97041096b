// frequency[1 => just(0u8), size => int(1..10u8), 3 => map(bool(), |b| b as u8)]
fn generate<S: ::pbt::__private::Source + ?Sized>(
    src: &mut S,
    __pbt_size: usize,
) -> ::pbt::__private::Generated<u8> {
    let size = __pbt_size;
    '__pbt_gen: {
        ::pbt::__private::Source::charge(&mut *src, 1u64);
        ::core::result::Result::Ok({
            let __pbt_w0: ::core::primitive::u64 = ::pbt::__private::weight(1);
            let __pbt_w1: ::core::primitive::u64 = ::pbt::__private::weight(size);
            let __pbt_w2: ::core::primitive::u64 = ::pbt::__private::weight(3);
            let __pbt_c0 = __pbt_w0;
            let __pbt_c1 = __pbt_c0 + __pbt_w1;
            let __pbt_c2 = __pbt_c1 + __pbt_w2;
            ::core::assert!(
                __pbt_c2 > 0, "pbt: frequency needs a positive total weight"
            );
            let __pbt_r = ::pbt::__private::Source::draw_charged(
                &mut *src,
                __pbt_c2 - 1,
            );
            if __pbt_r < __pbt_c0 {
                0u8
            } else if __pbt_r < __pbt_c1 {
                {
                    ::pbt::__private::Source::charge(&mut *src, 1u64);
                    match ::pbt::__private::Gen::generate(
                        &::pbt::__private::dsl::int(1..10u8),
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
                {
                    ::pbt::__private::Source::charge(&mut *src, 1u64);
                    {
                        let b = match ::pbt::__private::Gen::generate(
                            &::pbt::__private::dsl::bool(),
                            &mut ::pbt::__private::Prepaid::new(&mut *src),
                            __pbt_size,
                        ) {
                            ::core::result::Result::Ok(__pbt_v) => __pbt_v,
                            ::core::result::Result::Err(e) => {
                                break '__pbt_gen <::core::result::Result<_, _>>::Err(e);
                            }
                        };
                        b as u8
                    }
                }
            }
        })
    }
}
