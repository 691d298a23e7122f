#!/usr/bin/env python3
"""Classification speed: `menuscan classify` on one photo's text, in milliseconds.

For every menu in ../shared/eval/menus with a hand transcription (NAME.gt.txt, the
text of one photo), runs `menuscan classify FILE --allergens <all 14> --repeat-count N`
(the lexicon is loaded once; the analysis runs N times) and reads the mean time a run
from standard error. Prints a per-menu table and the mean and maximum over menus.
Measure with the release build: `swift build -c release --product menuscan`.

Optionally (--callgrind) counts instructions a run under `valgrind --tool=callgrind`
(stable on a noisy, shared machine): the whole process at --repeat-count 1 and 6,
the difference / 5 = one analysis, lexicon load excluded. Valgrind cannot read
Swift's DWARF, so it runs a copy stripped of debug info (`strip -g`), with
OMP_THREAD_LIMIT=1 set (else the tool re-executes itself, which valgrind refuses), and
SWIFT_DETERMINISTIC_HASHING=1 (with a random hash seed per process, dictionary order, and
with it the order candidates are tried in, moved counts by a few per cent from run to run).

Usage: python3 Benchmarks/classify_speed.py [--bin .build/release/menuscan] [--eval ../shared/eval] [--repeat 20]
"""
import argparse, os, re, subprocess, sys, tempfile

IDS = "gluten,crustaceans,eggs,fish,peanuts,soybeans,milk,tree_nuts,celery,mustard,sesame,sulphites,lupin,molluscs"


def per_run_instructions(binary, path):
    env = dict(os.environ, OMP_THREAD_LIMIT="1", SWIFT_DETERMINISTIC_HASHING="1")

    def collected(repeat):
        out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", binary, "classify", path,
                              "--allergens", IDS, "--repeat-count", str(repeat)], capture_output=True, text=True, env=env).stderr
        m = re.search(r"Collected : (\d+)", out)
        return int(m.group(1)) if m else None

    one, six = collected(1), collected(6)
    return (six - one) // 5 if one and six else None


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
    stripped = None
    if a.callgrind:
        stripped = os.path.join(tempfile.mkdtemp(), "menuscan")
        subprocess.run(["strip", "-g", "-o", stripped, a.bin], check=True)
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
            ir = per_run_instructions(stripped, path)
        lines = sum(1 for l in open(path) if l.strip())
        rows.append((f[:-len(".gt.txt")], lines, ms, cpu, ir))
    print("| menu | text lines | ms a run (wall) | ms CPU a run | instructions a run |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, lines, ms, cpu, ir in rows:
        print(f"| {name[:48]} | {lines} | {ms:.2f} | {cpu:.2f} | {ir if ir is not None else '-'} |")
    ms = [r[2] for r in rows]; cpu = [r[3] for r in rows]
    print(f"\nwall: mean {sum(ms) / len(ms):.2f} ms, max {max(ms):.2f} ms; CPU: mean {sum(cpu) / len(cpu):.2f} ms, "
          f"max {max(cpu):.2f} ms over {len(rows)} menus ({a.repeat} runs each)")
    irs = [r[4] for r in rows if r[4]]
    if irs:
        print(f"instructions a run (callgrind): mean {sum(irs) / len(irs) / 1e6:.1f} M, max {max(irs) / 1e6:.1f} M")


if __name__ == "__main__":
    main()
