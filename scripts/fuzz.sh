#!/usr/bin/env bash
# Builds the two libFuzzer targets of the .pantrace reader (swiftc -sanitize=fuzzer,address,
# each compiled together with the PanTrace sources) and runs each for $1 seconds (default 60),
# one after the other: `scripts/fuzz.sh 60` takes about two minutes plus any build.
#
#   reader     Fuzz/FuzzTraceReader.swift: the input is the file. Seeded with synthetic
#              recordings (whole and truncated), version 1 files and a live-layout recording.
#   structure  Fuzz/FuzzTraceStructure.swift + Fuzz/TraceRecipe.swift: the input is a recipe
#              that builds a file of valid gzip members around hostile payloads, and whatever
#              the reader accepts must encode and read back the same (docs/FUZZING.md).
#
# FUZZ_TARGETS="structure" (or "reader") runs only those. Each target has its own binary
# (.build/fuzz/<target>), corpus (.build/fuzz/corpus/<target>/), crash artifacts
# (.build/fuzz/artifacts/<target>/) and log (.build/fuzz/<target>.log). A binary is rebuilt
# only when a source it is built from is newer or the list of sources changed. Prints one
# line per target with executions and coverage; exits 1 naming the saved input if any target
# crashed.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
targets=${FUZZ_TARGETS:-reader structure}
out=.build/fuzz
mkdir -p "$out/corpus" "$out/artifacts"

# Before there were two targets the reader's corpus and artifacts lay directly in these.
for dir in corpus artifacts; do
    if [ -n "$(find "$out/$dir" -maxdepth 1 -type f -print -quit)" ]; then
        mkdir -p "$out/$dir/reader"
        find "$out/$dir" -maxdepth 1 -type f -exec mv -t "$out/$dir/reader/" {} +
    fi
done

sources=$(find Sources/PanTrace -name '*.swift' | sort)

target_files() {
    case "$1" in
        reader) echo Fuzz/FuzzTraceReader.swift ;;
        structure) echo Fuzz/FuzzTraceStructure.swift Fuzz/TraceRecipe.swift ;;
        *) echo "fuzz: unknown target $1 (reader, structure)" >&2; return 1 ;;
    esac
}

build() {
    local name=$1 files bin=$out/$1
    files=$(target_files "$name")
    # The inputs by name: a removed or added source rebuilds too, not only a newer one.
    local manifest
    manifest=$(printf '%s\n' $files $sources Sources/CZlib/shim.h)
    if [ -x "$bin" ] && [ "$manifest" = "$(cat "$bin.inputs" 2>/dev/null)" ] \
        && [ -z "$(find $files $sources Sources/CZlib -newer "$bin" -print -quit)" ]; then
        return 0
    fi
    echo "fuzz: building the $name fuzzer"
    local attempt
    for attempt in 1 2 3; do
        # shellcheck disable=SC2086 # the file lists are meant to split
        if swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name PanTraceFuzz -package-name pantrace \
            -swift-version 6 \
            -enable-upcoming-feature InternalImportsByDefault \
            -enable-upcoming-feature ExistentialAny \
            -enable-upcoming-feature MemberImportVisibility \
            -I Sources/CZlib \
            $files $sources -o "$bin.new" 2>"$out/build-$name.log"; then
            break
        fi
        # A source saved while swiftc read it: build again (sources change under an editor).
        if [ "$attempt" -lt 3 ] && grep -q 'was modified during the build' "$out/build-$name.log"; then
            echo "fuzz: a source changed during the build; building the $name fuzzer again"
            continue
        fi
        grep -v 'Cannot export local symbol' "$out/build-$name.log" >&2
        echo "fuzz: building the $name fuzzer FAILED (log: $out/build-$name.log)" >&2
        return 1
    done
    mv "$bin.new" "$bin"
    printf '%s\n' "$manifest" >"$bin.inputs"
}

