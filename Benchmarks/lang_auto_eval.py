#!/usr/bin/env python3
"""`--lang auto` against `--lang eng`: chosen language, CER, allergen recall, seconds a photo.

Sets:
- the menus of ../shared/eval/menus with NAME.gt.txt, split by a hash of the
  name: int(sha1(NAME).hexdigest(), 16) % 3 == 0 -> check, else tune. Only
  the check part is scored (nothing was tuned on it). German check menus:
  sample3 and sample6; the English check menus are scored too (a wrong
  switch away from English would show there).
- generated menus (Benchmarks/gen_lang_menus.py, fixed test seed 15).

CER: Levenshtein distance between the output NAME.txt and NAME.gt.txt, both
NFKC-normalised with whitespace runs collapsed, micro-averaged (total edits
/ total reference characters), as ../shared/eval/tools/score.py. Allergen
recall: labelled (item, allergen) pairs found on the matched item
(allergen_photo_eval.match), items unmatched count as missed. Seconds a photo:
mean of timings.total in the result JSON (--jobs 1).

Usage: python3 Benchmarks/lang_auto_eval.py [--bin .build/release/menuscan] [--eval ../shared/eval] [--generated DIR]
"""
import argparse, json, os, subprocess, sys, tempfile, unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from allergen_eval import ALL14  # noqa: E402
from allergen_photo_eval import match  # noqa: E402

IMG = (".png", ".jpg", ".jpeg")


from evalsplit import is_check  # noqa: E402


def norm(s):
    return " ".join(unicodedata.normalize("NFKC", s).split())


def levenshtein(a, b):
    if len(a) < len(b):
        a, b = b, a
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def images(d, names):
    out = []
    for n in names:
        img = next((os.path.join(d, n + e) for e in IMG if os.path.exists(os.path.join(d, n + e))), None)
        if img:
            out.append((n, img))
    return out


def run(binary, photos, lang, tmp):
    """Scans the photos (symlinked into one folder) with --lang; per photo: result JSON and text."""
    src = os.path.join(tmp, "in-" + lang.replace("+", "_"))
    out = os.path.join(tmp, "out-" + lang.replace("+", "_"))
    os.makedirs(src, exist_ok=True)
    for n, img in photos:
        link = os.path.join(src, n + os.path.splitext(img)[1])
        if not os.path.exists(link):
            os.symlink(img, link)
    subprocess.run(["nice", binary, "scan", src, "--out", out, "--lang", lang, "--jobs", "1", "--quality", "warn",
                    "--allergens", ALL14, "--quiet"], capture_output=True, text=True)
    res = {}
    for n, _ in photos:
        j = json.load(open(os.path.join(out, n + ".json")))
        t = open(os.path.join(out, n + ".txt")).read() if os.path.exists(os.path.join(out, n + ".txt")) else ""
        res[n] = (j, t)
    return res


def score(photos, gt_dir, res):
    edits = chars = 0
    found = pairs = 0
    secs = []
    chosen = {}
    for n, _ in photos:
        j, text = res[n]
        gt = norm(open(os.path.join(gt_dir, n + ".gt.txt")).read())
        edits += levenshtein(norm(text), gt)
        chars += len(gt)
        secs.append(j["timings"].get("total", 0))
        ocr = j.get("ocr") or {}
        chosen[n] = ocr.get("language", "?")
        items_path = os.path.join(gt_dir, n + ".items.json")
        if os.path.exists(items_path):
            items = (j.get("menu") or {}).get("items", [])
            used = set()
            for lab in json.load(open(items_path)):
                gold = set(lab["allergens"])
                pairs += len(gold)
                k = match(lab["name"], items, used)
                if k is not None:
                    used.add(k)
                    found += len(gold & {x["id"] for x in items[k]["allergens"]})
    return {"cer": edits / max(chars, 1), "recall": found / pairs if pairs else None, "pairs": pairs,
            "seconds": sum(secs) / max(len(secs), 1), "chosen": chosen}


def report(title, photos, gt_dir, binary, tmp):
    if not photos:
        return
    print(f"\n### {title}: {len(photos)} photos\n")
    print("| --lang | CER | allergen recall | pairs | s/photo | chosen languages |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    rows = {}
    for lang in ("eng", "auto"):
        r = score(photos, gt_dir, run(binary, photos, lang, os.path.join(tmp, title.replace(" ", "_"))))
        rows[lang] = r
        langs = {}
        for v in r["chosen"].values():
            langs[v] = langs.get(v, 0) + 1
        rec = f"{r['recall']:.3f}" if r["recall"] is not None else "n/a"
        print(f"| {lang} | {r['cer']:.3f} | {rec} | {r['pairs']} | {r['seconds']:.2f} | "
              + ", ".join(f"{k} ×{v}" for k, v in sorted(langs.items())) + " |")
    for n, _ in photos:
        print(f"- {n}: eng → {rows['eng']['chosen'][n]}, auto → {rows['auto']['chosen'][n]}")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(here, "..", ".build", "release", "menuscan"))
    ap.add_argument("--eval", default=os.path.join(here, "..", "..", "shared", "eval"))
    ap.add_argument("--generated", help="folder from gen_lang_menus.py (made in a temporary folder when absent)")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="lang-auto-")
    mdir = os.path.join(a.eval, "menus")
    if os.path.isdir(mdir):
        names = sorted(f[:-7] for f in os.listdir(mdir) if f.endswith(".gt.txt"))
        check = [n for n in names if is_check(n)]
        print("check part:", ", ".join(check))
        print("tune part:", ", ".join(n for n in names if not is_check(n)))
        report("eval menus, check part", images(mdir, check), mdir, a.bin, tmp)
    gen = a.generated
    if not gen:
        gen = os.path.join(tmp, "generated")
        subprocess.run([sys.executable, os.path.join(here, "gen_lang_menus.py"), gen, "--seed", "15"], check=True)
    for lang in ("eng", "deu", "fra", "spa", "ita"):
        names = sorted(f[:-7] for f in os.listdir(gen) if f.endswith(".gt.txt") and f.startswith(f"gen-{lang}-"))
        report(f"generated {lang}", images(gen, names), gen, a.bin, tmp)


if __name__ == "__main__":
    main()
