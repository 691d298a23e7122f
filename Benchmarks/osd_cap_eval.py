#!/usr/bin/env python3
"""Does OSD still find the orientation on a smaller copy? (issue 16, round 6: the cap on
the OSD copy's size, PreprocessSettings.osdMaxMegapixels)

For every photo of the chosen sets whose OSD copy (text scaled to 28 px, never enlarged,
at most 4× smaller: PhotoProcessor.orient) holds more than the smallest cap tried, this
makes the OSD copy of the photo turned clockwise by 0, 90, 180 and 270 degrees, once per
cap (0 = none), with Pillow's area resampling (leptonica's pixScaleAreaMap in the
pipeline), and asks Tesseract's OSD about it as PhotoProcessor does (libtesseract through ctypes:
one engine on osd.traineddata, TessBaseAPIDetectOrientationScript per copy). The pipeline turns a photo when OSD's answer is not 0 and its
confidence is at least 9 (PreprocessSettings.rotateConfidence); a copy comes out upright
when that decision undoes the turn. Every rotated copy reaches OSD in the pipeline (its
first read is not confident); an upright one only when its first read is doubtful, so
"upright turned" counts the worst case. The text height is the one main's default run
wrote for the upright photo (the gate measures a turned photo's differently; the cap
binds all the same). Tune and check parts by Benchmarks/evalsplit.py on the photo's
stem. Only OSD runs: an end-to-end scan of 120 large rotated pages did not fit the
round's time on the shared machine.

Round 7: `--vars` asks OSD once per set of Tesseract variables on the OSD engine (e.g.
`--vars ';min_characters_to_try=25'`: Tesseract's default, then 25), each set of copies
turned as above, and prints per set of variables the CPU seconds of its OSD workers.
`--min-mp 0` takes every photo (default: those whose copy exceeds the smallest cap).

usage: Benchmarks/osd_cap_eval.py MAIN_JSON_DIR [MAIN_JSON_DIR…] --out DIR
         [--caps 0,4] [--vars 'V=X,W=Y;…'] [--min-mp MP] [--sets receipts,menus,documents]
         [--eval ../shared/eval] [--jobs 2]
Needs Pillow. Evaluation data is read, never copied into the repo (copies go to --out).
"""
import argparse
import collections
import concurrent.futures as cf
import glob
import json
import os
import resource
import subprocess
import sys

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from evalsplit import part_of  # noqa: E402

EXT = (".jpg", ".jpeg", ".png", ".tif", ".tiff")
TURNS = {0: None, 90: Image.Transpose.ROTATE_270, 180: Image.Transpose.ROTATE_180, 270: Image.Transpose.ROTATE_90}
MIN_CONFIDENCE = 9.0


def osd_scale(text_height, w, h, cap):
    f = min(1, max(0.25, 28 / text_height)) if text_height else min(1, 2000 / max(w, h))
    mp = w * h * f * f / 1e6
    if cap > 0 and mp > cap:
        f *= (cap / mp) ** 0.5
    return f


OSD_WORKER = r"""
import ctypes, sys
tess = ctypes.CDLL("libtesseract.so.5"); lept = ctypes.CDLL("liblept.so.5")
tess.TessBaseAPICreate.restype = ctypes.c_void_p
lept.pixRead.restype = ctypes.c_void_p
lept.pixRead.argtypes = [ctypes.c_char_p]
api = ctypes.c_void_p(tess.TessBaseAPICreate())
assert tess.TessBaseAPIInit3(api, None, b"osd") == 0
for kv in filter(None, sys.argv[1].split(",")):
    k, v = kv.split("=", 1)
    assert tess.TessBaseAPISetVariable(api, k.encode(), v.encode()), kv
tess.TessBaseAPISetPageSegMode(api, 0)
for line in sys.stdin:
    pix = ctypes.c_void_p(lept.pixRead(line.strip().encode()))
    tess.TessBaseAPISetImage2(api, pix)
    deg, conf, script, sconf = ctypes.c_int(), ctypes.c_float(), ctypes.c_char_p(), ctypes.c_float()
    ok = tess.TessBaseAPIDetectOrientationScript(api, ctypes.byref(deg), ctypes.byref(conf), ctypes.byref(script), ctypes.byref(sconf))
    tess.TessBaseAPIClear(api)
    lept.pixDestroy(ctypes.byref(pix))
    print(((360 - deg.value) % 360, conf.value) if ok else (None, 0.0), flush=True)
"""


