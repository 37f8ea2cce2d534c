"""Phase 2, planning: each player secretly places apprentices on the action sheet (R1, R4).

Five columns of three spaces; apprentices may be left unplaced.  Plans are secret until all
have committed and cannot be changed.  Leonardo's sheet is fixed (R13).  Modules may add
action tiles that cover a column (hooks ``plan_tiles``, ``plan_committed``): the plan then
names each placed tile and its column, 'plan 1-0-2-1-0 wall theater'.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import product

from .actions import Action
from .hooks import PlanTile
from .state import State


def column_words(s: State) -> tuple[str, ...]:
    """The columns' names in plan notation; the final round's second cathedral is 'cathedral2'."""
    return _words(s.columns())


@lru_cache(maxsize=None)
def _words(columns: tuple[str, ...]) -> tuple[str, ...]:
    out: list[str] = []
    for c in columns:
        out.append(c if c not in out else f"{c}2")
    return tuple(out)


def tiles_of(s: State, seat: int) -> tuple[PlanTile, ...]:
    out: tuple[PlanTile, ...] = ()
    for hook in s.hooks.plan_tiles:
        out += hook(s, seat)
    return out if len(out) < 2 else tuple(sorted(out))


@lru_cache(maxsize=None)
def plans(available: int, columns: int, per_column: int) -> tuple[Action, ...]:
    out = []
    for counts in product(range(per_column + 1), repeat=columns):
        if sum(counts) <= available:
            out.append(Action("plan", ("-".join(map(str, counts)),)))
    return tuple(out)


@lru_cache(maxsize=None)
def plan_set(available: int, columns: int, per_column: int) -> frozenset[Action]:
    return frozenset(plans(available, columns, per_column))


@lru_cache(maxsize=256)
def plans_with_tiles(available: int, columns: int, per_column: int, words: tuple[str, ...],
                     tiles: tuple[PlanTile, ...]) -> tuple[Action, ...]:
    """Every plan: apprentice counts, then each tile left out or placed on an allowed column
    (never two tiles on one column; none on a column with apprentices if exclusive; the tile's
    own apprentices count against those available)."""
    choices = [[None] + [i for i, w in enumerate(words) if w.rstrip("2") in t.columns] for t in tiles]
    out = []
    for placing in product(*choices):
        used = [c for c in placing if c is not None]
        if len(set(used)) != len(used):
            continue
        extra = sum(t.apprentices for t, c in zip(tiles, placing) if c is not None)
        closed = {c for t, c in zip(tiles, placing) if c is not None and t.exclusive}
        words_ = tuple(w for t, c in zip(tiles, placing) if c is not None for w in (t.name, words[c]))
        for counts in product(range(per_column + 1), repeat=columns):
            if sum(counts) + extra <= available and not any(counts[c] for c in closed):
                out.append(Action("plan", ("-".join(map(str, counts)), *words_)))
    return tuple(out)


def legal(s: State, seat: int) -> list[Action]:
    sheet = s.comp.rules["action_sheet"]
    tiles = tiles_of(s, seat)
    if tiles:
        return list(plans_with_tiles(s.apprentices(seat), sheet["columns"], sheet["spaces_per_column"],
                                     column_words(s), tiles))
    return list(plans(s.apprentices(seat), sheet["columns"], sheet["spaces_per_column"]))


def placed_tiles(s: State, seat: int, action: Action) -> dict[str, int] | str:
    """The tiles a plan places (name -> column index), or why the plan is not legal."""
    sheet = s.comp.rules["action_sheet"]
    try:
        counts = [int(x) for x in action.args[0].split("-")]
    except (ValueError, IndexError):
        return "a plan is apprentice counts per column, like 'plan 1-2-0-1-1'"
    if len(counts) != sheet["columns"]:
        return f"a plan has {sheet['columns']} columns ({', '.join(s.columns())})"
    if max(counts) > sheet["spaces_per_column"] or min(counts) < 0:
        return f"a column has {sheet['spaces_per_column']} spaces"
    tiles = {t.name: t for t in tiles_of(s, seat)}
    words = column_words(s)
    rest = action.args[1:]
    if len(rest) % 2:
        return "action tiles are written in pairs after the counts: '<tile> <column>', e.g. 'wall theater'"
    placed: dict[str, int] = {}
    extra = 0
    for name, col in zip(rest[::2], rest[1::2]):
        t = tiles.get(name)
        if t is None:
            return (f"{name!r} is not an action tile you may place now"
                    + (f" (yours: {', '.join(tiles)})" if tiles else " (you have none)"))
        if name in placed:
            return f"the {name} tile is placed once"
        if col not in words:
            return f"{col!r} is not a column ({', '.join(words)})"
        c = words.index(col)
        if col.rstrip("2") not in t.columns:
            return f"the {name} tile goes on {' or '.join(t.columns)}, not {col}"
        if c in placed.values():
            return f"two action tiles cannot cover the {col} column"
        if t.exclusive and counts[c]:
            return f"no apprentice may go to the {col} column covered by the {name} tile"
        placed[name] = c
        extra += t.apprentices
    if sum(counts) + extra > s.apprentices(seat):
        return (f"the plan uses {sum(counts) + extra} apprentices"
                + (f" ({extra} on action tiles)" if extra else "") + f"; you have {s.apprentices(seat)}")
    if action.args != canonical(s, counts, placed).args:
        return f"write it as '{canonical(s, counts, placed)}'"
    return placed


def canonical(s: State, counts, placed: dict[str, int]) -> Action:
    words = column_words(s)
    return Action("plan", ("-".join(map(str, counts)),
                           *(w for name in sorted(placed) for w in (name, words[placed[name]]))))


@lru_cache(maxsize=256)
def plan_set_with_tiles(*key) -> frozenset[Action]:
    return frozenset(plans_with_tiles(*key))


def is_legal(s: State, seat: int, action: Action) -> bool:
    sheet = s.comp.rules["action_sheet"]
    if len(action.args) == 1 or not s.hooks.plan_tiles:
        return action in plan_set(s.apprentices(seat), sheet["columns"], sheet["spaces_per_column"])
    return action in plan_set_with_tiles(s.apprentices(seat), sheet["columns"], sheet["spaces_per_column"],
                                         column_words(s), tiles_of(s, seat))


def apply(s: State, seat: int, action: Action) -> None:
    s.plan[seat] = tuple(int(x) for x in action.args[0].split("-"))
    placed = placed_tiles(s, seat, action) if len(action.args) > 1 else {}
    for hook in s.hooks.plan_committed:
        hook(s, seat, placed)
    s.log_event(f"{s.names[seat]} commits a plan")
    s.log_event(f"you plan {' '.join(action.args)}", seat)


def leonardo_plan(s: State) -> tuple[int, ...]:
    """Leonardo: one apprentice at the market and one in the cathedral; in the final round
    his cathedral apprentice is removed (R13).  Modules add apprentices."""
    plan = [0] * len(s.columns())
    plan[0] = 1
    if not s.side2:
        plan[1] = 1
    for hook in s.hooks.leonardo_plan:
        hook(s, plan)
    return tuple(plan)


def reveal(s: State) -> None:
    if s.leonardo is not None:
        s.plan[s.leonardo] = leonardo_plan(s)
    for f in range(s.n):
        s.log_event(f"{s.names[f]} reveals plan {'-'.join(map(str, s.plan[f]))}")
    for hook in s.hooks.plans_revealed:
        hook(s)
