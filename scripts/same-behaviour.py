#!/usr/bin/env python3
"""Checks that two bmn binaries behave the same: every README example (and a set of bad
inputs) run by each, in its own scratch folder, must give the same exit code, the same stdout
(JSON with its timing fields removed; text with its timing lines removed), the same stderr for
errors, and the same files written (plots, graphs, checkpoints, shard files).

    python3 scripts/same-behaviour.py OLD_BMN NEW_BMN [--only SUBSTRING] [--keep DIR] [--added-keys-ok]

Used for refactors that promise no change of behaviour (e.g. moving code between crates):
build the old binary, copy it aside, build the new one, run this. Exit 0 when every case
agrees; otherwise each difference is printed and the exit code is 1.

With --added-keys-ok, a JSON key the new binary prints and the old one does not is not a
difference (a release that adds clear keys beside deprecated ones); each such key is listed once
at the end, so what was added is on the record.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

RECORD = "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---"
CASELLA = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA"
N16 = "--A-KJ-/--A----Q----KQ-J-"

# (name, argv list or shell string, files the command writes). A string runs through the
# shell with $BMN set; the README's examples, each with --json where the command has it.
CASES = [
    ("play record", ["play", RECORD]),
    ("play record json", ["play", RECORD, "--json"]),
    ("play casella", ["play", CASELLA]),
    ("play casella json", ["play", CASELLA, "--json"]),
    ("play trace", ["play", "--Q-J-/Q-J-", "--trace"]),
    ("play trace json", ["play", "--Q-J-/Q-J-", "--trace", "--json"]),
    ("play tricks json", ["play", "J--K---A----AA/-J-", "--tricks", "3", "--json"]),
    ("play tricks", ["play", "J--K---A----AA/-J-", "--tricks", "3"]),
    ("play digits json", ["play", "1000200003/2000100003", "--json"]),
    ("play real cards json", ["play", "JH 9C 2d 10s QS/Q♠ 9D 8D KD 7D", "--json"]),
    ("play dolly json", ["play", "-A-/--/J-", "--penalties", "K3,J2,Q1,A0", "--on-empty", "collect", "--json"]),
    ("play stdin json", 'echo "--K---A----AAJ-/J-" | $BMN play - --deck 2J,1K,3A,11- --json'),
    ("play plot", ["play", RECORD, "--plot", "record.png", "--json"], ["record.png"]),
    ("play dot", ["play", N16, "--dot", "n16-cycle.dot", "--json"], ["n16-cycle.dot"]),
    ("search 1M json", ["search", "--games", "1000000", "--no-db", "--json"]),
    ("search 1M text", ["search", "--games", "1000000", "--no-db"]),
    ("search balanced json", ["search", "--games", "300000", "--balanced", "--top", "20", "--no-db", "--json"]),
    ("search reduced json", ["search", "--deck", "2J,2Q,2K,2A,8-", "--games", "100000", "--no-db", "--json"]),
    ("search 4 players json", ["search", "--players", "4", "--games", "20000", "--no-db", "--json"]),
    ("deal 4 players", ["deal", "--players", "4", "--seed", "7"]),
    ("deal 4 players json", ["deal", "--players", "4", "--seed", "7", "--json"]),
    ("play dealt", '$BMN play "$($BMN deal --players 4 --seed 7 2>/dev/null)" --json'),
    ("deal camicia json", ["deal", "--deck", "camicia", "--balanced", "--seed", "1", "--json"]),
    ("stats 1M json", ["stats", "--games", "1000000", "--json"]),
    ("stats 4 players json", ["stats", "--games", "200000", "--players", "4", "--json"]),
    ("stats plot", ["stats", "--games", "1000000", "--plot", "lengths.svg", "--json"], ["lengths.svg"]),
    ("stats text", ["stats", "--games", "100000"]),
    ("exhaustive n8 json", ["exhaustive", "--deck", "2J,2Q,2K,2A,8-", "--no-db", "--json"]),
    ("exhaustive n6 cycles json", ["exhaustive", "--deck", "2J,2Q,2K,2A,6-", "--list-cycles", "--no-db", "--json"]),
    ("exhaustive n6 text", ["exhaustive", "--deck", "2J,2Q,2K,2A,6-", "--list-cycles", "--no-db"]),
    ("exhaustive shards",
     "for i in 1 2 3; do $BMN exhaustive --deck 2J,2Q,2K,2A,10- --shard $i/3 --checkpoint n10-$i.json --no-db --json; done",
     ["n10-1.json", "n10-2.json", "n10-3.json"]),
    ("exhaustive shards merged", "for i in 1 2 3; do $BMN exhaustive --deck 2J,2Q,2K,2A,6- --shard $i/3 --checkpoint s-$i.json --no-db >/dev/null; done; $BMN merge s-1.json s-2.json s-3.json --json"),
    ("backward json", ["backward", "--K---A----AAJ-/J-", "--json"]),
    ("backward text", ["backward", "--K---A----AAJ-/J-"]),
    ("basin casella json", ["basin", CASELLA, "--balanced", "--json"]),
    ("basin casella text", ["basin", CASELLA, "--balanced"]),
    ("extend record json", ["extend", RECORD, "--depth", "1000", "--top", "3", "--json"]),
    ("trees json", ["trees", "--samples", "2000", "--deck", "2J,2Q,2K,2A,8-", "--json"]),
    ("pieces search json", ["pieces", "search", "--max-len", "10", "--json"]),
    ("pieces faces json", ["pieces", "search", "--faces", "K1,A3,-9", "--json"]),
    ("pieces construct json", ["pieces", "construct", "--budget", "20", "--json"]),
    ("pieces construct text", ["pieces", "construct", "--budget", "5"]),
    ("count json", ["count", "--deck", "standard", "--json"]),
    ("count text", ["count", "--deck", "2xstandard"]),
    ("odds json", ["odds", "--games", "1e12", "--json"]),
    ("records verify json", ["records", "--verify", "--json"]),
    ("records text", ["records"]),
    ("records plot", ["records", "--plot", "records.svg", "--json"], ["records.svg"]),
    ("basin dot", ["basin", N16, "--dot", "n16.dot", "--json"], ["n16.dot"]),
    ("durable run and resume",
     "$BMN search --games 3000000 --db runs.sqlite --json && $BMN search --games 3000000 --db runs.sqlite --resume --json"),
    ("search shards merged",
     "for i in 1 2 3 4; do $BMN search --games 400000 --seed 7 --shard $i/4 --out shard-$i.json --no-db > /dev/null; done; $BMN merge shard-*.json --json",
     ["shard-1.json", "shard-2.json", "shard-3.json", "shard-4.json"]),
    ("bench json keys", ["bench", "--games", "30000", "--threads", "1", "--json"]),
    ("bench deck json keys", ["bench", "--games", "30000", "--deck", "2J,2Q,2K,2A,16-", "--json"]),
    # Bad input: one line on stderr, exit code 2.
    ("bad symbol", ["play", "--Z-/J-"]),
    ("bad leader", ["play", "--/J-", "--leader", "3"]),
    ("bad deck counts", ["play", "--K/J-", "--deck", "standard"]),
    ("bad deck spec", ["search", "--deck", "3Z", "--games", "10", "--no-db"]),
    ("bad penalties", ["play", "--/J-", "--penalties", "Z3"]),
    ("bad players", ["search", "--players", "11", "--games", "10", "--no-db"]),
    ("bad shard", ["search", "--games", "100", "--shard", "5/4", "--no-db"]),
    ("bad time", ["search", "--time", "10y", "--no-db"]),
    ("bad kernel", ["search", "--kernel", "gpu", "--games", "10", "--no-db"]),
    ("bad games", ["search", "--games", "0", "--no-db"]),
    ("bad threads", ["stats", "--games", "10", "--threads", "0"]),
    ("bad plot", ["stats", "--games", "10", "--plot", "x.txt"]),
    ("bad exhaustive deck", ["exhaustive", "--deck", "standard", "--no-db"]),
    ("bad merge file", "echo '{\"format\":\"x\"}' > f.json; $BMN merge f.json"),
    ("bad resume", ["search", "--games", "100", "--no-db", "--resume"]),
    ("bad basin limit", ["basin", CASELLA, "--limit", "0"]),
    ("bad count deck", ["count", "--deck", "0-"]),
    ("bad odds", ["odds", "--games", "-5"]),
    ("bad pieces faces", ["pieces", "search", "--faces", "J2"]),
    ("bad give-up", ["search", "--players", "3", "--games", "10", "--give-up", "0", "--no-db"]),
]

TIMING = re.compile(r"seconds|per_second|elapsed|rate|years|speed|_time", re.I)


def strip_timing(value):
    if isinstance(value, dict):
        return {k: strip_timing(v) for k, v in value.items() if not TIMING.search(k)}
    if isinstance(value, list):
        return [strip_timing(v) for v in value]
    return value


ADDED = set()


def prune(old, new, path=""):
    """`new` without the keys `old` lacks (recorded in ADDED), recursively."""
    if isinstance(old, dict) and isinstance(new, dict):
        for k in new:
            if k not in old:
                ADDED.add(f"{path}{k}")
        return {k: prune(old[k], v, f"{path}{k}.") for k, v in new.items() if k in old}
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return [prune(o, n, path) for o, n in zip(old, new)]
    return new


def without_added(out_a, out_b):
    """out_b with every JSON line pruned to the keys of out_a's line at the same place."""
    lines_a, lines_b = out_a.split("\n"), out_b.split("\n")
    if len(lines_a) != len(lines_b):
        return out_b
    kept = []
    for a, b in zip(lines_a, lines_b):
        if a.startswith("{") and b.startswith("{"):
            try:
                b = json.dumps(prune(json.loads(a), json.loads(b)), sort_keys=True)
            except json.JSONDecodeError:
                pass
        kept.append(b)
    return "\n".join(kept)


