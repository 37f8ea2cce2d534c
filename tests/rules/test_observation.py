"""``Game.observation(seat)`` (rules/observation.py): what the seat's view shows, as a
fixed-size float32 vector written straight from the position.  R22: nothing hidden from the
seat is in it, by the views' perturbation check (another seat's Thalers, paints, unrevealed
plan and module secrets and the seed changed: the vector stays the same; the seat's own
change shows); the layout is contiguous and the same for every game of a set-up."""
from __future__ import annotations

import itertools
import random
from array import array

import pytest

import affresco
from affresco import ConfigError, FrescoError
from affresco.rules.observation import SLOTS
from envs_support import ALL, perturbed, random_positions as positions, secret_changes


@pytest.mark.parametrize("n,mods", [(2, ()), (3, ()), (4, ()), (2, ALL), (4, ALL)])
def test_no_other_seats_secret_changes_the_observation(n, mods):
    seen_plan_phase = False
    for g in positions(n, mods, seed=20 + n, every=23 if not mods else 13, plans=True):
        seen_plan_phase |= g.phase == "plan"
        for seat in range(n):
            assert g.observation(seat) == perturbed(g, seat).observation(seat), (g.phase, seat)
    assert seen_plan_phase


def test_the_seats_own_secrets_show_in_its_observation():
    g = affresco.new_game(3, seed=4)
    other = perturbed(g, 1)          # changes seat 0's and seat 2's Thalers and paints
    assert g.observation(0) != other.observation(0)
    assert g.observation(1) == other.observation(1)


def test_a_committed_plan_shows_to_its_seat_only_until_the_reveal():
    g = affresco.new_game(2, seed=5)
    while g.phase != "plan":
        seat = g.to_act[0]
        g.apply(seat, g.legal_actions(seat)[0])
    before = [g.observation(s) for s in range(2)]
    g.apply(0, g.legal_actions(0)[-1])   # seat 0 commits a plan; seat 1 has not
    assert g.phase == "plan"
    assert g.observation(0) != before[0]
    after = g.observation(1)
    # seat 1 sees only that seat 0 committed (one number), not the plan itself
    assert sum(a != b for a, b in zip(after, before[1])) == 1


@pytest.mark.parametrize("n,mods", [(2, ()), (4, ()), (3, ALL)])
@pytest.mark.parametrize("encoding", [1, 2, 3])
def test_layout_is_contiguous_and_one_per_set_up(n, mods, encoding):
    """Encodings 1 and 2: a hashed block ``module:<name>`` per module; 3: each module's named
    slices ``<name>:<slice>`` (its ModuleSlots), in the modules' order; the base slices the same."""
    g = affresco.new_game(n, mods, seed=1)
    layout = g.observation_layout(encoding)
    pos = 0
    for name, start, length in layout:
        assert start == pos and length >= 0
        pos += length
    names = [name for name, _, _ in layout]
    modules = g.view(0)["modules"]
    if encoding < 3:
        assert [x for x in names if ":" in x] == [f"module:{m}" for m in modules]
    else:
        assert list(dict.fromkeys(x.split(":")[0] for x in names if ":" in x)) == list(modules)
        assert not any(x.startswith("module:") for x in names)
    base = [s for s in layout if ":" not in s[0]]
    assert base == [s for s in g.observation_layout(1) if ":" not in s[0]]
    x = g.observation(0, encoding)
    assert isinstance(x, array) and x.typecode == "f" and len(x) == pos
    assert affresco.new_game(n, mods, seed=2).observation_layout(encoding) == layout


@pytest.mark.parametrize("first", [False, True])
def test_a_rule_option_reaches_the_vector_whichever_game_made_the_layout_first(first):
    """The layout is one per set-up and rule options never change it (they are facts written
    into it): the option ``special_colours_on_fresco`` shows in the vector of a game with it,
    and only there, whether a game with or without it was observed first."""
    from affresco.rules.modules.special_colours import OPTION
    def game(on: bool):
        return affresco.new_game(2, ("special_colours",), seed=1, options={OPTION: True} if on else None)
    a, b = game(first), game(not first)
    x, y = a.observation(0, 3), b.observation(0, 3)
    assert a.observation_layout(3) == b.observation_layout(3)
    start, length = next((s, n) for name, s, n in a.observation_layout(3) if name == "special_colours:on_fresco")
    assert length == 1 and x[start] == float(first) and y[start] == float(not first)
    assert [i for i in range(len(x)) if x[i] != y[i]][0] == start


