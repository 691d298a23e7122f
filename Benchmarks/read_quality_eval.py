#!/usr/bin/env python3
"""Does a photo's status say how well it was read? (issue 17)

Scans generated degraded menu photos (Benchmarks/gen_photos.py --degraded)
and the real sets in ../shared/eval with the built CLI, then prints:

* per generated class: caught by the gate (rejected), failed (R4), partial,
  flagged low confidence (a lowConfidenceResults message), ok; word recall
  by status; mean readConfidence;
* per real set (check part): the same, with false rejects (rejected by the
  gate) — receipts, documents, clean menus (negatives without menu text and
  the contact sheet left out);
* calibration: mean readConfidence vs measured word recall in bins, and the
  photos with word recall < 0.7 reported `ok` with a high readConfidence.

Word recall = order-free share of the ground truth's words that were read
(lower-cased, split on whitespace, punctuation trimmed at the ends; multiset
intersection, as ../shared/eval/tools/score.py counts it). For cut-off and
covered photos the ground truth is the whole menu: a word outside the photo
was not read.

Real data split: Benchmarks/evalsplit.py on the file's stem (name without
extension), as every other measurement script: check = int(sha1(stem), 16) %
3 == 0, tune = the rest. (Until issue 17's second round this script split by
the name WITH extension, so its real check part differed from the others'.) Figures are on the check part unless --part tune or all. Generated:
seed 1701 = test (never tuned on), 4242 = tune.

usage: Benchmarks/read_quality_eval.py [--bin .build/release/menuscan]
          [--seed 1701] [--n 12] [--part check|tune|all] [--work /tmp/rq]
          [--csv rows.csv] [--no-real] [--no-generated] [-- extra scan options]
Needs Pillow and numpy (pip install pillow numpy) for the generator.
"""
import argparse, collections, csv, glob, json, os, re, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EVAL = os.path.join(ROOT, "..", "shared", "eval")
IMG = (".png", ".jpg", ".jpeg", ".tif", ".tiff", ".webp", ".bmp", ".gif")
NEGATIVES = ("Food1", "sides", "wingslg", "CAFE-COCONUT", "test-menus__menu", "_contact_sheet")
HIGH = 0.85  # R6: high confidence above this


from evalsplit import part_of  # noqa: E402


def words(text):
    out = []
    for w in re.split(r"\s+", text.lower()):
        w = w.strip(".,:;!?()[]{}\"'`*•·-–—|/")
        if w:
            out.append(w)
    return out


def recall(gt, read):
    g, r = collections.Counter(gt), collections.Counter(read)
    return sum((g & r).values()) / max(1, sum(g.values()))


def real_sets(part, limit=0):
    sets = {}
    for name, sub in (("receipts", "receipts"), ("documents", "documents"), ("menus (clean)", "menus")):
        paths = sorted(p for p in glob.glob(os.path.join(EVAL, sub, "*")) if p.lower().endswith(IMG)
                       and not any(n in os.path.basename(p) for n in NEGATIVES))
        sets[name] = [p for p in paths if part == "all" or part_of(os.path.splitext(os.path.basename(p))[0]) == part]
        if limit:
            sets[name] = sets[name][:limit]
    return sets


def scan(binary, paths, out, extra):
    """Scan `paths` (linked into one folder so names stay unique) into `out`."""
    src = out + ".in"
    os.makedirs(src, exist_ok=True)
    for p in paths:
        link = os.path.join(src, os.path.basename(p))
        if not os.path.lexists(link):
            os.symlink(os.path.abspath(p), link)
        gt = os.path.splitext(p)[0] + ".gt.txt"  # beside the link too, for `menuscan bench --from-scan`
        if os.path.exists(gt) and not os.path.lexists(os.path.splitext(link)[0] + ".gt.txt"):
            os.symlink(os.path.abspath(gt), os.path.splitext(link)[0] + ".gt.txt")
    cmd = ["nice", binary, "scan", src, "--out", out, "--jobs", "1", "--quiet", *extra]
    subprocess.run(cmd, stdout=subprocess.DEVNULL)
    return out


