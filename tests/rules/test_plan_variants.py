"""The plans with module words as lazy sequences (issue #12's speed): 'Every new decision is an
action ... Refused actions change nothing and say what is legal' holds for the up to ~110,000
plans a medico planning decision offers, which ``legal_actions`` gives as a read-only
:class:`affresco.rules.PlanVariants` that makes a plan only when asked, and for the plans with
bells' and the wall's action tiles, given as a read-only :class:`TiledPlans`."""
from __future__ import annotations

import copy
import pickle
import random

import pytest

import affresco
from affresco.errors import IllegalAction
from affresco.rules.plan_sequences import TiledPlans
from positions import lazy_planning

ALL = ("portraits", "requests", "special_colours", "scrolls", "bishops_favour", "bells", "wall_fresco", "medico")
SEVEN = ALL[:-1]      # all eight but the medico: the action tiles' plans without its variants
WORDS = {"bells": {"audience"}, "wall_fresco": {"wall"}, "medico": {"ill", "medico"}}


def _anew(legal):
    """The same plans as a new sequence, no plan made yet: a PlanVariants made again from its
    recipe (as in another process), a TiledPlans built again (pickled, it is its situation's own)."""
    if type(legal) is TiledPlans:
        return TiledPlans(*legal.__reduce__()[1])
    return pickle.loads(pickle.dumps(legal))


@pytest.mark.parametrize("players,modules", [(2, ("medico",)), (4, ("medico",)), (3, ALL)])
def test_every_medico_plan_is_listed_once_in_order_and_indexable(players, modules):
    """Each plan with every way of naming its ill apprentices and with the medico tile (MD1):
    indexing, iterating, ``in`` and ``index`` agree, each plan appears once, and the sequence
    pickles as itself (made again from its parents in the other process)."""
    seen = 0
    for g, seat, legal in lazy_planning(players, modules, seed=11):
        made = list(legal)
        assert len(made) == len(legal) == len(set(made)) > 0
        probes = sorted({0, len(made) - 1, *random.Random(len(made)).sample(range(len(made)), min(200, len(made)))})
        for i in probes:
            assert legal[i] == made[i] and legal[i - len(made)] == made[i]
            assert made[i] in legal and legal.index(made[i]) == i
        assert legal[1:4] == made[1:4]
        again = pickle.loads(pickle.dumps(legal))      # sent to another process: made again there
        assert type(again) is type(legal) and again == tuple(made) == legal
        assert g.legal_actions(seat) is legal          # the same situation: the same object
        seen += 1
    assert seen >= 3


@pytest.mark.parametrize("players,modules", [(4, ALL), (2, ("medico", "bells"))])
def test_a_plan_found_without_tables_is_the_plan_at_that_place(players, modules):
    """The medico's plans are counted, and each plan indexed is found, from tables of the
    action sheet's side (issue #12's speed), not of the situation's plans: the same length and
    the same plan at each place as the sequence made in full (placed parent by parent), in
    every part (with and without the action tiles), with ill and healthy apprentices, with and
    without the medico tile, on a fresh sequence and on one indexed before."""
    checked = 0
    for g, seat, legal in lazy_planning(players, modules, seed=3, rounds=9):
        made = legal.materialized()
        places = {0, len(made) - 1, *random.Random(len(made)).sample(range(len(made)), min(40, len(made)))}
        again = pickle.loads(pickle.dumps(legal))          # indexed at every place
        for i in sorted(places):
            fresh = pickle.loads(pickle.dumps(legal))      # made again: nothing indexed yet
            assert len(fresh) == len(made) and fresh[i] == made[i] == again[i]
            checked += 1
    assert checked >= 100


@pytest.mark.parametrize("players,modules,seed", [(4, ALL, 3), (3, ("medico", "wall_fresco"), 4), (2, ("medico",), 5),
                                                   (3, ("medico", "bells"), 6)])
