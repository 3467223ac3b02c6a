#!/usr/bin/env python3
"""nimscape's Python module against the CLI and against pure-NumPy peers.

Three measurements, each the best of a few runs in one process:

* ``nimscape.data.grundy("triangular", k=3, box=1000)`` into NumPy, against the
  solve time the CLI reports for the same box (``--time``: the solver alone);
* ``nimscape.data.pset(16384)``, the P-set of R(16384,16384) as a bool array,
  against NumPy broadcasting of the four heaps (as in compare_square.py);
* automaton frames 1..N mod 3 as a (N, N, N) uint16 array, against the NumPy
  recurrence (as in compare_automaton.py, here mod 3 and keeping every frame).

    cargo build --release && pip install ./crates/python
    python benches/compare_python.py [--skip-grundy]
"""
import os
import re
import subprocess
import sys
import time

import numpy as np

import nimscape

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.environ.get("NIMSCAPE_BIN", os.path.join(ROOT, "target", "release", "nimscape"))


def best(fn, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
        del result
    return min(times), times


def numpy_pset(m):
    k = np.arange(1, m + 1, dtype=np.int64)
    i, j = k[:, None], k[None, :]
    return ((i - 1) ^ (j - 1) ^ (m - i) ^ (m - j)) == 0


def numpy_automaton(last, p):
    side = last + 1
    out = np.zeros((last, last, last), dtype=np.uint16)
    prev = np.zeros((side, side), dtype=np.int64)
    cur = np.zeros((side, side), dtype=np.int64)
    cur[1, 1] = 1
    for n in range(1, last + 1):
        if n > 1:
            nxt = np.zeros((side, side), dtype=np.int64)
            nxt[:] = cur
            nxt[1:, :] += cur[:-1, :]
            nxt[:, 1:] += cur[:, :-1]
            nxt[1:, 1:] += cur[:-1, :-1] + prev[:-1, :-1]
            prev, cur = cur, nxt % p
        out[n - 1, :n, :n] = cur[1 : n + 1, 1 : n + 1]
    return out


def main():
    if "--skip-grundy" not in sys.argv:
        cli = subprocess.run(
            [BINARY, "--max-memory", "4G", "grundy", "triangular", "--k", "3", "--box", "1000", "--time"],
            capture_output=True,
            text=True,
            check=True,
        )
        report = cli.stdout + cli.stderr
        solve = float(re.search(r"in ([0-9.]+) s", report).group(1))
        py, runs = best(lambda: nimscape.data.grundy("triangular", k=3, box=1000, max_memory="4G"), 3)
        print(f"grundy triangular k=3 box=1000: Python into NumPy {py:.2f} s (runs {', '.join(f'{t:.2f}' for t in runs)}), CLI solve {solve:.2f} s: {py / solve:.2f}x")

    m = 16384
    ours, runs = best(lambda: nimscape.data.pset(m), 5)
    theirs, _ = best(lambda: numpy_pset(m), 2)
    assert np.array_equal(nimscape.data.pset(m), numpy_pset(m))
    print(f"pset({m}): nimscape {ours:.3f} s (runs {', '.join(f'{t:.3f}' for t in runs)}), NumPy broadcasting {theirs:.2f} s: {theirs / ours:.0f}x")

    last = 512
    ours, _ = best(lambda: nimscape.data.automaton(range(1, last + 1), modulus=3), 3)
    theirs, _ = best(lambda: numpy_automaton(last, 3), 2)
    assert np.array_equal(nimscape.data.automaton(range(1, last + 1), modulus=3), numpy_automaton(last, 3))
    print(f"automaton frames 1..{last} mod 3: nimscape {ours:.3f} s, NumPy recurrence {theirs:.2f} s: {theirs / ours:.0f}x (numpy {np.__version__})")


if __name__ == "__main__":
    main()
