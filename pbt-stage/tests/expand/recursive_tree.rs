// recursive(|rec| frequency[1 => just(Tree::Leaf), size => map((rec, rec), node)])
fn generate<S: ::pbt::__private::Source + ?Sized>(
    src: &mut S,
    __pbt_size: usize,
) -> ::pbt::__private::Generated<Tree> {
    let size = __pbt_size;
    '__pbt_gen: {
        ::core::result::Result::Ok({
            fn __pbt_rec0<S: ::pbt::__private::Source + ?::core::marker::Sized>(
                __pbt_src0: &mut S,
                __pbt_size: ::core::primitive::usize,
            ) -> ::pbt::__private::Generated<Tree> {
                #[inline(always)]
                fn __pbt_layer0<S: ::pbt::__private::Source + ?::core::marker::Sized>(
                    __pbt_src0: &mut S,
                    __pbt_size: ::core::primitive::usize,
                ) -> ::pbt::__private::Generated<Tree> {
                    #[allow(unused_variables)]
                    let size: ::core::primitive::usize = __pbt_size;
                    '__pbt_rec0: {
                        ::pbt::__private::Source::charge_parts(
                            &mut *__pbt_src0,
                            1u64,
                            1u64,
                        );
                        ::core::result::Result::Ok({
                            let __pbt_w0: ::core::primitive::u64 = ::pbt::__private::weight(
                                1,
                            );
                            let __pbt_w1: ::core::primitive::u64 = ::pbt::__private::weight(
                                size,
                            );
                            let __pbt_c0 = __pbt_w0;
                            let __pbt_c1 = __pbt_c0 + __pbt_w1;
                            ::core::assert!(
                                __pbt_c1 > 0, "pbt: frequency needs a positive total weight"
                            );
                            let __pbt_r = ::pbt::__private::Source::draw_charged(
                                &mut *__pbt_src0,
                                __pbt_c1 - 1,
                            );
                            if __pbt_r < __pbt_c0 {
                                Tree::Leaf
                            } else {
                                (node)((
                                    match __pbt_rec0(
                                        &mut *__pbt_src0,
                                        ::core::primitive::usize::div_euclid(__pbt_size, 2),
                                    ) {
                                        ::core::result::Result::Ok(__pbt_v) => __pbt_v,
                                        ::core::result::Result::Err(e) => {
                                            break '__pbt_rec0 <::core::result::Result<_, _>>::Err(e);
                                        }
                                    },
                                    match __pbt_rec0(
                                        &mut *__pbt_src0,
                                        ::core::primitive::usize::div_euclid(__pbt_size, 2),
                                    ) {
                                        ::core::result::Result::Ok(__pbt_v) => __pbt_v,
                                        ::core::result::Result::Err(e) => {
                                            break '__pbt_rec0 <::core::result::Result<_, _>>::Err(e);
                                        }
                                    },
                                ))
                            }
                        })
                    }
                }
                if !::pbt::__private::Source::records(&*__pbt_src0) {
                    return __pbt_layer0(&mut *__pbt_src0, __pbt_size);
                }
                ::pbt::__private::Source::start_block(
                    &mut *__pbt_src0,
                    ::pbt::__private::BlockKind::Recursion,
                );
                let __pbt_layer = __pbt_layer0(&mut *__pbt_src0, __pbt_size);
                ::pbt::__private::Source::end_block(&mut *__pbt_src0);
                __pbt_layer
            }
            match __pbt_rec0(&mut *src, __pbt_size) {
                ::core::result::Result::Ok(__pbt_v) => __pbt_v,
                ::core::result::Result::Err(e) => {
                    break '__pbt_gen <::core::result::Result<_, _>>::Err(e);
                }
            }
        })
    }
}
