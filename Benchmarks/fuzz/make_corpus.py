#!/usr/bin/env python3
"""Seed corpus of broken and odd images for `make fuzz` (written to the folder
given, never committed). Deterministic (fixed seed). Needs Pillow (Debian
python3-pil).

Kinds: valid small PNG/JPEG/WebP/TIFF/BMP/GIF of rendered text; each truncated
at several points and with bits flipped; 1x1 and 1x40000 / 40000x1 images;
CMYK JPEG and TIFF; 16-bit grey PNG (values 0-255, so nearly black, and full
range); PNG/JPEG/WebP/TIFF whose headers claim 0.27-10 gigapixels (decompression bombs); a PDF, a
text file and an empty file named .jpg; the repo's samples (left out with
--no-samples: the end-to-end bad-input test scans this folder).

    python3 Benchmarks/fuzz/make_corpus.py OUT [--no-samples]
"""
import io
import os
import random
import sys

from PIL import Image, ImageDraw

args = [a for a in sys.argv[1:] if not a.startswith("--")]
with_samples = "--no-samples" not in sys.argv[1:]
out = args[0] if args else "corpus"
os.makedirs(out, exist_ok=True)
rng = random.Random(14)
here = os.path.dirname(os.path.abspath(__file__))
samples = os.path.join(here, "..", "..", "samples")


def put(name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)


def encode(im, fmt, **kw):
    b = io.BytesIO()
    im.save(b, fmt, **kw)
    return b.getvalue()


def text_image(w, h, mode="L"):
    im = Image.new(mode, (w, h), "white")
    d = ImageDraw.Draw(im)
    for i in range(0, h - 12, 16):
        d.text((4, i), "Soup 5.50  Pesto pasta 9.00"[: max(3, w // 7)], fill="black")
    d.line((w // 2, 0, w // 2, h), fill="black")
    return im


base = text_image(160, 120)
valid = {
    "png": encode(base, "PNG"),
    "jpg": encode(base, "JPEG", quality=80),
    "webp": encode(base, "WEBP"),
    "tif": encode(base, "TIFF"),
    "bmp": encode(base, "BMP"),
    "gif": encode(base, "GIF"),
}
for ext, data in valid.items():
    put(f"valid.{ext}", data)
    for cut in (8, 33, len(data) // 2, len(data) - 2):
        put(f"trunc{cut}.{ext}", data[:cut])
    for k in range(3):
        b = bytearray(data)
        for _ in range(1 + k * 4):
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
        put(f"flip{k}.{ext}", bytes(b))

put("one.png", encode(Image.new("L", (1, 1), 0), "PNG"))
put("tall.png", encode(Image.new("L", (1, 40000), 255), "PNG"))
put("wide.png", encode(Image.new("L", (40000, 1), 0), "PNG"))
put("cmyk.jpg", encode(text_image(96, 64, "RGB").convert("CMYK"), "JPEG"))
put("cmyk.tif", encode(text_image(96, 64, "RGB").convert("CMYK"), "TIFF"))
put("grey16.png", encode(text_image(96, 64).convert("I;16"), "PNG"))
grey = text_image(96, 64)
# 16-bit grey over the full range: each 8-bit value v becomes v * 257, whose
# little-endian bytes are (v, v).
put("grey16full.png", encode(Image.frombytes("I;16", grey.size, bytes(b for v in grey.tobytes() for b in (v, v))), "PNG"))
put("rgba.png", encode(text_image(96, 64, "RGBA"), "PNG"))
put("palette.png", encode(text_image(96, 64).convert("P"), "PNG"))

# Decompression bomb: a valid small PNG whose IHDR claims 100000 x 100000.
import struct
import zlib

png = bytearray(valid["png"])
ihdr = png[8 + 8: 8 + 8 + 13]
ihdr[0:8] = struct.pack(">II", 100000, 100000)
png[16:29] = ihdr
png[29:33] = struct.pack(">I", zlib.crc32(b"IHDR" + bytes(ihdr)) & 0xFFFFFFFF)
put("bomb.png", bytes(png))

# The same header lie in JPEG (SOF0: 60000 x 60000), WebP (VP8: 16383 x 16383,
# the format's largest) and TIFF (ImageWidth/ImageLength: 100000 x 100000).
jpg = bytearray(valid["jpg"])
sof = jpg.find(b"\xff\xc0")
jpg[sof + 5: sof + 9] = struct.pack(">HH", 60000, 60000)
put("bomb.jpg", bytes(jpg))
webp = bytearray(valid["webp"])
vp8 = webp.find(b"\x9d\x01\x2a")
assert webp[12:16] == b"VP8 " and vp8 > 0, "simple lossy WebP expected"
webp[vp8 + 3: vp8 + 7] = struct.pack("<HH", 16383, 16383)
put("bomb.webp", bytes(webp))
tif = bytearray(valid["tif"])
assert tif[:2] == b"II"
ifd = struct.unpack("<I", tif[4:8])[0]
for k in range(struct.unpack("<H", tif[ifd: ifd + 2])[0]):
    e = ifd + 2 + 12 * k
    tag, typ = struct.unpack("<HH", tif[e: e + 4])
    if tag in (256, 257):
        tif[e + 8: e + 12] = struct.pack("<H", 65535) + b"\0\0" if typ == 3 else struct.pack("<I", 100000)
put("bomb.tif", bytes(tif))

put("doc.pdf.jpg", b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")
put("text.jpg", b"Soup 5.50\nPesto pasta 9.00\n")
put("empty.jpg", b"")
for name in sorted(os.listdir(samples)) if with_samples else []:
    if name.endswith((".png", ".jpg")):
        with open(os.path.join(samples, name), "rb") as f:
            put("sample-" + name, f.read())
print(f"{len(os.listdir(out))} files in {out}")
