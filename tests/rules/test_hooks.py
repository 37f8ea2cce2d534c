"""Modules plug into the round through named hooks (rules/hooks.py), not through ifs."""
import random

import pytest

import affresco
from affresco.rules.hooks import MODULES, HookTable, Module, own


class Tithe(Module):
    """A test module touching several hook points."""

    name = "tithe"

    def setup(self, state, rng):
        state.mods["tithe"] = 0

    def after_getup(self, state, fig):
        state.mods["tithe"] += 1

    def income(self, state, seat):
        return 100

    def is_final_round(self, state):
        return state.round >= 2

    def view(self, state, seat, out):
        out["tithe"] = state.mods["tithe"]

    def theater_steps(self, state, fig, per):
        return 1


@pytest.fixture
def tithe():
    MODULES["tithe"] = Tithe
    yield
    del MODULES["tithe"]


def play_out(g, seed=0):
    rng = random.Random(seed)
    while not g.is_over:
        seat = g.to_act[0]
        g.apply(seat, rng.choice(g.legal_actions(seat)))


def test_hooks_are_called_at_their_points(tithe):
    g = affresco.new_game(3, modules=("tithe",), seed=5)
    assert g.view(0)["tithe"] == 0
    for _ in range(3):
        seat = g.to_act[0]
        g.apply(seat, g.legal_actions(seat)[0])
    assert g.view(None)["tithe"] == 3          # after_getup, once per figure
    play_out(g)
    assert g.round == 2                        # the module's end condition made round 2 final
    assert g.state.side2
    # income after round 1 included the module's 100 Thalers
    incomes = [e["amount"] for e in g.events(None) if e["kind"] == "income"]
    assert len(incomes) == 3 and all(i >= 100 for i in incomes)


def test_unknown_module_and_option_are_refused():
    with pytest.raises(affresco.ConfigError, match="unknown module 'nonesuch'"):
        affresco.new_game(3, modules=("nonesuch",))
    with pytest.raises(affresco.ConfigError, match="unknown rule option"):
        affresco.new_game(3, options={"house_rule": True})


def test_an_option_without_its_module_names_the_module_it_needs():
    """A module's rule option in a game without that module is refused saying which module it
    needs (not 'unknown': the option exists)."""
    with pytest.raises(affresco.ConfigError, match="'special_colours_on_fresco' belongs to the module "
                                                   "'special_colours'.*modules: portraits"):
        affresco.new_game(3, modules=("portraits",), options={"special_colours_on_fresco": True})
    assert affresco.new_game(3, modules=("special_colours",), options={"special_colours_on_fresco": True})


@pytest.mark.parametrize("players", [1, 5, 0, True, "four", ["a"], ["a", "a"], ["", "b"], ["Leonardo", "b"]])
def test_bad_player_arguments(players):
    with pytest.raises(affresco.ConfigError):
        affresco.new_game(players)


def test_bad_seed():
    with pytest.raises(affresco.ConfigError):
        affresco.new_game(3, seed=1.5)


def test_seed_is_chosen_and_kept_when_omitted():
    g = affresco.new_game(4)
    assert isinstance(g.seed, int)
    assert affresco.replay(g.record()).to_json() == g.to_json()


class Bell(Module):
    """A test module using the planning and turn hook points: a plan word 'bell <column>' gives
    the figure a turn at that column with no apprentice there, recorded in the module state."""

    name = "bell"
    plan_words = ("bell",)

    def setup(self, state, rng):
        state.mods["bell"] = {"plans": {}, "turns": [], "after": [], "columns": [], "revealed": 0}

    def plan_options(self, state, seat, plans):
        return plans + tuple(affresco.Action("plan", ("0-0-0-0-0", "bell", c)) for c in ("studio", "workshop"))

    def plan_refusal(self, state, seat, counts, words):
        if "bell" in words and words["bell"][0] not in state.columns():
            return f"'bell' names a column: {', '.join(state.columns())}"
        return None

    def plan_apply(self, state, seat, counts, words):
        if "bell" in words:
            state.mods["bell"]["plans"][seat] = words["bell"][0]

    def after_planning(self, state):
        state.mods["bell"]["revealed"] += 1

    def visit_start(self, state, fig, column, count):
        if state.mods["bell"]["plans"].get(fig) == column:
            state.mods["bell"]["turns"].append((fig, column, count))
            return True
        return False

    def after_visit(self, state, fig, column):
        state.mods["bell"]["after"].append((fig, column))

    def after_location(self, state, column, index):
        state.mods["bell"]["columns"].append(index)


