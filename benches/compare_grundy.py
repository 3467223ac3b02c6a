#!/usr/bin/env python3
"""nimscape vs the papers' memoised recursion, in one run.

The baseline is a straightforward Python port of seed 000's Mathematica
program for the triangular bar y <= floor((x+z)/k):

    move[p]  = Union[ {t1, Min[Floor[(t1+z)/k], y], z},  t1 < x
                      {x, t2, z},                        t2 < y
                      {x, Min[Floor[(x+t3)/k], y], t3},  t3 < z ]
    Mex[L]   = Min[Complement[Range[0, Length[L]], L]]
    Gr[pos] := Gr[pos] = Mex[Map[Gr, move[pos]]]

evaluated at every position of the box 0..N (as the program's
`Select[allcases, Gr[#] == 0 &]` does). nimscape solves the same box and
writes every value as CSV; both sides' values are compared. Two ratios:
end to end (the whole `nimscape grundy ... -o values.csv` process: start-up,
solve, an fsync'd CSV file) and compute only (the solve as `--time` reports
it, against the Python recursion, which has no start-up or output either).

No third-party packages are needed:

    cargo build --release
    python3 benches/compare_grundy.py [N ...]     # default: 40
"""
import csv
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.path.join(ROOT, "target", "release", "nimscape")


def memoised_recursion(k, n):
    """Seed 000's program, line for line: a dict for Gr's memo, sets for Union."""
    sys.setrecursionlimit(1_000_000)
    memo = {}

    def move(p):
        x, y, z = p
        return (
            {(t1, min((t1 + z) // k, y), z) for t1 in range(x)}
            | {(x, t2, z) for t2 in range(y)}
            | {(x, min((x + t3) // k, y), t3) for t3 in range(z)}
        )

    def mex(values):
        values = set(values)
        return min(v for v in range(len(values) + 1) if v not in values)

    def gr(p):
        if p not in memo:
            memo[p] = mex(gr(q) for q in move(p))
        return memo[p]

    allcases = [
        (a, b, c)
        for a in range(n + 1)
        for b in range(n + 1)
        for c in range(n + 1)
        if (a + c) // k >= b
    ]
    return {p: gr(p) for p in allcases}


def timed(fn, runs):
    times, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main():
    sizes = [int(a) for a in sys.argv[1:]] or [40]
    k = 3
    if not os.path.exists(BINARY):
        sys.exit("build first: cargo build --release")
    print(f"triangular bar y <= floor((x+z)/{k}), every Grundy value in the box 0..N")
    print(f"{'N':>5} {'positions':>10} {'python s':>9} {'nimscape s':>11} {'ratio':>8} {'solve s':>10} {'ratio':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "values.csv")
        for n in sizes:
            command = [BINARY, "grundy", "triangular", "--k", str(k), "--box", str(n), "-o", out]
            t_ours, _ = timed(lambda: subprocess.run(command, check=True), runs=5)
            t_theirs, theirs = timed(lambda: memoised_recursion(k, n), runs=1)
            solves = []
            for _ in range(5):
                report = subprocess.run(command[:-2] + ["--time"], check=True, capture_output=True, text=True).stdout
                solves.append(float(report.split(" in ")[1].split()[0]))
            t_solve = statistics.median(solves)
            with open(out) as f:
                ours = {(int(r["x"]), int(r["y"]), int(r["z"])): int(r["grundy"]) for r in csv.DictReader(f)}
            same = ours == theirs
            print(f"{n:>5} {len(theirs):>10} {t_theirs:>9.2f} {t_ours:>11.4f} {t_theirs / t_ours:>7.0f}x"
                  f" {t_solve:>10.6f} {t_theirs / t_solve:>7.0f}x"
                  + ("" if same else "   VALUES DIFFER"))
            if not same:
                sys.exit(1)


if __name__ == "__main__":
    main()
