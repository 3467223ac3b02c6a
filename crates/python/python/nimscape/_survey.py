"""Conjecture surveys: ``nimscape survey`` from Python."""

from __future__ import annotations

import errno
import inspect
import json
import keyword
import os
import textwrap
from typing import Any, Dict, List, Union

from . import _nimscape
from ._figure import _pairs

_Path = Union[str, "os.PathLike[str]"]


def _outputs(save: Any) -> List[str]:
    if save is None:
        return []
    paths = [save] if isinstance(save, (str, os.PathLike)) else list(save)
    out = []
    for path in paths:
        path = os.fspath(path)
        folder = os.path.dirname(path)
        if folder and not os.path.isdir(folder):
            raise FileNotFoundError(errno.ENOENT, "the folder to save into does not exist", folder)
        if os.path.isdir(path):
            raise IsADirectoryError(errno.EISDIR, "a folder is in the way; give a file name", path)
        out.append(path)
    return out


class SurveyReport(Dict[str, Any]):
    """A survey's report: the dict the command line's ``-o report.json`` holds,
    with the ``nimscape survey`` command line that runs it as ``.command``."""

    command: str

    def __repr__(self) -> str:
        return f"<nimscape.SurveyReport {self.command!r}: {len(self.get('values', []))} values>"


def survey(game: Any = None, *, save: Any = None, max_memory: Any = None, **params: Any) -> SurveyReport:
    """Tests hypothesis families on each value of a game family's parameter:
    ``nimscape survey``, run by the same request layer.

    >>> report = nimscape.survey("nim", param="heaps=2..3", box=7, find="constant")
    >>> report["values"][0]["nim_sum_constant"]["formulas"][0]["rule"]
    'h1^h2 = 0'

    Returns the report as the command line's ``-o report.json`` writes it,
    parsed (``report["values"][i]["nim_sum_constant"]["formulas"]``, ...), a
    dict whose ``.command`` is the ``nimscape survey`` command line that runs
    the same survey.
    ``save`` writes reports too, each by its extension, atomically: a path or a
    list of paths ending in ``.md`` (a page with a figure per value beside it),
    ``.json`` or ``.csv``; their bytes equal the command line's.
    """
    if game is not None:
        params = {"game": game, **params}
    text, command = _nimscape.survey(_pairs(params), _outputs(save), max_memory)
    report = SurveyReport(json.loads(text))
    report.command = command
    return report


def _keyword(name: str) -> str:
    # As for figures: underscores for dashes, and a trailing underscore for a
    # Python keyword (``pass_`` for ``--pass``), which ``_pairs`` takes off.
    name = name.replace("-", "_")
    return name + "_" if keyword.iskeyword(name) else name


def _signature() -> inspect.Signature:
    kinds = [inspect.Parameter("game", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None)]
    for name, _help in _nimscape.survey_parameter_help():
        if name != "game":
            kinds.append(inspect.Parameter(_keyword(name), inspect.Parameter.KEYWORD_ONLY, default=None))
    kinds.append(inspect.Parameter("save", inspect.Parameter.KEYWORD_ONLY, default=None))
    kinds.append(inspect.Parameter("max_memory", inspect.Parameter.KEYWORD_ONLY, default=None))
    return inspect.Signature(kinds, return_annotation=SurveyReport)


def _document() -> str:
    lines = [survey.__doc__ or "", "Parameters", "----------"]
    for name, help in _nimscape.survey_parameter_help():
        lines.append(_keyword(name))
        lines.extend("    " + part for part in textwrap.wrap(help or "(see nimscape survey --help)", 72))
    lines.append("save")
    lines.append("    Reports to write: a path or a list of paths (.md, .json, .csv).")
    lines.append("max_memory")
    lines.append('    Refuse work over this many bytes (int, or text such as "4G"); default 2 GiB.')
    return "\n".join(lines)


survey.__signature__ = _signature()  # type: ignore[attr-defined]
survey.__doc__ = _document()