def test_every_place_of_the_medico_plans_holds_a_distinct_legal_plan_and_index_inverts_it(players, modules, seed):
    """The medico's plans in their order (docs/architecture.md): every index gives a distinct
    plan, ``index`` gives the index back, and the plans are exactly those of the old order (each
    parent's variants in turn: ``parents`` and ``variants_of``), at every planning decision of
    some games, with and without ill apprentices, action tiles and the medico tile (so a random
    index is a uniformly random legal plan)."""
    checked, black, tiles, tile_allowed = 0, set(), set(), set()
    for g, seat, legal in lazy_planning(players, modules, seed=seed, rounds=9):
        fresh = pickle.loads(pickle.dumps(legal))          # made again: every plan picked by its index
        picked = [fresh[i] for i in range(len(fresh))]
        assert len(set(picked)) == len(picked)
        assert set(picked) == {a for j in range(len(legal.parents)) for a in legal.variants_of(j)}
        for i in random.Random(len(picked)).sample(range(len(picked)), min(200, len(picked))):
            assert fresh.index(picked[i]) == i and legal.index(picked[i]) == i
        assert list(pickle.loads(pickle.dumps(legal)).materialized()) == picked
        checked += 1
        black.add(g.view(seat)["medico"]["ill"][seat] > 0)
        tiles.update(len(u) for u in legal.parents.segments)
        tile_allowed.add(any(a.args[-1] == "medico" for a in picked))
    assert checked >= 5 and black == {False, True} and tile_allowed == {False, True}
    assert tiles == {0, *range(1, len({"bells", "wall_fresco"} & set(modules)) + 1)}


@pytest.mark.parametrize("players,modules,seed", [(3, ALL, 3), (2, ("medico",), 5), (4, ("medico", "bells"), 6)])
def test_the_words_a_parent_s_variants_add_are_those_of_its_variants_made(players, modules, seed):
    """``variant_words``, read from the medico's tables without making a plan (what
    rules/plan_choices.py offers at the ill and medico steps, issue #14), gives for every parent
    the words its variants add, in their order: those of the plans ``variants_of`` makes, read
    back as choices, for parents with and without action tiles, ill apprentices, the tile."""
    checked, kinds = 0, set()
    for g, seat, legal in lazy_planning(players, modules, seed=seed, rounds=9):
        steps = g.plan_steps()
        own = [k for k, w in enumerate(steps) if w in ("ill", "medico")]
        parents = legal.parents
        rng = random.Random(len(legal))
        for j in sorted(rng.sample(range(len(parents)), min(60, len(parents)))):
            seg, b, _ = parents.locate(j)
            made = [tuple(g.plan_as_choices(a)[k] for k in own) for a in legal.variants_of(j)]
            read = [tuple(words.get(steps[k], ()) for k in own) for words in legal.variant_words(seg, b)]
            assert read == made
            assert all(set(words) <= {"ill", "medico"} for words in legal.variant_words(seg, b))
            kinds.update((len(parents.segments[seg]), bool(c[0]), bool(c[1])) for c in made)
            checked += 1
    assert checked >= 100 and {ill for _, ill, _ in kinds} == {False, True} and {t for *_, t in kinds} == {False, True}
    assert {t for t, _, _ in kinds} == {0, *range(1, len({"bells", "wall_fresco"} & set(modules)) + 1)}


@pytest.mark.parametrize("players,modules,seed", [(2, ("medico",), 7), (3, ALL, 8), (4, ("wall_fresco", "medico"), 9),
                                                  (4, ("bells", "wall_fresco", "medico"), 10)])
def test_the_parents_with_variants_are_those_whose_counted_variants_are_not_none(players, modules, seed):
    """``with_variants``, made without counting the variants (what rules/plan_choices.py reads
    at the counts step and for each action tile, issue #14's speed), says of every base plan of
    every set of action tiles, at every medico planning decision of random games, whether its
    parents have a variant as the counted sizes (``sizes_at``) say: the plans with ill
    apprentices beyond the healthy ones, with the wall tile's healthy apprentice, none left."""
    seen = set()
    for g, seat, legal in lazy_planning(players, modules, seed=seed, rounds=9):
        for seg, tiles in enumerate(legal.parents.segments):
            has = legal.with_variants(seg)
            assert list(has) == [int(z > 0) for z in legal.sizes_at(seg)]
            seen.update((len(tiles), bool(x)) for x in has)
    assert seen == {(t, x) for t in range(len({"bells", "wall_fresco"} & set(modules)) + 1) for x in (False, True)}


def _order_key(plan, columns: tuple[str, ...]) -> tuple:
    """The place of a plan's parent in the medico's order within its part, from its text alone
    (docs/architecture.md): the counts of the columns ill apprentices may not go to as a group
    (their apprentices, empty columns, the market's flag for the medico tile), the others'
    counts sorted (the kind), the others' counts, the group's counts."""
    counts = [int(x) for x in plan.args[0].split("-")]
    barred = [c for col, c in zip(columns, counts) if col in ("market", "theater")]
    others = tuple(c for col, c in zip(columns, counts) if col not in ("market", "theater"))
    tiles = tuple(w for w in plan.args[1::2] if w in ("audience", "wall"))
    return (tiles, (sum(barred), barred.count(0), counts[0] <= 1), sorted(others), others, barred)


