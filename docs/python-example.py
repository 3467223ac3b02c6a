"""nimscape from Python: a figure of the web book, a theorem checked with NumPy,
and the automaton's frames mod 3 (with a slider in Jupyter when ipywidgets is
installed). CI runs this file; paste its cells into a notebook as they are.

    pip install ./crates/python        # from a clone of the repository
    python docs/python-example.py [FOLDER]   # figures go to FOLDER (default: output)
"""

import os
import sys

import numpy as np

import nimscape

folder = sys.argv[1] if len(sys.argv) > 1 else "output"
os.makedirs(folder, exist_ok=True)

# --- Figure 7.9 of the Miyadera web book ("Combinatorial Games and Beautiful Graphs
# Produced by Them"): the Grundy values of Example 7.1, coloured by value mod 3.
fig = nimscape.grundy("band-7-1")
fig.save(os.path.join(folder, "figure-7-9.png"))
fig.save(os.path.join(folder, "figure-7-9.svg"))
print(fig.command)  # the command line that draws the same bytes
values = nimscape.data.grundy("band-7-1")  # uint16, nimscape.OUTSIDE off the band
inside = values != nimscape.OUTSIDE
print(f"Example 7.1: {inside.sum()} positions, {(values[inside] == 0).sum()} P-positions")

# --- Theorem 3.4 of Okubo, Kashiwagi, Niida, "Recursive Patterns in the Chocolate
# Game": with m = 2^(k+1) + s (0 <= s < 2^(k+1)) and t = 2^(k+1) - s, R(m,m) is four
# copies of R(s,s) at the corners and R(t,t) at the centre, and nothing else.
def theorem_3_4_holds(m):
    r = nimscape.data.pset(m)  # bool, m x m, without a copy
    top = 1 << (m.bit_length() - 1)
    s, t = m - top, 2 * top - m
    if s == 0:  # a power of two: every cell is P
        return bool(r.all())
    expected = np.zeros((m, m), dtype=bool)
    corner = nimscape.data.pset(s)
    for rows in (slice(0, s), slice(m - s, m)):
        for cols in (slice(0, s), slice(m - s, m)):
            expected[rows, cols] = corner
    expected[s : s + t, s : s + t] = nimscape.data.pset(t)
    return np.array_equal(r, expected)


checked = [m for m in range(2, 1025) if theorem_3_4_holds(m)]
assert len(checked) == 1023, "Theorem 3.4 fails somewhere"
print("Theorem 3.4 holds for every m in 2..1024")
nimscape.square(m=11, decompose=True).save(os.path.join(folder, "r-11-decomposed.svg"))

# --- The second-order automaton mod 3, frames 1..32: frame n fills the n x n
# corner; its odd cells (mod 2) are the P-positions of C(n,n).
frames = nimscape.data.automaton(range(1, 33), modulus=3)
print("automaton frames mod 3:", frames.shape, frames.dtype)
parity = nimscape.data.automaton(range(1, 33), modulus=2)
assert all(np.array_equal(parity[n - 1, :n, :n] == 1, nimscape.data.pset(n)) for n in range(1, 33))
nimscape.automaton(frames=range(1, 33), modulus=3).save(os.path.join(folder, "automaton-mod3.gif"))

try:  # In Jupyter with ipywidgets: a slider over the frames, each drawn by nimscape.
    import ipywidgets
    from IPython import get_ipython
    from IPython.display import display

    if get_ipython() is not None:
        ipywidgets.interact(
            lambda n: display(nimscape.automaton(frames=n, modulus=3)),
            n=ipywidgets.IntSlider(min=1, max=32, value=12),
        )
except ImportError:
    pass  # without ipywidgets: the GIF above shows every frame
print("wrote", sorted(os.listdir(folder)))
