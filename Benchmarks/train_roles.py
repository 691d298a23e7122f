#!/usr/bin/env python3
"""Trains the line-role model (models/structure/roles.json).

Training lines come from
  * generated menus (Benchmarks/gen_menus.py, training seeds only — never the
    test seed 9001), OCR'd through `menuscan scan` so the features are the real
    ones: each OCR line gets the role of the printed line it matches
    (NAME.lines.json; normalised text, difflib ratio / containment);
  * the TUNE part of the labelled real menus (Benchmarks/structure_eval.py's
    split), labelled from NAME.items.json: a line matching a section is a
    header, one starting with an item's name a name, one inside an item's
    description a description, a lone price a price; other lines are left out
    (titles, notes and lines OCR garbled beyond matching cannot be told apart).
Features are computed by MenuScan itself (`menuscan classify --page P
--dump-lines`), so training and run time see the same numbers.

Model: multinomial logistic regression on standardised features, L2, class
weights 1/sqrt(frequency); full-batch gradient descent (numpy), deterministic.

Usage:
  python3 Benchmarks/train_roles.py --gen SCAN_OUT:GEN_DIR [--gen …]
      [--real ../shared/eval/menus --real-cache /tmp/menuscan-structure-cache/…]
      [--test SCAN_OUT:GEN_DIR] [--out models/structure/roles.json]
"""
import argparse, difflib, json, os, re, subprocess, sys, tempfile, unicodedata

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from structure_eval import part_of, norm  # noqa: E402

ROLES = ["header", "name", "description", "price", "note", "other"]


def dump(bin_, page_path):
    r = subprocess.run([bin_, "classify", "--page", page_path, "--dump-lines"], capture_output=True, text=True, check=True)
    return json.loads(r.stdout)


def page_from_scan(scan_json, tmp):
    blocks = (json.load(open(scan_json)).get("ocr") or {}).get("blocks") or []
    p = os.path.join(tmp, os.path.basename(scan_json) + ".page.json")
    json.dump({"blocks": blocks}, open(p, "w"))
    return p


def match_gt(text, gt_lines):
    t = norm(text)
    if not t:
        return None, 0
    best, score = None, 0.0
    for g in gt_lines:
        n = norm(g["text"])
        if not n:
            continue
        s = difflib.SequenceMatcher(None, t, n).ratio()
        if len(t) >= 4 and t in n:
            s = max(s, 0.9)
        if s > score:
            best, score = g, s
    return best, score


def label_generated(lines, gt):
    out = []
    for l in lines:
        g, s = match_gt(l["text"], gt["lines"])
        if l["features"][8] > 0 and s < 0.8:  # price_only
            out.append("price")
        elif g is not None and s >= 0.6:
            out.append(g["role"])
        else:
            out.append(None)
    return out


def label_real(lines, items):
    sections = {norm(it.get("section") or "") for it in items} - {""}
    names = [norm(it["name"]) for it in items if norm(it["name"])]
    descs = [norm(it.get("description") or "") for it in items]
    out = []
    for l in lines:
        t = norm(re.sub(r"[$€£]?\s?\d+(?:[.,]\d{1,2})?\s*(?:€|\$)?\s*$", "", l["text"]))
        if l["features"][8] > 0:
            out.append("price"); continue
        if not t:
            out.append(None); continue
        if any(difflib.SequenceMatcher(None, t, s).ratio() >= 0.8 for s in sections):
            out.append("header"); continue
        if any(t == n or (len(n) >= 4 and t.startswith(n)) or difflib.SequenceMatcher(None, t, n).ratio() >= 0.85 for n in names):
            out.append("name"); continue
        if len(t) >= 6 and any(t in d for d in descs if d):
            out.append("description"); continue
        w = set(t.split())
        if len(w) >= 3 and any(len(w & set(d.split())) >= 0.8 * len(w) for d in descs if d):
            out.append("description"); continue
        # Not found in the labels: a title, a note, or a line OCR garbled beyond
        # matching — unknown, left out of training.
        out.append(None)
    return out


def collect_gen(bin_, spec, tmp):
    scan, gen = spec.split(":")
    X, Y = [], []
    for f in sorted(os.listdir(gen)):
        if not f.endswith(".lines.json"):
            continue
        name = f[:-len(".lines.json")]
        sj = os.path.join(scan, name + ".json")
        if not os.path.exists(sj):
            continue
        lines = dump(bin_, page_from_scan(sj, tmp))
        labels = label_generated(lines, json.load(open(os.path.join(gen, f))))
        for l, y in zip(lines, labels):
            if y is not None:
                X.append(l["features"]); Y.append(ROLES.index(y))
    return X, Y


def collect_real(bin_, d, cache):
    X, Y = [], []
    for f in sorted(os.listdir(d)):
        if not f.endswith(".items.json"):
            continue
        name = f[:-len(".items.json")]
        if part_of(name) != "tune":
            continue
        page = os.path.join(cache, name + ".page.json")
        if not os.path.exists(page):
            print(f"  no cached page for {name}: run structure_eval.py --part tune first", file=sys.stderr)
            continue
        lines = dump(bin_, page)
        labels = label_real(lines, json.load(open(os.path.join(d, f))))
        for l, y in zip(lines, labels):
            if y is not None:
                X.append(l["features"]); Y.append(ROLES.index(y))
    return X, Y