def test_observation_refuses_a_seat_that_is_not_one():
    g = affresco.new_game(2, seed=1)
    for bad in (None, 2, -1, True, "0"):
        with pytest.raises(FrescoError):
            g.observation(bad)


def test_every_module_says_which_fields_its_view_reads():
    """The observation makes a module's part again only when the module's state or a field its
    view hook reads changed (``Module.view_reads``): every module declares them, and they are
    fields of the state (a misspelt one would never change)."""
    from affresco.rules.hooks import MODULES
    from affresco.rules.state import FIELDS
    for name, cls in MODULES.items():
        assert cls.view_reads is not None, name
        assert set(cls.view_reads) <= set(FIELDS) - {"mods"}, (name, cls.view_reads)



@pytest.mark.parametrize("n,mods", [(3, ()), (4, ALL)])
def test_every_seats_observation_at_once_is_each_seats_own(n, mods):
    """``Game.observations(seats)`` gives, in the order asked, the vectors ``observation(seat)``
    gives (of a fresh copy of the game, which writes them from zero), at positions of a random
    game; it refuses a seat that is not one, like ``observation``."""
    for g in positions(n, mods, seed=40 + n, every=7 if not mods else 29):
        order = list(range(n))[::-1]
        fresh = g.clone()
        assert g.observations(order) == [fresh.observation(seat) for seat in order]
        assert g.observations() == [g.observation(seat) for seat in range(n)]
    for bad in ([n], [0, -1], ["0"], [True]):
        with pytest.raises(FrescoError):
            g.observations(bad)


@pytest.mark.parametrize("n,mods", [(2, ()), (4, ALL)])
def test_every_seats_observation_joined_is_each_seats_own_back_to_back(n, mods):
    """``Game.observations_joined(seats)`` is the vectors ``observation(seat)`` gives (of a fresh
    copy of the game, which writes them from zero) back to back in the order asked, at
    positions of a random game; it refuses a seat that is not one, like ``observation``."""
    size = len(affresco.new_game(n, mods).observation(0))
    for g in positions(n, mods, seed=50 + n, every=5 if not mods else 23):
        order = list(range(n))[::-1]
        fresh = g.clone()
        joined = g.observations_joined(order)
        assert len(joined) == n * size
        assert [joined[j * size:(j + 1) * size] for j in range(n)] == [fresh.observation(seat) for seat in order]
        assert g.observations_joined() == sum(g.observations(), array("f"))
        assert g.observations_joined([1]) == g.observation(1)
        assert len(g.observations_joined([])) == 0
    assert g.observations_joined([0, 1, 0, 1, 0]) == sum((g.observation(seat) for seat in [0, 1, 0, 1, 0]), array("f"))
    for bad in ([n], [0, -1], ["0"], [True]):
        with pytest.raises(FrescoError):
            g.observations_joined(bad)


@pytest.mark.parametrize("n,mods", [(2, ()), (3, ALL)])
def test_joined_observations_with_room_after_each_are_the_vectors_then_zeros(n, mods):
    """``observations_joined(seats, pad=k)``: each seat's vector followed by k zeros (room for
    the caller's own numbers), the vectors those of a fresh copy, whatever was joined before (with
    other room, other seats, a seat twice); a pad that is no count of zeros is refused."""
    rng = random.Random(n)
    for g in positions(n, mods, seed=60 + n, every=7 if not mods else 19):
        fresh = g.clone()
        seats = [rng.randrange(n) for _ in range(rng.randrange(1, n + 2))]
        pad = rng.choice((1, 5, 33))
        assert g.observations_joined(seats, pad=pad) == \
            sum((fresh.observation(seat) + array("f", bytes(4 * pad)) for seat in seats), array("f"))
        assert g.observations_joined(None, pad=0) == fresh.observations_joined()
    for bad in (-1, 1.0, "2", None):
        with pytest.raises(ConfigError):
            g.observations_joined(None, 3, bad)


