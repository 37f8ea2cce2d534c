"""The shared encodings of affresco.envs: index <-> Action both ways, the legal mask, the
observation layout (contiguous, documented sizes), seat-relative figures, versioned ids."""
import pickle
import random
from array import array

import numpy as np
import pytest

import affresco
from affresco.envs import ActionCodec, Config, ObservationEncoder
from affresco.envs.core import PlanChoice, SteppedGame, allowed, plan_choice_space
from affresco.rules import PLAN_SCALE
from envs_support import ALL, random_positions


@pytest.mark.slow
@pytest.mark.parametrize("n,mods", [(2, ()), (3, ALL), (4, ("portraits", "scrolls"))])
def test_index_and_action_both_ways_and_the_mask(n, mods):
    """Encoding 1: every legal action, plans included, has its index."""
    codec = ActionCodec(Config.of(n, mods, encoding=1))
    g = affresco.new_game(n, mods, seed=3)
    rng = random.Random(3)
    while not g.is_over:
        seat = rng.choice(g.to_act)
        legal = g.legal_actions(seat)
        idx = [codec.encode(a) for a in legal]
        assert [codec.decode(i) for i in idx] == legal
        some = rng.sample(range(len(legal)), min(len(legal), 40))   # notation text too (a sample: plans run to 20,000)
        assert [codec.encode(str(legal[i])) for i in some] == [idx[i] for i in some]
        mask = codec.mask(legal)
        assert set(np.flatnonzero(mask)) == set(idx) and mask.sum() == len(set(legal))
        g.apply(seat, rng.choice(legal))
    with pytest.raises(affresco.IllegalAction):
        codec.decode(codec.size)
    with pytest.raises(affresco.IllegalAction):
        ActionCodec(Config.of(2, encoding=1)).encode("portrait muse")   # a module action outside the base space


@pytest.mark.slow
def test_layout_is_contiguous_and_sized_as_documented():
    sizes = {(2, (), 1): 480, (4, (), 1): 510, (2, ALL, 1): 480 + 64 * len(ALL),   # 64 per module (docs/envs.md)
             (2, (), 2): 480, (2, ALL, 2): 480 + 64 * len(ALL) + 5 + 6 + 7 + 7 + 6 + 2,   # the plan in progress
             (2, (), 3): 480, (2, ALL, 3): 985 + 33, (4, ALL, 3): 1177 + 33}   # the modules' slots (docs/envs.md)
    for (n, mods, encoding), size in sizes.items():
        enc = ObservationEncoder(Config.of(n, mods, encoding=encoding))
        assert enc.size == size
        pos = 0
        for name, start, length in enc.layout:
            assert start == pos
            pos += length
        assert pos == enc.size
        g = affresco.new_game(n, mods, seed=1)
        x = enc.encode(g.view(0, log=False), 0)
        assert x.shape == (size,) and x.dtype == np.float32 and np.isfinite(x).all()


@pytest.mark.parametrize("n,mods", [(2, ()), (3, ()), (4, ()), (2, ALL), (3, ALL), (4, ALL)])
def test_the_engines_observation_is_the_vector_made_from_the_view(n, mods):
    """The wrappers' vector (``Game.observation``, written from the position) is exactly the
    one ``encode`` makes from the seat's view dict, full or lean, at every seat."""
    enc = ObservationEncoder(Config.of(n, mods))
    g = affresco.new_game(n, mods, seed=7 + n)
    rng = random.Random(n)
    i = 0
    while not g.is_over:
        if i % (3 if not mods else 11) == 0:
            for seat in range(n):
                from_view = enc.encode(g.view(seat, log=False, lean=i % 2 == 0), seat)
                assert np.array_equal(enc.observe(g, seat), from_view), (i, g.phase, seat)
        seat = rng.choice(g.to_act)
        g.apply(seat, rng.choice(g.legal_actions(seat)))
        i += 1


@pytest.mark.parametrize("n,mods", [(2, ()), (3, ()), (4, ()), (2, ALL), (3, ALL), (4, ALL)])
def test_the_vector_kept_from_decision_to_decision_is_the_one_made_afresh(n, mods):
    """The game keeps what its last observation was written from: what every seat sees alike
    is written again only where the position's facts changed, each seat's module parts only
    when the module's state or what its view reads changed.  Through a random game, whichever
    seats looked in between, the vector is exactly the one made from the seat's view (at every
    decision; every other one with all eight modules) and the one a fresh copy of the game
    writes from zero."""
    enc = ObservationEncoder(Config.of(n, mods))
    g = affresco.new_game(n, mods, seed=30 + n)
    rng = random.Random(30 + n)
    i = 0
    while not g.is_over:
        seats = range(n) if i % 7 == 0 else g.to_act if i % 3 else [rng.randrange(n)]
        for seat in seats:
            x = enc.observe(g, seat)         # every decision: the kept vectors move on
            if not mods or i % 2 == 0:
                assert np.array_equal(x, enc.encode(g.view(seat, log=False, lean=True), seat)), (i, g.phase, seat)
            if i % 5 == 0:
                assert np.array_equal(x, enc.observe(g.clone(), seat)), (i, g.phase, seat)
        seat = rng.choice(g.to_act)
        g.apply(seat, rng.choice(g.legal_actions(seat)))
        i += 1


