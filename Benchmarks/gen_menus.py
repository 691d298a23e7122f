#!/usr/bin/env python3
"""Generated menu photos with exact item and line-role ground truth.

Each menu draws a layout family at random — 1, 2 or 3 columns; prices
right-aligned, inline ("LATTE 4"), absent, in their own column, after dot
leaders, at the end of the description's last line, as several sizes ("12/18"); calories ("450 Cal") with or without a
price; supplements ("add chicken +3"); set-menu lines ("Two courses 30");
boxed sections; centred designs; ALL-CAPS or Title Case names; descriptions
under or beside the name; section headers in decorative fonts; long names set
over two lines (cut at a joining word or a comma where one fits, the price on
the last line); lists of short names under one printed price ("CHOCOLATE BARS
£4 each", "All £3"), sometimes two a row — then degrades the page like a phone
photo (perspective, uneven light, blur, noise, JPEG). The last two families
(round 17) are drawn from a generator of their own, so a menu that draws
neither renders byte-identically to earlier rounds.

Writes, per menu, into OUT:
  NAME.jpg          the photo
  NAME.items.json   items as in ../shared/eval/menus (section, name, description, price)
  NAME.lines.json   every printed line: text, role (header, name, description,
                    price, note, other), section, item index, box on the flat page
Dish names and descriptions come from a small culinary vocabulary written for
this generator (general knowledge, not taken from any evaluation menu).

Seeds: the TEST seed (9001) is fixed and never tuned on; training uses other
seeds (default 1). Fonts come from Debian packages (fonts-dejavu-core,
fonts-liberation, fonts-urw-base35, fonts-freefont-ttf, fonts-dejavu-extra);
whatever of them is installed is used.

With --from-labels FILE (a held-out written set, Benchmarks/data/heldout*_menu_items.json)
the menus' content is that set's own: each menu of the file becomes one photo NAME.jpg
(NAME = the menu's id, so the set's tune/check split by name carries over), its sections,
dishes, descriptions and notes printed in a drawn layout, and NAME.items.json also holds each
dish's labelled `allergens` and `may_contain`: the photo path's allergen safety measured on
menus whose truth was written before MenuScan saw them (Benchmarks/allergen_photo_eval.py
--dir OUT). Nothing is added that would change that truth: no supplements, no random notes,
no footer. Letters a drawn font may lack (CJK, Armenian…) are left out of the printed text and
of the labels' names.

Usage: python3 Benchmarks/gen_menus.py OUT [--seed 1] [--count 40] [--price-style desc_end]
       python3 Benchmarks/gen_menus.py OUT --test      (seed 9001, 24 menus)
       python3 Benchmarks/gen_menus.py OUT --from-labels Benchmarks/data/heldout5_menu_items.json [--seed 1] [--wrap-names]
"""
import argparse, glob, json, math, os, random
from PIL import Image, ImageDraw, ImageFilter, ImageFont

TEST_SEED = 9001

# ---------------------------------------------------------------- vocabulary
SECTIONS = {
    "starters": ["Starters", "Small Plates", "To Begin", "Appetizers", "Antipasti", "Entrées"],
    "soups": ["Soups", "Soup & Bread", "From the Pot"],
    "salads": ["Salads", "Greens", "Garden"],
    "mains": ["Mains", "Main Courses", "From the Grill", "Plats", "Signature Dishes"],
    "burgers": ["Burgers", "Sandwiches", "Burgers & Buns"],
    "pizza": ["Pizza", "Wood-Fired Pizza", "Pizzas"],
    "pasta": ["Pasta", "Noodles", "Pasta & Risotto"],
    "desserts": ["Desserts", "Sweets", "Something Sweet", "Puddings"],
    "drinks": ["Coffee", "Hot Drinks", "Drinks", "Juices & Smoothies", "Teas"],
    "sides": ["Sides", "On the Side", "Extras"],
    "breakfast": ["Breakfast", "Brunch", "All-Day Breakfast"],
}
PROTEIN = ["Chicken", "Beef", "Lamb", "Pork Belly", "Salmon", "Cod", "Sea Bass", "Prawn", "Tofu", "Halloumi",
           "Duck", "Tuna", "Mushroom", "Chickpea", "Squid", "Scallop", "Venison", "Turkey", "Mackerel", "Aubergine"]
STYLE = ["Skewers", "Curry", "Tacos", "Stew", "Fillet", "Steak", "Confit", "Tagine", "Stir Fry", "Risotto", "Pie",
         "Kebab", "Croquettes", "Fritters", "Carpaccio", "Tartare", "Schnitzel", "Bowl", "Wrap", "Gratin"]
