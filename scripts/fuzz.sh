#!/usr/bin/env bash
# Runs every fuzz target (fuzz/fuzz_targets/) for SECONDS each (default 10), one after another
# on one core, from its committed seeds (fuzz/seeds/<name>/) and dictionary (fuzz/dicts/),
# growing the live corpus under fuzz/corpus/<name>/ (gitignored). Prints each target's
# executions and time; exits non-zero if any target crashes (its input is under
# fuzz/artifacts/<name>/: minimise it with `cargo +nightly fuzz tmin`, copy it to
# fuzz/regressions/<name>/ so `cargo test -p bmn-fuzz` replays it, and fix the cause).
#
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
#
# Needs the nightly toolchain (libFuzzer's instrumentation); without it, it says so and exits
# 0, so it can sit in a pipeline that also runs on stable. Installs cargo-fuzz if missing.
# Builds without AddressSanitizer (`-s none`): bmn is safe Rust but for a few SIMD kernels,
# and ASan would cost speed for no finding that overflow checks and panics do not already
# give.
set -euo pipefail

seconds="${1:-10}"
shift || true
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/fuzz"

if ! cargo +nightly --version >/dev/null 2>&1; then
    echo "fuzz.sh: fuzzing skipped: no nightly toolchain (cargo +nightly); rustup toolchain install nightly enables it"
    exit 0
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    echo "fuzz.sh: installing cargo-fuzz"
    cargo install cargo-fuzz --locked
fi

if [ "$#" -gt 0 ]; then
    targets=("$@")
else
    targets=()
    for f in fuzz_targets/*.rs; do
        targets+=("$(basename "$f" .rs)")
    done
fi

# The fuzz workspace's lock is committed; cargo-fuzz has no --locked, so a stale one would be
# resolved afresh on every build, silently. Say so instead.
# Cargo's own words are shown: a failure may have another cause (no registry, say).
if ! err=$(cargo +nightly metadata --locked --format-version 1 2>&1 >/dev/null); then
    echo "fuzz.sh: 'cargo metadata --locked' failed in fuzz/; if fuzz/Cargo.lock is out of" \
        "date, run 'cargo +nightly update -w' there and commit it:" >&2
    echo "$err" >&2
    exit 1
fi

echo "fuzz.sh: building ${#targets[@]} targets"
start=$(date +%s)
cargo +nightly fuzz build -s none >/dev/null
echo "fuzz.sh: built in $(( $(date +%s) - start )) s"

failed=()
printf '%-16s %12s %8s %10s  %s\n' target executions seconds 'execs/s' result
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t" "artifacts/$t"
    dict=()
    [ -f "dicts/$t.dict" ] && dict=("-dict=dicts/$t.dict")
    log="artifacts/$t/last-run.log"
    # In-process libFuzzer (no -jobs/-workers: one process on one core); an input that runs
    # 10 s is a hang, 2 GiB of memory an OOM.
    set +e
    cargo +nightly fuzz run -s none "$t" "corpus/$t" "seeds/$t" -- \
        -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 \
        -artifact_prefix="artifacts/$t/" -print_final_stats=1 "${dict[@]}" >"$log" 2>&1
    rc=$?
    set -e
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    took=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
    runs=${runs:-0}
    took=${took:-$seconds}
    rate=$(( runs / (took > 0 ? took : 1) ))
    if [ "$rc" -eq 0 ]; then
        result=ok
    else
        result="CRASH (rc $rc, see $log)"
        failed+=("$t")
    fi
    printf '%-16s %12s %8s %10s  %s\n' "$t" "$runs" "$took" "$rate" "$result"
done

if [ "${#failed[@]}" -gt 0 ]; then
    echo "fuzz.sh: crashes in: ${failed[*]}" >&2
    exit 1
fi
