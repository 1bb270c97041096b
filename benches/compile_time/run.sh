#!/usr/bin/env bash
# Compile-time cost of staging: time to rebuild a test file of 20
# staged pbt properties vs the same 20 written with proptest, both warm,
# touching only the test file. Prints the median of $ROUNDS rebuilds each.
#
#   bash benches/compile_time/run.sh            # debug (what `cargo test` builds)
#   PROFILE=release bash benches/compile_time/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="${TMPDIR:-/tmp}/pbt-compile-time"
rounds="${ROUNDS:-5}"
profile_flag=()
[ "${PROFILE:-debug}" = release ] && profile_flag=(--release)

rm -rf "$work" && mkdir -p "$work/tests" "$work/src"
cat > "$work/Cargo.toml" <<TOML
[package]
name = "compile-time"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dev-dependencies]
pbtest = { path = "$root" }
proptest = "1"
TOML
echo "" > "$work/src/lib.rs"
python3 "$here/generate.py" "$work/tests"
cd "$work"
cargo test "${profile_flag[@]}" --no-run -q 2>/dev/null   # warm: dependencies and both files

time_one() { # median seconds to rebuild after editing tests/$1.rs
  local times=()
  for i in $(seq "$rounds"); do
    # A real edit (not only a newer mtime), so incremental builds redo work.
    echo "// edit $i $RANDOM" >> "tests/$1.rs"
    local t0 t1
    t0=$(date +%s.%N)
    cargo test "${profile_flag[@]}" --no-run -q --test "$1" 2>/dev/null
    t1=$(date +%s.%N)
    times+=("$(echo "$t1 - $t0" | bc)")
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (rounds + 1) / 2 ))p"
}
report() {
  local pbt proptest
  pbt=$(time_one pbt20)
  proptest=$(time_one proptest20)
  echo "rebuild of a test file with 20 properties ($1, ${PROFILE:-debug}, median of $rounds):"
  printf '  pbt (staged)  %6.2f s\n  proptest      %6.2f s\n  pbt/proptest  %6.2f\n' "$pbt" "$proptest" "$(echo "$pbt / $proptest" | bc -l)"
}
report "incremental, after an edit"
export CARGO_INCREMENTAL=0
cargo test "${profile_flag[@]}" --no-run -q 2>/dev/null
report "non-incremental: the whole file is expanded and compiled again"