ADJ = ["Grilled", "Roasted", "Crispy", "Smoked", "Braised", "Pan-Seared", "Spiced", "Charred", "Slow-Cooked",
       "Glazed", "Honey", "Lemon", "Garlic", "Chilli", "Herb", "Wild", "Classic", "House", "Sticky", "Golden"]
SOUPS = ["Tomato Soup", "French Onion Soup", "Minestrone", "Leek and Potato Soup", "Lentil Soup", "Pea Soup",
         "Chicken Noodle Soup", "Gazpacho", "Miso Soup", "Pumpkin Soup", "Clam Chowder", "Soup of the Day"]
SALADS = ["Caesar Salad", "Greek Salad", "Niçoise Salad", "Caprese", "Waldorf Salad", "Beetroot Salad",
          "Quinoa Salad", "Rocket and Parmesan", "Tabbouleh", "Panzanella", "Coleslaw", "Fattoush"]
BURGERS = ["Cheeseburger", "Bacon Burger", "Veggie Burger", "Chicken Burger", "Club Sandwich", "Reuben",
           "BLT", "Pulled Pork Bun", "Fish Finger Sandwich", "Falafel Wrap", "Double Smash Burger", "Mushroom Melt"]
PIZZA = ["Margherita", "Marinara", "Diavola", "Quattro Formaggi", "Capricciosa", "Prosciutto e Funghi",
         "Hawaiian", "Calzone", "Vegetariana", "Napoletana", "Bianca", "Pepperoni"]
PASTA = ["Spaghetti Carbonara", "Penne Arrabbiata", "Lasagne", "Tagliatelle Bolognese", "Linguine Vongole",
         "Gnocchi", "Ravioli", "Mushroom Risotto", "Pad Thai", "Ramen", "Mac and Cheese", "Orecchiette"]
DESSERTS = ["Chocolate Brownie", "Tiramisu", "Crème Brûlée", "Apple Crumble", "Cheesecake", "Panna Cotta",
            "Sticky Toffee Pudding", "Lemon Tart", "Eton Mess", "Affogato", "Ice Cream", "Carrot Cake", "Churros"]
DRINKS = ["Espresso", "Americano", "Cappuccino", "Latte", "Flat White", "Mocha", "Hot Chocolate", "Chai Latte",
          "Green Tea", "Earl Grey", "Fresh Orange Juice", "Lemonade", "Iced Tea", "Berry Smoothie", "Macchiato"]
SIDES = ["Fries", "Sweet Potato Fries", "Onion Rings", "Garlic Bread", "Side Salad", "Mashed Potatoes",
         "Steamed Rice", "Seasonal Greens", "Corn on the Cob", "Roasted Vegetables", "Hummus", "Olives"]
BREAKFAST = ["Full Breakfast", "Eggs Benedict", "Pancakes", "French Toast", "Avocado Toast", "Granola",
             "Porridge", "Omelette", "Shakshuka", "Bagel", "Waffles", "Breakfast Burrito"]
FIXED = {"soups": SOUPS, "salads": SALADS, "burgers": BURGERS, "pizza": PIZZA, "pasta": PASTA,
         "desserts": DESSERTS, "drinks": DRINKS, "sides": SIDES, "breakfast": BREAKFAST}
INGR = ["tomato", "basil", "mozzarella", "garlic", "red onion", "rocket", "parmesan", "lemon", "capers", "olives",
        "chilli", "coriander", "lime", "ginger", "soy", "sesame", "spring onion", "cucumber", "yoghurt", "mint",
        "feta", "spinach", "mushrooms", "bacon", "smoked paprika", "roasted peppers", "sweet potato", "chickpeas",
        "pine nuts", "walnuts", "honey", "mustard", "mayonnaise", "aioli", "pesto", "cream", "butter", "thyme",
        "rosemary", "shallots", "cheddar", "gherkins", "brioche", "sourdough", "crème fraîche", "salsa verde",
        "pickled cabbage", "toasted almonds", "pomegranate", "tahini", "charred corn", "new potatoes", "leeks",
        "black beans", "avocado", "jalapeños", "hollandaise", "wild rice", "fennel", "celeriac purée"]
METHOD = ["served with", "topped with", "finished with", "on a bed of", "with a side of", "tossed in", "drizzled with"]
NOTES = ["All burgers come on a toasted brioche bun", "Served with fries or salad", "All pizzas are 12 inch",
         "Add a side for 3", "Gluten-free bases available on request", "Served until 11.30 am",
         "Choose any two for 10", "Ask about today's specials", "Oat or soy milk on request"]
FOOTER = ["Please inform our staff of any allergies before ordering",
          "V vegetarian   VG vegan   GF gluten free",
          "A discretionary service charge of 10% will be added to your bill",
          "Our dishes may contain traces of nuts", "Prices include VAT"]
