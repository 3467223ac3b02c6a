#!/usr/bin/env python3
"""The generic solver on a six-heap game file against earlier binaries, in one run.

The game is the six-sided bar of Miyadera et al.'s web book (games/six-sided.toml:
one heap lowered, then all six normalised at once), which no faster solver
recognises. At box 11 it has 1 172 535 positions in 2 985 984 tuples and about
4.4 * 10^7 options. Each binary solves it `--runs` times, alternating, with
`--time` (the solve alone); the medians of the solve's wall time and of the
process's CPU time are printed with their ratios to this build, and every
binary's CSV is compared with this build's.

    cargo build --release
    python3 benches/compare_six_heap.py [--box 11] [--runs 3] OLD_BINARY ...
"""
import argparse
import filecmp
import os
import resource
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.path.join(ROOT, "target", "release", "nimscape")
GAME = os.path.join(ROOT, "games", "six-sided.toml")


def run(binary, box, out):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    report = subprocess.run(
        [binary, "grundy", "--game", GAME, "--box", ",".join([str(box)] * 6), "--time", "-o", out],
        check=True, capture_output=True, text=True,
    ).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    solve = float(report.split(" in ")[1].split()[0])
    return solve, cpu


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--box", type=int, default=11)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("old", nargs="*")
    args = parser.parse_args()
    binaries = [BINARY] + args.old
    times = {b: [] for b in binaries}
    with tempfile.TemporaryDirectory() as tmp:
        outs = {b: os.path.join(tmp, f"{i}.csv") for i, b in enumerate(binaries)}
        for _ in range(args.runs):
            for b in binaries:
                times[b].append(run(b, args.box, outs[b]))
        print(f"six-sided, box {args.box} (each coordinate 0..{args.box}), load {os.getloadavg()[0]:.1f}")
        mine_solve = statistics.median(t[0] for t in times[BINARY])
        mine_cpu = statistics.median(t[1] for t in times[BINARY])
        for b in binaries:
            solve = statistics.median(t[0] for t in times[b])
            cpu = statistics.median(t[1] for t in times[b])
            same = filecmp.cmp(outs[b], outs[BINARY], shallow=False)
            print(f"{b}: solve {solve:.3f} s ({solve / mine_solve:.1f}x this build), "
                  f"CPU {cpu:.3f} s ({cpu / mine_cpu:.1f}x)" + ("" if same else "  VALUES DIFFER"))
            if not same:
                sys.exit(1)


if __name__ == "__main__":
    main()
