#!/usr/bin/env bash
# Instruction counts of the pipeline and of the tesseract CLI on the same photos
# (issue 16, round 4). Counts do not depend on the load of the shared machine.
# usage: Benchmarks/callgrind_profile.sh IMAGE_DIR OUT_DIR [BIN=.build/release/menuscan] [scan flags…]
#   OUT_DIR/ours/cg.PID   callgrind of `menuscan scan IMAGE_DIR --jobs 1 --in-process`
#                         (one process: worker start and every photo), on a `strip -g`
#                         copy of BIN (valgrind cannot read the Swift DWARF; the symbol
#                         table stays, so functions are named)
#   OUT_DIR/cli/cg.NAME   callgrind of `tesseract PHOTO OUT` per photo (the expert shell's work)
# then prints the per-stage table (Benchmarks/callgrind_stages.py) and the CLI's total.
# OMP_THREAD_LIMIT=1 for both (as the expert shell; it also stops menuscan's re-exec).
# Slow: about 50× the run's CPU time.
set -eu
cd "$(dirname "$0")/.."
dir=$1; out=$2; bin=${3:-.build/release/menuscan}; shift $(( $# < 3 ? $# : 3 ))
mkdir -p "$out/ours" "$out/cli"
strip -g -o "$out/menuscan-strip" "$bin"
rm -rf "$out/ours/"* "$out/cli/"* "$out/scan"
OMP_THREAD_LIMIT=1 valgrind --tool=callgrind --callgrind-out-file="$out/ours/cg.%p" \
  "$out/menuscan-strip" scan "$dir" --out "$out/scan" --jobs 1 --in-process --quiet --timeout 100000 "$@" > "$out/ours.log" 2>&1 || true
for f in $(find -L "$dir" -maxdepth 1 -type f \( -iname '*.png' -o -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.tif' -o -iname '*.tiff' \) | sort); do
  name=$(basename "$f")
  OMP_THREAD_LIMIT=1 valgrind --tool=callgrind --callgrind-out-file="$out/cli/cg.$name" \
    tesseract "$f" "$out/cli/${name%.*}" > /dev/null 2>&1 || true
done
python3 Benchmarks/callgrind_stages.py "$out"/ours/cg.*
python3 Benchmarks/callgrind_stages.py --cli "$out/cli"