@pytest.mark.parametrize("players,modules,seed", [(4, ALL, 3), (2, ("medico",), 5)])
def test_the_medico_plans_come_by_group_kind_and_counts(players, modules, seed):
    """The order of the medico's plans (docs/architecture.md, issue #12's speed): by the action
    tiles' part, then by the group of the market's and theater's counts, the kind (the sorted
    counts of the columns ill apprentices may go to), those counts, the group's counts; each
    plan's variants (its ill words, each without then with the medico tile) together."""
    checked = 0
    for g, seat, legal in lazy_planning(players, modules, seed=seed, rounds=9):
        columns = tuple(g.view(seat)["columns"])
        keys = [_order_key(a, columns) for a in legal]
        parts = [k[0] for k in keys]
        assert parts == sorted(parts, key=lambda u: [u == (), u == ("audience",), u == ("wall",)].index(True)
                               if len(u) < 2 else 3)
        for a, b in zip(keys, keys[1:]):
            if a[0] == b[0]:
                assert a[1:] <= b[1:]
        checked += 1
    assert checked >= 3


def test_the_base_plans_of_any_count_of_apprentices_are_those_of_at_most_that_many():
    """R1 (0-3 apprentices per column, at most the available ones): the base plans and their
    tables (``base_counts``, which the medico's plan tables read for any count of healthy
    apprentices, none to more than the sheet holds) are the plans of at most that many
    apprentices, in counting order."""
    import itertools
    from affresco.rules.plan_sequences import base_counts, base_plans
    every = list(itertools.product(range(4), repeat=5))
    for available in range(-1, 17):
        counts = [c for c in every if sum(c) <= available]
        assert list(base_counts(available, 5, 3)[0]) == counts
        assert [a.args[0] for a in base_plans(available, 5, 3)] == ["-".join(map(str, c)) for c in counts]


def test_the_lazy_plans_are_exactly_the_plans_the_rules_allow():
    """Every plan of the set-up's action space is in ``legal_actions`` exactly when applying it
    is accepted (the rules' own refusal), at a medico planning decision with ill apprentices:
    a sample of the plans not listed is refused, a sample of the listed ones accepted."""
    for g, seat, legal in lazy_planning(2, ("medico",), seed=5, rounds=9):
        if not any("ill" in a.args for a in legal[-50:]):
            continue
        space = [a for a in g.action_space() if a.kind == "plan"]
        listed = [a for a in space if a in legal]
        assert len(listed) == len(legal) and set(listed) == set(legal)
        unlisted = [a for a in space if a not in legal]
        for a in random.Random(0).sample(unlisted, min(3000, len(unlisted))):
            with pytest.raises(IllegalAction):
                g.apply(seat, a)           # refused: nothing changes
        for a in random.Random(1).sample(listed, min(300, len(listed))):
            g.clone().apply(seat, a)
        return
    pytest.fail("no planning decision with an ill apprentice was reached")


def test_a_plan_not_offered_is_refused_and_not_in_the_sequence():
    """'Refused actions change nothing and say what is legal': more ill apprentices than the
    column holds is neither listed nor accepted."""
    for g, seat, legal in lazy_planning(2, ("medico",), seed=5, rounds=9):
        plan = next((a for a in legal if "ill" in a.args), None)
        if plan is None:
            continue
        words = list(plan.args)
        counts = words[0].split("-")
        ill = words[words.index("ill") + 1].split("-")
        col = next(i for i, x in enumerate(ill) if x != "0")
        ill[col] = str(int(counts[col]) + 1)
        words[words.index("ill") + 1] = "-".join(ill)
        bad = affresco.Action("plan", tuple(words))
        assert bad not in legal
        before = g.to_json()
        with pytest.raises(IllegalAction):
            g.apply(seat, bad)
        assert g.to_json() == before
        return
    pytest.fail("no planning decision with an ill apprentice was reached")


def _tiles_by_the_rules(base: list, words: tuple, tiles: list) -> list:
    """The plans with action tiles as the modules' texts lay them, written out plainly: for each
    tile in turn ('Each player places the audience tile on one location column ... no apprentice
    may go to that column'; the wall tile 'covers one location ... Only one apprentice can be
    placed on this tile'), the plans so far, then each of them again with the tile on each of its
    empty columns that no other tile covers (the wall tile only if an apprentice is left for
    it); the words in rank order (audience, then wall)."""
    plans = list(base)
    for word, carries, available in tiles:
        more = []
        for p in plans:
            counts = [int(x) for x in p.args[0].split("-")]
            named = set(p.args[2::2])
            if sum(counts) + carries > available:
                continue
            for col, w in enumerate(words):
                if counts[col] == 0 and w not in named:
                    pairs = sorted([*zip(p.args[1::2], p.args[2::2]), (word, w)], key=lambda x: x[0] != "audience")
                    more.append(affresco.Action("plan", (p.args[0], *(x for pair in pairs for x in pair))))
        plans += more
    return plans