TITLES = ["The Olive Tree", "Harbour Kitchen", "Café Central", "The Red Lion", "Bistro Nord", "Maple & Rye",
          "Trattoria Sole", "The Corner House", "Blue Door Diner", "Saffron", "Little Fig", "The Old Mill"]


def dish_name(rng, kind):
    if kind in FIXED and rng.random() < 0.75:
        return rng.choice(FIXED[kind])
    return f"{rng.choice(ADJ)} {rng.choice(PROTEIN)} {rng.choice(STYLE)}" if rng.random() < 0.6 else f"{rng.choice(PROTEIN)} {rng.choice(STYLE)}"


def description(rng):
    k = rng.randint(2, 5)
    ing = rng.sample(INGR, k)
    if rng.random() < 0.5:
        return ", ".join(ing[:-1]) + " and " + ing[-1]
    return f"{ing[0].capitalize()} and {ing[1]} {rng.choice(METHOD)} " + ", ".join(ing[2:] or [rng.choice(INGR)])


JOIN = ["with", "and", "on", "in", "&"]


def long_name(rng, name):
    """A descriptive dish name as long menus print them ("Grilled Chicken Breast with Roasted
    Peppers and Salsa Verde"), long enough to wrap in a narrow column."""
    a, b = rng.sample(INGR, 2)
    t = lambda x: " ".join(w[:1].upper() + w[1:] for w in x.split())
    return rng.choice([f"{name} with {t(a)} and {t(b)}", f"{name} with {t(a)}, {t(b)}",
                       f"{name} on {t(a)} with {t(b)}", f"{name} in {t(a)} Sauce with {t(b)}",
                       f"{name} & {t(a)}"])


def wrap_name(rng, name, fits):
    """The name split into the lines a printer would set: at the last joining word or comma
    that lets the first line fit (the joining word ends the first line or opens the second),
    else at the last space that fits; the whole name when it fits and no wrap is drawn."""
    words = name.split()
    if len(words) < 3 or fits(name) and rng.random() < 0.6:
        return [name]
    cuts = [i for i in range(1, len(words)) if fits(" ".join(words[:i]))]
    if not cuts:
        return [name]
    joins = [i for i in cuts if words[i - 1].lower().rstrip(",") in JOIN or words[i - 1].endswith(",")
             or words[i].lower() in JOIN]
    i = max(joins) if joins else max(cuts)
    if not joins and fits(name):
        return [name]
    return [" ".join(words[:i]), " ".join(words[i:])]


SHARED = {"Chocolate Bars": ["Mars", "Twix", "Snickers", "Bounty", "Kit Kat", "Maltesers", "Galaxy", "Crunchie",
                             "Milky Way", "Toblerone", "Lion Bar", "Rolo"],
          "Ice Cream Tubs": ["Vanilla", "Strawberry", "Chocolate", "Mint Choc Chip", "Salted Caramel", "Pistachio",
                             "Cookie Dough", "Rum and Raisin"],
          "Soft Drinks": ["Coke", "Diet Coke", "Fanta", "Sprite", "Tango", "Irn-Bru", "Ginger Beer", "Lemonade",
                          "Tonic Water", "Dr Pepper"],
          "Dips": ["Garlic Mayo", "Ketchup", "BBQ", "Sweet Chilli", "Burger Sauce", "Ranch", "Aioli", "Salsa",
                   "Blue Cheese", "Chilli Sauce"],
          "Teas": ["English Breakfast", "Earl Grey", "Peppermint", "Camomile", "Green Tea", "Jasmine", "Rooibos",
                   "Lemon & Ginger"]}


# ---------------------------------------------------------------- fonts
FONT_DIRS = ["/usr/share/fonts/truetype", "/usr/share/fonts/opentype", "/usr/share/fonts/type1"]


def fonts():
    files = []
    for d in FONT_DIRS:
        files += glob.glob(os.path.join(d, "**", "*.ttf"), recursive=True) + glob.glob(os.path.join(d, "**", "*.otf"), recursive=True)
    files = sorted(f for f in files if not any(x in f for x in ("Mono", "Math", "ExtraLight", "Symbol", "Dingbat", "D050000L", "StandardSymbols")))
    regular = [f for f in files if not any(x in os.path.basename(f) for x in ("Bold", "Italic", "Oblique", "BdIt", "It.", "Bd."))]
    bold = [f for f in files if "Bold" in os.path.basename(f) and not any(x in os.path.basename(f) for x in ("Italic", "Oblique"))]
    deco = [f for f in files if any(x in os.path.basename(f) for x in ("Z003", "Italic", "BoldItalic", "Oblique", "C059-BdIta", "P052-Italic"))]
    return regular or files, bold or files, deco or files


