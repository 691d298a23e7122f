#!/usr/bin/env python3
"""Allergen classification on photos: the hand-labelled menus through OCR.

For each ../shared/eval/menus/NAME.jpg that has NAME.items.json, runs the system
`tesseract` CLI (TSV output, languages --lang, default eng+deu+fra+spa+ita),
turns the TSV into an OCRPage JSON (word confidence = conf/100, none when
Tesseract gives -1), runs `menuscan classify --page`, matches predicted items to
labelled items by name (normalised; prefix or >= 60% word overlap), and reports
per-allergen precision/recall. A labelled item with no matching predicted item
counts all its allergens as missed. This measures the photo path with the stock
Tesseract CLI standing in for MenuScan's OCR stage (built in another branch).

With --dir DIR the labelled photos are DIR's NAME.jpg + NAME.items.json instead: e.g. a
held-out written set drawn as photos by `Benchmarks/gen_menus.py OUT --from-labels FILE`
(its split by menu name: --modulus 2 for set 3, 3 for the others).

Usage: python3 Benchmarks/allergen_photo_eval.py [--bin …] [--eval …] [--lang …] [--show-errors]
       python3 Benchmarks/allergen_photo_eval.py --pipeline --dir OUT [--modulus 3] [--part check]
"""
import argparse, csv, json, os, subprocess, sys, tempfile
from collections import defaultdict

# Shared with the text evaluation: allergen ids, the all-14 profile, the "safe" test, name normalisation.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from allergen_eval import IDS, ALL14, safe_for, norm, part_of  # noqa: E402


def tsv_to_page(tsv_text):
    blocks = {}
    rows = list(csv.reader(tsv_text.splitlines(), delimiter="\t", quoting=csv.QUOTE_NONE))
    header = rows[0]
    ix = {k: i for i, k in enumerate(header)}
    for r in rows[1:]:
        if len(r) < len(header) or r[ix["level"]] != "5":
            continue
        text = r[ix["text"]].strip()
        if not text:
            continue
        conf = float(r[ix["conf"]])
        b = (int(r[ix["block_num"]]),)
        l = (int(r[ix["block_num"]]), int(r[ix["par_num"]]), int(r[ix["line_num"]]))
        x, y, w, h = (int(r[ix[k]]) for k in ("left", "top", "width", "height"))
        word = {"text": text, "box": [x, y, w, h]}
        if conf >= 0:
            word["confidence"] = conf / 100
        blocks.setdefault(b, {}).setdefault(l, []).append(word)
    def union(ws):
        x0 = min(w["box"][0] for w in ws); y0 = min(w["box"][1] for w in ws)
        x1 = max(w["box"][0] + w["box"][2] for w in ws); y1 = max(w["box"][1] + w["box"][3] for w in ws)
        return [x0, y0, x1 - x0, y1 - y0]
    out = []
    for b in sorted(blocks):
        lines = [{"box": union(ws), "words": ws} for _, ws in sorted(blocks[b].items())]
        out.append({"box": union([w for l in lines for w in l["words"]]), "lines": lines})
    return {"blocks": out}