@pytest.fixture
def bell():
    from affresco.rules.actions import plan_word
    MODULES["bell"] = Bell
    plan_word("bell", 1, 99)
    yield
    del MODULES["bell"]


def test_planning_and_turn_hooks(bell):
    """A module's plan word is legal only with the module, refused with its reason, kept at
    the commit; the figure gets a turn at the named column with no apprentice there; every
    turn ends with after_visit and every column with after_location, in sheet order."""
    g = affresco.new_game(3, modules=("bell",), seed=5)
    while g.phase == "getup":
        seat = g.to_act[0]
        g.apply(seat, g.legal_actions(seat)[0])
    assert "plan 0-0-0-0-0 bell studio" in {str(a) for a in g.legal_actions(0)}
    with pytest.raises(affresco.IllegalAction, match="'bell' names a column"):
        g.apply(0, "plan 0-0-0-0-0 bell attic")
    g.apply(0, "plan 0-0-0-0-0 bell studio")
    g.apply(1, "plan 0-0-0-0-1")
    g.apply(2, "plan 0-0-0-0-0")
    m = g.state.mods["bell"]
    assert m["revealed"] == 1
    assert m["turns"] == [(0, "studio", 0)]
    assert m["after"] == [(0, "studio")] and m["columns"] == [0, 1, 2, 3]
    g.apply(1, "theater")                      # the last turn of the round
    m = g.state.mods["bell"]
    assert m["after"] == [(0, "studio"), (1, "theater")] and m["columns"] == [0, 1, 2, 3, 4]
    plain = affresco.new_game(3, seed=5)
    while plain.phase == "getup":
        seat = plain.to_act[0]
        plain.apply(seat, plain.legal_actions(seat)[0])
    with pytest.raises(affresco.IllegalAction, match="not a plan word"):
        plain.apply(0, "plan 0-0-0-0-0 bell studio")


class Easel(Module):
    """A test module whose visit_actions hook names its one column (Module.visit_columns)."""

    name = "easel"
    visit_columns = ("studio",)
    action_kinds = ("studio",)

    def setup(self, state, rng):
        state.mods["easel"] = {"seen": set(), "applied": set()}

    def visit_actions(self, state, fig, column, actions):
        state.mods["easel"]["seen"].add(column)

    def apply_action(self, state, fig, action):
        state.mods["easel"]["applied"].add(action.kind)
        return False


@pytest.fixture
def easel():
    MODULES["easel"] = Easel
    yield
    del MODULES["easel"]


def test_visit_hooks_only_where_the_module_acts(easel):
    """The hook table calls a module's visit_actions only at its visit_columns and its
    apply_action only for its action_kinds; the game is the base game's otherwise."""
    g = affresco.new_game(3, modules=("easel",), seed=7)
    plain = affresco.new_game(3, seed=7)
    play_out(g, 3)
    play_out(plain, 3)
    assert g.state.mods["easel"] == {"seen": {"studio"}, "applied": {"studio"}}
    assert g.history() == plain.history()


class Lantern(Module):
    """A test module whose visit_start acts only where the figure has no apprentice
    (Module.busy_columns empty), one that acts everywhere, and one that acts at the studio's
    busy turns and the market's and the last column's empty ones."""

    name = "lantern"
    busy_columns: tuple[int, ...] | None = ()

    def setup(self, state, rng):
        state.mods[self.name] = []

    def visit_start(self, state, fig, column, count):
        state.mods[self.name].append((state.loc, count))
        return False


class Lamp(Lantern):
    name = "lamp"
    busy_columns = None


class Torch(Lantern):
    name = "torch"
    busy_columns = (2,)
    empty_columns = (0, -1)


