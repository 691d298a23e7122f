#!/usr/bin/env python3
"""Instruction counts per pipeline stage from callgrind (issue 16, round 4).

Instruction counts do not depend on the load of the shared machine, so they
compare two binaries (or settings) where CPU seconds cannot. A stage's count is
the inclusive count of the Swift function that runs it (callgrind_annotate
--inclusive=yes on a `strip -g` copy of the release binary, whose symbol table
names the functions). Benchmarks/callgrind_profile.sh makes the files.

usage: Benchmarks/callgrind_stages.py CALLGRIND_FILE [CALLGRIND_FILE2]   (two: side by side)
       Benchmarks/callgrind_stages.py --cli DIR     (total of the tesseract CLI's files in DIR)
"""
import glob
import re
import subprocess
import sys

# stage → regular expression on the mangled name of the function that runs it.
STAGES = [
    ("worker start (models, lexicon, word list)", r"\$s11MenuScanKit14PhotoProcessorC8settingsAcA0B8SettingsV_tAA0aB5ErrorVYKcfc$"),
    ("  of which lexicon", r"\$s11MenuScanKit15AllergenLexiconV11loadDefault"),
    ("  of which word list", r"\$s11MenuScanKit8WordListV6shared_WZ$"),
    ("  of which Tesseract init", r"\$s11MenuScanKit15TesseractEngineC8settingsAcA11OCRSettingsV_tAA0aB5ErrorVYKcfc$"),
    ("photos (PhotoProcessor.process)", r"\$s11MenuScanKit14PhotoProcessorC7process6fileAt"),
    ("decode", r"\$s11MenuScanKit12ImageDecoderV6decode5bytes"),
    ("gray copy + shared components", r"\$s11MenuScanKit11WorkingGrayV5photo"),
    ("quality", r"\$s11MenuScanKit11QualityGateV6assess_8analysis"),
    ("preprocess (rescale)", r"\$s11MenuScanKit14PhotoProcessorC7prepare_10textHeight"),
    ("ocrCopyQuality", r"\$s11MenuScanKit15QualityAnalysisO7ocrCopy_5scale"),
    ("ocr (page reads)", r"\$s11MenuScanKit15TesseractEngineC9recognizeyAA7OCRPage"),
    ("osd", r"\$s11MenuScanKit14PhotoProcessorC6orient_"),
    # orient is inlined in some builds (0 above): Tesseract's own OSD call counts it either way.
    ("  osd in Tesseract (DetectOS)", r"^tesseract::TessBaseAPI::DetectOS\("),
    ("ink map", r"\$s11MenuScanKit18TextRegionAnalyzerV6inkMap2of9findRules"),
    ("  of which ruling lines", r"\$s11MenuScanKit14RuleLineFinderO4find2in"),
    ("recover lines", r"\$s11MenuScanKit14PhotoProcessorC12recoverLines4page"),
    ("recover prices", r"\$s11MenuScanKit14PhotoProcessorC13recoverPrices4page"),
    ("reading order", r"\$s11MenuScanKit12ReadingOrderV5apply2to5rules"),
    ("classify (menu)", r"\$s11MenuScanKit0A8AnalyzerV7analyze4page7profile"),
    ("hotspots", r"\$s11MenuScanKit12HotspotStageV3run4page"),
    ("readQuality", r"\$s11MenuScanKit16ReadQualityStageV6assess4page"),
]


def inclusive(path):
    out = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", path],
                         capture_output=True, text=True, check=True).stdout
    counts, total = {}, 0
    for line in out.splitlines():
        m = re.match(r"\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(\S+?):(.+?)(?: \[.*\])?$", line)
        if m:
            counts[m.group(3)] = int(m.group(1).replace(",", ""))
        t = re.match(r"\s*([\d,]+)\s+\(100.0%\)\s+PROGRAM TOTALS", line)
        if t:
            total = int(t.group(1).replace(",", ""))
    return counts, total


def stage_counts(path):
    counts, total = inclusive(path)
    rows = [("process total", total)]
    for name, pattern in STAGES:
        rx = re.compile(pattern)
        rows.append((name, sum(c for f, c in counts.items() if rx.search(f))))
    return rows


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    if args[0] == "--cli":
        total = 0
        for f in sorted(glob.glob(args[1] + "/cg.*")):
            for line in open(f):
                if line.startswith("summary:") or line.startswith("totals:"):
                    total += int(line.split()[1])
                    break
        print("tesseract CLI total: %d instructions (%.2f G)" % (total, total / 1e9))
        return
    tables = [stage_counts(p) for p in args]
    print("| stage | " + " | ".join("G instructions (%s)" % p.split("/")[-2] for p in args) + " |")
    print("|---" * (len(args) + 1) + "|")
    for i, (name, _) in enumerate(tables[0]):
        print("| %s | %s |" % (name, " | ".join("%.3f" % (t[i][1] / 1e9) for t in tables)))


if __name__ == "__main__":
    main()
