#!/usr/bin/env python3
"""Generate menu-like photos: small ones for batch benchmarks, or degraded
menu photos with exact word ground truth for read-quality measurements.

usage:
  Benchmarks/gen_photos.py OUT_DIR N [--per-folder 500]
      N small photos OUT_DIR/dNN/menu-NNNNN.png (360x110 px, two lines of
      dish names and prices, Pillow's default font): memory and throughput.
  Benchmarks/gen_photos.py OUT_DIR N --degraded [--seed S] [--classes a,b]
      N photos per class of degraded phone photos of generated menus:
      OUT_DIR/CLASS-SEED-NNN.jpg (or .png), with OUT_DIR/CLASS-SEED-NNN.gt.txt
      (every word drawn on the menu, one visual line per line) and
      OUT_DIR/CLASS-SEED-NNN.meta.json (class, degradation parameters, and the
      share of the menu's words still visible in the photo).

Seeds: 1701 is the fixed TEST seed (never tune on it); 4242 is the TUNE seed.
Classes: clean, blurry, too_dark, overexposed, low_resolution, glare,
cut_off, covered, perspective. Every class starts from the same kind of menu
(layouts, fonts and dishes drawn from the seed), so only the degradation
differs. Light-on-dark classes (only when named in --classes; issue 16):
dark_white (white text on a black page), dark_colour (coloured text, one
colour per line, on a dark page), chalkboard (chalk-white and pastel text,
rough strokes, on a textured dark green or slate board) and dark_panel (a
light page with one dark band of light text across it, as menus print their
headers and specials): the same menus with the same words, recoloured. Never write these into the repo. Needs Pillow and numpy.
"""
import argparse
import json
import math
import os
import random

from PIL import Image, ImageDraw, ImageFilter, ImageFont

DISHES = ["Tomato Soup", "Caesar Salad", "Grilled Salmon", "Mushroom Risotto", "Chicken Satay",
          "Almond Tart", "Fruit Sorbet", "Garlic Prawns", "Steak Frites", "Vegetable Curry"]

TEST_SEED = 1701
TUNE_SEED = 4242
CLASSES = ["clean", "blurry", "too_dark", "overexposed", "low_resolution", "glare",
           "cut_off", "covered", "perspective"]
# Light text on a dark background (issue 16): generated only when asked for by name.
DARK_CLASSES = ["dark_white", "dark_colour", "chalkboard", "dark_panel"]

# Vocabulary of generated menus: general culinary words (no file's wording).
MAINS = ["Chicken", "Beef", "Pork", "Lamb", "Salmon", "Tuna", "Prawn", "Shrimp", "Duck", "Tofu", "Halloumi",
         "Mushroom", "Vegetable", "Spinach", "Aubergine", "Cod", "Crab", "Lobster", "Turkey", "Chickpea",
         "Lentil", "Pumpkin", "Potato", "Tomato", "Onion", "Garlic", "Ricotta", "Goat Cheese", "Mozzarella"]
STYLES = ["Soup", "Salad", "Risotto", "Curry", "Burger", "Pasta", "Pizza", "Stew", "Skewers", "Tart",
          "Wrap", "Sandwich", "Pie", "Lasagne", "Gnocchi", "Ravioli", "Noodles", "Fritters", "Tacos",
          "Omelette", "Platter", "Bowl", "Steak", "Fillet", "Terrine", "Quiche", "Chowder"]
ADJ = ["Grilled", "Roasted", "Smoked", "Spicy", "Creamy", "Crispy", "Braised", "Fresh", "Classic",
       "Homemade", "Baked", "Glazed", "Seared", "Garden", "Rustic", "Golden", "Stuffed", "Poached"]
DESC = ["served", "with", "and", "fresh", "herbs", "lemon", "butter", "garlic", "toasted", "bread", "rice",
        "seasonal", "greens", "olive", "oil", "cream", "sauce", "roasted", "peppers", "chilli", "honey",
        "mustard", "dressing", "parmesan", "basil", "pesto", "walnuts", "almonds", "sesame", "ginger",
        "coriander", "lime", "yoghurt", "mint", "potatoes", "salad", "onions", "mushrooms", "cheese",
        "tomatoes", "spinach", "capers", "crispy", "bacon", "egg", "wild", "thyme", "rosemary", "side",
        "of", "our", "house", "daily", "soup", "sweet", "chips", "fries", "coleslaw", "gravy", "pickles"]
