"""R22 for encoding 3 (issue #14, "No secret in any observation"): the modules' numbers are
written straight from the engine state (``ModuleSlots``), so each is checked here against what
``view(seat)`` shows, by targeted perturbations of one secret at a time (an independent review of
the writers; the broad sweeps are tests/rules/test_observation.py's).

* One secret changed through the public JSON format (``to_json`` -> edit -> ``Game.from_dict``,
  ``from_json`` of the parsed text),
  the position kept legal (the loader takes it) and changed (the loader keeps it): another
  seat's face-down certificates (and so the certificate stack's contents), Leonardo's face-down
  certificates, the order of the certificates under the stack, another seat's scrolls, the
  portrait deck's order and contents, the favour tokens left, the bag's contents, another
  seat's Thalers and paints, the seed (every future draw: infection tile, bottle, certificate).
  The seat's ``view`` stays the same (the change is a secret) and so does its encoding-3
  vector, read from a game that has observed every seat at earlier positions (its kept
  numbers), from a fresh one, and through the wrappers' game (``Config.stepped``).
* The controls: the same kind of change to the seat's *own* items changes its view and its
  vector (a writer that wrote nothing would pass the checks above).
* Planning: another seat commits one legal plan or another (counts, audience tile, wall action
  tile, the medico's ill apprentices and tile): until the reveal the seat's vector is the
  same, the committing seat's differs; after the reveal they differ for everyone.
* Carried on: a game perturbed in a secret and the unperturbed one, played on with the same
  actions, give the seat equal vectors as long as its views are equal (incremental caches),
  and each vector equals a fresh game's at that position.
"""
from __future__ import annotations

import json
import pickle
import random

import pytest

import affresco
from affresco.envs import Config
from envs_support import ALL, swap_portrait_card

ENC = 3
ALONE = ("bells", "wall_fresco", "medico", "scrolls", "requests", "portraits")
CASES = [(2, ALL), (3, ALL), (4, ALL)] + [(2 + i % 3, (m,)) for i, m in enumerate(ALONE)]


def _id(c) -> str:
    n, mods = c
    return f"{n}p-{'all' if mods == ALL else '+'.join(mods)}"


def _load(d: dict) -> affresco.Game:
    """The edited saved state, loaded (``from_dict``: the same loader and checks as ``from_json``
    of its text, without writing the text and parsing it again: issue #12's CI time)."""
    return affresco.Game.from_dict(d)


def _positions(n: int, mods: tuple, seed: int, every: int, most: int):
    """Up to ``most`` positions of a seeded random game: every ``every``-th, and in each round
    the first planning position where a seat has committed and another has not."""
    g = affresco.new_game(n, mods, seed=seed)
    rng = random.Random(seed)
    i, planned, k = 0, 0, 0
    while not g.is_over and k < most:
        committed = g.phase == "plan" and 0 < len(g.to_act) < n
        if i % every == 0 or (committed and planned < g.round):
            planned = g.round if committed else planned
            for seat in range(n):          # the game keeps numbers from earlier positions
                g.observation(seat, encoding=ENC)
            yield g
            k += 1
        seat = rng.choice(g.to_act)
        g.apply(seat, rng.choice(g.legal_actions(seat)))
        i += 1


# --- one secret at a time, through the JSON format ---------------------------------------------

def _other(n: int, seat: int) -> int:
    return (seat + 1) % n


def _swap_face_down(d: dict, f: int) -> bool:
    """Figure ``f``'s first face-down certificate swapped with a different one of the stack
    (its count stays; which ones, and the stack's contents, change)."""
    b = d["modules_state"]["bells"]
    down = b["holdings"][f]["face_down"]
    for i, c in enumerate(b["stack"]):
        if down and c != down[0]:
            down[0], b["stack"][i] = c, down[0]
            return True
    return False


def _reverse(lst: list) -> bool:
    if lst == lst[::-1]:
        return False
    lst.reverse()
    return True


