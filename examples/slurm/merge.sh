#!/usr/bin/env bash
# The merge step of examples/slurm/search-array.sh: every shard file into one result.
#
#   sbatch --dependency=afterok:JOBID examples/slurm/merge.sh
#
# where JOBID is the array's job id (afterok on an array waits for all of its tasks and is
# satisfied only if all succeeded). Same environment as the array: BMN (the binary) and
# BMN_OUT_DIR (default results). It writes BMN_OUT_DIR/merged.json (the same keys as
# `bmn search --json`) and prints the text report to the job's output file.
#
# `bmn merge` checks the files itself: it refuses gaps, overlaps and shards of different
# searches, so a stale file left from another run in the directory fails loudly here rather than
# skewing the result.
#
#SBATCH --job-name=bmn-merge
#SBATCH --cpus-per-task=1
#SBATCH --output=bmn-merge-%j.out
set -euo pipefail

bmn=${BMN:-bmn}
out_dir=${BMN_OUT_DIR:-results}

shopt -s nullglob
shards=("$out_dir"/shard-*.json)
if [ "${#shards[@]}" -eq 0 ]; then
  echo "merge.sh: no shard files $out_dir/shard-*.json" >&2
  exit 1
fi
echo "bmn-merge: ${#shards[@]} shard files in $out_dir"

# JSON first, under a temporary name renamed into place, so merged.json is either absent or
# whole; then the human-readable report for the job's log.
tmp=$out_dir/.merged.json.${SLURM_JOB_ID:-$$}.tmp
trap 'rm -f "$tmp"' EXIT
"$bmn" merge --json "${shards[@]}" >"$tmp"
mv -f "$tmp" "$out_dir/merged.json"
"$bmn" merge "${shards[@]}"
echo "bmn-merge: wrote $out_dir/merged.json"
