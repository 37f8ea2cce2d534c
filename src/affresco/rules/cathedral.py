"""Cathedral: restore a segment of the fresco or the altar (R6, R7).

Each cathedral apprentice restores one segment (the paints shown, exactly) or the altar.
Before a segment restoration the player may move the bishop one step in any of 8 directions
for 1 Thaler.  Bishop bonus: +3 on the segment, +2 if adjacent; then the bishop stands on
the restored segment.  The restoration with its bonus is one VP-track move (R8).
"""
from __future__ import annotations

from functools import lru_cache, reduce
from itertools import combinations_with_replacement, compress
from operator import and_, getitem
from typing import Final

from . import track
from .actions import PASS, Action
from .board import CELLS, INDEX, NAMES, NEIGHBOURS8
from .memo import IdentityMemo
from .paints import BASIC, BLENDED, PAINTS, covers, covers8, minus, paint_vector
from .state import State
from .view import tile_text


def start(s: State, fig: int, count: int) -> None:
    s.left = count


def bishop_bonus(s: State, segment: int, fig: int) -> int:
    c = s.comp.rules["cathedral"]
    if s.bishop == segment:
        bonus = c["bishop_on_segment"]
    elif s.bishop in NEIGHBOURS8[segment]:
        bonus = c["bishop_adjacent"]
    else:
        return 0
    for hook in s.hooks.bishop_bonus:
        bonus = hook(s, fig, bonus)
    return bonus


def restore_actions(s: State, fig: int) -> list[Action]:
    """Every segment the player can pay for, without or with a one-step bishop move first;
    'using PAINTS' names a payment other than the paints shown (modules)."""
    if s.hooks.payments:
        return _restore_actions_paid(s, fig)
    out: list[Action] = []
    have = s.paints[fig]
    table = _RESTORE_MOVING[s.bishop] if s.thalers[fig] >= s.comp.rules["cathedral"]["bishop_move_cost"] \
        else _RESTORE
    payable = _PAYABLE.get(have)
    if payable is None:
        if len(_PAYABLE) > 8192:
            _PAYABLE.clear()
        payable = _PAYABLE[have] = {}
    for i, tile in enumerate(s.fresco):
        if tile is not None:
            ok = payable.get(tile.paints)
            if ok is None:
                ok = payable[tile.paints] = covers8(have, tile.vector)
            if ok:
                out.extend(table[i])
    return out


# paints held -> {a tile's paints: whether they cover them}
_PAYABLE: Final[dict[tuple[int, ...], dict[str, bool]]] = {}


# the restore actions of a segment: alone, and (per bishop square) with each one-step bishop move
_RESTORE: Final[tuple[tuple[Action, ...], ...]] = tuple((Action("restore", (NAMES[i],)),) for i in range(CELLS))
_RESTORE_MOVING: Final[tuple[tuple[tuple[Action, ...], ...], ...]] = tuple(
    tuple((Action("restore", (NAMES[i],)),
           *(Action("restore", (NAMES[i], "bishop", NAMES[b])) for b in NEIGHBOURS8[bishop]))
          for i in range(CELLS))
    for bishop in range(CELLS))


def _restore_actions_paid(s: State, fig: int) -> list[Action]:
    """:func:`restore_actions` when a module adds ways to pay (hook ``payments``)."""
    out = []
    have = s.paints[fig]
    can_move = s.thalers[fig] >= s.comp.rules["cathedral"]["bishop_move_cost"]
    steps = NEIGHBOURS8[s.bishop]
    for i, tile in enumerate(s.fresco):
        if tile is None:
            continue
        payments = [tile.paints] if covers(have, tile.vector) else []
        for hook in s.hooks.payments:
            hook(s, fig, tile, payments)
        for paid in payments:
            using = () if paid == tile.paints else ("using", paid)
            out.append(Action("restore", (NAMES[i], *using)))
            if can_move:
                out.extend(Action("restore", (NAMES[i], "bishop", NAMES[b], *using)) for b in steps)
    return out