def _scroll(d: dict, f: int) -> bool:
    s = d["modules_state"]["scrolls"][f]
    done = False
    if s.get("row"):
        s["row"] = s["row"] % 5 + 1
        done = True
    if s.get("column"):
        s["column"] = "ABCDE"[("ABCDE".index(s["column"]) + 1) % 5]
        done = True
    return done


def _bag(d: dict) -> bool:
    """The bag's first tile replaced by another (its count, all the view shows, stays)."""
    bag = d["market"]["bag"]
    if not bag:
        return False
    bag[0] = "RRR" if bag[0] != "RRR" else "BBB"
    return True


def _tokens(d: dict) -> bool:
    left = d["modules_state"]["bishops_favour"]
    if not left:
        return False
    left[0] = "vp:1" if left[0] != "vp:1" else "thalers:5"
    return True


def secrets_of_others(g: affresco.Game, seat: int):
    """``(name, game)``: the position with one secret ``seat`` may not see changed."""
    base = json.loads(g.to_json(pretty=False))
    n = g.players
    f = _other(n, seat)
    mods = base.get("modules_state", {})
    edits = {
        "another seat's Thalers": lambda d: d["figures"][f].update(thalers=d["figures"][f]["thalers"] + 3),
        "another seat's paints": lambda d: d["figures"][f].update(paints=d["figures"][f]["paints"] + "RB"),
        "the seed": lambda d: d.update(seed=d["seed"] + 1 if isinstance(d["seed"], int) else "other"),
        "the bag's contents": _bag,
    }
    if "bells" in mods:
        edits["another seat's face-down certificates"] = lambda d: _swap_face_down(d, f)
        if len(base["figures"]) > n:
            edits["Leonardo's face-down certificates"] = lambda d: _swap_face_down(d, n)
        edits["the order under the certificate stack"] = lambda d: _reverse(d["modules_state"]["bells"]["under"])
    if "scrolls" in mods:
        edits["another seat's scrolls"] = lambda d: _scroll(d, f)
    if "portraits" in mods:
        edits["the portrait deck's order"] = lambda d: _reverse(d["modules_state"]["portraits"]["deck"])
        edits["the portrait deck's contents"] = swap_portrait_card
    if "bishops_favour" in mods:
        edits["the favour tokens left"] = _tokens
    text = json.dumps(json.loads(g.to_json(pretty=False)), sort_keys=True)
    for name, edit in edits.items():
        d = json.loads(json.dumps(base))
        if edit(d) is not False:
            other = _load(d)
            # only a change the loader keeps: e.g. the piles drawn from at random (bells stack,
            # infection tiles, bottles, favour tokens, bag) are kept sorted, their order is no state
            if json.dumps(json.loads(other.to_json(pretty=False)), sort_keys=True) != text:
                yield name, other


def own_secrets(g: affresco.Game, seat: int):
    """``(name, game)``: the position with one of ``seat``'s own secrets changed (controls)."""
    base = json.loads(g.to_json(pretty=False))
    mods = base.get("modules_state", {})
    edits = {"own Thalers": lambda d: d["figures"][seat].update(thalers=d["figures"][seat]["thalers"] + 3)}
    if "bells" in mods:
        edits["own face-down certificates"] = lambda d: _swap_face_down(d, seat)
    if "scrolls" in mods:
        edits["own scrolls"] = lambda d: _scroll(d, seat)
    for name, edit in edits.items():
        d = json.loads(json.dumps(base))
        if edit(d) is not False:
            yield name, _load(d)


def test_the_piles_drawn_at_random_keep_no_order_so_it_cannot_show():
    """The infection tiles, the bottles' draw pile, the certificate stack, the favour tokens
    and the bag are drawn from at random (the seed: a secret checked above); their order is
    no state: a pile reversed in the JSON format loads into the same position."""
    g = next(_positions(3, ALL, seed=141, every=53, most=1))
    rng = random.Random(141)
    for _ in range(80):
        seat = rng.choice(g.to_act)
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    base = json.loads(g.to_json(pretty=False))
    piles = {"infection pile": lambda d: d["modules_state"]["medico"]["infection_pile"],
             "bottles' draw pile": lambda d: d["modules_state"]["medico"]["draw"],
             "certificate stack": lambda d: d["modules_state"]["bells"]["stack"],
             "favour tokens": lambda d: d["modules_state"]["bishops_favour"],
             "bag": lambda d: d["market"]["bag"]}
    for name, pile in piles.items():
        d = json.loads(json.dumps(base))
        assert _reverse(pile(d)), name
        assert json.loads(_load(d).to_json(pretty=False)) == base, name


