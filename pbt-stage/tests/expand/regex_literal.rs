// regex("(ab|c)[x-z0-3]{1,4}.?")
fn generate<S: ::pbt::__private::Source + ?Sized>(
    src: &mut S,
    __pbt_size: usize,
) -> ::pbt::__private::Generated<String> {
    let size = __pbt_size;
    '__pbt_gen: {
        ::pbt::__private::Source::charge(&mut *src, 3u64);
        ::core::result::Result::Ok({
            let mut __pbt_s = ::std::string::String::new();
            match ::pbt::__private::Source::draw_charged(&mut *src, 1u64) {
                0u64 => {
                    __pbt_s.push_str("ab");
                }
                _ => {
                    __pbt_s.push_str("c");
                }
            }
            {
                let __pbt_k: ::core::primitive::u64 = ::pbt::__private::Source::draw_charged(
                    &mut *src,
                    3u64,
                );
                ::pbt::__private::Source::charge(&mut *src, 1u64 + __pbt_k);
                for _ in 0..1u64 + __pbt_k {
                    {
                        let __pbt_n = ::pbt::__private::Source::draw_charged(
                            &mut *src,
                            6u64,
                        ) as ::core::primitive::u32;
                        let __pbt_code: ::core::primitive::u32 = if __pbt_n < 3u32 {
                            120u32 + __pbt_n
                        } else {
                            48u32 + (__pbt_n - 3u32)
                        };
                        __pbt_s
                            .push(
                                ::core::char::from_u32(__pbt_code)
                                    .unwrap_or(::core::char::REPLACEMENT_CHARACTER),
                            );
                    }
                }
            }
            {
                let __pbt_k: ::core::primitive::u64 = ::pbt::__private::Source::draw_charged(
                    &mut *src,
                    1u64,
                );
                ::pbt::__private::Source::charge(&mut *src, __pbt_k);
                for _ in 0..__pbt_k {
                    {
                        let __pbt_n = ::pbt::__private::Source::draw_charged(
                            &mut *src,
                            1112062u64,
                        ) as ::core::primitive::u32;
                        let __pbt_code: ::core::primitive::u32 = if __pbt_n < 55248u32 {
                            48u32 + __pbt_n
                        } else if __pbt_n < 1112016u32 {
                            57344u32 + (__pbt_n - 55248u32)
                        } else if __pbt_n < 1112026u32 {
                            0u32 + (__pbt_n - 1112016u32)
                        } else {
                            11u32 + (__pbt_n - 1112026u32)
                        };
                        __pbt_s
                            .push(
                                ::core::char::from_u32(__pbt_code)
                                    .unwrap_or(::core::char::REPLACEMENT_CHARACTER),
                            );
                    }
                }
            }
            __pbt_s
        })
    }
}
