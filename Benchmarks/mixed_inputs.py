#!/usr/bin/env python3
"""A mixed folder in one run, and the throughput of PDF text-layer pages.

1. Builds a folder in a temporary directory: samples/menu-photo.jpg (JPEG),
   samples/menu-clean.png (PNG), the PNG converted to HEIC with `heif-enc`
   (libheif-examples), a 3-page PDF with a text layer and a 1-page image-only
   PDF (the JPEG embedded), both written by the tiny PDF writer below
   (Helvetica, WinAnsi). Scans it in one `menuscan scan` run and checks: every
   file and every page has a result; each text-layer page's NAME.pN.txt holds
   exactly the lines written into the PDF (blank lines between blocks aside).
2. Throughput: N PDFs of 10 text-layer pages each (different menus), one
   run, `--jobs 2`; pages/s = pages / wall seconds of the whole command
   (process start, discovery, writing the outputs and the summary included).

Usage: python3 Benchmarks/mixed_inputs.py [--bin .build/release/menuscan] [--pdfs 20]
"""
import argparse, json, os, random, shutil, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def pdf_literal(s):
    out = "("
    for ch in s:
        o = ord(ch)
        if ch in "()\\":
            out += "\\" + ch
        elif o < 128:
            out += ch
        elif o < 256:
            out += "\\%03o" % o
        else:
            out += "?"
    return out + ")"


def write_pdf(path, pages):
    """pages: list of dicts {lines: [(text, x, y, size)], image: (jpeg bytes, w, h, x, y, dw, dh) or None}."""
    objs = []

    def add(body):
        objs.append(body)
        return len(objs)

    catalog, pages_obj = add(b""), add(b"")
    font = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    kids = []
    for p in pages:
        ops, xobj = "", ""
        if p.get("image"):
            jpeg, w, h, x, y, dw, dh = p["image"]
            im = add(b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length %d >>\nstream\n" % (w, h, len(jpeg)) + jpeg + b"\nendstream")
            xobj = "/Im0 %d 0 R" % im
            ops += "q %g 0 0 %g %g %g cm /Im0 Do Q\n" % (dw, dh, x, y)
        for text, x, y, size in p.get("lines", []):
            ops += "BT /F1 %g Tf %g %g Td %s Tj ET\n" % (size, x, y, pdf_literal(text))
        data = ops.encode("latin-1")
        content = add(b"<< /Length %d >>\nstream\n" % len(data) + data + b"endstream")
        kids.append(add(("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 %d 0 R >> /XObject << %s >> >> /Contents %d 0 R >>" % (pages_obj, font, xobj, content)).encode()))
    objs[catalog - 1] = b"<< /Type /Catalog /Pages %d 0 R >>" % pages_obj
    objs[pages_obj - 1] = ("<< /Type /Pages /Kids [%s] /Count %d >>" % (" ".join("%d 0 R" % k for k in kids), len(kids))).encode()
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\n")
    offsets = []
    for i, body in enumerate(objs):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % (i + 1) + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    for o in offsets:
        out += b"%010d 00000 n \n" % o
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, catalog, xref)
    open(path, "wb").write(out)


DISHES = ["Tomato soup with basil 6.50", "Garlic bread with butter 4.00", "Caesar salad with anchovies 9.00",
          "Grilled salmon with dill potatoes 18.50", "Mushroom risotto with parmesan 14.00", "Beef burger with cheddar 13.50",
          "Chicken satay with peanut sauce 12.00", "Fish and chips with tartare sauce 15.00", "Lemon tart with cream 6.00",
          "Chocolate mousse with hazelnuts 6.50", "Käsespätzle mit Röstzwiebeln 11,20", "Crème brûlée à la vanille 7,00"]
SECTIONS = ["STARTERS", "MAINS", "DESSERTS", "SIDES", "DRINKS"]


def text_page(rng):
    lines, y = [], 720.0
    for _ in range(rng.randint(2, 3)):
        lines.append((rng.choice(SECTIONS), 72, y, 14)); y -= 20
        for d in rng.sample(DISHES, rng.randint(3, 5)):
            lines.append((d, 72, y, 11)); y -= 16
        y -= 30
    return {"lines": lines}


