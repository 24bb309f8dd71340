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


# -- run_playout_kernel: two streams, the first decision, the Generators left as the protocol leaves them

from toolkit.core.jit import (PLAY_HALF, PLAY_POS, SETUP_HALF, SETUP_POS, begin_play,  # noqa: E402
                              compiled_streams, njit, run_playout_kernel)


@njit(cache=True)
def _toy_kernel(sw, pw, streams, deal, moves, out):
    # ``deal`` chance draws from the setup stream, then ``moves`` pairs of (bot choice, chance draw)
    k = 0
    pos = streams[SETUP_POS]
    for _ in range(deal):
        idx, pos = word_index(sw, pos, 52)
        if idx < 0:
            return -1
        out[k] = idx
        k += 1
    streams[SETUP_POS] = pos
    begin_play(streams)
    pos, half = streams[PLAY_POS], streams[PLAY_HALF]
    for m in range(moves):
        idx, pos, half = word_integers(pw, pos, half, 3 + m % 5)
        if idx < 0:
            return -1
        out[k] = idx
        idx, pos = word_index(pw, pos, 40)
        if idx < 0:
            return -1
        out[k + 1] = idx
        k += 2
    streams[PLAY_POS], streams[PLAY_HALF] = pos, half
    return k


def _toy_protocol(setup, play, deal, moves):
    out = [uniform_index(setup, 52) for _ in range(deal)]
    for m in range(moves):
        out.append(int(play.integers(3 + m % 5)))
        out.append(uniform_index(play, 40))
    return out


def _where(gen):
    # a Generator's place in its stream: the PCG64 state and the held half (NumPy keeps a stale
    # ``uinteger`` when it holds none, which no draw reads)
    st = gen.bit_generator.state
    return st["state"], (st["uinteger"] if st["has_uint32"] else None)


def _toy_run(setup, play, deal, moves, budget, keep=True):
    def kernel(sw, pw, streams):
        out = np.zeros(deal + 2 * moves, dtype=np.int64)
        k = _toy_kernel(sw, pw, streams, deal, moves, out)
        return None if k < 0 else out.tolist()
    return run_playout_kernel(setup, play, kernel, budget, keep)


@pytest.mark.parametrize("budget", [1, 3, 64, 4096])
@pytest.mark.parametrize("shared", [False, True])
def test_run_playout_kernel_draws_as_the_protocol_and_gives_back_the_unused_words(budget, shared):
    for seed in range(4):
        def gens():
            play = np.random.default_rng(seed)
            play.integers(7)  # a Generator already holding a 32-bit half
            return (play if shared else np.random.default_rng(seed + 100)), play
        s1, p1 = gens()
        s2, p2 = gens()
        assert _toy_run(s1, p1, 10 + seed, 25, budget) == _toy_protocol(s2, p2, 10 + seed, 25)
        # the caller's Generators go on exactly as after the protocol (held half included)
        assert _where(p1) == _where(p2) and _where(s1) == _where(s2)
        assert [int(p1.integers(1000)) for _ in range(5)] == [int(p2.integers(1000)) for _ in range(5)]


def test_run_playout_kernel_refuses_other_bit_generators():
    mt = np.random.Generator(np.random.MT19937(0))
    assert not compiled_streams(mt) and compiled_streams(np.random.default_rng(0))
    with pytest.raises(TypeError, match="PCG64"):
        _toy_run(mt, mt, 1, 1, 8)
    with pytest.raises(ValueError, match="budget"):
        _toy_run(np.random.default_rng(0), np.random.default_rng(1), 1, 1, 0)


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


def test_warm_compiles_or_loads_each_games_code():
    from toolkit.warm import main, warm

    lines = []
    took = warm(["tenbucks"], echo=lines.append)
    assert list(took) == ["tenbucks"] and took["tenbucks"] >= 0
    assert lines == [f"tenbucks: compiled code ready ({took['tenbucks']:.1f} s of CPU)"]
    with pytest.raises(ValueError, match="no compiled code"):
        warm(["chess"])
    assert main(["chess"]) == 2


def test_warm_in_parallel_runs_each_game_in_a_process_of_its_own(capsys):
    # Binder's postBuild runs `python -m toolkit.warm --jobs 0`; the numba cache the suite's
    # warm-up made is loaded here, so each process takes a couple of seconds.
    from toolkit.warm import main, warm_in_parallel

    lines = []
    took = warm_in_parallel(["tenbucks", "bugami"], jobs=2, echo=lines.append)
    assert sorted(took) == ["bugami", "tenbucks"] and all(t > 0 for t in took.values())
    assert sorted(line.split(":")[0] for line in lines) == ["bugami", "tenbucks"]
    assert all("compiled code ready" in line for line in lines)
    with pytest.raises(ValueError, match="no compiled code"):
        warm_in_parallel(["chess"], jobs=2)
    with pytest.raises(ValueError, match="jobs"):
        warm_in_parallel(["tenbucks"], jobs=-1)
    assert main(["--jobs", "-1", "tenbucks"]) == 2
    assert "jobs must be" in capsys.readouterr().err
