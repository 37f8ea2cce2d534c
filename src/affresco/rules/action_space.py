"""Every action a set-up can ever offer, in one fixed order (docs/envs.md, "action space").

:func:`action_space` lists, for a player count, module list, rule options and component
edition, every :class:`Action` that :meth:`Game.legal_actions` can ever return in such a game
(a superset: many entries are legal only in rare positions, some never).  The order is
fixed and versioned (:data:`VERSION`), so a position in the list is a stable action index
for learning code (``affresco.envs``).  The base game's forms come first, in notation order
(docs/notation.md); then each module, in the canonical module order, adds its own kinds and
its variants of base kinds through the hook :meth:`Module.action_space`.

A new module slots in by implementing that hook; ``tests/test_action_space.py`` plays random
games of every registered module and fails, naming the action, if a legal action is missing.
"""
from __future__ import annotations

from itertools import combinations, combinations_with_replacement, product

from .actions import PASS, Action, tile_text_key
from .board import NAMES
from .components import Components, FrescoTile
from .market import BOOTHS, tile_key
from .paints import PAINTS

__all__ = ["VERSION", "ActionSpace", "action_space"]

# Bump when the order or content of the space changes (1: the bells joined; the wall's plans
# combine with the audience tile).
VERSION = 1


class ActionSpace:
    """What a module's :meth:`~affresco.rules.hooks.Module.action_space` hook extends: the
    actions so far (``actions``, append to it), the set-up (``players``, ``comp``,
    ``options``) and every fresco tile the set-up can show (``fresco_tiles``)."""

    __slots__ = ("players", "comp", "options", "fresco_tiles", "actions")

    def __init__(self, players: int, comp: Components, options: dict, fresco_tiles: tuple[FrescoTile, ...]):
        self.players = players
        self.comp = comp
        self.options = options
        self.fresco_tiles = fresco_tiles
        self.actions: list[Action] = []

    def tile_texts(self, tiles=None) -> list[str]:
        """Texts of ``tiles`` (default: every fresco tile of the set-up), one per tile, in
        notation order (duplicates kept: two tiles may read the same)."""
        from .view import tile_text
        return sorted((tile_text(t) for t in (self.fresco_tiles if tiles is None else tiles)), key=tile_text_key)

    def restores(self) -> list[Action]:
        return [a for a in self.actions if a.kind == "restore"]

    def plans(self) -> list[Action]:
        return [a for a in self.actions if a.kind == "plan"]

    @staticmethod
    def column_words() -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The plan words naming the action sheet's columns (planning.column_words): on side 1
        (every round but the last) and on side 2 (the final round, 'cathedral2')."""
        from .planning import column_words_of
        from .state import SIDE1, SIDE2
        return column_words_of(SIDE1), column_words_of(SIDE2)


def _multisets(items: list, k: int) -> list[tuple]:
    """Distinct k-combinations of ``items`` (a sorted list that may repeat), in order."""
    seen, out = set(), []
    for combo in combinations(items, k):
        if combo not in seen:
            seen.add(combo)
            out.append(combo)
    return out


def _base(sp: ActionSpace) -> None:
    comp, n, out = sp.comp, sp.players, sp.actions
    sheet = comp.rules["action_sheet"]
    out.extend(Action("getup", (h.time,)) for h in comp.hostel)
    for counts in product(range(sheet["spaces_per_column"] + 1), repeat=sheet["columns"]):
        out.append(Action("plan", ("-".join(map(str, counts)),)))
    removed = set(comp.removed_for_3) if n == 3 else set()
    tiles = sorted((t.paints for i, t in enumerate(comp.market_tiles) if i not in removed), key=tile_key)
    sizes = comp.booths[n]
    for b, size in enumerate(sizes):
        for k in range(1, min(size, sheet["spaces_per_column"]) + 1):
            out.extend(Action("buy", (BOOTHS[b], *combo)) for combo in _multisets(tiles, k))
    out.extend(Action("close", (BOOTHS[b],)) for b in range(len(sizes)))
    for seg in NAMES:
        out.append(Action("restore", (seg,)))
        out.extend(Action("restore", (seg, "bishop", to)) for to in NAMES)
    out.extend(Action("altar", ("".join(c),)) for c in combinations_with_replacement(PAINTS, 3))
    out.append(Action("studio"))
    out.extend(Action("blend", (o,)) for o in sorted(comp.blends, key=PAINTS.index))
    out.append(Action("theater"))
    out.extend((Action("track", ("behind",)), Action("track", ("ahead",))))
    out.append(PASS)


_CACHE: dict[tuple, tuple[Action, ...]] = {}


def _build(players: int, modules: tuple[str, ...], options: tuple, comp: Components) -> tuple[Action, ...]:
    from .game import _hooks_for
    hooks = _hooks_for(modules, dict(options), comp)
    lacking = [m.name for m in hooks if not m.fixed_action_space]
    if lacking:
        from ..errors import ConfigError
        raise ConfigError(f"no fixed action space yet for the module(s) {', '.join(lacking)}; "
                          f"modules with one: {', '.join(supported_modules())}")
    extra = tuple(t for m in hooks for t in m.fresco_tiles())
    sp = ActionSpace(players, comp, dict(options), tuple(comp.fresco_tiles) + extra)
    _base(sp)
    for m in hooks:
        m.action_space(sp)
    seen, out = set(), []
    for a in sp.actions:
        if a not in seen:
            seen.add(a)
            out.append(a)
    return tuple(out)


def action_space(players: int, modules=(), options=None, components: Components | None = None) -> tuple[Action, ...]:
    """Every action a game of this set-up can offer, in the fixed order (see module doc)."""
    from .components import reference
    from .hooks import ordered
    comp = components if components is not None else reference()
    key = (players, tuple(ordered(modules)), tuple(sorted((options or {}).items())), comp.digest)
    if key not in _CACHE:
        if len(_CACHE) > 64:
            _CACHE.clear()
        _CACHE[key] = _build(*key[:3], comp)
    return _CACHE[key]


def supported_modules() -> tuple[str, ...]:
    """The modules whose actions the fixed action space lists (the environments accept these)."""
    from .hooks import MODULES, ordered
    return tuple(ordered(m for m, cls in MODULES.items() if cls.fixed_action_space))
