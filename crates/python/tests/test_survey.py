"""Conjecture surveys from Python: the command line's report, parsed; the same
files byte for byte; findings re-checked against a brute force computed here;
the module's errors."""

import functools
import itertools
import json
import subprocess

import pytest

import nimscape

CAP = dict(cap="floor((x+z)**2/k)", param="k=1..6", box=12, find="shift,constant")
CAP_WORDS = ["--cap", "floor((x+z)**2/k)", "--param", "k=1..6", "--box", "12", "--find", "shift,constant"]


def run_survey(cli, folder, words, *outputs):
    flags = [w for out in outputs for w in ("-o", str(out))]
    subprocess.run([cli, "--quiet", "survey", *words, *flags], check=True, cwd=folder)


def test_the_report_is_the_command_lines_json(cli, tmp_path):
    report = nimscape.survey(**CAP)
    run_survey(cli, tmp_path, CAP_WORDS, tmp_path / "cli.json")
    assert report == json.loads((tmp_path / "cli.json").read_text())
    assert [v["value"] for v in report["values"]] == [1, 2, 3, 4, 5, 6]
    assert report.command == "nimscape survey --cap 'floor((x+z)**2/k)' --param k=1..6 --box 12 --find shift,constant"


def test_python_values_read_as_the_command_line_text(cli, tmp_path):
    report = nimscape.survey(
        "nim", param={"heaps": range(2, 4)}, box=7, find=["constant", "period"], constant=range(0, 4), list=3
    )
    run_survey(
        cli,
        tmp_path,
        ["nim", "--param", "heaps=2..3", "--box", "7", "--find", "constant,period", "--constant", "0..3", "--list", "3"],
        tmp_path / "cli.json",
    )
    assert report.command == "nimscape survey nim --param heaps=2..3 --box 7 --find constant,period --constant 0..3 --list 3"
    assert report == json.loads((tmp_path / "cli.json").read_text())


def test_saved_reports_equal_the_command_lines_byte_for_byte(cli, tmp_path):
    ours, theirs = tmp_path / "py", tmp_path / "cli"
    ours.mkdir()
    theirs.mkdir()
    nimscape.survey(**CAP, save=[ours / "r.md", ours / "r.json", str(ours / "r.csv")])
    run_survey(cli, tmp_path, CAP_WORDS, theirs / "r.md", theirs / "r.json", theirs / "r.csv")
    names = sorted(p.name for p in theirs.iterdir())
    assert names == sorted(p.name for p in ours.iterdir())
    assert "r-k1.png" in names and "r.md" in names
    for name in names:
        assert (ours / name).read_bytes() == (theirs / name).read_bytes(), name


def test_a_game_file_is_surveyed_as_on_the_command_line(cli, tmp_path):
    import pathlib

    game = pathlib.Path(__file__).resolve().parents[3] / "games" / "triangular.toml"
    report = nimscape.survey(game, param="k=1..4", box=10, find="shift")
    run_survey(cli, tmp_path, [str(game), "--param", "k=1..4", "--box", "10", "--find", "shift"], tmp_path / "c.json")
    assert report == json.loads((tmp_path / "c.json").read_text())
    # k = 3: P iff x^y^z = 0 (Miyadera, Nakamura, Fukui); found in the box.
    k3 = report["values"][2]
    assert k3["value"] == 3 and k3["shifted_nim_sum"]["holds"]
    assert "x^y^z = 0" in [f["rule"] for f in k3["shifted_nim_sum"]["formulas"]]


@functools.lru_cache(maxsize=None)
def nim_grundy(heaps):
    """Grundy value of a Nim position by memoised recursion over its moves."""
    options = {nim_grundy(heaps[:i] + (t,) + heaps[i + 1 :]) for i, h in enumerate(heaps) for t in range(h)}
    return next(g for g in itertools.count() if g not in options)


def size_order(position):
    return (max(position), list(position))


@pytest.mark.parametrize("heaps", [2, 3])
def test_nim_findings_agree_with_a_brute_force(heaps):
    box = 7
    report = nimscape.survey("nim", param=f"heaps={heaps}", box=box, find="constant,nim-sum")
    (value,) = report["values"]
    positions = list(itertools.product(range(box + 1), repeat=heaps))
    grundy = {p: nim_grundy(p) for p in positions}
    nim_sum = {p: functools.reduce(lambda a, b: a ^ b, p) for p in positions}
    # Bouton: P iff the nim-sum is 0; the finder reports exactly that rule, exact.
    found = value["nim_sum_constant"]
    assert found["holds"] and [f["constant"] for f in found["formulas"]] == [0]
    assert all((grundy[p] == 0) == (nim_sum[p] == 0) for p in positions)
    # Grundy value = nim-sum everywhere (Sprague-Grundy for Nim).
    assert value["grundy_equals_nim_sum"]["holds"]
    assert all(grundy[p] == nim_sum[p] for p in positions)
    # A formula holds, so no best failing constant is sought.
    assert found["best_failing"] is None
    # Where none holds (the first heap shifted by one), the best failing rule's
    # exceptions are real, counted right, and the smallest.
    shift = ",".join(["1..1"] + ["0..0"] * (heaps - 1))
    report = nimscape.survey("nim", param=f"heaps={heaps}", box=box, find="shift", shift=shift)
    best = report["values"][0]["shifted_nim_sum"]["best_failing"]
    assert best["shift"] == [1] + [0] * (heaps - 1)

    def shifted(p):
        return functools.reduce(lambda a, b: a ^ b, (c + s for c, s in zip(p, best["shift"])))

    wrong = sorted((p for p in positions if (grundy[p] == 0) != (shifted(p) == 0)), key=size_order)
    assert best["exceptions"] == len(wrong) > 0
    listed = [tuple(e["position"]) for e in best["smallest_exceptions"]]
    assert listed == wrong[: len(listed)] and len(listed) == min(10, len(wrong))
    assert all(e["is_p"] == (grundy[tuple(e["position"])] == 0) for e in best["smallest_exceptions"])


