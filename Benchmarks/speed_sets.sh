#!/usr/bin/env bash
# Builds the photo sets the issue-16 speed figures use (symlinks, no copies).
# usage: Benchmarks/speed_sets.sh [OUT=/tmp/c16] [EVAL=../shared/eval]
#   OUT/rec20    the first 20 tune receipts by name (Benchmarks/evalsplit.py)
#   OUT/men-all  every photo of EVAL/menus (32: the contact sheet and the HEIC
#                photo included; the CLI cannot open the HEIC one)
#   OUT/rec6     the six receipts the callgrind profiles use (first six tune by name)
#   OUT/men4     the four tune menus with ground truth the callgrind profiles use
set -eu
cd "$(dirname "$0")/.."
out=${1:-/tmp/c16}; eval_dir=$(realpath "${2:-../shared/eval}")
mkdir -p "$out/rec20" "$out/men-all" "$out/rec6" "$out/men4"
python3 - "$eval_dir/receipts" "$out" <<'PY'
import os, sys
sys.path.insert(0, "Benchmarks")
from evalsplit import is_check
src, out = sys.argv[1], sys.argv[2]
tune = sorted(f for f in os.listdir(src) if f.endswith(".jpg") and not is_check(os.path.splitext(f)[0]))
for sub, names in (("rec20", tune[:20]), ("rec6", tune[:6])):
    for f in names:
        dst = os.path.join(out, sub, f)
        if not os.path.lexists(dst):
            os.symlink(os.path.join(src, f), dst)
PY
for f in "$eval_dir"/menus/*; do
  case "${f,,}" in *.png|*.jpg|*.jpeg|*.tif|*.tiff|*.heic) ln -sf "$f" "$out/men-all/$(basename "$f")";; esac
done
for stem in client__src__components__Interface__sampleMenu__sample2 client__src__components__Interface__sampleMenu__sample4 \
            test_images__Bacon-Truck-Cafe-Menu-2018-1 test_images__speisekarte; do
  ln -sf "$(ls "$eval_dir/menus/$stem".* | grep -v -E '\.(txt|json)$')" "$out/men4/"
done
for d in rec20 men-all rec6 men4; do echo "$out/$d: $(ls "$out/$d" | wc -l) photos"; done
