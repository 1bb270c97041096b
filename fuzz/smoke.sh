#!/usr/bin/env bash
# CI smoke test of the libFuzzer path: build the `bug` target with cargo-fuzz
# on stable Rust (`-s none`: no sanitizer, so no nightly) and run it for a
# few seconds; b-u-g is a known bug, so the run must end in a crash whose
# report is pbt's. Skips (exit 0, saying why) when cargo-fuzz or a C++
# compiler is missing. Usage: fuzz/smoke.sh [seconds]
set -euo pipefail
cd "$(dirname "$0")"
secs="${1:-10}"
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "fuzz smoke: skipped, cargo-fuzz is not installed (cargo install cargo-fuzz)"
    exit 0
fi
if ! command -v c++ >/dev/null 2>&1 && ! command -v g++ >/dev/null 2>&1 && ! command -v clang++ >/dev/null 2>&1; then
    echo "fuzz smoke: skipped, no C++ compiler to build libFuzzer"
    exit 0
fi
# Honour CARGO_TARGET_DIR (cargo-fuzz otherwise builds into fuzz/target).
target_dir=()
if [ -n "${CARGO_TARGET_DIR:-}" ]; then target_dir=(--target-dir "$CARGO_TARGET_DIR/fuzz"); fi
cargo fuzz build -s none "${target_dir[@]}" bug
artifacts="$(mktemp -d)"
trap 'rm -rf "$artifacts"' EXIT
set +e
cargo fuzz run -s none "${target_dir[@]}" bug -- -max_total_time="$secs" -artifact_prefix="$artifacts/" 2>"$artifacts/log"
status=$?
set -e
if grep -q "pbt: the property failed on this engine input" "$artifacts/log"; then
    grep -A3 "pbt: the property failed" "$artifacts/log"
    echo "fuzz smoke: libFuzzer ran and found b-u-g (exit status $status)"
else
    tail -20 "$artifacts/log"
    echo "fuzz smoke: libFuzzer ran for ${secs}s without finding b-u-g (exit status $status)"
    [ "$status" -eq 0 ] || exit "$status"
fi