def test_a_bad_value_is_a_value_error_naming_the_keyword():
    with pytest.raises(ValueError, match=r"^find: unknown finder 'colour'; choose from shift, constant"):
        nimscape.survey(cap="floor((x+z)**2/k)", param="k=1..3", box=8, find="shift,colour")
    with pytest.raises(ValueError, match=r"^invalid value 'many' for list"):
        nimscape.survey("nim", param="heaps=2", box=4, list="many")
    with pytest.raises(ValueError, match=r"'colour' is not a parameter of model 'survey'"):
        nimscape.survey("nim", param="heaps=2", box=4, colour="navy")
    with pytest.raises(ValueError, match=r"^param: 'k' is not NAME=VALUES"):
        nimscape.survey(cap="floor((x+z)**2/k)", param="k", box=8)
    with pytest.raises(ValueError, match=r"^save: .*a survey writes \.md"):
        nimscape.survey("nim", param="heaps=2", box=4, save="report.txt")


def test_over_the_memory_limit_is_a_memory_error_before_any_work():
    with pytest.raises(MemoryError, match=r"would need about .*limit of 1\.0 MiB.*max_memory"):
        nimscape.survey("nim", param="heaps=6", box=60, find="nim-sum", max_memory="1M")


def test_saving_into_a_missing_folder_is_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        nimscape.survey("nim", param="heaps=2", box=4, save=tmp_path / "missing" / "r.md")


def test_the_signature_and_stub_list_every_parameter():
    import ast
    import inspect
    import pathlib

    names = set(inspect.signature(nimscape.survey).parameters)
    assert names == {
        "game", "cap", "pass_", "misere", "param", "box", "find", "shift", "constant", "plot", "slice", "width",
        "aspect", "dpi", "font", "text", "list", "k", "h", "heaps", "rule", "where", "per", "coords", "prove",
        "prove_timeout", "save", "max_memory",
    }
    tree = ast.parse(pathlib.Path(nimscape.__file__).with_name("__init__.pyi").read_text())
    stub = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "survey")
    assert {a.arg for a in stub.args.args + stub.args.kwonlyargs} == names
    assert "Finders to run, comma-separated" in nimscape.survey.__doc__  # the --help line of --find


def test_rules_of_ones_own_are_the_command_lines_and_agree_with_a_brute_force(cli, tmp_path):
    # y <= floor(min(x, z)/3): P iff (x+1)^y^(z+1) = 0 holds for y <= 3, first fails at (12, 4, 15).
    report = nimscape.survey(
        cap="floor(min(x,z)/k)", param="k=3", box=40, find="none",
        rule=["(x+1)^y^(z+1) == 0", "x^y^z == 0"], per="y",
    )
    run_survey(
        cli, tmp_path,
        ["--cap", "floor(min(x,z)/k)", "--param", "k=3", "--box", "40", "--find", "none",
         "--rule", "(x+1)^y^(z+1) == 0; x^y^z == 0", "--per", "y"],
        tmp_path / "cli.json",
    )
    assert report == json.loads((tmp_path / "cli.json").read_text())
    rules = report["values"][0]["claims"]["rules"]
    assert [r["rule"] for r in rules] == ["(x+1)^y^(z+1) == 0", "x^y^z == 0"]

    # Brute force: P iff no move reaches P; a move lowers one heap, y clipped to the cap.
    def cap(x, z):
        return min(x, z) // 3

    @functools.lru_cache(maxsize=None)
    def is_p(x, y, z):
        moves = [(x, t, z) for t in range(y)]
        moves += [(t, min(y, cap(t, z)), z) for t in range(x)]
        moves += [(x, min(y, cap(x, t)), t) for t in range(z)]
        return not any(is_p(*m) for m in moves)

    size = lambda p: (max(p), p)  # noqa: E731
    bad = sorted(
        (p for p in itertools.product(range(16), range(6), range(16))
         if p[1] <= cap(p[0], p[2]) and is_p(*p) != (((p[0] + 1) ^ p[1] ^ (p[2] + 1)) == 0)),
        key=size,
    )
    assert tuple(rules[0]["smallest_exceptions"][0]["position"]) == bad[0] == (12, 4, 15)
    slices = report["values"][0]["claims"]["per"]["slices"]
    assert [s["rules"][0]["holds"] for s in slices[:5]] == [True, True, True, True, False]


def test_pass_underscore_is_the_command_lines_pass():
    # `pass` is a Python keyword, so the survey takes it as pass_ as figures do.
    by_cap = nimscape.survey(cap="floor(min(x,z)/k)", param="k=1..3", box=16, pass_=True)
    assert len(by_cap["values"]) == 3
    assert "--pass" in by_cap.command
