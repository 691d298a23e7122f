#!/usr/bin/env python3
"""Allergen classification: per-allergen precision / recall of `menuscan classify`.

Reads the evaluation data from ../shared/eval (never copied into the repo):
  1. allergens/food_ingredients_and_allergens.dev.csv — each product's name and
     ingredient columns as one line (`classify --per-line`); the dataset's coarse
     labels mapped to the 14 groups (Dairy/Milk/Ghee -> milk, Wheat -> gluten,
     Shellfish -> crustaceans|molluscs, Almonds/Nuts -> tree_nuts, Anchovies ->
     fish; Chicken, Pork, Cocoa, Coconut, None are not allergens).
  2. menus/*.items.json (hand-labelled) two ways:
     a. "menu":    the whole NAME.gt.txt through `classify` (structure, legends,
                   codes); predicted items matched to labelled items by name; a
                   labelled item with no match counts all its allergens as missed.
     b. "per-line": each labelled item's name + description as one line (no codes).
  3. the held-out written sets in Benchmarks/data (labels written without seeing the
     tool): heldout_menu_items.json (set 1), heldout2_… (set 2), heldout3_… (set 3,
     split sha1 % 2), heldout4_… (set 4), heldout5_… (set 5), heldout6_… (set 6), heldout7_… (set 7), heldout8_… (set 8), heldout9_… (set 9), heldout10_… (set 10), heldout11_… (set 11), heldout12_… (set 12), heldout13_… (set 13), heldout14_… (set 14), heldout15_… (set 15), heldout16_… (set 16), heldout17_… (set 17), heldout18_… (set 18), heldout19_… (set 19), both ways as in 2.
Predictions are each item's `allergens` ids (contains), all confidences. Only the check
part is scored unless --part tune|all (Benchmarks/evalsplit.py).

Usage: python3 Benchmarks/allergen_eval.py [--bin .build/debug/menuscan] [--eval ../shared/eval] [--show-errors]
       [--part check|tune|all] [--skip-csv] [--only-set 1|2|…|19] [--probe]
"""
import argparse, csv, json, os, subprocess, sys, tempfile, unicodedata, re
from collections import defaultdict

IDS = "gluten crustaceans eggs fish peanuts soybeans milk tree_nuts celery mustard sesame sulphites lupin molluscs".split()
CSV_MAP = {"dairy": ["milk"], "milk": ["milk"], "ghee": ["milk"], "wheat": ["gluten"], "gluten": ["gluten"],
           "fish": ["fish"], "anchovies": ["fish"], "shellfish": ["shellfish"], "eggs": ["eggs"], "egg": ["eggs"],
           "soybeans": ["soybeans"], "soy": ["soybeans"], "peanuts": ["peanuts"], "almonds": ["tree_nuts"],
           "nuts": ["tree_nuts"], "celery": ["celery"], "mustard": ["mustard"], "sesame": ["sesame"]}


ALL14 = ",".join(IDS)
# Reasons that block "safe" only for the allergen they name; every other reason
# (no colon: "low_text_confidence", "unknown_terms", "dish_not_understood", …)
# blocks "safe" for every allergen. `declared_absent:X` is information only.
SPECIFIC = {"contains", "may_contain", "weak_evidence", "fuzzy_evidence"}


def safe_for(item, allergen):
    """Would this item be 'safe' for a user allergic only to `allergen`? (from the all-14 verdict's reasons)"""
    for r in item.get("safetyReasons") or []:
        kind, _, which = r.partition(":")
        if kind == "declared_absent":
            continue
        if kind in SPECIFIC:
            if which == allergen:
                return False
        else:
            return False
    return True


# Tune/check split of the hand-labelled menus, fixed before any tuning: a menu is in
# the check part when sha1(its file stem) % 3 == 0. Figures are reported on the check
# part; the tune part is what lexicon work may look at.
#   check: sampleMenu__sample3, sampleMenu__sample6, Evening-Menu2018, Speisekarte-en-1_mockup (69 items)
#   tune:  sampleMenu__sample2, sampleMenu__sample4, Bacon-Truck, International-Food-and-Wine,
#          speisekarte, speisen_09, web__uploads…_n (176 items)
from evalsplit import part_of  # noqa: E402,F401 (re-exported for allergen_photo_eval)


def run(binary, path, per_line):
    args = [binary, "classify", path, "--allergens", ALL14] + (["--per-line"] if per_line else [])
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    return json.loads(out)["items"]


