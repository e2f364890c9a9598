#!/usr/bin/env bash
# One shard of `bmn exhaustive --list-cycles` per Slurm array task: the enumeration a census
# reads (examples/slurm/census.sh, `bmn census --enumeration`).
#
# Submit (the array size is the shard count), then the census, which starts only if every task
# succeeded:
#
#   jobid=$(BMN_DECK=camicia sbatch --parsable --array=0-999 --cpus-per-task=16 examples/slurm/census-array.sh)
#   BMN_DECK=camicia sbatch --dependency=afterok:"${jobid%%;*}" examples/slurm/census.sh
#
# Parameters come from the environment at submission time (sbatch exports it to the jobs):
#
#   BMN          the bmn binary, a path every node can read       (default: bmn on PATH)
#   BMN_DECK     the deck whose every deal is played               (default: camicia)
#   BMN_OUT_DIR  shared directory for the shard result files       (default: results)
#
# Cost: `bmn census --deck D --plan` says what every deal takes here, on N cores and on a GPU.
# Every task of one array must get the same deck; bmn reads the shard from SLURM_ARRAY_TASK_ID
# and the count from SLURM_ARRAY_TASK_COUNT (--shard auto). A requeued or resubmitted task
# resumes from its file (rewritten every second); see examples/slurm/README.md.
#
#SBATCH --job-name=bmn-enumerate
#SBATCH --array=0-3
#SBATCH --cpus-per-task=1
#SBATCH --output=bmn-enumerate-%A_%a.out
#SBATCH --requeue
set -euo pipefail

bmn=${BMN:-bmn}
deck=${BMN_DECK:-camicia}
out_dir=${BMN_OUT_DIR:-results}

if [ -z "${SLURM_ARRAY_TASK_ID:-}" ]; then
  echo "census-array.sh: SLURM_ARRAY_TASK_ID is unset: submit with sbatch --array=..." >&2
  exit 2
fi
task=$SLURM_ARRAY_TASK_ID
out=$out_dir/enumeration-$task.json
mkdir -p "$out_dir"
echo "bmn-enumerate: task $task of array ${SLURM_ARRAY_JOB_ID:-?} on $(hostname): deck $deck -> $out"
# --list-cycles: the census checks every cycling deal against its basins. --no-db: the file is
# this task's durable record.
"$bmn" exhaustive --deck "$deck" --list-cycles --shard auto --no-db \
  --threads "${SLURM_CPUS_PER_TASK:-1}" --checkpoint "$out"
echo "bmn-enumerate: task $task done"