#: the secrets each module's games must meet (every position has the base game's)
WANTED = {
    "bells": {"another seat's face-down certificates", "the order under the certificate stack"},
    "scrolls": {"another seat's scrolls"},
    "portraits": {"the portrait deck's order", "the portrait deck's contents"},
    "bishops_favour": {"the favour tokens left"},
}


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_no_single_secret_of_another_seat_or_pile_changes_the_seats_encoding_3_vector(case):
    """R22: which certificates a player holds face down (and the stack's contents), the piles'
    contents and orders, another seat's scrolls, Thalers and paints and the seed are not in the
    seat's view; changed one at a time, they leave its encoding-3 vector exactly the same (from
    a game that observed earlier positions and from the loaded one)."""
    n, mods = case
    config = Config.of(n, mods, encoding=ENC) if mods == ALL else None   # the wrappers' game too
    met = set()
    # (2 players see 2 bell certificates a round: the unsold ones are under the stack later)
    for g in _positions(n, mods, seed=140 + n + len(mods), every=37, most=7 if n == 2 else 5):
        for seat in range(n):
            x = g.observation(seat, encoding=ENC)
            view = g.view(seat, log=False)
            for name, other in secrets_of_others(g, seat):
                met.add(name)
                assert other.view(seat, log=False) == view, f"{name}: not a secret (the test's edit)"
                assert other.observation(seat, encoding=ENC) == x, (name, g.phase, g.round, seat)
                if config is not None:
                    assert config.stepped(other).observation(seat) == config.stepped(g).observation(seat), name
    wanted = {"another seat's Thalers", "another seat's paints", "the seed"}
    for m in mods:
        wanted |= WANTED.get(m, set())
    if "bells" in mods and n == 2:               # Leonardo plays in 2-player games
        wanted.add("Leonardo's face-down certificates")
    assert wanted <= met, wanted - met


@pytest.mark.parametrize("case", [(3, ALL), (2, ("bells",)), (2, ("scrolls",))], ids=_id)
def test_the_seats_own_secrets_change_its_encoding_3_vector(case):
    """The controls: the seat's own Thalers, face-down certificates and scrolls are in its view
    and in its vector (a writer that wrote nothing would pass the secrecy checks)."""
    n, mods = case
    met = set()
    for g in _positions(n, mods, seed=150 + n, every=41, most=4):
        for seat in range(n):
            x = g.observation(seat, encoding=ENC)
            view = g.view(seat, log=False)
            for name, other in own_secrets(g, seat):
                if other.view(seat, log=False) == view:    # e.g. the same certificate's twin swapped in
                    continue
                met.add(name)
                assert other.observation(seat, encoding=ENC) != x, (name, g.phase, g.round, seat)
    wanted = {"own Thalers"} | ({"own face-down certificates"} if "bells" in mods else set()) \
        | ({"own scrolls"} if "scrolls" in mods else set())
    assert wanted <= met, wanted - met


def test_after_the_final_scoring_every_figures_face_down_certificates_show():
    """'Final scoring reveals them all' (bells): at the end another seat's and Leonardo's
    face-down certificates are in the seat's view, and a change to them changes its vector."""
    g = affresco.new_game(2, ("bells",), seed=181)
    rng = random.Random(181)
    while not g.is_over:
        seat = rng.choice(g.to_act)
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    x = g.observation(0, encoding=ENC)
    base = json.loads(g.to_json(pretty=False))
    d = json.loads(json.dumps(base))
    hold = d["modules_state"]["bells"]["holdings"]
    other_seat, leonardo = hold[1]["face_down"], hold[2]["face_down"]    # swapped: their counts stay
    j = next(j for j, c in enumerate(leonardo) if c != other_seat[0])
    other_seat[0], leonardo[j] = leonardo[j], other_seat[0]
    other = _load(d)
    shown = other.view(0, log=False) != g.view(0, log=False)
    assert other.observation(0, encoding=ENC) != x
    assert shown


