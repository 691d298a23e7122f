#!/usr/bin/env bash
# Throughput of `menuscan scan` against the tesseract CLI, in one run.
# usage: Benchmarks/throughput.sh [IMAGE_DIR]   (default ../shared/eval/receipts)
# Prints wall seconds and images/second for:
#   cli-serial      tesseract IMAGE OUT, one after another, default OpenMP threading
#   cli-xargs-P2    tesseract with OMP_THREAD_LIMIT=1, two processes at a time (xargs -P2)
#   menuscan-j2     menuscan scan --jobs 2 (re-executes itself with OMP_THREAD_LIMIT=1)
#   menuscan-j2-omp menuscan scan --jobs 2 with OMP_THREAD_LIMIT=2 set by the user (OpenMP on)
#   menuscan-j1     menuscan scan --jobs 1
set -eu
cd "$(dirname "$0")/.."
dir=${1:-../shared/eval/receipts}
bin=.build/release/menuscan
[ -x "$bin" ] || swift build -c release --product menuscan >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
list=$(find "$dir" -maxdepth 1 -type f \( -iname '*.png' -o -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.tif' -o -iname '*.tiff' \) | sort)
n=$(echo "$list" | grep -c .)
now() { date +%s.%N; }
report() { printf '%-16s %7.1f s  %6.2f images/s\n' "$1" "$2" "$(echo "$n / $2" | bc -l)"; }
echo "images: $n from $dir, $(nproc) cores, $(tesseract --version 2>&1 | head -1)"

t0=$(now)
env -u OMP_THREAD_LIMIT bash -c 'for f in $0; do tesseract "$f" "$1/$(basename "${f%.*}")" >/dev/null 2>&1; done' "$list" "$work" || true
report cli-serial "$(echo "$(now) - $t0" | bc)"

t0=$(now)
echo "$list" | OMP_THREAD_LIMIT=1 xargs -P 2 -I{} sh -c 'tesseract "$1" "$2/$(basename "${1%.*}")" >/dev/null 2>&1' _ {} "$work"
report cli-xargs-P2 "$(echo "$(now) - $t0" | bc)"

# run NAME JOBS [OMP_THREAD_LIMIT value, empty = leave it to menuscan]
run() {
  rm -rf "$work/out"
  local t0; t0=$(now)
  if [ -n "${3:-}" ]; then
    OMP_THREAD_LIMIT=$3 "$bin" scan "$dir" --out "$work/out" --jobs "$2" --quiet >/dev/null 2>&1 || true
  else
    env -u OMP_THREAD_LIMIT "$bin" scan "$dir" --out "$work/out" --jobs "$2" --quiet >/dev/null 2>&1 || true
  fi
  report "$1" "$(echo "$(now) - $t0" | bc)"
}
run menuscan-j2 2
run menuscan-j2-omp 2 2
run menuscan-j1 1
