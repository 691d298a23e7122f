#!/usr/bin/env python3
"""Generated menus in five languages, with exact ground truth, for `--lang auto`.

Each menu is a PNG (DejaVu Sans, black on a slightly uneven off-white page),
NAME.gt.txt (its text, line by line) and NAME.items.json (section, name,
description, price, allergens) in the format of ../shared/eval/menus. Dishes
and their allergens come from standard recipes (EU 14 allergens), written for
this generator, one table per language; a menu draws 7 dishes of its language.

The default seed, 15, is the fixed TEST seed: nothing is tuned on it.

Usage: python3 Benchmarks/gen_lang_menus.py OUT_DIR [--seed 15] [--per-language 3]
Needs Pillow and fonts-dejavu-core (both on Debian 12 with python3-pil).
"""
import argparse, json, os, random

from PIL import Image, ImageDraw, ImageFilter, ImageFont

# (section, [(name, description, allergens)])
DISHES = {
    "eng": [("STARTERS", [
        ("Tomato soup", "with basil, cream and toasted bread", ["milk", "gluten"]),
        ("Prawn cocktail", "with lettuce and Marie Rose sauce", ["crustaceans", "eggs"]),
        ("Garlic mushrooms", "on sourdough toast with butter", ["gluten", "milk"]),
        ("Hummus", "with chickpeas, tahini and warm pitta bread", ["sesame", "gluten"]),
    ]), ("MAINS", [
        ("Fish and chips", "cod in beer batter, mushy peas and tartare sauce", ["fish", "gluten", "eggs"]),
        ("Chicken satay", "grilled skewers with peanut sauce and rice", ["peanuts", "soybeans"]),
        ("Beef burger", "brioche bun, cheddar cheese, mustard mayonnaise", ["gluten", "milk", "eggs", "mustard"]),
        ("Mushroom risotto", "with parmesan and white wine", ["milk", "sulphites"]),
        ("Grilled salmon", "with lemon, almonds and green beans", ["fish", "tree_nuts"]),
    ])],
    "deu": [("VORSPEISEN", [
        ("Tomatensuppe", "mit frischem Basilikum und Sahne", ["milk"]),
        ("Gebackener Camembert", "mit Preiselbeeren und Toast", ["milk", "gluten", "eggs"]),
        ("Krabbencocktail", "mit Salat und Cocktailsoße", ["crustaceans", "eggs"]),
        ("Selleriesuppe", "mit gerösteten Walnüssen", ["celery", "tree_nuts"]),
    ]), ("HAUPTGERICHTE", [
        ("Wiener Schnitzel", "vom Kalb mit Kartoffelsalat und Preiselbeeren", ["gluten", "eggs", "mustard"]),
        ("Käsespätzle", "mit Röstzwiebeln und grünem Salat", ["gluten", "eggs", "milk"]),
        ("Forelle Müllerin", "mit Mandelbutter und Salzkartoffeln", ["fish", "tree_nuts", "milk", "gluten"]),
        ("Rinderroulade", "mit Senf, Speck und Rotkohl", ["mustard", "celery", "sulphites"]),
        ("Bratwurst", "mit Sauerkraut und Senf", ["mustard", "sulphites"]),
    ])],
    "fra": [("ENTRÉES", [
        ("Soupe à l'oignon", "gratinée au fromage et croûtons", ["gluten", "milk"]),
        ("Escargots", "au beurre persillé et à l'ail", ["molluscs", "milk"]),
        ("Salade niçoise", "au thon, œufs et anchois", ["fish", "eggs"]),
        ("Terrine de campagne", "aux noisettes et cornichons", ["tree_nuts", "mustard"]),
    ]), ("PLATS", [
        ("Moules marinières", "au vin blanc, crème et frites", ["molluscs", "sulphites", "milk"]),
        ("Croque-monsieur", "jambon, gruyère et béchamel", ["gluten", "milk"]),
        ("Filet de saumon", "sauce beurre blanc et légumes du marché", ["fish", "milk"]),
        ("Bœuf bourguignon", "au vin rouge, lardons et céleri", ["sulphites", "celery"]),
        ("Crêpes au sarrasin", "œuf, fromage et jambon", ["eggs", "milk"]),
    ])],
    "spa": [("ENTRANTES", [
        ("Gambas al ajillo", "con aceite de oliva y guindilla", ["crustaceans"]),
        ("Tortilla española", "de patatas, huevos y cebolla", ["eggs"]),
        ("Croquetas de jamón", "con bechamel y pan rallado", ["gluten", "milk", "eggs"]),
        ("Calamares a la romana", "rebozados con harina y limón", ["molluscs", "gluten", "eggs"]),
    ]), ("PLATOS PRINCIPALES", [
        ("Paella de marisco", "con mejillones, gambas y calamares", ["crustaceans", "molluscs", "fish"]),
        ("Merluza en salsa verde", "con almejas y perejil", ["fish", "molluscs", "gluten"]),
        ("Pollo al ajillo", "con patatas fritas", []),
        ("Ensalada de queso de cabra", "con nueces y miel", ["milk", "tree_nuts"]),
        ("Pan con tomate", "y jamón serrano", ["gluten"]),
    ])],
    "ita": [("ANTIPASTI", [
        ("Bruschetta", "con pomodoro, aglio e basilico", ["gluten"]),
        ("Vitello tonnato", "con salsa di tonno e capperi", ["fish", "eggs"]),
        ("Carpaccio di manzo", "con rucola e parmigiano", ["milk"]),
        ("Insalata caprese", "con mozzarella di bufala", ["milk"]),
    ]), ("PRIMI E SECONDI", [
        ("Spaghetti alla carbonara", "con guanciale, uova e pecorino", ["gluten", "eggs", "milk"]),
        ("Risotto ai funghi porcini", "con burro e parmigiano", ["milk", "sulphites"]),
        ("Linguine allo scoglio", "con cozze, vongole e gamberi", ["gluten", "molluscs", "crustaceans"]),
        ("Trofie al pesto", "con pinoli e basilico", ["gluten", "tree_nuts", "milk"]),
        ("Tiramisù", "con mascarpone, caffè e savoiardi", ["eggs", "milk", "gluten"]),
    ])],
}
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def menu(rng, lang):
    sections = []
    for title, dishes in DISHES[lang]:
        pick = rng.sample(dishes, k=min(len(dishes), rng.choice([3, 4])))
        sections.append((title, pick))
    return sections