def test_encoding_2_of_plans_of_one_step_is_encoding_1():
    """Without a module plan word a plan is its counts, one step: encoding 2 is encoding 1
    (the same actions, vector and game), only the id says v2."""
    for mods in ((), ("portraits", "scrolls")):
        one, two = Config.of(3, mods, encoding=1), Config.of(3, mods, encoding=2)
        assert ActionCodec(two).actions == ActionCodec(one).actions
        assert ObservationEncoder(two).layout == ObservationEncoder(one).layout
        assert type(two.new_env_game(seed=1)) is affresco.Game and two.env_id.endswith("-v2")


@pytest.mark.parametrize("n,mods", [(2, ("bells",)), (3, ALL), (4, ("bells", "wall_fresco", "medico"))])
def test_encoding_2_chooses_each_plan_a_step_at_a_time(n, mods):
    """Encoding 2: no plan is in the action space, each step's choices are (the v2 space is
    small: ~14,300 with all eight, not ~204,000); a planning seat's legal actions are the
    choices of its next step, its plan reaches the engine at the last one, the index space
    holds every legal action and choice, and the seat's own vector shows its plan in progress
    (another seat's does not change)."""
    codec, enc = ActionCodec(Config.of(n, mods)), ObservationEncoder(Config.of(n, mods))
    assert not any(a.kind == "plan" and isinstance(a, affresco.Action) for a in codec.actions)
    assert codec.size < 15_000
    g = Config.of(n, mods).new_env_game(seed=5)
    steps = g.engine.plan_steps()
    rng = random.Random(5)
    planned = 0
    while not g.is_over and g.round <= 3:
        seat = rng.choice(g.to_act)
        legal = g.legal_actions(seat)
        idx = [codec.encode(a) for a in legal]
        assert [codec.decode(i) for i in idx] == list(legal)
        assert set(np.flatnonzero(codec.mask(legal))) == set(idx)
        if isinstance(legal[0], PlanChoice):
            draft = g.drafts[seat]
            assert {c.step for c in legal} == {steps[len(draft)]}
            assert [c.choice for c in legal] == list(g.engine.plan_choices(seat, draft))
            others = [enc.observe(g, s).copy() for s in range(n) if s != seat]
            before = g.engine.actions_applied
            choice = rng.choice(legal)
            g.apply(seat, choice)
            if len(draft) + 1 < len(steps):
                assert g.drafts[seat] == draft + (choice.choice,) and g.engine.actions_applied == before
                x = enc.observe(g, seat)
                slices = {name: (s, k) for name, s, k in enc.layout}
                assert x[slices["plan_step"][0] + len(draft) + 1] == 1
                if choice.step == "counts":       # made, then the apprentices per column / 3
                    at, k = slices["plan:counts"]
                    sheet = g.engine.plan_choice_counts(choice.choice)
                    assert list(x[at:at + k]) == pytest.approx([1.0, *(c / 3 for c in sheet)])
                assert all(np.array_equal(o, enc.observe(g, s)) for o, s in zip(others, [s for s in range(n) if s != seat]))
            else:
                assert g.drafts[seat] == () and g.engine.actions_applied == before + 1
                planned += 1
        else:
            g.apply(seat, rng.choice(legal))
    assert planned >= n


@pytest.mark.parametrize("n", [2, 4])
def test_a_stepped_games_kept_choices_and_vectors_are_the_ones_made_afresh(n):
    """What a game of plans by steps keeps per position (the choices offered to each seat's
    draft, the engine's vectors) is what a fresh game at the same position makes, for every seat
    at every step of random games with all eight modules, also after the drafts are replaced by
    equal new tuples; its joined vectors (every seat's, or some seats' in any order) are the
    fresh game's vectors of those seats back to back."""
    config = Config.of(n, ALL)
    g = config.new_env_game(7)
    rng = random.Random(n)
    while not g.is_over:
        if rng.random() < 0.2:
            g.drafts[:] = [tuple(list(d)) for d in g.drafts]       # equal drafts, new objects
        fresh = SteppedGame(g.engine.clone(), g.layout, g.drafts, g.encoding)
        for seat in range(n):
            assert list(g.legal_actions(seat)) == list(fresh.legal_actions(seat))
            assert g.observation(seat) == fresh.observation(seat)
        assert g.observations_joined() == sum(map(fresh.observation, range(n)), array("f"))
        assert g.observations_joined(iter([n - 1, 0])) == fresh.observation(n - 1) + fresh.observation(0)
        seat = min(g.to_act)
        g.apply(seat, rng.choice(g.legal_actions(seat)))


