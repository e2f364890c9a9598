#!/usr/bin/env python3
"""The factory study's discovery curve and estimate (docs/results.md), from the reports that
scripts/factory-study.sh writes (OUT/seed-<S>.json, `bmn pieces factory --json`).

For each seed in order: the distinct cycles with a balanced deal found so far, the balanced
deals on them (each cycle's largest count over the runs that reached it: a basin cut short
counts fewer), and the CPU-hours spent (the measured CPU time; a run without one costs the
mean of the measured runs of its folder, else of all, else its elapsed seconds times THREADS). Then how many such
cycles the method reaches, estimated from how often independent seeds find the same cycle:
Chao2, the incidence-based estimator (Chao 1987), bias-corrected, with its log-normal 95%
interval. Its assumptions: seeds are independent samples of the same method, and a cycle's
chance to be found is the same in every seed (cycles differ among themselves, which Chao2
allows for as a lower bound).

Several folders (one a knob setting, say) make one curve, in the order given, and a line per
folder: its runs, CPU-hours, the cycles it found, and those no folder before it found. Chao2 is
then given per folder and over all of them, the latter mixing methods (its assumption fails:
read it as a summary, not an estimate).

Usage: scripts/factory-curve.py OUT... [THREADS] [SVG]   (prints a Markdown table and the
estimate; writes the curve as SVG when an .svg path is given; THREADS prices a run without a
measured CPU time)
"""

import json
import math
import pathlib
import sys


def load(folder):
    runs = []
    for path in pathlib.Path(folder).glob("seed-*.json"):
        report = json.loads(path.read_text())
        if report.get("interrupted"):
            continue
        # CPU seconds where the study measured them (factory-study.sh's seed-<S>.cpu).
        cpu = path.with_suffix(".cpu")
        if cpu.exists():
            user, system = cpu.read_text().split()[-2:]
            report["cpu_seconds"] = float(user) + float(system)
        runs.append(report)
    for r in runs:
        r["folder"] = pathlib.Path(folder).name
    return sorted(runs, key=lambda r: r["seed"])


def chao2(incidence, samples):
    """Bias-corrected Chao2 and its log-normal 95% interval (Chao 2005; EstimateS's formulas)
    from how many samples found each species."""
    observed = len(incidence)
    q1 = sum(1 for n in incidence.values() if n == 1)
    q2 = sum(1 for n in incidence.values() if n == 2)
    if samples == 0 or observed == 0:
        return observed, (observed, observed), q1, q2
    a = (samples - 1) / samples
    extra = a * q1 * (q1 - 1) / (2 * (q2 + 1))
    var = (a * q1 * (q1 - 1) / (2 * (q2 + 1))
           + a * a * q1 * (2 * q1 - 1) ** 2 / (4 * (q2 + 1) ** 2)
           + a * a * q1 * q1 * q2 * (q1 - 1) ** 2 / (4 * (q2 + 1) ** 4))
    estimate = observed + extra
    if extra <= 0 or var <= 0:
        return estimate, (observed, estimate), q1, q2
    k = math.exp(1.96 * math.sqrt(math.log(1 + var / (extra * extra))))
    return estimate, (observed + extra / k, observed + extra * k), q1, q2


def curve(runs, threads):
    seen, deals, incidence = {}, {}, {}
    hours = 0.0
    # A run without a measured CPU time costs the mean of the measured runs of its folder (the
    # same knobs), else of all, where there are some (its wall time on a busy machine says
    # little), else its wall time on THREADS threads.
    measured = [r["cpu_seconds"] for r in runs if "cpu_seconds" in r]
    for r in runs:
        if "cpu_seconds" not in r:
            mine = [m["cpu_seconds"] for m in runs
                    if m["folder"] == r["folder"] and "cpu_seconds" in m]
            pool = mine or measured
            r["cpu_seconds"] = (sum(pool) / len(pool) if pool
                                else r["elapsed_seconds"] * threads)
    points = []
    for r in runs:
        hours += r["cpu_seconds"] / 3600
        for c in r["catalogue"]:
            cid = c["cycle_id"]
            incidence[cid] = incidence.get(cid, 0) + 1
            deals[cid] = max(deals.get(cid, 0), c["balanced_deals"])
            seen.setdefault(cid, (r["seed"], c["period"]["tricks"], c["kind"]))
        points.append(("%s/%d" % (r["folder"], r["seed"]), hours, len(seen), sum(deals.values())))
    return points, seen, deals, incidence


