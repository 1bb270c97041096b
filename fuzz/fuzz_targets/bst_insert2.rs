//! ETNA BST, mutant `insert_2` against InsertPost, as a fuzz target (see
//! `bug.rs` for the engines).
#![cfg_attr(feature = "libfuzzer", no_main)]

#[path = "../properties/bst.rs"]
mod bst;

pbt::fuzz_target!(bst::insert2_post());
