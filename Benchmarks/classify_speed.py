#!/usr/bin/env python3
"""Classification speed: `menuscan classify` on one photo's text, in milliseconds.

For every menu in ../shared/eval/menus with a hand transcription (NAME.gt.txt, the
text of one photo), runs `menuscan classify FILE --allergens <all 14> --repeat-count N`
(the lexicon is loaded once; the analysis runs N times) and reads the mean time a run
from standard error. Prints a per-menu table and the mean and maximum over menus.
Measure with the release build: `swift build -c release --product menuscan`.

Optionally (--callgrind) runs each menu once under `valgrind --tool=callgrind` and
reports instruction counts (stable on a noisy machine; lexicon load included, so
also run an empty text to subtract it).

Usage: python3 Benchmarks/classify_speed.py [--bin .build/release/menuscan] [--eval ../shared/eval] [--repeat 20]
"""
import argparse, os, re, subprocess, sys

IDS = "gluten,crustaceans,eggs,fish,peanuts,soybeans,milk,tree_nuts,celery,mustard,sesame,sulphites,lupin,molluscs"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(here, "..", ".build", "release", "menuscan"))
    ap.add_argument("--eval", default=os.path.join(here, "..", "..", "shared", "eval"))
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--callgrind", action="store_true")
    a = ap.parse_args()
    mdir = os.path.join(a.eval, "menus")
    if not os.path.isdir(mdir):
        print("evaluation data not found: skipped"); return
    rows = []
    for f in sorted(os.listdir(mdir)):
        if not f.endswith(".gt.txt"):
            continue
        path = os.path.join(mdir, f)
        r = subprocess.run([a.bin, "classify", path, "--allergens", IDS, "--repeat-count", str(a.repeat)],
                           capture_output=True, text=True, check=True)
        m = re.search(r"([\d.]+) ms a run, ([\d.]+) ms CPU a run", r.stderr)
        ms, cpu = float(m.group(1)), float(m.group(2))
        ir = None
        if a.callgrind:
            out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", a.bin, "classify", path,
                                  "--allergens", IDS], capture_output=True, text=True).stderr
            m2 = re.search(r"Collected : (\d+)", out)
            ir = int(m2.group(1)) if m2 else None
        lines = sum(1 for l in open(path) if l.strip())
        rows.append((f[:-len(".gt.txt")], lines, ms, cpu, ir))
    print("| menu | text lines | ms a run (wall) | ms CPU a run | instructions (whole process) |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, lines, ms, cpu, ir in rows:
        print(f"| {name[:48]} | {lines} | {ms:.2f} | {cpu:.2f} | {ir if ir is not None else '-'} |")
    ms = [r[2] for r in rows]; cpu = [r[3] for r in rows]
    print(f"\nwall: mean {sum(ms) / len(ms):.2f} ms, max {max(ms):.2f} ms; CPU: mean {sum(cpu) / len(cpu):.2f} ms, "
          f"max {max(cpu):.2f} ms over {len(rows)} menus ({a.repeat} runs each)")


if __name__ == "__main__":
    main()