def table(title, pairs, groups):
    """pairs: list of (predicted set, gold set)."""
    tp = defaultdict(int); fp = defaultdict(int); fn = defaultdict(int)
    for pred, gold in pairs:
        for g in groups:
            p, t = g in pred, g in gold
            tp[g] += p and t; fp[g] += p and not t; fn[g] += t and not p
    print(f"\n### {title} ({len(pairs)} items)\n")
    print("| allergen | gold | TP | FP | FN | precision | recall |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    def fmt(a, b):
        return f"{a / b:.3f}" if b else "n/a"
    for g in groups:
        if tp[g] + fn[g] + fp[g] == 0:
            continue
        print(f"| {g} | {tp[g] + fn[g]} | {tp[g]} | {fp[g]} | {fn[g]} | {fmt(tp[g], tp[g] + fp[g])} | {fmt(tp[g], tp[g] + fn[g])} |")
    T, F, N = sum(tp.values()), sum(fp.values()), sum(fn.values())
    print(f"| **all (micro)** | {T + N} | {T} | {F} | {N} | {fmt(T, T + F)} | {fmt(T, T + N)} |")
    return T, F, N


def norm(s):
    """A name for matching: accents dropped, lower case, letters and digits of any script
    (Greek, Cyrillic and Hangul names once folded to nothing and matched any item)."""
    s = unicodedata.normalize("NFKD", s or "")
    s = "".join(c for c in s if not unicodedata.combining(c)).lower()
    return re.sub(r"[\W_]+", " ", s).strip()


def csv_eval(a, tmp):
    """The product CSV, one row per line (`classify --per-line`), against its coarse labels."""
    rows, seen = [], set()
    with open(os.path.join(a.eval, "allergens", "food_ingredients_and_allergens.dev.csv"), newline="") as f:
        for r in csv.DictReader(f):
            text = ", ".join(r[k] for k in ["Food Product", "Main Ingredient", "Sweetener", "Fat/Oil", "Seasoning"]
                             if r[k] and r[k] != "None")
            gold = set()
            for lab in r["Allergens"].split(","):
                gold.update(CSV_MAP.get(lab.strip().lower(), []))
            key = (text, tuple(sorted(gold)))
            if key in seen:
                continue
            seen.add(key); rows.append((text, gold))
    p = os.path.join(tmp, "csv.txt")
    open(p, "w").write("\n".join(t for t, _ in rows) + "\n")
    items = run(a.bin, p, True)
    assert len(items) == len(rows), (len(items), len(rows))
    pairs = []
    for it, (text, gold) in zip(items, rows):
        pred = {x["id"] for x in it["allergens"]}
        if pred & {"crustaceans", "molluscs"}:
            pred.add("shellfish")
        pairs.append((pred, gold))
        if a.show_errors and (pred & set(IDS + ["shellfish"])) - {"crustaceans", "molluscs"} != gold:
            print("CSV", text, "pred", sorted(pred), "gold", sorted(gold))
    groups = [g for g in IDS if g not in ("crustaceans", "molluscs")] + ["shellfish"]
    print(f"## CSV: {len(rows)} unique product rows (of the dev file)")
    table("food_ingredients_and_allergens.dev.csv, per-line", pairs, groups)



def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--bin", default=os.path.join(here, "..", ".build", "debug", "menuscan"))
    ap.add_argument("--eval", default=os.path.join(here, "..", "..", "shared", "eval"))
    ap.add_argument("--show-errors", action="store_true")
    ap.add_argument("--part", choices=["check", "tune", "all"], default="check",
                    help="which part of the hand-labelled menus to report (default: check)")
    ap.add_argument("--skip-csv", action="store_true", help="skip the product CSV")
    ap.add_argument("--probe", action="store_true",
                    help="score only the hidden-allergen probe (Benchmarks/data/probe_hidden_allergens.json): "
                         "a development set, looked at while tuning; never report it as held out")
    ap.add_argument("--only-set", type=int, choices=range(1, 20),
                    help="score only this held-out written set (skips the CSV and the photo-menu texts)")
    a = ap.parse_args()
    if not os.path.isdir(a.eval):
        print(f"evaluation data not found at {a.eval}: skipped"); return
    tmp = tempfile.mkdtemp()

    if a.probe:
        rows = json.load(open(os.path.join(here, "data", "probe_hidden_allergens.json")))
        evaluate(a, tmp, "hidden-allergen probe (development set, all menus)", heldout_menus(rows))
        return

    # 1. CSV
    if not a.skip_csv and not a.only_set:
        csv_eval(a, tmp)

    # 2. hand-labelled menus (../shared/eval), check part by default
    mdir = os.path.join(a.eval, "menus")
    menus = []
    for f in ([] if a.only_set else sorted(os.listdir(mdir))):
        if f.endswith(".items.json"):
            stem = f[:-len(".items.json")]
            if a.part in ("all", part_of(stem)):
                menus.append((stem, json.load(open(os.path.join(mdir, f))), open(os.path.join(mdir, stem + ".gt.txt")).read()))
    if not a.only_set:
        evaluate(a, tmp, f"hand-labelled menus, {a.part} part", menus)

    # 3. the held-out written sets (labels written before any classifier output was seen):
    #    set 1 (round 3, 18 menus), set 2 (round 6, 20 menus of other cuisines and languages),
    #    set 3 (round 7, 20 more; split sha1 % 2, see evalsplit.part_of), set 4 (round 8, 20 more),
    #    set 5 (round 11, 20 more), set 6 (round 13, 20 more)
    for fname, title, modulus in (("heldout_menu_items.json", "held-out written menus (Benchmarks/data)", 3),
                                  ("heldout2_menu_items.json", "held-out written menus, set 2 (Benchmarks/data)", 3),
                                  ("heldout3_menu_items.json", "held-out written menus, set 3 (Benchmarks/data)", 2),
                                  ("heldout4_menu_items.json", "held-out written menus, set 4 (Benchmarks/data)", 3),
                                  ("heldout5_menu_items.json", "held-out written menus, set 5 (Benchmarks/data)", 3),
                                  ("heldout6_menu_items.json", "held-out written menus, set 6 (Benchmarks/data)", 3),
                                  ("heldout7_menu_items.json", "held-out written menus, set 7 (Benchmarks/data)", 3),
                                  ("heldout8_menu_items.json", "held-out written menus, set 8 (Benchmarks/data)", 3),
                                  ("heldout9_menu_items.json", "held-out written menus, set 9 (Benchmarks/data)", 3),
                                  ("heldout10_menu_items.json", "held-out written menus, set 10 (Benchmarks/data)", 3),
                                  ("heldout11_menu_items.json", "held-out written menus, set 11 (Benchmarks/data)", 3),
                                  ("heldout12_menu_items.json", "held-out written menus, set 12 (Benchmarks/data)", 3),
                                  ("heldout13_menu_items.json", "held-out written menus, set 13 (Benchmarks/data)", 3),
                                  ("heldout14_menu_items.json", "held-out written menus, set 14 (Benchmarks/data)", 3),
                                  ("heldout15_menu_items.json", "held-out written menus, set 15 (Benchmarks/data)", 3),
                                  ("heldout16_menu_items.json", "held-out written menus, set 16 (Benchmarks/data)", 3),
                                  ("heldout17_menu_items.json", "held-out written menus, set 17 (Benchmarks/data)", 3),
                                  ("heldout18_menu_items.json", "held-out written menus, set 18 (Benchmarks/data)", 3),
                                  ("heldout19_menu_items.json", "held-out written menus, set 19 (Benchmarks/data)", 3)):
        if a.only_set and fname != f"heldout{'' if a.only_set == 1 else a.only_set}_menu_items.json":
            continue
        held = os.path.join(here, "data", fname)
        if os.path.exists(held):
            menus = [m for m in heldout_menus(json.load(open(held))) if a.part in ("all", part_of(m[0], modulus))]
            evaluate(a, tmp, f"{title}, {a.part} part", menus)


PRICE_AT_END = re.compile(r"(?:(?:R\$|[$€£₪₩¥₹]|CHF|Fr\.)\s?\d+(?:[.,]\d{1,2})?|\d+[.,]\d{2}|\d+(?:[.,]\d{1,2})?\s?(?:€|£|\$|₪|₩|₺|kr|EUR|CHF|TL|лв\.?|zł|Kč)|\d+(?::-|,-|\.–))\s*$")


def heldout_menus(rows):
    """Groups the held-out items into menus and prints each menu as text: section headers,
    section notes, then each item as 'NAME  PRICE' with its description on the next line."""
    by_menu = {}
    for r in rows:
        by_menu.setdefault(r["menu"], []).append(r)
    out = []
    for m, rs in by_menu.items():
        lines, labels, section = [], [], None
        for k, r in enumerate(rs):
            if r.get("section") == "__NOTE__":
                lines += [r["name"], ""]
                continue
            if r.get("section") != section:
                section = r.get("section")
                if section:
                    lines += [section, ""]
            # A description that ends on its own price ("Rice paper, shrimp … $8", "A,C,G € 9,90")
            # is printed as the menu prints it; a name line priced as well would be a second item.
            # (A supplement's price, "add fried egg +1.50", is not the dish's.)
            end = PRICE_AT_END.search(r.get("description") or "")
            priced = end is not None and not r["description"][:end.start()].rstrip().endswith("+")
            lines.append(r['name'] if priced else f"{r['name']}  {10 + k % 9}.50")
            if r.get("description"):
                lines.append(r["description"])
            lines.append("")
            labels.append(r)
        out.append((m, labels, "\n".join(lines) + "\n"))
    return out


def evaluate(a, tmp, title, menus):
    """menus: [(stem, labels, menu text)]: whole text through `classify` (structure, codes,
    legends, section context) and name + description per line (`classify --per-line`)."""
    all_menu, all_line = [], []
    # [wrong safe, gold pairs, safe on truly-free pairs, truly-free pairs]
    verdicts = {"menu": [0, 0, 0, 0], "line": [0, 0, 0, 0]}
    matched = total = 0
    diet_ok = diet_n = 0
    # diet claims a vegetarian or vegan diner could trust wrongly: "vegetarian" for a dish with
    # meat or fish, "vegan" for one that is not vegan
    diet_wrong = 0
    rank = {"not_vegetarian": 0, "vegetarian": 1, "vegan": 2}

    def judge(mode, it, lab):
        gold, may = set(lab["allergens"]), set(lab.get("may_contain") or [])
        v = verdicts[mode]
        wrong = [x for x in gold if safe_for(it, x)]
        v[0] += len(wrong); v[1] += len(gold)
        free = [x for x in IDS if x not in gold and x not in may]
        v[2] += sum(safe_for(it, x) for x in free); v[3] += len(free)
        if a.show_errors and wrong:
            print("WRONG SAFE", mode, lab["name"], "|", it["name"], "| safe for", sorted(wrong), "| reasons", it.get("safetyReasons"))

    for m, labels, text in menus:
        p = os.path.join(tmp, "menu.txt")
        open(p, "w").write(text)
        pred_items = run(a.bin, p, False)
        used = set()
        for lab in labels:
            g = set(lab["allergens"])
            total += 1
            ln = norm(lab["name"])
            best = None
            for k, it in enumerate(pred_items):
                if k in used:
                    continue
                pn = norm(it["name"])
                if pn == ln or (pn and ln and (pn.startswith(ln) or ln.startswith(pn))):
                    best = k; break
            if best is None:
                all_menu.append((set(), g))
                if a.show_errors: print("MENU unmatched", m[:20], lab["name"])
                continue
            used.add(best); matched += 1
            it = pred_items[best]
            pred = {x["id"] for x in it["allergens"]}
            judge("menu", it, lab)
            all_menu.append((pred, g))
            if lab.get("dietary"):
                diet_n += 1; diet_ok += it["dietary"] == lab["dietary"]
                if it["dietary"] in ("vegetarian", "vegan") and rank.get(it["dietary"], 0) > rank.get(lab["dietary"], 2):
                    diet_wrong += 1
                    if a.show_errors: print("WRONG DIET", lab["name"], "|", it["dietary"], "gold", lab["dietary"])
            if a.show_errors and pred != g:
                print("MENU", m[:20], lab["name"], "pred", sorted(pred), "gold", sorted(g))
        p = os.path.join(tmp, "lines.txt")
        open(p, "w").write("\n".join((x["name"] + " " + (x["description"] or "")).replace("\n", " ") for x in labels) + "\n")
        line_items = run(a.bin, p, True)
        for it, lab in zip(line_items, labels):
            g = set(lab["allergens"])
            pred = {x["id"] for x in it["allergens"]}
            judge("line", it, lab)
            all_line.append((pred, g))
            if a.show_errors and pred != g:
                print("LINE", m[:20], lab["name"], "pred", sorted(pred), "gold", sorted(g))
    print(f"\n## {title}: {len(menus)} menus, {total} labelled items; "
          f"{matched} matched by name in whole-menu mode; dietary agreement on matched items {diet_ok}/{diet_n}"
          + (f" (wrong vegetarian/vegan claims {diet_wrong})" if diet_n else ""))
    print("menus: " + ", ".join(m for m, _, _ in menus))
    table(f"{title}, whole text through `classify` (structure + codes + legends + section context)", all_menu, IDS)
    table(f"{title}, name + description per line (`classify --per-line`, no codes)", all_line, IDS)
    print("\n### Verdicts for a user allergic to one allergen (all 14 tried per item)\n")
    print("| mode | wrong \"safe\" (of labelled pairs) | \"safe\" on truly-free pairs |")
    print("| --- | ---: | ---: |")
    for k, (bad, n, ok, free) in verdicts.items():
        share = f"{ok / free:.3f}" if free else "n/a"
        print(f"| {k} | {bad} of {n} | {ok} of {free} ({share}) |")


if __name__ == "__main__":
    main()