def test_a_module_part_is_hashed_from_the_observers_seat_on_whoever_hashed_it_before():
    """A list with one entry per seat is read from the observer's seat on (``hash_part``), also
    when another seat hashed the same part first (its numbers are kept per seat); a part
    without such a list reads the same from every seat."""
    per_seat = {"holdings": [{"cards": 1}, {"cards": 2}], "display": ["a", "b", "c", "d"]}
    mine = affresco.rules.hash_part("test_part", per_seat, 0, 2)
    theirs = affresco.rules.hash_part("test_part", per_seat, 1, 2)
    turned = {"holdings": [{"cards": 2}, {"cards": 1}], "display": ["a", "b", "c", "d"]}
    assert theirs == affresco.rules.hash_part("test_part", turned, 0, 2) != mine
    shared = {"display": ["a", "b", "c", "d"], "stack": 7}
    assert affresco.rules.hash_part("test_part", shared, 0, 2) == affresco.rules.hash_part("test_part", shared, 1, 2)


# --- encoding 3: the modules' numbers in fixed, named slots ----------------------------------

SINGLE = [(2 + i % 3, (m,)) for i, m in enumerate(ALL)]    # each module alone, the player counts in turn
EVERY_SET = SINGLE + [(2, ALL), (3, ALL), (4, ALL)]


def test_every_modules_slot_parts_declare_what_they_are_made_from():
    """Every module writes its numbers into its own slots (encoding 3), each part made again only
    when what it declares it is made from changed (``ModuleSlots.part_reads``): its record
    (``m``), fields of it (``m.FIELD``), fields of the state (a misspelt one would never
    change) or the observer's ``seat``: at a position of a game with every module, each is one."""
    from affresco.rules.hooks import MODULES
    from affresco.rules.state import FIELDS
    g = next(positions(3, ALL, seed=5, every=40))
    for name in MODULES:
        assert name in SLOTS and SLOTS[name].name == name
        slots = _slots(g, name)
        assert len(slots.part_reads) == len(slots.makers) == len(slots.writers) > 0, name
        for reads in slots.part_reads:
            for r in reads:
                if r.startswith("m."):
                    assert hasattr(g.state.mods[name], r[2:]), (name, r)
                else:
                    assert r in ("m", "seat") or r in set(FIELDS) - {"mods"}, (name, r)


def _slots(g, name):
    """The ModuleSlots of module ``name`` in ``g``'s set-up (encoding 3)."""
    from affresco.rules.observation import layout
    L = layout(g.state, 3)
    return L.slotted[L.modules.index(name)]


def _part_key(s, name, reads):
    """What a slot part declares it is made from, read from the state ``s`` (one read: its
    value; several: their tuple; a list of the state as a tuple; the seat is not read)."""
    def value(r):
        if r == "m":
            return s.mods[name]
        if r.startswith("m."):
            return getattr(s.mods[name], r[2:])
        v = getattr(s, r)
        return tuple(v) if type(v) is list else v
    got = [value(r) for r in reads if r != "seat"]
    return got[0] if len(got) == 1 else tuple(got)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_each_slot_parts_fact_made_from_its_declared_reads_alone_is_the_views(n):
    """A part's fact is made from the values of what it declares it reads alone (and the
    seat), so its numbers are kept while those stay the same: at positions of a random game
    with every module (planning ones with a plan committed included), for every seat, each
    part's fact made from them is the one read from the seat's view; a part that does not
    declare ``seat`` shows every seat the same fact (made once for the seats that look at a
    position together)."""
    for g in positions(n, ALL, seed=33 + n, every=11, plans=True):
        s = g.state
        for seat in range(n):
            view = g.view(seat, log=False, lean=True)
            for name in ALL:
                slots = _slots(g, name)
                shown = slots.view_facts(view[name], seat)
                for q, (reads, make) in enumerate(zip(slots.part_reads, slots.makers)):
                    key = _part_key(s, name, reads)
                    assert (key if make is None else make(key, seat)) == shown[q], (name, q, g.phase, seat)
                    if "seat" not in reads:
                        assert shown[q] == slots.view_facts(g.view(0, log=False, lean=True)[name], 0)[q], (name, q)


