// { let x = int(0..50u32); let y = int(0..50u32); ensure y > x; (x, y) }
fn generate<S: ::pbt::__private::Source + ?Sized>(
    src: &mut S,
    __pbt_size: usize,
) -> ::pbt::__private::Generated<(u32, u32)> {
    let size = __pbt_size;
    '__pbt_gen: {
        ::pbt::__private::Source::charge(&mut *src, 2u64);
        ::core::result::Result::Ok({
            let x = match ::pbt::__private::Gen::generate(
                &::pbt::__private::dsl::int(0..50u32),
                &mut ::pbt::__private::Prepaid::new(&mut *src),
                __pbt_size,
            ) {
                ::core::result::Result::Ok(__pbt_v) => __pbt_v,
                ::core::result::Result::Err(e) => {
                    break '__pbt_gen <::core::result::Result<_, _>>::Err(e);
                }
            };
            let (y,) = {
                let mut __pbt_tries = 0usize;
                loop {
                    let y = match ::pbt::__private::Gen::generate(
                        &::pbt::__private::dsl::int(0..50u32),
                        &mut ::pbt::__private::Prepaid::new(&mut *src),
                        __pbt_size,
                    ) {
                        ::core::result::Result::Ok(__pbt_v) => __pbt_v,
                        ::core::result::Result::Err(e) => {
                            break '__pbt_gen <::core::result::Result<_, _>>::Err(e);
                        }
                    };
                    if (y > x) {
                        break (y,);
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
                                        ::core::stringify!(ensure y > x),
                                    ),
                                ),
                            ),
                        );
                    }
                    ::pbt::__private::Source::charge(&mut *src, 1u64);
                }
            };
            (x, y)
        })
    }
}
