"""Type stubs of nimscape.octahedron."""

from typing import Any, Dict, Sequence, Union

from . import Figure

_Value = Union[int, float, str, bool, range, Sequence[Any], Dict[str, Any], None]
_Memory = Union[int, str, None]

def section(n: _Value = None, *, level: _Value = None, levels: _Value = None, r: _Value = None, align: _Value = None, raw: _Value = None, compare: _Value = None, panel: _Value = None, width: _Value = None, dpi: _Value = None, font: _Value = None, text: _Value = None, scale: _Value = None, fill_color: _Value = None, background: _Value = None, frame_color: _Value = None, no_caption: _Value = None, caption: _Value = None, caption_size: _Value = None, margin: _Value = None, gap: _Value = None, max_memory: _Memory = None) -> Figure: ...
def view(n: _Value = None, *, azimuth: _Value = None, elevation: _Value = None, light: _Value = None, ambient: _Value = None, solid_color: _Value = None, plane: _Value = None, plane_color: _Value = None, plane_opacity: _Value = None, cut_color: _Value = None, above_opacity: _Value = None, operation: _Value = None, explode: _Value = None, removed_color: _Value = None, width: _Value = None, dpi: _Value = None, font: _Value = None, text: _Value = None, background: _Value = None, edge_width: _Value = None, caption: _Value = None, no_caption: _Value = None, caption_size: _Value = None, max_memory: _Memory = None) -> Figure: ...
def sweep(n: _Value = None, *, from_: _Value = None, to: _Value = None, frames: _Value = None, panel: _Value = None, scale: _Value = None, align: _Value = None, with_view: _Value = None, view_n: _Value = None, azimuth: _Value = None, elevation: _Value = None, solid_color: _Value = None, fill_color: _Value = None, background: _Value = None, frame_color: _Value = None, no_caption: _Value = None, caption: _Value = None, caption_size: _Value = None, margin: _Value = None, gap: _Value = None, loop: _Value = None, fps: _Value = None, delay: _Value = None, hold_last: _Value = None, width: _Value = None, dpi: _Value = None, font: _Value = None, text: _Value = None, poster: _Value = None, max_memory: _Memory = None) -> Figure: ...
