#!/usr/bin/env bash
# Throughput of `menuscan scan` against the tesseract CLI, in one run.
# usage: Benchmarks/throughput.sh [IMAGE_DIR]   (default ../shared/eval/receipts)
# Prints wall seconds and images/second for:
#   cli-serial      tesseract IMAGE OUT, one after another, default OpenMP threading
#   cli-xargs-P2    tesseract with OMP_THREAD_LIMIT=1, two processes at a time (xargs -P2)
#   menuscan-core-*  the OCR core alone (quality, OSD, rescale, recovery, menu off)
#                    at --jobs 2 (re-executes itself with OMP_THREAD_LIMIT=1), at --jobs 2 with
#                    OMP_THREAD_LIMIT=2 set by the user (OpenMP on), and at --jobs 1
#   menuscan-full-*  the default pipeline at --jobs 2 and --jobs 1
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

# run NAME JOBS OMP [menuscan flags…]  (OMP empty = leave OMP_THREAD_LIMIT to menuscan)
run() {
  local name=$1 jobs=$2 omp=$3; shift 3
  rm -rf "$work/out"
  local t0; t0=$(now)
  if [ -n "$omp" ]; then
    OMP_THREAD_LIMIT=$omp "$bin" scan "$dir" --out "$work/out" --jobs "$jobs" --quiet "$@" >/dev/null 2>&1 || true
  else
    env -u OMP_THREAD_LIMIT "$bin" scan "$dir" --out "$work/out" --jobs "$jobs" --quiet "$@" >/dev/null 2>&1 || true
  fi
  report "$name" "$(echo "$(now) - $t0" | bc)"
}
core="--quality off --no-rotate --no-rescale --no-recover --no-menu"
run menuscan-core-j2 2 "" $core          # the OCR core alone, OMP_THREAD_LIMIT=1 by re-exec
run menuscan-core-j2-omp 2 2 $core       # the same with OpenMP threads allowed (user-set OMP_THREAD_LIMIT=2)
run menuscan-core-j1 1 "" $core
run menuscan-full-j2 2 ""                # every stage: quality, OSD, rescale, recovery, menu, hotspots
run menuscan-full-j1 1 ""