def match(label_name, items, used):
    ln = norm(label_name); lw = set(ln.split())
    best, best_score = None, 0.0
    for k, it in enumerate(items):
        if k in used:
            continue
        pn = norm(it["name"]); pw = set(pn.split())
        if not pn:
            continue
        if pn == ln or pn.startswith(ln) or ln.startswith(pn):
            return k
        if lw and pw:
            score = len(lw & pw) / max(len(lw), 1)
            if score > best_score:
                best, best_score = k, score
    return best if best_score >= 0.6 else None


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(here, "..", ".build", "debug", "menuscan"))
    ap.add_argument("--eval", default=os.path.join(here, "..", "..", "shared", "eval"))
    ap.add_argument("--lang", default="eng+deu+fra+spa+ita")
    ap.add_argument("--show-errors", action="store_true")
    ap.add_argument("--part", choices=["check", "tune", "all"], default="check",
                    help="which part of the labelled menus (allergen_eval.part_of; default: check)")
    ap.add_argument("--dir", help="labelled photos (NAME.jpg + NAME.items.json) instead of EVAL/menus")
    ap.add_argument("--modulus", type=int, default=3, help="the tune/check split's modulus (evalsplit.part_of)")
    ap.add_argument("--pipeline", action="store_true",
                    help="use MenuScan's own pipeline (`menuscan scan --allergens all`) instead of the tesseract CLI + classify --page")
    a = ap.parse_args()
    mdir = a.dir or os.path.join(a.eval, "menus")
    if not os.path.isdir(mdir):
        print("evaluation data not found: skipped"); return
    tmp = tempfile.mkdtemp()
    tp = defaultdict(int); fp = defaultdict(int); fn = defaultdict(int)
    total = matched = 0
    bad_safe = pairs = 0
    free_safe = free_pairs = 0
    may_hit = hit = 0
    blocking = defaultdict(int)  # why truly-free pairs were not "safe"
    print("| menu | labelled items | matched | menu confidence | level |")
    print("| --- | ---: | ---: | ---: | --- |")
    for f in sorted(os.listdir(mdir)):
        if not f.endswith(".items.json"):
            continue
        name = f[:-len(".items.json")]
        if a.part not in ("all", part_of(name, a.modulus)):
            continue
        img = next((os.path.join(mdir, name + e) for e in (".jpg", ".png", ".jpeg") if os.path.exists(os.path.join(mdir, name + e))), None)
        if not img:
            continue
        labels = json.load(open(os.path.join(mdir, f)))
        if a.pipeline:
            out = os.path.join(tmp, name)
            subprocess.run([a.bin, "scan", img, "--out", out, "--lang", a.lang, "--quality", "warn", "--allergens", ALL14, "--quiet"],
                           capture_output=True, text=True)
            menu = json.load(open(os.path.join(out, name + ".json"))).get("menu") or {"items": [], "confidence": 0, "confidenceLevel": "low"}
        else:
            tsv = subprocess.run(["tesseract", img, "stdout", "-l", a.lang, "tsv"], capture_output=True, text=True).stdout
            page_path = os.path.join(tmp, name + ".page.json")
            json.dump(tsv_to_page(tsv), open(page_path, "w"))
            menu = json.loads(subprocess.run([a.bin, "classify", "--page", page_path, "--allergens", ALL14], capture_output=True, text=True, check=True).stdout)
        items = menu["items"]; used = set(); m = 0
        for lab in labels:
            total += 1
            gold = set(lab["allergens"])
            k = match(lab["name"], items, used)
            pred = set()
            if k is not None:
                used.add(k); m += 1
                pred = {x["id"] for x in items[k]["allergens"]}
                pairs += len(gold)
                wrong = [x for x in gold if safe_for(items[k], x)]
                bad_safe += len(wrong)
                hit += len(gold & pred)
                may_hit += len(gold & (pred | set(items[k].get("mayContain") or [])))
                free = [x for x in IDS if x not in gold and x not in set(lab.get("may_contain") or [])]
                free_pairs += len(free); free_safe += sum(safe_for(items[k], x) for x in free)
                for x in free:
                    if not safe_for(items[k], x):
                        for r in items[k].get("safetyReasons") or []:
                            kind, _, which = r.partition(":")
                            if not which or which == x:
                                blocking[kind] += 1
                if a.show_errors and wrong:
                    print("  WRONG SAFE", name[:25], "|", lab["name"], "| matched:", items[k]["name"], "| safe for", sorted(wrong))
            for g in IDS:
                p, t = g in pred, g in gold
                tp[g] += p and t; fp[g] += p and not t; fn[g] += t and not p
            if a.show_errors and pred != gold:
                print("  ", name[:25], "|", lab["name"], "| matched:", items[k]["name"] if k is not None else None, "| pred", sorted(pred), "gold", sorted(gold))
        matched += m
        print(f"| {name[:40]} | {len(labels)} | {m} | {menu['confidence']} | {menu['confidenceLevel']} |")
    how = "menuscan scan" if a.pipeline else "tesseract CLI + `classify --page`"
    print(f"\n### Photos through {how} ({a.lang}): {total} labelled items, {matched} matched\n")
    print("| allergen | gold | TP | FP | FN | precision | recall |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    fmt = lambda x, y: f"{x / y:.3f}" if y else "n/a"
    for g in IDS:
        if tp[g] + fp[g] + fn[g]:
            print(f"| {g} | {tp[g] + fn[g]} | {tp[g]} | {fp[g]} | {fn[g]} | {fmt(tp[g], tp[g] + fp[g])} | {fmt(tp[g], tp[g] + fn[g])} |")
    T, F, N = sum(tp.values()), sum(fp.values()), sum(fn.values())
    print(f"| **all (micro)** | {T + N} | {T} | {F} | {N} | {fmt(T, T + F)} | {fmt(T, T + N)} |")
    print(f"\nWrong \"safe\" verdicts on matched items: {bad_safe} of {pairs} labelled (item, allergen) pairs")
    print(f"Recall on matched items (contains): {hit} of {pairs} ({hit / max(pairs, 1):.3f})")
    print(f"Recall on matched items counting \"may contain\" too: {may_hit} of {pairs} ({may_hit / max(pairs, 1):.3f})")
    print(f"\"Safe\" on truly-free (item, allergen) pairs of matched items: {free_safe} of {free_pairs} ({free_safe / max(free_pairs, 1):.3f})")
    print("Reasons on the truly-free pairs that were not safe: " + ", ".join(f"{k} {v}" for k, v in sorted(blocking.items(), key=lambda kv: -kv[1])))


if __name__ == "__main__":
    main()