def ask_osd(paths, variables=""):
    """OSD's answers for `paths`, as PhotoProcessor gets them: one engine on osd.traineddata
    (PSM 0), TessBaseAPIDetectOrientationScript per image, turned into degrees clockwise.
    `variables`: "NAME=VALUE,…" set on the engine after it is loaded."""
    env = dict(os.environ, OMP_THREAD_LIMIT="1")
    r = subprocess.run([sys.executable, "-c", OSD_WORKER, variables], input="\n".join(paths) + "\n",
                       capture_output=True, text=True, env=env, check=True)
    return [eval(line) for line in r.stdout.splitlines()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("json_dirs", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--caps", default="0,4")
    ap.add_argument("--sets", default="receipts,menus,documents")
    ap.add_argument("--eval", default=os.path.join(HERE, "..", "..", "shared", "eval"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--vars", default="")
    ap.add_argument("--min-mp", type=float)
    a = ap.parse_args()
    caps = [float(c) for c in a.caps.split(",")]
    configs = a.vars.split(";")
    smallest = a.min_mp if a.min_mp is not None else min(c for c in caps if c > 0)
    heights = {}
    for d in a.json_dirs:
        for f in glob.glob(os.path.join(d, "*.json")):
            j = json.load(open(f))
            heights[os.path.splitext(os.path.basename(f))[0]] = (j.get("preprocessing") or {}).get("textHeight")
    os.makedirs(a.out, exist_ok=True)
    jobs = []
    for s in a.sets.split(","):
        for f in sorted(glob.glob(os.path.join(a.eval, s, "*"))):
            stem = os.path.splitext(os.path.basename(f))[0]
            if not f.lower().endswith(EXT) or stem.startswith("_"):
                continue
            with Image.open(f) as im:
                w, h = im.size
                th = heights.get(stem)
                if w * h * osd_scale(th, w, h, 0) ** 2 / 1e6 <= smallest:
                    continue
                rgb = im.convert("RGB")
                for cap in caps:
                    fac = osd_scale(th, w, h, cap)
                    copy = rgb if abs(fac - 1) < 1e-9 else rgb.resize((max(1, round(w * fac)), max(1, round(h * fac))), Image.BOX)
                    for turn, op in TURNS.items():
                        p = os.path.join(a.out, f"{stem}__c{cap:g}__t{turn}.png")
                        if not os.path.exists(p):
                            (copy.transpose(op) if op is not None else copy).save(p, compress_level=1)
                        jobs.append((s, stem, cap, turn, p, copy.width * copy.height / 1e6))
    chunks = [jobs[i::a.jobs] for i in range(a.jobs)]
    order = [j for c in chunks for j in c]
    cpu = {}
    all_jobs, answers = [], []
    for variables in configs:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        with cf.ThreadPoolExecutor(a.jobs) as ex:
            parts = list(ex.map(lambda c: ask_osd([j[4] for j in c], variables), chunks))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu[variables] = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        answers_by = {id(j): ans for j, ans in zip(order, [x for p in parts for x in p])}
        all_jobs += [(variables,) + j for j in jobs]
        answers += [answers_by[id(j)] for j in jobs]
    tally = collections.defaultdict(collections.Counter)
    rows = []
    for (variables, s, stem, cap, turn, _, mp), (rot, conf) in zip(all_jobs, answers):
        turned_by = rot if rot is not None and rot != 0 and conf >= MIN_CONFIDENCE else 0
        ok = (turn + turned_by) % 360 == 0
        t = tally[(variables, cap, s, part_of(stem))]
        t["copies"] += 1
        t["upright"] += ok
        t["mp"] += mp
        if turn == 0:
            t["upright turned"] += turned_by != 0
        rows.append(f"{stem} vars={variables or '-'} cap={cap:g} turn={turn} copy={mp:.2f}MP osd={rot} conf={conf:.2f} {'ok' if ok else 'WRONG'}")
    open(os.path.join(a.out, "answers.txt"), "w").write("\n".join(rows) + "\n")
    photos = len({j[1] for j in jobs})
    print(f"{photos} photos whose OSD copy exceeds {smallest:g} MP, 4 turns each; OSD's threshold {MIN_CONFIDENCE}")
    for variables in configs:
        print(f"variables {variables or '(Tesseract defaults)'}: OSD workers {cpu[variables]:.1f} CPU s")
    for (variables, cap, s, part), t in sorted(tally.items()):
        print(f"{variables or '-':28s} cap {cap:>4g} MP  {s:10s} {part:5s}  upright {t['upright']}/{t['copies']}"
              f"  upright photos turned wrongly {t['upright turned']}  mean copy {t['mp'] / t['copies']:.2f} MP")


if __name__ == "__main__":
    main()