@pytest.mark.parametrize("players,modules", [(2, ("bells", "wall_fresco")), (4, ("bells",)), (3, ("wall_fresco",))])
def test_the_action_tiles_lie_on_every_empty_column_in_order(players, modules):
    """Bells' audience tile and the wall tile: the legal plans are the base game's plans, then
    each again with a tile on each empty column no other tile covers, tile by tile, in that
    order (the plans are made from their structure, not listed: the same plans)."""
    from affresco.rules.planning import column_words_of
    g = affresco.new_game(players, modules=modules, seed=3)
    rng, seen = random.Random(3), 0
    while not g.is_over and g.round <= 4:
        seat = g.to_act[0]
        legal = g.legal_actions(seat)
        if g.phase == "plan":
            base = [a for a in legal if len(a.args) == 1]
            available = max(sum(int(x) for x in a.args[0].split("-")) for a in base)
            view = g.view(seat)
            tiles = ([("audience", 0, available)] if "bells" in modules and view["bells"]["audience_usable"] else []) \
                + ([("wall", 1, available)] if "wall_fresco" in modules else [])
            assert legal == _tiles_by_the_rules(base, column_words_of(view["columns"]), tiles)
            assert type(legal) is TiledPlans and g.legal_actions(seat) is legal   # read-only, one per situation
            seen += 1
        g.apply(seat, rng.choice(legal))
    assert seen >= 4


def test_tiled_plans_index_contain_pickle_and_extend():
    """The plans with action tiles as a read-only sequence (what a module's ``plan_options``
    hook is given): indexing, ``in``, ``index`` and pickling agree with the plans listed, and
    ``+`` gives a tuple (a module adding plans of its own)."""
    from affresco.rules.planning import TiledPlans, plans as base_plans, tiled_plans
    words = ("market", "cathedral", "workshop", "studio", "theater")
    tiled = tiled_plans(6, 5, 3, words).with_tile("audience").with_tile("wall", 1)
    assert type(tiled) is TiledPlans and tiled is tiled_plans(6, 5, 3, words).with_tile("audience").with_tile("wall", 1)
    made = list(tiled)
    assert made[:len(base_plans(6, 5, 3))] == list(base_plans(6, 5, 3)) and len(made) == len(set(made)) == len(tiled)
    for i in random.Random(0).sample(range(len(made)), 300):
        assert tiled[i] == made[i] and made[i] in tiled and tiled.index(made[i]) == i
    assert affresco.Action("plan", ("0-0-0-0-0", "wall", "market", "audience", "studio")) not in tiled  # words out of rank order
    assert affresco.Action("plan", ("1-0-0-0-0", "audience", "market")) not in tiled                    # the column is taken
    assert affresco.Action("plan", ("3-3-0-0-0", "wall", "studio")) not in tiled                        # no apprentice left for it
    assert pickle.loads(pickle.dumps(tiled)) is tiled
    extra = affresco.Action("plan", ("0-0-0-0-0", "bell", "studio"))
    assert tiled + (extra,) == tuple(made) + (extra,)


def test_the_tiles_words_kept_per_lay_out_are_those_of_the_tiles_on_their_columns():
    """A plan with action tiles names each tile and the column it covers, in the words' rank
    order (``TiledPlans.tiles_at``, made once per segment, empty columns and lay-out for the
    columns and tiles: issue #12's speed): for every segment of the audience and wall tiles,
    every set of empty columns and every way to lay the tiles, and for those only, the words are
    the tiles' on the columns the lay-out gives (the first tile's column among the empty ones,
    then the next one's among the rest)."""
    from itertools import permutations

    from affresco.rules.actions import PLAN_WORDS
    from affresco.rules.plan_sequences import TiledPlans, sheet_counts

    words = ("market", "cathedral", "workshop", "studio", "theater")
    tiles = (("audience", 0), ("wall", 1))
    empties = sorted(set(sheet_counts(5, 3)[3]))
    keys = [(seg, empty, q) for seg in (1, 2, 3) for empty in empties
            for q in range(len(list(permutations(range(len(empty)), bin(seg).count("1")))))]
    plans = TiledPlans(4, 5, 3, words, tiles)
    assert sorted(plans.tails) == sorted(keys)
    for seg, empty, q in keys:
        u = plans.segments[seg]
        cols = list(permutations(range(len(empty)), len(u)))[q]
        tail = plans.tiles_at(seg, empty, q)
        assert dict(zip(tail[::2], tail[1::2])) == {tiles[t][0]: words[empty[c]] for t, c in zip(u, cols)}
        assert [PLAN_WORDS[w][1] for w in tail[::2]] == sorted(PLAN_WORDS[w][1] for w in tail[::2])
    assert len(keys) > 100


