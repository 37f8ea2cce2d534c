"""The fixed action index space (rules/action_space.py): every legal action of a set-up is in
it, in an order that does not depend on the seed, and every entry is valid notation."""
import random

import pytest

import affresco
from affresco.errors import ConfigError
from affresco.rules.action_space import VERSION, action_space, supported_modules

SETUPS = [(n, ()) for n in (2, 3, 4)] + [(n, (m,)) for n in (2, 4) for m in sorted(supported_modules())] + \
         [(n, tuple(sorted(supported_modules()))) for n in (2, 3, 4)]


def _play(n, modules, seed, options=None):
    g = affresco.new_game(n, modules, seed=seed, options=options)
    rng = random.Random(seed)
    while not g.is_over:
        for seat in g.to_act:
            if seat in g.to_act:
                yield g, seat, g.legal_actions(seat)
                g.apply(seat, rng.choice(g.legal_actions(seat)))


@pytest.mark.parametrize("n,modules", SETUPS, ids=lambda x: str(x))
def test_every_legal_action_is_in_the_space(n, modules):
    space = set(affresco.new_game(n, modules, seed=0).action_space())
    for seed in range(2):
        for g, seat, legal in _play(n, modules, seed):
            missing = [str(a) for a in legal if a not in space]
            assert not missing, f"{n} players {modules}: not in the action space: {missing}"


def test_the_special_colours_option_adds_paying_with_substitutes():
    opts = {"special_colours_on_fresco": True}
    space = set(action_space(2, ("special_colours",), opts))
    seen_using = False
    for seed in range(3):
        for g, seat, legal in _play(2, ("special_colours",), seed, opts):
            assert all(a in space for a in legal)
            seen_using |= any("using" in a.args for a in legal)
    assert seen_using
    assert affresco.parse("restore C3 bishop D2 using KNY") in space


def test_the_order_is_fixed_and_independent_of_the_seed():
    a = affresco.new_game(4, ("portraits",), seed=1).action_space()
    b = affresco.new_game(4, ("portraits",), seed=99).action_space()
    assert a == b and len(set(a)) == len(a)
    assert a[:5] == tuple(affresco.parse(f"getup {t}:00") for t in (5, 6, 7, 8, 9))
    assert VERSION == 1


def test_every_entry_is_notation_that_reads_back():
    every = action_space(4, tuple(supported_modules()))
    for a in every:
        assert affresco.parse(str(a)) == a
    seen = set(every)
    for n in (2, 3):   # the entries of the other player counts (their booths)
        for a in action_space(n, tuple(supported_modules())):
            if a not in seen:
                assert affresco.parse(str(a)) == a


def test_modules_extend_the_base_space_and_keep_its_prefix():
    base = action_space(4)
    every = action_space(4, tuple(supported_modules()))
    assert every[:len(base)] == base
    kinds = {a.kind for a in every[len(base):]}
    assert {"portrait", "request", "income", "scroll"} <= kinds


def test_every_module_is_in_the_fixed_action_space():
    assert set(supported_modules()) == set(affresco.MODULES)


def test_a_module_without_a_fixed_action_space_is_refused_with_the_supported_list(monkeypatch):
    from affresco.rules import action_space as module
    monkeypatch.setattr(affresco.MODULES["bells"], "fixed_action_space", False)
    monkeypatch.setattr(module, "_CACHE", {})
    with pytest.raises(ConfigError, match="no fixed action space yet for the module.s. bells; modules with one: portraits"):
        action_space(2, ("bells",))


def test_bells_every_audience_and_deposit_is_bounded_by_the_certificates():
    """'buy ... in full ... or in instalments (any amount from 0 to price-1)'; paying more from
    behind the screen up to what is owed: the entries follow the component data's prices."""
    from affresco.rules.components import reference
    from affresco.rules.modules import module_data
    from affresco.rules.modules.bells import cert
    space = action_space(3, ("bells",))
    certs = sorted(set(module_data("bells", reference()).certificates), key=cert)
    audience = {a for a in space if a.kind == "audience"}
    deposit = {a for a in space if a.kind == "deposit"}
    assert len(audience) == sum(cert(c)[0] + 1 for c in certs)
    assert len(deposit) == 1 + sum(cert(c)[0] for c in certs)
    top = certs[-1]
    price = cert(top)[0]
    assert affresco.parse(f"audience {top} pay {price - 1}") in audience
    assert affresco.parse(f"audience {top} pay {price}") not in audience
    assert affresco.parse(f"deposit {top} {price}") in deposit and affresco.parse(f"deposit {top} 0") not in deposit
    assert affresco.parse("deposit none") in deposit


def test_bells_the_audience_tile_covers_an_empty_column_of_either_side_of_the_sheet():
    """'cover one location column during planning ... no apprentice may go to that column';
    the final round's sheet names its second cathedral column 'cathedral2'."""
    space = set(action_space(2, ("bells", "wall_fresco")))
    assert affresco.parse("plan 1-2-0-1-1 audience studio") in space
    assert affresco.parse("plan 1-2-1-1-0 audience cathedral2") in space
    assert affresco.parse("plan 1-2-0-0-1 audience studio wall workshop") in space
    assert affresco.parse("plan 1-2-1-0-0 audience cathedral2 wall workshop") in space
    assert affresco.parse("plan 1-2-1-1-0 audience theater wall cathedral2") not in space   # two sides mixed
    assert affresco.parse("plan 1-2-1-1-1 audience studio") not in space


def test_bells_decisions_of_random_games_are_in_the_space():
    space = set(action_space(2, ("bells",)))
    seen = set()
    for seed in range(3):
        for g, seat, legal in _play(2, ("bells",), seed):
            for a in legal:
                assert a in space, str(a)
                if a.kind in ("audience", "deposit") or (a.kind == "plan" and "audience" in a.args):
                    seen.add(a.kind if a.kind != "plan" else "plan audience")
    assert seen == {"audience", "deposit", "plan audience"}
