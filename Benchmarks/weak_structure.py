#!/usr/bin/env python3
"""Pages whose structure the structurer misses, on purpose (confidence calibration, #12).

Takes generated menus (Benchmarks/gen_menus.py) and their `menuscan scan` output and
writes, per menu and per perturbation, an OCR page that reproduces a failure seen on
real menus, with the menu's exact item labels:
  across   Tesseract read straight across the columns: every pair of lines of
           different columns on the same row becomes one line ("Soup …… 5,80 Steak with");
  across50 the same on every other row;
  acrossdots, acrossdots50  the same with the gutter filled by leader dots, so no
           gap splits the merged line again (the page layout splits lines at wide gaps);
  split    the page layout fell apart: every line of 3+ words is cut into two
           blocks at a random word (a page of one- or two-line runs).
Multi-column menus only take `across*` (a one-column page has nothing to read across).
The output folder holds NAME-MODE.json (the scan shape: {"ocr": {"blocks": …}}),
NAME-MODE.items.json and a link to the photo, so that
    python3 Benchmarks/structure_eval.py --dir OUT --from-scan OUT --part all
scores it like any generated set. Deterministic (seeded by the menu name).

Usage: python3 Benchmarks/weak_structure.py GEN_DIR SCAN_DIR OUT [--modes across,acrossdots,split] [--check]
Calibrate on training / development seeds only; the test seed (9001) is refused unless
--check is given, for reporting the final figures.
"""
import argparse, copy, hashlib, json, os, random, shutil


def lines_of(blocks):
    out = []
    for bi, b in enumerate(blocks):
        for li, l in enumerate(b.get("lines") or []):
            if l.get("words"):
                out.append((bi, li, l))
    return out


def union(boxes):
    x0 = min(b[0] for b in boxes); y0 = min(b[1] for b in boxes)
    x1 = max(b[0] + b[2] for b in boxes); y1 = max(b[1] + b[3] for b in boxes)
    return [x0, y0, x1 - x0, y1 - y0]


def same_row(a, b):
    ov = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    return ov >= 0.5 * min(a[3], b[3]) and (a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0])


def across(blocks, every=1, bridge=False):
    """Lines of different blocks on one row merged into the leftmost one's block;
    with `bridge`, the gap between them is filled by a word of leader dots (what
    Tesseract reads when dot leaders run up to the gutter)."""
    blocks = copy.deepcopy(blocks)
    ls = sorted(lines_of(blocks), key=lambda t: (t[2]["box"][1], t[2]["box"][0]))
    used, rows = set(), []
    for k, (bi, li, l) in enumerate(ls):
        if (bi, li) in used:
            continue
        row = [(bi, li, l)]
        for bj, lj, m in ls[k + 1:]:
            if (bj, lj) in used or bj in {r[0] for r in row}:
                continue
            if all(same_row(r[2]["box"], m["box"]) for r in row):
                row.append((bj, lj, m))
        if len(row) > 1:
            for r in row:
                used.add((r[0], r[1]))
            rows.append(row)
    drop = set()
    for n, row in enumerate(rows):
        if n % every:
            continue
        row.sort(key=lambda r: r[2]["box"][0])
        words = []
        for r in row:
            ws = r[2]["words"]
            if bridge and words and ws:
                x0 = words[-1]["box"][0] + words[-1]["box"][2] + 4
                x1 = ws[0]["box"][0] - 4
                if x1 > x0:
                    y, h = words[-1]["box"][1], words[-1]["box"][3]
                    words.append({"box": [x0, y, x1 - x0, h], "confidence": 0.5, "text": "." * max(3, (x1 - x0) // max(4, h // 3))})
            words += ws
        keep = row[0]
        keep[2]["words"] = words
        keep[2]["box"] = union([w["box"] for w in words])
        for r in row[1:]:
            drop.add((r[0], r[1]))
    for bi, b in enumerate(blocks):
        b["lines"] = [l for li, l in enumerate(b.get("lines") or []) if (bi, li) not in drop]
        if b["lines"]:
            b["box"] = union([l["box"] for l in b["lines"]])
    return [b for b in blocks if b.get("lines")]


def split(blocks, rng):
    """Every line of 3+ words cut at a random word into two blocks of their own."""
    out = []
    for b in blocks:
        for l in b.get("lines") or []:
            ws = l.get("words") or []
            if len(ws) >= 3:
                k = rng.randint(1, len(ws) - 1)
                parts = [ws[:k], ws[k:]]
            else:
                parts = [ws]
            for p in parts:
                if p:
                    bx = union([w["box"] for w in p])
                    out.append({"box": bx, "lines": [{"box": bx, "words": p}], "region": b.get("region", 0)})
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gen"); ap.add_argument("scan"); ap.add_argument("out")
    ap.add_argument("--modes", default="across,across50,acrossdots,acrossdots50,split")
    ap.add_argument("--check", action="store_true", help="the test seed, to report figures on (never to tune)")
    a = ap.parse_args()
    if not a.check and ("9001" in os.path.basename(os.path.normpath(a.gen)) or any(f.startswith("gen-9001-") for f in os.listdir(a.gen))):
        ap.error("the test seed (9001) is never calibrated on")
    os.makedirs(a.out, exist_ok=True)
    modes = a.modes.split(",")
    n = 0
    for f in sorted(os.listdir(a.gen)):
        if not f.endswith(".items.json"):
            continue
        name = f[:-len(".items.json")]
        scan = os.path.join(a.scan, name + ".json")
        meta = os.path.join(a.gen, name + ".lines.json")
        if not os.path.exists(scan):
            continue
        blocks = (json.load(open(scan)).get("ocr") or {}).get("blocks") or []
        cols = 1
        try:
            m = json.load(open(meta))
            cols = int((m.get("layout") or {}).get("columns", 1))
        except (OSError, ValueError):
            pass
        for mode in modes:
            rng = random.Random(int(hashlib.sha1((name + mode).encode()).hexdigest(), 16))
            if mode.startswith("across"):
                if cols < 2:
                    continue
                pb = across(blocks, 2 if mode.endswith("50") else 1, bridge=mode.startswith("acrossdots"))
            elif mode == "split":
                pb = split(blocks, rng)
            else:
                ap.error(f"unknown mode {mode}")
            stem = f"{name}-{mode}"
            json.dump({"ocr": {"blocks": pb}}, open(os.path.join(a.out, stem + ".json"), "w"))
            shutil.copy(os.path.join(a.gen, f), os.path.join(a.out, stem + ".items.json"))
            link = os.path.join(a.out, stem + ".jpg")
            if not os.path.exists(link):
                os.symlink(os.path.abspath(os.path.join(a.gen, name + ".jpg")), link)
            n += 1
    print(f"{n} pages written to {a.out}")


if __name__ == "__main__":
    main()