@pytest.mark.parametrize("players,modules", [(4, ALL), (2, ("medico",)), (4, SEVEN), (3, ("bells",)),
                                             (2, ("wall_fresco",))])
def test_a_plan_taken_from_the_sequence_is_carried_out_as_its_text_reads(players, modules):
    """A plan a seat takes from its offered plans is carried out without reading its text
    again (issue #12's speed): the reading the sequence made with it is the text's own (counts,
    and the words in the text's order), for plans with action tiles, ill words and the medico
    tile; an equal plan that the sequence did not make has none (it is read from its text)."""
    from affresco.rules import planning
    words_met: set[str] = set()
    for g, seat, offered in lazy_planning(players, modules, seed=5, rounds=9):
        legal = _anew(offered)      # no plan made yet (none made in full)
        for i in random.Random(len(legal)).sample(range(len(legal)), min(30, len(legal))):
            plan = legal[i]
            (counts, words), (text_counts, text_words) = legal.reading(plan), planning.read(plan)
            assert counts == text_counts and list(words.items()) == list(text_words.items())
            assert legal.reading(affresco.Action(plan.kind, plan.args)) is None
            words_met.update(words)
    assert words_met == set().union(*(WORDS.get(m, set()) for m in modules))


@pytest.mark.parametrize("players,modules", [(4, ALL), (3, ("medico", "wall_fresco")), (2, ("medico", "bells")),
                                             (3, SEVEN), (2, ("bells", "wall_fresco")), (4, ("wall_fresco",))])
def test_only_the_plan_made_last_is_taken_on_trust(players, modules):
    """The sequence keeps the reading of the plan it made last, nothing per plan (issue #12's
    speed): a plan made before another, or an equal plan made elsewhere, has no reading and is
    checked and read from its text, with the same result as the plan made last (a plan given
    again by indexing is taken on trust and read from its text; a plan carried out gives its
    reading away, ``taken``, and carried out again is read from its text); an illegal plan is
    refused and changes nothing."""
    from affresco.rules import planning
    checked = 0
    for g, seat, legal in lazy_planning(players, modules, seed=7, rounds=6):
        rng = random.Random(len(legal))
        i, j = rng.randrange(len(legal)), rng.randrange(len(legal))
        fresh = _anew(legal)                            # no plan made yet
        a, b = fresh[i], fresh[j]                       # b made last
        if a == b:
            continue
        assert fresh.reading(b) == planning.read(b) and fresh.made_here(b) and fresh[j] is b
        assert fresh.reading(b) == planning.read(b)     # (indexed again while last: its reading kept)
        assert fresh.reading(a) is None and not fresh.made_here(a)
        assert fresh[i] is a and fresh.made_here(a) and fresh.reading(a) is None   # given again: trusted, read from its text
        taker = _anew(legal)
        c = taker[j]        # carried out (planning.apply): its reading taken, the plan still the one given last
        assert taker.taken(c) == planning.read(c) and taker.reading(c) is None and taker.taken(c) is None
        assert taker.made_here(c) and taker.taken(affresco.Action(c.kind, c.args)) is None
        first, last = legal[i], legal[j]      # (from the sequence offered, which other games may have indexed)
        assert legal.made_here(last) and not legal.made_here(first)
        copy = affresco.Action(first.kind, first.args)
        assert legal.reading(copy) is None and not legal.made_here(copy)
        bad = affresco.Action("plan", ("4" + first.args[0][1:],) + first.args[1:])    # 4 in a column of 3 spaces
        before = g.to_json()
        with pytest.raises(IllegalAction):
            g.apply(seat, bad)
        assert g.to_json() == before
        trusted, checked_in_full, before_last, its_copy = g.clone(), g.clone(), g.clone(), g.clone()
        again = g.clone()
        trusted.apply(seat, last)
        again.apply(seat, last)               # (its reading taken by trusted's: read from its text)
        checked_in_full.apply(seat, affresco.Action(last.kind, last.args))
        assert trusted.to_json() == checked_in_full.to_json() == again.to_json() != before
        before_last.apply(seat, first)
        its_copy.apply(seat, copy)
        assert before_last.to_json() == its_copy.to_json() not in (before, trusted.to_json())
        checked += 1
    assert checked >= 3


