"""Errors a Python user expects, with the command line's messages."""

import pytest

import nimscape


def test_a_bad_value_is_a_value_error_naming_the_keyword():
    with pytest.raises(ValueError, match=r"^p_color: 'nocolour' is not a colour"):
        nimscape.square(m=11, p_color="nocolour")


def test_an_unknown_parameter_suggests_the_nearest():
    with pytest.raises(ValueError, match=r"'decompse' is not a parameter of model 'square'.*did you mean"):
        nimscape.square(m=11, decompse=True)


def test_a_missing_parameter_names_it():
    with pytest.raises(ValueError, match="m"):
        nimscape.square()
    with pytest.raises(ValueError, match="k"):
        nimscape.grundy("triangular", box=10)


def test_an_unknown_game_or_model_is_a_value_error():
    with pytest.raises(ValueError, match="did you mean 'triangular'"):
        nimscape.grundy("triangulr", k=3, box=10)
    with pytest.raises(ValueError, match="unknown model"):
        nimscape.figure("squares", m=3)


def test_an_unsupported_format_is_a_value_error():
    fig = nimscape.square(m=11)
    with pytest.raises(ValueError):
        fig.render("xyz")
    with pytest.raises(ValueError):
        nimscape.automaton(frames=5, modulus="exact").png()


def test_over_the_memory_limit_is_a_memory_error_before_any_work():
    with pytest.raises(MemoryError, match=r"would need about 10\.5 GiB.*limit of 2\.0 GiB.*max_memory"):
        nimscape.data.pset(100_000)
    # The way out is written as Python writes it, a keyword argument to copy.
    with pytest.raises(MemoryError, match=r'\(e\.g\. max_memory="12G"\)'):
        nimscape.data.pset(100_000)
    with pytest.raises(MemoryError):
        nimscape.data.grundy("triangular", k=3, box=300, max_memory="1M")
    with pytest.raises(MemoryError):
        nimscape.square(m=100_000, max_memory=1 << 20).png()
    with pytest.raises(MemoryError, match="in memory"):
        nimscape.square(m=65536, raw=True).render("csv")
    with pytest.raises(ValueError, match="max_memory"):
        nimscape.data.pset(10, max_memory="lots")


def test_writing_where_nothing_can_be_written_is_an_os_error(tmp_path):
    with pytest.raises(FileNotFoundError):
        nimscape.square(m=5).save(tmp_path / "missing" / "folder" / "s.png")
    (tmp_path / "file").write_text("a file, not a folder")
    with pytest.raises(OSError):
        nimscape.square(m=5).save(tmp_path / "file" / "s.png")
    (tmp_path / "taken.png").mkdir()  # a folder where the file should go
    with pytest.raises(IsADirectoryError):
        nimscape.square(m=5).save(tmp_path / "taken.png")


def test_positional_mistakes_are_type_errors():
    with pytest.raises(TypeError):
        nimscape.square(11, 12)
    with pytest.raises(TypeError):
        nimscape.square(11, m=12)