SECTIONS = ["Starters", "Mains", "Desserts", "Salads", "Soups", "Sides", "Pasta", "Grill", "Specials",
            "Drinks", "Breakfast", "Lunch", "Sandwiches", "From the Sea", "Vegetarian"]
TITLES = ["The Olive Tree", "Harbour Kitchen", "Rosie's Diner", "Green Garden Cafe", "Blue Door Bistro",
          "The Corner House", "Sunrise Grill", "Little Italy", "Market Table", "The Old Mill"]
FONT_DIR = "/usr/share/fonts/truetype/dejavu"
FONTS = ["DejaVuSans.ttf", "DejaVuSerif.ttf", "DejaVuSansCondensed.ttf", "DejaVuSerifCondensed.ttf"]
BOLD = {"DejaVuSans.ttf": "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf": "DejaVuSerif-Bold.ttf",
        "DejaVuSansCondensed.ttf": "DejaVuSansCondensed-Bold.ttf", "DejaVuSerifCondensed.ttf": "DejaVuSerifCondensed-Bold.ttf"}


def small_photos(args):
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


# --- generated menus -------------------------------------------------------

def font(name, size):
    return ImageFont.truetype(os.path.join(FONT_DIR, name), size)


def render_menu(rng):
    """A menu page (RGB) and its words: [(text, box)] in page pixels, in reading order, with line ids."""
    W, H = 1100, 1500
    paper = tuple(int(v) for v in (rng.uniform(238, 255), rng.uniform(232, 252), rng.uniform(220, 245)))
    page = Image.new("RGB", (W, H), paper)
    d = ImageDraw.Draw(page)
    ink = tuple(rng.randint(0, 50) for _ in range(3))
    face = rng.choice(FONTS)
    item_size = rng.randint(28, 36)
    desc_size = int(item_size * rng.uniform(0.72, 0.85))
    f_title, f_sec = font(BOLD[face], int(item_size * 1.8)), font(BOLD[face], int(item_size * 1.2))
    f_item, f_desc = font(BOLD[face] if rng.random() < 0.5 else face, item_size), font(face, desc_size)
    words, lines = [], []

    def draw(x, y, text, f):
        line = []
        cx = x
        space = d.textlength(" ", font=f)
        for w in text.split():
            d.text((cx, y), w, fill=ink, font=f)
            l, t, r, b = d.textbbox((cx, y), w, font=f)
            line.append((w, (l, t, r, b)))
            cx += d.textlength(w, font=f) + space
        words.extend(line)
        lines.append(" ".join(w for w, _ in line))
        return cx

    margin = rng.randint(60, 90)
    y = margin
    title = rng.choice(TITLES)
    tw = d.textlength(title, font=f_title)
    draw((W - tw) / 2, y, title, f_title)
    y += int(item_size * 3)
    columns = 2 if rng.random() < 0.35 else 1
    colw = (W - 2 * margin - 40 * (columns - 1)) // columns
    col, top = 0, y
    while True:
        x0 = margin + col * (colw + 40)
        sec = rng.choice(SECTIONS)
        if y + item_size * 4 > H - margin:
            if col + 1 < columns:
                col, y = col + 1, top
                continue
            break
        draw(x0, y, sec, f_sec)
        y += int(item_size * 1.9)
        for _ in range(rng.randint(3, 5)):
            if y + item_size * 3.2 > H - margin:
                break
            name = "%s %s %s" % (rng.choice(ADJ), rng.choice(MAINS), rng.choice(STYLES))
            price = "%d.%s" % (rng.randint(4, 32), rng.choice(["00", "50", "95", "25"]))
            draw(x0, y, name, f_item)
            pw = d.textlength(price, font=f_item)
            draw(x0 + colw - pw, y, price, f_item)
            y += int(item_size * 1.3)
            desc = " ".join(rng.choice(DESC) for _ in range(rng.randint(3, 7 if columns == 1 else 4)))
            # keep the description inside the column
            while d.textlength(desc, font=f_desc) > colw and " " in desc:
                desc = desc.rsplit(" ", 1)[0]
            draw(x0, y, desc, f_desc)
            y += int(item_size * 1.7)
        y += int(item_size * 0.8)
    return page, words, lines, item_size