def test_a_plan_offered_to_one_seat_is_checked_again_for_another():
    """A plan taken from the plans offered to a seat is accepted for that seat without being
    checked again; the same plan object given for another seat, which may not plan it, is
    refused and changes nothing."""
    for g, seat, legal in lazy_planning(2, ("medico",), seed=5, rounds=9):
        other = 1 - seat
        if other not in g.to_act:
            continue
        theirs = g.legal_actions(other)
        mine = next((a for a in legal if a not in theirs), None)
        if mine is None:
            continue
        before = g.to_json()
        with pytest.raises(IllegalAction):
            g.apply(other, mine)
        assert g.to_json() == before
        g.apply(seat, legal[legal.index(mine)])
        return
    pytest.fail("no planning decision with plans only one seat may make was reached")


@pytest.mark.parametrize("players,modules,seed", [(2, ("bells", "wall_fresco"), 1), (3, ("wall_fresco",), 2),
                                                   (4, ("bells",), 3), (4, SEVEN, 4), (3, ALL, 5)])
def test_a_plan_not_taken_from_the_seat_s_offered_plans_is_checked_from_its_text(players, modules, seed):
    """Only the plan a seat took last from the plans offered to it is legal by identity (issue
    #12's speed); any other is checked from its text, as ever: a plan taken from an older
    position's plans, one taken from another seat's plans, a copy of an offered plan built by
    hand and a plan typed as text are accepted exactly when they are among the seat's legal
    plans, with the same result as their text, and a refused one changes nothing."""
    rng = random.Random(seed)
    g = affresco.new_game(players, modules=modules, seed=seed)
    older: list = []              # plans taken at earlier planning decisions, by any seat
    seen: dict[str, set[bool]] = {"older": set(), "theirs": set(), "copy": set(), "typed": set()}
    while not g.is_over and g.round <= 6:
        seat = rng.choice(g.to_act)
        legal = g.legal_actions(seat)
        if g.phase != "plan":
            g.apply(seat, rng.choice(legal))
            continue
        taken = legal[rng.randrange(len(legal))]
        counts = taken.args[0].split("-")
        tries = []
        for other in g.to_act:
            if other != seat:     # tried first: offered to the other seat last, the plan it took last
                theirs = g.legal_actions(other)
                tries.append(("theirs", theirs[rng.randrange(len(theirs))]))
                break
        tries += [("older", a) for a in older[-4:]]
        tries += [("copy", affresco.Action(taken.kind, taken.args)),
                  ("typed", "plan " + "-".join(["4"] + counts[1:])),                 # 4 in a column of 3 spaces
                  ("typed", "plan " + " ".join(("-".join(["0"] * len(counts)),) + taken.args[1:])),
                  ("typed", str(taken))]
        before = g.to_json()
        for what, plan in tries:
            if what != "theirs":
                g.legal_actions(seat)        # offered to the seat again, its plan taken last
                legal[legal.index(taken)]
            trial, by_text = g.clone(), g.clone()
            ok = _accepted(trial, seat, plan)
            assert ok == (affresco.parse(str(plan)) in legal) == _accepted(by_text, seat, str(plan))
            assert trial.to_json() == by_text.to_json() and (ok or trial.to_json() == before)
            seen[what].add(ok)
        assert g.to_json() == before
        older.append(taken)
        g.apply(seat, taken)
    assert all(seen[w] == {False, True} for w in ("older", "theirs", "typed")) and seen["copy"] == {True}


def _accepted(g: affresco.Game, seat: int, plan) -> bool:
    """Whether ``g`` accepts the plan for the seat (carried out) or refuses it."""
    try:
        g.apply(seat, plan)
    except IllegalAction:
        return False
    return True


