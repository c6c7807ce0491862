#!/usr/bin/env bash
# Builds the .pantrace reader with libFuzzer + AddressSanitizer and runs it for $1 seconds
# over a seed corpus of synthetic recordings (whole and truncated), version 1 files and a
# live-layout recording.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
out=.build/fuzz
mkdir -p "$out/corpus" "$out/artifacts"

sources=$(find Sources/PanTrace -name '*.swift' | sort)
if [ ! -x "$out/reader" ] || [ -n "$(find Sources/PanTrace Fuzz -newer "$out/reader" -name '*.swift' | head -1)" ]; then
    echo "fuzz: building the reader fuzzer"
    swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name PanTraceFuzz \
        -swift-version 6 \
        -enable-upcoming-feature InternalImportsByDefault \
        -enable-upcoming-feature ExistentialAny \
        -enable-upcoming-feature MemberImportVisibility \
        -I Sources/CZlib \
        Fuzz/FuzzTraceReader.swift $sources -o "$out/reader" 2>"$out/build.log" || {
        grep -v 'Cannot export local symbol' "$out/build.log" >&2
        exit 1
    }
fi

if [ -z "$(ls -A "$out/corpus")" ]; then
    swift build --product pantrace >/dev/null
    .build/debug/pantrace synth -o "$out/seed" --count 8 --seed 11 >/dev/null
    i=0
    for f in "$out"/seed/*.pantrace; do
        cp "$f" "$out/corpus/seed-$i"
        head -c $(( $(stat -c %s "$f") / 2 )) "$f" > "$out/corpus/half-$i"
        i=$((i + 1))
    done
    rm -rf "$out/seed"
    # Format version 1 files, which the reader still decodes with their own column coding.
    for f in Tests/PanTraceTests/Fixtures/version1/*.pantrace; do cp "$f" "$out/corpus/v1-$(basename "$f")"; done
    # A recording in the live layout (a chunk every 100 ms, deflated at level 1).
    cp recordings/real/flutter-velocityEventData-05-1.pantrace "$out/corpus/live-0"
fi

echo "fuzz: running the reader fuzzer for ${seconds}s"
"$out/reader" -max_total_time="$seconds" -max_len=4096 -artifact_prefix="$out/artifacts/" \
    -print_final_stats=0 "$out/corpus" 2>"$out/last-run.log" || {
    tail -n 40 "$out/last-run.log" >&2
    echo "fuzz: FAILED; the crashing input is in $out/artifacts/" >&2
    exit 1
}
grep -E '^#[0-9]+.*DONE' "$out/last-run.log" | tail -n 1 | sed 's/^/fuzz: /' || true
echo "fuzz: no crash"
