"""PettingZoo environments pass PettingZoo's own conformance tests (api_test,
parallel_api_test, seed_test, max_cycles_test) on the sampled configurations (all with
AFFRESCO_ENVS_ALL=1), and behave as documented."""
import functools
import types

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, parallel_seed_test, seed_test  # noqa: E402

from affresco import IllegalAction  # noqa: E402
from affresco.envs.pettingzoo import env, parallel_env  # noqa: E402
from envs_support import CONFIGS, cfg_id  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize("cfg", CONFIGS, ids=cfg_id)
def test_api_test(cfg):
    n, mods = cfg
    api_test(env(players=n, modules=mods), num_cycles=400)
    api_test(env(players=n, modules=mods, turns="all", reward="rank"), num_cycles=200)


@pytest.mark.parametrize("cfg", CONFIGS, ids=cfg_id)
def test_parallel_api_test(cfg):
    n, mods = cfg
    parallel_api_test(parallel_env(players=n, modules=mods, reward="win"), num_cycles=400)


@pytest.mark.parametrize("cfg", CONFIGS, ids=cfg_id)
def test_seed_test(cfg):
    n, mods = cfg
    seed_test(functools.partial(env, players=n, modules=mods), num_cycles=200)
    # parallel_seed_test samples without the mask and plays to the end: illegal -> substitute
    parallel_seed_test(functools.partial(parallel_env, players=n, modules=mods, illegal="substitute"))


@pytest.mark.parametrize("cfg", CONFIGS, ids=cfg_id)
def test_max_cycles_test(cfg):
    n, mods = cfg
    # max_cycles_test samples without the mask, and counts a cycle as one step of every agent
    mod = types.SimpleNamespace(
        env=functools.partial(env, players=n, modules=mods, turns="all", illegal="substitute"),
        parallel_env=functools.partial(parallel_env, players=n, modules=mods, illegal="substitute"))
    max_cycles_test(mod)


def _play_aec(e, seed):
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return e


def test_a_whole_game_ends_with_the_final_rewards():
    """rank: 1 for the first figure on the VP track ... -1 for the last (3 players)."""
    e = env(players=3, reward="rank")
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    got = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term:
            got[agent] = reward
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert e.game.is_over and not e.agents
    ranking = e.game.ranking()
    assert got == {f"player_{seat}": 1.0 - ranking.index(seat) for seat in range(3)}


def test_margin_and_win_rewards():
    for kind in ("margin", "win"):
        p = parallel_env(players=2, reward=kind)
        obs, _ = p.reset(seed=8)
        rng = np.random.default_rng(8)
        while p.agents:
            acts = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items()}
            obs, rewards, term, trunc, infos = p.step(acts)
        scores, ranking = p.game.scores(), p.game.ranking()
        for seat in range(2):
            expected = (scores[seat] - max(v for f, v in enumerate(scores) if f != seat) if kind == "margin"
                        else float(ranking[0] == seat))
            assert rewards[f"player_{seat}"] == expected


def test_planning_in_the_aec_env_is_blind_and_in_seat_order():
    e = env(players=4)
    e.reset(seed=3)
    while e.game.phase != "plan":
        obs = e.observe(e.agent_selection)
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    order = []
    before = e.observe("player_3")["observation"].copy()
    for _ in range(3):
        order.append(e.agent_selection)
        obs = e.observe(e.agent_selection)
        e.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    assert order == ["player_0", "player_1", "player_2"]
    # player 3 sees that the others committed, not what they planned
    assert e.game.view(3, log=False)["figures"][0].get("plan") is None
    assert not np.array_equal(before, e.observe("player_3")["observation"])


def test_parallel_planning_is_simultaneous():
    p = parallel_env(players=3)
    obs, infos = p.reset(seed=2)
    while p.game.phase != "plan":
        acts = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in obs.items()}
        obs, *_ = p.step(acts)
    assert all(o["action_mask"][:-1].any() for o in obs.values())  # every seat plans now
    acts = {a: int(np.flatnonzero(o["action_mask"])[-1]) for a, o in obs.items()}
    obs, rew, term, trunc, infos = p.step(acts)
    assert p.game.phase != "plan" and all("view" in i for i in infos.values())


