"""core.jit: compiled draws give exactly the indices core.cards.uniform_index gives."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from toolkit.core.cards import uniform_index
from toolkit.core.jit import mulhilo64, raw_words, run_with_words, word_index


@given(st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1))
@settings(max_examples=300, deadline=None)
def test_mulhilo64_is_the_128_bit_product(a, b):
    hi, lo = mulhilo64(np.uint64(a), np.uint64(b))
    assert int(hi) * 2**64 + int(lo) == a * b


@pytest.mark.parametrize("n", [1, 2, 3, 7, 52, 100, 2**33 + 1, 2**62 + 5, 2**63 - 1])
def test_word_index_matches_uniform_index(n):
    # Large n makes rejections common, so the multi-word path is exercised as well.
    a, b = np.random.default_rng(11), np.random.default_rng(11)
    words = raw_words(b, 5000)
    pos = 0
    for _ in range(1000):
        expected = uniform_index(a, n)
        got, pos = word_index(words, pos, n)
        assert got == expected
    # both streams used the same number of words
    assert a.bit_generator.random_raw() == np.random.default_rng(11).bit_generator.random_raw(pos + 1)[-1]


def test_word_index_reports_running_out():
    words = raw_words(np.random.default_rng(0), 2)
    _, pos = word_index(words, 0, 10)
    _, pos = word_index(words, pos, 10)
    assert word_index(words, pos, 10) == (-1, 2)


def test_run_with_words_doubles_until_the_kernel_finishes():
    budgets = []

    def kernel(words):
        budgets.append(len(words))
        return None if len(words) < 40 else int(words[0])

    result = run_with_words(lambda: np.random.default_rng(5), kernel, 10)
    assert budgets == [10, 20, 40]
    assert result == int(np.random.default_rng(5).bit_generator.random_raw())


def test_bad_sizes_are_refused():
    with pytest.raises(ValueError, match="at least one word"):
        raw_words(np.random.default_rng(0), 0)
    with pytest.raises(ValueError, match="budget"):
        run_with_words(lambda: np.random.default_rng(0), lambda w: 1, 0)
