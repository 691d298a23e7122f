#!/bin/sh
# Photo-path allergen safety on the held-out written sets drawn as menu photos.
#
# Draws each set in Benchmarks/data (heldout*_menu_items.json) with
# `gen_menus.py --from-labels` (layout seed 12, fixed), scans every photo of the
# chosen part with `menuscan scan --allergens <all 14>` and scores the items
# against the written labels (Benchmarks/allergen_photo_eval.py --pipeline --dir).
# The split is each set's own (sha1 of the menu id; modulus 2 for set 3, 3 for
# the others): report the check part, look at the tune part.
#
# With WRAP=1 each set is drawn with its long names set over two lines (gen_menus.py
# --wrap-names) into OUT/setN-wrap, and reported as "set N wrapped".
#
# Usage: [WRAP=1] sh Benchmarks/drawn_safety.sh [OUT=/tmp/menuscan-drawn] [PART=check] [BIN=.build/release/menuscan]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-/tmp/menuscan-drawn}
part=${2:-check}
bin=${3:-$here/../.build/release/menuscan}
for n in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19; do
  f=$here/data/heldout${n}_menu_items.json
  [ "$n" = 1 ] && f=$here/data/heldout_menu_items.json
  [ -f "$f" ] || continue
  m=3; [ "$n" = 3 ] && m=2
  d=set$n; label="set $n"; flags=""
  if [ "${WRAP:-0}" = 1 ]; then d=set$n-wrap; label="set $n wrapped"; flags=--wrap-names; fi
  [ -d "$out/$d" ] || python3 "$here/gen_menus.py" "$out/$d" --from-labels "$f" --seed 12 $flags >/dev/null
  python3 "$here/allergen_photo_eval.py" --bin "$bin" --pipeline --dir "$out/$d" --modulus $m --part "$part" > "$out/$d-$part.txt"
  printf '%s (%s): %s; recall %s; safe on truly-free %s\n' "$label" "$part" \
    "$(sed -n 's/^Wrong "safe" verdicts on matched items: //p' "$out/$d-$part.txt")" \
    "$(sed -n 's/^Recall on matched items (contains): //p' "$out/$d-$part.txt")" \
    "$(sed -n 's/^"Safe" on truly-free (item, allergen) pairs of matched items: //p' "$out/$d-$part.txt")"
done