def result_row(out, path, gt_path):
    stem = os.path.splitext(os.path.basename(path))[0]
    jp = os.path.join(out, stem + ".json")
    if not os.path.exists(jp):
        return None
    r = json.load(open(jp))
    codes = [m["code"] for m in r.get("messages", [])]
    read = []
    ocr = r.get("ocr") or {}
    for b in ocr.get("blocks", []):
        for l in b.get("lines", []):
            read += [w["text"] for w in l.get("words", [])]
    gt = words(open(gt_path, encoding="utf-8", errors="replace").read()) if gt_path and os.path.exists(gt_path) else None
    rq = r.get("readQuality") or {}
    row = {"name": stem, "status": r["status"], "codes": " ".join(codes),
           "lowconf": "lowConfidenceResults" in codes,
           "meanConfidence": ocr.get("meanConfidence"),
           "readConfidence": rq.get("readConfidence"),
           "recall": recall(gt, words(" ".join(read))) if gt is not None and r["status"] not in ("rejected", "error") else None,
           "defects": " ".join(d["kind"] for d in ((r.get("quality") or {}).get("defects") or []))}
    for k, v in (rq.get("features") or {}).items():
        row["f_" + k] = v
    row["findings"] = " ".join(rq.get("findings") or [])
    row["regions"] = " ".join(sorted({g.get("reason", "?") for g in r.get("unrecognizedRegions") or []}))
    q = (r.get("quality") or {}).get("metrics") or {}
    row["textHeight"] = q.get("textHeight")
    row["inkLevel"] = q.get("inkLevel")
    row["contrast"] = q.get("contrast")
    for k, v in (((r.get("preprocessing") or {}).get("ocrCopy")) or {}).items():
        row["copy_" + k] = v
    if rq and "edgeMargin" not in (rq.get("features") or {}):
        # results of a build before edgeMargin existed: the same rule as ReadQualityStage.edgeMargin
        boxes = [w["box"] for b in ocr.get("blocks", []) for l in b.get("lines", []) for w in l.get("words", [])
                 if (w.get("confidence") or 0) >= 0.3]
        row["f_edgeMargin"] = edge_margin(boxes, r["source"].get("width") or 0, r["source"].get("height") or 0)
    return row


