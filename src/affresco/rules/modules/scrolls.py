"""Scrolls (Russian edition, 'Свитки'; R17).

Each player is dealt one secret row scroll and one secret column scroll.  Restoring a
segment of a scroll's line while the bishop stands on that segment (after the optional move),
the player may play it: 2 VP per restored segment of the line, this one included (max 10);
at the crossing of both their lines they may play both: 3 VP per restored segment of both
lines, this one counted twice (max 30).  Played scrolls leave the game; unplayed ones score
nothing; Leonardo has none.  The choice is a decision right after the restoration:
'scroll row', 'scroll column', 'scroll both' or 'scroll none'.
"""
from __future__ import annotations

from typing import NamedTuple

from ...errors import ComponentError, StateError
from .. import track
from ..actions import Action
from ..board import COLUMNS, NAMES, SIZE
from ..hooks import Module, ask, register
from ..components import check_provenance as provenance_ok
from ..preparation import chance
from ..serialize import whole
from ..state import State

NAME = "scrolls"   # the module's name: its state is ``state.mods[NAME]``


class Data(NamedTuple):
    rows: tuple[int, ...]
    columns: tuple[int, ...]
    one_vp: int
    one_max: int
    both_vp: int
    both_max: int


class Scrolls(Module):
    name = NAME
    view_reads = ()
    action_kinds = ("scroll",)   # playing scrolls shows them

    @classmethod
    def build_data(cls, raw: dict) -> Data:
        provenance_ok(raw, "scrolls")
        rows, cols = raw.get("rows"), raw.get("columns")
        if not isinstance(rows, list) or not isinstance(cols, list) or len(rows) + len(cols) != 10 \
                or any(r not in range(1, SIZE + 1) for r in rows) or any(c not in COLUMNS for c in cols):
            raise ComponentError("component file: scrolls: 10 scrolls naming rows 1-5 and columns A-E")
        if len(rows) < 4 or len(cols) < 4:
            raise ComponentError("component file: scrolls: each of 4 players needs a row and a column scroll")
        vals = {k: raw.get(k) for k in ("one_vp", "one_max", "both_vp", "both_max")}
        if vals != {"one_vp": 2, "one_max": 10, "both_vp": 3, "both_max": 30}:
            raise ComponentError(f"component file: scrolls: the printed 2 VP (max 10) and 3 VP (max 30), not {vals}")
        return Data(tuple(r - 1 for r in rows), tuple(COLUMNS.index(c) for c in cols), **vals)

    def setup(self, s: State, rng) -> None:
        rows = rng.sample(self.data.rows, s.n)
        cols = rng.sample(self.data.columns, s.n)
        # per seat: (row or -1 once played, column or -1 once played)
        s.mods[NAME] = tuple(zip(rows, cols))

    def action_space(self, space) -> None:
        space.actions.extend(Action("scroll", (w,)) for w in ("none", "row", "column", "both"))

    def after_restore(self, s: State, fig: int, segment: int, tile, bishop_on: bool) -> None:
        """Ask whenever the bishop is on the restored segment and the player still holds a
        scroll (both public), matching or not: asking only on a match would tell the others
        which lines the secret scrolls name (R22)."""
        if fig >= s.n or not bishop_on:
            return
        if any(x >= 0 for x in s.mods[NAME][fig]):
            ask(s, fig, NAME, segment)

    def restored(self, s: State, cells) -> int:
        return sum(s.fresco[i] is None for i in cells)

    def ask_actions(self, s: State, a) -> list:
        fig, _, segment = a
        row, col = s.mods[NAME][fig]
        out = [Action("scroll", ("none",))]
        if row == segment // SIZE:
            out.append(Action("scroll", ("row",)))
        if col == segment % SIZE:
            out.append(Action("scroll", ("column",)))
        if len(out) == 3:
            out.append(Action("scroll", ("both",)))
        return out

    def refusal(self, s: State, seat: int, action: Action) -> str | None:
        """Why 'scroll row|column|both' is refused: the player holds no scroll of the restored
        segment's line (told only to the player, whose scrolls they are)."""
        if action.kind != "scroll" or not s.asks or s.asks[0][1] != NAME:
            return None
        fig, _, segment = s.asks[0]
        r, c = divmod(segment, SIZE)
        return (f"'scroll row' plays your scroll of row {r + 1}, 'scroll column' your scroll of column "
                f"{COLUMNS[c]}, 'scroll both' the two (the lines of {NAMES[segment]}), if you hold them; "
                "or 'scroll none'")

    def answer(self, s: State, a, action) -> None:
        fig, _, segment = a
        which = action.args[0]
        if which == "none":
            return
        r, c = divmod(segment, SIZE)
        in_row = self.restored(s, range(r * SIZE, r * SIZE + SIZE))
        in_col = self.restored(s, range(c, SIZE * SIZE, SIZE))
        d = self.data
        if which == "both":
            vp = min(d.both_max, d.both_vp * (in_row + in_col))
        else:
            vp = min(d.one_max, d.one_vp * (in_row if which == "row" else in_col))
        row, col = s.mods[NAME][fig]
        held = list(s.mods[NAME])
        held[fig] = (-1 if which in ("row", "both") else row, -1 if which in ("column", "both") else col)
        s.mods[NAME] = tuple(held)
        track.gain(s, fig, {"scroll": vp}, "scroll", scroll=which, segment=NAMES[segment])

    def reveals(self, s: State, fig: int, action) -> bool:
        """A scroll played shows its line (R22); 'scroll none' shows nothing."""
        return action.kind == "scroll" and action.args[:1] != ("none",)

    def _label(self, row: int, col: int) -> dict:
        return {"row": row + 1 if row >= 0 else None, "column": COLUMNS[col] if col >= 0 else None}

    def view(self, s: State, seat, out) -> None:
        held = s.mods[NAME]
        out["scrolls"] = {
            "mine": self._label(*held[seat]) if seat is not None else None,
            "unplayed": [sum(x >= 0 for x in h) for h in held],  # how many each holds: public
        }

    def dump(self, s: State):
        return [self._label(*h) for h in s.mods[NAME]]

    def valid_ask(self, s: State, fig: int, payload) -> bool:
        return fig < s.n and whole(payload) and 0 <= payload < SIZE * SIZE

    def load(self, s: State, data) -> None:
        """Read ``modules_state.scrolls``: per seat ``{"row": 1..5 or null, "column": "A".."E"
        or null}`` (null: played, or never held).  Left out: the scrolls are dealt as at set-up
        (one chance draw of the game's seed)."""
        where = "saved state: modules_state.scrolls"
        if data is None:
            self.setup(s, chance(s))
            return
        if not isinstance(data, list) or len(data) != s.n:
            raise StateError(f"{where}: {data!r}: one entry per seat ({s.n})")
        held = []
        for i, h in enumerate(data):
            if not isinstance(h, dict) or set(h) != {"row", "column"}:
                raise StateError(f"{where}[{i}]: {h!r}: {{'row': 1..5 or null, 'column': 'A'..'E' or null}}")
            row, col = h["row"], h["column"]
            if row is not None and (not whole(row) or row - 1 not in self.data.rows):
                raise StateError(f"{where}[{i}].row: {row!r}: a row scroll of this edition (1..5) or null")
            if col is not None and (not isinstance(col, str) or col not in COLUMNS
                                    or COLUMNS.index(col) not in self.data.columns):
                raise StateError(f"{where}[{i}].column: {col!r}: a column scroll of this edition (A..E) or null")
            held.append((row - 1 if row is not None else -1, COLUMNS.index(col) if col is not None else -1))
        s.mods[NAME] = tuple(held)