# ---------------------------------------------------------------- layout
def latin(s):
    """The text with only what the generator's Latin fonts draw (Latin letters with their
    accents, Vietnamese's included, digits, punctuation), spaces squeezed."""
    return " ".join("".join(c for c in s if ord(c) < 0x250 or 0x1E00 <= ord(c) <= 0x1EFF or c in "–—‘’“”…€£·•").split())


class Menu:
    def __init__(self, rng, price_style=None, labels=None, extra=None):
        self.rng = rng
        # Layout families added after the first sets were drawn come from their own generator
        # (`extra`), so a menu that draws none of them renders exactly as before they existed.
        self.xr = extra
        self.wrap_names = bool(extra) and extra.random() < 0.35
        self.shared_price = bool(extra) and extra.random() < 0.3
        # A written menu's rows (--from-labels): its content instead of the vocabulary's.
        self.labels = labels
        self.regular, self.bold, self.deco = fonts()
        r = rng
        self.columns = r.choices([1, 2, 3], [0.45, 0.4, 0.15])[0]
        self.price_style = r.choice(["right", "inline", "absent", "column", "leaders", "under"])
        self.currency = r.choice(["", "", "$", "€ suffix", "£", "comma"])
        self.calories = r.random() < 0.25
        self.sizes = r.random() < 0.12
        self.supplements = r.random() < 0.3
        self.set_menu = r.random() < 0.2
        self.boxed = r.random() < 0.25
        self.centred = self.columns == 1 and r.random() < 0.35
        self.caps_names = r.random() < 0.5
        self.bold_names = r.random() < 0.7
        self.desc_beside = r.random() < 0.2 and not self.centred
        self.desc_prob = r.choice([0.0, 0.6, 0.9, 1.0])
        self.caps_headers = r.random() < 0.6
        self.deco_headers = r.random() < 0.4
        self.body = r.randint(22, 30)
        # Price at the end of the item's last description line ("… Freshly made salsa $8.50"),
        # or of the name line when there is none. Chosen without drawing from rng, so every
        # other menu of a seed (the test seed too) renders exactly as before this family existed.
        if self.price_style in ("right", "inline") and self.body % 3 == 0:
            self.price_style = "desc_end"
        if price_style:
            self.price_style = price_style
        self.W = {1: r.randint(1100, 1400), 2: r.randint(1500, 1900), 3: r.randint(1900, 2300)}[self.columns]
        base = r.choice(self.regular)
        self.f_body = ImageFont.truetype(base, self.body)
        self.f_desc = ImageFont.truetype(r.choice([base] + [f for f in self.regular if "Italic" in f]), int(self.body * r.uniform(0.82, 0.95)))
        self.f_name = ImageFont.truetype(r.choice(self.bold) if self.bold_names else base, int(self.body * r.uniform(1.0, 1.2)))
        hsize = int(self.body * r.uniform(1.4, 2.2))
        self.f_head = ImageFont.truetype(r.choice(self.deco if self.deco_headers else self.bold), hsize)
        self.f_title = ImageFont.truetype(r.choice(self.deco + self.bold), int(self.body * r.uniform(2.2, 3.2)))
        self.f_note = ImageFont.truetype(r.choice([base] + [f for f in self.regular if "Italic" in f or "Oblique" in f]), int(self.body * 0.8))

    def price(self, base=None):
        r = self.rng
        v = base if base is not None else r.choice([3, 4, 4.5, 5, 6, 6.5, 7, 8, 9, 9.5, 10, 11, 12, 12.5, 13, 14, 15, 16, 18, 19, 22, 24, 26])
        dec = self.currency in ("$", "£", "comma") and r.random() < 0.7 or (v != int(v))
        s = (f"{v:.2f}" if dec and r.random() < 0.6 else (f"{v:g}" if v != int(v) else f"{int(v)}"))
        if self.currency == "comma":
            s = s.replace(".", ",")
        if self.sizes:
            s = s + "/" + f"{int(v) + r.choice([3, 4, 6])}"
        if self.currency == "$":
            s = "$" + s
        elif self.currency == "£":
            s = "£" + s
        elif self.currency == "€ suffix":
            s = s + " €"
        return s

    def labelled_content(self):
        """Sections from the written menu's rows, in their order; a note row (section
        "__NOTE__") is printed as the note of the section that follows it (or the last one)."""
        secs, pending = [], []
        for row in self.labels:
            if row.get("section") == "__NOTE__":
                n = latin(row["name"])
                pending.append(n if n[-1:] in ".!?:" else n + ".")
                continue
            head = latin(row.get("section") or "")
            if not secs or secs[-1]["raw"] != head:
                secs.append(dict(raw=head, header=head.upper() if self.caps_headers else head, items=[], note=None))
            if pending:
                secs[-1]["note"] = " ".join(pending); pending = []
            name = latin(row["name"])
            p = None if self.price_style == "absent" else self.price()
            cal = f"{self.rng.randint(12, 95) * 10} Cal" if self.calories else None
            secs[-1]["items"].append(dict(name=name.upper() if self.caps_names else name, label_name=name,
                                          description=latin(row.get("description") or ""), price=p, cal=cal, sup=None,
                                          allergens=row.get("allergens") or [], may_contain=row.get("may_contain") or []))
        if pending and secs:
            secs[-1]["note"] = ((secs[-1]["note"] or "") + " " + " ".join(pending)).strip()
        return secs

    def content(self):
        if self.labels is not None:
            return self.labelled_content()
        r = self.rng
        kinds = r.sample(list(SECTIONS), r.randint(2, 2 + self.columns * 2))
        secs = []
        for k in kinds:
            head = r.choice(SECTIONS[k])
            items, seen = [], set()
            for _ in range(r.randint(3, 7)):
                n = dish_name(r, k)
                if self.wrap_names and self.xr.random() < 0.5:
                    n = long_name(self.xr, n)
                if n in seen:
                    continue
                seen.add(n)
                d = description(r) if r.random() < self.desc_prob else ""
                p = None if self.price_style == "absent" and not self.calories else self.price()
                cal = f"{r.randint(12, 95) * 10} Cal" if self.calories else None
                if self.price_style == "absent":
                    p = None
                sup = f"add {r.choice(['chicken', 'bacon', 'avocado', 'a fried egg', 'extra cheese', 'prawns'])} +{r.randint(1, 5)}" \
                    if self.supplements and r.random() < 0.3 else None
                items.append(dict(name=n.upper() if self.caps_names else n, description=d, price=p, cal=cal, sup=sup))
            note = None
            if r.random() < 0.3:
                note = r.choice(NOTES)
            shared = None
            if self.shared_price and self.price_style != "absent" and self.xr.random() < 0.4:
                # A list of short names under one printed price ("Chocolate bars 4.95 each"): the
                # items print no price of their own (their labels hold the list's, as the real
                # menus' labels do: "4.95 each"), sometimes two a row.
                kind = self.xr.choice(list(SHARED))
                names = self.xr.sample(SHARED[kind], self.xr.randint(4, 8))
                items = [dict(name=n.upper() if self.caps_names else n, description="", price=None, cal=None, sup=None)
                         for n in names]
                head = kind.upper() if self.caps_headers else kind
                shared = dict(price=self.price(), each=self.xr.choice(["each", "", "any"]), grid=self.xr.random() < 0.5,
                              where=self.xr.choice(["header", "note"]))
                note = None
                secs.append(dict(header=head, items=items, note=note, shared=shared))
                continue
            if self.set_menu and r.random() < 0.5:
                note = f"Two courses {r.randint(18, 30)} · Three courses {r.randint(31, 42)}"
            secs.append(dict(header=head.upper() if self.caps_headers else head, items=items, note=note, shared=shared))
        return secs

    def render(self):
        r = self.rng
        secs = self.content()
        H = 6000 if self.labels is None else 16000
        img = Image.new("L", (self.W, H), 255)
        d = ImageDraw.Draw(img)
        margin = int(self.W * 0.06)
        gutter = int(self.W * 0.05)
        colw = (self.W - 2 * margin - gutter * (self.columns - 1)) // self.columns
        lines = []

        def text(x, y, s, font, role, sec, item, align="left", width=None):
            w = d.textlength(s, font=font)
            if align == "right":
                x = x + width - w
            elif align == "centre":
                x = x + (width - w) / 2
            d.text((x, y), s, font=font, fill=r.randint(0, 40))
            bb = d.textbbox((x, y), s, font=font)
            lines.append(dict(text=s, role=role, section=sec, item=item, box=[int(bb[0]), int(bb[1]), int(bb[2] - bb[0]), int(bb[3] - bb[1])]))
            return bb

        lh = lambda f: int(f.size * 1.35)
        y = margin
        title = r.choice(TITLES)
        text(margin, y, title, self.f_title, "other", None, None, align="centre", width=self.W - 2 * margin)
        y += lh(self.f_title) + self.body
        top = y
        # distribute sections over columns by estimated height
        est = [sum(3 + (1 if it["description"] else 0) for it in s["items"]) + 3 for s in secs]
        per_col = sum(est) / self.columns
        cols, acc, c = [[] for _ in range(self.columns)], 0, 0
        for s, e in zip(secs, est):
            if acc > per_col * (c + 1) - e / 2 and c < self.columns - 1:
                c += 1
            cols[c].append(s)
            acc += e
        items_out = []
        bottom = y
        for ci, col in enumerate(cols):
            x0 = margin + ci * (colw + gutter)
            y = top
            for s in col:
                sec = s["header"]
                box_top = y - self.body // 2
                shared = s.get("shared")
                if sec:
                    head_line = sec
                    if shared and shared["where"] == "header":
                        head_line = f"{sec}  {shared['price']} {shared['each']}".strip()
                    text(x0, y, head_line, self.f_head, "header", sec, None, align="centre" if self.centred or r.random() < 0.2 else "left", width=colw)
                    y += lh(self.f_head) + self.body // 3
                if shared:
                    if shared["where"] == "note":
                        text(x0, y, f"All {shared['price']} {shared['each']}".strip(), self.f_note, "note", sec, None,
                             align="centre" if self.centred else "left", width=colw)
                        y += lh(self.f_note) + self.body // 3
                    per_row = 2 if shared["grid"] else 1
                    for j in range(0, len(s["items"]), per_row):
                        for c2, it in enumerate(s["items"][j:j + per_row]):
                            k = len(items_out)
                            text(x0 + c2 * colw // 2, y, it["name"], self.f_name, "name", sec, k,
                                 align="centre" if self.centred and per_row == 1 else "left", width=colw // per_row)
                            items_out.append(dict(section=sec, name=it["name"], description="",
                                                  price=f"{shared['price']} {shared['each']}".strip()))
                        y += lh(self.f_name) + int(self.body * self.xr.uniform(0.1, 0.5))
                    if self.boxed:
                        d.rectangle([x0 - self.body // 2, box_top, x0 + colw + self.body // 2, y], outline=40, width=3)
                    y += self.body
                    continue
                if s["note"]:
                    # wrapped to the column (a written menu's notes can be long)
                    cur = ""
                    for w in s["note"].split():
                        t = (cur + " " + w).strip()
                        if d.textlength(t, font=self.f_note) > colw * 0.95 and cur:
                            text(x0, y, cur, self.f_note, "note", sec, None, align="centre" if self.centred else "left", width=colw)
                            y += lh(self.f_note); cur = w
                        else:
                            cur = t
                    text(x0, y, cur, self.f_note, "note", sec, None, align="centre" if self.centred else "left", width=colw)
                    y += lh(self.f_note) + self.body // 3
                for it in s["items"]:
                    k = len(items_out)
                    price_txt = it["price"]
                    name = it["name"]
                    align = "centre" if self.centred else "left"
                    extra = []  # text on the name line after the name
                    if (self.price_style == "inline" or self.price_style == "desc_end" and not it["description"]) and price_txt:
                        name_line = f"{name} {price_txt}"
                    else:
                        name_line = name
                    if it["cal"] and self.price_style in ("inline", "absent"):
                        name_line += f"  {it['cal']}"
                    beside_ok = self.desc_beside and bool(it["description"]) and \
                        d.textlength(name_line + " – " + it["description"], font=self.f_name) <= colw * 0.8
                    wrapped = False
                    if self.wrap_names and not beside_ok:
                        # A long name set over two lines, the price (when on the name's line) on its last.
                        room = colw * 0.95
                        if price_txt and self.price_style in ("right", "column", "leaders"):
                            ptxt = price_txt + (f"  {it['cal']}" if it["cal"] else "")
                            room = (colw * 0.74 if self.price_style == "column" else
                                    colw * 0.95 - d.textlength(ptxt, font=self.f_body) - 3 * self.body)
                        parts = wrap_name(self.xr, name_line, lambda t: d.textlength(t, font=self.f_name) <= room)
                        for part in parts[:-1]:
                            text(x0, y, part, self.f_name, "name", sec, k, align=align, width=colw)
                            y += lh(self.f_name)
                        if len(parts) > 1:
                            name_line, wrapped = parts[-1], True
                    if self.desc_beside and it["description"] and not wrapped:
                        name_line += " – " + it["description"]
                    bb = text(x0, y, name_line, self.f_name, "name", sec, k, align=align, width=colw)
                    if self.desc_beside and it["description"] and (bb[2] > x0 + colw * 0.8):
                        # too long beside the name: redraw as name only, description under it
                        d.rectangle(bb, fill=255); lines.pop()
                        name_line = name_line.split(" – ")[0]
                        bb = text(x0, y, name_line, self.f_name, "name", sec, k, align=align, width=colw)
                        beside = False
                    else:
                        beside = self.desc_beside and bool(it["description"]) and not wrapped
                    if price_txt and self.price_style in ("right", "column", "leaders"):
                        ptxt = price_txt + (f"  {it['cal']}" if it["cal"] else "")
                        if self.price_style == "leaders":
                            pw = d.textlength(ptxt, font=self.f_body)
                            dots_w = x0 + colw - pw - bb[2] - 16
                            dw = d.textlength(".", font=self.f_body)
                            if dots_w > 3 * dw:
                                dots = "." * int(dots_w / dw)
                                d.text((bb[2] + 8, y + (self.f_name.size - self.f_body.size)), dots, font=self.f_body, fill=60)
                        if self.price_style == "column":
                            px = x0 + int(colw * 0.78)
                            d.text((px, y + (self.f_name.size - self.f_body.size)), ptxt, font=self.f_body, fill=20)
                            pb = d.textbbox((px, y + (self.f_name.size - self.f_body.size)), ptxt, font=self.f_body)
                        else:
                            pb = text(x0, y + (self.f_name.size - self.f_body.size), ptxt, self.f_body, "price", sec, k, align="right", width=colw)
                            lines.pop()
                        # the price is on the name's printed line: one line, role name
                        lines[-1]["text"] += " " + ptxt
                        lines[-1]["box"] = [min(lines[-1]["box"][0], pb[0]), min(lines[-1]["box"][1], pb[1]),
                                            max(lines[-1]["box"][0] + lines[-1]["box"][2], pb[2]) - min(lines[-1]["box"][0], pb[0]),
                                            max(lines[-1]["box"][1] + lines[-1]["box"][3], pb[3]) - min(lines[-1]["box"][1], pb[1])]
                    y += lh(self.f_name)
                    if it["description"] and not beside:
                        # wrap the description to the column
                        words, cur = it["description"].split(), ""
                        for w in words:
                            t = (cur + " " + w).strip()
                            if d.textlength(t, font=self.f_desc) > colw * (0.75 if self.price_style == "column" else 0.95) and cur:
                                text(x0, y, cur, self.f_desc, "description", sec, k, align=align, width=colw)
                                y += lh(self.f_desc); cur = w
                            else:
                                cur = t
                        if cur and self.price_style == "desc_end" and price_txt:
                            cur = f"{cur} {price_txt}"
                        if cur:
                            text(x0, y, cur, self.f_desc, "description", sec, k, align=align, width=colw)
                            y += lh(self.f_desc)
                    if it["sup"]:
                        text(x0, y, it["sup"], self.f_desc, "description", sec, k, align=align, width=colw)
                        y += lh(self.f_desc)
                    if self.price_style == "under" and (price_txt or it["cal"]):
                        pt = " · ".join(x for x in (price_txt, it["cal"]) if x)
                        text(x0, y, pt, self.f_body, "price", sec, k, align=align, width=colw)
                        y += lh(self.f_body)
                    y += int(self.body * r.uniform(0.3, 0.9))
                    desc = it["description"]
                    if it["sup"]:
                        desc = (desc + " " + it["sup"]).strip()
                    out = dict(section=sec, name=it["name"], description=desc,
                               price=price_txt if self.price_style != "absent" else None)
                    if "allergens" in it:
                        out.update(name=it["label_name"], allergens=it["allergens"], may_contain=it["may_contain"])
                    items_out.append(out)
                if self.boxed:
                    d.rectangle([x0 - self.body // 2, box_top, x0 + colw + self.body // 2, y], outline=40, width=3)
                y += self.body
            bottom = max(bottom, y)
        y = bottom + self.body
        if self.labels is None and r.random() < 0.6:
            text(margin, y, r.choice(FOOTER), self.f_note, "note", None, None, align="centre", width=self.W - 2 * margin)
            y += lh(self.f_note)
        img = img.crop((0, 0, self.W, min(H, y + margin)))
        return img, items_out, lines


# ---------------------------------------------------------------- photo
def solve8(src, dst):
    """Coefficients (a..h) with x_src = (a x + b y + c)/(g x + h y + 1) for PIL's PERSPECTIVE."""
    A, B = [], []
    for (xs, ys), (xd, yd) in zip(src, dst):
        A.append([xd, yd, 1, 0, 0, 0, -xs * xd, -xs * yd]); B.append(xs)
        A.append([0, 0, 0, xd, yd, 1, -ys * xd, -ys * yd]); B.append(ys)
    # Gaussian elimination (8x8)
    n = 8
    M = [row[:] + [b] for row, b in zip(A, B)]
    for c in range(n):
        p = max(range(c, n), key=lambda i: abs(M[i][c]))
        M[c], M[p] = M[p], M[c]
        for i in range(n):
            if i != c and M[c][c]:
                f = M[i][c] / M[c][c]
                M[i] = [a - f * b for a, b in zip(M[i], M[c])]
    return [M[i][n] / M[i][i] for i in range(n)]


def photograph(img, rng):
    w, h = img.size
    # paper tone and uneven light
    img = img.convert("RGB")
    tone = Image.new("RGB", (w, h), (rng.randint(225, 255), rng.randint(220, 250), rng.randint(205, 240)))
    img = Image.blend(img, tone, 0.0)
    from PIL import ImageChops
    img = ImageChops.multiply(img, tone)
    grad = Image.linear_gradient("L").resize((w, h)).rotate(rng.uniform(0, 360), expand=False)
    strength = rng.uniform(0.0, 0.35)
    shade = grad.point(lambda v: int(255 - strength * v))
    img = ImageChops.multiply(img, Image.merge("RGB", [shade] * 3))
    # perspective
    j = rng.uniform(0.0, 0.05)
    pad = int(0.04 * max(w, h))
    canvas = Image.new("RGB", (w + 2 * pad, h + 2 * pad), (rng.randint(40, 120),) * 3)
    canvas.paste(img, (pad, pad))
    W, H = canvas.size
    src = [(pad, pad), (pad + w, pad), (pad + w, pad + h), (pad, pad + h)]
    dst = [(pad + rng.uniform(-j, j) * w, pad + rng.uniform(-j, j) * h), (pad + w + rng.uniform(-j, j) * w, pad + rng.uniform(-j, j) * h),
           (pad + w + rng.uniform(-j, j) * w, pad + h + rng.uniform(-j, j) * h), (pad + rng.uniform(-j, j) * w, pad + h + rng.uniform(-j, j) * h)]
    coeffs = solve8(src, dst)
    canvas = canvas.transform((W, H), Image.PERSPECTIVE, coeffs, resample=Image.BICUBIC)
    # scale like a phone photo, blur, JPEG
    scale = rng.uniform(0.7, 1.0)
    canvas = canvas.resize((int(W * scale), int(H * scale)), Image.BILINEAR)
    if rng.random() < 0.6:
        canvas = canvas.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 1.2)))
    return canvas, rng.randint(55, 92)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--price-style", help="training data only: every menu uses this price layout family")
    ap.add_argument("--test", action="store_true", help=f"the fixed test set: seed {TEST_SEED}, 24 menus")
    ap.add_argument("--from-labels", help="a held-out written set (JSON rows with menu, section, name, description, "
                                          "allergens, may_contain): one photo per menu, its content and labels")
    ap.add_argument("--wrap-names", action="store_true",
                    help="with --from-labels: names too long for their column (and some others, at a joining word) "
                         "are set over two lines; without it a written set draws exactly as before")
    a = ap.parse_args()
    if a.from_labels:
        os.makedirs(a.out, exist_ok=True)
        menus = {}
        for row in json.load(open(a.from_labels)):
            menus.setdefault(row["menu"], []).append(row)
        for i, (name, rows) in enumerate(menus.items()):
            rng = random.Random(a.seed * 100003 + i)
            # (labelled_content draws no supplements and no set menus)
            m = Menu(rng, labels=rows, extra=random.Random(f"wrap-{a.seed}-{i}") if a.wrap_names else None)
            m.wrap_names = a.wrap_names
            page, items, lines = m.render()
            photo, q = photograph(page, rng)
            photo.save(os.path.join(a.out, name + ".jpg"), quality=q)
            json.dump(items, open(os.path.join(a.out, name + ".items.json"), "w"), indent=1, ensure_ascii=False)
            json.dump(dict(layout=dict(columns=m.columns, price_style=m.price_style), lines=lines),
                      open(os.path.join(a.out, name + ".lines.json"), "w"), indent=1, ensure_ascii=False)
        print(f"{len(menus)} menus from {a.from_labels} (layout seed {a.seed}) in {a.out}")
        return
    if a.test:
        a.seed, a.count, a.price_style = TEST_SEED, 24, None
    if a.seed == TEST_SEED and a.price_style:
        ap.error("the test seed is fixed: no --price-style")
    os.makedirs(a.out, exist_ok=True)
    for i in range(a.count):
        rng = random.Random(a.seed * 100003 + i)
        m = Menu(rng, a.price_style, extra=random.Random(f"families-{a.seed}-{i}"))
        page, items, lines = m.render()
        photo, q = photograph(page, rng)
        name = f"gen-{a.seed}-{i:03d}"
        photo.save(os.path.join(a.out, name + ".jpg"), quality=q)
        json.dump(items, open(os.path.join(a.out, name + ".items.json"), "w"), indent=1, ensure_ascii=False)
        meta = dict(columns=m.columns, price_style=m.price_style, currency=m.currency, calories=m.calories, sizes=m.sizes,
                    supplements=m.supplements, set_menu=m.set_menu, boxed=m.boxed, centred=m.centred, caps_names=m.caps_names,
                    desc_beside=m.desc_beside, deco_headers=m.deco_headers, wrap_names=m.wrap_names,
                    shared_price=m.shared_price)
        json.dump(dict(layout=meta, lines=lines), open(os.path.join(a.out, name + ".lines.json"), "w"), indent=1, ensure_ascii=False)
    print(f"{a.count} menus (seed {a.seed}) in {a.out}")


if __name__ == "__main__":
    main()