def train(X, Y, W, l2=1e-3, steps=3000, lr=0.5):
    X = np.asarray(X, float); Y = np.asarray(Y); W = np.asarray(W, float)
    mean = X.mean(0); scale = X.std(0); scale[scale < 1e-6] = 1
    Z = (X - mean) / scale
    n, d = Z.shape; k = len(ROLES)
    T = np.zeros((n, k)); T[np.arange(n), Y] = 1
    w = np.zeros((k, d)); b = np.zeros(k)
    for _ in range(steps):
        S = Z @ w.T + b
        S -= S.max(1, keepdims=True)
        P = np.exp(S); P /= P.sum(1, keepdims=True)
        G = (P - T) * W[:, None] / W.sum()
        w -= lr * (G.T @ Z + l2 * w)
        b -= lr * G.sum(0)
    return w, b, mean, scale


def predict(model, X):
    w, b, mean, scale = model
    Z = (np.asarray(X, float) - mean) / scale
    return (Z @ w.T + b).argmax(1)


def report(title, model, X, Y):
    if not X:
        return
    p = predict(model, X); Y = np.asarray(Y)
    print(f"{title}: line-role accuracy {np.mean(p == Y):.3f} on {len(Y)} lines")
    print("  gold\\pred " + " ".join(f"{r[:5]:>6}" for r in ROLES))
    for i, r in enumerate(ROLES):
        print(f"  {r:>9} " + " ".join(f"{int(np.sum((Y == i) & (p == j))):6d}" for j in range(len(ROLES))))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(here, "..", ".build", "debug", "menuscan"))
    ap.add_argument("--gen", action="append", default=[], help="SCAN_OUT:GEN_DIR of a training seed")
    ap.add_argument("--real", default=os.path.join(here, "..", "..", "shared", "eval", "menus"))
    ap.add_argument("--real-cache", help="the OCR page cache structure_eval.py wrote for --real")
    ap.add_argument("--real-weight", type=float, default=3.0)
    ap.add_argument("--dev", help="SCAN_OUT:GEN_DIR of a development seed: reported only")
    ap.add_argument("--test", help="SCAN_OUT:GEN_DIR of the test seed: reported only, never trained on")
    ap.add_argument("--out", default=os.path.join(here, "..", "models", "structure", "roles.json"))
    a = ap.parse_args()
    tmp = tempfile.mkdtemp()
    X, Y, W = [], [], []
    for g in a.gen:
        x, y = collect_gen(a.bin, g, tmp)
        X += x; Y += y; W += [1.0] * len(y)
        print(f"generated {g}: {len(y)} lines")
    if a.real_cache and os.path.isdir(a.real):
        x, y = collect_real(a.bin, a.real, a.real_cache)
        X += x; Y += y; W += [a.real_weight] * len(y)
        print(f"real tune menus: {len(y)} lines (weight {a.real_weight})")
    counts = np.bincount(np.asarray(Y), minlength=len(ROLES)).astype(float)
    cw = 1 / np.sqrt(np.maximum(counts, 1))
    W = [w * cw[y] for w, y in zip(W, Y)]
    model = train(X, Y, W)
    report("training lines", model, X, Y)
    if a.dev:
        x, y = collect_gen(a.bin, a.dev, tmp)
        report("dev seed lines", model, x, y)
    if a.test:
        x, y = collect_gen(a.bin, a.test, tmp)
        report("TEST seed lines (never trained on)", model, x, y)
    w, b, mean, scale = model
    feats = FEATURES
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    json.dump(dict(features=feats, roles=ROLES, weights=[[round(v, 6) for v in row] for row in w.tolist()],
                   bias=[round(v, 6) for v in b.tolist()], mean=[round(v, 6) for v in mean.tolist()],
                   scale=[round(v, 6) for v in scale.tolist()]), open(a.out, "w"), indent=1)
    print(f"wrote {a.out}")


# Must equal LineFeatures.names in Sources/MenuScanKit/Menu/LineRoles.swift (the Swift loader checks).
FEATURES = [
    "log_rel_height", "caps_ratio", "title_ratio", "log_words", "letter_share", "digit_share",
    "strong_price_end", "plain_number_end", "price_only", "price_anywhere", "calories", "supplement", "range",
    "leaders", "ends_period", "commas", "starts_lower", "function_words", "food_words", "note_words",
    "gap_above", "gap_below", "indent", "centred", "width", "char_width", "confidence",
    "first_in_run", "last_in_run", "prev_rel_height", "next_rel_height", "prev_caps", "next_caps",
    "prev_price", "next_price", "next_indent", "page_y", "no_letters_short",
    "caps_x_height", "long_line", "next_lower_start",
    "page_price_share", "priced_page_no_price", "priced_page_price",
]

if __name__ == "__main__":
    main()
