#!/usr/bin/env python3
"""Issue 6 figures: status shares (ok / partial / failed / …) on the eval menus
and receipts, and box agreement with the documents' ground truth.

Box agreement = share of ground-truth words (ocrx_word in NAME.gt.hocr) whose
box overlaps some recognised word box of MenuScan's NAME.json with IoU >= 0.5.
"Recognised" = OCR words with confidence >= 0.3 (the hotspot floor); the
figure for every OCR word is printed too. Standard library only.

    python3 Benchmarks/hotspot_eval.py [--bin .build/release/menuscan] [--eval ../shared/eval] [--out /tmp/hotspot-eval]
"""
import argparse, glob, json, os, re, subprocess, sys
from html.parser import HTMLParser
from collections import Counter

BBOX = re.compile(r"bbox (\d+) (\d+) (\d+) (\d+)")


class HocrWords(HTMLParser):
    def __init__(self):
        super().__init__()
        self.page = None
        self.words = []  # (x0, y0, x1, y1)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls, title = a.get("class") or "", a.get("title") or ""
        m = BBOX.search(title)
        if not m:
            return
        box = tuple(int(v) for v in m.groups())
        if "ocr_page" in cls.split():
            self.page = box
        elif "ocrx_word" in cls.split():
            self.words.append(box)


def iou(a, b):
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def scan(binary, folder, out, jobs):
    subprocess.run([binary, "scan", folder, "--out", out, "--jobs", str(jobs), "--quiet"], check=False)
    return json.load(open(os.path.join(out, "summary.json")))


def shares(summary):
    counts = summary["counts"]
    n = sum(counts.values())
    return n, {k: (v, v / n if n else 0) for k, v in sorted(counts.items())}


def ocr_words(result, floor):
    words = []
    for block in (result.get("ocr") or {}).get("blocks", []):
        for line in block["lines"]:
            for w in line["words"]:
                if floor is None or (w.get("confidence") or 0) >= floor:
                    x, y, ww, hh = w["box"]
                    words.append((x, y, x + ww, y + hh))
    return words


def agreement(eval_dir, out):
    totals = {"floor": [0, 0], "all": [0, 0]}
    for hocr in sorted(glob.glob(os.path.join(eval_dir, "documents", "*.gt.hocr"))):
        stem = os.path.basename(hocr)[: -len(".gt.hocr")]
        path = os.path.join(out, stem + ".json")
        if not os.path.exists(path):
            continue
        result = json.load(open(path))
        p = HocrWords()
        p.feed(open(hocr, encoding="utf-8").read())
        sx = sy = 1.0
        src = result.get("source") or {}
        if p.page and src.get("width") and p.page[2] and p.page[3]:
            sx, sy = src["width"] / p.page[2], src["height"] / p.page[3]
        gt = [(a * sx, b * sy, c * sx, d * sy) for a, b, c, d in p.words]
        for key, floor in (("floor", 0.3), ("all", None)):
            mine = ocr_words(result, floor)
            matched = sum(1 for g in gt if any(iou(g, m) >= 0.5 for m in mine))
            totals[key][0] += matched
            totals[key][1] += len(gt)
    return totals


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=".build/release/menuscan")
    ap.add_argument("--eval", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "eval"))
    ap.add_argument("--out", default="/tmp/hotspot-eval")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    args = ap.parse_args()
    report = {}
    for name in ("menus", "receipts", "documents"):
        out = os.path.join(args.out, name)
        summary = scan(args.bin, os.path.join(args.eval, name), out, args.jobs)
        n, s = shares(summary)
        report[name] = {"photos": n, "status": {k: {"count": c, "share": round(f, 3)} for k, (c, f) in s.items()}}
        print(f"{name}: {n} photos  " + "  ".join(f"{k} {c} ({f:.1%})" for k, (c, f) in s.items()))
    t = agreement(args.eval, os.path.join(args.out, "documents"))
    for key, label in (("floor", "words with confidence >= 0.3"), ("all", "all OCR words")):
        m, n = t[key]
        report.setdefault("boxAgreement", {})[key] = {"matched": m, "gtWords": n, "share": round(m / n, 4) if n else None}
        print(f"documents: box agreement IoU>=0.5 ({label}): {m}/{n} = {m / n:.1%}" if n else "documents: no ground truth found")
    json.dump(report, open(os.path.join(args.out, "hotspot-eval.json"), "w"), indent=2)


if __name__ == "__main__":
    sys.exit(main())
