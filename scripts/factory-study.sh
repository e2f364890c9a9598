#!/usr/bin/env bash
# The standard deck's floor against compute (docs/results.md): `bmn pieces factory` over many
# seeds, one report a seed in OUT/seed-<S>.json (the cycles with balanced deals, each with the
# round it was found in, and the run's seconds), to be read by scripts/factory-curve.py into
# the discovery curve and the estimate of what the method reaches.
#
# Each seed's CPU time (user and system seconds, from /usr/bin/time) goes to OUT/seed-<S>.cpu:
# the study is priced in CPU-hours, which wall time on a busy machine would overstate.
#
# Resumable: a seed whose report is there is skipped, and a report is written whole (to a
# temporary file, then moved) or not at all, so a stopped study loses at most its seed under
# way. Seeds run one after another on THREADS threads each (results do not depend on them).
#
# Usage: scripts/factory-study.sh OUT FIRST LAST [THREADS [FACTORY FLAGS...]]
#        (BMN: the binary, default `bmn` on the PATH)
# Example: scripts/factory-study.sh study 1 100 1 && python3 scripts/factory-curve.py study
set -euo pipefail

out="${1:?usage: scripts/factory-study.sh OUT FIRST LAST [THREADS [FLAGS...]]}"
first="${2:?first seed}"
last="${3:?last seed}"
threads="${4:-1}"
shift $(( $# < 4 ? $# : 4 ))
bmn="${BMN:-bmn}"
mkdir -p "$out"
for seed in $(seq "$first" "$last"); do
  report="$out/seed-$seed.json"
  [ -s "$report" ] && continue
  # A stopped run (Ctrl-C) reports what it finished and exits 130: keep only whole runs.
  if /usr/bin/time -f "%U %S" -o "$out/seed-$seed.cpu" \
    "$bmn" pieces factory --seed "$seed" --threads "$threads" "$@" --json > "$report.tmp" \
    && grep -q '"interrupted":false' "$report.tmp"; then
    mv "$report.tmp" "$report"
  else
    status=$?
    rm -f "$report.tmp"
    exit $(( status == 0 ? 1 : status ))
  fi
done
