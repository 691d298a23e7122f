#!/usr/bin/env python3
"""Regenerates the sample photos in this folder (MenuScan's own work, CC0).

Needs Pillow (`pip install pillow`) and DejaVu fonts (`apt-get install
fonts-dejavu-core`). The committed files are what the tests check; run this
only to change them, then update expected.json and the .gt.txt files.
"""
import io, json, math, os, random

from PIL import Image, ImageDraw, ImageFilter, ImageFont

HERE = os.path.dirname(os.path.abspath(__file__))
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
SERIF = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"

LUNCH = [
    ("STARTERS", [
        ("Tomato Soup", "roasted tomatoes, basil, cream", "6.50"),
        ("Caesar Salad", "romaine, parmesan, croutons, anchovy dressing", "9.00"),
        ("Hummus Plate", "chickpeas, tahini, warm pita bread", "7.50"),
    ]),
    ("MAINS", [
        ("Grilled Salmon", "lemon butter, green beans, new potatoes", "18.50"),
        ("Mushroom Risotto", "arborio rice, parmesan, thyme (V)", "14.00"),
        ("Chicken Satay", "peanut sauce, jasmine rice, cucumber", "15.50"),
        ("Tofu Stir Fry", "soy glaze, sesame, vegetables (VG)", "13.00"),
    ]),
    ("DESSERTS", [
        ("Almond Tart", "frangipane, vanilla ice cream", "7.00"),
        ("Fruit Sorbet", "mango and raspberry (VG)", "5.50"),
    ]),
]

DINNER = [
    ("SMALL PLATES", [
        ("Garlic Prawns", "chilli, white wine, sourdough", "11.00"),
        ("Burrata", "heirloom tomato, pesto, olive oil", "10.50"),
        ("Falafel", "sesame yoghurt, pickled onion", "8.00"),
    ]),
    ("LARGE PLATES", [
        ("Steak Frites", "sirloin, pepper sauce, fries", "26.00"),
        ("Fish and Chips", "battered cod, mushy peas, tartare", "17.50"),
        ("Vegetable Curry", "coconut, lentils, basmati rice", "14.50"),
    ]),
]


def render_menu(title, sections, width=1100, font_size=30, bg=255, ink=20):
    """A clean menu page: title, sections, items with dotted leaders and prices."""
    title_font = ImageFont.truetype(BOLD, int(font_size * 1.8))
    head_font = ImageFont.truetype(BOLD, int(font_size * 1.15))
    item_font = ImageFont.truetype(FONT, font_size)
    desc_font = ImageFont.truetype(SERIF, int(font_size * 0.8))
    lines = []  # (text or (name, price), font, y-gap-before)
    gt = [title]
    lines.append((title, title_font, 0))
    for head, items in sections:
        lines.append((head, head_font, int(font_size * 1.3)))
        gt.append(head)
        for name, desc, price in items:
            lines.append(((name, price), item_font, int(font_size * 0.5)))
            lines.append((desc, desc_font, int(font_size * 0.15)))
            gt.append(f"{name} {price}")
            gt.append(desc)
    margin = 80
    height = margin * 2 + sum(int(f.size * 1.35) + g for _, f, g in lines)
    img = Image.new("L", (width, height), bg)
    d = ImageDraw.Draw(img)
    y = margin
    for content, font, gap in lines:
        y += gap
        if isinstance(content, tuple):
            name, price = content
            d.text((margin, y), name, font=font, fill=ink)
            pw = d.textlength(price, font=font)
            d.text((width - margin - pw, y), price, font=font, fill=ink)
        elif font is title_font:
            tw = d.textlength(content, font=font)
            d.text(((width - tw) / 2, y), content, font=font, fill=ink)
        else:
            d.text((margin + (0 if font is head_font else 20), y), content, font=font, fill=ink)
        y += int(font.size * 1.35)
    return img, "\n".join(gt) + "\n"


