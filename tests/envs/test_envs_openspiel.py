"""The OpenSpiel game passes OpenSpiel's random-simulation consistency checks, serializes,
resamples information states with the engine's determinization, and OpenSpiel's IS-MCTS bot
plays a whole game against affresco's heuristic bot."""
import json
import random
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
import affresco  # noqa: E402
import affresco.envs.openspiel  # noqa: E402,F401
from envs_support import ALL, CONFIGS, FULL, SAMPLE, cfg_id  # noqa: E402

# OpenSpiel's checks read every player's strings and tensors at every state: the sample is
# 2 players base and 3 players with all modules (FULL with AFFRESCO_ENVS_ALL=1)
OS_CONFIGS = FULL if CONFIGS is FULL else [c for c in SAMPLE if c[0] < 4]



def _load(name, n, mods, seed=1):
    return pyspiel.load_game(name, {"players": n, "modules": ",".join(mods), "rng_seed": seed})


@pytest.mark.parametrize("cfg", OS_CONFIGS, ids=cfg_id)
def test_random_sim_test(cfg):
    n, mods = cfg
    # serialize=False: pyspiel cannot serialize a Python game whose chance is sampled (it asks
    # the game for an RNG state the Python API does not expose); state serialization is
    # checked below instead.
    pyspiel.random_sim_test(_load("python_fresco", n, mods), num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("name", ["python_fresco", "python_fresco_turns"])
def test_legal_actions_asked_from_python_are_pyspiels_own_answers(name):
    """``legal_actions``, ``is_simultaneous_node`` and ``is_chance_node`` answered in Python
    (fewer calls across pyspiel) give what pyspiel's C++ gives at every state of a game, for
    every player and pseudo-player (the same refusal for a pseudo-player), and a list the
    caller may change."""
    def answer(call, *args):
        try:
            return call(*args)
        except Exception as exc:  # pyspiel refuses a pseudo-player with SpielError
            return type(exc).__name__
    n = 2
    s, rng, k = _load(name, n, ()).new_initial_state(), random.Random(1), 0
    while True:
        players = [None, *range(n)] + ([-4, -2, -1] if k % 25 == 0 else [])
        for p in players:
            args = () if p is None else (p,)
            assert answer(s.legal_actions, *args) == answer(pyspiel.State.legal_actions, s, *args), (k, p)
        assert s.is_simultaneous_node() == pyspiel.State.is_simultaneous_node(s)
        assert s.is_chance_node() == pyspiel.State.is_chance_node(s)
        if s.is_terminal():
            break
        if s.is_simultaneous_node():
            s.apply_actions([rng.choice(s.legal_actions(p)) for p in range(n)])
        else:
            legal = s.legal_actions()
            legal.clear()                  # the caller's own list: the state's answer stays
            s.apply_action(rng.choice(s.legal_actions()))
        k += 1
    assert k > 100


@pytest.mark.parametrize("name", ["python_fresco", "python_fresco_turns"])
def test_a_states_kept_answers_are_the_ones_made_anew_and_a_clone_answers_as_its_original(name):
    """What a state keeps of its position (the player to act, the legal actions) is what the
    affresco game gives anew, at every step of a game's first 120 (encoding 3 with modules:
    plans a step at a time); OpenSpiel's clone (a fresh state given a deep copy of the state's
    Python side) answers as the original, and an action applied to the clone leaves the
    original as it was."""
    n, mods = 2, ("bells", "wall_fresco")
    game = _load(name, n, mods, seed=4)
    s, rng, steps = game.new_initial_state(), random.Random(4), 0

    def answers(state):
        players = range(n) if state.is_simultaneous_node() else [state.current_player()]
        return (state.current_player(), state.is_terminal(), [state.legal_actions(p) for p in players],
                state.observation_tensor(steps % n), state.history(),
                state.information_state_string(0) if steps % 10 == 0 else None)

    def anew(state):
        g = state.fresco
        acting = g.to_act
        together = name == "python_fresco" and g.phase == "plan" and len(acting) == n
        return (pyspiel.PlayerId.SIMULTANEOUS if together else min(acting), False,
                [sorted(game.codec.index[a] for a in g.legal_actions(p)) for p in (range(n) if together else [min(acting)])])

    while not s.is_terminal() and steps < 120:
        before = answers(s)
        assert before[:3] == anew(s)
        t = s.clone()
        assert answers(t) == before
        if t.is_simultaneous_node():
            t.apply_actions([rng.choice(t.legal_actions(p)) for p in range(n)])
        else:
            t.apply_action(rng.choice(t.legal_actions()))
        assert answers(s) == before and t.history() != s.history()
        if s.is_simultaneous_node():
            s.apply_actions([rng.choice(s.legal_actions(p)) for p in range(n)])
        else:
            s.apply_action(rng.choice(s.legal_actions()))
        steps += 1
    assert steps == 120


@pytest.mark.parametrize("name, n, mods", [("python_fresco", 2, ALL), ("python_fresco_turns", 3, ())])
def test_the_public_history_notes_each_reveal_and_chance_event_as_the_game_shows_it(name, n, mods):
    """The public history a state keeps (its actions, then the plans when revealed and what
    each chance event showed, noted from what ``Game.apply`` says came out) is, at every step
    of a whole game, what the game itself shows: a reveal entry exactly when the step left the
    planning phase, a chance entry exactly when its chance events grew, and its noted values
    are those of the position right after the step."""
    game = _load(name, n, mods, seed=8)
    s, rng = game.new_initial_state(), random.Random(8)
    g = s.fresco
    assert [who for who, _ in s._c.public] == ["chance"]       # what the set-up showed
    steps = 0
    while not s.is_terminal():
        before, planning, draws = len(s._c.public), g.phase == "plan", g.chance_events
        if s.is_simultaneous_node():
            acts = [rng.choice(s.legal_actions(p)) for p in range(n)]
            s.apply_actions(acts)
            moved = [(p, game.codec.actions[a]) for p, a in enumerate(acts)]
        else:
            p, a = s.current_player(), rng.choice(s.legal_actions())
            s.apply_action(a)
            moved = [(p, game.codec.actions[a])]
        added = s._c.public[before:]
        actions = [e for e in added if type(e[0]) is int]
        assert actions == moved
        shown = [e for e in added if type(e[0]) is not int]
        expected = (["plans"] if planning and g.phase != "plan" else []) + \
            (["chance"] if g.chance_events != draws else [])
        assert [who for who, _ in shown] == expected, steps
        spectator = g.view(None, log=False, lean=True)
        for who, what in shown:
            assert what.get() == ([f.get("plan") for f in spectator["figures"]] if who == "plans"
                                  else {k: spectator.get(k) for k in game.setup.chance_keys})
        steps += 1
    assert steps > 100


@pytest.mark.parametrize("name", ["python_fresco", "python_fresco_turns"])
def test_the_observation_tensor_is_the_seats_vector_made_anew_at_every_step(name):
    """The observation tensor, through pyspiel (``observation_tensor``: after a throw-away new
    state's) and through OpenSpiel's Python observer (``set_from``), is every seat's vector of
    a fresh copy of the game at every step (bells and wall fresco: plans by steps, the draft's
    slices included), and a new state's is its set-up's."""
    from open_spiel.python.observation import make_observation
    n = 2
    game = _load(name, n, ("bells", "wall_fresco"), seed=6)
    observer = make_observation(game)
    s, rng, steps = game.new_initial_state(), random.Random(6), 0
    while not s.is_terminal() and steps < 80:
        fresh = s.fresco.clone()
        for p in range(n):
            anew = np.frombuffer(fresh.observation(p), np.float32)
            assert np.array_equal(np.array(s.observation_tensor(p), np.float32), anew), (steps, p)
            observer.set_from(s, p)
            assert np.array_equal(observer.tensor, anew), (steps, p)
        if s.is_simultaneous_node():
            s.apply_actions([rng.choice(s.legal_actions(p)) for p in range(n)])
        else:
            s.apply_action(rng.choice(s.legal_actions()))
        steps += 1
    new = game.new_initial_state()
    observer.set_from(new, 1)
    assert np.array_equal(observer.tensor, np.frombuffer(new.fresco.clone().observation(1), np.float32))


def test_random_sim_test_sequential_planning():
    pyspiel.random_sim_test(_load("python_fresco_turns", 2, ALL), num_sims=1, serialize=False, verbose=False)


def test_game_string_parameters():
    g = pyspiel.load_game("python_fresco(players=3,modules=portraits+scrolls)")
    assert g.num_players() == 3 and g.config.modules == ("portraits", "scrolls")


@pytest.mark.parametrize("mods", [(), ALL])
def test_the_public_history_noted_when_first_asked_reads_as_noted_as_it_happened(mods):
    """Information-state strings (perfect recall of the plans revealed and of what each chance
    event showed): a game nobody asks them of notes what was shown only when first asked
    (rebuilt by replaying the game up to it); the strings are the same as a game asked from
    its start, for every player, and so are the serialized states'."""
    asked, quiet = _load("python_fresco", 2, mods, seed=5), _load("python_fresco", 2, mods, seed=5)
    a, q = asked.new_initial_state(), quiet.new_initial_state()
    rng = random.Random(5)
    strings, steps = [], 0
    while not a.is_terminal():
        if steps % 6 == 0:
            strings.append([a.information_state_string(p) for p in range(2)])
        steps += 1
        if a.is_simultaneous_node():
            acts = [rng.choice(a.legal_actions(p)) for p in range(2)]
            a.apply_actions(acts)
            q.apply_actions(acts)
        else:
            act = rng.choice(a.legal_actions())
            a.apply_action(act)
            q.apply_action(act)
    assert not quiet.history_asked and any(type(what) is not affresco.Action and who == "chance"
                                           for who, what in q._c.public)
    assert [q.information_state_string(p) for p in range(2)] == [a.information_state_string(p) for p in range(2)]
    copy = quiet.deserialize_state(q.serialize())
    assert [copy.information_state_string(p) for p in range(2)] == [a.information_state_string(p) for p in range(2)]
    assert strings[0] != strings[-1]


@pytest.mark.parametrize("name", ["python_fresco", "python_fresco_turns"])
def test_serialization_round_trips_at_every_step(name):
    game = _load(name, 2, ALL, seed=3)
    state = game.new_initial_state()
    rng = random.Random(0)
    steps = 0
    while not state.is_terminal() and steps < 200:
        copy = game.deserialize_state(state.serialize())
        assert str(copy) == str(state) and copy.history() == state.history()
        assert json.loads(copy.fresco.to_json()) == json.loads(state.fresco.to_json())
        for p in range(2):
            assert copy.information_state_string(p) == state.information_state_string(p)
            assert copy.observation_tensor(p) == state.observation_tensor(p)
        if state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(2)])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        steps += 1