@pytest.mark.parametrize("n,mods", [(2, ALL), (3, ("bells", "wall_fresco"))])
def test_a_drafts_slices_made_from_the_draft_before_are_the_ones_written_whole(n, mods):
    """The draft's slices of a plan in progress (docs/envs.md), which a layout makes from the
    draft before its last choice, are the numbers written whole from the slices' definition:
    ``plan_step`` one-hot at the step chosen now while planning, then per step chosen its
    choice: counts as a made flag and the apprentices / PLAN_SCALE, any other one-hot among the
    step's choices (random drafts, each asked of a new layout in a random order)."""
    config = Config.of(n, mods)
    space = plan_choice_space(config.new_game(seed=0))
    rng = random.Random(n)
    layout = ObservationEncoder(config).draft        # (a new one: nothing made yet)
    steps = layout.steps
    for _ in range(300):
        if rng.random() < 0.05:
            layout = ObservationEncoder(config).draft
        k = rng.randrange(len(steps) + 1)
        draft = tuple(rng.choice([c.choice for c in space if c.step == steps[i]]) for i in range(k))
        planning = rng.random() < 0.6
        want = np.zeros(layout.size, np.float32)
        if planning and k < len(steps):
            want[k] = 1.0
        for (_, start, _), step, choice in zip(layout.slices[1:], steps, draft):
            options = [c.choice for c in space if c.step == step]
            if all(affresco.Game.plan_choice_counts(c) is not None for c in options if c):
                if choice:
                    counts = affresco.Game.plan_choice_counts(choice)
                    want[start:start + 1 + len(counts)] = [1.0, *(c / PLAN_SCALE for c in counts)]
            else:
                want[start + options.index(choice)] = 1.0
        assert np.array_equal(np.frombuffer(layout.block(draft, planning), np.float32), want)


def test_a_stepped_game_answers_every_other_engine_name_as_its_engine():
    """A game of plans by steps gives every public name of ``affresco.Game`` that it does not
    define itself as its engine's (``view``, ``record``, ``scores`` ...), through names of its
    class: it has no ``__getattr__``, with which every attribute read of its instances, its own
    included, would go CPython's slow generic way at every step."""
    g = Config.of(2, ("bells",)).new_env_game(seed=3)
    assert "__getattr__" not in vars(SteppedGame)
    e = g.engine
    for name in dir(affresco.Game):
        if not name.startswith("_"):
            assert getattr(g, name) == getattr(e, name) or callable(getattr(e, name)), name
    assert g.view(0, log=False) == e.view(0, log=False) and g.record() == e.record()
    assert (g.scores(), g.ranking(), g.seed, g.round, g.plan_steps()) == (e.scores(), e.ranking(), e.seed, e.round,
                                                                        e.plan_steps())


def test_encoding_2_refuses_a_choice_out_of_turn_and_a_whole_plan_midway():
    g = Config.of(2, ("bells",)).new_env_game(seed=1)
    while g.phase != "plan":
        seat = g.to_act[0]
        g.apply(seat, g.legal_actions(seat)[0])
    seat = g.to_act[0]
    first = g.legal_actions(seat)[1]
    with pytest.raises(affresco.IllegalAction, match="not a choice"):
        g.apply(seat, PlanChoice("audience", ()))      # the counts come first
    g.apply(seat, first)
    with pytest.raises(affresco.IllegalAction, match="a step at a time"):
        g.apply(seat, "plan 0-0-0-0-0")
    assert g.drafts[seat] == (first.choice,)
    assert g.observation(seat, 3) == g.observation(seat)          # its own encoding; another is refused
    with pytest.raises(affresco.ConfigError, match="encoding 3"):
        g.observation(seat, 2)
    for copied in (pickle.loads(pickle.dumps(g)), g.clone()):     # envs are pickled (vector envs, Ray)
        assert copied.drafts == g.drafts and copied.legal_actions(seat) == g.legal_actions(seat)
        assert copied.encoding == g.encoding == 3
        assert np.array_equal(np.frombuffer(copied.observation(seat), np.float32),
                              np.frombuffer(g.observation(seat), np.float32))


