#!/usr/bin/env python3
"""The capped game files against `--cap`, side by side in one run.

The game is the chocolate bar y <= floor(min(x, z)/k) of Miyadera et al., written
as `games/min-k.toml` (and its variants `min-k-pass.toml`, `min-k-misere.toml`).
A game file of this shape is recognised as a capped game and solved by the capped
solver, as `grundy --cap 'floor(min(x,z)/k)'` is. Each row is run 7 times,
alternating the two commands; the medians of `--time` (the solve alone) and of
the wall time (the whole command) are printed, and each pair's values (CSV) are
compared once. Targets: the file within 1.5x of --cap at box 120; its pass variant
at box 120 and its misère variant at box 200 under 2 s; the survey of k = 1..11 at
box 120 from the file under 5 s.

    cargo build --release
    python3 benches/compare_capped_files.py
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.path.join(ROOT, "target", "release", "nimscape")
GAMES = os.path.join(ROOT, "games")
RUNS = 7


def run(args):
    """Seconds by --time (None when not asked) and wall seconds of one command."""
    start = time.perf_counter()
    out = subprocess.run([BINARY] + args, check=True, capture_output=True, text=True).stdout
    wall = time.perf_counter() - start
    solve = None
    for line in out.splitlines():
        if line.startswith("solved "):
            solve = float(line.split(" in ")[1].split()[0])
    return solve, wall


def same_values(a, b):
    with tempfile.TemporaryDirectory() as tmp:
        paths = [os.path.join(tmp, f"{i}.csv") for i in range(2)]
        for args, path in zip((a, b), paths):
            subprocess.run([BINARY] + args + ["-o", path], check=True, capture_output=True)
        with open(paths[0]) as f, open(paths[1]) as g:
            return f.read() == g.read()


def row(label, file_args, cap_args, compare=True):
    times = {"file": [], "cap": []}
    for _ in range(RUNS):
        for key, args in (("file", file_args), ("cap", cap_args)):
            times[key].append(run(args))
    med = {
        key: (
            statistics.median(t[0] for t in ts) if ts[0][0] is not None else None,
            statistics.median(t[1] for t in ts),
        )
        for key, ts in times.items()
    }
    same = same_values([a for a in file_args if a != "--time"], [a for a in cap_args if a != "--time"]) if compare else None
    fmt = lambda m: (f"solve {m[0] * 1000:.1f} ms, " if m[0] is not None else "") + f"wall {m[1] * 1000:.0f} ms"
    ratio = (med["file"][0] / med["cap"][0]) if med["file"][0] else med["file"][1] / med["cap"][1]
    print(f"{label}: file {fmt(med['file'])}; --cap {fmt(med['cap'])}; file/cap {ratio:.2f}x"
          + ("" if same is None else f"; values {'the same' if same else 'DIFFER'}"))
    return same is not False


def main():
    if not os.path.exists(BINARY):
        sys.exit(f"build first: cargo build --release (no {BINARY})")
    print(f"load average {os.getloadavg()[0]:.1f}, {RUNS} runs each, medians")
    ok = True
    for k in (1, 2):
        ok &= row(f"min-k k={k}, box 120",
                  ["grundy", "--game", f"{GAMES}/min-k.toml", "--param", f"k={k}", "--box", "120", "--time"],
                  ["grundy", "--cap", f"floor(min(x,z)/{k})", "--box", "120", "--time"])
    ok &= row("min-k-pass k=2, box 120",
              ["grundy", "--game", f"{GAMES}/min-k-pass.toml", "--box", "120", "--time"],
              ["grundy", "--cap", "floor(min(x,z)/2)", "--pass", "--box", "120", "--time"])
    ok &= row("min-k-misere k=2, box 200",
              ["grundy", "--game", f"{GAMES}/min-k-misere.toml", "--box", "200", "--time"],
              ["grundy", "--cap", "floor(min(x,z)/2)", "--misere", "--box", "200", "--time"])
    ok &= row("survey k=1..11, box 120",
              ["survey", f"{GAMES}/min-k.toml", "--param", "k=1..11", "--box", "120", "-q"],
              ["survey", "--cap", "floor(min(x,z)/k)", "--param", "k=1..11", "--box", "120", "-q"],
              compare=False)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