def svg(points, path):
    w, h, pad = 640, 360, 50
    xs = [p[1] for p in points] or [1]
    ys = [p[2] for p in points] or [1]
    xmax, ymax = max(max(xs), 1e-9), max(max(ys), 1)
    def at(x, y):
        return pad + (w - 2 * pad) * x / xmax, h - pad - (h - 2 * pad) * y / ymax
    line = " ".join("%.1f,%.1f" % at(p[1], p[2]) for p in points)
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">' % (w, h),
        '<rect width="100%" height="100%" fill="white"/>',
        '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (pad, h - pad, w - pad, h - pad),
        '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (pad, pad, pad, h - pad),
        '<polyline fill="none" stroke="#1f77b4" stroke-width="2" points="%s"/>' % line,
        '<text x="%d" y="%d" text-anchor="middle">CPU-hours (%d runs)</text>' % (w / 2, h - 12, len(points)),
        '<text x="14" y="%d" transform="rotate(-90 14 %d)" text-anchor="middle">cycles with balanced deals</text>' % (h / 2, h / 2),
        '<text x="%d" y="%d" text-anchor="end">%.2f</text>' % (w - pad, h - pad + 16, xmax),
        '<text x="%d" y="%d" text-anchor="end">%d</text>' % (pad - 4, pad + 4, ymax),
        '<text x="%d" y="%d" text-anchor="end">0</text>' % (pad - 4, h - pad + 4),
        '<text x="%d" y="24" text-anchor="middle">bmn pieces factory on the standard deck: distinct cycles with balanced deals against compute</text>' % (w / 2),
        "</svg>",
    ]
    pathlib.Path(path).write_text("\n".join(parts) + "\n")


def main():
    args = sys.argv[1:]
    folders = [a for a in args if pathlib.Path(a).is_dir()]
    threads = next((int(a) for a in args if a.isdigit() and a not in folders), 1)
    picture = next((a for a in args if a.endswith(".svg")), None)
    runs = [r for folder in folders for r in load(folder)]
    points, seen, deals, incidence = curve(runs, threads)
    print("| runs | CPU-hours | cycles with balanced deals | balanced deals |")
    print("|---:|---:|---:|---:|")
    for i, (run, hours, cycles, total) in enumerate(points, 1):
        print("| %d (%s) | %.2f | %d | %d |" % (i, run, hours, cycles, total))
    print()
    known = set()
    for folder in folders:
        mine = [r for r in runs if r["folder"] == pathlib.Path(folder).name]
        found = {c["cycle_id"] for r in mine for c in r["catalogue"]}
        hours = sum(r["cpu_seconds"] for r in mine) / 3600
        counts = {}
        for r in mine:
            for c in r["catalogue"]:
                counts[c["cycle_id"]] = counts.get(c["cycle_id"], 0) + 1
        estimate, (low, high), q1, q2 = chao2(counts, len(mine))
        print("%s: %d runs, %.2f CPU-hours, %d cycles (%d new), Chao2 %.1f (%.1f to %.1f)"
              % (folder, len(mine), hours, len(found), len(found - known), estimate, low, high))
        known |= found
    estimate, (low, high), q1, q2 = chao2(incidence, len(runs))
    print()
    print("cycles found by one run only: %d, by two: %d" % (q1, q2))
    print("Chao2: %.1f cycles (95%% interval %.1f to %.1f) from %d observed in %d runs"
          % (estimate, low, high, len(seen), len(runs)))
    periods = {}
    for cid, (_, period, kind) in seen.items():
        periods.setdefault(period, 0)
        periods[period] += 1
    print("periods (tricks: cycles):", ", ".join("%d: %d" % kv for kv in sorted(periods.items())))
    if picture:
        svg(points, picture)


if __name__ == "__main__":
    main()
