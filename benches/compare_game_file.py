#!/usr/bin/env python3
"""A game file vs the built-in game vs the papers' memoised recursion, in one run.

The game is Example 7.1 of Miyadera et al., "Combinatorial Games and Beautiful
Graphs Produced by Them" (web book): the band res2(x) <= y <= res(x). The
baseline is a straightforward Python port of the book's Mathematica program:

    allcases = Select[box, res[#[[1]]] >= #[[2]] >= res2[#[[1]]] &]
    move[{x_, y_}] := Union[Table[{t, Min[res[t], y]}, {t, 0, x - 1}],
                            Table[{Min[inverseres2[x], t], t}, {t, 0, y - 1}]]
    Gr[pos_] := Gr[pos] = Mex[Map[Gr, move[pos]]]

evaluated at every position with x <= N. nimscape solves the same box twice, as
`grundy band-7-1` (the built-in game) and as `grundy --game games/band-7-1.toml`
(the game file), each timed by `--time` (the solve alone), median of 7 runs; the
game file's values (CSV) are compared with Python's. Two ratios: game file against
the built-in game (target: within 5x) and Python against the game file (target: at
least 100x).

No third-party packages are needed:

    cargo build --release
    python3 benches/compare_game_file.py [N ...]     # default: 300
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
GAME = os.path.join(ROOT, "games", "band-7-1.toml")


def memoised_recursion(n, closed_form):
    """The book's program, line for line: a dict for Gr's memo, sets for Union.

    inverseres2(x) = max{m : res2(m) <= x}: the book searches m in Range[0, 30],
    which is too short past x = 31; `closed_form` False searches 0..x+3 instead
    (the book's method, long enough for every x), True uses 2 floor(x/2) + 3
    (a faster peer than the book's program).
    """
    sys.setrecursionlimit(1_000_000)
    memo = {}

    def res(x):
        return 2 * (x // 2) + 1

    def res2(x):
        return max(2 * (x // 2) - 2, 0)

    if closed_form:
        def inverseres2(x):
            return 2 * (x // 2) + 3
    else:
        def inverseres2(x):
            return max(m for m in range(x + 4) if res2(m) <= x)

    def move(p):
        x, y = p
        return {(t, min(res(t), y)) for t in range(x)} | {
            (min(inverseres2(x), t), t) for t in range(y)
        }

    def mex(values):
        values = set(values)
        return min(v for v in range(len(values) + 1) if v not in values)

    def gr(p):
        if p not in memo:
            memo[p] = mex(gr(q) for q in move(p))
        return memo[p]

    allcases = [(x, y) for x in range(n + 1) for y in range(res(n) + 1) if res(x) >= y >= res2(x)]
    return {p: gr(p) for p in allcases}


def solve_seconds(command, runs=7):
    times = []
    for _ in range(runs):
        report = subprocess.run(command + ["--time"], check=True, capture_output=True, text=True).stdout
        times.append(float(report.split(" in ")[1].split()[0]))
    return statistics.median(times)


def main():
    sizes = [int(a) for a in sys.argv[1:]] or [300]
    if not os.path.exists(BINARY):
        sys.exit("build first: cargo build --release")
    print("Example 7.1 (band res2(x) <= y <= res(x)), every Grundy value with x <= N")
    print("python: the book's program (inverseres2 by search); python*: inverseres2 in closed form")
    print(f"{'N':>5} {'positions':>10} {'python s':>9} {'python* s':>10} {'built-in s':>11} {'file s':>9}"
          f" {'file/built-in':>14} {'python/file':>12} {'python*/file':>13}")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "values.csv")
        for n in sizes:
            box = f"{n},{2 * (n // 2) + 1}"
            builtin = [BINARY, "grundy", "band-7-1", "--box", box]
            from_file = [BINARY, "grundy", "--game", GAME, "--box", box]
            t_builtin = solve_seconds(builtin)
            t_file = solve_seconds(from_file)
            start = time.perf_counter()
            theirs = memoised_recursion(n, closed_form=False)
            t_python = time.perf_counter() - start
            start = time.perf_counter()
            theirs_closed = memoised_recursion(n, closed_form=True)
            t_closed = time.perf_counter() - start
            subprocess.run(from_file + ["-o", out], check=True, capture_output=True)
            with open(out) as f:
                ours = {(int(r["x"]), int(r["y"])): int(r["grundy"]) for r in csv.DictReader(f)}
            same = ours == theirs == theirs_closed
            print(f"{n:>5} {len(theirs):>10} {t_python:>9.3f} {t_closed:>10.3f} {t_builtin:>11.6f} {t_file:>9.6f}"
                  f" {t_file / t_builtin:>13.1f}x {t_python / t_file:>11.0f}x {t_closed / t_file:>12.0f}x"
                  + ("" if same else "   VALUES DIFFER"))
            if not same:
                sys.exit(1)


if __name__ == "__main__":
    main()
