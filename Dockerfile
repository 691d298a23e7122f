# MenuScan image: build with Swift 6 on Debian 12, run on debian:bookworm-slim.
#   make image                 (docker build -t menuscan:latest .)
#   docker run --rm -v "$PWD/photos:/data/photos:ro" -v "$PWD/out:/data/out" menuscan:latest \
#       scan /data/photos --out /data/out
# deploy/kubernetes-job.yaml runs this image. The runtime packages are the ones
# in deploy/runtime-packages.txt, the same list `make setup` installs.

ARG SWIFT_IMAGE=swift:6.1-bookworm

FROM ${SWIFT_IMAGE} AS build
# The -dev packages of the C targets (the Makefile's BUILD_PACKAGES).
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      pkg-config libtesseract-dev libleptonica-dev libpng-dev libheif-dev libpoppler-glib-dev libcairo2-dev \
      python3 wamerican wngerman wfrench witalian wspanish \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources Sources
COPY models models
COPY Benchmarks/build_wordlist.py Benchmarks/build_wordlist.py
# The read-quality word list is built from the Debian word lists (the Makefile's $(WORDLIST)).
RUN python3 Benchmarks/build_wordlist.py --out models/read-quality/words.txt
# The Swift runtime is linked in, so the runtime image needs no toolchain.
RUN swift build -c release --product menuscan --static-swift-stdlib \
 && install -D -m 0755 "$(swift build -c release --show-bin-path)/menuscan" /out/bin/menuscan

FROM debian:bookworm-slim
COPY deploy/runtime-packages.txt /tmp/runtime-packages.txt
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      $(grep -v '^#' /tmp/runtime-packages.txt) \
 && rm -rf /var/lib/apt/lists/* /tmp/runtime-packages.txt \
 && useradd --system --uid 10001 --user-group --home-dir /data --no-create-home menuscan \
 && mkdir -p /data && chown menuscan:menuscan /data
# models/ beside bin/: ModelLocator finds /opt/menuscan/models from the executable.
COPY --from=build /out/bin/menuscan /opt/menuscan/bin/menuscan
COPY --from=build /src/models /opt/menuscan/models
ENV PATH=/opt/menuscan/bin:$PATH
USER menuscan
WORKDIR /data
ENTRYPOINT ["menuscan"]
CMD ["--help"]