def test_each_parallel_agents_observation_is_its_seats_vector_and_its_own():
    """Every step of a Parallel game gives each agent the vector ``game.observation(seat)`` of
    its seat (as a fresh copy of the game writes it from zero): the agents' vectors are rows
    of one array made at once, and writing into one agent's vector changes no other agent's,
    nor the next step's."""
    p = parallel_env(players=3)
    obs, _ = p.reset(seed=7)
    rng = np.random.default_rng(7)
    while p.agents:
        fresh = p.game.clone()
        for seat, agent in enumerate(p.agents):
            assert obs[agent]["observation"].tobytes() == bytes(fresh.observation(seat))
        others = [obs[a]["observation"].copy() for a in p.agents[1:]]
        obs[p.agents[0]]["observation"][:] = -1.0
        assert all((obs[a]["observation"] == o).all() for a, o in zip(p.agents[1:], others))
        acts = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items()}
        obs, *_ = p.step(acts)


@pytest.mark.parametrize("mods", [(), ("bells", "wall_fresco")])
def test_parallel_observations_an_agent_keeps_stay_as_handed_out(mods):
    """An agent that keeps an observation (the whole dict, the vector alone, or a slice of it,
    as a replay buffer does) finds it unchanged to the end of the game, even after writing into
    vectors it then dropped, and every step's vectors are the seats' own (as a fresh copy of the
    game writes them; with plans by steps, each seat's draft slices too)."""
    p = parallel_env(players=4, modules=mods)
    obs, _ = p.reset(seed=3)
    rng = np.random.default_rng(3)
    kept, steps = [], 0
    while p.agents:
        fresh = p.game.clone()
        for seat, agent in enumerate(p.agents):
            assert obs[agent]["observation"].tobytes() == bytes(fresh.observation(seat)), steps
        first = obs["player_0"]["observation"]
        how = steps % 5
        if how == 0:
            kept.append((obs, {a: o["observation"].copy() for a, o in obs.items()}))
        elif how == 1:
            kept.append((first, first.copy()))
        elif how == 2:
            kept.append((first[10:40], first[10:40].copy()))
        else:          # dropped, after writing into it
            first[:] = -1.0
        acts = {a: int(rng.choice(p.legal_indices(a))) for a in obs}
        del first
        obs, *_ = p.step(acts)
        steps += 1
    for held, copy in kept:
        if type(held) is dict:
            assert all(np.array_equal(held[a]["observation"], copy[a]) for a in held)
        else:
            assert np.array_equal(held, copy)


def test_each_parallel_steps_rewards_terminations_and_truncations_are_its_own_dicts():
    """Every step's rewards, terminations and truncations are new dicts of the agents of that
    step: an agent that keeps them or writes into them (a replay buffer, a wrapper adding its
    own) changes no other step's; the last step's say the end (here a truncation), of every agent."""
    p = parallel_env(players=3, max_cycles=60)
    obs, _ = p.reset(seed=5)
    rng = np.random.default_rng(5)
    kept: list = []
    while p.agents:
        agents = list(p.agents)
        acts = {a: int(rng.choice(p.legal_indices(a))) for a in obs}
        obs, rewards, terminations, truncations, _ = p.step(acts)
        assert set(terminations.values()) == {not p.agents and p.game.is_over}
        assert set(truncations.values()) == {not p.agents and not p.game.is_over}
        for d in (rewards, terminations, truncations):
            assert list(d) == agents and all(d is not other for other, _ in kept)
            d[agents[0]] = len(kept)           # written into by the agent
            kept.append((d, dict(d)))
    assert all(held == copy for held, copy in kept) and p.cycles == 60


def test_an_illegal_action_is_refused_by_default():
    e = env(players=2)
    e.reset(seed=1)
    mask = e.observe(e.agent_selection)["action_mask"]
    with pytest.raises(IllegalAction):
        e.step(int(np.flatnonzero(mask == 0)[0]))


def test_render_is_text():
    e = env(players=2, render_mode="ansi")
    e.reset(seed=1)
    assert "Round 1" in e.render()


def test_the_mask_alone_is_the_observations_mask():
    """``action_mask(agent)`` (for policies that read only the legal actions, with
    ``last(observe=False)``) is the mask of the agent's observation, for every agent."""
    e = env(players=3, turns="all")
    e.reset(seed=2)
    for _ in range(40):
        agent = e.agent_selection
        obs, _, term, trunc, _ = e.last(observe=False)
        assert obs is None
        mask = e.action_mask()
        assert np.array_equal(mask, e.observe(agent)["action_mask"])
        e.step(int(np.flatnonzero(mask)[0]))


