# MenuScan — `make demo` and `make test` work on a fresh Debian machine as root.
SHELL := /bin/bash
# Run-time packages (libraries and language models): one list, shared with the Dockerfile.
RUNTIME_PACKAGES := $(shell grep -v '^\#' deploy/runtime-packages.txt)
# Build: the -dev packages of the C targets (the Dockerfile's build stage installs the same),
# and python3 with the Debian word lists Benchmarks/build_wordlist.py builds
# models/read-quality/words.txt from (4 MB: built, not kept in git).
WORDLIST_PACKAGES := python3 wamerican wngerman wfrench witalian wspanish
BUILD_PACKAGES := pkg-config libtesseract-dev libleptonica-dev libpng-dev libheif-dev libpoppler-glib-dev libcairo2-dev $(WORDLIST_PACKAGES)
# Tests and tools only: qpdf writes the encrypted PDF the PDF tests read; python3-pil
# generates `make fuzz`'s corpus of broken images.
TEST_PACKAGES := qpdf python3-pil
# Benchmarks only: fonts for Benchmarks/gen_menus.py, the tesseract CLI for reading_order_eval.py.
BENCH_PACKAGES := fonts-dejavu-core fonts-dejavu-extra fonts-liberation fonts-urw-base35 fonts-freefont-ttf tesseract-ocr
APT_PACKAGES := $(BUILD_PACKAGES) $(RUNTIME_PACKAGES) $(TEST_PACKAGES) $(BENCH_PACKAGES)
IMAGE ?= menuscan:latest
SWIFT ?= swift
BIN_DEBUG := .build/debug/menuscan
BIN := .build/release/menuscan
OUT ?= out
JOBS ?= $(shell nproc)
# The read-quality word list, rebuilt when the food tables or the script change.
WORDLIST := models/read-quality/words.txt

.PHONY: setup build build-debug test demo bench memcheck fuzz report-check image print-runtime-packages print-apt-packages clean

