#!/usr/bin/env bash
# Batch scale: peak RSS at a small and a large folder, throughput at --jobs 1 and 2.
# usage: Benchmarks/batch-scale.sh [SMALL=100] [LARGE=10000] [THROUGHPUT_SET=1000]
# Photos are generated (Benchmarks/gen_photos.py, Pillow) into /tmp/menuscan-scale-N
# once and reused. Peak RSS is read two ways: the run's own VmHWM
# (summary.json peakRSSBytes) and GNU time's maximum resident set size.
set -eu
cd "$(dirname "$0")/.."
small=${1:-100}
large=${2:-10000}
tset=${3:-1000}
bin=.build/release/menuscan
[ -x "$bin" ] || swift build -c release --product menuscan >/dev/null
gen() { [ -d "/tmp/menuscan-scale-$1" ] || python3 Benchmarks/gen_photos.py "/tmp/menuscan-scale-$1" "$1"; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "$(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"

# run N JOBS: prints photos, wall s, photos/s, VmHWM MiB, GNU time max RSS MiB
run() {
  gen "$1"
  rm -rf "$work/out"
  OMP_THREAD_LIMIT=1 /usr/bin/time -f "%M" -o "$work/time" "$bin" scan "/tmp/menuscan-scale-$1" --out "$work/out" --jobs "$2" --quiet || true
  python3 - "$work/out/summary.json" "$(cat "$work/time")" "$1" "$2" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
print("photos=%-6s jobs=%s  ok=%d  wall=%.1fs  %.1f photos/s  peak RSS: VmHWM %.1f MiB, time(1) %.1f MiB" % (
    sys.argv[3], sys.argv[4], s["counts"]["ok"], s["wallSeconds"], s["photosPerSecond"],
    s["peakRSSBytes"] / 2**20, int(sys.argv[2]) / 1024))
PY
}
echo "memory (--jobs 2):"
run "$small" 2
run "$large" 2
echo "throughput ($tset photos):"
run "$tset" 1
run "$tset" 2
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
