"""Ctrl-C during a long solve raises KeyboardInterrupt promptly (tens of
milliseconds on a quiet machine; the bound is generous, for a loaded one)."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

CHILD = textwrap.dedent(
    """
    import os, shutil, signal, sys, tempfile
    import nimscape
    # Ctrl-C as in any interactive session or notebook: a process started in the
    # background by a non-interactive shell (as CI may start this one) begins with
    # SIGINT ignored, and Python then never raises KeyboardInterrupt for anything.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    folder = tempfile.mkdtemp()
    print("ready", flush=True)
    try:
        {call}
        print("finished", flush=True)
    except KeyboardInterrupt:
        print("KeyboardInterrupt", flush=True)
    print("left:", sorted(os.listdir(folder)), flush=True)
    shutil.rmtree(folder)
    """
)

LONG_CALLS = [
    # Solving into an array (data.grundy), and a figure's .npy stream saved to a file.
    'nimscape.data.grundy("triangular", k=3, box=1000, max_memory="4G")',
    'nimscape.grundy("triangular", k=3, box=1000, max_memory="4G").save(os.path.join(folder, "g.npy"))',
]


@pytest.mark.parametrize("call", LONG_CALLS)
def test_ctrl_c_stops_a_long_solve_promptly(call):
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD.replace("{call}", call)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(1.0)  # well inside the solve (several seconds)
        assert child.poll() is None, "the solve ended before the signal"
        start = time.monotonic()
        child.send_signal(signal.SIGINT)
        line = child.stdout.readline().strip()
        elapsed = time.monotonic() - start
        assert line == "KeyboardInterrupt"
        # Well under the seconds the solve still had to run.
        assert elapsed < 3.0, f"KeyboardInterrupt after {elapsed:.3f} s"
        assert child.stdout.readline().strip() == "left: []", "an interrupted save leaves nothing"
        assert child.wait(timeout=10) == 0
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def test_the_gil_is_released_while_work_runs():
    import threading

    import nimscape

    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.01)

    thread = threading.Thread(target=tick)
    thread.start()
    try:
        started = time.monotonic()
        nimscape.data.grundy("triangular", k=3, box=600)
        solving = time.monotonic() - started
    finally:
        stop.set()
        thread.join()
    gaps = [b - a for a, b in zip(ticks, ticks[1:])]
    # Held, the GIL would stop the ticks for the whole solve (about a second);
    # released, they go on every 10 ms, or somewhat later on a loaded machine.
    assert len(ticks) > 5 and max(gaps) < solving / 2, "another Python thread kept running"