def test_a_module_whose_hook_changes_the_apprentices_declares_what_the_hook_reads():
    """The players' apprentices in the vector are counted again only when their neutral or
    set-aside apprentices or the record fields the ``apprentices`` hooks read changed
    (``ModuleSlots.apprentices_reads``).  Every module with that hook declares them, and they
    are all the hook reads of its record: at positions of random games, the record with every
    other field taken from another position gives each seat the same count."""
    for n in (2, 4):
        games = [g.clone() for g in positions(n, ALL, seed=61 + n, every=23)]
        for g, other in zip(games, games[1:] + games[:1]):
            s = g.state
            for hook in s.hooks.apprentices:
                module = hook.__self__
                declared = SLOTS[module.name].apprentices_reads
                assert declared, module.name
                record = s.mods[module.name]
                fields = [f for f in dir(record) if not f.startswith("_") and f != "version"
                          and not callable(getattr(record, f))]    # (both builds: no signature read)
                assert set(declared) <= set(fields), module.name
                counts = [s.apprentices(f) for f in range(n)]
                mixed = record.copy()
                for f in fields:
                    if f not in declared:
                        setattr(mixed, f, getattr(other.state.mods[module.name], f))
                s.mods[module.name] = mixed
                assert [s.apprentices(f) for f in range(n)] == counts, module.name
                s.mods[module.name] = record


@pytest.mark.parametrize("n,mods", EVERY_SET)
def test_each_modules_slots_are_the_numbers_its_view_part_shows(n, mods):
    """At every decision of a random game, for every seat, the modules' numbers written from
    the state (``observation``'s end) are exactly the ones read from the module parts of
    ``view(seat)`` (``Game.observation_modules``: each module's reading of its view part,
    full or lean); every module's block is non-zero somewhere in the game (special colours
    with their rule option in 3-player games: without it their block is all zeros)."""
    on_fresco = "special_colours" in mods and n == 3
    g = affresco.new_game(n, mods, seed=60 + n, options={"special_colours_on_fresco": True} if on_fresco else None)
    layout = g.observation_layout()
    start = dict((name, s + size) for name, s, size in layout)["bag"]
    blocks = {m: [(s, s + size) for name, s, size in layout if name.startswith(m + ":")] for m in mods}
    shown = set()
    rng = random.Random(60 + n)
    i = 0
    while not g.is_over:
        for seat in range(n):
            x = g.observation(seat)
            assert x[start:] == g.observation_modules(g.view(seat, log=False, lean=i % 2 == 1), seat), (i, seat)
            shown |= {m for m, spans in blocks.items() if any(any(x[a:b]) for a, b in spans)}
        seat = rng.choice(g.to_act)
        g.apply(seat, rng.choice(g.legal_actions(seat)))
        i += 1
    assert shown == set(mods) - ({"special_colours"} if not on_fresco else set())


def _with_plans(n, mods, seed, every):
    """Every ``every``-th position of a random game, and in rounds 1, 5, 9 ... the first position
    where a seat has committed its plan and another has not (random games run long)."""
    g = affresco.new_game(n, mods, seed=seed)
    rng = random.Random(seed)
    i, planned = 0, 0
    while not g.is_over:
        committed = g.phase == "plan" and len(g.to_act) < n
        if i % every == 0 or (committed and planned < g.round and g.round % 4 == 1):
            planned = g.round if committed else planned
            yield g
        seat = rng.choice(g.to_act)
        g.apply(seat, rng.choice(g.legal_actions(seat)))
        i += 1


@pytest.mark.slow
@pytest.mark.parametrize("n,mods", EVERY_SET)
def test_no_secret_of_another_seat_changes_encoding_3_one_at_a_time_over_whole_games(n, mods):
    """R22, encoding 3: at positions of a random game, each kind of secret the seat may not
    see changed alone (``secret_changes``: other seats' Thalers, paints, unrevealed plans, medico
    words and action tiles, scrolls, face-down bells and the certificate stack; the piles whose
    counts alone are shown; the seed: the next infection tile, bottle ...) leaves the seat's
    vector exactly the same.  Each module's secrets are
    met in the games checked."""
    met = set()
    for g in _with_plans(n, mods, seed=70 + n, every=41):
        for seat in range(n):
            x = g.observation(seat)
            for name, other in secret_changes(g, seat):
                met.add(name)
                assert other.observation(seat) == x, (name, g.phase, seat)
    wanted = {"thalers", "paints", "seed", "plans"}
    wanted |= {"scrolls": {"scrolls"}, "bells": {"bells face down"}, "portraits": {"portrait deck"},
               "bishops_favour": {"favour tokens"}}.get(mods[0], set()) if len(mods) == 1 else set()
    assert wanted <= met, wanted - met


