#!/usr/bin/env bash
# The GPU measurements of BENCHMARKS.md ("GPU"), as one script for a lent GPU machine, where
# there is no Rust: it runs binaries built elsewhere and carried in DIR.
#   bash scripts/gpu-bench.sh DIR [GAMES]
# DIR holds `bmn` and `gpu_speed` (this commit's, `cargo build --release -p bmn-cli` and
# `cargo build --release -p bmn-gpu --example gpu_speed`), optionally `bmn-base` (an earlier
# commit's binary, timed beside it on the same card), and optionally `peers/`: the peers'
# sources, fetched outside the repository (never committed), each built here with nvcc:
# `peers/acinnes/` (acinnes/bmn's `playbmn_cuda_fsm.cpp` and the headers beside it) and
# `peers/stracciacamicia/` (N1k06/stracciacamicia's `cuda-simulation/40_cards/
# straccia_search_40.cu` and its `multinomial_table.bin`). Read how each counts before quoting
# it: acinnes's host adds 128 batches a launch while only the first plays (BENCHMARKS.md, "GPU").
# GAMES (default 2^28)
# sizes the runs; the whole script takes a few minutes on an H200.
# Every step is under `timeout`, so one that hangs cannot use up the machine's lease.
set -uo pipefail
dir=$1 games=${2:-268435456}
step() { # seconds label -- command...
  local limit=$1 label=$2; shift 3
  echo "== $label" >&2
  local start=$SECONDS
  timeout "$limit" "$@"
  echo "== $label: exit $?, $((SECONDS - start)) s" >&2
}
# A report's figures on one line (the whole JSON would crowd out the rest of the output).
figures() {
  grep -oE '"(engine|games|deals|elapsed_seconds|games_per_second|deals_per_second)":[^,]*' |
    tr '\n' ' '
  echo
}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>&1 || true
nproc
# The device alone: every row checks a sample against the CPU kernel first.
step 240 "gpu_speed $games" -- "$dir/gpu_speed" "$games"
# The whole pipeline: search and the Camicia enumeration, on the GPU, then the CPU cores.
for bin in "$dir/bmn" "$dir/bmn-base"; do
  [ -x "$bin" ] || continue
  for kernel in gpu all; do
    step 120 "$(basename "$bin") search --kernel $kernel" -- \
      "$bin" search --kernel "$kernel" --games $((games * 4)) --seed 39 --no-db --json | figures
  done
  step 120 "$(basename "$bin") exhaustive camicia --kernel gpu" -- \
    "$bin" exhaustive --deck camicia --from 97000000000000 --count $((games * 4)) \
    --kernel gpu --no-db --json | figures
done
step 120 "bmn search on the CPU cores" -- \
  "$dir/bmn" search --games "$games" --seed 39 --no-db --json | figures
# The peers, built here, each as its own README says.
peers=$dir/peers
if [ -f "$peers/acinnes/playbmn_cuda_fsm.cpp" ]; then
  step 120 "acinnes build" -- nvcc -O3 -x cu -o /tmp/acinnes "$peers/acinnes/playbmn_cuda_fsm.cpp"
  step 60 "acinnes run" -- /tmp/acinnes
fi
straccia=$peers/stracciacamicia
if [ -f "$straccia/straccia_search_40.cu" ]; then
  step 120 "stracciacamicia build" -- nvcc -O3 -o /tmp/straccia "$straccia/straccia_search_40.cu"
  # Batches of 2x10^8 deals from the start of the deck, 5000 turns a game, 30 s of time budget.
  (cd /tmp && step 90 "stracciacamicia run" -- /tmp/straccia "$straccia/multinomial_table.bin" \
    200000000 5000 100000 30 /tmp/straccia-checkpoint.txt /tmp/straccia-hits.bin)
fi
