#!/usr/bin/env bash
# Instrumentation overhead: the coverage_overhead bench built plain
# and built with SanitizerCoverage's inline 8-bit counters (stable rustc).
set -euo pipefail
cd "$(dirname "$0")/../.."
host=$(rustc -vV | sed -n 's/^host: //p')
flags="build.rustflags=['-Cpasses=sancov-module','-Cllvm-args=-sanitizer-coverage-level=3','-Cllvm-args=-sanitizer-coverage-inline-8bit-counters']"
plain=$(cargo bench -q --bench coverage_overhead 2>/dev/null | tail -1)
inst=$(CARGO_TARGET_DIR=target/sancov cargo bench -q --bench coverage_overhead --features coverage \
  --target "$host" --config "$flags" 2>/dev/null | tail -1)
echo "plain:        $plain"
echo "instrumented: $inst"
a=$(echo "$plain" | sed -n 's/.*generational: \([0-9.]*\).*/\1/p')
b=$(echo "$inst" | sed -n 's/.*generational: \([0-9.]*\).*/\1/p')
printf 'overhead: %.2fx\n' "$(echo "$b / $a" | bc -l)"
