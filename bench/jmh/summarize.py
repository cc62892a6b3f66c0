#!/usr/bin/env python3
"""Minimum and median score (ns/op) per benchmark of an interleave.sh output file.

    summarize.py FILE [BASELINE [YARDSTICK]]

On a shared machine interference only ever adds time, so the minimum over forks is the
steadiest estimate of a benchmark's own cost; the median is shown beside it.

With BASELINE (e.g. plain), each benchmark's overhead is its score minus the baseline's;
with YARDSTICK too (e.g. plainUnderJfrMethodTiming), each overhead is also given as a
multiple of the yardstick's overhead: from the minimums, from the medians, and as the
median of the ratios taken round by round (forks of one round ran minutes apart, under
much the same load).
"""
import statistics
import sys
from collections import defaultdict

scores = defaultdict(list)
rounds = defaultdict(dict)
for line in open(sys.argv[1]):
    parts = line.strip().split(",")
    if len(parts) == 3:
        name = parts[1].rsplit(".", 1)[-1]
        scores[name].append(float(parts[2]))
        rounds[parts[0]][name] = float(parts[2])
for name, values in scores.items():
    print(f"{name:32} forks={len(values):2} min={min(values):8.2f} median={statistics.median(values):8.2f}")

if len(sys.argv) > 2:
    base = sys.argv[2]
    yard = sys.argv[3] if len(sys.argv) > 3 else None
    low = {n: min(v) for n, v in scores.items()}
    mid = {n: statistics.median(v) for n, v in scores.items()}
    print(f"\noverhead over {base}" + (f", as a multiple of {yard}'s overhead" if yard else ""))
    for name in scores:
        if name == base:
            continue
        line = f"{name:32} min={low[name] - low[base]:8.2f} median={mid[name] - mid[base]:8.2f}"
        if yard and name != yard:
            paired = [(r[name] - r[base]) / (r[yard] - r[base])
                      for r in rounds.values() if name in r and base in r and yard in r]
            line += (f"  x{(low[name] - low[base]) / (low[yard] - low[base]):5.2f} (min)"
                     f"  x{(mid[name] - mid[base]) / (mid[yard] - mid[base]):5.2f} (median)"
                     f"  x{statistics.median(paired):5.2f} (paired median, {min(paired):.2f}..{max(paired):.2f})")
        print(line)
