#!/usr/bin/env python3
"""Score OCR text against ground truth on the tune and check parts separately
(issue 16), with ../shared/eval/tools/score.py's metrics (same normalisation,
CER, WER, order-free word recall/precision, micro-averaged).

usage: Benchmarks/score_split.py GT_DIR PRED_DIR [PRED_DIR…]
The part of a page is evalsplit.part_of(NAME) with NAME the file stem (NAME.gt.txt).
Generated sets are split by seed instead (tune 4242, test 1701): score them whole.
"""
import collections
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "shared", "eval", "tools"))
from evalsplit import part_of  # noqa: E402
from score import gt_files, norm, words  # noqa: E402
from rapidfuzz.distance import Levenshtein  # noqa: E402


def score(gts, pred_dir):
    ce = cn = we = wn = hit = ref = hyp = missing = 0
    for name, gpath in sorted(gts.items()):
        g = norm(open(gpath, encoding="utf-8", errors="replace").read())
        ppath = os.path.join(pred_dir, name + ".txt")
        if not os.path.exists(ppath):
            missing += 1
        p = norm(open(ppath, encoding="utf-8", errors="replace").read()) if os.path.exists(ppath) else ""
        gw, pw = words(g), words(p)
        gc, pc = collections.Counter(gw), collections.Counter(pw)
        ce += Levenshtein.distance(g, p); cn += len(g)
        we += Levenshtein.distance(gw, pw); wn += len(gw)
        hit += sum((gc & pc).values()); ref += len(gw); hyp += len(pw)
    return "pages=%d missing=%d cer=%.4f wer=%.4f recall=%.4f precision=%.4f" % (
        len(gts), missing, ce / max(1, cn), we / max(1, wn), hit / max(1, ref), hit / max(1, hyp))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    gts = gt_files(sys.argv[1])
    for pred in sys.argv[2:]:
        for part in ("tune", "check", "all"):
            sub = {k: v for k, v in gts.items() if part == "all" or part_of(k) == part}
            print("%-40s %-5s %s" % (os.path.basename(pred.rstrip("/")), part, score(sub, pred)))


if __name__ == "__main__":
    main()
