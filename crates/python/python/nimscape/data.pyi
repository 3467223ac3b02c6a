"""Type stubs of nimscape.data."""

from fractions import Fraction
from typing import Any, Dict, List, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt

_Memory = Union[int, str, None]

OUTSIDE: int

def pset(m: int, n: Optional[int] = None, *, max_memory: _Memory = None) -> npt.NDArray[np.bool_]: ...
def grundy(game: Optional[str] = None, *, max_memory: _Memory = None, **params: Any) -> npt.NDArray[np.uint16]: ...
def automaton(frames: Any, *, modulus: int = 3, max_memory: _Memory = None) -> npt.NDArray[np.uint16]: ...
def automaton_exact(n: int, *, max_memory: _Memory = None) -> npt.NDArray[np.object_]: ...
def count(m: Any) -> Dict[int, int]: ...

class Section:
    n: int
    level: str
    r: Fraction
    z: Fraction
    caption: str
    area: Fraction
    diamonds: List[Tuple[Fraction, Fraction, Fraction]]
    def __init__(self, data: Dict[str, Any]) -> None: ...
    def __len__(self) -> int: ...

def section(n: int, *, max_memory: _Memory = None, **params: Any) -> Section: ...
def tiles(
    m: int,
    n: Optional[int] = None,
    *,
    level: int = 0,
    rows: Optional[Tuple[int, int]] = None,
    cols: Optional[Tuple[int, int]] = None,
    max_memory: _Memory = None,
) -> Tuple[npt.NDArray[Any], npt.NDArray[Any]]: ...
