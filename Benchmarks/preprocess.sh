#!/usr/bin/env bash
# Accuracy and speed of the preprocessing stages on ../shared/eval, in one run:
# the plain tesseract CLI, menuscan with every stage off, with orientation and
# rescaling, with the second line-recovery pass too, and with reading order
# (the default pipeline). The quality gate is
# set to warn so every photo is read (like the CLI). Scored with the same
# metrics as ../shared/eval/tools/score.py (menuscan bench's are checked
# against it by Benchmarks/check-bench-agreement.sh).
# usage: Benchmarks/preprocess.sh [OUT_DIR]
set -eu
cd "$(dirname "$0")/.."
out=${1:-/tmp/menuscan-preprocess}
eval_dir=../shared/eval
bin=.build/release/menuscan
[ -x "$bin" ] || swift build -c release --product menuscan >/dev/null
python3 -c 'import rapidfuzz' 2>/dev/null || pip install -q rapidfuzz
mkdir -p "$out/menus-gt"
for gt in "$eval_dir"/menus/*.gt.txt; do
  base=${gt%.gt.txt}
  for img in "$base".*; do case "$img" in *.gt.txt|*.items.json) ;; *) ln -sf "$(realpath "$img")" "$out/menus-gt/"; esac; done
  ln -sf "$(realpath "$gt")" "$out/menus-gt/"
done
for set in menus-gt receipts documents; do
  dir=$eval_dir/$set; [ "$set" = menus-gt ] && dir=$out/menus-gt
  # The plain CLI, one process per image, OMP_THREAD_LIMIT=1, two at a time.
  mkdir -p "$out/$set-cli"
  t0=$(date +%s.%N)
  find "$dir" -maxdepth 1 \( -name '*.jpg' -o -name '*.png' -o -name '*.tif' \) | sort | \
    OMP_THREAD_LIMIT=1 xargs -P 2 -I{} sh -c 'tesseract "$1" "$2/$(basename "${1%.*}")" >/dev/null 2>&1' _ {} "$out/$set-cli"
  t1=$(date +%s.%N)
  n=$(find "$dir" -maxdepth 1 \( -name '*.jpg' -o -name '*.png' -o -name '*.tif' \) | wc -l)
  printf '%s tesseract-cli: %s images/s %s\n' "$set" "$(echo "$n / ($t1 - $t0)" | bc -l | cut -c1-5)" \
    "$(python3 "$eval_dir/tools/score.py" "$dir" "$out/$set-cli")"
  "$bin" bench "$dir" --out "$out/$set" --quiet --jobs 2 \
    --config off:rotate=off,rescale=off,recover=off,order=off,quality=warn,menu=off \
    --config orient+scale:recover=off,order=off,quality=warn,menu=off \
    --config +recover:order=off,quality=warn,menu=off \
    --config all:quality=warn,menu=off > "$out/$set.md"
  grep -E '^\|  \||CER \(total|WER \(total|CER \(mean|word recall|word precision|photos per second' "$out/$set.md" | grep -v '^| photo |' | sed "s/^/$set /"
done
