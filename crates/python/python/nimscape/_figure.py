"""Figures: one function per command, a :class:`Figure` for the result."""

from __future__ import annotations

import errno
import inspect
import json
import keyword
import textwrap
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple

from . import _nimscape

#: The one positional parameter each command takes first.
_FIRST = {
    "square": "m",
    "count": "m",
    "automaton": "frames",
    "grundy": "game",
    "octahedron section": "n",
    "octahedron view": "n",
    "octahedron sweep": "n",
}


def _text(value: Any) -> Any:
    """A Python value as the text the command line would take.

    ``True``/``False`` stay switches; ``range(1, 25)`` is ``1..24``; a list or
    tuple is comma-separated (``[3, 5, 11]`` is ``3,5,11``); a dict is
    ``name=value`` pairs (``{"z": 5}`` is ``z=5``); anything else is ``str()``.
    """
    if isinstance(value, bool):
        return value
    if isinstance(value, range):
        if value.step != 1 or len(value) == 0:
            return ",".join(str(v) for v in value)
        return f"{value.start}..{value.stop - 1}"
    if isinstance(value, (list, tuple)):
        return ",".join(str(_text(v)) for v in value)
    if isinstance(value, dict):
        return ",".join(f"{k}={_text(v)}" for k, v in value.items())
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    return str(value)


def _pairs(params: Dict[str, Any]) -> List[Tuple[str, Any]]:
    # A parameter whose name is a Python keyword is written with a trailing
    # underscore (``from_`` for ``--from``).
    return [
        (name[:-1] if name.endswith("_") and keyword.iskeyword(name[:-1]) else name, _text(value))
        for name, value in params.items()
        if value is not None
    ]


def _words(command: str) -> List[str]:
    return command.replace("_", " ").split()


def parameters(command: str) -> List[str]:
    """The parameter names of ``command`` ("square", "octahedron section") as
    Python keywords (underscores for the command line's dashes)."""
    names = [p.replace("-", "_") for p in _nimscape.parameters(_words(command))]
    return [name + "_" if keyword.iskeyword(name) else name for name in names]


class Figure:
    """A validated figure: show it in Jupyter, render it, save it.

    Every format is drawn from one plan (the model is computed once), and its
    bytes equal those ``nimscape <command> ... -o file.<ext>`` writes.
    """

    #: What Jupyter shows inline: "png" (the default; a 1-bit board of any size
    #: stays small) or "svg". Only one is rendered, not both.
    inline_format = "png"

    def __init__(self, plan: "_nimscape.Plan") -> None:
        self._plan = plan
        self._cache: Dict[str, bytes] = {}

    @property
    def command(self) -> str:
        """The ``nimscape`` command line that draws the same bytes."""
        return self._plan.command

    @property
    def arguments(self) -> List[str]:
        """The words after ``nimscape`` for a subprocess (add ``-o FILE`` first)."""
        return list(self._plan.arguments)

    @property
    def formats(self) -> List[str]:
        """The file extensions this figure writes, the usual one first."""
        return list(self._plan.formats())

    def render(self, format: str) -> bytes:
        """The figure as ``format`` ("png", "svg", "pdf", "csv", "json", "npy",
        "gif", "apng", ...), in memory."""
        format = format.lstrip(".").lower()
        if format in self._cache:
            return self._cache[format]
        rendered = self._plan.render(format)
        if format in ("png", "svg"):
            # Kept for Jupyter, which may ask again; data formats can be large.
            self._cache[format] = rendered
        return rendered

    def png(self) -> bytes:
        """The PNG bytes."""
        return self.render("png")

    def svg(self) -> bytes:
        """The SVG bytes (UTF-8 text)."""
        return self.render("svg")

    def pdf(self) -> bytes:
        """The PDF bytes (vector, through the SVG)."""
        return self.render("pdf")

    def save(self, path: "str | os.PathLike[str]") -> None:
        """Writes the figure to ``path`` atomically (a temporary file, then a
        rename), in the format its extension names: .png, .svg, .pdf, .gif,
        .apng, .csv, .json, .npy, or a frame pattern ``frames/f-%03d.png``."""
        path = os.fspath(path)
        folder = os.path.dirname(path)
        if folder and not os.path.isdir(folder):
            raise FileNotFoundError(errno.ENOENT, "the folder to save into does not exist", folder)
        if os.path.isdir(path):
            raise IsADirectoryError(errno.EISDIR, "a folder is in the way; give a file name", path)
        self._plan.save(path)

    def array(self) -> Any:
        """The figure's ``.npy`` data as a NumPy array, without a file or a copy:
        a board as uint8 (1 = P), automaton frames mod p as uint16, Grundy
        values as uint16 with :data:`nimscape.OUTSIDE` outside the game."""
        return self._plan.array()

    def solver(self) -> Optional[Dict[str, str]]:
        """Which solver solves the figure's game and why no faster one applies,
        as ``nimscape grundy --time`` reports it (its JSON keys): ``{"solver":
        "capped (tiled)", "solver_why": "the file is y <= cap(x, z) ..."}``.
        None for a figure of no one game (a board, a sheet)."""
        choice = self._plan.solver()
        if choice is None:
            return None
        return {"solver": choice[0], "solver_why": choice[1]}

    def data(self) -> Any:
        """The figure's JSON data, parsed (integers exact, fractions as text)."""
        return json.loads(self.render("json"))

    def _inline(self) -> Optional[str]:
        formats = self.formats
        if self.inline_format in formats:
            return self.inline_format
        return next((f for f in ("png", "svg") if f in formats), None)

    def _repr_png_(self) -> Optional[bytes]:
        return self.png() if self._inline() == "png" else None

    def _repr_svg_(self) -> Optional[str]:
        return self.svg().decode("utf-8") if self._inline() == "svg" else None

    def __repr__(self) -> str:
        return f"<nimscape.Figure {self.command!r}>"