def photo_like(img, seed=7):
    """Paper tint, uneven light, a small tilt, slight blur and sensor noise."""
    rnd = random.Random(seed)
    w, h = img.size
    rgb = Image.merge("RGB", [img.point(lambda v: int(v * 0.93 + 8)),
                              img.point(lambda v: int(v * 0.90 + 10)),
                              img.point(lambda v: int(v * 0.82 + 12))])
    rgb = rgb.rotate(1.8, resample=Image.BICUBIC, expand=True, fillcolor=(70, 60, 50))
    w, h = rgb.size
    shade = Image.new("L", (w, h))
    sd = shade.load()
    for yy in range(0, h, 4):
        for xx in range(0, w, 4):
            v = int(255 - 70 * ((xx / w) ** 1.5) - 30 * (yy / h))
            for dy in range(4):
                for dx in range(4):
                    if xx + dx < w and yy + dy < h:
                        sd[xx + dx, yy + dy] = v
    rgb = Image.composite(rgb, Image.new("RGB", (w, h), (0, 0, 0)), shade)
    rgb = rgb.filter(ImageFilter.GaussianBlur(0.8))
    px = rgb.load()
    for _ in range(w * h // 6):
        x, y = rnd.randrange(w), rnd.randrange(h)
        r, g, b = px[x, y]
        n = rnd.randint(-18, 18)
        px[x, y] = (max(0, min(255, r + n)), max(0, min(255, g + n)), max(0, min(255, b + n)))
    return rgb


def exif_orientation_bytes(value):
    """A minimal little-endian EXIF block holding only Orientation."""
    tiff = b"II*\x00" + (8).to_bytes(4, "little") + (1).to_bytes(2, "little")
    tiff += (0x0112).to_bytes(2, "little") + (3).to_bytes(2, "little") + (1).to_bytes(4, "little")
    tiff += value.to_bytes(2, "little") + b"\x00\x00" + (0).to_bytes(4, "little")
    return b"Exif\x00\x00" + tiff


GARDEN = [
    ("SOUPS", [
        ("Pea and Mint", "garden peas, fresh mint, creme fraiche", "6.00"),
        ("French Onion", "gruyere crouton, thyme", "6.50"),
    ]),
    ("MAINS", [
        ("Lamb Tagine", "apricot, almonds, couscous", "19.00"),
        ("Gnocchi", "sage butter, pumpkin, pecorino (V)", "15.00"),
        ("Sea Bass", "fennel, capers, olive oil", "21.50"),
        ("Bean Chilli", "black beans, rice, lime (VG)", "13.50"),
    ]),
    ("DESSERTS", [
        ("Lemon Posset", "shortbread, berries", "6.50"),
        ("Chocolate Pot", "salted caramel, cream", "7.00"),
    ]),
]


def partial_sample():
    """A menu whose lower part is out of focus: the top reads, the bottom does
    not (R5 partial results). Returns the image and the readable part's text."""
    img, gt = render_menu("GARDEN BISTRO", GARDEN, width=1000, font_size=28)
    w, h = img.size
    cut = int(h * 0.52)
    bottom = img.crop((0, cut, w, h)).filter(ImageFilter.GaussianBlur(7))
    img.paste(bottom, (0, cut))
    return img, gt


def main(only=None):
    if only == "menu-partial-blur":
        img, _ = partial_sample()
        img.save(os.path.join(HERE, "menu-partial-blur.jpg"), quality=75)
        return
    clean, clean_gt = render_menu("THE CORNER CAFE", LUNCH)
    clean.save(os.path.join(HERE, "menu-clean.png"), optimize=True)
    open(os.path.join(HERE, "menu-clean.gt.txt"), "w").write(clean_gt)

    dinner, dinner_gt = render_menu("HARBOUR KITCHEN", DINNER, width=1000, font_size=28)
    photo = photo_like(dinner)
    photo.save(os.path.join(HERE, "menu-photo.jpg"), quality=72)
    open(os.path.join(HERE, "menu-photo.gt.txt"), "w").write(dinner_gt)

    # Stored sideways: the pixels are turned 90° counter-clockwise and the
    # EXIF Orientation 6 says "rotate 90° clockwise to view".
    side, side_gt = render_menu("DRINKS", [("HOT", [
        ("Espresso", "double shot, arabica", "2.80"),
        ("Cappuccino", "whole milk or oat milk", "3.40"),
        ("Chai Latte", "cinnamon, cardamom, honey", "3.60")])], width=900, font_size=28)
    stored = side.rotate(90, expand=True)
    buf = io.BytesIO()
    stored.save(buf, "JPEG", quality=80, exif=exif_orientation_bytes(6))
    open(os.path.join(HERE, "menu-sideways-exif.jpg"), "wb").write(buf.getvalue())
    open(os.path.join(HERE, "menu-sideways-exif.gt.txt"), "w").write(side_gt)

    Image.new("L", (800, 600), 250).save(os.path.join(HERE, "blank.png"), optimize=True)

    # A photo cut off mid-transfer: the first third of a real JPEG.
    data = open(os.path.join(HERE, "menu-photo.jpg"), "rb").read()
    open(os.path.join(HERE, "corrupt.jpg"), "wb").write(data[: len(data) // 3])

    main("menu-partial-blur")


if __name__ == "__main__":
    import sys
    # `generate.py menu-partial-blur` writes only that sample.
    main(sys.argv[1] if len(sys.argv) > 1 else None)
