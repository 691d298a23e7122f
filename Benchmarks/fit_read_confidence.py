#!/usr/bin/env python3
"""Fits readConfidence (issue 17): a logistic model of a photo's word recall
from its read-quality features, written to models/read-quality/calibration.json.

Input: CSV files written by Benchmarks/read_quality_eval.py --csv on TUNE data
only (generated seed 4242, real sets --part tune), best scanned with
--quality warn so badly read photos are in the fit too. Loss: cross-entropy
between the predicted probability and the measured recall (a fraction), L2 0.001,
plain gradient descent on standardised-free inputs (all lie in 0…1).

usage: Benchmarks/fit_read_confidence.py TUNE.csv [MORE.csv ...] [--out PATH]
"""
import csv, json, math, os, sys
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAMES = ["meanConfidence", "lowConfidenceShare", "confidenceSpread", "lexiconShare", "unreadShare", "cutOff",
         "coveredShare", "fewWords", "edgeMargin", "openEdges"]


def inputs(r):
    f = lambda k, d=0.0: float(r["f_" + k]) if r.get("f_" + k) not in (None, "") else d
    return [f("meanConfidence"), f("lowConfidenceShare"), f("confidenceSpread"), f("lexiconShare", 0.5),
            f("unreadShare"), min(f("cutOffLines"), 10) / 10, f("coveredShare"), 1.0 if f("words") < 20 else 0.0,
            f("edgeMargin", 3.0) / 3, min(max(f("openEdges"), 0), 2) / 2]


def main():
    args = sys.argv[1:]
    out = os.path.join(ROOT, "models", "read-quality", "calibration.json")
    if "--out" in args:
        out = args[args.index("--out") + 1]
        args = [a for a in args if a not in ("--out", out)]
    rows = []
    for path in args:
        rows += [r for r in csv.DictReader(open(path)) if r.get("recall") not in (None, "") and r.get("f_words") not in (None, "")]
    X = np.array([inputs(r) for r in rows])
    y = np.array([float(r["recall"]) for r in rows])
    w, b = np.zeros(X.shape[1]), 0.0
    for step in range(60000):
        p = 1 / (1 + np.exp(-(X @ w + b)))
        g = p - y
        w -= 1.0 * (X.T @ g / len(y) + 0.001 * w)
        b -= 1.0 * g.mean()
    p = 1 / (1 + np.exp(-(X @ w + b)))
    model = {"intercept": round(float(b), 4), "weights": {n: round(float(v), 4) for n, v in zip(NAMES, w)},
             "fit": {"photos": len(rows), "files": [os.path.basename(a) for a in args],
                     "meanAbsoluteError": round(float(np.abs(p - y).mean()), 4),
                     "by": "Benchmarks/fit_read_confidence.py"}}
    os.makedirs(os.path.dirname(out), exist_ok=True)
    json.dump(model, open(out, "w"), indent=2)
    print(json.dumps(model, indent=2))


if __name__ == "__main__":
    main()