register(Scrolls)  # (a call, not a decorator: a decorated class cannot be a mypyc native class)


# --- the observation's numbers (encoding 3, rules/observation.py) -----------------------------
from ..observation import ModuleSlots, register_slots  # noqa: E402


class ScrollsSlots(ModuleSlots):
    """``mine_row``, ``mine_column``: the seat's own unplayed scrolls, one-hot (row 1-5, column
    A-E; zeros once played); ``unplayed``: scrolls each seat still holds / 2, from the observer
    on (public; which ones is each seat's secret)."""

    name = "scrolls"

    def layout(self, module, n: int, figures: int) -> tuple:
        return ((("mine_row", SIZE), ("mine_column", SIZE)), ("m", "seat"), self._mine_fact, self._mine), \
            ((("unplayed", n),), ("m",), self._unplayed_fact, self._unplayed)

    def _mine_fact(self, held: tuple, seat: int) -> tuple:
        return held[seat]

    def _unplayed_fact(self, held: tuple, seat: int) -> tuple:
        return tuple((r >= 0) + (c >= 0) for r, c in held)

    def view_facts(self, part, seat: int) -> tuple:
        row, col = part["mine"]["row"], part["mine"]["column"]
        return (row - 1 if row is not None else -1, COLUMNS.index(col) if col is not None else -1), \
            tuple(part["unplayed"])

    def _mine(self, mine: tuple, seat: int, x, p: int) -> None:
        row, col = mine
        if row >= 0:
            x[p + row] = 1.0
        if col >= 0:
            x[p + SIZE + col] = 1.0

    def _unplayed(self, unplayed: tuple, seat: int, x, p: int) -> None:
        for i, f in enumerate(self.seats_from[seat], p):
            x[i] = unplayed[f] / 2


register_slots(ScrollsSlots)
