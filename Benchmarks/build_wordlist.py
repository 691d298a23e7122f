#!/usr/bin/env python3
"""Builds models/read-quality/words.txt, the word list behind the read-quality
feature `lexiconShare` (share of read tokens that are known words).

It covers the languages MenuScan reads (eng, deu, fra, ita, spa):
- Debian word lists (apt packages, all in the Makefile's BENCH_PACKAGES):
  wamerican (/usr/share/dict/american-english), wngerman (ngerman),
  wfrench (french), witalian (italian), wspanish (spanish);
- the food words MenuScan already knows: every term of the allergen lexicon,
  the dish table and the known-word table (models/allergens/{lexicon,dishes,
  known}.tsv, in five languages; dish names such as "bruschetta" or
  "spätzle" are in no dictionary).

Kept: words of 2–24 letters (no possessives, no apostrophes or digits),
**folded** as `WordList.fold` folds a read token in Swift: lower-cased,
accents dropped (NFD, combining marks removed), ß → ss, æ → ae, œ → oe. So
"Käse" read as "Kase" by the English model still counts as known, and the
list shrinks.

Format (compact): sorted by UTF-8 bytes, front-coded: each line is the
number of leading bytes shared with the previous word (omitted when 0)
followed by the rest of the word ("salad", "3mon" = "salmon"). Lines
starting with '#' are comments.

usage: Benchmarks/build_wordlist.py [--out PATH]
"""
import glob, os, re, sys, unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DICTS = {"eng": "american-english", "deu": "ngerman", "fra": "french", "ita": "italian", "spa": "spanish"}
TABLES_DIR = os.path.join(ROOT, "models", "allergens")
# provisional.tsv and the later passes' provisional-*.tsv (AllergenLexicon.provisionalFiles)
TABLES = (["lexicon.tsv", "dishes.tsv", "provisional.tsv"]
          + sorted((os.path.basename(f) for f in glob.glob(os.path.join(TABLES_DIR, "provisional-*.tsv"))),
                   key=lambda n: (int(m.group()) if (m := re.search(r"\d+", n)) else -1, n)) + ["known.tsv"])
LIGATURES = {"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ı": "i"}


def fold(w):
    w = unicodedata.normalize("NFD", w.lower())
    w = "".join(c for c in w if unicodedata.category(c) != "Mn")
    return "".join(LIGATURES.get(c, c) for c in w)


def keep(w):
    return re.fullmatch(r"[^\W\d_]{2,24}", w) is not None


def main():
    out = os.path.join(ROOT, "models", "read-quality", "words.txt")
    if "--out" in sys.argv:
        out = sys.argv[sys.argv.index("--out") + 1]
    words, counts = set(), {}
    for lang, name in DICTS.items():
        path = os.path.join("/usr/share/dict", name)
        if not os.path.exists(path):
            raise SystemExit(f"{path} missing: apt-get install -y " + {"eng": "wamerican", "deu": "wngerman",
                             "fra": "wfrench", "ita": "witalian", "spa": "wspanish"}[lang])
        n = 0
        for line in open(path, encoding="utf-8", errors="replace"):
            w = line.strip()
            if "'" in w or "’" in w:
                continue
            w = fold(w)
            if keep(w):
                words.add(w)
                n += 1
        counts[lang] = n
    for table in TABLES:
        n = 0
        for line in open(os.path.join(TABLES_DIR, table), encoding="utf-8"):
            if line.startswith("#") or not line.strip():
                continue
            for w in re.split(r"[\s\-/']+", line.split("\t")[0]):
                w = fold(w)
                if keep(w):
                    words.add(w)
                    n += 1
        counts[table] = n
    ordered = sorted(words, key=lambda w: w.encode())
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w", encoding="utf-8") as f:
        f.write("# Known words for MenuScan's read-quality feature lexiconShare (eng deu fra ita spa + the food tables).\n")
        f.write("# Built by Benchmarks/build_wordlist.py from Debian wamerican, wngerman, wfrench, witalian, wspanish\n")
        f.write("# and models/allergens/{lexicon,dishes,known}.tsv. Folded (lower case, no accents, ß→ss), sorted by\n")
        f.write("# UTF-8 bytes, front-coded: leading digits = bytes shared with the previous word, then the rest.\n")
        prev = b""
        for w in ordered:
            b = w.encode()
            k = 0
            while k < min(len(b), len(prev)) and b[k] == prev[k]:
                k += 1
            # never split a UTF-8 sequence: back up to a character boundary
            while k > 0 and k < len(b) and (b[k] & 0xC0) == 0x80:
                k -= 1
            f.write((str(k) if k else "") + b[k:].decode() + "\n")
            prev = b
    print(out, len(ordered), "words;", ", ".join(f"{k} {v}" for k, v in counts.items()))


if __name__ == "__main__":
    main()
