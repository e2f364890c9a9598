#!/usr/bin/env bash
# CI: a real one-node Slurm cluster runs examples/slurm/search-array.sh as a 4-task job array and
# examples/slurm/merge.sh as a dependent job, and the merged result must equal the unsplit
# `bmn search` on every field that does not measure time; then examples/slurm/census-array.sh
# and census.sh the same way, whose census must equal the unsplit census.
#
# Run as root on a fresh Debian machine after the workspace's tests pass (.ci/run calls it). It
# installs slurm-wlm, munge and jq, starts munged, slurmctld and slurmd as plain daemons (no
# systemd), and stops whatever it started on every exit path. Every wait is bounded; on any
# failure it prints the daemons' and jobs' log tails and exits non-zero.
#
# Environment:
#   BMN                the bmn binary to test (default: build target/release/bmn with cargo)
#   BMN_SLURM_GAMES    games of the search (default 200000)
#   BMN_SLURM_SEED     its seed (default 7)
#   BMN_SLURM_TASKS    array tasks = shards (default 4)
#   BMN_SLURM_TIMEOUT  seconds allowed for the jobs, from submission to the merge's end (120)
#   BMN_SLURM_KEEP=1   keep the work directory (configuration, state, logs, results) on success
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

games=${BMN_SLURM_GAMES:-200000}
seed=${BMN_SLURM_SEED:-7}
tasks=${BMN_SLURM_TASKS:-4}
job_timeout=${BMN_SLURM_TIMEOUT:-120}
started_at=$SECONDS

# Everything of this run (slurm.conf, state, spool, logs, results) lives in one fresh directory,
# so two runs never share state and nothing outside it is configured except the munge key.
work=$(mktemp -d /tmp/bmn-slurm.XXXXXX)
chmod 755 "$work"
mkdir -p "$work/state" "$work/spool" "$work/log" "$work/results"
export SLURM_CONF=$work/slurm.conf # read by every Slurm command and daemon instead of /etc/slurm

say() { printf 'slurm-ci: %s\n' "$*"; }

# --- cleanup, on every exit --------------------------------------------------------------------
ctld_pid='' slurmd_pid='' munged_started='' policy_rc_created='' ok='' failure=''

