"""The Python examples of README.md and docs/python.md run as written.

Every ```python block runs in an empty folder (the blocks of one document in
order, sharing one namespace, as a reader pastes them into one session); every
file a ``.save("NAME")`` call names must exist afterwards and not be empty.
"""

import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
DOCUMENTS = ["README.md", "docs/python.md"]


def python_blocks(text: str) -> list[str]:
    blocks, current = [], None
    for line in text.splitlines():
        if current is None and line.strip() == "```python":
            current = []
        elif current is not None and line.startswith("```"):
            blocks.append("\n".join(current))
            current = None
        elif current is not None:
            current.append(line)
    return blocks


def test_the_reader_finds_blocks():
    text = "x\n```python\na = 1\n```\n```sh\nls\n```\n```python\nb = 2\n```\n"
    assert python_blocks(text) == ["a = 1", "b = 2"]


@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_python_example_runs(document, tmp_path, monkeypatch):
    blocks = python_blocks((ROOT / document).read_text(encoding="utf-8"))
    assert blocks, f"{document} has no Python example"
    monkeypatch.chdir(tmp_path)
    namespace: dict = {}
    for number, block in enumerate(blocks, 1):
        code = compile(block, f"{document} (Python block {number})", "exec")
        exec(code, namespace)  # noqa: S102 - the documentation's own examples
        for name in re.findall(r"""\.save\(["']([^"']+)["']\)""", block):
            saved = tmp_path / name
            assert saved.is_file() and saved.stat().st_size > 0, f"{document}: {name} not written"
