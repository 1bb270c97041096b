#!/usr/bin/env python3
"""Which configurations solve which tasks in every trial, and which in some.

    python3 eval/scripts/pool_consistency.py RESULTS.json [MORE.json …]

For saved `etna --json` results run with `--all-trials` (so that an
unsolved trial does not end a (strategy, task)): per strategy, the tasks
solved in every planned trial ("consistently") and in at least one, then
the union of each over the strategies of every input kind (the part of the
name before `-fuzz-`). docs/etna.md, "The 21 seed-pool configurations".
"""

import json
import sys


def main(paths):
    by = {}
    for path in paths:
        for t in json.load(open(path))["results"]:
            by.setdefault(t["strategy"], []).append(t)
    union = {}
    for s, results in by.items():
        every = {t["mutant"] for t in results
                 if len(t["trials"]) >= t["trials_planned"] and all(tr["solved"] for tr in t["trials"])}
        some = {t["mutant"] for t in results if any(tr["solved"] for tr in t["trials"])}
        solved = sum(tr["solved"] for t in results for tr in t["trials"])
        trials = sum(len(t["trials"]) for t in results)
        print(f"{s}: every trial {len(every)}, some trial {len(some)} "
              f"(of {len(results)} tasks; {solved} of {trials} trials) "
              f"consistently: {','.join(sorted(every))}")
        kind = s.split("-fuzz-")[0]
        u = union.setdefault(kind, [set(), set()])
        u[0] |= every
        u[1] |= some
    for kind, (every, some) in union.items():
        print(f"union of {kind}: every trial {len(every)}, some trial {len(some)}")


if __name__ == "__main__":
    main(sys.argv[1:])
