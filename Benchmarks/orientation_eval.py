#!/usr/bin/env python3
"""Does orientation still come out right? (issue 16, round 6: the OSD copy's size cap)

Every photo of the chosen sets that is larger than --min-megapixels (the photos an OSD
size cap can change; smaller photos are read identically) is written turned clockwise
by 0, 90, 180 and 270 degrees (lossless PNG, no EXIF) into OUT/photos, then each BIN
(with its flags) scans that folder (`--quality warn`, so every photo is read, as the
round-3 calibration did). A photo comes out upright when `preprocessing.rotated`
undoes the turn: (turn + rotated) % 360 == 0. Prints, per binary and per part
(Benchmarks/evalsplit.py on the photo's stem), how many come out upright, how many
upright photos were turned wrongly, and the OSD stage's seconds.
Needs Pillow. Evaluation data is read, never copied into the repo.

usage: Benchmarks/orientation_eval.py OUT BIN ["BIN2 --flag …" …]
         [--sets receipts,menus,documents] [--min-megapixels 4] [--eval ../shared/eval]
"""
import argparse
import collections
import glob
import json
import os
import subprocess
import sys

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from evalsplit import part_of  # noqa: E402

EXT = (".jpg", ".jpeg", ".png", ".tif", ".tiff")
TURNS = {0: None, 90: Image.Transpose.ROTATE_270, 180: Image.Transpose.ROTATE_180, 270: Image.Transpose.ROTATE_90}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("bins", nargs="+")
    ap.add_argument("--sets", default="receipts,menus,documents")
    ap.add_argument("--min-megapixels", type=float, default=4.0)
    ap.add_argument("--eval", default=os.path.join(HERE, "..", "..", "shared", "eval"))
    ap.add_argument("--jobs", default="2")
    a = ap.parse_args()
    photos = os.path.join(a.out, "photos")
    os.makedirs(photos, exist_ok=True)
    names = {}
    for s in a.sets.split(","):
        for f in sorted(glob.glob(os.path.join(a.eval, s, "*"))):
            if not f.lower().endswith(EXT) or os.path.basename(f).startswith("_"):
                continue
            with Image.open(f) as im:
                if im.width * im.height < a.min_megapixels * 1e6:
                    continue
                stem = os.path.splitext(os.path.basename(f))[0]
                for turn, op in TURNS.items():
                    name = f"{stem}__t{turn}"
                    names[name] = (s, stem, turn)
                    dst = os.path.join(photos, name + ".png")
                    if not os.path.exists(dst):
                        img = im.convert("RGB") if im.mode not in ("RGB", "L") else im.copy()
                        (img.transpose(op) if op is not None else img).save(dst, compress_level=1)
    print(f"{len(names)} photos ({len(names) // 4} × 4 turns) over {a.min_megapixels} MP from {a.sets}")
    for i, b in enumerate(a.bins):
        cmd = b.split()
        res = os.path.join(a.out, f"res{i}")
        if not os.path.isdir(res):
            subprocess.run([cmd[0], "scan", photos, "--out", res, "--jobs", a.jobs, "--quiet", "--quality", "warn"] + cmd[1:],
                           check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        tally = collections.defaultdict(lambda: collections.Counter())
        for name, (s, stem, turn) in sorted(names.items()):
            p = os.path.join(res, name + ".json")
            t = tally[(s, part_of(stem))]
            t["photos"] += 1
            if not os.path.exists(p):
                t["missing"] += 1
                continue
            j = json.load(open(p))
            pre = j.get("preprocessing") or {}
            rotated = pre.get("rotated", 0)
            t["upright"] += (turn + rotated) % 360 == 0
            if turn == 0:
                t["upright photos"] += 1
                t["upright photos turned"] += rotated != 0
            t["osd runs"] += "osdRotation" in pre
            t["osd s"] += (j.get("timings") or {}).get("osd", 0)
        print(f"== {b}  ({res})")
        for (s, part), t in sorted(tally.items()):
            print(f"  {s:10s} {part:5s} upright {t['upright']}/{t['photos']}  upright photos turned {t['upright photos turned']}/{t['upright photos']}"
                  f"  osd runs {t['osd runs']}  osd {t['osd s']:.1f} s  missing {t['missing']}")


if __name__ == "__main__":
    main()
