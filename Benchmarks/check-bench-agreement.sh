#!/usr/bin/env bash
# Checks that the bench's accuracy metrics (MenuScanKit TextMetrics/BenchReport)
# agree with shared/eval/tools/score.py, the script behind BASELINES.md.
# For each evaluation set with ground truth it makes perturbed copies of the
# ground truth (Benchmarks/bench_perturb.py), scores them with score.py --json, and
# runs the gated Swift test BenchScoreAgreementTests on the same files, which
# compares per-page CER/WER (to 1e-12) and the totals (to score.py's 4 decimals).
# Needs python3 with rapidfuzz (pip install rapidfuzz) and ../shared/eval.
# usage: Benchmarks/check-bench-agreement.sh [SEED]
set -euo pipefail
cd "$(dirname "$0")/.."
eval_dir="${MENUSCAN_EVAL:-../shared/eval}"
seed="${1:-4}"
[ -d "$eval_dir" ] || { echo "no $eval_dir: nothing to check"; exit 0; }
python3 -c 'import rapidfuzz' 2>/dev/null || { echo "score.py needs rapidfuzz: pip install rapidfuzz"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
entries=()
for set in receipts documents menus; do
  gt="$(cd "$eval_dir/$set" && pwd)"
  python3 Benchmarks/bench_perturb.py "$gt" "$work/$set" --seed "$seed"
  python3 "$eval_dir/tools/score.py" "$gt" "$work/$set" --json > "$work/$set.score.json"
  entries+=("{\"set\": \"$set\", \"gt\": \"$gt\", \"pred\": \"$work/$set\", \"score\": \"$work/$set.score.json\"}")
done
(IFS=,; echo "[${entries[*]}]") > "$work/manifest.json"
MENUSCAN_AGREEMENT_MANIFEST="$work/manifest.json" MENUSCAN_AGREEMENT_OUT="$work/result.json" \
  swift test --filter BenchScoreAgreementTests 2>&1 | grep -E "✔|✘|error|passed|failed" | grep -v "^Test Suite"
python3 - "$work/result.json" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))
keys = ["cer", "wer", "cer_mean", "wer_mean", "word_recall", "word_precision"]
print("| set | pages | pages differing | max page dCER | max page dWER | " + " | ".join(f"{k} bench / score.py" for k in keys) + " |")
print("|---" * (5 + len(keys)) + "|")
for r in rows:
    t = r["totals"]
    print(f"| {r['set']} | {r['pages']} | {r['pagesDiffering']} | {r['maxPageCERDifference']:.1e} | {r['maxPageWERDifference']:.1e} | "
          + " | ".join(f"{t[k][0]:.4f} / {t[k][1]:.4f}" for k in keys) + " |")
PY
