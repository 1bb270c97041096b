"""Measure what a user feels when building a property suite, per library.

For pbt, proptest and quickcheck, the same suite (generate.py) is built in
a scratch crate of its own, with a target directory of its own, in the
debug profile `cargo test` uses:

- clean dependencies: a clean `cargo test --no-run` with an empty test
  file, i.e. the library's whole dependency tree;
- test target: the suite's test file compiled from scratch, dependencies
  built (`cargo clean -p suite`, then `cargo test --no-run`), at 30 and at
  100 properties; the marginal cost of one more property is the
  difference over 70;
- incremental: the rebuild after editing one line of one property (the
  first one's `let _edit = …;`), as a user waits for it after each edit;
- binary: the size of the test executable.

Each time is the median of ROUNDS runs (default 3). The machine is shared
and noisy: read the ratios, which are measured in the same run.

    python3 measure.py [--counts 30,100] [--libraries pbt,proptest,quickcheck]
"""
import argparse
import json
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def cargo(crate, target, *args, env=None):
    """Run cargo in `crate`; return (seconds, stdout)."""
    full_env = dict(os.environ, CARGO_TARGET_DIR=str(target), CARGO_TERM_COLOR="never")
    full_env.update(env or {})
    start = time.monotonic()
    out = subprocess.run(
        ["cargo", *args], cwd=crate, env=full_env, capture_output=True, text=True
    )
    elapsed = time.monotonic() - start
    if out.returncode != 0:
        sys.exit(f"cargo {' '.join(args)} failed in {crate}:\n{out.stderr[-4000:]}")
    return elapsed, out.stdout


def generate(crate, library, count):
    subprocess.run(
        [sys.executable, str(HERE / "generate.py"), str(crate), library, str(count), str(ROOT)],
        check=True,
    )


def test_binary(crate, target):
    _, stdout = cargo(crate, target, "test", "--no-run", "--test", "suite", "--message-format=json")
    for line in stdout.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg.get("executable"):
            if msg["target"]["name"] == "suite" and msg["target"]["kind"] == ["test"]:
                return pathlib.Path(msg["executable"])
    sys.exit(f"no test executable in {crate}")


def median_of(rounds, f):
    return statistics.median(f(i) for i in range(rounds))


def measure(library, counts, rounds, work):
    crate = work / library
    target = work / f"target-{library}"
    row = {}
    # The dependency tree alone: an empty test file, from a clean target.
    generate(crate, library, counts[0])
    suite = (crate / "tests" / "suite.rs").read_text()
    (crate / "tests" / "suite.rs").write_text("")

    def clean_deps(_):
        shutil.rmtree(target, ignore_errors=True)
        return cargo(crate, target, "test", "--no-run")[0]

    row["clean dependencies"] = median_of(rounds, clean_deps)
    for count in counts:
        generate(crate, library, count)
        suite = (crate / "tests" / "suite.rs").read_text()

        def full(_):
            cargo(crate, target, "clean", "-p", "suite")
            return cargo(crate, target, "test", "--no-run")[0]

        row[f"test target, {count}"] = median_of(rounds, full)

        def incremental(i):
            edited = suite.replace("let _edit = 0;", f"let _edit = {i + 1};", 1)
            (crate / "tests" / "suite.rs").write_text(edited)
            return cargo(crate, target, "test", "--no-run")[0]

        row[f"incremental, {count}"] = median_of(rounds, incremental)
        row[f"binary MB, {count}"] = test_binary(crate, target).stat().st_size / 1e6
    lo, hi = counts[0], counts[-1]
    if hi > lo:
        row["marginal ms/property"] = (
            (row[f"test target, {hi}"] - row[f"test target, {lo}"]) / (hi - lo) * 1000
        )
    return row


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--counts", default="30,100")
    parser.add_argument("--libraries", default="pbt,proptest,quickcheck")
    parser.add_argument("--rounds", type=int, default=int(os.environ.get("ROUNDS", "3")))
    parser.add_argument("--json", help="also write the table as JSON to this file")
    args = parser.parse_args()
    counts = [int(c) for c in args.counts.split(",")]
    libraries = args.libraries.split(",")
    work = pathlib.Path(tempfile.mkdtemp(prefix="pbt-compile-time-"))
    rows = {}
    try:
        for library in libraries:
            print(f"measuring {library} …", file=sys.stderr, flush=True)
            rows[library] = measure(library, counts, args.rounds, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    columns = list(next(iter(rows.values())).keys())
    width = max(len(c) for c in columns)
    print(f"debug profile, median of {args.rounds}; seconds unless named")
    print(f"{'':{width}}  " + "  ".join(f"{lib:>10}" for lib in libraries), end="")
    ratios = [(a, b) for a, b in [("pbt", "quickcheck"), ("pbt", "proptest")] if a in rows and b in rows]
    print("".join(f"{a + '/' + b:>18}" for a, b in ratios))
    for column in columns:
        cells = "  ".join(f"{rows[lib][column]:10.2f}" for lib in libraries)
        ratio = "".join(f"{rows[a][column] / rows[b][column]:>17.2f}x" for a, b in ratios)
        print(f"{column:{width}}  {cells}{ratio}")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(rows, indent=2))


main()
