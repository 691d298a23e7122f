#!/usr/bin/env python3
"""Generate N small menu-like photos for batch benchmarks (memory, throughput).

usage: Benchmarks/gen_photos.py OUT_DIR N [--per-folder 500]
Writes OUT_DIR/dNN/menu-NNNNN.png: 360x110 px, two lines of dish names and
prices drawn with Pillow's default font. Never write these into the repo.
"""
import argparse
import os
import random

from PIL import Image, ImageDraw, ImageFont

DISHES = ["Tomato Soup", "Caesar Salad", "Grilled Salmon", "Mushroom Risotto", "Chicken Satay",
          "Almond Tart", "Fruit Sorbet", "Garlic Prawns", "Steak Frites", "Vegetable Curry"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("n", type=int)
    ap.add_argument("--per-folder", type=int, default=500)
    args = ap.parse_args()
    rng = random.Random(7)
    try:
        font = ImageFont.load_default(size=22)
    except TypeError:  # Pillow < 10.1
        font = ImageFont.load_default()
    for i in range(args.n):
        folder = os.path.join(args.out, "d%02d" % (i // args.per_folder))
        os.makedirs(folder, exist_ok=True)
        img = Image.new("L", (360, 110), 255)
        d = ImageDraw.Draw(img)
        for row in range(2):
            dish = rng.choice(DISHES)
            d.text((12, 14 + row * 44), "%s %d.%02d" % (dish, rng.randint(4, 30), rng.choice([0, 50])), fill=0, font=font)
        img.save(os.path.join(folder, "menu-%05d.png" % i))


if __name__ == "__main__":
    main()
