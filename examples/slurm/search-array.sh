#!/usr/bin/env bash
# One shard of a `bmn search` per Slurm array task.
#
# Submit (the array size is the shard count; any base works, 0-3 or 1-4):
#
#   jobid=$(BMN_GAMES=100000000 BMN_SEED=7 sbatch --parsable --array=0-15 examples/slurm/search-array.sh)
#
# then the merge, which starts only if every task succeeded:
#
#   sbatch --dependency=afterok:"${jobid%%;*}" examples/slurm/merge.sh
#
# Parameters come from the environment at submission time (sbatch exports it to the job by
# default), because #SBATCH lines cannot read variables:
#
#   BMN          the bmn binary, a path every node can read       (default: bmn on PATH)
#   BMN_GAMES    games of the whole (unsplit) search               (default: 1000000)
#   BMN_SEED     seed of the deal stream                           (default: 1)
#   BMN_OUT_DIR  shared directory for the shard result files       (default: results,
#                relative to the submission directory)
#
# Every task of one array must get the same BMN_GAMES and BMN_SEED: shard i/N is a range of the
# seed's deal stream, and `bmn merge` refuses files of different searches. bmn reads the shard
# from SLURM_ARRAY_TASK_ID and the count from SLURM_ARRAY_TASK_COUNT (--shard auto), so the
# array range is the only place the shard count is written.
#
# Threads: a task uses the CPUs Slurm gave it (-c / --cpus-per-task, 1 by default here), so a
# node is never oversubscribed; results do not depend on the thread count.
#
#SBATCH --job-name=bmn-search
#SBATCH --array=0-3
#SBATCH --cpus-per-task=1
#SBATCH --output=bmn-search-%A_%a.out
#SBATCH --requeue
set -euo pipefail

bmn=${BMN:-bmn}
games=${BMN_GAMES:-1000000}
seed=${BMN_SEED:-1}
out_dir=${BMN_OUT_DIR:-results}

if [ -z "${SLURM_ARRAY_TASK_ID:-}" ]; then
  echo "search-array.sh: SLURM_ARRAY_TASK_ID is unset: submit with sbatch --array=..." >&2
  exit 2
fi
task=$SLURM_ARRAY_TASK_ID
out=$out_dir/shard-$task.json
mkdir -p "$out_dir"

# bmn rewrites the file every second while it runs and resumes from it if it holds this
# search's unfinished shard: a task that is requeued (node failure, preemption, `scontrol
# requeue`) or resubmitted with the same parameters carries on where it stopped instead of
# starting over. So the file is written in place, under its final name, on the shared directory;
# `bmn merge` tells an unfinished shard from a finished one.
echo "bmn-search: task $task of array ${SLURM_ARRAY_JOB_ID:-?} (tasks ${SLURM_ARRAY_TASK_MIN:-?}-${SLURM_ARRAY_TASK_MAX:-?}, count ${SLURM_ARRAY_TASK_COUNT:-?}) on $(hostname): $games games, seed $seed -> $out"
# --no-db: the --out file is this task's durable record; the default run database lives in the
# home directory, which many tasks on a shared (NFS) home must not write at once.
"$bmn" search --games "$games" --seed "$seed" --shard auto --no-db \
  --threads "${SLURM_CPUS_PER_TASK:-1}" --out "$out"
echo "bmn-search: task $task done"
