"""No secret in any observation: change another seat's secrets (Thalers, paints, scrolls,
the seed), and the seat's observation vectors and strings stay identical, in every wrapper;
change the seat's own and they change."""
import random

import numpy as np
import pytest

import affresco
from affresco.envs import Config, ObservationEncoder
from envs_support import ALL, perturbed

pyspiel = pytest.importorskip("pyspiel")
from affresco.envs.openspiel import _holding  # noqa: E402
from affresco.envs.gymnasium import FrescoEnv  # noqa: E402
from affresco.envs.pettingzoo import env as aec_env, parallel_env  # noqa: E402


def _positions(n, mods, seed, every=7):
    g = affresco.new_game(n, mods, seed=seed)
    rng = random.Random(seed)
    i = 0
    while not g.is_over:
        seat = rng.choice(g.to_act)
        if i % every == 0:
            yield g
        g.apply(seat, rng.choice(g.legal_actions(seat)))
        i += 1


@pytest.mark.slow
@pytest.mark.parametrize("n,mods", [(2, ALL), (4, ALL), (3, ())])
def test_encoder_vectors(n, mods):
    enc = ObservationEncoder(Config.of(n, mods))
    for g in _positions(n, mods, seed=n):
        for seat in range(n):
            other = perturbed(g, seat)
            assert np.array_equal(enc.encode(g.view(seat, log=False), seat),
                                  enc.encode(other.view(seat, log=False), seat))
            assert np.array_equal(enc.observe(g, seat), enc.observe(other, seat))


def test_own_secrets_show():
    enc = ObservationEncoder(Config.of(2))
    g = affresco.new_game(2, seed=1)
    h = perturbed(g, 1)  # changes seat 0's Thalers and paints
    assert not np.array_equal(enc.encode(g.view(0, log=False), 0), enc.encode(h.view(0, log=False), 0))
    assert not np.array_equal(enc.observe(g, 0), enc.observe(h, 0))


def test_pettingzoo_observations():
    for make in (aec_env, parallel_env):
        e = make(players=3, modules=ALL)
        e.reset(seed=1)
        for g in _positions(3, ALL, seed=11, every=13):
            for seat in range(3):
                e.game, e._marker = e.config.stepped(g), e._marker + 1
                a = e._observe_seat(seat)["observation"].copy()
                e.game, e._marker = e.config.stepped(perturbed(g, seat)), e._marker + 1
                b = e._observe_seat(seat)["observation"]
                assert np.array_equal(a, b)


def test_gymnasium_observations():
    env = FrescoEnv(players=2, opponents="random", modules=ALL)
    env.reset(seed=0)
    for g in _positions(2, ALL, seed=12, every=11):
        env.game = env.config.stepped(g)
        a = env._obs()
        env.game = env.config.stepped(perturbed(g, env.seat))
        assert np.array_equal(a, env._obs())


def test_openspiel_strings_and_tensors():
    game = pyspiel.load_game("python_fresco", {"players": 3, "modules": ",".join(ALL), "rng_seed": 4})
    config = Config.of(3, ALL)
    for g in _positions(3, ALL, seed=13, every=17):
        s = _holding(game.new_initial_state(), config.stepped(g))
        for seat in range(3):
            t = _holding(game.new_initial_state(), config.stepped(perturbed(g, seat)))
            assert s.observation_string(seat) == t.observation_string(seat)
            assert s.information_state_string(seat) == t.information_state_string(seat)
            assert s.observation_tensor(seat) == t.observation_tensor(seat)
            assert s.information_state_tensor(seat) == t.information_state_tensor(seat)


@pytest.mark.parametrize("n", [2, 4])
def test_another_seats_plan_in_progress_is_not_in_the_observation(n):
    """Encoding 2: while the seats choose their plans a step at a time (the Parallel env: all
    at once), a seat's vector and OpenSpiel strings do not change when another seat's choices
    so far differ; its own choices show."""
    e = parallel_env(players=n, modules=("bells", "wall_fresco", "medico"))
    obs, _ = e.reset(seed=n)
    while e.game.phase != "plan" or len(e.game.to_act) < n:
        obs, *_ = e.step({a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in obs.items()})
    obs, *_ = e.step({a: int(np.flatnonzero(o["action_mask"])[-1]) for a, o in obs.items()})   # the counts
    g = e.game
    assert all(len(d) == 1 for d in g.drafts)
    game = pyspiel.load_game("python_fresco", {"players": n, "modules": "bells,wall_fresco,medico"})
    for seat in range(n):
        other = g.clone()
        for s in range(n):
            if s != seat:
                other.drafts[s] = (g.engine.plan_choices(s)[0],)
        assert other.drafts != g.drafts
        assert np.array_equal(np.frombuffer(g.observation(seat), np.float32),
                              np.frombuffer(other.observation(seat), np.float32))
        a, b = _holding(game.new_initial_state(), g), _holding(game.new_initial_state(), other)
        assert a.observation_string(seat) == b.observation_string(seat)
        assert a.observation_tensor(seat) == b.observation_tensor(seat)
        mine = g.clone()
        mine.drafts[seat] = (g.engine.plan_choices(seat)[0],)
        if mine.drafts[seat] != g.drafts[seat]:
            assert not np.array_equal(np.frombuffer(g.observation(seat), np.float32),
                                      np.frombuffer(mine.observation(seat), np.float32))
