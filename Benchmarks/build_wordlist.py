#!/usr/bin/env python3
"""Builds models/read-quality/words.txt, the word list behind the read-quality
feature `lexiconShare` (share of read tokens that are known words).

Sources: Debian's `wamerican` (/usr/share/dict/american-english, public
domain; `apt-get install wamerican`) and every term of the allergen lexicon
(models/allergens/lexicon.tsv: dish and ingredient words in several
languages). Kept: lower-cased words of 2–24 letters (no possessives).
usage: Benchmarks/build_wordlist.py [DICT ...]
"""
import os, re, sys, unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
dicts = sys.argv[1:] or ["/usr/share/dict/american-english"]
words = set()
for path in dicts:
    for line in open(path, encoding="utf-8", errors="replace"):
        w = unicodedata.normalize("NFKC", line.strip()).lower()
        if "'" in w:
            continue
        if re.fullmatch(r"[^\W\d_]{2,24}", w):
            words.add(w)
for line in open(os.path.join(ROOT, "models", "allergens", "lexicon.tsv"), encoding="utf-8"):
    if line.startswith("#") or not line.strip():
        continue
    for w in re.split(r"[\s\-/]+", unicodedata.normalize("NFKC", line.split("\t")[0]).lower()):
        if re.fullmatch(r"[^\W\d_]{2,24}", w):
            words.add(w)
out = os.path.join(ROOT, "models", "read-quality", "words.txt")
os.makedirs(os.path.dirname(out), exist_ok=True)
with open(out, "w", encoding="utf-8") as f:
    f.write("# Known words for MenuScan's read-quality feature lexiconShare. Built by Benchmarks/build_wordlist.py\n")
    f.write("# from Debian wamerican (public domain) and the allergen lexicon's terms. One lower-cased word per line.\n")
    for w in sorted(words):
        f.write(w + "\n")
print(out, len(words))
