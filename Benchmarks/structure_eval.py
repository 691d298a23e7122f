#!/usr/bin/env python3
"""Menu structure on labelled menus: are the labelled items found?

For each NAME.items.json in --dir (default ../shared/eval/menus) with a photo
NAME.{jpg,png,jpeg}, either
  --source photo (default, the target): `menuscan scan` once per photo (the OCR
      page is cached in --cache, so re-runs only re-run the structurer through
      `menuscan classify --page`), or
  --source text: `menuscan classify` on the hand transcription NAME.gt.txt.
Predicted items are matched one-to-one to labelled items by name (normalised:
case, accents, punctuation folded; equal, prefix, difflib ratio >= 0.8 or
>= 60 % of the label's words). Reported per menu and over the part: items found
(recall), predicted items that match no label (extra), exact name / price /
description rates over found items (normalised; prices compared as numbers, so
"€5" = "5" = "5.00"), mean menu confidence and level.

Tune/check split (fixed, by file name, never by content):
    check  <=>  int(sha1(NAME).hexdigest(), 16) % 3 == 0
Only the check part is reported unless --part tune|all is given. On the real
menus this puts in check: sampleMenu__sample3, sampleMenu__sample6,
Evening-Menu2018, Speisekarte-en-1_mockup; tune: the other seven.

Usage:
  python3 Benchmarks/structure_eval.py [--source photo|text] [--part check|tune|all]
      [--dir DIR] [--bin .build/debug/menuscan] [--cache /tmp/menuscan-structure-cache]
      [--rescan] [--from-scan SCAN_OUT] [--lang eng] [--show]
On generated menus (Benchmarks/gen_menus.py) scan the folder once with
`menuscan scan DIR --out SCAN_OUT --quality warn --jobs 2` and pass --from-scan.
"""
import argparse, difflib, json, os, re, subprocess, sys, tempfile, unicodedata


from evalsplit import part_of  # noqa: E402


def norm(s):
    s = unicodedata.normalize("NFKD", s or "")
    s = "".join(c for c in s if not unicodedata.combining(c)).lower()
    s = re.sub(r"[^a-z0-9]+", " ", s)
    return " ".join(s.split())


SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")


def price_value(p):
    """'€5' -> '5', '12,50 €' -> '12.5', '3.50 / 6.75' -> '3.5/6.75', '7⁹⁵' -> '7.95', None -> None."""
    if not p:
        return None
    # Superscript cents, as menus print them: a digit and exactly two superscript digits.
    p = re.sub(r"(\d)([⁰¹²³⁴⁵⁶⁷⁸⁹]{2})(?![⁰¹²³⁴⁵⁶⁷⁸⁹])", lambda m: m.group(1) + "." + m.group(2).translate(SUPERSCRIPT), p)
    nums = re.findall(r"\d+(?:[.,]\d+)?", p)
    if not nums:
        return None
    return "/".join(str(float(n.replace(",", "."))).rstrip("0").rstrip(".") for n in nums)


def name_score(label, pred):
    ln, pn = norm(label), norm(pred)
    if not ln or not pn:
        return 0.0
    if ln == pn:
        return 1.0
    if pn.startswith(ln) or ln.startswith(pn):
        return 0.95 if min(len(ln), len(pn)) >= 4 else 0.0
    r = difflib.SequenceMatcher(None, ln, pn).ratio()
    lw, pw = set(ln.split()), set(pn.split())
    overlap = len(lw & pw) / max(len(lw), 1)
    return max(r if r >= 0.8 else 0.0, 0.7 * overlap if overlap >= 0.6 else 0.0)


def match(labels, items):
    """Greedy one-to-one matching by best name score."""
    pairs = []
    for i, lab in enumerate(labels):
        for k, it in enumerate(items):
            s = name_score(lab.get("name", ""), it.get("name", ""))
            if s > 0:
                pairs.append((s, i, k))
    pairs.sort(key=lambda t: (-t[0], t[1], t[2]))
    used_l, used_p, out = set(), set(), {}
    for s, i, k in pairs:
        if i in used_l or k in used_p:
            continue
        used_l.add(i); used_p.add(k); out[i] = k
    return out


def photo_of(d, name):
    for e in (".jpg", ".png", ".jpeg", ".JPG", ".PNG"):
        p = os.path.join(d, name + e)
        if os.path.exists(p):
            return p
    return None


def scan_page(a, img, name):
    """The OCR page of a photo from `menuscan scan` (cached)."""
    os.makedirs(a.cache, exist_ok=True)
    page_path = os.path.join(a.cache, name + ".page.json")
    if a.from_scan and os.path.exists(os.path.join(a.from_scan, name + ".json")):
        blocks = (json.load(open(os.path.join(a.from_scan, name + ".json"))).get("ocr") or {}).get("blocks") or []
        json.dump({"blocks": blocks}, open(page_path, "w"))
    elif a.rescan or not os.path.exists(page_path):
        out = tempfile.mkdtemp()
        subprocess.run([a.bin, "scan", img, "--out", out, "--lang", a.lang, "--quality", "warn", "--quiet", "--jobs", "1"]
                       + (["--no-reading-order"] if a.no_reading_order else []),
                       capture_output=True, text=True)
        res = os.path.join(out, name + ".json")
        blocks = []
        if os.path.exists(res):
            blocks = (json.load(open(res)).get("ocr") or {}).get("blocks") or []
        json.dump({"blocks": blocks}, open(page_path, "w"))
    return page_path


