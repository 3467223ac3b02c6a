"""The Sierpinski octahedron S_n: ``section``, ``view`` and ``sweep`` figures,
as ``nimscape octahedron section|view|sweep`` draws them."""

from ._figure import _command_function

section = _command_function(
    "octahedron section",
    "section",
    "The section H(n,m) or H_r of S_n: alone, in a row of levels, beside R(m,m), or as data.",
)
view = _command_function(
    "octahedron view", "view", "A shaded 3D picture of S_n, optionally with the section plane."
)
sweep = _command_function(
    "octahedron sweep", "sweep", "The section as the level sweeps: a GIF, an APNG or frames."
)

__all__ = ["section", "view", "sweep"]
