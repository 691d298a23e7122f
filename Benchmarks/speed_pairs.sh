#!/usr/bin/env bash
# The expert shell against the default pipeline, alternating (issue 16).
# usage: Benchmarks/speed_pairs.sh IMAGE_DIR [PAIRS=3] [BIN=.build/release/menuscan] [BIN2 …]
#   each BIN may carry scan flags: "BIN --no-retry-inverted".
# Each pair runs, one after the other:
#   cli   the expert shell: tesseract IMAGE OUT, OMP_THREAD_LIMIT=1, xargs -P2
#   BIN   `menuscan scan DIR --jobs 2` with every default stage (then BIN2 … when given)
# and prints per run wall seconds, CPU seconds (user+sys of the run and its
# children) and photos/s; then per command the median wall, median CPU, median
# photos/s and the ratio of photos/s to the CLI's (median of the per-pair ratios,
# so a busy moment on the shared machine weighs on both sides of one pair).
# The machine is shared: wall time is noisy, CPU seconds much less so.
set -eu
cd "$(dirname "$0")/.."
dir=$1; pairs=${2:-3}; bins=("${3:-.build/release/menuscan}"); [ $# -ge 4 ] && bins+=("${@:4}")
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
list=$(find -L "$dir" -maxdepth 1 -type f \( -iname '*.png' -o -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.tif' -o -iname '*.tiff' -o -iname '*.heic' \) | sort)
n=$(echo "$list" | grep -c .)
echo "photos: $n from $dir, $(nproc) cores, pairs: $pairs"
timed() {  # NAME CMD…  → appends "NAME wall cpu" to $work/log
  local name=${1// /_}; shift
  /usr/bin/time -f "%e %U %S" -o "$work/t" "$@" >/dev/null 2>&1 || true
  read -r wall user sys < <(tail -1 "$work/t")
  printf '%-28s %7.2f s wall %7.2f s cpu %6.2f photos/s\n' "$name" "$wall" "$(echo "$user + $sys" | bc)" "$(echo "$n / $wall" | bc -l)"
  echo "$name $wall $(echo "$user + $sys" | bc)" >> "$work/log"
}
for p in $(seq 1 "$pairs"); do
  rm -rf "$work/cli"; mkdir -p "$work/cli"
  timed cli env OMP_THREAD_LIMIT=1 bash -c 'echo "$0" | xargs -P 2 -I{} sh -c '"'"'tesseract "$1" "$2/$(basename "${1%.*}")" >/dev/null 2>&1'"'"' _ {} "$1"' "$list" "$work/cli"
  for b in "${bins[@]}"; do
    rm -rf "$work/out"
    read -r -a cmd <<< "$b"
    timed "$b" env -u OMP_THREAD_LIMIT "${cmd[0]}" scan "$dir" --out "$work/out" --jobs 2 --quiet "${cmd[@]:1}"
  done
done
python3 - "$work/log" "$n" <<'PY'
import sys, statistics as st
rows = [l.split() for l in open(sys.argv[1])]
n = int(sys.argv[2])
names = list(dict.fromkeys(r[0] for r in rows))
runs = {k: [(float(r[1]), float(r[2])) for r in rows if r[0] == k] for k in names}
cli = runs["cli"]
for k in names:
    w = [a for a, _ in runs[k]]; c = [b for _, b in runs[k]]
    ratio = st.median([cw / kw for (cw, _), (kw, _) in zip(cli, runs[k])])
    cpu_ratio = st.median([cc / kc for (_, cc), (_, kc) in zip(cli, runs[k])])
    print("median %-28s wall %7.2f s  cpu %7.2f s  %5.2f photos/s  x%.2f of cli (wall)  x%.2f (cpu)" % (k, st.median(w), st.median(c), n / st.median(w), ratio, cpu_ratio))
PY
