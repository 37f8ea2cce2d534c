"""The Gymnasium environment passes gymnasium's check_env and plays against bots."""
import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

from affresco import IllegalAction  # noqa: E402
from affresco.envs.gymnasium import ENV_ID, FrescoEnv  # noqa: E402
from envs_support import CONFIGS, cfg_id  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize("cfg", CONFIGS, ids=cfg_id)
def test_check_env(cfg):
    n, mods = cfg
    # check_env samples actions without the mask: illegal ones are substituted
    check_env(FrescoEnv(players=n, opponents="random", modules=mods, illegal="substitute"), skip_render_check=False)


def test_registered_and_plays_to_the_end_with_masks():
    env = gymnasium.make(ENV_ID, players=2, opponents="heuristic", reward="win")
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(0)
    steps = 0
    while True:
        mask = env.unwrapped.action_masks()
        assert mask.any() and np.array_equal(mask, info["action_mask"].astype(bool))
        obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
        if term:
            break
    assert info["scores"] and reward in (0.0, 1.0)
    assert reward == (1.0 if info["ranking"][0] == 0 else 0.0)
    assert obs.shape == env.observation_space.shape


def test_opponent_specs_and_seat():
    env = FrescoEnv(players=3, opponents=["random", "search:simulations=4"], seat=None)
    obs, info = env.reset(seed=9)
    assert env.seat in range(3) and env.seat in info["view"]["to_act"]  # the bots played up to the learner
    assert info["action_mask"].any()
    with pytest.raises(ValueError):
        FrescoEnv(players=3, opponents=["random"])


@pytest.mark.filterwarnings("ignore:.*is out of date:DeprecationWarning")     # v1, v2: kept for models trained on them
def test_versioned_ids():
    env = gymnasium.make("affresco/Fresco-4p-v1", opponents="random")
    assert env.unwrapped.config.players == 4 and env.unwrapped.config.env_id == "Fresco-4p-v1"
    env = gymnasium.make("affresco/Fresco-4p-v2", opponents="random")
    assert env.unwrapped.config.env_id == "Fresco-4p-v2"
    env = gymnasium.make("affresco/Fresco-2p-v3", opponents="random")
    assert env.unwrapped.config.env_id == "Fresco-2p-v3"
    assert gymnasium.make("affresco/Fresco-v0").unwrapped.config.encoding == 3


def test_the_learner_chooses_its_plan_a_step_at_a_time_against_bots_that_plan_at_once():
    """Encoding 2 with all eight modules: the learner's mask while planning is its next
    step's few choices; the bots plan whole plans on the engine between its steps."""
    env = FrescoEnv(players=3, opponents="random", modules=("bells", "wall_fresco", "medico"))
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    seen_steps = set()
    while not env.game.is_over and env.game.round <= 2:
        mask = env.action_masks()
        legal = env.game.legal_actions(env.seat)
        assert mask.sum() == len(set(legal))
        if env.game.phase == "plan" and env.seat in env.game.to_act:
            seen_steps.add(legal[0].step)
            assert mask.sum() <= 1024
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert seen_steps == {"counts", "audience", "wall", "ill", "medico"}


def test_an_illegal_action_is_refused_with_the_game_unchanged_or_substituted_and_said():
    env = FrescoEnv(players=2, opponents="random")
    env.reset(seed=6)
    mask = env.action_masks()
    before = env.game.actions_applied
    good = int(np.flatnonzero(mask)[0])
    for bad in (int(np.flatnonzero(~mask)[0]), env.codec.size, -1, good + 0.5, float(good), np.array([good])):
        with pytest.raises(IllegalAction):   # a float is no index of the Discrete space (not int(0.5) = 0)
            env.step(bad)
        assert env.game.actions_applied == before
    sub = FrescoEnv(players=2, opponents="random", illegal="substitute")
    sub.reset(seed=6)
    _, _, _, _, info = sub.step(int(np.flatnonzero(~sub.action_masks())[0]))
    assert info["illegal_action"] is True and sub.game.actions_applied > before


def test_action_masks_are_the_callers_own_writable_booleans():
    """MaskablePPO hands ``action_masks()`` to PyTorch, which warns about read-only arrays: each
    call gives a new writable array, and changing it changes nothing in the env."""
    env = FrescoEnv(players=2, opponents="random")
    _, info = env.reset(seed=2)
    mask = env.action_masks()
    assert mask.dtype == np.bool_ and mask.flags.writeable and mask.any()
    mask[:] = False
    again = env.action_masks()
    assert again is not mask and again.any() and np.array_equal(again, info["action_mask"].astype(bool))


@pytest.mark.parametrize("modules", [(), ("bells", "medico")])
def test_legal_indices_are_the_ones_of_the_mask(modules):
    """``legal_indices()``: the learner's legal action indices, in increasing order, exactly the
    ones of ``action_masks()`` at every step (encoding 2's plan choices too), none at the end."""
    env = FrescoEnv(players=3, opponents="random", modules=modules)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    over = False
    while not over:
        legal = env.legal_indices()
        assert type(legal) is tuple and list(legal) == np.flatnonzero(env.action_masks()).tolist() and legal
        _, _, over, _, _ = env.step(legal[rng.integers(len(legal))])
    assert env.legal_indices() == ()


def test_a_step_before_any_reset_is_told_to_reset_first_not_that_the_game_is_over():
    env = FrescoEnv(players=2, opponents="random")
    with pytest.raises(RuntimeError, match=r"^call reset\(\) first$"):
        env.step(0)
    env.reset(seed=1)
    while True:
        obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
        if terminated:
            break
    with pytest.raises(RuntimeError, match=r"^the game is over: call reset\(\)$"):
        env.step(0)
