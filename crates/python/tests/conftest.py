"""Shared fixtures: the command-line binary built from the same tree.

``NIMSCAPE_BIN`` names it; otherwise ``target/release/nimscape`` of this
repository. A missing binary fails the tests (never skips them): CI builds it
before pytest runs.
"""

import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def cli() -> str:
    binary = os.environ.get("NIMSCAPE_BIN") or str(ROOT / "target" / "release" / "nimscape")
    if not os.path.isfile(binary):
        pytest.fail(f"no nimscape binary at {binary}: run `cargo build --release` or set NIMSCAPE_BIN")
    return binary


@pytest.fixture
def run_cli(cli, tmp_path):
    """Writes ``figure`` with the command line as ``extension``; returns the bytes."""

    def run(figure, extension: str) -> bytes:
        out = tmp_path / f"cli.{extension}"
        words = list(figure.arguments)
        at = words.index("--") if "--" in words else len(words)
        words[at:at] = ["-o", str(out)]
        subprocess.run([cli, "--quiet", *words], check=True, cwd=tmp_path)
        return out.read_bytes()

    return run
