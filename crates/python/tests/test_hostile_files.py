"""Game files someone else wrote: whatever they hold, Python gets an answer or
an exception, never a crashed interpreter (a long chain overflowed the stack)."""

import pytest

import nimscape


def _game(tmp_path, name, positions, title=None):
    path = tmp_path / name
    head = f'name = "{title}"\n' if title is not None else ""
    path.write_text(
        head + 'heaps = ["x", "y"]\n'
        f'positions = ["{positions}"]\n'
        '[[move]]\nlower = ["x", "y"]\n'
    )
    return str(path)


def test_a_long_chain_is_solved_and_a_longer_one_refused(tmp_path):
    chain = "x" + "+1" * 11_999
    game = _game(tmp_path, "chain12k.toml", f"{chain} >= 0")
    csv = nimscape.grundy(game, box=3).render("csv").decode()
    # Every position of the box 0..3 x 0..3 holds the condition: nim's values.
    rows = [line.split(",") for line in csv.splitlines() if line[:1].isdigit()]
    assert len(rows) == 16
    assert all(int(g) == int(x) ^ int(y) for x, y, g in rows)
    game = _game(tmp_path, "chain100k.toml", "x" + "+1" * 99_999 + " >= 0")
    with pytest.raises(ValueError, match="too large once its functions are written out"):
        nimscape.grundy(game, box=3).render("csv")


def test_a_mistake_in_a_long_expression_is_a_short_message(tmp_path):
    game = _game(tmp_path, "stray.toml", "x" + "+1" * 30_000 + ") >= 0")
    with pytest.raises(ValueError, match=r"unexpected '\)'.* at column 60002") as error:
        nimscape.grundy(game, box=3).render("csv")
    assert len(str(error.value)) < 400


def test_a_name_with_a_control_character_is_refused(tmp_path):
    game = _game(tmp_path, "control.toml", "x >= 0", title="a\\u0001b")
    with pytest.raises(ValueError, match="control character"):
        nimscape.grundy(game, box=3).svg()


def test_counts_at_the_type_limits_are_refused_not_a_panic():
    with pytest.raises(ValueError, match="cells, over the"):
        nimscape.grundy("nim", heaps=2, box=4294967295, plot="points").png()
    with pytest.raises(MemoryError, match="fewer frames"):
        nimscape.automaton(frames=9223372036854775807, modulus="exact").render("csv")
