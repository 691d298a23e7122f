#!/usr/bin/env bash
# Accuracy of `menuscan scan` per page segmentation mode on ../shared/eval,
# scored with ../shared/eval/tools/score.py (same metric as BASELINES.md).
# usage: Benchmarks/psm.sh [PSM...]   (default: 3 4 6 11 12)
set -eu
cd "$(dirname "$0")/.."
eval_dir=../shared/eval
bin=.build/release/menuscan
[ -x "$bin" ] || swift build -c release >/dev/null
python3 -c 'import rapidfuzz' 2>/dev/null || pip install -q rapidfuzz
work=${WORK:-/tmp/menuscan-psm}
modes=${*:-3 4 6 11 12}
for set in receipts documents menus; do
  for psm in $modes; do
    out=$work/$set-psm$psm
    rm -rf "$out"
    start=$(date +%s.%N)
    "$bin" scan "$eval_dir/$set" --out "$out" --psm "$psm" --quiet >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    printf '%-10s psm=%-3s %6.1fs  %s\n' "$set" "$psm" "$(echo "$end - $start" | bc)" \
      "$(python3 "$eval_dir/tools/score.py" "$eval_dir/$set" "$out")"
  done
done