tail_logs() {
  local f
  for f in "$work"/log/slurmctld.log "$work"/log/slurmd.log "$work"/log/*.out; do
    [ -s "$f" ] || continue
    printf '\n----- last lines of %s -----\n' "$f"
    tail -n 25 "$f"
  done
}

# A process that runs (kill -0 also succeeds on a zombie not yet reaped). From /proc, as a
# minimal Debian has no ps.
alive() {
  local stat
  stat=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null) || return 1
  case $stat in Z* | X* | '') return 1 ;; *) return 0 ;; esac
}

# No job left, or no controller left to ask (it was signalled with us).
queue_empty() {
  local out
  alive "$ctld_pid" || return 0
  out=$(timeout 5 squeue -h 2>/dev/null) && [ -z "$out" ]
}

# Stop a daemon we started: TERM, up to 10 s for it to go, then KILL.
stop_pid() {
  local pid=$1 _
  [ -n "$pid" ] || return 0
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 50); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.2
  done
  say "pid $pid ignored SIGTERM for 10 s: killing it"
  kill -KILL "$pid" 2>/dev/null || true
}

cleanup() {
  local rc=$?
  trap - EXIT INT TERM ERR
  set +e
  if [ -z "$ok" ]; then
    tail_logs >&2
  fi
  # Cancel leftover jobs first and give slurmd a moment to end their steps: slurmstepd runs
  # detached from slurmd and would outlive it. Only while slurmctld is alive (a dead or zombie
  # one would make scancel retry until its timeout).
  if [ -n "$ctld_pid" ] && alive "$ctld_pid"; then
    if timeout 5 scancel --quiet --user=root >/dev/null 2>&1; then
      wait_for 15 queue_empty || say "jobs still listed 15 s after scancel" >&2
    fi
  fi
  stop_pid "$slurmd_pid"
  stop_pid "$ctld_pid"
  if [ -n "$munged_started" ] && [ -s /run/munge/munged.pid ]; then
    stop_pid "$(cat /run/munge/munged.pid)"
  fi
  [ -z "$policy_rc_created" ] || rm -f /usr/sbin/policy-rc.d
  if [ -n "$ok" ] && [ "${BMN_SLURM_KEEP:-0}" != 1 ]; then
    rm -rf "$work"
  fi
  if [ -z "$ok" ]; then
    [ "$rc" -ne 0 ] || rc=1
    # The one-line verdict, last so that CI's log ends with it.
    say "FAIL: ${failure:-exit $rc} (after $((SECONDS - started_at)) s; work directory kept: $work)" >&2
  fi
  exit "$rc"
}
trap cleanup EXIT
# A command that fails under set -e names itself in the verdict (errtrace: in functions too).
set -o errtrace
trap 'failure=${failure:-"line $LINENO: $BASH_COMMAND failed"}' ERR
trap 'exit 130' INT
trap 'exit 143' TERM

# Record the reason for the verdict line and exit; cleanup prints the logs and the verdict.
die() {
  failure=$*
  exit 1
}

# Poll CONDITION (a shell command) every 0.5 s for at most SECONDS; false on timeout.
wait_for() {
  local limit=$1 deadline
  shift
  deadline=$((SECONDS + limit))
  until "$@"; do
    [ "$SECONDS" -lt "$deadline" ] || return 1
    sleep 0.5
  done
}

# --- packages ----------------------------------------------------------------------------------
need=()
for pair in slurmctld:slurmctld slurmd:slurmd sbatch:slurm-client munged:munge jq:jq; do
  command -v "${pair%%:*}" >/dev/null 2>&1 || need+=("${pair#*:}")
done
if [ "${#need[@]}" -gt 0 ]; then
  say "installing slurm-wlm munge jq (missing: ${need[*]})"
  # Without systemd, the packages' maintainer scripts would start the daemons through
  # invoke-rc.d with Debian's stock configuration; policy-rc.d (exit 101) forbids that, so the
  # only daemons are the ones started below with this run's configuration.
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod 755 /usr/sbin/policy-rc.d
    policy_rc_created=1
  fi
  export DEBIAN_FRONTEND=noninteractive
  timeout 120 apt-get update -qq >"$work/log/apt.log" 2>&1 ||
    { tail -n 20 "$work/log/apt.log" >&2; die "apt-get update failed or took over 120 s"; }
  # slurm-wlm pulls in slurmctld, slurmd and the client commands.
  timeout 240 apt-get install -y -qq -o Dpkg::Use-Pty=0 slurm-wlm munge jq >>"$work/log/apt.log" 2>&1 ||
    { tail -n 20 "$work/log/apt.log" >&2; die "apt-get install failed or took over 240 s"; }
  if [ -n "$policy_rc_created" ]; then
    rm -f /usr/sbin/policy-rc.d
    policy_rc_created=''
  fi
fi
say "$(slurmctld -V), $(munged --version 2>&1 | head -n 1), $(jq --version)"

# --- munge -------------------------------------------------------------------------------------
# Slurm authenticates every RPC with munge, even on one machine. A key (made by the package's
# postinst on Debian, else here) readable only by munge, and munged running as munge.
if [ ! -s /etc/munge/munge.key ]; then
  mungekey --create --keyfile=/etc/munge/munge.key
fi
chown munge:munge /etc/munge/munge.key
chmod 600 /etc/munge/munge.key
install -d -o munge -g munge -m 755 /run/munge
if munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then
  say "munged already running: using it"
else
  runuser -u munge -- /usr/sbin/munged
  munged_started=1
  munge_ok() { munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; }
  wait_for 10 munge_ok ||
    { tail -n 20 /var/log/munge/munged.log >&2; die "munged did not answer within 10 s"; }
fi

# --- slurm.conf --------------------------------------------------------------------------------
# One node, this machine, with its real CPU count and memory (a node that claims more than it has
# is drained by slurmctld). Resources are CPUs only (CR_CPU): memory is not a consumable here,
# so a job that asks for no memory does not take the whole node's and array tasks run side by
# side, one per CPU. linuxproc/none need no cgroups, which containers often lack. No accounting:
# job states come from squeue/scontrol while the controller remembers the job (MinJobAge).
node=$(hostname -s)
cpus=$(nproc)
mem_mb=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
cat >"$SLURM_CONF" <<CONF
ClusterName=bmnci
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
# A job whose dependency can never be met (a shard failed) is cancelled, not left pending.
DependencyParameters=kill_invalid_depend
ReturnToService=2
MinJobAge=600
KillWait=5
SlurmdTimeout=60
InactiveLimit=0
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=ci Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
say "node $node: $cpus CPUs, $mem_mb MB; work directory $work"

# --- daemons -----------------------------------------------------------------------------------
# In the foreground (-D) as children of this script, so their pids are known exactly and the
# trap stops precisely these processes; output goes to the log files, not to CI's stdout.
slurmctld -D -i >"$work/log/slurmctld.stdout" 2>&1 &
ctld_pid=$!
slurmd -D -N "$node" >"$work/log/slurmd.stdout" 2>&1 &
slurmd_pid=$!

daemons_alive() {
  alive "$ctld_pid" || die "slurmctld exited (see its log above)"
  alive "$slurmd_pid" || die "slurmd exited (see its log above)"
}
node_idle() {
  daemons_alive
  [ "$(timeout 5 sinfo -h -n "$node" -o '%T' 2>/dev/null)" = idle ]
}
wait_for 30 node_idle ||
  die "node $node not idle within 30 s (state: $(sinfo -h -n "$node" -o '%T %E' 2>&1))"
say "cluster up in $((SECONDS - started_at)) s"

# --- bmn ---------------------------------------------------------------------------------------
if [ -n "${BMN:-}" ]; then
  bmn=$BMN
else
  # Build even if a binary exists: cargo does nothing when it is fresh, and a stale one would
  # test old code.
  say "building bmn (release)"
  build_started=$SECONDS
  timeout 900 cargo build --release --quiet -p bmn-cli || die "cargo build --release failed or took over 900 s"
  bmn=${CARGO_TARGET_DIR:-target}/release/bmn
  say "built in $((SECONDS - build_started)) s"
fi
case $bmn in /*) ;; *) bmn=$repo/$bmn ;; esac # the jobs run with their own working directory
[ -x "$bmn" ] || die "no executable bmn at $bmn"
help=$(timeout 20 "$bmn" search --help) || die "$bmn search --help failed"
case $help in *--shard*) ;; *) die "$bmn search has no --shard option" ;; esac

# --- the job array and the merge ---------------------------------------------------------------
# The scripts read their parameters from the environment, which sbatch exports to the jobs.
export BMN=$bmn BMN_GAMES=$games BMN_SEED=$seed BMN_OUT_DIR=$work/results
cd "$work"
# Submits the array script $2 over indices $1 and the script $3 to run once every task has
# succeeded, logging under $4; sets array_job and merge_job.
submit_pair() {
  array_job=$(timeout 30 sbatch --parsable --array="$1" --output="$work/log/$4-array-%A_%a.out" \
    "$repo/examples/slurm/$2")
  array_job=${array_job%%;*}
  merge_job=$(timeout 30 sbatch --parsable --dependency="afterok:$array_job" \
    --output="$work/log/$4-then-%j.out" "$repo/examples/slurm/$3")
  merge_job=${merge_job%%;*}
  last_queue=''
}
# A 1-based array (1-4): bmn must count from SLURM_ARRAY_TASK_MIN, not assume 0 (the
# example's own default, 0-3, is the easy case).
submit_pair "1-$tasks" search-array.sh merge.sh search
say "submitted array job $array_job ($tasks tasks: $games games, seed $seed) and merge job $merge_job"

# squeue lists a job until it has ended; an unknown id (already purged) counts as ended too,
# while any other squeue failure (a slow controller) just means "poll again".
# Never `sbatch --wait`: it returned late or unreliably here.
jobs_done() {
  local out
  daemons_alive
  if ! out=$(timeout 10 squeue -h -j "$array_job,$merge_job" -o '%i %T %r' 2>&1); then
    case $out in *"Invalid job id"*) return 0 ;; *) return 1 ;; esac
  fi
  if [ "$out" != "${last_queue:-}" ]; then
    last_queue=$out
    [ -z "$out" ] || printf '%s\n' "$out" | sed 's/^/slurm-ci:   /'
  fi
  [ -z "$out" ]
}

# One line per job (per array task): "TASK STATE EXITCODE", TASK "-" outside an array.
job_states() {
  timeout 20 scontrol -o show job "$1" 2>/dev/null | awk '{
    task = "-"; state = "?"; code = "?"
    for (i = 1; i <= NF; i++) {
      split($i, kv, "=")
      if (kv[1] == "ArrayTaskId") task = kv[2]
      else if (kv[1] == "JobState") state = kv[2]
      else if (kv[1] == "ExitCode") code = kv[2]
    }
    print task, state, code
  }'
}

# Waits for $array_job and $merge_job, then requires every array task and the dependent job to
# have COMPLETED with exit code 0:0.
await_jobs() {
  local array_states merge_state bad
  wait_for "$job_timeout" jobs_done ||
    die "jobs not finished within $job_timeout s (queue: $(printf '%s' "${last_queue:-}" | tr '\n' ';'))"
  array_states=$(job_states "$array_job")
  merge_state=$(job_states "$merge_job")
  bad=$(printf '%s\n' "$array_states" | awk '$2 != "COMPLETED" || $3 != "0:0"')
  [ "$(printf '%s\n' "$array_states" | grep -c .)" -eq "$tasks" ] ||
    die "expected $tasks array tasks, scontrol shows: $array_states"
  [ -z "$bad" ] || die "array tasks did not all complete (task state exit): $(printf '%s' "$bad" | tr '\n' ';')"
  case $merge_state in *" COMPLETED 0:0") ;; *) die "job $merge_job did not complete: $merge_state" ;; esac
}
await_jobs

shard_files=("$work"/results/shard-*.json)
[ "${#shard_files[@]}" -eq "$tasks" ] ||
  die "expected $tasks shard files, found ${#shard_files[@]}"
[ -s "$work/results/merged.json" ] || die "merge job wrote no merged.json"

# --- compare with the unsplit search -----------------------------------------------------------
timeout 120 "$bmn" search --games "$games" --seed "$seed" --json >"$work/results/unsplit.json" ||
  die "unsplit bmn search failed or took over 120 s"
fields='{games, mean_cards, mean_tricks, wins_by_seat, histogram, longest, cycling_games, distinct_cycle_list}'
jq -S "$fields" "$work/results/merged.json" >"$work/merged.fields.json"
jq -S "$fields" "$work/results/unsplit.json" >"$work/unsplit.fields.json"
# A field missing on both sides would compare equal as null: require each to be present.
for f in games mean_cards mean_tricks wins_by_seat histogram longest cycling_games distinct_cycle_list; do
  jq -e --arg f "$f" 'has($f)' "$work/results/merged.json" >/dev/null ||
    die "merged.json has no field $f"
done
if ! diff -u "$work/unsplit.fields.json" "$work/merged.fields.json" >"$work/fields.diff"; then
  head -n 60 "$work/fields.diff"
  die "merged result differs from the unsplit search (diff above: - unsplit, + merged)"
fi

say "PASS: $tasks-shard Slurm array + merge equals unsplit search ($games games, seed $seed," \
  "longest $(jq '.longest[0].cards // "none"' "$work/results/merged.json") cards) in $((SECONDS - started_at)) s"

# --- issue 40: the census from a sharded enumeration -------------------------------------------
# examples/slurm/census-array.sh enumerates every deal of a small deck in $tasks shards and
# examples/slurm/census.sh reads them as the census's `deals`; its catalogue must equal the
# census that plays every deal in one piece.
census_deck=2J,2Q,2K,14-
export BMN_DECK=$census_deck BMN_OUT_DIR=$work/census
submit_pair "0-$((tasks - 1))" census-array.sh census.sh census
say "submitted enumeration array $array_job ($tasks tasks: deck $census_deck) and census job $merge_job"
await_jobs
[ -s "$work/census/census.json" ] || die "census job wrote no census.json"
timeout 120 "$bmn" census --deck "$census_deck" --methods deals --json >"$work/census/unsplit.json" ||
  die "unsplit bmn census failed or took over 120 s"
fields='{balanced_cycles, balanced_deals, catalogue, recall}'
jq -S "$fields" "$work/census/census.json" >"$work/census.fields.json"
jq -S "$fields" "$work/census/unsplit.json" >"$work/census-unsplit.fields.json"
jq -e '.balanced_deals > 0' "$work/census/census.json" >/dev/null || die "the census found no deals"
if ! diff -u "$work/census-unsplit.fields.json" "$work/census.fields.json" >"$work/census.diff"; then
  head -n 60 "$work/census.diff"
  die "the census from the shards differs from the unsplit census (- unsplit, + shards)"
fi

ok=1
say "PASS: $tasks-shard Slurm enumeration + census equals the unsplit census (deck $census_deck," \
  "$(jq '.balanced_deals' "$work/census/census.json") deals on $(jq '.balanced_cycles' "$work/census/census.json") cycle(s)) in $((SECONDS - started_at)) s"
