#!/usr/bin/env python3
"""Do two strategies need the same number of tests to a failure?

    python3 eval/scripts/tests_to_failure.py RESULTS.json BASE

For every other strategy in the saved `etna --json` results, over the tasks
both solved in some trial: the geometric mean over tasks of BASE's mean
tests over the other's, with a 95 % interval (normal, over the per-task log
ratios), and how many tasks a two-sided Mann-Whitney test (normal
approximation, ties averaged) finds different at the 5 % level, beside the
number chance alone gives. docs/etna.md, "What bounds the ratio on IFC".
"""

import json
import math
import statistics
import sys


def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def mann_whitney_p(a, b):
    n1, n2 = len(a), len(b)
    u = sum(ranks(a + b)[:n1]) - n1 * (n1 + 1) / 2
    sd = math.sqrt(n1 * n2 * (n1 + n2 + 1) / 12)
    z = (u - n1 * n2 / 2) / sd
    return 1 - math.erf(abs(z) / math.sqrt(2))


def main(path, base):
    by = {}
    for t in json.load(open(path))["results"]:
        tests = [tr["tests"] for tr in t["trials"] if tr["solved"]]
        by.setdefault(t["strategy"], {})[t["mutant"], t["property"]] = tests
    for s in by:
        if s == base:
            continue
        tasks = [k for k in by[base] if by[base][k] and by[s].get(k)]
        logs = [math.log(statistics.mean(by[base][k]) / statistics.mean(by[s][k])) for k in tasks]
        mean = statistics.mean(logs)
        half = 1.96 * statistics.stdev(logs) / math.sqrt(len(logs))
        differ = sum(mann_whitney_p(by[base][k], by[s][k]) < 0.05 for k in tasks)
        print(
            f"{base} / {s}: {len(tasks)} tasks, tests ratio {math.exp(mean):.2f} "
            f"(95 % {math.exp(mean - half):.2f}-{math.exp(mean + half):.2f}); "
            f"different at 5 %: {differ} tasks (chance: {0.05 * len(tasks):.1f})"
        )


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
