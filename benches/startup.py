#!/usr/bin/env python3
"""What a command costs when it does (almost) no work: wall time and CPU time of
whole processes, the median of many runs, like `hyperfine --warmup 3 --runs N`.

The commands below compute next to nothing, so their time is nimscape's own:
starting, reading the command line, the signal handler, the progress watcher
(which is woken when the work ends, never waited for a tick), writing. The
target is under 20 ms each (docs/speed.md); the larger commands show that the
watcher adds nothing to real work either (it once added 50-150 ms to each).

Usage (nothing but Python 3):

    cargo build --release
    python3 benches/startup.py [--runs 50] [--bin target/release/nimscape]
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

COMMANDS = [
    # No real work: a table of one value, a tiny figure through the whole write
    # path (atomic file, progress watcher), a refusal.
    ["count", "--m", "11"],
    ["square", "--m", "3", "-o", "{dir}/s.png"],
    ["square", "--m", "3", "--raw", "-o", "{dir}/r.png"],
    ["square", "--m", "16383", "-o", "{dir}/x.svg"],
    # Real work, measured in docs/speed.md before the watcher cost 100 ms.
    ["automaton", "--frames", "1..1024", "--check"],
    ["square", "--m", "12345", "--raw", "-o", "{dir}/big.png"],
]


def run(binary, args, runs, warmup=3):
    """Median wall and CPU (user + system) seconds of `runs` runs, after `warmup`."""
    walls, cpus = [], []
    for i in range(warmup + runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(
            [binary, *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if i >= warmup:
            walls.append(wall)
            cpus.append(
                (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            )
    return statistics.median(walls), statistics.median(cpus), min(walls)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--bin", default="target/release/nimscape")
    options = parser.parse_args()
    if not os.path.exists(options.bin):
        sys.exit(f"{options.bin} not found: run `cargo build --release` first")
    print(f"load average {os.getloadavg()[0]:.1f}, {options.runs} runs each")
    print("median wall\tmin wall\tmedian CPU\tcommand")
    with tempfile.TemporaryDirectory() as folder:
        for command in COMMANDS:
            args = [a.replace("{dir}", folder) for a in command]
            wall, cpu, fastest = run(options.bin, args, options.runs)
            shown = " ".join(command).replace("{dir}/", "")
            print(
                f"{wall * 1e3:.1f} ms\t{fastest * 1e3:.1f} ms\t{cpu * 1e3:.1f} ms\tnimscape {shown}"
            )


if __name__ == "__main__":
    main()
