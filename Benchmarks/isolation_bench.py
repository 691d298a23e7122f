#!/usr/bin/env python3
"""Throughput and memory of `menuscan scan` with worker processes (default)
against the in-process threads (--in-process), alternating runs.

    python3 Benchmarks/isolation_bench.py [--runs 3] [--jobs 2] [--repeat 1] [INPUT]

INPUT defaults to ../shared/eval/receipts (evaluation data: only read). With
--repeat N the photos are linked N times into a temporary folder (for memory
at large counts; content is the same, so the second and later copies still
run the full pipeline: every output name differs and nothing is resumed).
Each run writes a fresh output folder under /tmp. Reports wall seconds,
user+sys CPU seconds of the supervisor and its reaped workers (os.wait4), and
summary.json's peakRSSBytes (isolated: supervisor + workers sampled after each
photo; in-process: the process's VmHWM).
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
ap = argparse.ArgumentParser()
ap.add_argument("input", nargs="?", default=os.path.join(root, "..", "shared", "eval", "receipts"))
ap.add_argument("--runs", type=int, default=3)
ap.add_argument("--jobs", type=int, default=2)
ap.add_argument("--repeat", type=int, default=1)
ap.add_argument("--modes", default="isolated,in-process")
ap.add_argument("--binary", default=os.path.join(root, ".build", "release", "menuscan"))
args = ap.parse_args()

photos = sorted(f for f in os.listdir(args.input) if f.lower().endswith((".jpg", ".jpeg", ".png")))
work = tempfile.mkdtemp(prefix="menuscan-isolation-")
src = os.path.join(work, "in")
os.makedirs(src)
for r in range(args.repeat):
    for p in photos:
        os.symlink(os.path.abspath(os.path.join(args.input, p)), os.path.join(src, f"r{r:05d}-{p}"))
count = len(photos) * args.repeat

results = {m: [] for m in args.modes.split(",")}
for run in range(args.runs):
    for mode in results:
        out = os.path.join(work, f"out-{mode}-{run}")
        cmd = [args.binary, "scan", src, "--out", out, "--jobs", str(args.jobs), "--quiet"]
        if mode == "in-process":
            cmd.append("--in-process")
        start = time.monotonic()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - start
        with open(os.path.join(out, "summary.json")) as f:
            summary = json.load(f)
        row = {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "peak_rss_mb": (summary.get("peakRSSBytes") or 0) / 2**20,
               "processed": summary.get("processed"), "counts": summary.get("counts"), "exit": os.waitstatus_to_exitcode(status)}
        results[mode].append(row)
        print(f"run {run} {mode}: wall {wall:.1f} s, cpu {row['cpu']:.1f} s, peak RSS {row['peak_rss_mb']:.0f} MB, "
              f"{row['processed']}/{count} {row['counts']}", flush=True)
        shutil.rmtree(out)

print(f"\n{count} photos, --jobs {args.jobs}, median of {args.runs}:")
for mode, rows in results.items():
    print(f"  {mode:10s} wall {statistics.median(r['wall'] for r in rows):7.1f} s   "
          f"cpu {statistics.median(r['cpu'] for r in rows):7.1f} s   "
          f"photos/s {count / statistics.median(r['wall'] for r in rows):5.2f}   "
          f"peak RSS {max(r['peak_rss_mb'] for r in rows):5.0f} MB")
shutil.rmtree(work)