def test_figures_are_relative_to_the_observer():
    enc = ObservationEncoder(Config.of(3))
    g = affresco.new_game(3, seed=2)
    start, per = enc.offsets["figures"], enc.per_figure
    for seat in range(3):
        x = enc.encode(g.view(seat, log=False), seat)
        me = x[start:start + per]
        # the observer's own block comes first: its start space is the observer's
        track = g.view(seat, log=False)["figures"][seat]["track"]
        assert me[2] == pytest.approx(int(track[1:]) / 5)
        assert x[enc.offsets["seat"] + seat] == 1


def test_versioned_ids():
    assert Config.of(4).env_id == "Fresco-4p-v3" and Config.of(4, encoding=1).env_id == "Fresco-4p-v1"
    assert Config.of(4, encoding=2).env_id == "Fresco-4p-v2"
    assert Config.of(2, "scrolls+portraits").env_id == "Fresco-2p+portraits+scrolls-v3"
    assert Config.of(2, ("special_colours",), {"special_colours_on_fresco": True}).env_id == \
        "Fresco-2p+special_colours+special_colours_on_fresco-v3"
    with pytest.raises(affresco.ConfigError):
        Config.of(5)
    with pytest.raises(affresco.ConfigError, match="encoding"):
        Config.of(2, encoding=4)
    with pytest.raises(affresco.ConfigError):
        Config.of(2, ("no_such_module",))


def test_a_mask_is_shared_read_only_and_follows_the_legal_actions():
    """A legal list gives one shared read-only mask per set of actions, found again by the
    same actions (long planning lists and short lists alike; equal actions made anew give an
    equal mask), and never another set's, not even one with the same length, first and last
    action."""
    codec = ActionCodec(Config.of(2, encoding=1))
    plans = [a for a in codec.actions if a.kind == "plan"]
    for few, other in ((plans[:300], plans[1:301]), (plans[:3], plans[1:4]),
                       (plans[:3], [plans[0], plans[5], plans[2]])):
        m = codec.mask(list(few))
        assert not m.flags.writeable and set(np.flatnonzero(m)) == {codec.encode(a) for a in few}
        assert codec.mask(list(few)) is m
        assert np.array_equal(codec.mask([affresco.parse(str(a)) for a in few]), m)
        o = codec.mask(list(other))
        assert o is not m and set(np.flatnonzero(o)) == {codec.encode(a) for a in other}
    assert codec.mask([], extra=1).sum() == 0 and len(codec.mask([], extra=1)) == codec.size + 1


def test_a_short_mask_of_the_medicos_large_action_space_is_made_anew_read_only():
    """With the medico's ~200,000 actions a short legal list's mask is not kept (each would be
    ~200 KB): a new read-only array each time, with exactly those actions; ``shares`` says
    which masks are kept."""
    codec = ActionCodec(Config.of(2, ("medico",), encoding=1))
    few = [a for a in codec.actions if a.kind == "getup"][:3]
    m, again = codec.mask(few, extra=1), codec.mask(few, extra=1)
    assert m is not again and not m.flags.writeable and np.array_equal(m, again)
    assert set(np.flatnonzero(m)) == {codec.encode(a) for a in few} and len(m) == codec.size + 1
    assert not codec.shares(few) and ActionCodec(Config.of(2, encoding=1)).shares(few)
    plans = [a for a in codec.actions if a.kind == "plan"][:100]
    assert codec.shares(plans) and codec.mask(plans) is codec.mask(plans)


def test_a_medico_mask_nobody_keeps_is_written_again_and_one_kept_never_changes():
    """A short mask of the medico's large action space that nothing refers to any more is
    written again in place for the next list (no ~200 KB zeroed per decision), while one an
    agent keeps, or keeps a view or a slice of, keeps its actions; every mask handed out has
    exactly its list's actions."""
    codec = ActionCodec(Config.of(2, ("medico",), encoding=1))
    actions = [a for a in codec.actions if a.kind in ("getup", "close", "altar")]
    lists = [actions[i:i + 1 + i % 5] for i in range(0, 60, 6)]

    def legal_of(m):
        return set(np.flatnonzero(m).tolist())

    kept = [(codec.mask(lists[0], extra=1), lists[0])]
    view = codec.mask(lists[1], extra=1)[3:]
    for few in lists[2:]:
        m = codec.mask(few, extra=1)
        assert legal_of(m) == {codec.encode(a) for a in few} and not m.flags.writeable
        assert len(m) == codec.size + 1 and m[-1] == 0
        if len(kept) < 3:
            kept.append((m, few))
        del m
    for m, few in kept:
        assert legal_of(m) == {codec.encode(a) for a in few}
    assert legal_of(view) == {codec.encode(a) - 3 for a in lists[1]}
    first = id(codec.mask(lists[2], extra=1))          # dropped at once: the next reuses it
    assert id(codec.mask(lists[3], extra=1)) == first
    copied = pickle.loads(pickle.dumps(codec))         # envs are pickled (vector envs, Ray)
    assert np.array_equal(copied.mask(lists[4], extra=1), codec.mask(lists[4], extra=1))


