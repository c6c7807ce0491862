# PanTrace: `make serve` runs the live viewer, `make test` runs every test.
# Both install what is missing first (scripts/setup.sh says what it installs).

SWIFT      ?= swift
BIN        := .build/debug/pantrace
FUZZ_DIR   := .build/fuzz
FUZZ_TIME  ?= 60
# Data from outside the repository that some tests read (other projects' velocity vectors,
# real touch captures): PANTRACE_SHARED, by default ../shared beside the clone. When it is
# absent those tests are skipped, each saying so.
PANTRACE_SHARED ?= ../shared
export PANTRACE_SHARED := $(abspath $(PANTRACE_SHARED))

.PHONY: all build lint test test-bridge test-web test-browser test-emit serve bench fuzz fuzz-smoke autobahn crash-trials setup clean atlas test-snap test-trials

all: build

setup:
	@scripts/setup.sh build

build: setup
	$(SWIFT) build

# The live viewer on 127.0.0.1 with the bundled recordings.
serve: build
	$(BIN) serve --host 127.0.0.1 --port 8080 --recordings recordings --web web

# The toolchain's formatter with the committed .swift-format (no finding allowed), a build
# with warnings as errors (its own scratch folder, so the test build is not redone), and
# node --check on every viewer module.
lint: setup
	swift format lint --strict --recursive Sources Tests Benchmarks Package.swift
	$(SWIFT) build --build-tests -Xswiftc -warnings-as-errors --scratch-path .build-lint
	@for f in web/*.mjs web/tests/*.mjs; do node --check "$$f" || exit 1; done; echo "lint: node --check passed on web/"

# docs/DETENTS.md's atlas: real gestures as sheet drags through every library (shared captures too
# when PANTRACE_SHARED holds them).
atlas: build
	python3 scripts/detent-atlas.py $(BIN)

# Fuzz smoke, the real-server and browser tests first, so the Swift test summary is printed last.
test: build fuzz-smoke test-bridge test-web test-browser
	@if [ -d "$(PANTRACE_SHARED)" ]; then echo "test: shared test data from $(PANTRACE_SHARED)"; \
	else echo "test: no shared test data at $(PANTRACE_SHARED): the velocity-vector and real-capture tests are skipped (set PANTRACE_SHARED to the folder to run them)"; fi
	$(SWIFT) test

# A real `pantrace serve` against real WebSocket clients (Python websockets, raw sockets).
test-bridge: build
	@scripts/setup.sh python
	.venv/bin/python -m pytest Tests/bridge -q -p no:cacheprovider

# The viewer's pure modules against the golden protocol fixtures (Node 20, no npm).
test-web:
	node --test web/tests

# The viewer in a real headless Chromium against a real `pantrace serve`
# (installs chromium, chromium-driver and selenium when missing, and says so).
test-browser: build
	@scripts/browser-deps.sh
	.venv/bin/python -m pytest Tests/browser -q -p no:cacheprovider

# The Chromium loop of `pantrace emit` on every bundled and shared real recording (about 12
# minutes more than `make test`, which performs the bundled ones).
test-emit: build
	@scripts/browser-deps.sh
	PANTRACE_EMIT_ALL=1 .venv/bin/python -m pytest Tests/browser/test_emit_webdriver.py -q -s -p no:cacheprovider

# The css-scroll-snap preset against Chromium's own scroll snap: 200+ flings a page, with and
# without scroll-snap-stop (about sixteen minutes; docs/DETENTS.md).
test-snap: build
	@scripts/browser-deps.sh
	PANTRACE_SNAP_ALL=1 .venv/bin/python -m pytest Tests/browser/test_snap_loop.py -q -s -p no:cacheprovider

# Target trials on the record pad: a scripted person makes 300 labelled detent gestures in
# Chromium, and every sheet library is tuned on them and emits its code (about 15 minutes;
# `make test` runs 30). The reports land in build/trials/.
test-trials: build
	@scripts/browser-deps.sh
	PANTRACE_TRIALS=300 .venv/bin/python -m pytest Tests/browser/test_trials.py -q -s -p no:cacheprovider

# Release-build benchmarks; results are copied into BENCHMARKS.md by hand.
bench: setup
	$(SWIFT) build -c release --product CodecBench
	$(SWIFT) build -c release --product EngineBench
	$(SWIFT) build -c release --product CaptureBench
	$(SWIFT) build -c release --product ReplayBench
	$(SWIFT) build -c release --product TuneBench
	.build/release/CodecBench
	.build/release/EngineBench
	.build/release/CaptureBench
	.build/release/ReplayBench
	@$(MAKE) --no-print-directory .venv-bench/pinned
	.venv-bench/bin/python Benchmarks/tune/peer.py .build/release/TuneBench
	$(SWIFT) build -c release --product pantrace
	.venv-bench/bin/python Benchmarks/tune/end_to_end.py --sizes 100000,1000000 --repeats 3
	.venv-bench/bin/python Benchmarks/size_floor.py
	.venv-bench/bin/python Benchmarks/block_coding.py
	.venv-bench/bin/python Benchmarks/replay/peer.py
	.venv-bench/bin/python Benchmarks/tune/dask_shards.py
	@scripts/setup.sh python
	.venv/bin/python Benchmarks/bridge/load.py --repeat 3 --seconds 5 --flood-seconds 3
	.venv/bin/python Benchmarks/bridge/load.py --clients 2000 --flood-rates "" --repeat 1 --seconds 5 --skip-idle-clients --only pantrace,peer
	cd Benchmarks/bridge && ../../.venv/bin/python device_fanout.py --pages 200,1000 --seconds 5 --repeat 2
	.venv/bin/python Benchmarks/bridge/device_latency.py
	.venv/bin/python Benchmarks/bridge/storm.py
	.venv/bin/python Benchmarks/bridge/tune_library.py --sizes 3000,30000
	cd Benchmarks/bridge && ../../.venv/bin/python watch_only.py --pages 10,100,1000 --seconds 8
	@scripts/browser-deps.sh
	.venv/bin/python Benchmarks/viewer/latency.py

# The benchmark-only Python packages (numpy, pyarrow, polars, zstandard, orjson, dask[distributed]), pinned in
# Benchmarks/requirements.txt, in their own venv so the test venv stays small.
.venv-bench/pinned: Benchmarks/requirements.txt
	@echo "bench: installing Benchmarks/requirements.txt into .venv-bench"
	python3 -m venv .venv-bench
	.venv-bench/bin/pip install --quiet -r Benchmarks/requirements.txt
	@touch $@

# libFuzzer on the .pantrace reader (bounded: FUZZ_TIME seconds).
fuzz: setup
	@scripts/fuzz.sh $(FUZZ_TIME)

fuzz-smoke: setup
	@scripts/fuzz.sh 10

# Optional, longer than `make test`'s 20: 100 kill -9 trials each of `record --from -` (into files and
# into a corpus file) and of a live recording in `serve`, failing if any loses more than 100 ms of gesture.
crash-trials: build
	@scripts/setup.sh python
	PANTRACE_KILL_TRIALS=100 .venv/bin/python -m pytest Tests/bridge/test_crash_safety.py -q -s -p no:cacheprovider

# Optional, not part of `make test`: the Autobahn|Testsuite fuzzing client (cases 1–7 and 10)
# against `pantrace serve --echo`. Needs a Python 2.7 interpreter; installs wstest into
# .autobahn/ (and says so), writes the reports there, fails if any case FAILED.
autobahn: setup
	@scripts/autobahn.sh

clean:
	rm -rf .build .build-* $(FUZZ_DIR)