@pytest.mark.parametrize("players, mods", [(3, ()), (2, ("bells",))], ids=["players", "modules"])
def test_a_serialized_state_of_another_set_up_is_refused(players, mods):
    """A state serialized by a 2-player base game is refused by a game of another set-up (it
    loaded, and was then read with the other game's player count and action tables)."""
    game = _load("python_fresco", 2, (), seed=3)
    state = game.new_initial_state()
    while not state.is_simultaneous_node():      # to the secret plans
        state.apply_action(state.legal_actions()[0])
    text = state.serialize()
    assert str(game.deserialize_state(text)) == str(state)
    with pytest.raises(pyspiel.SpielError, match="another set-up"):
        _load("python_fresco", players, mods).deserialize_state(text)


def test_resample_keeps_the_information_state():
    game = _load("python_fresco_turns", 3, ("portraits", "scrolls"), seed=5)
    state = game.new_initial_state()
    rng = random.Random(1)
    checked = 0
    while not state.is_terminal() and checked < 60:
        p = state.current_player()
        sampled = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert sampled.information_state_string(p) == state.information_state_string(p)
        assert sampled.legal_actions() == state.legal_actions()
        checked += 1
        state.apply_action(rng.choice(state.legal_actions()))


def test_resample_at_the_simultaneous_node_keeps_the_seats_own_choices_and_redraws_the_others():
    """Encoding 2 at the simultaneous planning node, the plans half chosen: a resampled state
    keeps the seat's own choices (its observation and legal choices are the same), and gives
    every other seat as many choices, legal ones, drawn anew (as secret as its plan)."""
    game = _load("python_fresco", 3, ("bells", "wall_fresco", "medico"), seed=2)
    state = game.new_initial_state()
    rng = random.Random(2)
    while not (state.is_simultaneous_node() and len(state.fresco.drafts[0]) == 2):
        if state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(3)])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    g = state.fresco
    for seat in range(3):
        sampled = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        h = sampled.fresco
        assert h.drafts[seat] == g.drafts[seat] and [len(d) for d in h.drafts] == [2, 2, 2]
        for other in range(3):
            for k, choice in enumerate(h.drafts[other]):
                assert choice in h.engine.plan_choices(other, h.drafts[other][:k])
        assert sampled.observation_tensor(seat) == state.observation_tensor(seat)
        assert sampled.legal_actions(seat) == state.legal_actions(seat)
    again = game.deserialize_state(state.serialize())
    assert again.fresco.drafts == g.drafts


def test_ismcts_plays_a_whole_game_against_the_heuristic_bot():
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parents[2] / "examples" / "ismcts_vs_heuristic.py"
    spec = importlib.util.spec_from_file_location("ismcts_vs_heuristic", path)
    ismcts_vs_heuristic = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ismcts_vs_heuristic)
    returns = ismcts_vs_heuristic.play(players=2, simulations=3, seed=2)
    assert sorted(returns) == [-1.0, 1.0]