@pytest.mark.parametrize("n,mods,encoding", [(2, (), 3), (3, ALL, 3), (4, ALL, 3), (2, ("medico",), 1)])
def test_a_legal_entry_is_the_mask_and_its_ones(n, mods, encoding):
    """``legal_entry`` (what the wrappers read at each step): the mask of :meth:`mask` and its
    ones in increasing order, over random games with modules (plans a step at a time) and for
    the medico's large space (masks not kept, written again); without the mask when not asked."""
    config = Config.of(n, mods, encoding=encoding)
    codec = ActionCodec(config)
    rng = random.Random(n)
    for seed in range(2):
        g = config.new_env_game(seed)
        while not g.is_over:
            seat = min(g.to_act)
            legal = g.legal_actions(seat)
            for extra in (0, 1):
                assert codec.legal_entry(legal, extra, masked=False)[1] == tuple(sorted(codec.encode(a) for a in legal))
                mask, indices = codec.legal_entry(legal, extra)
                assert np.array_equal(mask, codec.mask(legal, extra)) and not mask.flags.writeable
                assert len(mask) == codec.size + extra
                assert indices == tuple(sorted(codec.encode(a) for a in legal)) == tuple(np.flatnonzero(mask).tolist())
                probe = set(indices[:8]) | {rng.randrange(codec.size + extra) for _ in range(8)}
                assert all(allowed(mask, i) == (i in indices) for i in probe)     # (the wrappers' check)
            g.apply(seat, rng.choice(legal))


def test_the_mask_of_plans_made_anew_is_found_again_by_their_recipe():
    """The engine's lazy plan lists (medico's PlanVariants) may be made anew for a situation
    (its memo is bounded): the mask is found again by the sequence's recipe, without listing
    the plans again, and it is the mask of exactly those plans."""
    import pickle
    codec = ActionCodec(Config.of(2, ALL, encoding=1))
    g = affresco.new_game(2, ALL, seed=3)
    rng = random.Random(3)
    while g.phase != "plan":
        seat = rng.choice(g.to_act)
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    legal = g.legal_actions(g.to_act[0])
    assert not isinstance(legal, list)
    m = codec.mask(legal, extra=1)
    anew = pickle.loads(pickle.dumps(legal))           # the same plans, a new object
    assert anew is not legal and not anew.made
    assert codec.mask(anew, extra=1) is m and not anew.made
    assert set(np.flatnonzero(m)) == {codec.encode(a) for a in legal} and m[-1] == 0


def test_the_view_in_infos_is_the_position_it_came_with():
    """``infos[agent]["view"]`` (made when first read) is the seat's lean view of the step it
    came with, even when read after later steps."""
    from affresco.envs.gymnasium import FrescoEnv
    from affresco.envs.pettingzoo import parallel_env
    p = parallel_env(players=3)
    obs, infos = p.reset(seed=4)
    expected = p.game.view(1, log=False, lean=True)
    for _ in range(5):
        acts = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in obs.items()}
        obs, *_ = p.step(acts)
    assert dict(infos["player_1"]["view"]) == expected
    env = FrescoEnv(players=2, opponents="random")
    _, info = env.reset(seed=3)
    expected = env.game.view(0, log=False, lean=True)
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert dict(info["view"]) == expected and info["view"]["round"] == expected["round"]


def test_a_game_that_made_observations_pickles_with_the_same_vectors():
    """A game pickles after it made observations (vector environments and Ray send envs to other
    processes): what they were written from stays behind, the copy writes the same vectors.
    (Here, not in tests/rules: a compiled Game does not unpickle, its frozen component records.)"""
    for g in random_positions(3, ALL, seed=95, every=61):
        for encoding in (1, 3):
            before = [g.observation(seat, encoding) for seat in range(3)]
            copy = pickle.loads(pickle.dumps(g))
            assert [copy.observation(seat, encoding) for seat in range(3)] == before
            assert [list(copy.legal_actions(s)) for s in copy.to_act] == [list(g.legal_actions(s)) for s in g.to_act]

