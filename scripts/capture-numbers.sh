#!/usr/bin/env bash
# Reproduces the capture numbers the docs quote, in its own scratch folder (SCRATCH, default
# .build-capture) so a build in .build is left alone:
#
#   1. docs/CAPTURE.md, "Release velocity on real captures": RealCaptureVelocityTests prints
#      the table and fails if it no longer matches. Needs the shared real captures
#      (PANTRACE_SHARED, else ../shared beside the clone); without them it is skipped and says so.
#   2. BENCHMARKS.md, "Capture": CaptureBench in a release build, each big log
#      CAPTURE_BENCH_LOG_MB MB (default here 256; the benchmark's own default is 1024).
#
# `scripts/capture-numbers.sh velocity` or `scripts/capture-numbers.sh bench` runs one of them.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=${SCRATCH:-.build-capture}
what=${1:-all}
case "$what" in
all | velocity | bench) ;;
*)
    echo "usage: scripts/capture-numbers.sh [all|velocity|bench]" >&2
    exit 2
    ;;
esac

if [ "$what" = all ] || [ "$what" = velocity ]; then
    swift build --build-tests --scratch-path "$scratch"
    swift test --skip-build --scratch-path "$scratch" --filter RealCaptureVelocityTests
fi
if [ "$what" = all ] || [ "$what" = bench ]; then
    swift build -c release --scratch-path "$scratch" --product CaptureBench
    CAPTURE_BENCH_LOG_MB=${CAPTURE_BENCH_LOG_MB:-256} "$scratch/release/CaptureBench"
fi
