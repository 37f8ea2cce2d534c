"""The bishop's favour (Russian edition, 'Благосклонность епископа'; R18).

A face-down favour token lies on every fresco tile.  Restoring the segment the bishop stands
on (after any move) gives its token, whose effect applies at once (1 or 5 Thalers, +1 VP,
mood +1, a paint; the VP as part of the restoration's single move on the track, R18 revised);
otherwise the token is discarded unseen with the tile.  Leonardo's token
is discarded unless it gives VP (R13).

No token is assigned to a tile before it is restored: the token of a restored tile is drawn
at random from those not yet drawn (rules notes N9: the same as a random layout, with
nothing hidden in the state to leak).
"""
from __future__ import annotations

from typing import NamedTuple

from ...errors import ComponentError, StateError
from ..board import NAMES
from ..hooks import Module, register
from ..hostel import change_mood
from ..thalers import earn
from ..paints import PAINTS, add_one
from ..chance import below
from ..preparation import chance
from ..components import check_provenance as provenance_ok
from ..state import State

NAME = "bishops_favour"   # the module's name: its state is ``state.mods[NAME]``


class Data(NamedTuple):
    tokens: tuple[str, ...]  # 'thalers:1', 'vp:1', 'mood:1', 'paint:R'


class BishopsFavour(Module):
    name = NAME
    view_reads = ()

    @classmethod
    def build_data(cls, raw: dict) -> Data:
        provenance_ok(raw, "bishops_favour")
        tokens = []
        for i, t in enumerate(raw.get("tokens", [])):
            w = f"bishops_favour.tokens[{i}]"
            provenance_ok(t, w)
            eff, count = t.get("effect"), t.get("count", 1)
            if eff == "paint":
                if t.get("paint") not in PAINTS:
                    raise ComponentError(f"component file: {w}.paint: {t.get('paint')!r} is not a paint")
                text = f"paint:{t['paint']}"
            elif eff in ("thalers", "vp", "mood"):
                amount = t.get("amount")
                if not isinstance(amount, int) or amount < 1:
                    raise ComponentError(f"component file: {w}.amount: {amount!r}")
                if eff == "thalers" and amount not in (1, 5) or eff in ("vp", "mood") and amount != 1:
                    raise ComponentError(f"component file: {w}: printed tokens give 1 or 5 Thalers, +1 VP, mood +1")
                text = f"{eff}:{amount}"
            else:
                raise ComponentError(f"component file: {w}.effect: {eff!r} is not thalers, vp, mood or paint")
            tokens.extend([text] * count)
        if len(tokens) != 25:
            raise ComponentError(f"component file: bishops_favour.tokens: {len(tokens)} tokens, 25 are printed")
        return Data(tuple(sorted(tokens)))

    def setup(self, s: State, rng) -> None:
        s.mods[NAME] = self.data.tokens  # tokens not yet drawn (no order)

    def restoration_vp(self, s: State, fig: int, segment: int, tile, paid, sources: dict) -> None:
        """The restored tile's token: taken if the bishop stands on the segment (after any
        move), and it acts at once; its +1 VP is part of the restoration's move (R18, R8)."""
        bishop_on = s.bishop == segment
        pool = list(s.mods[NAME])
        if not pool:
            return
        token = pool.pop(below(chance(s), len(pool)))
        s.mods[NAME] = tuple(pool)
        effect, _, value = token.partition(":")
        if not bishop_on or (fig >= s.n and effect != "vp"):
            s.add_event({"kind": "favour_discarded", "segment": NAMES[segment]})
            return
        s.add_event({"kind": "favour", "figure": fig, "effect": effect, "value": value})
        if effect == "thalers":
            earn(s, fig, int(value))
        elif effect == "vp":
            sources["favour"] = sources.get("favour", 0) + int(value)
        elif effect == "mood":
            change_mood(s, fig, int(value))
        else:
            s.paints[fig] = add_one(s.paints[fig], value)

    def view(self, s: State, seat, out) -> None:
        out["bishops_favour"] = {"tokens_left": len(s.mods[NAME])}

    def dump(self, s: State):
        return list(s.mods[NAME])

    def load(self, s: State, data) -> None:
        """Read ``modules_state.bishops_favour``: the tokens not yet drawn, e.g. ``["vp:1",
        "paint:R"]`` (a multiset: no order).  Left out: every token of the edition (drawing from
        all 25 is the same as drawing from the random rest; N9)."""
        if data is None:
            s.mods[NAME] = self.data.tokens
            return
        kinds = sorted(set(self.data.tokens))
        if not isinstance(data, list) or any(not isinstance(t, str) or t not in kinds for t in data) \
                or len(data) > len(self.data.tokens):
            raise StateError(f"saved state: modules_state.bishops_favour: {data!r}: a list of at most "
                             f"{len(self.data.tokens)} tokens of this edition ({', '.join(kinds)})")
        s.mods[NAME] = tuple(sorted(data))


register(BishopsFavour)  # (a call, not a decorator: a decorated class cannot be a mypyc native class)


# --- the observation's numbers (encoding 3, rules/observation.py) -----------------------------
from ..observation import ModuleSlots, register_slots  # noqa: E402


class BishopsFavourSlots(ModuleSlots):
    """``tokens_left``: the favour tokens not yet drawn / the edition's (the view's count)."""

    name = "bishops_favour"

    def layout(self, module, n: int, figures: int) -> tuple:
        self.total = len(module.data.tokens)
        return ((("tokens_left", 1),), ("m",), self._left_fact, self._left),

    def _left_fact(self, tokens: tuple, seat: int) -> int:
        return len(tokens)

    def view_facts(self, part, seat: int) -> tuple:
        return (part["tokens_left"],)

    def _left(self, left: int, seat: int, x, p: int) -> None:
        x[p] = left / self.total


register_slots(BishopsFavourSlots)