def test_encodings_1_and_2_are_one_vector_and_3_differs_in_the_modules_only():
    """1 and 2 (the environments' encodings differ in the action space only) write the same
    vector, kept bit-identical for saved models; 3 writes the same base part."""
    for g in positions(3, ALL, seed=80, every=17):
        layout = g.observation_layout(1)
        start = dict((name, s + size) for name, s, size in layout)["bag"]
        for seat in range(3):
            one = g.observation(seat, 1)
            assert one == g.observation(seat, 2) == g.clone().observation(seat, 1)
            assert one[:start] == g.observation(seat, 3)[:start] == g.observation(seat)[:start]


def test_observation_refuses_an_encoding_that_is_not_one():
    g = affresco.new_game(2, ("bells",), seed=1)
    for bad in (0, 4, "3", 3.0, True, None):
        with pytest.raises(affresco.ConfigError, match="encoding"):
            g.observation(0, bad)
        with pytest.raises(affresco.ConfigError, match="encoding"):
            g.observation_layout(bad)


def test_a_module_without_slots_is_hashed_in_encoding_3(monkeypatch):
    """Encoding 3 hashes the view part of a module that brings no ModuleSlots (as encodings 1
    and 2 do: ``module:NAME``, 64 numbers), beside the other modules' slots."""
    from affresco.rules import observation
    monkeypatch.delitem(observation.SLOTS, "scrolls")
    monkeypatch.setattr(observation, "_LAYOUTS", {})
    monkeypatch.setattr(observation, "_LAST", (None,) * 5)
    for g in positions(3, ("bells", "scrolls"), seed=90, every=23):
        layout = g.observation_layout()
        spans = {name: (s, s + size) for name, s, size in layout}
        assert "module:scrolls" in spans and "bells:display" in spans
        a, b = spans["module:scrolls"]
        for seat in range(3):
            x = g.observation(seat)
            assert x[a:b] == affresco.rules.module_block("scrolls", g.view(seat)["scrolls"], seat, 3)
            assert x[spans["bag"][1]:] == g.observation_modules(g.view(seat, log=False), seat)


@pytest.mark.parametrize("n", [2, 4])
def test_every_seats_vector_made_at_once_while_planning_is_the_seats_own(n):
    """Every seat's vector made at once (``observations_joined``) at positions of a random game
    with all eight modules, the planning ones where plans and tiles are each seat's own
    included, is the one a fresh copy writes for that seat alone."""
    size = len(affresco.new_game(n, ALL).observation(0))
    for g in _with_plans(n, ALL, seed=97 + n, every=19):
        joined = g.observations_joined()
        for seat in range(n):
            assert joined[seat * size:(seat + 1) * size] == g.clone().observation(seat), (g.phase, seat)


def _module_sets(k: int, seed: int) -> list[tuple[str, ...]]:
    """The base game, all eight modules and ``k`` other of the 256 module sets, drawn at random."""
    every = [tuple(m for i, m in enumerate(ALL) if mask >> i & 1) for mask in range(1, 255)]
    return [(), tuple(ALL)] + random.Random(seed).sample(every, k)


@pytest.mark.parametrize("n,mods", [(2 + i % 3, mods) for i, mods in enumerate(_module_sets(10, 2026))],
                         ids=lambda v: "+".join(v) or "base" if isinstance(v, tuple) else f"{v}p")
def test_the_vector_kept_between_a_seats_looks_is_the_one_written_from_zero(n, mods):
    """The game keeps what its observations were last written from, and the modules' slots keep
    facts by what they were made from (shared by every game of the set-up).  Two games of one
    set-up played in turns of a few decisions each, at every decision a random seat looking
    (encoding 3, every third time 1), sometimes after a clone or a reloaded copy looked: the
    vector is the one a fresh copy writes from zero for that position, and its modules' numbers
    the ones read from the seat's view; a clone played on writes its own positions' vectors."""
    games = [affresco.new_game(n, mods, seed=s) for s in (1, 2)]
    start = {name: s + size for name, s, size in games[0].observation_layout()}["bag"]
    rng = random.Random(n * 1000 + len(mods))
    g = games[0]
    for i in itertools.count():
        if g.is_over or rng.random() < 0.1:       # the other game's turn
            g = games[1] if g is games[0] else games[0]
            if g.is_over:
                g = games[0] if g is games[1] else games[1]
                if g.is_over:
                    break
        seat = rng.randrange(n)
        encoding = 1 if i % 3 == 2 else 3
        x = g.observation(seat, encoding)
        fresh = affresco.Game.from_json(g.to_json(pretty=False)) if i % 37 == 0 else g.clone()
        assert x == fresh.observation(seat, encoding), (i, g.phase, seat, encoding)
        if encoding == 3:
            assert x[start:] == g.observation_modules(g.view(seat, log=False, lean=True), seat), (i, g.phase, seat)
        if i % 17 == 0:              # a clone played on: its positions' vectors, not the original's
            c = fresh
            for _ in range(3):
                if c.is_over:
                    break
                s = rng.choice(c.to_act)
                c.apply(s, rng.choice(c.legal_actions(s)))
                assert c.observation(seat) == c.clone().observation(seat), (i, seat)
        s = rng.choice(g.to_act)
        g.apply(s, rng.choice(g.legal_actions(s)))


