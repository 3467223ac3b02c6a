#!/usr/bin/env python3
"""nimscape vs the NumPy + Pillow script a researcher would write, in one run.

Both draw R(m,m) at one pixel per cell as a 1-bit PNG (P cells black) into a
temporary folder; each side runs three times and the median is compared.

    pip install numpy pillow
    cargo build --release
    python3 benches/compare_square.py [m ...]     # default: 16384
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from PIL import Image

Image.MAX_IMAGE_PIXELS = None  # the boards are big on purpose

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.path.join(ROOT, "target", "release", "nimscape")


def numpy_pillow(m, path):
    """The straightforward version: broadcast the four heaps, XOR, save 1-bit."""
    k = np.arange(1, m + 1, dtype=np.int64)
    i = k[:, None]
    j = k[None, :]
    p = ((i - 1) ^ (j - 1) ^ (m - i) ^ (m - j)) == 0
    Image.fromarray(~p).convert("1").save(path, optimize=False)


def peak_rss_mib(command):
    """Peak memory of one run, by GNU time (a forked child's own counter would include
    this Python process's memory from before the exec)."""
    if not os.path.exists("/usr/bin/time"):
        return float("nan")
    done = subprocess.run(["/usr/bin/time", "-f", "%M"] + command, check=True, stderr=subprocess.PIPE, text=True)
    return int(done.stderr.strip().splitlines()[-1]) / 1024


def timed(fn, runs=3):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    sizes = [int(a) for a in sys.argv[1:]] or [16384]
    if not os.path.exists(BINARY):
        sys.exit("build first: cargo build --release")
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'m':>7} {'nimscape s':>11} {'numpy+pillow s':>15} {'ratio':>7} {'png bytes':>10} {'peak RSS MiB':>13}")
        for m in sizes:
            ours = os.path.join(tmp, f"nimscape-{m}.png")
            theirs = os.path.join(tmp, f"numpy-{m}.png")
            command = [BINARY, "square", "--m", str(m), "--raw", "-o", ours]
            t_ours = timed(lambda: subprocess.run(command, check=True))
            peak = peak_rss_mib(command)
            t_theirs = timed(lambda: numpy_pillow(m, theirs))
            # Same picture? Compare decoded pixels.
            same = np.array_equal(np.array(Image.open(ours).convert("1")), np.array(Image.open(theirs).convert("1")))
            print(f"{m:>7} {t_ours:>11.3f} {t_theirs:>15.3f} {t_theirs / t_ours:>6.1f}x {os.path.getsize(ours):>10} {peak:>13.1f}"
                  + ("" if same else "   PICTURES DIFFER"))


if __name__ == "__main__":
    main()
