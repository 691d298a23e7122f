#!/usr/bin/env python3
"""Which photos should rescaling enlarge? (issue 16, round 4)

From two runs of the same binary on one set — the default pipeline and the same
with --no-rescale — simulate every threshold T of "enlarge small text only when
its measured height is under T px": a photo the default run enlarged (scale > 1)
with text at least T px tall takes the --no-rescale run's text instead (photos are
processed independently, so this is what a run with that threshold produces,
except for run-to-run noise, which a pipeline run does not have). Prints, per T
and per part (evalsplit: tune / check), score.py's metrics, how many photos are
enlarged and the OCR copy's pixels relative to no rescaling (OCR work grows with
the pixels read). Choose T on the tune part; report the check part.

usage: Benchmarks/rescale_threshold.py GT_DIR DEFAULT_OUT NORESCALE_OUT [T …]
"""
import collections
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "shared", "eval", "tools"))
from evalsplit import part_of  # noqa: E402
from score import gt_files, norm, words  # noqa: E402
from rapidfuzz.distance import Levenshtein  # noqa: E402


def load(out, name):
    text = open(os.path.join(out, name + ".txt"), encoding="utf-8", errors="replace").read() \
        if os.path.exists(os.path.join(out, name + ".txt")) else ""
    try:
        d = json.load(open(os.path.join(out, name + ".json")))
    except (OSError, ValueError):
        d = {}
    pre = d.get("preprocessing") or {}
    src = d.get("source") or {}
    return text, pre.get("scale", 1), pre.get("textHeight"), (src.get("width") or 0) * (src.get("height") or 0)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    gt_dir, default, plain = sys.argv[1:4]
    thresholds = [float(t) for t in sys.argv[4:]] or [16, 15, 14, 13, 12, 11, 10, 9, 8]
    gts = gt_files(gt_dir)
    pages = {n: (open(p, encoding="utf-8", errors="replace").read(), load(default, n), load(plain, n)) for n, p in gts.items()}
    print("| T (px) | part | pages | enlarged | OCR pixels vs none | CER | WER | word recall | word precision |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for t in thresholds:
        for part in ("tune", "check"):
            ce = cn = we = wn = hit = ref = hyp = enlarged = 0
            px = px0 = 0.0
            n = 0
            for name, (gt, d, p) in sorted(pages.items()):
                if part_of(name) != part:
                    continue
                n += 1
                text, scale, height, pixels = d
                keep = not (scale > 1 and height is not None and height >= t)
                if not keep:
                    text, scale = p[0], 1
                enlarged += scale > 1
                px += pixels * scale * scale
                px0 += pixels * (scale * scale if scale < 1 else 1)
                g, h = norm(gt), norm(text)
                gw, hw = words(g), words(h)
                ce += Levenshtein.distance(g, h); cn += len(g)
                we += Levenshtein.distance(gw, hw); wn += len(gw)
                hit += sum((collections.Counter(gw) & collections.Counter(hw)).values()); ref += len(gw); hyp += len(hw)
            print("| %g | %s | %d | %d | %.3f | %.4f | %.4f | %.4f | %.4f |" % (
                t, part, n, enlarged, px / max(1, px0), ce / max(1, cn), we / max(1, wn), hit / max(1, ref), hit / max(1, hyp)))


if __name__ == "__main__":
    main()