def altar_values(s: State) -> tuple[dict[str, int], dict[str, int]]:
    """Bonus per substitute paint in the basic form, and in the blend form (R7)."""
    a = s.comp.rules["altar"]
    basic = {c: a["basic_substitute_bonus"] for c in BLENDED}
    blend: dict[str, int] = {}
    for hook in s.hooks.altar_values:
        hook(s, basic, blend)
    return basic, blend


def altar_forms(s: State) -> tuple:
    """The altar's forms of the set-up, as the key of :func:`_altar_score` and
    :func:`_altar_candidates`: substitutes with their bonus in the basic and in the blend form, and
    the forms' VP.  Modules' ``altar_values`` give the set-up's forms (not the position's), so
    they are read once per hook table."""
    forms = _FORMS.get(s.hooks)
    if forms is None:
        a = s.comp.rules["altar"]
        basic, blend = altar_values(s)
        forms = _FORMS.put(s.hooks, (tuple(basic.items()), tuple(blend.items()), a["basic_vp"], a["blend_vp"]))
    return forms


_FORMS: Final = IdentityMemo(256)   # hook table (one set-up, one edition) -> its altar forms


def altar_score(s: State, paints: str) -> int:
    """VP for restoring the altar with these 3 paints (the better form they satisfy), or 0."""
    return _altar_score(paints, *altar_forms(s))


@lru_cache(maxsize=4096)
def _altar_score(paints: str, basic_items: tuple, blend_items: tuple, basic_vp: int, blend_vp: int) -> int:
    basic, blend = dict(basic_items), dict(blend_items)
    a = {"basic_vp": basic_vp, "blend_vp": blend_vp}
    best = 0
    # basic form: slots R, Y, B; each may be replaced by a blended paint
    if all(paints.count(c) <= 1 for c in BASIC) and all(c in BASIC or c in basic for c in paints):
        best = a["basic_vp"] + sum(basic[c] for c in paints if c not in BASIC)
    # blend form: one each of O, G, P; each may be replaced by a special colour
    if all(paints.count(c) <= 1 for c in BLENDED) and all(c in BLENDED or c in blend for c in paints):
        best = max(best, a["blend_vp"] + sum(blend[c] for c in paints if c not in BLENDED))
    return best


def altar_actions(s: State, fig: int) -> tuple[Action, ...]:
    """The altar restorations the paints of ``fig`` pay for, in notation order (memoised by the
    paints held, then by the restorations they pay for: :class:`_AltarTable`)."""
    have = s.paints[fig]
    table = _altar_table(s)
    hit = table.by_paints.get(have)
    if hit is None:
        hit = table.held(have)
    return hit


class _AltarTable:
    """The altar restorations that score in a set-up's forms (:func:`_altar_candidates`), and per
    paint and pieces of it held (0 to 3: an altar takes 3 paints) the restorations those pieces
    leave possible, as the bits of an int (bit j: the j-th restoration): the paints held pay for
    the restorations in every one of their paints' sets (an and of one set per paint, at C
    level).  The legal ones are memoised by the paints held, then by the restorations they pay
    for (holdings that pay for the same ones, most of them, share one tuple: a holding new to the
    process costs the and, not a pass over the restorations)."""

    __slots__ = ("actions", "bits", "possible", "by_paints", "by_paid")

    def __init__(self, candidates: tuple) -> None:
        self.actions = tuple([action for _, action in candidates])
        self.bits = tuple([1 << j for j in range(len(candidates))])
        self.possible = tuple(tuple(sum(1 << j for j, (need, _) in enumerate(candidates) if need[p] <= k)
                                    for k in range(4)) for p in range(len(PAINTS)))
        self.by_paints: dict[tuple[int, ...], tuple[Action, ...]] = {}
        self.by_paid: dict[int, tuple[Action, ...]] = {}

    def held(self, have: tuple[int, ...]) -> tuple[Action, ...]:
        """The legal restorations for the paints ``have`` (kept in both memos)."""
        paid = reduce(and_, map(getitem, self.possible, map(min, have, _THREES)))
        hit = self.by_paid.get(paid)
        if hit is None:
            if len(self.by_paid) > 8192:
                self.by_paid.clear()
            hit = self.by_paid[paid] = tuple(compress(self.actions, map(paid.__and__, self.bits)))
        if len(self.by_paints) > 8192:
            self.by_paints.clear()
        self.by_paints[have] = hit
        return hit