def test_visit_start_only_at_the_turns_the_module_names():
    """The hook table calls a module's visit_start only at the columns its ``busy_columns``
    name (by index, negative from the last) where the figure has apprentices, and at those its
    ``empty_columns`` name where it has none; with neither, at every turn."""
    MODULES["lantern"], MODULES["lamp"], MODULES["torch"] = Lantern, Lamp, Torch
    try:
        g = affresco.new_game(3, modules=("lantern", "lamp", "torch"), seed=3)
        play_out(g, 3)
        empty, every, some = g.state.mods["lantern"], g.state.mods["lamp"], g.state.mods["torch"]
        assert empty and {count for _, count in empty} == {0}
        assert len(every) > len(empty) and [x for x in every if x[1] == 0] == empty
        assert some == [(i, n) for i, n in every if (i == 2 and n) or (i in (0, 4) and not n)]
        assert {i for i, n in some if n} == {2} and {i for i, n in some if not n} == {0, 4}
        assert [h.__self__.name for h in g.state.hooks.visit_start_at[2][0]] == ["lamp", "torch"]
        assert [h.__self__.name for h in g.state.hooks.visit_start_at[0][1]] == ["lantern", "lamp", "torch"]
        assert [h.__self__.name for h in g.state.hooks.visit_start_at[1][1]] == ["lantern", "lamp"]
    finally:
        del MODULES["lantern"], MODULES["lamp"], MODULES["torch"]


def test_games_of_one_setup_share_one_hook_table(easel):
    """Modules keep no game state: the games of one set-up share one hook table; another
    set-up, or another class registered under the name, gets its own."""
    eight = ("portraits", "requests", "special_colours", "scrolls", "bishops_favour", "bells", "wall_fresco", "medico")
    a, b = affresco.new_game(4, modules=eight, seed=1), affresco.new_game(2, modules=eight, seed=2)
    assert a.state.hooks is b.state.hooks
    on = affresco.new_game(4, modules=eight, seed=1, options={"special_colours_on_fresco": True})
    assert on.state.hooks is not a.state.hooks
    first = affresco.new_game(3, modules=("easel",), seed=1).state.hooks
    MODULES["easel"] = type("Easel2", (Easel,), {})
    assert affresco.new_game(3, modules=("easel",), seed=1).state.hooks[0].__class__.__name__ == "Easel2"
    assert first[0].__class__ is Easel


def test_idle_hooks_leave_the_hook_table():
    """Special colours without their option never replace a paint on a fresco tile: its
    payments and restoration_vp hooks are left out (the cathedral keeps its fast path); an idle
    plan_situation still counts as given."""
    off = affresco.new_game(3, modules=("special_colours",), seed=1).state.hooks
    on = affresco.new_game(3, modules=("special_colours",), seed=1,
                           options={"special_colours_on_fresco": True}).state.hooks
    assert off.payments == () and off.restoration_vp == ()
    assert len(on.payments) == 1 and len(on.restoration_vp) == 1
    # the wall fresco's plan situation is the same everywhere: out of the planning memo's key,
    # which is still kept (every module with plan options gives a situation)
    wall = affresco.new_game(3, modules=("bells", "wall_fresco"), seed=1).state.hooks
    assert [h.__self__.name for h in wall.plan_situation] == ["bells"] and wall.plans_kept is not None


def test_a_clone_and_its_original_write_their_module_states_apart():
    """Module states are written in place by the state that owns them (hooks.ModuleState,
    Module.own): a clone shares them with its original until either writes, so moves on the
    clone leave the original's saved state as it was, and the other way round."""
    eight = ("portraits", "requests", "special_colours", "scrolls", "bishops_favour", "bells", "wall_fresco", "medico")

    def play(g, rng, moves):
        for _ in range(moves):
            if g.is_over:
                return
            seat = rng.choice(g.to_act)
            g.apply(seat, rng.choice(g.legal_actions(seat)))

    g = affresco.new_game(players=4, seed=11, modules=eight)
    play(g, random.Random(1), 150)
    saved = g.to_json()
    c = g.clone()
    play(c, random.Random(2), 150)
    assert g.to_json() == saved
    moved = c.to_json()
    play(g, random.Random(3), 150)
    assert c.to_json() == moved
    assert affresco.Game.from_json(moved).to_json() == moved


