"""Where a property suite's compile time goes, per library.

For the suite generate.py writes (30 properties unless --count says
otherwise), built debug as `cargo test` builds it, in a scratch crate per
library:

- the compiler's phases for the test target alone (`-Ztime-passes`, read
  through RUSTC_BOOTSTRAP on a stable toolchain): macro expansion, type
  checking, borrow checking, monomorphisation, LLVM IR, LLVM's passes and
  code generation, linking;
- the code the test target compiles: the lines of its functions' bodies in
  LLVM IR (what the code generator's time follows), in all and for the
  functions that make the most, their generic parameters erased (the
  grouping `cargo llvm-lines` makes, with c++filt instead).

Unlike the times of measure.py, the IR lines do not depend on the load of
the machine: a change to the code a property instantiates shows in them
exactly.

    python3 benches/compile_time/where.py [--count 30] [--top 25] [--libraries pbt,proptest,quickcheck]
"""
import argparse
import collections
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent

PHASES = [
    "macro_expand_crate",
    "type_check_crate",
    "MIR_borrow_checking",
    "monomorphization_collector_graph_walk",
    "codegen_to_LLVM_IR",
    "LLVM_passes",
    "link",
    "total",
]


def cargo(crate, target, *args, env=None):
    full_env = dict(os.environ, CARGO_TARGET_DIR=str(target), CARGO_TERM_COLOR="never")
    full_env.update(env or {})
    out = subprocess.run(["cargo", *args], cwd=crate, env=full_env, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"cargo {' '.join(args)} failed in {crate}:\n{out.stderr[-4000:]}")
    return out


def phases(crate, target):
    """Seconds per compiler phase of the test target, built anew."""
    (crate / "tests" / "suite.rs").touch()
    env = {"RUSTC_BOOTSTRAP": "1", "CARGO_INCREMENTAL": "0"}
    out = cargo(crate, target, "rustc", "--test", "suite", "--", "-Ztime-passes", env=env)
    seen = {}
    for line in out.stderr.splitlines():
        m = re.match(r"time:\s+([0-9.]+);.*\s(\S+)$", line)
        if m and m.group(2) in PHASES and m.group(2) not in seen:
            seen[m.group(2)] = float(m.group(1))
    return seen


def functions(ll):
    """(symbol, lines of its body) of each function defined in `ll`."""
    out, name, lines = [], None, 0
    with open(ll, errors="replace") as f:
        for line in f:
            if line.startswith("define "):
                m = re.search(r'@("?[^\s(]+)\(', line)
                name, lines = (m.group(1).strip('"') if m else "?"), 0
            elif name is not None:
                lines += 1
                if line.startswith("}"):
                    out.append((name, lines))
                    name = None
    return out


def erased(symbols):
    """Demangled names with hashes and generic arguments erased."""
    if shutil.which("c++filt") is None:
        return symbols
    demangled = subprocess.run(
        ["c++filt"], input="\n".join(symbols), capture_output=True, text=True
    ).stdout.splitlines()
    names = []
    for d in demangled:
        d = re.sub(r"::h[0-9a-f]{16}$", "", d)
        while True:
            e = re.sub(r"<[^<>]*>", "<>", d)
            if e == d:
                break
            d = e
        names.append(d)
    return names


def ir_lines(crate, target, top):
    (crate / "tests" / "suite.rs").touch()
    cargo(crate, target, "rustc", "--test", "suite", "--", "--emit=llvm-ir",
          env={"CARGO_INCREMENTAL": "0"})
    ll = max((target / "debug" / "deps").glob("suite-*.ll"), key=lambda p: p.stat().st_mtime)
    funcs = functions(ll)
    groups = collections.defaultdict(lambda: [0, 0])
    for name, (_, lines) in zip(erased([f for f, _ in funcs]), funcs):
        groups[name][0] += lines
        groups[name][1] += 1
    total = sum(lines for _, lines in funcs)
    ranked = sorted(groups.items(), key=lambda g: -g[1][0])[:top]
    return total, len(funcs), ranked


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=30)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--libraries", default="pbt,proptest,quickcheck")
    args = parser.parse_args()
    work = pathlib.Path(tempfile.mkdtemp(prefix="pbt-compile-where-"))
    try:
        for library in args.libraries.split(","):
            crate, target = work / library, work / f"target-{library}"
            subprocess.run(
                [sys.executable, str(HERE / "generate.py"), str(crate), library,
                 str(args.count), str(ROOT)],
                check=True,
            )
            print(f"== {library}, {args.count} properties", flush=True)
            cargo(crate, target, "test", "--no-run")
            times = phases(crate, target)
            print("phases (s): " + ", ".join(f"{p} {times[p]:.2f}" for p in PHASES if p in times))
            total, count, ranked = ir_lines(crate, target, args.top)
            print(f"LLVM IR: {total} lines in {count} functions "
                  f"({total / args.count:.0f} a property)")
            for name, (lines, copies) in ranked:
                print(f"{lines:9d} {100 * lines / total:5.1f}% {copies:6d}  {name[:140]}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


main()