seed() {
    local name=$1 corpus=$out/corpus/$1
    mkdir -p "$corpus"
    [ -z "$(ls -A "$corpus")" ] || return 0
    case "$name" in
        reader)
            swift build --product pantrace >"$out/build-pantrace.log" 2>&1 || {
                tail -n 30 "$out/build-pantrace.log" >&2
                echo "fuzz: swift build --product pantrace FAILED (it writes the reader's seed recordings)" >&2
                return 1
            }
            .build/debug/pantrace synth -o "$out/seed" --count 8 --seed 11 >/dev/null
            local i=0 f
            for f in "$out"/seed/*.pantrace; do
                cp "$f" "$corpus/seed-$i"
                head -c $(( $(stat -c %s "$f") / 2 )) "$f" > "$corpus/half-$i"
                i=$((i + 1))
            done
            rm -rf "$out/seed"
            # Format version 1 files, which the reader still decodes with their own column coding.
            for f in Tests/PanTraceTests/Fixtures/version1/*.pantrace; do cp "$f" "$corpus/v1-$(basename "$f")"; done
            # A recording in the live layout (a chunk every 100 ms, deflated at level 1).
            cp recordings/real/flutter-velocityEventData-05-1.pantrace "$corpus/live-0"
            ;;
        structure)
            # Recipes: the empty one (zeros throughout: a small valid version 2 file), one that
            # picks version 1, and a few pseudo-random ones (a fixed generator, so the same
            # every time). The fuzzer takes it from there.
            printf '' >"$corpus/empty"
            printf '\007\000\000\000\000\000\000\000\002\001\000\003\040' >"$corpus/version1"
            local s
            for s in 1 2 3 4 5 6 7 8; do
                LC_ALL=C awk -v seed="$s" 'BEGIN { x = seed; for (i = 0; i < 1024; i++) { x = (x * 75 + 74) % 65537; printf "%c", x % 256 } }' \
                    >"$corpus/random-$s"
            done
            ;;
    esac
}

# One line: executions, rate and coverage from libFuzzer's final stats and its last status line.
summary() {
    local name=$1 log=$2 when=$3 status execs rate cov ft corp
    status=$(grep -E '^#[0-9]+' "$log" | grep -E 'cov: ' | tail -n 1 || true)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
    [ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9]*\).*/\1/p' <<<"$status")
    cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$status")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$status")
    corp=$(sed -n 's/.* corp: \([0-9]*\/[0-9A-Za-z]*\).*/\1/p' <<<"$status")
    if [ -z "$cov" ]; then
        echo "fuzz: $name: ${execs:-?} execs $when, while still running the corpus (no coverage figures yet)"
        return
    fi
    echo "fuzz: $name: ${execs:-?} execs $when (${rate:-?}/s), cov: $cov ft: ${ft:-?}, corpus ${corp:-?}"
}

# A trap is reported by libFuzzer and AddressSanitizer; the Swift runtime's own backtracer
# would also run, and its stack reads look to AddressSanitizer like a second bug.
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no}
failed=()
for name in $targets; do
    target_files "$name" >/dev/null
    build "$name"
done
for name in $targets; do
    seed "$name"
    mkdir -p "$out/artifacts/$name"
    log=$out/$name.log
    echo "fuzz: running the $name fuzzer for ${seconds}s"
    # A recipe needs its bytes from the start: no slow growth of the input length.
    flags=()
    [ "$name" = structure ] && flags=(-len_control=0)
    if "$out/$name" -max_total_time="$seconds" -max_len=4096 -timeout=30 "${flags[@]}" \
        -artifact_prefix="$out/artifacts/$name/" -print_final_stats=1 "$out/corpus/$name" 2>"$log"; then
        echo "$(summary "$name" "$log" "in ${seconds}s"), no crash"
    else
        input=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
        tail -n 40 "$log" >&2
        echo "$(summary "$name" "$log" "before the crash"), CRASHED" >&2
        if [ -n "$input" ]; then
            echo "fuzz: $name FAILED; the crashing input is $input (reproduce: $out/$name $input)" >&2
        else
            echo "fuzz: $name FAILED without saving an input; see $log" >&2
        fi
        failed+=("$name")
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: FAILED: ${failed[*]}" >&2
    exit 1
fi
echo "fuzz: no crash"
