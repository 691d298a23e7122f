#!/usr/bin/env python3
"""Does small-angle skew correction help Tesseract here? (issue 3, "skew
correction for small angles if it helps")

For every image of a set with NAME.gt.txt: a grayscale copy, and a grayscale
copy turned by the angle (-5..5 degrees in 0.25 steps) that maximises the
sharpness of the horizontal ink projection profile. Both are read with the
tesseract CLI (OMP_THREAD_LIMIT=1, two at a time) and scored with
../shared/eval/tools/score.py. Prints overall CER and the CER of the images
that were turned (at least 0.25 degrees, and at least 1 degree).
Needs numpy and Pillow. Evaluation data is read, never copied into the repo.

usage: Benchmarks/deskew_eval.py [SET_DIR]   (default ../shared/eval/receipts)
"""
import glob, json, os, subprocess, sys, tempfile
import numpy as np
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCORE = os.path.join(ROOT, "..", "shared", "eval", "tools", "score.py")


def skew_angle(gray):
    w, h = gray.size
    s = min(1.0, 1000 / max(w, h))
    a = np.asarray(gray.resize((max(1, int(w * s)), max(1, int(h * s))))).astype(np.float32)
    ink = Image.fromarray(((a < a.mean() - 0.5 * a.std()) * 255).astype(np.uint8))
    best = (0.0, -1.0)
    for ang in np.arange(-5, 5.01, 0.25):
        prof = np.asarray(ink.rotate(float(ang), resample=Image.BILINEAR)).astype(np.float32).sum(axis=1)
        score = float(((prof[1:] - prof[:-1]) ** 2).sum())
        if score > best[1]:
            best = (float(ang), score)
    return best[0]


def read(images, out):
    os.makedirs(out, exist_ok=True)
    subprocess.run(["xargs", "-P", "2", "-I{}", "sh", "-c",
                    'tesseract "$1" "$2/$(basename "${1%.*}")" >/dev/null 2>&1', "_", "{}", out],
                   input="\n".join(images), text=True, env=dict(os.environ, OMP_THREAD_LIMIT="1"), check=True)


def per_page(gt_dir, out):
    res = json.loads(subprocess.check_output([sys.executable, SCORE, gt_dir, out, "--json"]))
    return res["cer"], {p["name"]: p["cer"] for p in res["per_page"]}


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "eval", "receipts")
    tmp = tempfile.mkdtemp()
    angles, plain, turned = {}, [], []
    for f in sorted(glob.glob(os.path.join(src, "*.gt.txt"))):
        name = os.path.basename(f)[:-7]
        img = next((os.path.join(src, name + e) for e in (".jpg", ".jpeg", ".png", ".tif") if os.path.exists(os.path.join(src, name + e))), None)
        if not img:
            continue
        gray = Image.open(img).convert("L")
        dpi = Image.open(img).info.get("dpi")
        ang = skew_angle(gray)
        angles[name] = ang
        for folder, im, lst in (("plain", gray, plain), ("deskewed", gray.rotate(ang, resample=Image.BICUBIC, expand=True, fillcolor=255) if abs(ang) >= 0.25 else gray, turned)):
            os.makedirs(os.path.join(tmp, folder), exist_ok=True)
            path = os.path.join(tmp, folder, name + ".png")
            im.save(path, dpi=dpi) if dpi else im.save(path)
            lst.append(path)
    read(plain, os.path.join(tmp, "plain-out"))
    read(turned, os.path.join(tmp, "deskewed-out"))
    a_all, a = per_page(src, os.path.join(tmp, "plain-out"))
    b_all, b = per_page(src, os.path.join(tmp, "deskewed-out"))
    print(f"{len(angles)} images from {src}")
    print(f"CER grayscale {a_all:.4f}  deskewed {b_all:.4f}")
    for limit in (0.25, 1.0):
        names = [n for n, g in angles.items() if abs(g) >= limit and n in a and n in b]
        if names:
            print(f"turned >= {limit} deg: {len(names)} images, mean CER grayscale {sum(a[n] for n in names) / len(names):.3f}"
                  f"  deskewed {sum(b[n] for n in names) / len(names):.3f}")


if __name__ == "__main__":
    main()