def test_an_illegal_action_leaves_the_game_unchanged_or_is_substituted_and_said():
    """The step applies the agent's index at once (the engine refuses an illegal one with the
    game unchanged): refused, nothing moved; with ``illegal="substitute"`` a legal action is
    played instead, said in the agent's info until its next step; Parallel the same."""
    e = env(players=2)
    e.reset(seed=4)
    mask = e.action_mask()
    before = e.game.actions_applied
    for bad in (int(np.flatnonzero(mask == 0)[0]), e.WAIT, -1):
        with pytest.raises(IllegalAction):
            e.step(bad)
        assert e.game.actions_applied == before and e.action_mask() is mask
    s = env(players=2, illegal="substitute")
    s.reset(seed=4)
    agent = s.agent_selection
    s.step(int(np.flatnonzero(s.action_mask() == 0)[0]))
    assert s.game.actions_applied == 1 and s.infos[agent] == {"illegal_action": True}
    while s.agent_selection != agent:
        s.step(int(np.flatnonzero(s.action_mask())[0]))
    s.step(int(np.flatnonzero(s.action_mask())[0]))
    assert s.infos[agent] == {} and not any(s.infos.values())
    p = parallel_env(players=2)
    obs, _ = p.reset(seed=4)
    acting = [a for a, o in obs.items() if not o["action_mask"][p.WAIT]]
    with pytest.raises(IllegalAction):
        p.step({a: p.WAIT for a in obs})
    assert p.game.actions_applied == 0 and acting


def test_an_index_that_is_not_an_integer_is_an_illegal_action_not_the_index_below_it():
    """A legal index given as a float (1.7, or 1.0) is not an index of the Discrete action
    space: refused with the game unchanged (AEC and Parallel), never played as int(1.7) = 1."""
    e = env(players=2)
    e.reset(seed=4)
    legal = int(np.flatnonzero(e.action_mask()[:e.WAIT])[0])
    for bad in (legal + 0.7, float(legal), np.float64(legal), str(legal), np.array([legal])):
        with pytest.raises(IllegalAction):
            e.step(bad)
        assert e.game.actions_applied == 0
    e.step(np.array(legal))          # a 0-d integer array is an integer
    assert e.game.actions_applied == 1
    p = parallel_env(players=2)
    obs, _ = p.reset(seed=4)
    step = {a: (float(np.flatnonzero(o["action_mask"])[0]) + 0.5) for a, o in obs.items()}
    with pytest.raises(IllegalAction):
        p.step(step)
    assert p.game.actions_applied == 0


def test_agent_iter_gives_the_selected_agent_at_most_max_iter_times_and_starts_again():
    """PettingZoo's ``agent_iter(max_iter)``: the selected agent while any agent is in, at most
    ``max_iter`` times, each ``iter()`` of it starting again."""
    e = env(players=2)
    e.reset(seed=3)
    agents = e.agent_iter(3)
    seen = []
    for agent in agents:
        assert agent == e.agent_selection
        seen.append(agent)
        e.step(int(np.flatnonzero(e.action_mask())[0]))
    assert len(seen) == 3
    assert len(list(zip(agents, range(5)))) == 3     # a new iteration: max_iter again (nothing stepped)
    e.reset(seed=3)
    steps = sum(1 for _ in _play_aec(e, 3).agent_iter())
    assert steps == 0 and not e.agents               # the game over: no agent left


def test_an_index_as_a_numpy_integer_plays_as_the_same_python_int():
    """The AEC step takes an action index as a Python int (its usual step) or a numpy integer
    (a policy's output): the same game, the same observations, rewards and the same end."""
    a, b = env(players=3), env(players=3)
    a.reset(seed=5)
    b.reset(seed=5)
    rng = np.random.default_rng(5)
    for agent in a.agent_iter():
        oa, ra, ta, _, _ = a.last()
        ob, rb, tb, _, _ = b.last()
        assert agent == b.agent_selection and ra == rb and ta == tb
        assert np.array_equal(oa["observation"], ob["observation"]) and np.array_equal(oa["action_mask"], ob["action_mask"])
        if ta:
            a.step(None)
            b.step(None)
            continue
        i = rng.choice(np.flatnonzero(oa["action_mask"]))
        a.step(int(i))
        b.step(np.int64(i))
    assert not b.agents and a.game.record() == b.game.record()