def scan(binary, src, out, jobs):
    t = time.monotonic()
    r = subprocess.run(["nice", binary, "scan", src, "--out", out, "--jobs", str(jobs), "--quiet"], capture_output=True, text=True)
    return time.monotonic() - t, r.returncode


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, ".build", "release", "menuscan"))
    ap.add_argument("--pdfs", type=int, default=20)
    a = ap.parse_args()
    rng = random.Random(15)
    tmp = tempfile.mkdtemp(prefix="mixed-")
    src = os.path.join(tmp, "in"); os.makedirs(src)
    shutil.copy(os.path.join(ROOT, "samples", "menu-photo.jpg"), os.path.join(src, "photo.jpg"))
    shutil.copy(os.path.join(ROOT, "samples", "menu-clean.png"), os.path.join(src, "clean.png"))
    if shutil.which("heif-enc"):
        subprocess.run(["heif-enc", "-q", "90", "-o", os.path.join(src, "phone.heic"), os.path.join(ROOT, "samples", "menu-clean.png")],
                       check=True, capture_output=True)
    else:
        print("heif-enc not installed (apt-get install libheif-examples): no HEIC in the folder")
    pages = [text_page(rng) for _ in range(3)]
    write_pdf(os.path.join(src, "menu.pdf"), pages)
    jpeg = open(os.path.join(ROOT, "samples", "menu-photo.jpg"), "rb").read()
    w, h = (int(x) for x in subprocess.run(["python3", "-c", "from PIL import Image;import sys;im=Image.open(sys.argv[1]);print(*im.size)",
                                             os.path.join(ROOT, "samples", "menu-photo.jpg")], capture_output=True, text=True).stdout.split())
    dw = 540.0; dh = dw * h / w
    write_pdf(os.path.join(src, "scan.pdf"), [{"image": (jpeg, w, h, 36, 756 - dh, dw, dh)}])
    out = os.path.join(tmp, "out")
    secs, rc = scan(a.bin, src, out, 2)
    print(f"### Mixed folder: `menuscan scan` (--jobs 2), {secs:.1f} s, exit {rc}\n")
    print("| output | format | page | engine | status | text = PDF text |")
    print("| --- | --- | ---: | --- | --- | --- |")
    expected = ["photo", "clean", "phone", "menu.p1", "menu.p2", "menu.p3", "scan.p1"]
    ok = True
    for name in expected:
        path = os.path.join(out, name + ".json")
        if not os.path.exists(path):
            print(f"| {name} | MISSING | | | | |"); ok = False; continue
        j = json.load(open(path))
        s, o = j["source"], j.get("ocr") or {}
        same = ""
        if name.startswith("menu.p"):
            k = int(name[-1]) - 1
            got = [l for l in open(os.path.join(out, name + ".txt")).read().split("\n") if l.strip()]
            want = [t for t, *_ in pages[k]["lines"]]
            same = "yes" if got == want else f"NO ({got[:2]} vs {want[:2]})"
            ok &= got == want
        print(f"| {name} | {s.get('format')} | {s.get('page', '')} | {o.get('engine', '')} | {j['status']} | {same} |")
    print(f"\nall present and text-layer text exact: {ok}")

    # Throughput of text-layer pages.
    tsrc = os.path.join(tmp, "tp"); os.makedirs(tsrc)
    n = 0
    for i in range(a.pdfs):
        write_pdf(os.path.join(tsrc, f"menu{i:03d}.pdf"), [text_page(rng) for _ in range(10)])
        n += 10
    secs, rc = scan(a.bin, tsrc, os.path.join(tmp, "tp-out"), 2)
    summary = json.load(open(os.path.join(tmp, "tp-out", "summary.json")))
    engines = {}
    for p in range(a.pdfs):
        for k in range(1, 11):
            e = (json.load(open(os.path.join(tmp, "tp-out", f"menu{p:03d}.p{k}.json"))).get("ocr") or {}).get("engine")
            engines[e] = engines.get(e, 0) + 1
    print(f"\n### Text-layer pages: {n} pages in {a.pdfs} PDFs, --jobs 2, exit {rc}\n")
    print(f"wall {secs:.2f} s, {n / secs:.1f} pages/s (summary.json photosPerSecond {summary.get('photosPerSecond')}); engines {engines}")
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
