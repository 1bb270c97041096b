//! An ETNA BST task for the fuzz engines: mutant `insert_2` (the `k > k'`
//! branch of insert is missing) against InsertPost, with the bespoke
//! generator of the ETNA workload (`pbt-eval`).

use pbt_eval::bst::{spec, Bst, Mutant};
use pbt_eval::common::{Key, Val};
use pbt_eval::drivers::TreeWorkload;

/// InsertPost under mutant `insert_2`.
pub fn insert2_post() -> impl pbt::Property {
    pbt::property! {
        forall t: pbt_eval::bst::Tree, #[gen = <Bst as TreeWorkload>::pbt_bespoke()];
        forall k: Key;
        forall k2: Key;
        forall v: Val;
        check spec::insert_post(Mutant::Insert2, &t, k, k2, v)
    }
}
