"""core.jit: compiled draws give exactly the indices core.cards.uniform_index gives."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from toolkit.core.cards import uniform_index
from toolkit.core.jit import held_half, mulhilo64, raw_words, run_with_words, word_index, word_integers


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


@pytest.mark.parametrize("n", [1, 2, 3, 5, 13, 52, 108, 1000, 2**31 + 7, 3 * 2**30, 2**32])
def test_word_integers_matches_numpy_integers(n):
    # 3 * 2**30 and 2**31 + 7 reject often (held halves and fresh words both get used); the
    # uniform_index calls in between take whole words without touching the held half, as NumPy.
    a, b = np.random.default_rng(3), np.random.default_rng(3)
    words = raw_words(b, 8000)
    pos, half = 0, held_half(a)
    assert half == -1
    for i in range(1500):
        expected = int(a.integers(n))
        got, pos, half = word_integers(words, pos, half, n)
        assert got == expected
        if i % 7 == 0:
            expected = uniform_index(a, 10)
            got, pos = word_index(words, pos, 10)
            assert got == expected
    assert half == held_half(a)
    assert a.bit_generator.random_raw() == np.random.default_rng(3).bit_generator.random_raw(pos + 1)[-1]


def test_word_integers_reports_running_out():
    words = raw_words(np.random.default_rng(0), 1)
    _, pos, half = word_integers(words, 0, -1, 10)
    _, pos, half = word_integers(words, pos, half, 10)  # the held half
    assert word_integers(words, pos, half, 10)[0] == -1


def test_held_half_needs_pcg64():
    with pytest.raises(TypeError, match="PCG64"):
        held_half(np.random.Generator(np.random.MT19937(0)))


def test_seed_words_are_the_setup_and_play_streams_of_each_seed():
    from toolkit.core.game import new_rng, setup_rng
    from toolkit.core.jit import seed_words

    # compiled seeding (seeds below 2**64: one and two 32-bit entropy words, the edges) and
    # NumPy's (a seed beyond 64 bits) give the streams of setup_rng and new_rng
    wide = [0, 1, 7, 2**32 - 1, 2**32, 2**40 + 5, 2**63 - 1, 2**64 - 1, 123456789]
    rng = np.random.default_rng(0)
    for seeds in (wide + [int(x) for x in rng.integers(0, 2**63, 40)], [3, 2**70 + 3]):
        setup, play = seed_words(seeds, 5, 9)
        assert setup.shape == (len(seeds), 5) and play.shape == (len(seeds), 9) and setup.dtype == np.uint64
        for i, s in enumerate(seeds):
            assert list(setup[i]) == list(setup_rng(s).bit_generator.random_raw(5)), s
            assert list(play[i]) == list(new_rng(s).bit_generator.random_raw(9)), s
    with pytest.raises(ValueError, match="at least one word"):
        seed_words([1], 0, 3)
    with pytest.raises(ValueError, match=">= 0"):
        seed_words([1, -2], 3, 3)


def test_run_seeded_replays_only_the_games_that_ran_out_with_twice_the_words():
    from toolkit.core.jit import run_seeded, seed_words

    need = {0: 3, 1: 20, 2: 3, 3: 9}  # words of the play stream each game needs
    calls = []
    got = {}

    def play_batch(setup, play, rows):
        calls.append((list(rows), play.shape[1]))
        ok = np.array([need[int(r)] <= play.shape[1] for r in rows])
        for r, good, words in zip(rows, ok, play):
            if good:
                got[int(r)] = list(words[:2])
        return ok

    run_seeded(play_batch, [10, 11, 12, 13], 2, 4, batch=3)
    assert calls == [([0, 1, 2], 4), ([3], 4), ([1, 3], 8), ([1, 3], 16), ([1], 32)]
    _, want = seed_words([10, 11, 12, 13], 1, 2)
    assert got == {i: list(want[i]) for i in range(4)}


def test_seeded_results_collects_each_games_row():
    from toolkit.core.jit import seed_words, seeded_results

    def play_batch(setup, play, rows, scores, actions, winners):
        for r, words in zip(rows, play):
            scores[r] = [int(words[0] % 7), int(words[1] % 7)]
            actions[r] = r + 1
            winners[r, r % 2] = True
        return np.ones(len(rows), dtype=bool)

    out = seeded_results(play_batch, [5, 6, 7], 2, 1, 2)
    _, play = seed_words([5, 6, 7], 1, 2)
    assert out["scores"].tolist() == (play % 7).astype(np.int64).tolist()
    assert out["actions"].tolist() == [1, 2, 3] and out["seeds"].tolist() == [5, 6, 7]
    assert out["winners"].tolist() == [[True, False], [False, True], [True, False]]


def test_playout_seeds_are_seed_plus_i_and_checked():
    from toolkit.core.bulk import playout_seeds

    assert playout_seeds(10, 3) == [10, 11, 12] and playout_seeds(0, 0) == []
    with pytest.raises(TypeError, match="int seed"):
        playout_seeds(None, 3)
    with pytest.raises(ValueError):
        playout_seeds(-1, 3)
    with pytest.raises(TypeError, match="whole number"):
        playout_seeds(1, 2.0)
    with pytest.raises(ValueError, match=">= 0"):
        playout_seeds(1, -1)
