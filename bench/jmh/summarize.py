#!/usr/bin/env python3
"""Minimum and median score (ns/op) per benchmark of an interleave.sh output file.

On a shared machine interference only ever adds time, so the minimum over forks is the
steadiest estimate of a benchmark's own cost; the median is shown beside it.
"""
import statistics
import sys
from collections import defaultdict

scores = defaultdict(list)
for line in open(sys.argv[1]):
    parts = line.strip().split(",")
    if len(parts) == 3:
        scores[parts[1].rsplit(".", 1)[-1]].append(float(parts[2]))
for name, values in scores.items():
    print(f"{name:32} forks={len(values):2} min={min(values):8.2f} median={statistics.median(values):8.2f}")
