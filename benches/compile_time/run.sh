#!/usr/bin/env bash
# What users feel when building a property suite: the same suite (modelled
# on indexmap's quickcheck suite, see generate.py) written with pbt,
# proptest and quickcheck, built debug in scratch crates, at 30 and 100
# properties. Prints, per library: the clean build of its dependency tree,
# the test target built from scratch, the incremental rebuild after editing
# one property, the marginal cost of one more property and the test
# binary's size, with pbt's ratios to quickcheck and proptest.
#
#   bash benches/compile_time/run.sh                      # ROUNDS=3, about 15 min
#   ROUNDS=1 bash benches/compile_time/run.sh --counts 30 # a quick look
set -euo pipefail
exec python3 "$(dirname "$0")/measure.py" "$@"