# --- planning: another seat's committed plan, until the reveal ----------------------------------

def _planning_positions(n: int, mods: tuple, seed: int, rounds: int):
    """In each of the first ``rounds`` rounds of a seeded random game: the planning position
    where the first seat to commit is about to (as a JSON text), and that seat."""
    g = affresco.new_game(n, mods, seed=seed)
    rng = random.Random(seed)
    done = 0
    while not g.is_over and done < rounds:
        if g.phase == "plan" and len(g.to_act) == n:
            yield g.to_json(pretty=False), g.to_act[0]
            done += 1
            while g.phase == "plan":
                seat = g.to_act[0]
                g.apply(seat, rng.choice(g.legal_actions(seat)))
            continue
        seat = rng.choice(g.to_act)
        g.apply(seat, rng.choice(g.legal_actions(seat)))


WORDS = ("audience", "wall", "ill", "medico")     # the modules' plan words (bells, wall fresco, medico)


def _word(action, word: str):
    """What a plan action says after ``word`` (None: not in it), up to the next module word."""
    args = action.args
    if word not in args:
        return None
    i = args.index(word) + 1
    j = i
    while j < len(args) and args[j] not in WORDS:
        j += 1
    return args[i:j]


def _two_plans(legal, rng: random.Random, word: str | None):
    """Two different legal plans: with ``word``, ones differing only in what that module word
    says (else with the same counts), where the legal plans allow it; else any two."""
    plans = list(legal)
    if word is not None:
        rest = [w for w in WORDS if w != word]
        for key in (lambda a: (a.args[0], *map(lambda w: _word(a, w), rest)), lambda a: a.args[0]):
            alike: dict = {}       # plans alike but for the word (else: with the same counts)
            for a in plans:
                alike.setdefault(key(a), []).append(a)
            groups = [g for g in alike.values() if len({_word(a, word) for a in g}) > 1]
            if groups:
                break
        if groups:
            group = rng.choice(groups)
            a = rng.choice(group)
            b = rng.choice([x for x in group if _word(x, word) != _word(a, word)])
            return a, b, word
    a, b = rng.sample(plans, 2)
    return a, b, None


@pytest.mark.parametrize("case", [(2, ALL), (3, ALL), (4, ALL), (3, ("bells",)), (4, ("wall_fresco",)),
                                  (2, ("medico",))], ids=_id)
def test_another_seats_committed_plan_and_its_module_words_stay_hidden_until_the_reveal(case):
    """R4 / R22: another seat commits one legal plan or another (counts, or the same counts
    with other module words: the audience tile's column, the wall action tile's, its ill
    apprentices and the medico tile): every other seat's encoding-3 vector is the same until
    the last plan is committed, the committing seat's differs (its own plan shows), and after
    the reveal they differ."""
    n, mods = case
    rng = random.Random(160 + n)
    revealed = 0
    words = [None] + [w for w, m in zip(WORDS, ("bells", "wall_fresco", "medico", "medico")) if m in mods]
    met = set()
    for k, (text, first) in enumerate(_planning_positions(n, mods, seed=160 + n + len(mods), rounds=5)):
        a, b = affresco.Game.from_json(text), affresco.Game.from_json(text)
        for seat in range(n):             # both games keep numbers from before the commit
            assert a.observation(seat, encoding=ENC) == b.observation(seat, encoding=ENC)
        pa, pb, word = _two_plans(a.legal_actions(first), rng, words[k % len(words)])
        met.add(word)
        a.apply(first, pa)
        b.apply(first, pb)
        while a.phase == "plan":
            for seat in range(n):
                if seat != first:
                    assert a.view(seat, log=False) == b.view(seat, log=False)
                    assert a.observation(seat, encoding=ENC) == b.observation(seat, encoding=ENC), (pa, pb, seat)
            assert a.observation(first, encoding=ENC) != b.observation(first, encoding=ENC), (pa, pb)
            seat = a.to_act[0]            # the others' legal plans are the same in both games
            act = rng.choice(a.legal_actions(seat))
            a.apply(seat, act)
            b.apply(seat, act)
        if a.view(_other(n, first), log=False) != b.view(_other(n, first), log=False):
            revealed += 1
            assert a.observation(_other(n, first), encoding=ENC) != b.observation(_other(n, first), encoding=ENC)
    assert revealed
    wanted = set(words) - {"ill", "medico"}          # the medico's words need ill apprentices or its tile's place
    if "medico" in mods:
        assert met & {"ill", "medico"}, met
    assert wanted <= met, wanted - met