@pytest.mark.parametrize("players,modules", [(3, ("bells", "wall_fresco")), (2, SEVEN), (4, ALL)])
def test_a_game_copied_while_a_plan_is_offered_plays_it_alike(players, modules):
    """A game copied (clone, copy, deepcopy, pickle, saved and loaded) after a seat's plans were
    offered and one taken from them: the plan is carried out alike on every copy and on the
    game, and the game plays on alike."""
    played = 0
    for game, seat, _ in lazy_planning(players, modules, seed=9, rounds=3):
        g = game.clone()
        legal = g.legal_actions(seat)
        plan = legal[random.Random(len(legal)).randrange(len(legal))]
        copies = [g.clone(), copy.copy(g), copy.deepcopy(g), pickle.loads(pickle.dumps(g)),
                  affresco.Game.from_json(g.to_json())]
        g.apply(seat, plan)
        for c in copies:
            c.apply(seat, plan)
            assert c.to_json() == g.to_json()
        for c in (g, *copies):
            while c.phase == "plan":
                who = c.to_act[0]
                c.apply(who, random.Random(len(c.to_json())).choice(c.legal_actions(who)))
        assert len({c.to_json() for c in (g, *copies)}) == 1
        played += 1
    assert played >= 3


def test_the_medico_plan_tables_made_once_give_the_plans_the_plans_themselves_give():
    """The tables of an action sheet's side made once per process (issue #12's speed: the
    group totals of every part, the ill words of every number of ill apprentices, up to three
    on the final round's side, those of more made when first met; more ill apprentices than their
    columns hold looked up as that many) count and name the plans of every situation, on both sides of the
    sheet, with and without action tiles and the medico tile, up to six ill apprentices: as
    many plans as their parents' variants counted parent by parent (the parents with any
    being those ``with_variants`` names without counting them), and at each place sampled a
    distinct plan that ``index`` (which finds the variant among its parent's ill words made
    without the tables) puts back at that place."""
    from operator import mul

    from affresco.rules.modules.medico import _ill_variants, _sheet_limits
    from affresco.rules.plan_sequences import tiled_plans
    from affresco.rules.planning import column_words_of
    from affresco.rules.state import SIDE1, SIDE2

    checked = 0
    for side in (SIDE1, SIDE2):
        allowed, market = _sheet_limits(side)
        for black in range(7):
            for healthy in range(8):
                base = tiled_plans(healthy + black, 5, 3, column_words_of(side))
                for parents in (base, base.with_tile("audience"), base.with_tile("audience").with_tile("wall", 1)):
                    for tile_ok in (False, True):
                        plans = _ill_variants(parents, (healthy, black, allowed, tile_ok, market))
                        counted = sum(sum(map(mul, parents.multiplicity(seg), plans.sizes_at(seg)))
                                      for seg in range(len(parents.segments)))
                        assert len(plans) == counted
                        assert [list(plans.with_variants(seg)) for seg in range(len(parents.segments))] == \
                            [[int(z > 0) for z in plans.sizes_at(seg)] for seg in range(len(parents.segments))]
                        rng = random.Random(len(plans) * 8 + black)
                        places = rng.sample(range(len(plans)), min(12, len(plans)))
                        assert len({plans[i] for i in places}) == len(places)
                        for i in places:
                            assert plans.index(plans[i]) == i
                        checked += 1
    assert checked == 2 * 7 * 8 * 3 * 2


