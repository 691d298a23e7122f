#!/usr/bin/env python3
"""Why a found item's price is wrong, by category (generated or real labelled menus).

For every labelled item that the structure found (matched by name as in
structure_eval.py) whose labelled price is not the predicted one, the OCR page
around the item's name line is looked at and the miss is put in one category:

  absent      no word near the item (its row, and up to 3 lines below the name)
              holds the price's digits: OCR did not read it at all;
  confused    a word near the item holds the price's digits among other marks
              ("S45" for "$4.5", "12.5O", "€l2"), but nothing reads as the price;
  unattached  the price is read as such near the item, but the item has none;
  wrong       the item has another price (taken from a neighbour, a supplement,
              a misread);
  no_name     the item's name line was not found on the OCR page (cannot tell).

Usage:
  python3 Benchmarks/price_misses.py --dir G --from-scan S [--bin B] [--cache C]
      [--part tune|check|all] [--show]
On generated menus every item name is its own id, so --part all is the usual
choice on a tuning seed; never run it with --show on the test seed while tuning.
"""
import argparse, collections, json, os, re, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from evalsplit import part_of  # noqa: E402
import structure_eval as se  # noqa: E402


def digits(s):
    return re.sub(r"[^0-9]", "", s or "")


def page_lines(page_path):
    page = json.load(open(page_path))
    out = []
    for b in page.get("blocks", []):
        for l in b.get("lines", []):
            ws = l.get("words", [])
            if ws:
                out.append(ws)
    return out


def box_of(ws):
    """[x, y, w, h] boxes (as in the result JSON) -> (left, top, right, bottom)."""
    x0 = min(w["box"][0] for w in ws); y0 = min(w["box"][1] for w in ws)
    x1 = max(w["box"][0] + w["box"][2] for w in ws); y1 = max(w["box"][1] + w["box"][3] for w in ws)
    return x0, y0, x1, y1


def name_line(lines, name):
    """The OCR line (list of words) holding the item's name best, or None."""
    best, bs = None, 0.0
    n = se.norm(name)
    for ws in lines:
        t = se.norm(" ".join(w["text"] for w in ws))
        if not t:
            continue
        s = 1.0 if n and n in t else se.name_score(name, " ".join(w["text"] for w in ws))
        if s > bs:
            best, bs = ws, s
    return best if bs >= 0.7 else None


def near_words(lines, nl):
    """Words on the name line's row (whole page width) and up to 3 line heights below it."""
    x0, y0, x1, y1 = box_of(nl)
    h = max(1, y1 - y0)
    out = []
    for ws in lines:
        for w in ws:
            cy = w["box"][1] + w["box"][3] / 2
            if y0 - h * 0.3 <= cy <= y1 + 3.5 * h:
                out.append(w)
    return out


def categorise(lab, it, lines):
    want = se.price_value(lab.get("price"))
    got = se.price_value(it.get("price"))
    if got is not None:
        return "wrong"
    nl = name_line(lines, lab["name"])
    if nl is None:
        return "no_name"
    wd = digits(want.replace("/", "")) if want else ""
    words = near_words(lines, nl)
    # Digits of the first number of the label: "12.5" -> "125", sizes -> "1218"
    first = digits(want.split("/")[0])
    exact = [w for w in words if se.price_value(w["text"]) and digits(se.price_value(w["text"]).split("/")[0]) == first
             and re.fullmatch(r"[+$€£¥]?\s?\d{1,4}(?:[.,]\d{1,2})?\s?[€$£¥]?(?:/\d{1,4})?,?", w["text"].strip())]
    if exact:
        return "unattached"
    holding = [w for w in words if first and first in digits(w["text"])]
    if holding:
        return "confused"
    return "absent"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(here, "..", ".build", "debug", "menuscan"))
    ap.add_argument("--dir", required=True)
    ap.add_argument("--from-scan")
    ap.add_argument("--cache", default="/tmp/menuscan-structure-cache")
    ap.add_argument("--part", choices=["check", "tune", "all"], default="tune")
    ap.add_argument("--show", action="store_true", help="print every miss with the words near its name")
    a = ap.parse_args()
    a.source, a.rescan, a.no_reading_order, a.lang = "photo", False, False, "eng"
    a.cache = os.path.join(a.cache, re.sub(r"[^A-Za-z0-9]+", "_", os.path.abspath(a.dir)))
    names = sorted(f[:-len(".items.json")] for f in os.listdir(a.dir) if f.endswith(".items.json"))
    names = [n for n in names if a.part == "all" or part_of(n) == a.part]
    if a.from_scan:  # only menus the scan has finished
        names = [n for n in names if os.path.exists(os.path.join(a.from_scan, n + ".json"))]
    cats = collections.Counter()
    by_style = collections.defaultdict(collections.Counter)
    total = right = 0
    for name in names:
        labels = json.load(open(os.path.join(a.dir, name + ".items.json")))
        menu = se.analyse(a, a.dir, name)
        if menu is None:
            continue
        style = "?"
        meta = os.path.join(a.dir, name + ".lines.json")
        if os.path.exists(meta):
            lay = json.load(open(meta))["layout"]
            style = f"{lay['price_style']}/{lay['currency'] or 'plain'}" + ("/sizes" if lay.get("sizes") else "") + ("/cal" if lay.get("calories") else "")
        page = os.path.join(a.cache, name + ".page.json")
        lines = page_lines(page)
        items = menu.get("items", [])
        m = se.match(labels, items)
        for i, k in m.items():
            lab, it = labels[i], items[k]
            if not se.price_value(lab.get("price")):
                continue
            total += 1
            if se.price_value(lab.get("price")) == se.price_value(it.get("price")):
                right += 1
                by_style[style]["right"] += 1
                continue
            c = categorise(lab, it, lines)
            cats[c] += 1
            by_style[style][c] += 1
            if a.show:
                nl = name_line(lines, lab["name"])
                near = " | ".join(w["text"] + ("*" if w.get("recovered") else "") for w in near_words(lines, nl)) if nl else ""
                print(f"{c:10s} {name} [{style}] {lab['name'][:30]!r} want {lab.get('price')!r} got {it.get('price')!r} :: {near[:160]}")
    print(f"found items with a labelled price: {total}; price right {right} ({100 * right / max(1, total):.1f} %)")
    for c, n in cats.most_common():
        print(f"  {c:10s} {n}")
    print("by layout (price style/currency):")
    for s in sorted(by_style):
        print(f"  {s:28s} " + ", ".join(f"{k} {v}" for k, v in sorted(by_style[s].items())))


if __name__ == "__main__":
    sys.exit(main())
