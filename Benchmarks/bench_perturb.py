#!/usr/bin/env python3
"""Make OCR-like hypotheses from ground truth, for checking that the bench's
metrics agree with shared/eval/tools/score.py.

usage: bench_perturb.py GT_DIR OUT_DIR [--seed N]
For every NAME.gt.txt in GT_DIR writes OUT_DIR/NAME.txt: the ground truth with
character edits, case flips, dropped/duplicated/swapped words, shuffled lines
and Unicode that normalisation must handle (ligatures, NBSP and other spaces,
full-width forms, decomposed accents, U+001C, CRLF). About one page in twelve
gets no file at all (score.py scores it as the empty text). Deterministic for
a given seed.
"""
import os, random, sys

UNICODE_SWAPS = [("fi", "\ufb01"), ("fl", "\ufb02"), (" ", "\u00a0"), (" ", "\u2003"), (" ", "\t"),
                 (" ", "\u001c"), ("e", "e\u0301"), ("0", "\uff10"), ("1", "\uff11"), ("A", "\uff21"),
                 ("\n", "\r\n"), ("-", "\u2010"), ("a", "\u00e4")]
NOISE = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789.,:;-'\u20ac\u00e9\u00fc\u2019"


def perturb(text, rng):
    lines = text.split("\n")
    if rng.random() < 0.3 and len(lines) > 2:      # reading-order noise: swap two lines
        i, j = rng.sample(range(len(lines)), 2)
        lines[i], lines[j] = lines[j], lines[i]
    out_lines = []
    for line in lines:
        words = line.split(" ")
        kept = []
        for w in words:
            r = rng.random()
            if r < 0.04:
                continue                             # dropped word
            if r < 0.07:
                kept.append(w); kept.append(w)       # duplicated word
                continue
            if r < 0.12:
                w = w.swapcase()
            kept.append(w)
        if rng.random() < 0.1 and len(kept) > 1:
            i = rng.randrange(len(kept) - 1)
            kept[i], kept[i + 1] = kept[i + 1], kept[i]
        out_lines.append(" ".join(kept))
    s = "\n".join(out_lines)
    chars = []
    rate = rng.choice([0.0, 0.01, 0.05, 0.15, 0.3])
    for ch in s:
        r = rng.random()
        if r < rate / 3:
            continue                                 # deletion
        if r < 2 * rate / 3:
            chars.append(rng.choice(NOISE))          # substitution
            continue
        chars.append(ch)
        if r < rate:
            chars.append(rng.choice(NOISE))          # insertion
    s = "".join(chars)
    for old, new in UNICODE_SWAPS:
        if rng.random() < 0.5:
            s = s.replace(old, new, rng.randint(1, 5))
    if rng.random() < 0.2:
        s = "  \n" + s + "\n\n  "
    return s


def main():
    gt_dir, out_dir = sys.argv[1], sys.argv[2]
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 4
    rng = random.Random(seed)
    os.makedirs(out_dir, exist_ok=True)
    for f in sorted(os.listdir(gt_dir)):
        if not f.endswith(".gt.txt"):
            continue
        if rng.random() < 1 / 12:
            continue                                 # missing prediction
        text = open(os.path.join(gt_dir, f), encoding="utf-8", errors="replace").read()
        with open(os.path.join(out_dir, f[:-7] + ".txt"), "w", encoding="utf-8", newline="") as out:
            out.write(perturb(text, rng))


if __name__ == "__main__":
    main()
