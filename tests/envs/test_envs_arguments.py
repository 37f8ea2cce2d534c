"""The environments' constructors refuse bad arguments at once, naming them (ConfigError for
the set-up, ValueError for the wrapper's own arguments), instead of a TypeError inside, or a
TypeError at the first step for a max_cycles that is no number."""
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")
import affresco  # noqa: E402
from affresco.envs import Config  # noqa: E402
from affresco.envs.gymnasium import FrescoEnv  # noqa: E402
from affresco.envs.pettingzoo import env, parallel_env  # noqa: E402

SETUPS = [(dict(modules=None), "modules"), (dict(modules=5), "modules"), (dict(modules=[["bells"]]), "module"),
          (dict(options=[1]), "options"), (dict(options=["max_rounds", 3]), "options")]


@pytest.mark.parametrize("kw, words", SETUPS)
def test_a_bad_set_up_is_a_config_error(kw, words):
    for make in (lambda: Config.of(players=3, **kw), lambda: env(players=3, **kw), lambda: parallel_env(players=3, **kw),
                 lambda: FrescoEnv(players=3, opponents="random", **kw)):
        with pytest.raises(affresco.ConfigError, match=words):
            make()


@pytest.mark.parametrize("kw, words", [(dict(max_cycles="x"), "max_cycles"), (dict(max_cycles=-1), "max_cycles"),
                                       (dict(max_cycles=True), "max_cycles"), (dict(render_mode="rgb_array"), "render_mode"),
                                       (dict(render_mode=5), "render_mode")])
def test_pettingzoo_refuses_a_bad_max_cycles_or_render_mode(kw, words):
    for make in (env, parallel_env):
        with pytest.raises(ValueError, match=words):
            make(players=2, **kw)


@pytest.mark.parametrize("kw, words", [(dict(opponents=None), "opponents"), (dict(opponents=5), "opponents"),
                                       (dict(seat="0"), "seat"), (dict(seat=1.0), "seat"),
                                       (dict(render_mode="rgb_array"), "render_mode")])
def test_gymnasium_refuses_bad_opponents_seat_or_render_mode(kw, words):
    with pytest.raises(ValueError, match=words):
        FrescoEnv(players=2, **kw)


def test_a_max_cycles_of_one_truncates_after_one_cycle():
    e = env(players=2, max_cycles=1)
    e.reset(seed=1)
    e.step(int(e.last()[0]["action_mask"].nonzero()[0][0]))
    assert all(e.truncations.values()) or not e.agents
