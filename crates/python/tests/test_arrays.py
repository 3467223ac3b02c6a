"""Arrays equal values computed here by brute force, independently of nimscape."""

import functools
import sys
from fractions import Fraction

import numpy as np
import pytest

import nimscape


@functools.lru_cache(maxsize=None)
def nim_is_p(heaps):
    """Four-heap Nim by search: P when no move reaches a P-position."""
    for k, h in enumerate(heaps):
        for smaller in range(h):
            child = heaps[:k] + (smaller,) + heaps[k + 1 :]
            if nim_is_p(tuple(sorted(child))):
                return False
    return True


@pytest.mark.parametrize("m, n", [(1, 1), (5, 5), (7, 4), (8, 8), (11, 11), (9, 13)])
def test_pset_is_four_heap_nim(m, n):
    p = nimscape.data.pset(m, n)
    assert p.dtype == np.bool_ and p.shape == (m, n)
    for i in range(1, m + 1):
        for j in range(1, n + 1):
            assert p[i - 1, j - 1] == nim_is_p(tuple(sorted((i - 1, j - 1, m - i, n - j)))), (i, j)


def test_pset_large_is_the_xor_criterion_without_a_copy():
    m, n = 1000, 777
    p = nimscape.data.pset(m, n)
    i = np.arange(1, m + 1)[:, None]
    j = np.arange(1, n + 1)[None, :]
    assert np.array_equal(p, ((i - 1) ^ (m - i)) == ((j - 1) ^ (n - j)))
    assert p.flags["C_CONTIGUOUS"] and not p.flags["OWNDATA"]  # Rust's memory, NumPy's array


def automaton_frames(last):
    """The recurrence in Python ints: a(n+2) = a(n+1) + left + up + diagonal of
    a(n+1) + diagonal of a(n), from a(1) = 1 at (1,1)."""
    side = last + 2
    older = [[0] * side for _ in range(side)]
    newer = [[0] * side for _ in range(side)]
    newer[1][1] = 1
    frames = {1: newer}
    for n in range(2, last + 1):
        frame = [[0] * side for _ in range(side)]
        for i in range(1, side):
            for j in range(1, side):
                frame[i][j] = (
                    newer[i][j] + newer[i - 1][j] + newer[i][j - 1] + newer[i - 1][j - 1] + older[i - 1][j - 1]
                )
        older, newer = newer, frame
        frames[n] = frame
    return frames


def test_automaton_frames_mod_p_and_exact_follow_the_recurrence():
    last = 24
    exact = automaton_frames(last)
    for modulus in [2, 3, 7]:
        frames = nimscape.data.automaton(range(1, last + 1), modulus=modulus)
        assert frames.dtype == np.uint16 and frames.shape == (last, last, last)
        for n in range(1, last + 1):
            want = np.array([[exact[n][i][j] % modulus for j in range(1, last + 1)] for i in range(1, last + 1)])
            assert np.array_equal(frames[n - 1], want), (modulus, n)
    big = nimscape.data.automaton_exact(last)
    assert big.dtype == object
    assert all(
        big[i - 1, j - 1] == exact[last][i][j] and type(big[i - 1, j - 1]) is int
        for i in range(1, last + 1)
        for j in range(1, last + 1)
    )
    assert max(big.flat) > 2**40


def grundy_memo(k, n):
    """The memoised recursion of the triangular bar y <= floor((x+z)/k)."""
    sys.setrecursionlimit(100_000)
    memo = {}

    def gr(x, y, z):
        if (x, y, z) in memo:
            return memo[(x, y, z)]
        options = set()
        for t in range(x):
            options.add(gr(t, min((t + z) // k, y), z))
        for t in range(y):
            options.add(gr(x, t, z))
        for t in range(z):
            options.add(gr(x, min((x + t) // k, y), t))
        value = next(v for v in range(len(options) + 1) if v not in options)
        memo[(x, y, z)] = value
        return value

    return gr


def test_grundy_values_equal_the_memoised_recursion():
    k, n = 3, 14
    g = nimscape.data.grundy("triangular", k=k, box=n)
    assert g.dtype == np.uint16 and g.shape[0] == n + 1 and g.shape[2] == n + 1
    gr = grundy_memo(k, n)
    for x in range(n + 1):
        for y in range(g.shape[1]):
            for z in range(n + 1):
                if y <= (x + z) // k:
                    assert g[x, y, z] == gr(x, y, z), (x, y, z)
                else:
                    assert g[x, y, z] == nimscape.OUTSIDE


def test_arrays_from_npy_data_hold_rust_memory_without_a_copy():
    g = nimscape.grundy("triangular", k=3, box=20).array()
    assert not g.flags["OWNDATA"] and g.base is not None and g.flags["C_CONTIGUOUS"]
    # data.grundy solves, then fills the array in place: the same values.
    filled = nimscape.data.grundy("triangular", k=3, box=20)
    assert not filled.flags["OWNDATA"] and np.array_equal(filled, g)
    sliced = nimscape.data.grundy("triangular", k=3, box=20, slice={"z": 5})
    assert np.array_equal(sliced, g[:, :, 5])


def test_grundy_of_nim_is_the_nim_sum():
    g = nimscape.data.grundy("nim", heaps=3, box=7)
    x, y, z = np.indices(g.shape)
    assert np.array_equal(g, x ^ y ^ z)


def test_counts_are_python_ints_and_sum_the_pset():
    counts = nimscape.data.count(range(1, 41))
    assert list(counts) == list(range(1, 41))
    for m, g in counts.items():
        assert type(g) is int and g == int(nimscape.data.pset(m).sum())
    big = nimscape.data.count(2**40)
    assert type(big[2**40]) is int and big[2**40] == 2**80  # every cell of a power of two is P


def test_sections_are_exact_fractions():
    s = nimscape.data.section(4, level=11)
    assert isinstance(s.area, Fraction) and all(isinstance(v, Fraction) for d in s.diamonds for v in d)
    assert s.area == sum(2 * h * h for _, _, h in s.diamonds)


def test_tiles_count_the_p_cells_of_each_block():
    m, n, level = 100, 70, 3
    counts, areas = nimscape.data.tiles(m, n, level=level)
    p = nimscape.data.pset(m, n)
    b = 1 << level
    for q in range(counts.shape[0]):
        for r in range(counts.shape[1]):
            block = p[q * b : (q + 1) * b, r * b : (r + 1) * b]
            assert (counts[q, r], areas[q, r]) == (block.sum(), block.size)
    huge_counts, huge_areas = nimscape.data.tiles(2**62, level=58)
    assert huge_areas.dtype == object and huge_areas[0, 0] == 2**116
