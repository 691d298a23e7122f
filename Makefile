# MenuScan — `make demo` and `make test` work on a fresh Debian machine as root.
SHELL := /bin/bash
APT_PACKAGES := pkg-config libtesseract-dev libleptonica-dev libpng-dev \
	tesseract-ocr-eng tesseract-ocr-osd \
	tesseract-ocr-fra tesseract-ocr-deu tesseract-ocr-spa tesseract-ocr-ita
# wamerican: the word list Benchmarks/build_wordlist.py builds models/read-quality/words.txt from
APT_PACKAGES += wamerican
SWIFT ?= swift
BIN_DEBUG := .build/debug/menuscan
BIN := .build/release/menuscan
OUT ?= out
JOBS ?= $(shell nproc)

.PHONY: setup build build-debug test demo bench memcheck report-check clean

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

## build: release build of the menuscan CLI
build: setup
	$(SWIFT) build -c release --product menuscan

build-debug: setup
	$(SWIFT) build

## test: unit and end-to-end tests
test: setup
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

## report-check: the HTML report in a real browser (installs Debian's chromium,
## ~300 MB, so it is not part of `make test`; `make test` runs the same check
## whenever chromium is already installed and skips it otherwise)
report-check: setup
	@dpkg-query -W -f='$${Status}' chromium 2>/dev/null | grep -q "install ok installed" || { \
	  SUDO=""; [ "$$(id -u)" -eq 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends chromium; }
	$(SWIFT) build
	$(SWIFT) test --filter HotspotReportTests

clean:
	rm -rf .build .build-asan $(OUT)
