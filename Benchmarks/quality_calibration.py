#!/usr/bin/env python3
"""Calibrates and checks the quality gate's thresholds.

Generates degraded variants of clean images (Gaussian and motion blur,
darkening, overexposure, low contrast, downscaling, glare) into a temporary
folder, runs `menuscan check --json` on them and on the real sets in
../shared/eval, and prints the detection rate per defect class and strength
and the false-reject rate per real set. Needs Pillow (pip install pillow).

usage: Benchmarks/quality_calibration.py [--keep DIR] [-- extra menuscan check options]
"""
import glob, json, os, random, subprocess, sys, tempfile
from PIL import Image, ImageDraw, ImageFilter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EVAL = os.path.join(ROOT, "..", "shared", "eval")
BIN = os.path.join(ROOT, ".build", "release", "menuscan")

# Clean sources: the samples, every 5th receipt, the Tesseract and scribe documents, the menus with ground truth.
def sources():
    out = [os.path.join(ROOT, "samples", f) for f in ("menu-clean.png", "menu-photo.jpg")]
    out += sorted(glob.glob(os.path.join(EVAL, "receipts", "*.jpg")))[::5]
    out += sorted(glob.glob(os.path.join(EVAL, "documents", "*.png")))[::3]
    out += [p.replace(".gt.txt", ".jpg") for p in sorted(glob.glob(os.path.join(EVAL, "menus", "*.gt.txt")))]
    return [p for p in out if os.path.exists(p)]

def motion(im, length):
    # Horizontal motion blur: average of shifted copies.
    acc = Image.new("L", im.size, 0)
    for i in range(length):
        acc = Image.blend(acc, im.transform(im.size, Image.AFFINE, (1, 0, i - length // 2, 0, 1, 0), fillcolor=255), 1 / (i + 1))
    return acc

def glare(im, share, seed):
    rnd = random.Random(seed)
    w, h = im.size
    out = im.copy()
    d = ImageDraw.Draw(out)
    # An ellipse covering about `share` of the photo, fully blown out, with a soft rim.
    rx, ry = (share * w * h / 3.1416) ** 0.5 * 1.2, (share * w * h / 3.1416) ** 0.5 / 1.2
    cx, cy = rnd.uniform(rx, w - rx) if w > 2 * rx else w / 2, rnd.uniform(ry, h - ry) if h > 2 * ry else h / 2
    d.ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=255)
    return Image.composite(out, im, Image.new("L", im.size, 255)).filter(ImageFilter.GaussianBlur(1))

VARIANTS = {
    "blurry": [("gauss3", lambda im: im.filter(ImageFilter.GaussianBlur(3))),
               ("gauss5", lambda im: im.filter(ImageFilter.GaussianBlur(5))),
               ("motion15", lambda im: motion(im, 15)), ("motion25", lambda im: motion(im, 25))],
    "too_dark": [("x0.25", lambda im: im.point(lambda v: int(v * 0.25))),
                 ("x0.15", lambda im: im.point(lambda v: int(v * 0.15)))],
    "overexposed": [("wash0.3", lambda im: im.point(lambda v: int(255 - (255 - v) * 0.3))),
                    ("wash0.2", lambda im: im.point(lambda v: int(255 - (255 - v) * 0.2)))],
    "low_contrast": [("c0.2", lambda im: im.point(lambda v: int(128 + (v - 128) * 0.2))),
                     ("c0.12", lambda im: im.point(lambda v: int(128 + (v - 128) * 0.12)))],
    "low_resolution": [("s0.25", lambda im: im.resize((max(1, im.width // 4), max(1, im.height // 4)), Image.LANCZOS)),
                       ("s0.15", lambda im: im.resize((max(1, int(im.width * 0.15)), max(1, int(im.height * 0.15))), Image.LANCZOS))],
    "glare": [("g0.2", lambda im: glare(im.point(lambda v: int(v * 0.75)), 0.2, 1)),
              ("g0.35", lambda im: glare(im.point(lambda v: int(v * 0.75)), 0.35, 2))],
}

def check(paths, extra):
    out = subprocess.run([BIN, "check", "--json", *extra, *paths], capture_output=True, text=True)
    rows = [json.loads(l) for l in out.stdout.splitlines() if l.startswith("{")]
    return {r["path"]: r for r in rows}

def main():
    args = sys.argv[1:]
    extra = args[args.index("--") + 1:] if "--" in args else []
    keep = args[args.index("--keep") + 1] if "--keep" in args else None
    work = keep or tempfile.mkdtemp(prefix="menuscan-quality-")
    os.makedirs(work, exist_ok=True)
    srcs = sources()
    made = {}
    for i, src in enumerate(srcs):
        im = Image.open(src).convert("L")
        for kind, variants in VARIANTS.items():
            for name, fn in variants:
                path = os.path.join(work, f"{i:03d}-{kind}-{name}.png")
                if not os.path.exists(path):
                    fn(im).save(path)
                made[path] = (kind, name)
    res = check(sorted(made), extra)
    print(f"generated set: {len(srcs)} clean sources x {sum(len(v) for v in VARIANTS.values())} degradations = {len(made)} images")
    print(f"{'class':<15} {'variant':<9} {'flagged':>8} {'as class':>9}")
    for kind, variants in VARIANTS.items():
        for name, _ in variants:
            paths = [p for p, kn in made.items() if kn == (kind, name)]
            flagged = sum(1 for p in paths if res.get(p, {}).get("report") and res[p]["report"]["verdict"] == "rejected" or res.get(p, {}).get("error"))
            as_kind = sum(1 for p in paths if res.get(p, {}).get("report") and any(d["kind"] == kind for d in res[p]["report"]["defects"]))
            print(f"{kind:<15} {name:<9} {flagged / len(paths):>7.0%} {as_kind / len(paths):>8.0%}   (n={len(paths)})")
    clean = check(srcs, extra)
    bad = [p for p, r in clean.items() if not r.get("report") or r["report"]["verdict"] != "ok"]
    print(f"clean sources rejected: {len(bad)}/{len(srcs)} {[os.path.basename(p) for p in bad]}")
    print()
    negatives = ("Food1", "sides", "wingslg", "CAFE-COCONUT", "test-menus__menu")
    sets = {
        "receipts": sorted(glob.glob(os.path.join(EVAL, "receipts", "*.jpg"))),
        "documents": sorted(p for p in glob.glob(os.path.join(EVAL, "documents", "*")) if p.lower().endswith((".png", ".jpg", ".tif"))),
        "menus (clean, real)": sorted(p for p in glob.glob(os.path.join(EVAL, "menus", "*")) if p.lower().endswith((".png", ".jpg"))
                                      and not any(n in p for n in negatives) and "_contact_sheet" not in p),
    }
    for name, paths in sets.items():
        r = check(paths, extra)
        rej = [(os.path.basename(p), [d["kind"] for d in r[p]["report"]["defects"]]) for p in paths
               if p in r and r[p].get("report") and r[p]["report"]["verdict"] != "ok"]
        print(f"false-reject {name}: {len(rej)}/{len(paths)} = {len(rej) / max(1, len(paths)):.1%} {rej}")
    neg = sorted(p for p in glob.glob(os.path.join(EVAL, "menus", "*")) if any(n in p for n in negatives))
    r = check(neg, extra)
    print("negatives (no menu text):", [(os.path.basename(p), r[p]["report"]["verdict"] if r.get(p, {}).get("report") else "error") for p in neg])

if __name__ == "__main__":
    main()
