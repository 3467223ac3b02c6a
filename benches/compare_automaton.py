#!/usr/bin/env python3
"""nimscape vs NumPy on the automaton mod 2 (SPEC section 3), side by side in one run.

Both sides compute every frame n = 1..M of

    a_{i,j}(n+2) = a_{i,j}(n+1) + a_{i-1,j}(n+1) + a_{i,j-1}(n+1)
                 + a_{i-1,j-1}(n+1) + a_{i-1,j-1}(n)          (mod 2)

from a(1) = 1 at (1,1), and check each frame's odd cells against the XOR
criterion for P(n,n): (i-1) ^ (j-1) ^ (n-i) ^ (n-j) == 0.

The NumPy side is what a researcher would write: whole-array XORs of shifted
uint8 planes, on the growing (n+1) x (n+1) window (not the full M x M array,
which would be slower still), and the criterion by broadcasting.

The nimscape side is `nimscape automaton --frames 1..M --check`, the same work
(bit-parallel, rows in parallel), timed as a whole process.

Usage (numpy is the only dependency: `pip install numpy`):

    cargo build --release
    python3 benches/compare_automaton.py [--m 1024] [--bin target/release/nimscape]
"""

import argparse
import os
import subprocess
import sys
import time

import numpy as np


def numpy_check(m: int) -> int:
    """Frames 1..m mod 2 with NumPy, each checked; returns the cells checked."""
    side = m + 1  # index 0 is the zero row/column outside the board
    prev = np.zeros((side, side), dtype=np.uint8)
    cur = np.zeros((side, side), dtype=np.uint8)
    cur[1, 1] = 1
    cells = 0
    for n in range(1, m + 1):
        if n > 1:
            w = n + 1  # frame n lives in rows/cols 1..n
            c, p = cur[:w, :w], prev[:w, :w]
            nxt = np.zeros((side, side), dtype=np.uint8)
            x = nxt[:w, :w]
            x[:] = c
            x[1:, :] ^= c[:-1, :]
            x[:, 1:] ^= c[:, :-1]
            x[1:, 1:] ^= c[:-1, :-1] ^ p[:-1, :-1]
            prev, cur = cur, nxt
        i = np.arange(1, n + 1)[:, None]
        j = np.arange(1, n + 1)[None, :]
        p_cells = ((i - 1) ^ (j - 1) ^ (n - i) ^ (n - j)) == 0
        odd = cur[1 : n + 1, 1 : n + 1] == 1
        if not np.array_equal(odd, p_cells):
            bad = np.argwhere(odd != p_cells)[0]
            sys.exit(f"NumPy: frame {n} disagrees at cell ({bad[0] + 1}, {bad[1] + 1})")
        cells += n * n
    return cells


def main() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--m", type=int, default=1024, help="last frame M (default 1024)")
    parser.add_argument(
        "--bin",
        default=os.path.join(here, "..", "target", "release", "nimscape"),
        help="the nimscape binary (default target/release/nimscape)",
    )
    args = parser.parse_args()
    if not os.path.exists(args.bin):
        sys.exit(f"{args.bin} not found: run `cargo build --release` first")

    start = time.perf_counter()
    out = subprocess.run(
        [args.bin, "automaton", "--frames", f"1..{args.m}", "--check"],
        check=True,
        capture_output=True,
        text=True,
    )
    rust = time.perf_counter() - start
    print(f"nimscape: {rust:8.3f} s   {out.stdout.strip()}")

    start = time.perf_counter()
    cells = numpy_check(args.m)
    py = time.perf_counter() - start
    print(f"NumPy   : {py:8.3f} s   checked frames 1..{args.m}: all {cells} cells agree (numpy {np.__version__})")

    print(f"ratio   : nimscape is {py / rust:.0f}x faster at M = {args.m}")


if __name__ == "__main__":
    main()