def figure(command: str, *args: Any, max_memory: Any = None, **params: Any) -> Figure:
    """The figure of ``command`` ("square", "count", "automaton", "grundy",
    "octahedron section", "octahedron view", "octahedron sweep") with the
    command line's parameters as keywords (underscores for dashes), validated
    as the command line validates them.

    >>> nimscape.figure("square", m=11, decompose=True).command
    'nimscape square --m 11 --decompose'
    """
    words = _words(command)
    key = " ".join(words)
    if args:
        first = _FIRST.get(key)
        if first is None or len(args) > 1:
            raise TypeError(f"{key}() takes at most one positional argument ({first})")
        if first in params:
            raise TypeError(f"{key}() got multiple values for argument '{first}'")
        params = {first: args[0], **params}
    return Figure(_nimscape.plan(words, _pairs(params), max_memory))


def _signature(command: str) -> inspect.Signature:
    names = parameters(command)
    first = _FIRST.get(command)
    kinds = []
    if first in names:
        kinds.append(inspect.Parameter(first, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None))
    for name in names:
        if name != first:
            kinds.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None))
    kinds.append(inspect.Parameter("max_memory", inspect.Parameter.KEYWORD_ONLY, default=None))
    return inspect.Signature(kinds, return_annotation=Figure)


def _command_function(command: str, name: str, summary: str) -> Any:
    def draw(*args: Any, max_memory: Any = None, **params: Any) -> Figure:
        return figure(command, *args, max_memory=max_memory, **params)

    draw.__name__ = draw.__qualname__ = name
    draw.__signature__ = _signature(command)  # type: ignore[attr-defined]
    lines = [
        summary,
        "",
        f"The command line's ``nimscape {command}``, drawn by the same request layer:",
        "the same parameters (keywords, underscores for dashes), the same",
        "validation (ValueError naming the keyword) and the same bytes.",
        "Returns a :class:`Figure`.",
        "",
        "Parameters",
        "----------",
    ]
    for name, help in _nimscape.parameter_help(_words(command)):
        keyword_name = name.replace("-", "_")
        if keyword.iskeyword(keyword_name):
            keyword_name += "_"
        lines.append(keyword_name)
        lines.extend("    " + part for part in textwrap.wrap(help or "(see --help)", 72))
    lines.append("max_memory")
    lines.append('    Refuse work over this many bytes (int, or text such as "4G"); default 2 GiB.')
    draw.__doc__ = "\n".join(lines)
    return draw


square = _command_function(
    "square", "square", "P-position patterns of the chocolate bar C(m,n): one board, a sheet, or a raw board."
)
count = _command_function("count", "count", "g(m), the number of P-positions of C(m,m): a table or a chart.")
automaton = _command_function(
    "automaton", "automaton", "Frames of the second-order automaton (2D Rule 60), mod p or exact."
)
grundy = _command_function(
    "grundy", "grundy", "Grundy values of the papers' games: tables, plots and data."
)