def recolour(rng, cls, page, words):
    """The page with light text on a dark background (`cls` in DARK_CLASSES).
    Ink coverage (0 = paper, 1 = ink) is taken from the rendered page, so every
    word keeps its exact shape and box; only the colours change."""
    import numpy as np
    a = np.asarray(page.convert("L")).astype(np.float32)
    paper, ink = np.percentile(a, 99), a.min()
    cover = ((paper - a) / max(1.0, paper - ink)).clip(0, 1)
    H, W = cover.shape
    # one text colour per visual line (words of a line share their top)
    fg = np.zeros((H, W, 3), np.float32)
    lines = {}
    for w, (l, t, r, b) in words:
        lines.setdefault(round(t / 8), []).append((l, t, r, b))
    if cls == "dark_white":
        bg = np.array([rng.uniform(0, 30)] * 3, np.float32) + np.array([rng.uniform(0, 10) for _ in range(3)], np.float32)
        fg[:] = [rng.uniform(225, 255)] * 3
    elif cls == "dark_colour":
        bg = np.array([rng.uniform(0, 45), rng.uniform(0, 35), rng.uniform(0, 45)], np.float32)
        palette = [(255, 214, 90), (250, 250, 250), (120, 220, 255), (255, 140, 120), (150, 240, 150), (255, 170, 60)]
        fg[:] = palette[rng.randrange(len(palette))]
        for boxes in lines.values():
            col = palette[rng.randrange(len(palette))]
            l = int(min(b[0] for b in boxes)) - 4; t = int(min(b[1] for b in boxes)) - 4
            r = int(max(b[2] for b in boxes)) + 4; b_ = int(max(b[3] for b in boxes)) + 4
            fg[max(0, t):b_, max(0, l):r] = col
    elif cls == "chalkboard":
        green = rng.random() < 0.5
        bg = np.array([rng.uniform(30, 50), rng.uniform(55, 75), rng.uniform(45, 60)] if green
                      else [rng.uniform(40, 60)] * 3, np.float32)
        chalk = [(240, 240, 232), (250, 235, 160), (240, 190, 200), (190, 225, 250)]
        fg[:] = chalk[0]
        for boxes in lines.values():
            col = chalk[0] if rng.random() < 0.6 else chalk[rng.randrange(len(chalk))]
            l = int(min(b[0] for b in boxes)) - 4; t = int(min(b[1] for b in boxes)) - 4
            r = int(max(b[2] for b in boxes)) + 4; b_ = int(max(b[3] for b in boxes)) + 4
            fg[max(0, t):b_, max(0, l):r] = col
        g = np.random.default_rng(rng.randint(0, 2**31))
        # rough chalk strokes: coverage thinned at random, smeared board texture
        cover = cover * (0.65 + 0.35 * g.random(cover.shape).astype(np.float32))
        smear = Image.fromarray((g.random((H // 8 + 1, W // 8 + 1)) * 255).astype("uint8")).resize((W, H), Image.BILINEAR)
        texture = (np.asarray(smear).astype(np.float32) / 255 - 0.5) * rng.uniform(14, 26)
        bg = bg[None, None, :] + texture[:, :, None]
    else:  # dark_panel: one band of the light page turned dark, its text light
        out = np.asarray(page).astype(np.float32)
        top = int(H * rng.uniform(0.15, 0.55)); bottom = min(H, top + int(H * rng.uniform(0.2, 0.35)))
        band_bg = np.array([rng.uniform(10, 70), rng.uniform(10, 60), rng.uniform(10, 70)], np.float32)
        band_fg = np.array([rng.uniform(225, 255), rng.uniform(215, 250), rng.uniform(190, 240)], np.float32)
        c = cover[top:bottom, :, None]
        out[top:bottom] = band_bg * (1 - c) + band_fg * c
        return Image.fromarray(out.clip(0, 255).astype("uint8"))
    if bg.ndim == 1:
        bg = np.broadcast_to(bg, (H, W, 3))
    out = bg * (1 - cover[:, :, None]) + fg * cover[:, :, None]
    return Image.fromarray(out.clip(0, 255).astype("uint8"))


def phone_photo(rng, page, words):
    """Place the page on a table, slightly rotated, as a phone photo (RGB, ~1200x1600)."""
    W, H = 1240, 1640
    table = tuple(rng.randint(60, 150) for _ in range(3))
    photo = Image.new("RGB", (W, H), table)
    ox, oy = (W - page.width) // 2 + rng.randint(-20, 20), (H - page.height) // 2 + rng.randint(-20, 20)
    photo.paste(page, (ox, oy))
    words = [(w, (l + ox, t + oy, r + ox, b + oy)) for w, (l, t, r, b) in words]
    # uneven light: a soft gradient
    import numpy as np
    angle, depth = rng.uniform(0, 2 * math.pi), rng.uniform(0.05, 0.18)
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    ramp = (xx / W - 0.5) * math.cos(angle) + (yy / H - 0.5) * math.sin(angle) + 0.5
    gain = 1 - depth * ramp.clip(0, 1)
    photo = Image.fromarray((np.asarray(photo).astype(np.float32) * gain[:, :, None]).clip(0, 255).astype("uint8"))
    return photo, words


def noise(rng, im, sigma):
    import numpy as np
    a = np.asarray(im).astype(np.float32)
    a += np.random.default_rng(rng.randint(0, 2**31)).normal(0, sigma, a.shape).astype(np.float32)
    return Image.fromarray(a.clip(0, 255).astype("uint8"))


def motion_blur(im, length, angle):
    acc = None
    n = max(2, length)
    for i in range(n):
        off = i - n // 2
        dx, dy = off * math.cos(angle), off * math.sin(angle)
        sh = im.transform(im.size, Image.AFFINE, (1, 0, dx, 0, 1, dy), resample=Image.BILINEAR)
        acc = sh if acc is None else Image.blend(acc, sh, 1 / (i + 1))
    return acc


def visible(words, box, covers=()):
    """Words whose box lies (≥ 80 %) inside `box` and (≥ 50 %) outside every cover box."""
    out = []
    bl, bt, br, bb = box
    for w, (l, t, r, b) in words:
        area = max(1, (r - l) * (b - t))
        il, it, ir, ib = max(l, bl), max(t, bt), min(r, br), min(b, bb)
        inside = max(0, ir - il) * max(0, ib - it) / area
        hidden = 0
        for (cl, ct, cr, cb) in covers:
            hidden = max(hidden, max(0, min(r, cr) - max(l, cl)) * max(0, min(b, cb) - max(t, ct)) / area)
        if inside >= 0.8 and hidden < 0.5:
            out.append(w)
    return out


def degrade(rng, cls, photo, words, item_size):
    """The degraded photo, its parameters and the visible words."""
    W, H = photo.size
    p = {}
    vis = [w for w, _ in words]
    fmt = "jpg"
    if cls == "clean" or cls in DARK_CLASSES:
        photo = noise(rng, photo, rng.uniform(2, 6))
    elif cls == "blurry":
        if rng.random() < 0.5:
            p["gauss"] = round(rng.uniform(2.5, 5.0), 2)
            photo = photo.filter(ImageFilter.GaussianBlur(p["gauss"]))
        else:
            p["motion"] = rng.randint(10, 22)
            photo = motion_blur(photo, p["motion"], rng.uniform(0, math.pi))
        photo = noise(rng, photo, 3)
    elif cls == "too_dark":
        p["gain"] = round(rng.uniform(0.1, 0.26), 3)
        photo = photo.point(lambda v: v * p["gain"])
        photo = noise(rng, photo, rng.uniform(2, 5))
    elif cls == "overexposed":
        # blown-out exposure: ink lifted towards the paper, paper clipped
        p["wash"] = round(rng.uniform(0.12, 0.35), 3)
        p["lift"] = rng.randint(0, 10)
        photo = photo.point(lambda v: min(255, p["lift"] + 255 - (255 - v) * p["wash"]))
        photo = noise(rng, photo, 2)
    elif cls == "low_resolution":
        # a phone's share/downscale: the whole photo shrunk, then JPEG
        p["scale"] = round(rng.uniform(0.17, 0.3), 3)
        photo = noise(rng, photo, 3).resize((max(1, int(W * p["scale"])), max(1, int(H * p["scale"]))), Image.BILINEAR)
        words = [(w, tuple(c * p["scale"] for c in bb)) for w, bb in words]
    elif cls == "glare":
        # a flash reflection: a blown-out ellipse with a soft rim over the text
        share = rng.uniform(0.15, 0.35)
        p["share"] = round(share, 3)
        rx = (share * W * H / math.pi) ** 0.5 * rng.uniform(1.0, 1.4)
        ry = share * W * H / math.pi / rx
        cx, cy = rng.uniform(0.3, 0.7) * W, rng.uniform(0.3, 0.7) * H
        mask = Image.new("L", (W, H), 0)
        ImageDraw.Draw(mask).ellipse((cx - rx, cy - ry, cx + rx, cy + ry), fill=255)
        mask = mask.filter(ImageFilter.GaussianBlur(max(rx, ry) * 0.15))
        photo = Image.composite(Image.new("RGB", (W, H), (255, 255, 255)), photo, mask)
        photo = noise(rng, photo, 3)
        core = (cx - rx * 0.8, cy - ry * 0.8, cx + rx * 0.8, cy + ry * 0.8)
        vis = visible(words, (0, 0, W, H), [core])
    elif cls == "cut_off":
        # the menu runs off the photo: crop through the text on one or two sides
        bl = min(b[0] for _, b in words); bt = min(b[1] for _, b in words)
        br = max(b[2] for _, b in words); bb = max(b[3] for _, b in words)
        left, top, right, bottom = 0, 0, W, H
        sides = rng.sample(["left", "right", "top", "bottom"], rng.choice([1, 1, 2]))
        p["sides"] = sides
        frac = rng.uniform(0.25, 0.45)
        p["cut"] = round(frac, 3)
        for s in sides:
            if s == "left": left = int(bl + (br - bl) * frac)
            if s == "right": right = int(br - (br - bl) * frac)
            if s == "top": top = int(bt + (bb - bt) * frac)
            if s == "bottom": bottom = int(bb - (bb - bt) * frac)
        photo = noise(rng, photo, 3).crop((left, top, right, bottom))
        vis = visible(words, (left, top, right, bottom))
        words = [(w, (l - left, t - top, r - left, b - top)) for w, (l, t, r, b) in words]
    elif cls == "covered":
        # a hand or a plate over part of the menu
        bl = min(b[0] for _, b in words); bt = min(b[1] for _, b in words)
        br = max(b[2] for _, b in words); bb = max(b[3] for _, b in words)
        d = ImageDraw.Draw(photo)
        covers = []
        if rng.random() < 0.5:
            p["cover"] = "plate"
            r = rng.uniform(0.22, 0.32) * W
            cx, cy = rng.uniform(bl + r * 0.5, br - r * 0.5), rng.uniform(bt + r, bb - r * 0.5)
            d.ellipse((cx - r * 1.05, cy - r * 1.05, cx + r * 1.05, cy + r * 1.05), fill=(120, 120, 120))
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(245, 245, 242))
            d.ellipse((cx - r * 0.7, cy - r * 0.7, cx + r * 0.7, cy + r * 0.7), fill=(rng.randint(120, 200), rng.randint(60, 140), rng.randint(20, 80)))
            covers.append((cx - r, cy - r, cx + r, cy + r))
        else:
            p["cover"] = "hand"
            skin = (rng.randint(150, 230), rng.randint(100, 170), rng.randint(80, 140))
            side = rng.choice(["left", "right", "bottom"])
            pw, ph = rng.uniform(0.35, 0.5) * W, rng.uniform(0.3, 0.42) * H
            if side == "left": box = (-pw * 0.2, rng.uniform(bt, bb - ph), pw * 0.8, 0)
            elif side == "right": box = (W - pw * 0.8, rng.uniform(bt, bb - ph), W + pw * 0.2, 0)
            else: box = (rng.uniform(bl, br - pw), H - ph, 0, H + 40)
            l, t = box[0], box[1]
            r, b = l + pw, t + ph
            d.rounded_rectangle((l, t, r, b), radius=int(pw * 0.3), fill=skin)
            for k in range(4):  # fingers
                fx = l + pw * (0.1 + 0.22 * k)
                d.rounded_rectangle((fx, t - ph * rng.uniform(0.25, 0.45), fx + pw * 0.17, t + 20), radius=int(pw * 0.08), fill=skin)
            covers.append((l, t - ph * 0.3, r, b))
        photo = noise(rng, photo, 3)
        vis = visible(words, (0, 0, W, H), covers)
    elif cls == "perspective":
        k = rng.uniform(0.1, 0.22)
        p["keystone"] = round(k, 3)
        # the top edge pulled in (a photo taken from below the table's edge)
        src = [(0, 0), (W, 0), (W, H), (0, H)]
        dst = [(W * k, H * k * 0.3), (W * (1 - k), H * k * 0.3), (W, H), (0, H)]
        coeffs = perspective_coeffs(dst, src)
        photo = photo.transform((W, H), Image.PERSPECTIVE, coeffs, Image.BICUBIC, fillcolor=(90, 90, 90))
        photo = noise(rng, photo, 3)
    return photo, p, vis, fmt


def perspective_coeffs(src, dst):
    """Coefficients mapping output points `src` to input points `dst` (Pillow's convention)."""
    import numpy as np
    A, B = [], []
    for (x, y), (u, v) in zip(src, dst):
        A.append([x, y, 1, 0, 0, 0, -u * x, -u * y]); B.append(u)
        A.append([0, 0, 0, x, y, 1, -v * x, -v * y]); B.append(v)
    return [float(c) for c in np.linalg.solve(np.array(A, dtype=float), np.array(B, dtype=float))]


def degraded_photos(args):
    os.makedirs(args.out, exist_ok=True)
    classes = args.classes.split(",") if args.classes else CLASSES
    for cls in classes:
        if cls not in CLASSES + DARK_CLASSES:
            raise SystemExit("unknown class %s (classes: %s)" % (cls, ",".join(CLASSES + DARK_CLASSES)))
        for i in range(args.n):
            # One generator per photo: the menu depends on (seed, index) only, so
            # every class draws the same menus.
            menu_rng = random.Random("%d-%d" % (args.seed, i))
            deg_rng = random.Random("%d-%d-%s" % (args.seed, i, cls))
            page, words, lines, item_size = render_menu(menu_rng)
            if cls in DARK_CLASSES:
                page = recolour(random.Random("%d-%d-%s-colour" % (args.seed, i, cls)), cls, page, words)
            photo, pwords = phone_photo(menu_rng, page, words)
            out, params, vis, fmt = degrade(deg_rng, cls, photo, pwords, item_size)
            name = "%s-%d-%03d" % (cls, args.seed, i)
            path = os.path.join(args.out, name + "." + fmt)
            out.save(path, quality=88) if fmt == "jpg" else out.save(path)
            with open(os.path.join(args.out, name + ".gt.txt"), "w") as f:
                f.write("\n".join(lines) + "\n")
            with open(os.path.join(args.out, name + ".meta.json"), "w") as f:
                json.dump({"class": cls, "seed": args.seed, "index": i, "params": params,
                           "words": len(words), "visible_words": len(vis),
                           "visible_share": round(len(vis) / max(1, len(words)), 3),
                           "text_height": item_size}, f)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("n", type=int)
    ap.add_argument("--per-folder", type=int, default=500)
    ap.add_argument("--degraded", action="store_true", help="degraded menu photos with ground truth, N per class")
    ap.add_argument("--seed", type=int, default=TEST_SEED, help="1701 = test (never tune), 4242 = tune")
    ap.add_argument("--classes", default="", help="comma-separated subset of " + ",".join(CLASSES + DARK_CLASSES))
    args = ap.parse_args()
    if args.degraded:
        degraded_photos(args)
    else:
        small_photos(args)


if __name__ == "__main__":
    main()
