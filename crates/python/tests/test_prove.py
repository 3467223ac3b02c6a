"""Proofs from Python: ``nimscape.prove`` gives the command line's verdicts,
counterexample and certificate; a refutation re-checked by a brute force
computed here; bad claims refused with one line. Needs MONA: with CI=true a
missing MONA fails these tests, elsewhere they skip with a note."""

import functools
import json
import os
import shutil
import subprocess

import pytest

import nimscape


@pytest.fixture(autouse=True)
def mona():
    if shutil.which("mona") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("mona is missing; CI must install it (apt-get install mona; see .ci/run)")
        pytest.skip("mona not installed; skipping the prover's Python tests")


def triangular_p_positions(k):
    """The triangular game y <= floor((x+z)/k) by brute force:
    lowering x or z lowers y to the new bound when it is above it."""

    cap = lambda x, z: (x + z) // k

    @functools.lru_cache(maxsize=None)
    def is_p(x, y, z):
        options = [(a, min(y, cap(a, z)), z) for a in range(x)]
        options += [(x, b, z) for b in range(y)]
        options += [(x, min(y, cap(x, c)), c) for c in range(z)]
        return not any(is_p(*o) for o in options)

    return is_p


def test_one_claim_proved_and_one_refuted_as_the_command_line_says(cli, tmp_path):
    proofs = nimscape.prove("triangular", param="k=3,4", claim="x^y^z == 0", out=tmp_path / "py")
    assert proofs.verdicts == ["proved", "false"]
    assert proofs.command == "nimscape prove triangular --param k=3,4 --claim 'x^y^z == 0'"
    proved, refuted = proofs
    assert (proved["label"], proved["counterexample"]) == ("k=3", None)
    subprocess.run(
        [cli, "--quiet", "prove", "triangular", "--param", "k=3,4", "--claim", "x^y^z == 0", "-o", "cli"],
        check=True,
        cwd=tmp_path,
    )
    for case, folder in zip(proofs, ["k3", "k4"]):
        assert case["folder"] == str(tmp_path / "py" / folder)
        assert sorted(p.rsplit("/", 1)[1] for p in case["files"]) == sorted(
            p.name for p in (tmp_path / "cli" / folder).iterdir()
        )
        ours = json.loads((tmp_path / "py" / folder / "report.json").read_text())
        theirs = json.loads((tmp_path / "cli" / folder / "report.json").read_text())
        for key in ("verdict", "counterexample", "statement", "command"):
            assert ours[key] == theirs[key], key
    x, y, z = (refuted["counterexample"][h] for h in "xyz")
    assert x ^ y ^ z != 0
    assert triangular_p_positions(4)(x, y, z), "the counterexample is a P-position"
    assert refuted["explanation"] in refuted["summary"]


def test_a_theorem_and_a_grundy_formula():
    assert nimscape.prove("square", theorem="decomposition").verdicts == ["proved"]
    [case] = nimscape.prove("nim", heaps=3, grundy="x^y^z")
    assert (case["verdict"], case["label"], case["files"]) == ("proved", None, [])


def test_bad_claims_are_one_line_errors():
    with pytest.raises(ValueError, match="a product of two heaps is outside linear arithmetic"):
        nimscape.prove("triangular", k=3, claim="x*y == 0")
    with pytest.raises(ValueError, match="claim"):
        nimscape.prove("triangular", k=3)
