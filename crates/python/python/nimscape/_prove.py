"""Proofs: ``nimscape prove`` from Python."""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional

from . import _nimscape
from ._figure import _pairs


class Proofs(List[Dict[str, Any]]):
    """The decided cases of a ``prove`` run, one dict per parameter value (or
    theorem), with the ``nimscape prove`` command line as ``.command``.

    Each dict holds ``label`` (``"k=5"``, a theorem's name, or None for a single
    case), ``verdict`` (``"proved"``, ``"false"`` or ``"undecided"``),
    ``summary`` (the command line's line), ``counterexample`` (a dict of the
    heaps' or variables' values, or None), ``explanation`` (why it is one),
    ``folder`` and ``files`` (the certificate's paths, when ``out`` was given).
    """

    command: str

    @property
    def verdicts(self) -> List[str]:
        """The verdicts, in order."""
        return [case["verdict"] for case in self]

    def __repr__(self) -> str:
        return f"<nimscape.Proofs {self.command!r}: {', '.join(self.verdicts)}>"


def prove(
    game: Any = None,
    *,
    cap: Any = None,
    param: Any = None,
    claim: Any = None,
    grundy: Any = None,
    where: Any = None,
    theorem: Any = None,
    timeout: Any = None,
    out: Any = None,
    max_memory: Any = None,
    **params: Any,
) -> Proofs:
    """Proves a claim about a game for every position, or refutes it with a
    counterexample confirmed by the exact solver: ``nimscape prove``, run by the
    same request layer, with the engine (MONA) found on PATH.

    >>> nimscape.prove("triangular", param="k=3,4", claim="x^y^z == 0").verdicts
    ['proved', 'false']

    ``game`` is triangular, min-half, nim, square (with ``theorem``) or a game
    file; ``cap`` a capped game ``y <= EXPR``; ``param`` the parameter's values,
    each proved on its own; ``claim`` a P-set rule or ``grundy`` a Grundy
    formula, ``where`` a region; ``timeout`` seconds per engine question;
    ``k`` and ``heaps`` as the command line's flags. ``out`` writes the
    certificate (the engine's inputs, report.md, report.json, theorem.tex) into
    that folder, one folder per value or theorem when there are several.
    Without MONA it raises ``ValueError`` saying how to install it.
    """
    named = dict(game=game, cap=cap, param=param, claim=claim, grundy=grundy, where=where, theorem=theorem, timeout=timeout)
    named.update(params)
    given = {key: value for key, value in named.items() if value is not None}
    folder: Optional[str] = None if out is None else os.fspath(out)
    if folder is not None and os.path.exists(folder) and not os.path.isdir(folder):
        raise NotADirectoryError(f"out: {folder} is a file; give a folder for the certificate")
    command, cases = _nimscape.prove(_pairs(given), folder, max_memory)
    proofs = Proofs(
        {
            "label": label,
            "verdict": verdict,
            "summary": summary,
            "counterexample": None if values is None else dict(values),
            "explanation": explanation,
            "folder": None if where_to is None else os.fspath(where_to),
            "files": [os.fspath(f) for f in files],
        }
        for label, verdict, summary, values, explanation, where_to, files in cases
    )
    proofs.command = command
    return proofs
