"""nimscape: exact figures and NumPy arrays of chocolate-bar games.

Figures (PNG, SVG, PDF, GIF, data) are drawn by the same request layer as the
``nimscape`` command line, with its parameter names (underscores for dashes) and
its validation; their bytes equal the command line's::

    import nimscape
    fig = nimscape.square(m=11, decompose=True)
    fig.save("square-11.svg")        # atomic, any format the CLI writes
    fig.command                      # 'nimscape square --m 11 --decompose'

Exact data comes as NumPy arrays, Python ints and fractions (see
:mod:`nimscape.data`)::

    p = nimscape.data.pset(16384)                  # bool, R(16384,16384)
    g = nimscape.data.grundy("triangular", k=3, box=100)   # uint16, OUTSIDE = 65535

Conjecture surveys (``nimscape survey``) return their report as a dict::

    report = nimscape.survey(cap="floor((x+z)**2/k)", param="k=1..8", box=16, find="shift,constant")

Proofs (``nimscape prove``, with MONA on PATH) return each case's verdict::

    proofs = nimscape.prove("triangular", param="k=3,4", claim="x^y^z == 0", out="proof")
    proofs.verdicts                  # ['proved', 'false']
    proofs[1]["counterexample"]      # {'x': ..., 'y': ..., 'z': ...}

A bad parameter raises ``ValueError`` naming the keyword, work over the memory
limit (``max_memory``, 2 GiB by default, as the CLI's ``--max-memory``)
raises ``MemoryError`` before anything is allocated, and long work releases the
GIL, runs on every core and stops on Ctrl-C with ``KeyboardInterrupt``.
"""

from . import _nimscape
from ._nimscape import OUTSIDE, DEFAULT_MEMORY_LIMIT, __version__
from ._figure import Figure, figure, square, count, automaton, grundy, parameters
from ._survey import SurveyReport, survey
from ._prove import Proofs, prove
from . import octahedron, data

__all__ = [
    "Figure",
    "figure",
    "square",
    "count",
    "automaton",
    "grundy",
    "octahedron",
    "data",
    "parameters",
    "survey",
    "SurveyReport",
    "prove",
    "Proofs",
    "OUTSIDE",
    "DEFAULT_MEMORY_LIMIT",
    "__version__",
]
