#!/usr/bin/env python3
"""Per-stage seconds of a `menuscan scan` output folder (issue 16): the mean
over photos of every stage in each photo's JSON `timings` (a stage a photo
skipped counts 0), the share of the total, and how many photos ran it.

usage: Benchmarks/stage_times.py OUT_DIR [OUT_DIR2]   (two: before/after side by side)
"""
import glob
import json
import os
import sys


def load(out):
    rows = []
    for f in sorted(glob.glob(os.path.join(out, "**", "*.json"), recursive=True)):
        if os.path.basename(f).startswith("summary") or "/.menuscan/" in f:
            continue
        try:
            d = json.load(open(f))
        except (OSError, ValueError):
            continue
        if isinstance(d, dict) and isinstance(d.get("timings"), dict):
            rows.append(d["timings"])
    return rows


def summary(rows):
    stages = sorted({k for r in rows for k in r}, key=lambda k: (k == "total", k))
    n = max(1, len(rows))
    return {k: (sum(r.get(k, 0) for r in rows) / n, sum(1 for r in rows if k in r)) for k in stages}, len(rows)


def main():
    outs = sys.argv[1:]
    if not outs:
        sys.exit(__doc__)
    sums = [summary(load(o)) for o in outs]
    stages = sorted({k for s, _ in sums for k in s}, key=lambda k: (k == "total", -max(s.get(k, (0, 0))[0] for s, _ in sums)))
    head = "| stage | " + " | ".join("%s s/photo (ran on)" % os.path.basename(o.rstrip("/")) for o in outs) + " |"
    print(head)
    print("|---" * (len(outs) + 1) + "|")
    for k in stages:
        cells = []
        for s, n in sums:
            mean, ran = s.get(k, (0, 0))
            cells.append("%.4f (%d/%d)" % (mean, ran, n))
        print("| %s | %s |" % (k, " | ".join(cells)))


if __name__ == "__main__":
    main()