def edge_margin(boxes, width, height):
    """Smallest gap between a confidently read word and the photo's edge, in
    median word heights, capped at 3 (3 when nothing was read)."""
    if not boxes or width <= 0 or height <= 0:
        return 3.0
    hs = sorted(b[3] for b in boxes)
    h = max(1, hs[len(hs) // 2])
    gap = min(min(b[0], b[1], width - (b[0] + b[2]), height - (b[1] + b[3])) for b in boxes)
    return min(3.0, max(0.0, gap / h))


def verdict(row):
    if row["status"] in ("rejected", "error"):
        return "caught"
    if row["status"] in ("partial", "failed") or row["lowconf"]:
        return "flagged"
    return "ok"


def fmt(x, d=2):
    return "—" if x is None else f"{x:.{d}f}"


def mean(xs):
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None


def table(groups):
    print(f"| {'class':<16} | n | rejected | failed | partial | low conf. | ok | caught or flagged | recall ok | recall partial | recall flagged/failed | mean readConfidence |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, rows in groups.items():
        n = len(rows)
        st = collections.Counter(r["status"] for r in rows)
        low = sum(1 for r in rows if r["lowconf"] and r["status"] == "ok")
        okr = [r for r in rows if verdict(r) == "ok"]
        flag = sum(1 for r in rows if verdict(r) != "ok")
        print(f"| {name:<16} | {n} | {st['rejected'] + st['error']} | {st['failed']} | {st['partial']} | {low} | {len(okr)} | "
              f"{flag}/{n} = {flag / max(1, n):.0%} | {fmt(mean(r['recall'] for r in okr))} | "
              f"{fmt(mean(r['recall'] for r in rows if r['status'] == 'partial'))} | "
              f"{fmt(mean(r['recall'] for r in rows if r['status'] == 'failed' or (r['status'] == 'ok' and r['lowconf'])))} | "
              f"{fmt(mean(r['readConfidence'] for r in rows if r['status'] not in ('rejected', 'error')))} |")


def calibration(rows):
    rows = [r for r in rows if r["recall"] is not None and r["readConfidence"] is not None]
    if not rows:
        print("(no readConfidence in the results)")
        return
    print("| readConfidence bin | photos | mean readConfidence | mean word recall |")
    print("| --- | --- | --- | --- |")
    for lo in [0.0, 0.2, 0.4, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95]:
        hi = {0.0: 0.2, 0.2: 0.4, 0.4: 0.6, 0.6: 0.7, 0.7: 0.8, 0.8: 0.85, 0.85: 0.9, 0.9: 0.95, 0.95: 1.01}[lo]
        b = [r for r in rows if lo <= r["readConfidence"] < hi]
        if b:
            print(f"| {lo:.2f}–{min(hi, 1):.2f} | {len(b)} | {mean(r['readConfidence'] for r in b):.3f} | {mean(r['recall'] for r in b):.3f} |")
    mae = mean(abs(r["readConfidence"] - r["recall"]) for r in rows)
    print(f"mean |readConfidence − recall| = {mae:.3f} over {len(rows)} photos")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, ".build", "release", "menuscan"))
    ap.add_argument("--seed", type=int, default=1701)
    ap.add_argument("--n", type=int, default=12)
    ap.add_argument("--part", default="check", choices=["check", "tune", "all"])
    ap.add_argument("--work", default="/tmp/menuscan-read-quality")
    ap.add_argument("--csv")
    ap.add_argument("--no-real", action="store_true")
    ap.add_argument("--no-generated", action="store_true")
    ap.add_argument("--real-limit", type=int, default=0, help="with --real-scan: only the first K photos of each real set")
    ap.add_argument("--take", type=int, default=0, help="only the first K photos of each generated class")
    ap.add_argument("--real-scan", action="store_true",
                    help="scan the real sets (status, recall); default: only the gate (menuscan check) for false rejects")
    args, extra = ap.parse_known_args()
    extra = [e for e in extra if e != "--"]
    tag = "-".join(e.strip("-") for e in extra) or "default"
    all_rows = []
    if not args.no_generated:
        gen = os.path.join(args.work, f"gen-{args.seed}-{args.n}")
        if not os.path.exists(os.path.join(gen, "done")):
            subprocess.run([sys.executable, os.path.join(ROOT, "Benchmarks", "gen_photos.py"), gen, str(args.n),
                            "--degraded", "--seed", str(args.seed)], check=True)
            open(os.path.join(gen, "done"), "w").close()
        photos = sorted(p for p in glob.glob(os.path.join(gen, "*")) if p.lower().endswith(IMG)
                        and (not args.take or int(os.path.splitext(p)[0].rsplit("-", 1)[1]) < args.take))
        out = scan(args.bin, photos, os.path.join(args.work, f"out-gen-{args.seed}-{args.n}-{args.take}-{tag}"), extra)
        groups = collections.OrderedDict()
        for p in photos:
            row = result_row(out, p, os.path.splitext(p)[0] + ".gt.txt")
            if row is None:
                continue
            meta = json.load(open(os.path.splitext(p)[0] + ".meta.json"))
            row["set"] = "generated:" + meta["class"]
            row["visible_share"] = meta["visible_share"]
            groups.setdefault(meta["class"], []).append(row)
            all_rows.append(row)
        print(f"## Generated photos, seed {args.seed}, {args.take or args.n} per class ({os.path.basename(args.bin)} scan {' '.join(extra)})\n")
        table(groups)
        print()
    if not args.no_real and not args.real_scan:
        sets = real_sets(args.part)
        print(f"## Real photos, {args.part} part (sha1(stem) % 3 == 0 → check): the gate alone (menuscan check)\n")
        gate_extra = [e for e in extra if e.startswith("--min-") or e.startswith("--max-") or (extra.index(e) > 0 and extra[extra.index(e) - 1].startswith(("--min-", "--max-")))]
        for name, paths in sets.items():
            res = subprocess.run(["nice", args.bin, "check", "--json", *gate_extra, *paths], capture_output=True, text=True)
            rows = {}
            for line in res.stdout.splitlines():
                if line.startswith("{"):
                    r = json.loads(line)
                    rows[r["path"]] = r
            rej = [os.path.basename(p) + " (" + " ".join(d["kind"] for d in rows[p]["report"]["defects"]) + ")"
                   for p in paths if p in rows and rows[p].get("report") and rows[p]["report"]["verdict"] != "ok"]
            print(f"false rejects {name}: {len(rej)}/{len(paths)} = {len(rej) / max(1, len(paths)):.1%} {rej}")
        print()
    if not args.no_real and args.real_scan:
        sets = real_sets(args.part, args.real_limit)
        groups = collections.OrderedDict()
        for name, paths in sets.items():
            out = scan(args.bin, paths, os.path.join(args.work, f"out-real-{args.part}-{name.split()[0]}-{tag}"), extra)
            for p in paths:
                row = result_row(out, p, os.path.splitext(p)[0] + ".gt.txt")
                if row is None:
                    continue
                row["set"] = name
                groups.setdefault(name, []).append(row)
                all_rows.append(row)
        print(f"## Real photos, {args.part} part (sha1(stem) % 3 == 0 → check)\n")
        table(groups)
        for name, paths in sets.items():
            print(f"{name} in this part ({len(paths)}): {' '.join(os.path.splitext(os.path.basename(p))[0] for p in paths)}")
        for name, rows in groups.items():
            rej = [r["name"] + " (" + r["defects"] + ")" for r in rows if r["status"] == "rejected"]
            print(f"false rejects {name}: {len(rej)}/{len(rows)} = {len(rej) / max(1, len(rows)):.1%} {rej}")
        print("\nPer real menu: what flags it, and how much the read missed (word recall vs the hand transcription)\n")
        print("| menu | status | findings | regions | readConfidence | recall |")
        print("| --- | --- | --- | --- | --- | --- |")
        for r in groups.get("menus (clean)", []):
            print(f"| {r['name'][-40:]} | {r['status']}{' +lowConf' if r['lowconf'] else ''} | {r['findings']} | {r['regions']} | "
                  f"{fmt(r['readConfidence'])} | {fmt(r['recall'])} |")
        print()
    print("## Calibration (photos with ground truth that were read)\n")
    calibration(all_rows)
    bad = [r for r in all_rows if r["recall"] is not None and r["recall"] < 0.7 and verdict(r) == "ok"
           and (r["readConfidence"] if r["readConfidence"] is not None else (r["meanConfidence"] or 0)) > HIGH]
    print(f"\nword recall < 0.7 reported ok with high (> {HIGH}) readConfidence (meanConfidence where absent): "
          f"{len(bad)} {[(r['name'], round(r['recall'], 2)) for r in bad]}")
    if args.csv:
        keys = sorted({k for r in all_rows for k in r})
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=keys)
            w.writeheader()
            w.writerows(all_rows)


if __name__ == "__main__":
    main()