_THREES: Final = (3,) * len(PAINTS)


def _altar_table(s: State) -> _AltarTable:
    """The altar restorations that score in the set-up's forms with their memos: per edition for
    the base game's forms, per hook table when modules change them."""
    if not s.hooks.altar_values:
        return s.comp.derived("altar_actions", _base_altar_table)
    table = _TABLES.get(s.hooks)
    if table is None:
        table = _TABLES.put(s.hooks, _AltarTable(_altar_candidates(*altar_forms(s))))
    return table


_TABLES: Final = IdentityMemo(256)   # hook table -> its altar restorations and their memos


def _base_altar_table(comp) -> _AltarTable:
    """:func:`_altar_table` of the base game's forms (no module's hook)."""
    return _AltarTable(_altar_candidates(*_base_altar_forms(comp)))


def _base_altar_forms(comp) -> tuple:
    """The altar's forms of the base game (no module's hook): the key of :func:`_altar_candidates`."""
    a = comp.rules["altar"]
    return (tuple((c, a["basic_substitute_bonus"]) for c in BLENDED), (), a["basic_vp"], a["blend_vp"])


@lru_cache(maxsize=256)
def _altar_candidates(basic_items: tuple, blend_items: tuple, basic_vp: int, blend_vp: int) -> tuple:
    """Every altar restoration that scores in these forms, in notation order (3 paints in paint
    order, the combinations in order), with the paints it takes: ``(vector, action)`` pairs."""
    out = []
    for combo in combinations_with_replacement(PAINTS, 3):
        text = "".join(combo)
        if _altar_score(text, basic_items, blend_items, basic_vp, blend_vp):
            out.append((paint_vector(text), Action("altar", (text,))))
    return tuple(out)


def legal(s: State, fig: int) -> list[Action]:
    out = [PASS]
    out += restore_actions(s, fig)
    out += altar_actions(s, fig)
    return out


def restore(s: State, fig: int, segment: int, paid: str | None) -> None:
    """Take the tile of ``segment`` for ``fig`` (who paid ``paid``; Leonardo None), score the
    tile's VP, the bishop bonus and what modules add, as ONE move on the track (R8, R18), and
    move the bishop there; the ``score`` event names each source (docs/events.md)."""
    tile = s.fresco[segment]
    sources = {"tile": tile.vp}
    bonus = bishop_bonus(s, segment, fig)
    if bonus:
        sources["bishop"] = bonus
    for hook in s.hooks.restoration_vp:
        hook(s, fig, segment, tile, paid, sources)
    bishop_on = s.bishop == segment
    s.fresco[segment] = None
    s.tiles[fig] = s.tiles[fig] + (tile,)
    s.bishop = segment
    track.gain(s, fig, sources, "restore", segment=NAMES[segment], tile=tile_text(tile))
    for hook in s.hooks.after_restore:
        hook(s, fig, segment, tile, bishop_on)
    if s.tiles_on_board() == 0:
        s.final = True  # R11: the fresco is complete, this round is the last


def apply(s: State, fig: int, action: Action) -> None:
    """'altar P P P', or 'restore SEG' with optional 'bishop SEG' (one step for 1 Thaler) and
    'using PAINTS' (the paints paid, when a module lets others replace those shown)."""
    if action.kind == "altar":
        text = action.args[0]
        s.paints[fig] = minus(s.paints[fig], paint_vector(text))
        track.gain(s, fig, {"altar": altar_score(s, text)}, "altar", paid=text)
    else:
        segment = INDEX[action.args[0]]
        extra = dict(zip(action.args[1::2], action.args[2::2]))
        if "bishop" in extra:
            s.thalers[fig] -= s.comp.rules["cathedral"]["bishop_move_cost"]
            s.bishop = INDEX[extra["bishop"]]
            s.add_event({"kind": "bishop_move", "figure": fig, "segment": extra["bishop"], "sexton": False})
        tile = s.fresco[segment]
        paid = extra.get("using", tile.paints)
        s.paints[fig] = minus(s.paints[fig], paint_vector(paid))
        restore(s, fig, segment, paid)
    s.left -= 1