EIGHT = ("portraits", "requests", "special_colours", "scrolls", "bishops_favour", "bells", "wall_fresco", "medico")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_modules_visit_start_columns_leave_out_only_turns_where_they_do_nothing(players):
    """The bells', the wall fresco's and the medico's ``busy_columns`` / ``empty_columns`` name
    every turn at which their visit_start changes anything, and the medico's
    ``after_visit_columns`` (not the theater) and ``after_action_columns`` (the workshop) every
    column where its after_visit and after_action do: random games of all eight modules are the
    same, state and legal actions at every decision, as with every visit_start, after_visit and
    after_action hook called at every turn (a hook table whose ``visit_start_at``,
    ``after_visit_at`` and ``after_action_at`` list them all everywhere).
    States are compared as compact JSON (the same state as the indented text:
    test_serialization.py; the indented text's pure-Python encoder was 85% of this test)."""
    for seed in range(1, 4):
        filtered = affresco.new_game(players, modules=EIGHT, seed=seed)
        full = affresco.new_game(players, modules=EIGHT, seed=seed)
        every = HookTable(full.state.hooks.modules)
        every.visit_start_at = tuple((every.visit_start, every.visit_start) for _ in every.visit_start_at)
        every.after_visit_at = tuple(tuple(every.after_visit for _ in side) for side in every.after_visit_at)
        every.after_action_at = tuple(tuple(every.after_action for _ in side) for side in every.after_action_at)
        full.state.hooks = every
        assert len(every.visit_start_at[1][1]) == 3 > len(filtered.state.hooks.visit_start_at[1][1])
        assert filtered.state.hooks.after_visit_at[False][4] == () and filtered.state.hooks.after_visit_at[True][4]
        choice = random.Random(seed).choice
        while not full.is_over:
            assert full.to_json(pretty=False) == filtered.to_json(pretty=False)
            seat = choice(full.to_act)
            legal = full.legal_actions(seat)
            assert [str(a) for a in legal] == [str(a) for a in filtered.legal_actions(seat)]
            action = choice(legal)
            full.apply(seat, action)
            filtered.apply(seat, action)
        assert filtered.is_over and full.record() == filtered.record()


def test_own_copies_a_module_state_shared_with_a_clone_before_it_is_written():
    """A clone shares its original's module states until either writes one (``hooks.own``): the
    writer gets its own copy, the other keeps the old record, and each write counts a version."""
    g = affresco.new_game(4, modules=("medico",), seed=3)
    c = g.clone()
    original, clone = g.state, c.state
    shared = original.mods["medico"]
    assert clone.mods["medico"] is shared
    version = shared.version
    mine = own(clone, "medico")
    assert mine is not shared and clone.mods["medico"] is mine and original.mods["medico"] is shared
    assert (mine.version, shared.version) == (1, version)
    assert own(clone, "medico") is mine and mine.version == 2      # owned now: written in place
    assert original.mods["medico"] is shared


class Banner(Module):
    """A test module with an action tile that covers a column (as the audience and wall tiles):
    its state is the column per seat, -1 none."""

    name = "banner"
    action_tile = ("banner tile", "columns")

    def load(self, state, data):
        state.mods[self.name] = list((data or {}).get("columns", [-1] * state.n))

    def dump(self, state):
        return {"columns": state.mods[self.name]}

    def covered_column(self, state, seat):
        return state.mods[self.name][seat]


def test_the_base_checks_every_modules_action_tile_on_load():
    """'cover one location on his action sheet with the ... action tile. The player cannot
    deploy apprentices to this covered location' (bells, wall fresco; W3, N26): the loader asks
    each module the column its tile covers (``Module.covered_column``, named by
    ``Module.action_tile``) and refuses an apprentice planned there, or a second tile on a
    column, for any module, naming that module's field."""
    import json
    from positions import bells_state, module_position

    MODULES["banner"] = Banner
    try:
        seats = [dict(getup="7:00", plan=[1, 1, 0, 0, 0]), dict(getup="8:00", plan=[0, 0, 0, 0, 1]),
                 dict(getup="9:00", plan=[0, 0, 0, 0, 1])]
        ms = {"bells": bells_state(3, display=["3:3:3", "2:2:1", "4:4:3"], audience={0: "studio"}),
              "banner": {"columns": [2, -1, -1]}}
        pos = module_position(3, phase="visits", modules=["bells", "banner"], seats=seats, modules_state=ms)
        with pytest.raises(affresco.StateError, match=r"modules_state\.banner\.columns\[0\]: the audience tile "
                                                      r"covers that column; two action tiles cannot cover one column"):
            affresco.Game.from_json(json.dumps(pos))
        pos["modules_state"]["banner"]["columns"] = [1, -1, -1]
        with pytest.raises(affresco.StateError, match=r"modules_state\.banner\.columns\[0\]: no apprentice may be "
                                                      r"planned in the column the banner tile covers \(cathedral\)"):
            affresco.Game.from_json(json.dumps(pos))
        pos["modules_state"]["banner"]["columns"] = [3, -1, -1]
        g = affresco.Game.from_json(json.dumps(pos))
        assert g.state.mods["banner"] == [3, -1, -1]
    finally:
        del MODULES["banner"]
