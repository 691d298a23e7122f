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
Predictions are each item's `allergens` ids (contains), all confidences.

Usage: python3 Benchmarks/allergen_eval.py [--bin .build/debug/menuscan] [--eval ../shared/eval] [--show-errors]
"""
import argparse, csv, json, os, subprocess, sys, tempfile, unicodedata, re
from collections import defaultdict

IDS = "gluten crustaceans eggs fish peanuts soybeans milk tree_nuts celery mustard sesame sulphites lupin molluscs".split()
CSV_MAP = {"dairy": ["milk"], "milk": ["milk"], "ghee": ["milk"], "wheat": ["gluten"], "gluten": ["gluten"],
           "fish": ["fish"], "anchovies": ["fish"], "shellfish": ["shellfish"], "eggs": ["eggs"], "egg": ["eggs"],
           "soybeans": ["soybeans"], "soy": ["soybeans"], "peanuts": ["peanuts"], "almonds": ["tree_nuts"],
           "nuts": ["tree_nuts"], "celery": ["celery"], "mustard": ["mustard"], "sesame": ["sesame"]}


ALL14 = ",".join(IDS)
GENERAL = {"low_text_confidence", "low_confidence_words", "ask_server", "unresolved_allergen_codes", "missing_allergen_codes"}


def safe_for(item, allergen):
    """Would this item be 'safe' for a user allergic only to `allergen`? (from the all-14 verdict's reasons)"""
    reasons = item.get("safetyReasons") or []
    if any(r in GENERAL for r in reasons):
        return False
    return not any(r.split(":", 1)[-1] == allergen for r in reasons if ":" in r)


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
    s = unicodedata.normalize("NFKD", s or "").encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", " ", s).strip()


def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--bin", default=os.path.join(here, "..", ".build", "debug", "menuscan"))
    ap.add_argument("--eval", default=os.path.join(here, "..", "..", "shared", "eval"))
    ap.add_argument("--show-errors", action="store_true")
    a = ap.parse_args()
    if not os.path.isdir(a.eval):
        print(f"evaluation data not found at {a.eval}: skipped"); return
    tmp = tempfile.mkdtemp()

    # 1. CSV
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

    # 2. hand-labelled menus
    menus = sorted(f[:-len(".items.json")] for f in os.listdir(os.path.join(a.eval, "menus")) if f.endswith(".items.json"))
    all_menu, all_line = [], []
    false_safe = {"menu": [0, 0], "line": [0, 0]}  # [items x gold allergens judged safe, gold allergen instances]
    matched = total = 0
    diet_ok = diet_n = 0
    for m in menus:
        labels = json.load(open(os.path.join(a.eval, "menus", m + ".items.json")))
        gold = [set(x["allergens"]) for x in labels]
        # a. whole menu text
        pred_items = run(a.bin, os.path.join(a.eval, "menus", m + ".gt.txt"), False)
        used = set()
        for lab, g in zip(labels, gold):
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
                false_safe["menu"][1] += len(g)  # not found: no verdict at all (reported as unmatched)
                all_menu.append((set(), g))
                if a.show_errors: print("MENU unmatched", m[:20], lab["name"])
                continue
            used.add(best); matched += 1
            it = pred_items[best]
            pred = {x["id"] for x in it["allergens"]}
            false_safe["menu"][1] += len(g)
            false_safe["menu"][0] += sum(safe_for(it, x) for x in g)
            all_menu.append((pred, g))
            diet_n += 1; diet_ok += it["dietary"] == lab["dietary"]
            if a.show_errors and pred != g:
                print("MENU", m[:20], lab["name"], "pred", sorted(pred), "gold", sorted(g))
        # b. per line
        p = os.path.join(tmp, m + ".lines.txt")
        open(p, "w").write("\n".join((x["name"] + " " + (x["description"] or "")).replace("\n", " ") for x in labels) + "\n")
        line_items = run(a.bin, p, True)
        for it, g, lab in zip(line_items, gold, labels):
            pred = {x["id"] for x in it["allergens"]}
            false_safe["line"][1] += len(g)
            false_safe["line"][0] += sum(safe_for(it, x) for x in g)
            all_line.append((pred, g))
            if a.show_errors and pred != g:
                print("LINE", m[:20], lab["name"], "pred", sorted(pred), "gold", sorted(g))
    print(f"\n## Hand-labelled menus: {len(menus)} menus, {total} labelled items; "
          f"{matched} matched by name in whole-menu mode; dietary agreement on matched items {diet_ok}/{diet_n}")
    table("hand-labelled menus, whole gt.txt through `classify` (structure + codes + legends)", all_menu, IDS)
    table("hand-labelled menus, name + description per line (`classify --per-line`, no codes)", all_line, IDS)
    print("\n### Wrong \"safe\" verdicts (an item called safe for a user allergic to one of its labelled allergens)\n")
    for k, (bad, n) in false_safe.items():
        print(f"- {k}: {bad} of {n} labelled (item, allergen) pairs")


if __name__ == "__main__":
    main()
