#!/usr/bin/env python3
"""Per-page CER of `menuscan scan` against the plain tesseract CLI.

For each set (menus with a hand transcription, documents, receipts in
../shared/eval) runs the tesseract CLI once per image (OMP_THREAD_LIMIT=1,
cached in OUT/SET-cli) and `menuscan scan` (default pipeline, quality gate
warn; extra scan flags with --flags, e.g. "--no-reading-order"), then scores
every page with the CER of ../shared/eval/tools/score.py (NFKC, whitespace
collapsed, Levenshtein / reference length) and lists the pages where MenuScan
is more than --margin (0.02) worse than the CLI.

Pages: the check part (sha1 split as in structure_eval.py) unless --part all|tune.

Usage: python3 Benchmarks/reading_order_eval.py [--out /tmp/menuscan-ro] [--tag default] [--part check]
       [--flags "--no-reading-order"] [--sets menus,documents,receipts] [--bin …]
"""
import argparse, os, subprocess, sys, unicodedata
from rapidfuzz.distance import Levenshtein

IMG = (".png", ".jpg", ".jpeg", ".tif", ".tiff")


def norm(s):
    return " ".join(unicodedata.normalize("NFKC", s).split())


def cer(gt, pred):
    g, p = norm(gt), norm(pred)
    return Levenshtein.distance(g, p) / max(1, len(g))


from evalsplit import part_of  # noqa: E402


def pages(d, part="all"):
    files = os.listdir(d)
    out = {}
    for f in sorted(files):
        stem, ext = os.path.splitext(f)
        if ext.lower() in IMG and stem + ".gt.txt" in files and (part == "all" or part_of(stem) == part):
            out[stem] = (os.path.join(d, f), os.path.join(d, stem + ".gt.txt"))
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(here, "..", ".build", "debug", "menuscan"))
    ap.add_argument("--eval", default=os.path.join(here, "..", "..", "shared", "eval"))
    ap.add_argument("--out", default="/tmp/menuscan-ro")
    ap.add_argument("--tag", default="default")
    ap.add_argument("--flags", default="")
    ap.add_argument("--sets", default="menus,documents,receipts")
    ap.add_argument("--margin", type=float, default=0.02)
    ap.add_argument("--jobs", default="2")
    ap.add_argument("--part", choices=["check", "tune", "all"], default="check")
    a = ap.parse_args()
    worst_all = []
    print("| set | pages | CLI mean CER | menuscan mean CER | pages worse than CLI by > %.2f | max (menuscan - CLI) |" % a.margin)
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    rows = []
    for s in a.sets.split(","):
        d = os.path.join(a.eval, s)
        ps = pages(d, a.part)
        if not ps:
            continue
        cli = os.path.join(a.out, s + "-cli")
        os.makedirs(cli, exist_ok=True)
        for name, (img, _) in ps.items():
            if not os.path.exists(os.path.join(cli, name + ".txt")):
                subprocess.run(["tesseract", img, os.path.join(cli, name)], capture_output=True,
                               env=dict(os.environ, OMP_THREAD_LIMIT="1"))
        ms = os.path.join(a.out, f"{s}-{a.tag}")
        # only the images with a transcription (menus/ holds photos without one too)
        inp = os.path.join(a.out, s + "-input-" + a.part)
        os.makedirs(inp, exist_ok=True)
        for name, (img, _) in ps.items():
            link = os.path.join(inp, os.path.basename(img))
            if not os.path.exists(link):
                os.symlink(os.path.realpath(img), link)
        subprocess.run([a.bin, "scan", inp, "--out", ms, "--quality", "warn", "--quiet", "--jobs", a.jobs] + a.flags.split(),
                       capture_output=True)
        c_tot = m_tot = 0.0
        worse = []
        for name, (img, gt) in ps.items():
            g = open(gt, encoding="utf-8").read()
            c = cer(g, open(os.path.join(cli, name + ".txt"), encoding="utf-8", errors="replace").read()) if os.path.exists(os.path.join(cli, name + ".txt")) else 1.0
            mp = os.path.join(ms, name + ".txt")
            m = cer(g, open(mp, encoding="utf-8", errors="replace").read()) if os.path.exists(mp) else 1.0
            c_tot += c; m_tot += m
            rows.append((s, name, c, m))
            if m - c > a.margin:
                worse.append((name, c, m))
        n = len(ps)
        mx = max(r[3] - r[2] for r in rows if r[0] == s)
        print(f"| {s} | {n} | {c_tot / n:.3f} | {m_tot / n:.3f} | {len(worse)} | {mx:+.3f} |")
        worst_all += [(s,) + w for w in worse]
    print("\nPer page (CER, CLI vs menuscan):\n")
    print("| set | page | CLI | menuscan | diff |")
    print("| --- | --- | ---: | ---: | ---: |")
    for s, name, c, m in rows:
        flag = " **worse**" if m - c > a.margin else ""
        print(f"| {s} | {name[-45:]} | {c:.3f} | {m:.3f} | {m - c:+.3f}{flag} |")


if __name__ == "__main__":
    sys.exit(main())
