#!/usr/bin/env python3
"""Write a guide chapter's Rust examples as one integration-test file.

Usage: guide_blocks.py CHAPTER.md > tests/chapter.rs

What rustdoc runs as a doctest becomes a test here, as a stranger would
paste it: a block with `#[property_test]` items goes into a module of its
own (its functions are the tests), any other block becomes the body of a
`#[test]` function. Hidden lines (`# …`) are unhidden; `ignore` and
`text` blocks are skipped, `no_run` ones compiled only, `should_panic`
ones expected to panic.
"""
import re
import sys


def blocks(markdown):
    fence, lines = None, []
    for line in markdown.splitlines():
        if fence is None:
            m = re.match(r"^```(.*)$", line)
            if m:
                fence, lines = m.group(1).strip(), []
        elif line.startswith("```"):
            yield fence, lines
            fence = None
        else:
            lines.append(line)


def unhide(line):
    if line == "#":
        return ""
    if line.startswith("# "):
        return line[2:]
    return line


def main():
    path = sys.argv[1]
    text = open(path, encoding="utf-8").read()
    out = [f"//! The Rust examples of {path.rsplit('/', 1)[-1]}, as a stranger pastes them.", ""]
    n = 0
    for fence, lines in blocks(text):
        attrs = [a.strip() for a in fence.split(",")]
        if not attrs or attrs[0] not in ("rust", ""):
            continue
        if fence == "" or "ignore" in attrs or "compile_fail" in attrs:
            continue
        n += 1
        body = "\n".join(unhide(l) for l in lines)
        if "#[property_test" in body or re.search(r"^fn main\(", body, re.M):
            out.append(f"mod block_{n} {{")
            out.append("#![allow(dead_code, unused_imports)]")
            out.append(body)
            if re.search(r"^fn main\(", body, re.M):
                out.append("#[test]\nfn runs_main() { main() }")
            out.append("}")
        else:
            if "no_run" in attrs:
                out.append("#[allow(dead_code)]")
            else:
                out.append("#[test]")
            if "should_panic" in attrs:
                out.append("#[should_panic]")
            out.append(f"fn block_{n}() {{")
            out.append(body)
            out.append("}")
        out.append("")
    if n == 0:
        sys.exit(f"{path}: no Rust example")
    print("\n".join(out))


main()
