#!/usr/bin/env bash
# Times two bmn binaries against each other, interleaved so that a noisy machine hurts both
# alike: `bmn bench --games 2000000 --threads 1` and the n = 16 enumeration, RUNS times each.
#   bash scripts/compare-speed.sh OLD_BMN NEW_BMN [RUNS]
# Prints one line per run: the bench's search and fast-kernel rates, and the enumeration's
# wall and CPU seconds (user + sys).
set -euo pipefail
old=$1 new=$2 runs=${3:-3}
for i in $(seq 1 "$runs"); do
  for which in old new; do
    bin=${!which}
    rates=$("$bin" bench --games 2000000 --threads 1 --json |
      python3 -c 'import json,sys; d=json.load(sys.stdin); m=1e6; print("search %.3f M/s, %s %.3f M/s, reference %.3f M/s" % (d["search_games_per_second"]/m, d["best_kernel"], d["fast_games_per_second"]/m, d["reference_games_per_second"]/m))')
    times=$( { /usr/bin/time -f '%e %U %S' "$bin" exhaustive --deck 2J,2Q,2K,2A,16- --no-db --json > "/tmp/n16-$which.json"; } 2>&1 | tail -n 1)
    read -r wall user sys <<<"$times"
    cpu=$(python3 -c "print(f'{$user + $sys:.1f}')")
    echo "run $i $which: bench $rates; n=16 ${wall} s wall, ${cpu} CPU-s"
  done
  # The reports must agree apart from timing, and apart from keys only the new one prints
  # (a release that adds clear keys beside deprecated ones); those are named.
  python3 - <<'PY' && echo "run $i: the two n = 16 reports agree" || echo "run $i: THE n = 16 REPORTS DIFFER"
import json, sys
old, new = (json.load(open(f"/tmp/n16-{w}.json")) for w in ("old", "new"))
for d in (old, new):
    for k in ("elapsed_seconds", "deals_per_second"):
        d.pop(k, None)
added = sorted(k for k in new if k not in old)
if added:
    print("keys added: " + ", ".join(added))
sys.exit(0 if {k: new[k] for k in old if k in new} == old else 1)
PY
done
