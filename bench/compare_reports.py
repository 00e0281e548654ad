#!/usr/bin/env python3
"""Compare two springtune-style report CSVs column by column.

Usage: python3 bench/compare_reports.py A.csv B.csv [--tol 1e-6] [--atol 0]

Rows are joined on `config_id` (and `trace` in a per-trace CSV; the swept-parameter columns are compared like any other
column). For every column it prints the largest relative difference |a − b| / max(|a|, |b|)
(0 when both are 0), how many cells are byte-identical, and the row of the largest difference.
An empty cell against a number, `inf` against a finite number, a missing column or a missing
config_id counts as an infinite difference. A pair whose absolute difference is at most --atol
counts as 0. Exits 1 when any column's largest relative difference exceeds --tol (default
1e-6), 0 otherwise. Standard library only.
"""

import argparse
import csv
import math
import sys


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    if "config_id" not in header:
        sys.exit(f"{path}: no config_id column")
    key = header.index("config_id")
    # A per-trace CSV has one row per (config_id, trace).
    sub = header.index("trace") if "trace" in header else None
    return header, {(r[key], r[sub] if sub is not None else ""): dict(zip(header, r)) for r in body}


def order(k):
    return (int(k[0]), k[1])


def cell(s):
    s = s.strip()
    if s == "":
        return None
    try:
        return float(s)
    except ValueError:
        return s


def rel_diff(a, b, atol):
    if a == b:
        return 0.0
    if a is None or b is None or isinstance(a, str) or isinstance(b, str):
        return math.inf
    if math.isinf(a) or math.isinf(b):
        return math.inf
    d = abs(a - b)
    if d <= atol:
        return 0.0
    return d / max(abs(a), abs(b))


def main():
    ap = argparse.ArgumentParser(description="largest relative difference per column of two report CSVs")
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--tol", type=float, default=1e-6, help="fail above this relative difference (default 1e-6)")
    ap.add_argument("--atol", type=float, default=0.0, help="absolute differences up to this count as 0 (default 0)")
    args = ap.parse_args()

    ha, ra = read(args.a)
    hb, rb = read(args.b)
    failed = False
    if ha != hb:
        print(f"columns differ:\n  {args.a}: {ha}\n  {args.b}: {hb}")
        failed = True
    only_a, only_b = sorted(set(ra) - set(rb), key=order), sorted(set(rb) - set(ra), key=order)
    if only_a or only_b:
        print(f"config_ids only in {args.a}: {only_a[:10]}{'…' if len(only_a) > 10 else ''}; "
              f"only in {args.b}: {only_b[:10]}{'…' if len(only_b) > 10 else ''}")
        failed = True
    ids = sorted(set(ra) & set(rb), key=order)
    columns = [c for c in ha if c in hb]
    print(f"{len(ids)} rows compared ({args.a} vs {args.b})")
    print(f"{'column':<24} {'max_rel_diff':>13} {'identical':>12}  worst config_id")
    worst_all = 0.0
    for col in columns:
        worst, worst_id, same = 0.0, "", 0
        for i in ids:
            sa, sb = ra[i][col], rb[i][col]
            if sa == sb:
                same += 1
                continue
            d = rel_diff(cell(sa), cell(sb), args.atol)
            if d > worst or (worst_id == "" and d >= worst):
                worst, worst_id = d, i
        where = "" if worst_id == "" else " ".join(x for x in worst_id if x)
        print(f"{col:<24} {worst:>13.3e} {same:>6}/{len(ids):<6} {where}")
        worst_all = max(worst_all, worst)
        if worst > args.tol:
            failed = True
    print(f"largest relative difference over all columns: {worst_all:.3e} (tolerance {args.tol:g})")
    if failed:
        print("FAIL")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