@pytest.mark.parametrize("modules", [(), ("bells", "medico")])
def test_legal_indices_are_the_ones_of_each_agents_mask(modules):
    """``legal_indices(agent)``: the agent's legal action indices in increasing order, exactly the
    ones of its observation's mask (WAIT alone for an agent not to decide, none at the end),
    for every agent at every step, AEC and Parallel."""
    e = env(players=3, modules=modules, turns="all")
    e.reset(seed=6)
    rng = np.random.default_rng(6)
    for agent in e.agent_iter():
        for a in e.agents:
            assert list(e.legal_indices(a)) == np.flatnonzero(e.observe(a)["action_mask"]).tolist()
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            assert e.legal_indices() == ()
            e.step(None)
            continue
        legal = e.legal_indices()
        e.step(legal[rng.integers(len(legal))])
    p = parallel_env(players=3, modules=modules)
    obs, _ = p.reset(seed=6)
    while p.agents:
        acts = {}
        for a, o in obs.items():
            legal = p.legal_indices(a)
            assert type(legal) is tuple and list(legal) == np.flatnonzero(o["action_mask"]).tolist() and legal
            acts[a] = legal[rng.integers(len(legal))]
        obs, *_ = p.step(acts)


@pytest.mark.parametrize("encoding", [1, 2, 3])
def test_the_aec_observation_is_the_encoders_vector_of_its_encoding(encoding):
    """Every observation the AEC hands out (its usual step included) is the set-up's encoder's
    vector of that encoding for the agent's seat (portraits: plans of one step, the vector the
    engine's; bells: plans by steps with encoding 2 and 3), made anew: the engine's vector of a
    fresh copy of the game, then the slices of the seat's draft (none outside planning)."""
    for mods in (("portraits",), ("bells",)):
        e = env(players=3, modules=mods, encoding=encoding)
        e.reset(seed=7)
        rng = np.random.default_rng(7)
        for n, agent in enumerate(e.agent_iter(300)):
            obs, _, term, trunc, _ = e.last()
            seat = e.agent_seat[agent]
            assert np.array_equal(obs["observation"], e.encoder.observe(e.game, seat))
            g = e.game
            engine = g.engine if e.encoder.draft is not None else g
            anew = engine.clone().observation(seat, encoding)
            if e.encoder.draft is not None:
                anew += e.encoder.draft.block(g.drafts[seat], g.phase == "plan" and seat in g.to_act)
            assert obs["observation"].tobytes() == bytes(anew), (n, g.phase)
            if term or trunc:
                e.step(None)
                continue
            legal = e.legal_indices()
            e.step(legal[rng.integers(len(legal))])


@pytest.mark.parametrize("modules", [(), ("bells", "medico", "portraits")])
def test_each_step_carries_out_the_action_of_its_index(modules):
    """What a step applies is the action its index stands for: the engine's history is the
    decoded indices, AEC (its usual step and the general one) and Parallel."""
    rng = np.random.default_rng(4)
    for turns in ("acting", "all"):
        e = env(players=3, modules=modules, turns=turns)
        e.reset(seed=4)
        expected = []
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = e.legal_indices()
            i = int(legal[rng.integers(len(legal))])
            before = e.game.actions_applied
            e.step(i)
            if e.game.actions_applied > before and e.codec.decode(i).kind != "plan":
                expected.append((e.agent_seat[agent], str(e.codec.decode(i))))
        assert [h for h in e.game.history() if not h[1].startswith("plan")] == expected
    p = parallel_env(players=3, modules=modules)
    obs, _ = p.reset(seed=4)
    expected = []
    while p.agents:
        acts = {a: p.legal_indices(a)[rng.integers(len(p.legal_indices(a)))] for a in obs}
        deciding = [(p.agent_seat[a], str(p.codec.decode(i))) for a, i in acts.items() if i != p.WAIT]
        obs, *_ = p.step(acts)
        expected += [d for d in deciding if not d[1].startswith("plan")]
    assert [h for h in p.game.history() if not h[1].startswith("plan")] == expected
