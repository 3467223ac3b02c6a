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


def numpy_grundy(k, n):
    """The triangular bar y <= floor((x+z)/k) in NumPy: positions in lexicographic
    order (every option comes earlier), each position's options gathered with
    fancy indexing and its mex taken with bincount. Same array as nimscape's."""
    tallest = (2 * n) // k
    g = np.full((n + 1, tallest + 1, n + 1), 65535, dtype=np.uint16)
    for x in range(n + 1):
        for z in range(n + 1):
            t_x = np.arange(x)
            t_z = np.arange(z)
            cap_x = (t_x + z) // k
            cap_z = (x + t_z) // k
            for y in range((x + z) // k + 1):
                options = np.concatenate(
                    (
                        g[t_x, np.minimum(cap_x, y), z],
                        g[x, :y, z],
                        g[x, np.minimum(cap_z, y), t_z],
                    )
                )
                seen = np.bincount(options, minlength=options.size + 1)
                g[x, y, z] = np.flatnonzero(seen == 0)[0]
    return g[:, : min(tallest, n) + 1, :]


def main():
    if "--skip-grundy" not in sys.argv:
        # Alternating runs, best of three each: the CLI's own solve time (--time,
        # the solver alone) against the whole Python call, array included.
        cli_times, py_times = [], []
        for _ in range(3):
            cli = subprocess.run(
                [BINARY, "--max-memory", "4G", "grundy", "triangular", "--k", "3", "--box", "1000", "--time"],
                capture_output=True,
                text=True,
                check=True,
            )
            cli_times.append(float(re.search(r"in ([0-9.]+) s", cli.stdout + cli.stderr).group(1)))
            py_times.append(best(lambda: nimscape.data.grundy("triangular", k=3, box=1000, max_memory="4G"), 1)[0])
        py, solve = min(py_times), min(cli_times)
        print(
            f"grundy triangular k=3 box=1000: Python into NumPy {py:.2f} s (runs {', '.join(f'{t:.2f}' for t in py_times)}), "
            f"CLI solve {solve:.2f} s (runs {', '.join(f'{t:.2f}' for t in cli_times)}): {py / solve:.2f}x"
        )

    box = 60
    ours, _ = best(lambda: nimscape.data.grundy("triangular", k=3, box=box), 5)
    theirs, _ = best(lambda: numpy_grundy(3, box), 1)
    assert np.array_equal(nimscape.data.grundy("triangular", k=3, box=box), numpy_grundy(3, box))
    print(f"grundy triangular k=3 box={box}: nimscape {ours * 1000:.1f} ms, NumPy per position {theirs:.2f} s: {theirs / ours:.0f}x")

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