def _made_anew(s, seat):
    """A seat's plans as the plan hooks make them from scratch (nothing kept by planning.options)."""
    from affresco.rules import planning
    from affresco.rules.plan_sequences import tiled_plans
    sheet = s.comp.rules["action_sheet"]
    out = tiled_plans(s.apprentices(seat), sheet["columns"], sheet["spaces_per_column"], planning.column_words(s))
    for hook in s.hooks.plan_options:
        out = hook(s, seat, out)
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_plans_kept_per_planning_situation_are_those_the_plan_hooks_make_anew(players):
    """``planning.options`` keeps each planning situation's plans (the seat's apprentices, the
    sheet's side, each module's ``plan_situation``; issue #12's speed): at every plan decision
    of random games of the module sets with plan hooks, for every seat to plan, the plans it
    gives are the very sequence the plan hooks make from scratch, and situations come again."""
    from affresco.rules import planning
    rng = random.Random(players)
    for modules in (ALL, ("bells", "wall_fresco"), ("medico",), ("bells", "medico"), ("wall_fresco", "medico", "scrolls")):
        kept = affresco.new_game(players, modules, seed=0).state.hooks.plans_kept
        assert kept is not None
        kept.clear()
        calls = 0
        for _ in range(2):
            g = affresco.new_game(players, modules, seed=rng.randrange(10**6))
            s = g.state
            while not g.is_over:
                if g.phase == "plan" and s.asks == () and s.pending is None:
                    for seat in g.to_act:
                        assert planning.options(s, seat) is _made_anew(s, seat), (modules, seat)
                        calls += 1
                g.apply(g.to_act[0], rng.choice(g.legal_actions(g.to_act[0])))
        assert 0 < len(kept) < calls


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_medico_plans_found_with_kept_tables_are_those_of_fresh_tables(players):
    """A situation's starts and parts kept by the action sheet side's tables
    (``_PlanOrder.situation``; the kinds of a group filled when first met) and the tiles' words
    kept for every TiledPlans of the same columns and tiles (issue #12's speed) give the plans
    tables made afresh give: at every medico planning decision of random games of several
    module sets, the same number of plans and, at sampled places, the same plan, made with its
    reading (what ``planning.read`` gives for its text), which ``index`` (the inverse, made
    without them) puts back at that place."""
    from affresco.rules import PlanVariants, planning
    from affresco.rules.modules import medico

    fresh: dict = {}

    rng = random.Random(players)
    checked = 0
    for modules in (ALL, ("medico",), ("bells", "medico"), ("wall_fresco", "medico", "scrolls")):
        for g, seat, legal in lazy_planning(players, modules, seed=rng.randrange(10**6), rounds=9):
            parents, limits = legal.recipe[1]
            key = (parents.per_column, limits[2], limits[4])
            if key not in fresh:
                fresh[key] = medico._PlanOrder(*key)
            anew = PlanVariants(parents, medico._IllVariants(parents, limits, fresh[key]))
            assert anew.parents is parents and len(anew) == len(legal)
            for i in rng.sample(range(len(legal)), min(12, len(legal))):
                plan = legal[i]
                assert anew[i] == plan and anew.reading(anew[i]) == planning.read(plan)
                assert legal.reading(plan) in (None, planning.read(plan))     # (None: made in full before)
                assert legal.index(plan) == i
                checked += 1
    assert checked > 200


def test_a_situation_s_parts_looked_up_in_one_pass_are_those_made_one_by_one():
    """The medico's tables give a planning situation's parts (``_PlanOrder.situation``: one
    part per set of action tiles, looked up in one pass among those made with the sheet side's
    tables; issue #12's speed) as :meth:`_PlanOrder.part` makes each, and where each set's plans
    start; a situation beyond the tables made (more healthy apprentices than the sheet's columns
    hold, a component file's) has its parts made then."""
    from itertools import accumulate

    from affresco.rules.modules import medico
    from affresco.rules.state import SIDE1, SIDE2

    for side in (SIDE1, SIDE2):
        allowed, market = medico._sheet_limits(side)
        order = medico._PlanOrder(3, allowed, market)
        for healthy in (0, 1, 5, 8, order.top + 6, order.top + 7, 40):
            for carries in ((0,), (0, 1), (0, 0, 1, 1)):
                for black in (0, 2, order.top, order.top + 3):
                    for tile in (1, 2):
                        starts, parts = order.situation(carries, healthy, black, tile)
                        made = [order.part(healthy - c, black, k.bit_count(), tile) for k, c in enumerate(carries)]
                        assert list(parts) == made, (side, healthy, carries, black, tile)
                        assert starts == tuple(accumulate((p[0][-1] for p in made), initial=0))


@pytest.mark.parametrize("final_round", [False, True])
def test_the_medico_plans_of_more_apprentices_than_the_tables_count_are_at_their_place(final_round):
    """A seat with more healthy apprentices than the ill ones' columns hold (a component file's
    apprentices: the side's tables are made up to that many and read the same plans beyond, or
    made when first met): each plan indexed in a fresh sequence (``_IllVariants.pick``) is the
    plan at that place of the sequence made in full (parent by parent, without the tables' decode),
    with that plan's reading."""
    from affresco.rules import planning
    from affresco.rules.modules import medico
    from affresco.rules.plan_sequences import tiled_plans
    from affresco.rules.state import SIDE1, SIDE2

    cols = SIDE2 if final_round else SIDE1
    allowed, market = medico._sheet_limits(cols)
    top = medico._plan_order(3, allowed, market).top
    rng = random.Random(top)
    for healthy, black in ((top + 1, 0), (top + 4, 2), (top + 9, 1)):
        parents = tiled_plans(healthy + black, len(cols), 3, planning.column_words_of(cols))
        parents = parents.with_tile("audience").with_tile("wall", 1)
        limits = (healthy, black, allowed, True, market)
        made = medico._ill_variants(parents, limits).materialized()
        for i in rng.sample(range(len(made)), 60):
            fresh = medico._ill_variants(parents, limits)
            assert len(fresh) == len(made) and fresh[i] == made[i], (healthy, black, i)
            assert fresh.reading(fresh[i]) == planning.read(made[i])