def _record_fields(record) -> dict:
    """A module record's fields (a ModuleState's declared ones, an immutable record's own)."""
    from affresco.rules.hooks import ModuleState
    if isinstance(record, ModuleState):
        names = [f for c in type(record).__mro__ for f in getattr(c, "__annotations__", {}) if f != "version"]
        return {f: getattr(record, f) for f in names}
    return {"record": record}


@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_module_record_written_in_place_counts_every_write_in_its_version(n):
    """Encoding 3 skips a module's slot parts while its record is the same object with the same
    ``version`` (``ModuleState``, counted by ``Module.own`` at every write) or, for any other
    record, the same object (immutable, replaced on change), without reading their values.  The
    engine keeps that promise: at every decision of random games with every module, a record
    still the same object with the same version holds the very same field values, equal to
    what they were (no value changed in place either)."""
    from affresco.rules.hooks import ModuleState
    for seed in (3, 4):
        g = affresco.new_game(n, ALL, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            mods = g.state.mods
            before = {name: (r, getattr(r, "version", None), _record_fields(r), repr(_record_fields(r)))
                      for name, r in mods.items()}
            seat = rng.choice(g.to_act)
            g.apply(seat, rng.choice(g.legal_actions(seat)))
            for name, (r, version, fields, shown) in before.items():
                now = g.state.mods[name]
                if now is r and (not isinstance(r, ModuleState) or now.version == version):
                    after = _record_fields(now)
                    assert all(after[f] is v for f, v in fields.items()), (name, g.phase)
                    assert repr(after) == shown, (name, g.phase)


@pytest.mark.parametrize("n,mods", [(2, ()), (3, ("bells", "medico", "scrolls")), (4, ALL)],
                         ids=lambda v: "+".join(v) or "base" if isinstance(v, tuple) else f"{v}p")
@pytest.mark.parametrize("encoding", [1, 3])
def test_a_new_games_vectors_start_from_the_set_ups_kept_ones_and_are_the_ones_written_from_zero(n, mods, encoding):
    """A new game (a new one, a clone, a reloaded copy) starts what its observations were last
    written from as a copy of its set-up's (``seen_for``), brought up to the game's position at
    its first look by comparing facts, as any later look does.  Games of one set-up played one
    after the other, their seats looking in turns or all at once, the clones' and copies' too:
    each vector is the one a Seen made from nothing writes, and the first game playing on changes none of
    the later ones'."""
    from affresco.rules.observation import Seen, layout, observation
    rng = random.Random(n * 31 + len(mods) + encoding)
    first = affresco.new_game(n, mods, seed=11)
    games = [first]
    for i in range(60):
        if i % 15 == 14:                    # another game of the set-up: new, cloned or reloaded
            kind = i // 15 % 3
            g = affresco.new_game(n, mods, seed=20 + i) if kind == 0 else first.clone() if kind == 1 \
                else affresco.Game.from_json(first.to_json(pretty=False))
            games.append(g)
        for g in games:
            if g.is_over:
                continue
            if rng.random() < 0.3:          # every seat at once (the Parallel env's call), its first look too
                joined = g.observations_joined(encoding=encoding)
                zero = b"".join(observation(g.state, seat, Seen(layout(g.state, encoding))).tobytes()
                                for seat in range(n))
                assert joined.tobytes() == zero, (i, len(games), g.phase)
            else:
                seat = rng.randrange(n)
                zero = observation(g.state, seat, Seen(layout(g.state, encoding)))
                assert g.observation(seat, encoding) == zero, (i, len(games), g.phase, seat)
            s = rng.choice(g.to_act)
            g.apply(s, rng.choice(g.legal_actions(s)))