def analyse(a, d, name):
    if a.source == "text":
        gt = os.path.join(d, name + ".gt.txt")
        if not os.path.exists(gt):
            return None
        r = subprocess.run([a.bin, "classify", gt], capture_output=True, text=True)
    else:
        img = photo_of(d, name)
        if not img:
            return None
        r = subprocess.run([a.bin, "classify", "--page", scan_page(a, img, name)], capture_output=True, text=True)
    if r.returncode != 0:
        return {"items": [], "confidence": 0, "confidenceLevel": "low", "warnings": [], "requiresUserVerification": True}
    return json.loads(r.stdout)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(here, "..", ".build", "debug", "menuscan"))
    ap.add_argument("--dir", default=os.path.join(here, "..", "..", "shared", "eval", "menus"))
    ap.add_argument("--source", choices=["photo", "text"], default="photo")
    ap.add_argument("--part", choices=["check", "tune", "all"], default="check")
    ap.add_argument("--cache", default="/tmp/menuscan-structure-cache")
    ap.add_argument("--rescan", action="store_true", help="re-run `menuscan scan` even when the page is cached")
    ap.add_argument("--from-scan", help="take the OCR pages from an earlier `menuscan scan DIR --out FROM_SCAN` run")
    ap.add_argument("--no-reading-order", action="store_true")
    ap.add_argument("--lang", default="eng")
    ap.add_argument("--show", action="store_true", help="print missed labels and unmatched predictions")
    ap.add_argument("--json", help="also write the per-menu figures here")
    ap.add_argument("--modulus", type=int, default=3, help="the tune/check split's modulus (evalsplit.part_of; 2 for held-out set 3)")
    a = ap.parse_args()
    a.cache = os.path.join(a.cache, re.sub(r"[^A-Za-z0-9]+", "_", os.path.abspath(a.dir)))
    if not os.path.isdir(a.dir):
        print("evaluation data not found: skipped"); return
    names = sorted(f[:-len(".items.json")] for f in os.listdir(a.dir) if f.endswith(".items.json"))
    names = [n for n in names if a.part == "all" or part_of(n, a.modulus) == a.part]
    tot = dict(labels=0, found=0, pred=0, name=0, desc=0, desc_n=0, price=0, price_n=0, price_pred=0)
    rows, per = [], []
    for name in names:
        labels = json.load(open(os.path.join(a.dir, name + ".items.json")))
        menu = analyse(a, a.dir, name)
        if menu is None:
            continue
        items = menu.get("items", [])
        m = match(labels, items)
        f = dict(labels=len(labels), found=len(m), pred=len(items), name=0, desc=0, desc_n=0, price=0, price_n=0, price_pred=0)
        for i, k in m.items():
            lab, it = labels[i], items[k]
            f["name"] += norm(lab["name"]) == norm(it["name"])
            if norm(lab.get("description", "")):
                f["desc_n"] += 1
                f["desc"] += norm(lab.get("description", "")) == norm(it.get("description", ""))
            if price_value(lab.get("price")):
                f["price_n"] += 1
                f["price"] += price_value(lab.get("price")) == price_value(it.get("price"))
                f["price_pred"] += it.get("price") is not None
        for k in tot:
            tot[k] += f[k]
        warn = ",".join(w.get("code", w.get("id", "?")) if isinstance(w, dict) else str(w) for w in menu.get("warnings", []))
        rows.append(f"| {name[-40:]} | {part_of(name, a.modulus)} | {f['labels']} | {f['found']} ({100 * f['found'] / max(1, f['labels']):.0f} %) | "
                    f"{f['pred'] - f['found']} | {f['name']}/{f['found']} | {f['price']}/{f['price_n']} | {f['desc']}/{f['desc_n']} | "
                    f"{menu.get('confidence')} {menu.get('confidenceLevel')} | {menu.get('requiresUserVerification')} |")
        per.append(dict(menu=name, part=part_of(name, a.modulus), confidence=menu.get("confidence"), **f))
        if a.show:
            for i, lab in enumerate(labels):
                if i not in m:
                    print(f"  MISSED {name[-25:]} | {lab['name']} | {lab.get('price')}")
                elif price_value(lab.get("price")) != price_value(items[m[i]].get("price")):
                    print(f"  PRICE  {name[-25:]} | {lab['name']} | {lab.get('price')} vs {items[m[i]].get('price')}")
            hit = set(m.values())
            for k, it in enumerate(items):
                if k not in hit:
                    print(f"  EXTRA  {name[-25:]} | {it['name']} | {it.get('price')}")
    print(f"### Structure on {a.dir} ({a.source}, part: {a.part})\n")
    print("| menu | part | labelled | found | extra predicted | name exact | price exact | description exact | menu confidence | verify |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |")
    for r in rows:
        print(r)
    pct = lambda x, y: f"{100 * x / y:.1f} %" if y else "n/a"
    print(f"\n**{a.part}: items found {tot['found']}/{tot['labels']} ({pct(tot['found'], tot['labels'])}); "
          f"extra predicted {tot['pred'] - tot['found']}; name exact {pct(tot['name'], tot['found'])}; "
          f"price exact {pct(tot['price'], tot['price_n'])} of found items with a labelled price ({tot['price_n']}); "
          f"description exact {pct(tot['desc'], tot['desc_n'])} of {tot['desc_n']}**")
    low = [p for p in per if p["found"] < 0.5 * p["labels"]]
    if low:
        print(f"\nphotos with fewer than half the items found: " + ", ".join(f"{p['menu'][-30:]} (confidence {p['confidence']})" for p in low))
    if a.json:
        json.dump(dict(total=tot, menus=per), open(a.json, "w"), indent=1)


if __name__ == "__main__":
    sys.exit(main())