def normalise(stdout, bench):
    text = stdout.decode(errors="replace")
    values = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                value = strip_timing(json.loads(line))
            except json.JSONDecodeError:
                values.append(line)
                continue
            if bench:  # bench reports only timings: compare its shape
                value = shape(value)
            values.append(json.dumps(value, sort_keys=True))
        elif not re.search(r"speed:|M games/s|M deals/s|games/s|years|thread\(s\)|\d+\.\d+ s\b", line):
            values.append(line)
    return "\n".join(values)


def shape(value):
    if isinstance(value, dict):
        return {k: shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [shape(v) for v in value[:1]]
    return type(value).__name__


def run(binary, case, folder):
    name, command = case[0], case[1]
    env = dict(os.environ, BMN=binary, BMN_DB=os.path.join(folder, "default.sqlite"))
    if isinstance(command, str):
        argv, shell = command, True
    else:
        argv, shell = [binary] + command, False
    p = subprocess.run(argv, shell=shell, cwd=folder, env=env, capture_output=True, timeout=900)
    files = {}
    for f in case[2] if len(case) > 2 else []:
        path = os.path.join(folder, f)
        files[f] = open(path, "rb").read() if os.path.exists(path) else None
    stderr = p.stderr.decode(errors="replace") if p.returncode != 0 else ""
    return p.returncode, normalise(p.stdout, name.startswith("bench")), stderr, files


def main():
    args = sys.argv[1:]
    only = None
    keep = None
    if "--only" in args:
        i = args.index("--only")
        only = args[i + 1]
        del args[i : i + 2]
    if "--keep" in args:
        i = args.index("--keep")
        keep = args[i + 1]
        del args[i : i + 2]
    added_ok = "--added-keys-ok" in args
    if added_ok:
        args.remove("--added-keys-ok")
    if len(args) != 2:
        sys.exit(__doc__)
    old, new = (os.path.abspath(a) for a in args)
    scratch = keep or tempfile.mkdtemp(prefix="bmn-same-")
    differences = 0
    cases = [c for c in CASES if only is None or only in c[0]]
    for i, case in enumerate(cases):
        results = []
        for which, binary in (("old", old), ("new", new)):
            folder = os.path.join(scratch, f"{i:02}-{which}")
            shutil.rmtree(folder, ignore_errors=True)
            os.makedirs(folder)
            results.append(run(binary, case, folder))
        (rc_a, out_a, err_a, files_a), (rc_b, out_b, err_b, files_b) = results
        problems = []
        if rc_a != rc_b:
            problems.append(f"exit code {rc_a} -> {rc_b}")
        if added_ok:
            out_b = without_added(out_a, out_b)
        if out_a != out_b:
            problems.append(f"stdout differs:\n--- old\n{out_a[:2000]}\n+++ new\n{out_b[:2000]}")
        if err_a != err_b:
            problems.append(f"stderr differs:\n--- old\n{err_a}\n+++ new\n{err_b}")
        for f in files_a:
            if files_a[f] != files_b.get(f):
                problems.append(f"file {f} differs")
        status = "ok" if not problems else "DIFFERS"
        print(f"{status:8} {case[0]}", flush=True)
        for p in problems:
            print("    " + p.replace("\n", "\n    "))
        differences += bool(problems)
    if not keep:
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"{len(cases) - differences} of {len(cases)} cases agree")
    if ADDED:
        print("keys added by the new binary: " + ", ".join(sorted(ADDED)))
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
