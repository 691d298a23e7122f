#!/usr/bin/env bash
# Time of the structure stage (line segments, role features, roles, items; no
# allergen classification) per photo, on OCR pages cached by
# Benchmarks/structure_eval.py (or any folder of OCR page JSONs).
# usage: Benchmarks/structure_time.sh PAGES_DIR [BIN] [REPEATS]
set -eu
dir=${1:?folder of *.page.json}
bin=${2:-.build/release/menuscan}
n=${3:-20}
for p in "$dir"/*.page.json; do
  printf '%s\t%s\n' "$(basename "$p" .page.json | tail -c 40)" "$("$bin" classify --page "$p" --time-structure "$n")"
done