## setup: install the Debian packages the project needs (no-op when present)
setup:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  SUDO=""; [ "$$(id -u)" -eq 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi
	@command -v $(SWIFT) >/dev/null || { echo "swift not found: install Swift 6.1 or newer (swift.org) and put it on PATH"; exit 1; }

$(WORDLIST): Benchmarks/build_wordlist.py models/allergens/lexicon.tsv models/allergens/dishes.tsv models/allergens/provisional.tsv $(wildcard models/allergens/provisional-*.tsv) models/allergens/known.tsv | setup
	python3 Benchmarks/build_wordlist.py --out $@

## build: release build of the menuscan CLI
build: setup $(WORDLIST)
	$(SWIFT) build -c release --product menuscan

build-debug: setup $(WORDLIST)
	$(SWIFT) build

## test: unit and end-to-end tests
test: setup $(WORDLIST)
	$(SWIFT) build
	$(SWIFT) test

## demo: scan samples/ into out/ and print a summary
demo: build
	@rm -rf $(OUT)
	@$(BIN) scan samples --out $(OUT) --jobs $(JOBS); status=$$?; \
	echo; echo "Results in $(OUT)/ (one NAME.json and NAME.txt per photo, summary.json):"; \
	awk -F, 'NR==1 {next} {printf "  %-9s %-16s conf=%-6s items=%-3s allergens=%-3s %s\n", $$3, ($$4==""?"-":$$4), ($$5==""?"-":substr($$5,1,5)), ($$11==""?"-":$$11), ($$12==""?"-":$$12), $$1}' $(OUT)/summary.csv \
	|| cat $(OUT)/summary.json; \
	echo "(exit $$status: blank.png fails and corrupt.jpg is unreadable on purpose)"

## bench: menuscan bench on samples/ and, when present, on ../shared/eval (receipts, documents, menus)
EVAL ?= ../shared/eval
bench: build
	$(BIN) bench samples --out $(OUT)/bench/samples --jobs $(JOBS) \
	  --config default: --config plain:rotate=off,rescale=off,recover=off
	@if [ -d "$(EVAL)" ]; then for set in receipts documents menus; do \
	  $(BIN) bench $(EVAL)/$$set --out $(OUT)/bench/$$set --jobs $(JOBS) --quiet \
	    --config default: --config plain:rotate=off,rescale=off,recover=off,quality=warn > /dev/null || exit 1; \
	  echo "bench $$set: $(OUT)/bench/$$set/bench.md"; done; \
	else echo "no $(EVAL): benchmarked samples/ only"; fi

## memcheck: the OCR core under AddressSanitizer + LeakSanitizer over the samples
## (Debian's valgrind 3.19 cannot read the DWARF 5 that Swift 6 emits)
memcheck: setup
	$(SWIFT) build --sanitize=address --scratch-path .build-asan --product menuscan
	@ASAN_OPTIONS=detect_leaks=1:exitcode=99 OMP_THREAD_LIMIT=1 \
	  .build-asan/debug/menuscan scan samples --out /tmp/menuscan-memcheck --jobs 2 --quiet 2>/tmp/menuscan-memcheck.log; \
	status=$$?; if [ $$status -eq 99 ] || grep -q "Sanitizer" /tmp/menuscan-memcheck.log; then \
	  grep -E "ERROR|SUMMARY" /tmp/menuscan-memcheck.log; echo "memcheck: FAILED (see /tmp/menuscan-memcheck.log)"; exit 1; fi; \
	echo "memcheck: no invalid accesses, no leaks over samples/ (scan exit $$status)"

## fuzz: libFuzzer over decode → quality → ink map → region analysis (Sources/MenuScanFuzz)
## for FUZZ_SECONDS, from a corpus of broken images made by Benchmarks/fuzz/make_corpus.py;
## crashes land in .build-fuzz/findings/ (replay one: swift build --product MenuScanFuzz &&
## .build/debug/MenuScanFuzz FILE). Not part of `make test`.
FUZZ_SECONDS ?= 300
# Per-input wall-clock limit: a nice'd run on a loaded shared machine can stall
# a sub-second input for 30 s+ (replay a timeout-* finding to tell a real hang).
FUZZ_TIMEOUT ?= 30
fuzz: setup
	/usr/bin/python3 Benchmarks/fuzz/make_corpus.py .build-fuzz/corpus
	$(SWIFT) build --scratch-path .build-fuzz --product MenuScanFuzz -Xswiftc -sanitize=fuzzer -Xswiftc -DFUZZING
	@mkdir -p .build-fuzz/findings
	OMP_THREAD_LIMIT=1 .build-fuzz/debug/MenuScanFuzz .build-fuzz/corpus -max_total_time=$(FUZZ_SECONDS) \
	  -rss_limit_mb=2048 -timeout=$(FUZZ_TIMEOUT) -max_len=131072 -artifact_prefix=.build-fuzz/findings/ -print_final_stats=1

## report-check: the HTML report in a real browser (installs Debian's chromium,
## ~300 MB, so it is not part of `make test`; `make test` runs the same check
## whenever chromium is already installed and skips it otherwise)
report-check: setup
	@dpkg-query -W -f='$${Status}' chromium 2>/dev/null | grep -q "install ok installed" || { \
	  SUDO=""; [ "$$(id -u)" -eq 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends chromium; }
	$(SWIFT) build
	$(SWIFT) test --filter HotspotReportTests

## image: the container image from the Dockerfile (needs a Docker engine)
image:
	@command -v docker >/dev/null || { echo "make image: docker not found (the image needs a Docker engine; see Dockerfile)"; exit 1; }
	docker build -t $(IMAGE) .

print-runtime-packages:
	@echo $(RUNTIME_PACKAGES)

print-apt-packages:
	@echo $(APT_PACKAGES)

clean:
	rm -rf .build .build-asan .build-fuzz $(OUT)
