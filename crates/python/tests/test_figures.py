"""Every figure function draws the command line's bytes for the same parameters."""

import pytest

import nimscape

CASES = [
    (lambda: nimscape.square(m=11, decompose=True), ["png", "svg", "pdf", "csv", "json", "npy"]),
    (lambda: nimscape.figure("square", m=11, decompose=True), ["png"]),
    (lambda: nimscape.square(range(1, 7), columns=3), ["png", "svg", "gif"]),
    (lambda: nimscape.square(12, overlay="nim-pass", p_color="navy"), ["png", "svg"]),
    (lambda: nimscape.square(m=64, n=40, raw=True), ["png", "svg"]),
    (lambda: nimscape.count(m=range(1, 65)), ["svg", "png", "csv", "json", "npy"]),
    (lambda: nimscape.automaton(frames=12, modulus=3), ["png", "svg", "csv", "npy"]),
    (lambda: nimscape.automaton(frames=range(1, 9)), ["png", "gif", "apng"]),
    (lambda: nimscape.automaton(frames=6, modulus="exact"), ["csv", "json"]),
    (lambda: nimscape.grundy("triangular", k=3, box=12, slice="z=5"), ["png", "svg", "csv", "json", "npy", "tex"]),
    (lambda: nimscape.grundy("nim-pass", heaps=2, box=9), ["png", "csv"]),
    (lambda: nimscape.grundy(cap="floor(min(x,z)/k)", param="k=1..4", box=12, plot="sieve", scale="common", columns=2), ["png", "svg", "gif", "apng"]),
    (lambda: nimscape.grundy("triangular", k=range(1, 4), box=10, plot="sieve"), ["png"]),
    (lambda: nimscape.octahedron.section(n=4, level=11), ["png", "svg", "json"]),
    (lambda: nimscape.octahedron.view(2, width=200), ["png", "svg"]),
    (lambda: nimscape.octahedron.sweep(n=3, frames=4, panel=64), ["gif", "apng"]),
]


@pytest.mark.parametrize("make, extensions", CASES, ids=lambda c: getattr(c, "__name__", str(c)))
def test_bytes_equal_the_command_lines(make, extensions, run_cli):
    fig = make()
    assert fig.command.startswith("nimscape ")
    for extension in extensions:
        assert fig.render(extension) == run_cli(fig, extension), f"{fig.command} as .{extension}"


def test_png_svg_pdf_save_and_repr(tmp_path, run_cli):
    fig = nimscape.square(m=11, decompose=True)
    assert fig.command == "nimscape square --m 11 --decompose"
    assert fig.png().startswith(b"\x89PNG")
    assert fig.svg().lstrip().startswith(b"<")
    assert fig.pdf().startswith(b"%PDF")
    assert fig._repr_png_() == fig.png() and fig._repr_svg_() is None  # one inline format
    fig.inline_format = "svg"
    assert fig._repr_svg_() == fig.svg().decode() and fig._repr_png_() is None
    assert nimscape.count(m=range(1, 9)).array().dtype.name == "uint64"
    for extension in ["png", "svg", "pdf", "csv", "json", "npy", "gif"]:
        path = tmp_path / f"f.{extension}"
        fig.save(path)
        assert path.read_bytes() == run_cli(fig, extension)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("f.")) == sorted(
        f"f.{e}" for e in ["png", "svg", "pdf", "csv", "json", "npy", "gif"]
    ), "no temporary files left behind"


def test_a_frame_pattern_writes_numbered_frames(tmp_path):
    (tmp_path / "frames").mkdir()
    nimscape.automaton(frames=range(1, 4)).save(tmp_path / "frames" / "f-%03d.png")
    names = sorted(p.name for p in (tmp_path / "frames").iterdir())
    assert names == ["f-001.png", "f-002.png", "f-003.png", "f-png.tex"]


def test_signatures_and_docstrings_name_every_parameter():
    import inspect

    for function, command in [
        (nimscape.square, "square"),
        (nimscape.count, "count"),
        (nimscape.automaton, "automaton"),
        (nimscape.grundy, "grundy"),
        (nimscape.octahedron.section, "octahedron section"),
        (nimscape.octahedron.view, "octahedron view"),
        (nimscape.octahedron.sweep, "octahedron sweep"),
    ]:
        names = set(inspect.signature(function).parameters)
        assert set(nimscape.parameters(command)) | {"max_memory"} == names, command
        assert function.__doc__ and f"nimscape {command}" in function.__doc__


def test_the_stub_lists_every_parameter():
    import ast
    import pathlib

    def stubbed(file):
        tree = ast.parse(pathlib.Path(nimscape.__file__).with_name(file).read_text())
        return {
            node.name: {a.arg for a in node.args.args + node.args.kwonlyargs}
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef)
        }

    top, octahedron = stubbed("__init__.pyi"), stubbed("octahedron.pyi")
    for name in ["square", "count", "automaton", "grundy"]:
        assert set(nimscape.parameters(name)) | {"max_memory"} == top[name], name
    for name in ["section", "view", "sweep"]:
        assert set(nimscape.parameters(f"octahedron {name}")) | {"max_memory"} == octahedron[name], name
    assert "Rows m: one board (11)" in nimscape.square.__doc__  # the --help line of --m


def test_a_game_file_names_its_solver_as_grundy_time_does(cli, tmp_path):
    """``Figure.solver()`` is ``grundy --time``'s report of which solver ran and
    why no faster one applies: the same request, the same words."""
    import json
    import pathlib
    import subprocess

    games = pathlib.Path(__file__).resolve().parents[3] / "games"
    for name, box, solver in [
        ("min-k.toml", 20, "capped (tiled)"),
        ("band-7-1.toml", 40, "band"),
        ("six-sided.toml", 2, "generic"),
    ]:
        figure = nimscape.grundy(games / name, box=box)
        words = ["--quiet", "--format", "json", "grundy", "--game", str(games / name), "--box", str(box), "--time"]
        report = json.loads(subprocess.run([cli, *words], check=True, capture_output=True, text=True, cwd=tmp_path).stdout)
        assert figure.solver() == {"solver": report["solver"], "solver_why": report["solver_why"]}
        assert figure.solver()["solver"] == solver
    assert "not a capped game: it has 6 heaps" in nimscape.grundy(games / "six-sided.toml", box=2).solver()["solver_why"]
    assert nimscape.square(11).solver() is None
