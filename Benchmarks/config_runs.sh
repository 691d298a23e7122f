#!/usr/bin/env bash
# Accuracy and CPU seconds of `menuscan scan` with different flags on one set
# (issue 16): per config, the default pipeline (--jobs 2) plus the config's flags,
# scored on the tune and check parts (Benchmarks/score_split.py) with the CPU
# seconds (user+sys, workers included) and wall seconds of the run.
# usage: Benchmarks/config_runs.sh GT_DIR OUT_PREFIX 'LABEL:--flag --flag' ['LABEL2:' …]
# (GT_DIR holds the photos and NAME.gt.txt; OUT_PREFIX-LABEL/ gets each run's output.)
set -eu
cd "$(dirname "$0")/.."
gt=$1; prefix=$2; shift 2
bin=${BIN:-.build/release/menuscan}
for spec in "$@"; do
  label=${spec%%:*}; flags=${spec#*:}
  out=$prefix-$label; rm -rf "$out"
  # shellcheck disable=SC2086
  /usr/bin/time -f "%e %U %S" -o "$out.time" env -u OMP_THREAD_LIMIT "$bin" scan "$gt" --out "$out" --jobs 2 --quiet $flags >/dev/null 2>&1 || true
  read -r wall user sys < <(tail -1 "$out.time")
  n=$(find "$out" -maxdepth 1 -name '*.json' ! -name 'summary*' | wc -l)
  printf '%-14s %-40s cpu %7.1f s (%.3f s/photo)  wall %7.1f s  photos %d\n' "$label" "$flags" "$(echo "$user + $sys" | bc)" "$(echo "($user + $sys) / $n" | bc -l)" "$wall" "$n"
  python3 Benchmarks/score_split.py "$gt" "$out" | sed 's/^/    /'
done
