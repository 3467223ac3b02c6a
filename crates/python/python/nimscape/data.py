"""Exact data as NumPy arrays, Python ints and fractions.

Arrays are Rust memory handed to NumPy without a copy; every call is checked
against ``max_memory`` (the CLI's ``--max-memory``, 2 GiB by default) before
anything is allocated, releases the GIL while it works and stops on Ctrl-C.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from . import _nimscape
from ._figure import _pairs, figure
from ._nimscape import OUTSIDE


def pset(m: int, n: Optional[int] = None, *, max_memory: Any = None) -> np.ndarray:
    """The P-set of the chocolate bar R(m, n) (n = m by default) as an
    ``m x n`` boolean array: ``True`` at ``[i-1, j-1]`` when cell (i, j) is a
    P-position. R(16384, 16384) takes well under a second."""
    return _nimscape.p_set(m, n, max_memory)


def grundy(game: Optional[str] = None, *, max_memory: Any = None, **params: Any) -> np.ndarray:
    """Grundy values of ``game`` on a box as an unsigned ``uint16`` array, one
    axis per coordinate (C order), :data:`nimscape.OUTSIDE` (65535) where a
    tuple of the box is not a position of the game (above the cap, outside a
    band). Parameters are ``nimscape grundy``'s (``k``, ``h``, ``heaps``,
    ``cap``, ``box``, ``slice``). A capped game's ``y`` axis stops at its
    tallest column. The whole box is solved, then written straight into the
    array on every core (``nimscape.grundy(...).array()`` gives the same values
    through the figure's ``.npy`` stream)."""
    if game is not None:
        params = {"game": game, **params}
    return _nimscape.grundy_values(_pairs(params), max_memory)


def automaton(frames: Any, *, modulus: int = 3, max_memory: Any = None) -> np.ndarray:
    """Frames of the second-order automaton mod ``modulus`` (2..65535) as a
    ``uint16`` array of shape ``(frames, N, N)``, N the last frame; frame n
    fills its top-left n x n corner. ``frames`` is one frame (32), a range
    (``range(1, 33)``) or a list."""
    return figure("automaton", frames=frames, modulus=modulus, max_memory=max_memory).array()


def automaton_exact(n: int, *, max_memory: Any = None) -> np.ndarray:
    """Frame ``n`` of the automaton with exact values: an ``n x n`` object
    array of Python ints (the values outgrow 64 bits by frame 40)."""
    cells = figure("automaton", frames=n, modulus="exact", max_memory=max_memory).data()["cells"]
    out = np.zeros((n, n), dtype=object)
    for i, j, value in cells:
        out[i - 1, j - 1] = int(value)
    return out


def count(m: Any) -> Dict[int, int]:
    """g(m), the number of P-positions of C(m, m), for one m or a range
    (``range(1, 65)``), as ``{m: g(m)}`` with exact Python ints."""
    rows = figure("count", m=m).data()
    return {int(row["m"]): int(row["g"]) for row in rows}


class Section:
    """An octahedron section with exact coordinates (:class:`fractions.Fraction`).

    ``diamonds`` are ``(cx, cy, h)``: the diamond ``|x - cx| + |y - cy| <= h``
    in the plane of the section, in the coordinates where S_0 is the
    octahedron ``|x| + |y| + |z| <= 1``; ``area`` is the section's exact area,
    ``r`` the level and ``z`` the height of the plane.
    """

    def __init__(self, data: Dict[str, Any]) -> None:
        self.n: int = int(data["n"])
        self.level: str = str(data["level"])
        self.r: Fraction = Fraction(data["r"])
        self.z: Fraction = Fraction(data["z"])
        self.caption: str = data.get("caption", "")
        self.area: Fraction = Fraction(data["area"])
        self.diamonds: List[Tuple[Fraction, Fraction, Fraction]] = [
            (Fraction(d["cx"]), Fraction(d["cy"]), Fraction(d["h"])) for d in data["diamonds"]
        ]

    def __len__(self) -> int:
        return len(self.diamonds)

    def __repr__(self) -> str:
        return f"<nimscape.data.Section {self.caption}: {len(self)} diamonds, area {self.area}>"


def section(n: int, *, max_memory: Any = None, **params: Any) -> Section:
    """The section of S_n at one level (``level``, or ``r``) with exact
    fractions; parameters are ``nimscape octahedron section``'s."""
    return Section(figure("octahedron section", n, max_memory=max_memory, **params).data())


def tiles(
    m: int,
    n: Optional[int] = None,
    *,
    level: int = 0,
    rows: Optional[Tuple[int, int]] = None,
    cols: Optional[Tuple[int, int]] = None,
    max_memory: Any = None,
) -> Tuple[np.ndarray, np.ndarray]:
    """The explorer's exact P-share tiles of C(m, n): blocks of ``2**level``
    rows by ``2**level`` columns, block rows ``rows = (start, stop)`` and block
    columns ``cols`` (default: all). Returns ``(counts, areas)``: P-cells and
    cells per block, ``uint64`` arrays, or object arrays of Python ints when a
    value passes 64 bits. The share of a block is ``counts / areas``, exactly
    (``Fraction(int(c), int(a))``)."""
    counts, areas = _nimscape.tiles(m, m if n is None else n, level, rows, cols, max_memory)
    if isinstance(counts, list) or isinstance(areas, list):
        height = _blocks(m, level, rows)
        counts = np.array(list(counts) if isinstance(counts, list) else counts.tolist(), dtype=object)
        areas = np.array(list(areas) if isinstance(areas, list) else areas.tolist(), dtype=object)
        counts = counts.reshape(height, -1)
        areas = areas.reshape(height, -1)
    return counts, areas


def _blocks(side: int, level: int, span: Optional[Tuple[int, int]]) -> int:
    if span is not None:
        return span[1] - span[0]
    return -(-side // (1 << level))


__all__ = ["pset", "grundy", "automaton", "automaton_exact", "count", "section", "Section", "tiles", "OUTSIDE"]
