#!/usr/bin/env python3
"""Peak resident memory of `menuscan scan` (supervisor + worker processes) at
growing folder sizes, measured two ways:

- tree: this script sums VmRSS of the supervisor and every descendant
  (/proc, every 0.2 s) and keeps the peak of the sum, and of the supervisor alone;
- summary: summary.json's peakRSSBytes (the run's own sample after each photo).

    python3 Benchmarks/isolation_rss.py [--counts 100,10000] [--jobs 2] [-- EXTRA SCAN ARGS]

Photos are small generated ones (Benchmarks/gen_photos.py: 360x110 px, two
lines of dish names and prices) in /tmp/menuscan-rss-N, made once and reused;
never in the repo. Run it nice'd on a shared machine (memory does not depend
on load; wall time does, so photos/s here is only indicative).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
ap = argparse.ArgumentParser()
ap.add_argument("--counts", default="100,10000")
ap.add_argument("--jobs", type=int, default=2)
ap.add_argument("--binary", default=os.path.join(root, ".build", "release", "menuscan"))
ap.add_argument("extra", nargs="*", help="more scan arguments (after --)")
args = ap.parse_args()


def rss_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def descendants(pid):
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    out, stack = [], [pid]
    while stack:
        p = stack.pop()
        for c in children.get(p, []):
            out.append(c)
            stack.append(c)
    return out


rows = []
for n in (int(c) for c in args.counts.split(",")):
    photos = f"/tmp/menuscan-rss-{n}"
    if not os.path.isdir(photos):
        subprocess.run([sys.executable, os.path.join(here, "gen_photos.py"), photos, str(n)], check=True,
                       stdout=subprocess.DEVNULL)
    out = tempfile.mkdtemp(prefix="menuscan-rss-out-")
    cmd = [args.binary, "scan", photos, "--out", out, "--jobs", str(args.jobs), "--quiet"] + args.extra
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak_tree = peak_sup = 0
    workers_seen = set()
    while proc.poll() is None:
        # The CLI re-executes itself once (OMP_THREAD_LIMIT): the supervisor is proc.pid's image after exec.
        kids = descendants(proc.pid)
        workers_seen.update(kids)
        sup = rss_kb(proc.pid)
        peak_sup = max(peak_sup, sup)
        peak_tree = max(peak_tree, sup + sum(rss_kb(k) for k in kids))
        time.sleep(0.2)
    wall = time.monotonic() - start
    with open(os.path.join(out, "summary.json")) as f:
        s = json.load(f)
    row = dict(photos=n, exit=proc.returncode, wall=wall, counts=s["counts"], workers=len(workers_seen),
               tree_mb=peak_tree / 1024, supervisor_mb=peak_sup / 1024, summary_mb=(s.get("peakRSSBytes") or 0) / 2**20)
    rows.append(row)
    print(f"{n} photos: exit {row['exit']}, {wall:.0f} s wall, {row['counts']}, {row['workers']} worker processes; "
          f"peak RSS supervisor+workers {row['tree_mb']:.0f} MB (sampled), supervisor {row['supervisor_mb']:.0f} MB, "
          f"summary.json {row['summary_mb']:.0f} MB", flush=True)
    shutil.rmtree(out)

if len(rows) > 1:
    a, b = rows[0], rows[-1]
    print(f"\n{a['photos']} -> {b['photos']} photos: supervisor+workers {a['tree_mb']:.0f} -> {b['tree_mb']:.0f} MB "
          f"({100 * (b['tree_mb'] / a['tree_mb'] - 1):+.1f} %), supervisor {a['supervisor_mb']:.0f} -> {b['supervisor_mb']:.0f} MB "
          f"({100 * (b['supervisor_mb'] / a['supervisor_mb'] - 1):+.1f} %), summary {a['summary_mb']:.0f} -> {b['summary_mb']:.0f} MB "
          f"({100 * (b['summary_mb'] / a['summary_mb'] - 1):+.1f} %)")