def render(sections, rng, path_png):
    W, H = 1400, 2000
    bg = rng.randint(232, 250)
    img = Image.new("L", (W, H), bg)
    d = ImageDraw.Draw(img)
    size = rng.choice([30, 34, 38])
    f, fb, fs = ImageFont.truetype(FONT, size), ImageFont.truetype(BOLD, size + 8), ImageFont.truetype(FONT, size - 6)
    y = 100
    lines, items = [], []
    decimal = ","
    for title, dishes in sections:
        d.text((100, y), title, font=fb, fill=20)
        lines.append(title)
        y += int((size + 8) * 1.8)
        for name, desc, allergens in dishes:
            price = f"{rng.randint(4, 24)}{decimal}{rng.choice(['00', '50', '90', '20'])}"
            d.text((100, y), name, font=f, fill=15)
            pw = d.textlength(price, font=f)
            d.text((W - 100 - pw, y), price, font=f, fill=15)
            lines.append(f"{name} {price}")
            y += int(size * 1.35)
            d.text((120, y), desc, font=fs, fill=50)
            lines.append(desc)
            y += int(size * 1.7)
            items.append({"section": title, "name": name, "description": desc, "price": price,
                          "allergens": sorted(allergens), "may_contain": []})
        y += size
    img = img.crop((0, 0, W, min(H, y + 80)))
    img = img.filter(ImageFilter.GaussianBlur(radius=rng.choice([0.0, 0.6, 0.9])))
    img.save(path_png)
    return lines, items


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--per-language", type=int, default=3)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rng = random.Random(a.seed)
    for lang in DISHES:
        for k in range(a.per_language):
            name = f"gen-{lang}-{a.seed}-{k + 1}"
            lines, items = render(menu(rng, lang), rng, os.path.join(a.out, name + ".png"))
            open(os.path.join(a.out, name + ".gt.txt"), "w").write("\n".join(lines) + "\n")
            json.dump(items, open(os.path.join(a.out, name + ".items.json"), "w"), ensure_ascii=False, indent=1)
    print(f"{len(DISHES) * a.per_language} menus in {a.out} (seed {a.seed})")


if __name__ == "__main__":
    main()
