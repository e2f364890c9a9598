#!/usr/bin/env bash
# The census step of examples/slurm/census-array.sh: every shard's file read as the census's
# `deals` method, each cycle's basin searched, every balanced deal listed with its rank.
#
#   BMN_DECK=camicia sbatch --dependency=afterok:JOBID examples/slurm/census.sh
#
# Same environment as the array: BMN, BMN_DECK, BMN_OUT_DIR. It writes BMN_OUT_DIR/census.json
# (the keys of `bmn census --json`, a catalogue file `bmn serve --catalogue` shows) and prints
# the text report to the job's log. `bmn census --enumeration` refuses what `bmn merge` refuses
# (a missing, unfinished, cut or foreign shard), so a stale file fails loudly.
#
#SBATCH --job-name=bmn-census
#SBATCH --cpus-per-task=1
#SBATCH --output=bmn-census-%j.out
set -euo pipefail

bmn=${BMN:-bmn}
deck=${BMN_DECK:-camicia}
out_dir=${BMN_OUT_DIR:-results}

shopt -s nullglob
shards=("$out_dir"/enumeration-*.json)
if [ "${#shards[@]}" -eq 0 ]; then
  echo "census.sh: no shard files $out_dir/enumeration-*.json" >&2
  exit 1
fi
echo "bmn-census: ${#shards[@]} shard files in $out_dir, deck $deck"
# `deals` only: the files are every deal, the truth; `pieces` and `hands` would add recall.
tmp=$out_dir/.census.json.${SLURM_JOB_ID:-$$}.tmp
trap 'rm -f "$tmp"' EXIT
"$bmn" census --deck "$deck" --methods deals --threads "${SLURM_CPUS_PER_TASK:-1}" \
  --json --enumeration "${shards[@]}" >"$tmp"
mv -f "$tmp" "$out_dir/census.json"
"$bmn" census --deck "$deck" --methods deals --threads "${SLURM_CPUS_PER_TASK:-1}" \
  --enumeration "${shards[@]}"
echo "bmn-census: wrote $out_dir/census.json"