# --- carried on: the incremental numbers ---------------------------------------------------------

@pytest.mark.parametrize("case,secret", [
    ((3, ALL), "another seat's face-down certificates"),
    ((3, ALL), "the seed"),
    ((4, ALL), "another seat's face-down certificates"),
    ((2, ALL), "Leonardo's face-down certificates"),
    ((3, ("bells",)), "the order under the certificate stack"),
    ((2, ("scrolls",)), "another seat's scrolls"),
    ((4, ("portraits",)), "the portrait deck's order"),
    ((4, ("portraits",)), "the portrait deck's contents"),
], ids=lambda v: _id(v) if isinstance(v, tuple) else v.replace(" ", "-").replace("'", ""))
def test_a_game_carried_on_after_a_secret_change_gives_the_seat_the_same_vectors(case, secret):
    """Incremental caches: from a position, the game with one secret of another seat (or of
    a pile) changed and the unperturbed game are played on with the same actions; while the
    seat's views are the same its vectors are (the seats looked at in different orders, one by
    one or joined, and at different steps in the two games; one game pickled on the way), and
    each equals a fresh game's at that position."""
    n, mods = case
    rng = random.Random(170 + n)
    compared = tried = 0
    for g in _positions(n, mods, seed=170 + n + len(mods), every=19, most=30):
        seat = rng.randrange(n)
        if tried == 3 or g.round < 2:
            continue
        other = dict(secrets_of_others(g, seat)).get(secret)
        if other is None:
            continue
        tried += 1
        a = affresco.Game.from_json(g.to_json(pretty=False))
        b = other
        for step in range(40):
            if a.is_over or a.view(seat, log=False) != b.view(seat, log=False):
                break
            if step % 2:                               # a: every seat, in turn or joined; b: the seat, now and then
                for s in range(n):
                    a.observation((seat + s) % n, encoding=ENC)
                x = a.observation(seat, encoding=ENC)
            else:
                joined = a.observations_joined(encoding=ENC)
                size = len(joined) // n
                x = joined[seat * size:(seat + 1) * size]
            if step % 3 == 0:
                assert b.observation(seat, encoding=ENC) == x, (secret, step, a.phase)
                compared += 1
            if step % 7 == 0:
                fresh = affresco.Game.from_json(b.to_json(pretty=False))
                assert fresh.observation(seat, encoding=ENC) == b.observation(seat, encoding=ENC), (secret, step)
            if step == 10:                             # b pickled mid-game (vector envs): its kept numbers stay behind
                before = [b.observation(s, encoding=ENC) for s in range(n)]
                b = pickle.loads(pickle.dumps(b))
                assert [b.observation(s, encoding=ENC) for s in range(n)] == before, secret
            who = rng.choice(a.to_act)
            act = rng.choice(a.legal_actions(who))
            if who not in b.to_act:
                break
            try:
                b.apply(who, act)
            except affresco.IllegalAction:      # the games part (a public consequence): stop here
                break
            a.apply(who, act)
    assert compared >= 3, compared
