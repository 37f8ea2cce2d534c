"""Module 8, the bells (modules 8-10 rulebook, 'The Bells'; R10, R12, R13, R19, R22).

Each player has an audience action tile.  While planning they may cover one column of their
action sheet with it (as secret as the plan; no apprentice may go there).  At that column's
turn, in get-up order, the player must buy one displayed certificate: in full (the price,
its VP at once, the certificate face down) or in instalments (0 to price-1 Thalers now, 1 VP
per 2 Thalers, the certificate face up).  Every Thaler earned later goes onto a partly paid
certificate until it is paid (no VP); then it turns face down.  A player may pay more from
their own money: asked once a round after the last visit (``deposit``).  No certificate on
display: the audience is void.  Round preparation puts the unsold certificates under the
stack and reveals one per player (2 players: the third place holds Leonardo's four).

Final scoring (R12), before money: in the final round's order each figure with certificates
goes to the bell-track space of its face-down bells minus its partly paid bells, the bishop
last with the unsold bells; an occupied space sends the token to the next free space above.
Bonus: the VP of the highest threshold reached plus the rank points (the bishop holds a
rank).  2 players: Leonardo owns 4 face-down certificates from set-up (R13).

Hidden (R22): a player's face-down certificates are theirs alone, the count is public; the
stack (and Leonardo's certificates) nobody sees.  The stack keeps no order for the
certificates never revealed (one is drawn at random when revealed, as notes N9/M1); the
unsold ones put under it come back in the order they went under.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Mapping, NamedTuple, Sequence

from ...errors import ComponentError, StateError
from .. import track
from ..chance import below, chance
from ..actions import KINDS, Action, plan_word, word_kind
from ..components import check_provenance as provenance_ok
from ..hooks import Module, ModuleState, ask, own, register, with_item
from ..planning import column_words
from ..state import OVER, PLAN, State

NAME = "bells"
TILE = "audience"
plan_word(TILE, 1, 60)   # 'plan 0-1-0-1-1 audience studio' (before the medico's words, hooks.ORDER)
word_kind(TILE)         # their words are never paints
word_kind("deposit")
KINDS.update({
    "audience": "audience <cert> full|pay <n>  buy a displayed bell certificate (module bells)",
    "deposit": "deposit <cert> <n>|none   pay more onto a partly paid certificate (module bells)",
})
_CERT = re.compile(r"^([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2})$")


def cert(text: str) -> tuple[int, int, int]:
    """(price, vp, bells) of a certificate written 'price:vp:bells'."""
    hit = _CERTS.get(text) if type(text) is str else None
    if hit is not None:
        return hit
    m = _CERT.match(text) if isinstance(text, str) else None
    if not m:
        raise ValueError(f"{text!r}: a certificate is written 'price:vp:bells', e.g. '3:3:2'")
    hit = int(m.group(1)), int(m.group(2)), int(m.group(3))
    if len(_CERTS) < 4096:     # the texts read so far (an edition has a handful)
        _CERTS[text] = hit
    return hit


_CERTS: dict[str, tuple[int, int, int]] = {}


def cert_dict(text: str, **more) -> dict:
    """A certificate as view data: a new dict (read from a memo of the certificates seen)."""
    base = _CERT_DICTS.get(text)
    if base is None:
        price, vp, bells = cert(text)
        base = {"certificate": text, "price": price, "vp": vp, "bells": bells}
        if len(_CERT_DICTS) < 4096:
            _CERT_DICTS[text] = base
    return dict(base, **more) if more else dict(base)


_CERT_DICTS: dict[str, dict] = {}


@lru_cache(maxsize=None)
def _purchases(c: str) -> tuple[Action, ...]:
    """Every purchase of certificate ``c``: 'audience C full', then 'audience C pay K' for
    K = 0 .. price - 1 (made once per certificate text: an edition has a handful)."""
    return (Action(TILE, (c, "full")),) + tuple(Action(TILE, (c, "pay", str(k))) for k in range(cert(c)[0]))


@lru_cache(maxsize=None)
def _deposits(c: str) -> tuple[Action, ...]:
    """'deposit C K' for K = 1 .. price of certificate ``c`` (made once per certificate text)."""
    return tuple(Action("deposit", (c, str(k))) for k in range(1, cert(c)[0] + 1))


def _audience_options(display: tuple[str, ...], money: int) -> list[Action]:
    """The audience's purchases, for each displayed certificate once (by price, then VP, bells
    and text): in full if the money covers the price, and an instalment of 0 to price - 1
    Thalers as far as it goes (:func:`_purchases`)."""
    shown: list[tuple[tuple[int, int, int], str]] = []
    for c in display:
        key = (_CERTS.get(c) or cert(c), c)
        if key not in shown:
            shown.append(key)
    shown.sort()
    out: list[Action] = []
    for (price, _, _), c in shown:
        out.extend(_purchases(c)[0 if money >= price else 1:min(price - 1, money) + 2])
    return out


def _deposit_options(up: tuple[tuple[str, int], ...], money: int) -> list[Action]:
    """'deposit none', then for each kind of certificate ``up`` holds partly paid (by price,
    then VP, bells and text) 1 Thaler up to what is owed on the oldest of that kind and the
    money (:func:`_deposits`)."""
    if money == 0:      # asked whatever the money (R22): without any, only none (over half the asks)
        return [_DEPOSIT_NONE]
    kinds: list[tuple[tuple[int, int, int], str, int]] = []
    named: list[str] = []
    for c, paid in up:      # oldest first: the first of each kind
        if c not in named:
            named.append(c)
            kinds.append((_CERTS.get(c) or cert(c), c, paid))
    kinds.sort()
    out = [_DEPOSIT_NONE]
    for (price, _, _), c, paid in kinds:
        out.extend(_deposits(c)[:min(price - paid, money)])
    return out


_DEPOSIT_NONE = Action("deposit", ("none",))


class Data(NamedTuple):
    certificates: tuple[str, ...]        # every certificate, 'price:vp:bells', sorted
    display: dict[int, int]              # players -> display places
    per_vp: int                          # Thalers per VP in instalments
    leonardo: int                        # Leonardo's certificates (2 players)
    top: int                             # the last space, '30+'
    thresholds: tuple[tuple[int, int], ...]  # (space, vp), ascending
    ranks: dict[str, tuple[int, ...]]    # board side ('3': 2/3 players, '4') -> points by rank


class BState(ModuleState):
    """The bells' state (``state.mods['bells']``), written in place (hooks.ModuleState)."""

    stack: tuple[str, ...]  # never revealed: no order (drawn at random)
    under: tuple[str, ...]  # unsold ones put under the stack, in order
    display: tuple[str, ...]
    down: tuple[tuple[str, ...], ...]  # per figure: face-down (paid) certificates
    up: tuple[tuple[tuple[str, int], ...], ...]  # per figure: partly paid (certificate, paid), oldest first
    audience: tuple[int, ...]  # per seat: the column the audience tile covers, -1 none
    asked: int  # round of the last deposit question
    track: tuple[int, ...] | None  # after final scoring: space per figure (-1: none), then the bishop

    def __init__(self, stack: tuple[str, ...], under: tuple[str, ...], display: tuple[str, ...],
                 down: tuple[tuple[str, ...], ...], up: tuple[tuple[tuple[str, int], ...], ...],
                 audience: tuple[int, ...], asked: int, track: tuple[int, ...] | None) -> None:
        self.stack = stack
        self.under = under
        self.display = display
        self.down = down
        self.up = up
        self.audience = audience
        self.asked = asked
        self.track = track
        self.version = 0

    def copy(self) -> BState:
        return BState(self.stack, self.under, self.display, self.down, self.up, self.audience, self.asked, self.track)


class Bells(Module):

    name = NAME
    plan_words = (TILE,)
    view_reads = ("phase", "round", "side2")   # audience hidden while planning, deposits asked, column words
    location_columns = (-1,)   # after_location: after the last column only
    busy_columns = ()          # visit_start: the audience tile's column, where no apprentice goes
    action_tile = ("audience tile", "audience")

    @classmethod
    def build_data(cls, raw: dict) -> Data:
        provenance_ok(raw, "bells")
        w = "component file: bells"
        certs = []
        for i, c in enumerate(raw.get("certificates", [])):
            where = f"bells.certificates[{i}]"
            provenance_ok(c, where)
            vals = [c.get(k) for k in ("price", "vp", "bells")]
            count = c.get("count", 1)
            if not all(isinstance(v, int) and not isinstance(v, bool) and 0 < v < 100 for v in vals) \
                    or not isinstance(count, int) or count < 1:
                raise ComponentError(f"component file: {where}: price, vp and bells are whole numbers 1..99, "
                                     f"count >= 1 (got {vals}, count {count!r})")
            certs.extend([f"{vals[0]}:{vals[1]}:{vals[2]}"] * count)
        if len(certs) != 18 or sum(cert(c)[2] for c in certs) != 61:
            raise ComponentError(f"{w}.certificates: {len(certs)} certificates with {sum(cert(c)[2] for c in certs)} "
                                 "bells; the printed game has 18 with 61 bells")
        if not any(cert(c)[:2] == (3, 3) for c in certs):
            raise ComponentError(f"{w}.certificates: the printed certificate priced 3 Thalers worth 3 VP is missing")
        disp = raw.get("display", {})
        display = {n: disp.get(str(n)) for n in (2, 3, 4)}
        if display != {2: 2, 3: 3, 4: 4}:
            raise ComponentError(f"{w}.display: {display}: one certificate revealed per player (printed; 2 players: "
                                 "Leonardo's four lie on space 3 of the 2/3-player side)")
        for key, printed in (("instalment_thalers_per_vp", 2), ("leonardo_certificates", 4), ("track_top", 30)):
            if raw.get(key) != printed:
                raise ComponentError(f"{w}.{key}: {raw.get(key)!r}: the rulebook prints {printed}")
        thresholds = []
        for i, t in enumerate(raw.get("thresholds", [])):
            provenance_ok(t, f"bells.thresholds[{i}]")
            sp, vp = t.get("space"), t.get("vp")
            if not isinstance(sp, int) or not isinstance(vp, int) or not 0 < sp <= 30 or vp < 0:
                raise ComponentError(f"{w}.thresholds[{i}]: a space 1..30 and its VP, not {sp!r}, {vp!r}")
            thresholds.append((sp, vp))
        thresholds.sort()
        data = Data(tuple(sorted(certs, key=cert)), display, 2, 4, 30, tuple(thresholds), {})
        got = {sp: cls.threshold_vp(data, sp) for sp in (11, 15, 16, 20)}
        if got != {11: 1, 15: 2, 16: 2, 20: 2} or cls.threshold_vp(data, 10) >= 1:
            raise ComponentError(f"{w}.thresholds: reaching 11 gives 1 VP, 15 and 16 give 2, 20 still 2, "
                                 f"nothing below 11 (printed); this file gives {got}")
        ranks = raw.get("rank_points", {})
        provenance_ok(ranks, "bells.rank_points")
        for side, places in (("3", 4), ("4", 5)):
            pts = ranks.get(side)
            if not isinstance(pts, list) or len(pts) != places or any(not isinstance(p, int) or p < 0 for p in pts):
                raise ComponentError(f"{w}.rank_points.{side}: {pts!r}: {places} ranks of VP")
            data.ranks[side] = tuple(pts)
        if (data.ranks["3"][0], data.ranks["3"][1], data.ranks["3"][3]) != (9, 5, 0):
            raise ComponentError(f"{w}.rank_points.3: {list(data.ranks['3'])}: ranks 1, 2 and 4 score the printed 9, 5, 0")
        return data

    # --- the action index space (rules/action_space.py) ---------------------------------
    def action_space(self, space) -> None:
        """Plans with the audience tile on an empty column (the column words of either side of
        the action sheet), then for every certificate of the component data 'audience C full',
        'audience C pay K' (K = 0 .. price - 1), and 'deposit none', 'deposit C K'
        (K = 1 .. price: what can be owed on it)."""
        plans = tuple(space.plans())
        for words in space.column_words():
            space.actions.extend(_with_audience(plans, words))
        kinds = sorted(set(self.data.certificates), key=cert)
        for c in kinds:
            space.actions.extend(_purchases(c))
        space.actions.append(_DEPOSIT_NONE)
        for c in kinds:
            space.actions.extend(_deposits(c))

    # --- helpers -----------------------------------------------------------------------
    @staticmethod
    def threshold_vp(data: Data, space: int) -> int:
        """VP of the highest threshold reached on the bell track."""
        return max((vp for sp, vp in data.thresholds if sp <= space), default=0)

    def st(self, s: State) -> BState:
        return s.mods[NAME]

    @staticmethod
    def _draw(stack: tuple[str, ...], under: tuple[str, ...], rng,
              count: int) -> tuple[list[str], tuple[str, ...], tuple[str, ...]]:
        """The top ``count`` certificates of the stack (random never-revealed ones of ``stack``,
        then the ones put ``under`` it), fewer when it runs out; and the stack and under left."""
        out = []
        for _ in range(count):
            if stack:
                i = below(rng, len(stack))
                out.append(stack[i])
                stack = stack[:i] + stack[i + 1:]
            elif under:
                out.append(under[0])
                under = under[1:]
            else:
                break
        return out, stack, under

    def _reveal(self, s: State, rng, display: tuple[str, ...], under: tuple[str, ...],
                audience: tuple[int, ...] | None = None) -> None:
        """Fill the ``display`` (one place per player) from the stack,
        with ``under`` the certificates under it: one write of the module state (with the
        ``audience`` tiles taken back at round preparation)."""
        drawn, stack, under = self._draw(s.mods[NAME].stack, under, rng, self.data.display[s.n] - len(display))
        shown = (*display, *drawn)
        b = own(s, NAME)
        b.stack, b.under, b.display = stack, under, shown
        if audience is not None:
            b.audience = audience
        if shown:
            s.add_event({"kind": "bells_display", "certificates": list(shown), "stack": len(stack) + len(under)})

    def stack_size(self, s: State) -> int:
        b = self.st(s)
        return len(b.stack) + len(b.under)

    def usable(self, s: State) -> bool:
        """The audience tile is of use: a certificate is displayed now."""
        b: BState = s.mods[NAME]
        return bool(b.display)

    # --- set-up and round ----------------------------------------------------------------
    def setup(self, s: State, rng) -> None:
        s.mods[NAME] = BState(self.data.certificates, (), (), ((),) * s.figures, ((),) * s.figures,
                              (-1,) * s.n, 0, None)
        self._reveal(s, rng, (), ())
        if s.leonardo is not None:   # 2 players: the top four, face down, for Leonardo
            b = self.st(s)
            mine, stack, under = self._draw(b.stack, b.under, rng, self.data.leonardo)
            self.put(s, stack=stack, under=under, down=with_item(b.down, s.leonardo, tuple(mine)))
            s.log_event("bells_leonardo", figure=s.leonardo, certificates=len(mine))

    def round_preparation(self, s: State, rng) -> None:
        b = self.st(s)
        if b.display:
            s.add_event({"kind": "bells_unsold", "certificates": list(b.display)})
        self._reveal(s, rng, (), b.under + b.display, audience=(-1,) * s.n)   # the unsold ones go under

    # --- planning: the audience tile (as secret as the plan) -------------------------------
    def plan_options(self, s: State, seat: int, plans: Any) -> Sequence:
        """'Each player places the audience tile on one location column of his action sheet
        ... no apprentice may go to that column': the plans, then each again with the tile on
        each of its empty columns (a :class:`~affresco.rules.planning.TiledPlans`)."""
        if seat >= s.n or not self.usable(s):
            return plans
        return plans.with_tile(TILE)

    def plan_situation(self, s: State, seat: int) -> bool:
        """:meth:`plan_options` reads whether a certificate is displayed."""
        return bool(s.mods[NAME].display)

    def plan_refusal(self, s: State, seat: int, counts: tuple, words: Mapping) -> str | None:
        if TILE not in words:
            return None
        cols = column_words(s)
        if seat >= s.n:
            return "Leonardo has no audience tile"
        if not self.usable(s):
            return "no bell certificate is displayed: the audience tile is of no use now"
        word = words[TILE][0] if words[TILE] else None
        if word not in cols:
            return f"the audience tile covers a column: {', '.join(cols)}"
        if counts[cols.index(word)]:
            return f"no apprentice may go to the column the audience tile covers ({word})"
        return None

    def plan_apply(self, s: State, seat: int, counts: tuple, words: Mapping) -> None:
        tile = words.get(TILE)      # (the column's word,) or None
        col = column_words(s).index(tile[0]) if tile is not None else -1
        audience = s.mods[NAME].audience
        if audience[seat] != col:
            own(s, NAME).audience = with_item(audience, seat, col)
        if tile is not None:
            s.add_event({"kind": "audience_planned", "figure": seat, "column": tile[0]}, seat)

    def after_planning(self, s: State) -> None:
        words = column_words(s)
        for seat, col in enumerate(self.st(s).audience):
            if col >= 0:
                s.add_event({"kind": "audience", "figure": seat, "column": words[col]})

    def visit_start(self, s: State, fig: int, column: str, count: int) -> bool:
        """The audience, at the turn of the column its tile covers (in get-up order)."""
        if fig < s.n and s.mods[NAME].audience[fig] == s.loc:
            if self.usable(s):
                ask(s, fig, NAME, TILE)
                return True
            s.add_event({"kind": "audience_void", "figure": fig})
        return False

    # --- decisions -----------------------------------------------------------------------
    def ask_actions(self, s: State, a) -> list:
        fig, _, what = a
        b: BState = s.mods[NAME]
        if what == TILE:
            return _audience_options(b.display, s.thalers[fig])
        return _deposit_options(b.up[fig], s.thalers[fig])

    def valid_ask(self, s: State, fig: int, payload) -> bool:
        """An audience of a seat, or a deposit question of a seat holding a partly paid certificate."""
        if not 0 <= fig < s.n:
            return False
        return payload == TILE or (payload == "deposit" and bool(self.st(s).up[fig]))

    def answer(self, s: State, a, action: Action) -> None:
        fig = a[0]
        if action.kind == TILE:
            self._buy(s, fig, action)
        elif action.args[0] != "none":
            c = action.args[0]
            i = 0
            for x, _ in s.mods[NAME].up[fig]:   # the oldest of that kind (a loop: a generator reading
                if x == c:                      # ``c`` would make it a cell at every call)
                    break
                i += 1
            self._pay(s, fig, i, int(action.args[1]), "own")

    def _buy(self, s: State, fig: int, action: Action) -> None:
        c = action.args[0]
        price, vp, _ = _CERTS.get(c) or cert(c)
        b = own(s, NAME)
        shown = list(b.display)
        shown.remove(c)
        b.display = tuple(shown)
        if action.args[1] == "full":
            s.thalers[fig] -= price
            b.down = down = with_item(b.down, fig, b.down[fig] + (c,))
            # face down: which certificate is the buyer's secret (R22); its VP are public
            s.add_event({"kind": "bells_full", "figure": fig, "certificates": len(down[fig]) + len(b.up[fig])})
            s.add_event({"kind": "bells_full_certificate", "figure": fig, "certificate": c, "paid": price}, fig)
            track.gain(s, fig, {"bells": vp}, "bells_certificate")
        else:
            k = int(action.args[2])
            s.thalers[fig] -= k
            b.up = up = with_item(b.up, fig, b.up[fig] + ((c, k),))
            s.add_event({"kind": "bells_instalment", "figure": fig, "certificate": c, "paid": k,
                         "certificates": len(b.down[fig]) + len(up[fig])})
            track.gain(s, fig, {"bells": k // self.data.per_vp}, "bells_instalment", thalers=k)

    def _pay(self, s: State, fig: int, i: int, k: int, source: str) -> None:
        """Put ``k`` Thalers onto ``fig``'s ``i``-th partly paid certificate (oldest first): from
        the player's money (``own``) or from money just earned (``earned``, R10)."""
        b = own(s, NAME)
        up = b.up[fig]
        c, paid = up[i]
        paid += k
        price = (_CERTS.get(c) or cert(c))[0]
        if source == "own":
            s.thalers[fig] -= k
        if paid >= price:
            b.up, b.down = with_item(b.up, fig, up[:i] + up[i + 1:]), with_item(b.down, fig, b.down[fig] + (c,))
        else:
            b.up = with_item(b.up, fig, (*up[:i], (c, paid), *up[i + 1:]))
        s.add_event({"kind": "bells_deposit", "figure": fig, "certificate": c, "thalers": k, "source": source,
                     "paid": min(paid, price)})
        if paid >= price:
            s.add_event({"kind": "bells_paid", "figure": fig, "certificate": c})

    def thalers_earned(self, s: State, seat: int, amount: int) -> int:
        """R10: every Thaler earned goes onto a partly paid certificate (the oldest first)
        until it is paid; no VP for it."""
        up = s.mods[NAME].up[seat]      # the seat's partly paid certificates (most players hold none)
        while amount > 0 and up:
            c, paid = up[0]
            k = min(amount, (_CERTS.get(c) or cert(c))[0] - paid)
            self._pay(s, seat, 0, k, "earned")
            amount -= k
            up = s.mods[NAME].up[seat]
        return amount

    def after_location(self, s: State, column: str, index: int) -> None:
        """Paying more from one's own money 'at any time' (R19): asked once a round, after the
        last column, of every player holding a partly paid certificate (public), whatever
        their money (asking only those with money would show it, R22)."""
        if index != len(s.columns()) - 1:
            return
        b: BState = s.mods[self.name]
        if b.asked == s.round:
            return
        own(s, NAME).asked = s.round
        for seat in s.order:
            if seat < s.n and b.up[seat]:
                ask(s, seat, NAME, "deposit")

    # --- final scoring (R12) -------------------------------------------------------------
    def final_scoring(self, s: State, seat: int) -> None:
        """R12: the bells are scored first, for every figure at once (Leonardo too): at the
        first seat's final scoring, before anyone's money."""
        if self.st(s).track is None:
            self._score_bells(s)

    def _score_bells(self, s: State) -> None:
        """Every figure holding certificates goes to the space of its face-down bells minus its
        partly paid bells (at least 0), in the final round's order, the bishop last with the
        unsold bells; an occupied space sends it to the next higher free one (R19), so no two
        share a space and a figure's rank is the number of tokens above it."""
        b = self.st(s)
        spaces = [-1] * s.figures
        taken: set[int] = set()
        for fig in s.order:
            down, up = b.down[fig], b.up[fig]
            if down or up:
                space = 0
                for c in down:
                    space += (_CERTS.get(c) or cert(c))[2]
                for c, _ in up:
                    space -= (_CERTS.get(c) or cert(c))[2]
                space = max(0, space)
                while space in taken:
                    space += 1
                taken.add(space)
                spaces[fig] = space
        unsold = b.stack + b.under + b.display
        bishop = 0
        for c in unsold:
            bishop += (_CERTS.get(c) or cert(c))[2]
        while bishop in taken:
            bishop += 1
        own(s, NAME).track = (*spaces, bishop)
        points = self.data.ranks["4" if s.n == 4 else "3"]
        for fig in s.order:
            if spaces[fig] >= 0:   # "a player reveals his face down bell certificates"
                s.add_event({"kind": "bells_placed", "figure": fig, "space": spaces[fig], "face_down": list(b.down[fig]),
                             "partly_paid": [c for c, _ in b.up[fig]]})
        s.add_event({"kind": "bells_bishop", "space": bishop, "certificates": list(unsold)})
        for fig in s.order:
            space = spaces[fig]
            if space < 0:
                continue
            rank = 1 if bishop > space else 0
            for other in spaces:
                if other > space:
                    rank += 1
            track.gain(s, fig, {"bells_track": self.threshold_vp(self.data, space),
                                "bells_rank": points[rank] if rank < len(points) else 0},
                       "bells_scoring", final=True, space=space, rank=rank + 1)

    # --- what a seat sees, saving ----------------------------------------------------------
    def count(self, s: State, fig: int) -> int:
        b = self.st(s)
        return len(b.down[fig]) + len(b.up[fig])

    def view(self, s: State, seat, out) -> None:
        b = self.st(s)
        words = column_words(s)
        figures = []
        for f, (down, up) in enumerate(zip(b.down, b.up)):
            entry = {"certificates": len(down) + len(up), "face_down": len(down),
                     "partly_paid": [cert_dict(c, paid=p) for c, p in up]}
            if f == seat or b.track is not None:   # final scoring reveals them all
                entry["face_down_certificates"] = [cert_dict(c) for c in down]
            figures.append(entry)
        audience = [words[col] if col >= 0 and (seat == f or s.phase != PLAN) else None
                    for f, col in enumerate(b.audience)]
        out[NAME] = {
            "display": [cert_dict(c) for c in b.display],
            "stack": self.stack_size(s),
            "figures": figures,
            "audience": audience,
            "audience_usable": self.usable(s),
            "deposits_asked": b.asked == s.round,  # this round's 'deposit' questions were asked
            "column_words": list(words),         # how the plan's 'audience <column>' names columns
            "track": None if b.track is None else {
                "figures": [x if x >= 0 else None for x in b.track[:-1]], "bishop": b.track[-1]},
            "track_top": self.data.top,
            "thresholds": [list(t) for t in self.data.thresholds],
            "rank_points": list(self.data.ranks["4" if s.n == 4 else "3"]),
            "thalers_per_vp": self.data.per_vp,  # instalments: 1 VP per this many Thalers
        }

    def dump(self, s: State):
        b = self.st(s)
        return {"stack": list(b.stack), "under": list(b.under), "display": list(b.display),
                "holdings": [{"face_down": list(b.down[f]), "partly_paid": [[c, p] for c, p in b.up[f]]}
                             for f in range(s.figures)],
                "audience": [column_words(s)[c] if c >= 0 else None for c in b.audience],
                "asked": b.asked,
                "track": None if b.track is None else list(b.track)}

    def load(self, s: State, data) -> None:
        where = "saved state: modules_state.bells"
        if data is None:    # left out: the certificates as at set-up (one chance draw of the seed)
            self.setup(s, chance(s))
            return
        if not isinstance(data, dict):
            raise StateError(f"{where}: an object with stack, under, display, holdings, audience")
        try:
            texts = lambda xs: tuple(str(x) for x in xs if cert(x))  # noqa: E731
            stack, under, display = (texts(data.get(k, [])) for k in ("stack", "under", "display"))
            hold = data.get("holdings", [{}] * s.figures)
            down = tuple(texts(h.get("face_down", [])) for h in hold)
            up = tuple(tuple((c, int(p)) for c, p in h.get("partly_paid", []) if cert(c)) for h in hold)
            words = column_words(s)
            audience = tuple(-1 if w is None else words.index(w) for w in data.get("audience", [None] * s.n))
            asked = int(data.get("asked", 0))
            tr = data.get("track")
            track_ = None if tr is None else tuple(int(x) for x in tr)
        except (TypeError, ValueError, AttributeError) as e:
            raise StateError(f"{where}: malformed ({e})") from None
        if len(down) != s.figures or len(audience) != s.n:
            raise StateError(f"{where}: holdings has one entry per figure ({s.figures}), audience one per seat ({s.n})")
        if "stack" not in data:     # left out: every certificate of the edition not elsewhere
            rest = list(self.data.certificates)
            for c in (*under, *display, *(c for d in down for c in d), *(c for u in up for c, _ in u)):
                if c in rest:
                    rest.remove(c)
            stack = tuple(rest)
        if len(display) > self.data.display[s.n]:
            raise StateError(f"{where}.display: {len(display)} certificates on {self.data.display[s.n]} places")
        for f, items in enumerate(up):
            for c, p in items:
                if not 0 <= p < cert(c)[0]:
                    raise StateError(f"{where}.holdings[{f}].partly_paid: {c} with {p} paid: 0..price-1")
        if s.leonardo is not None and up[s.leonardo]:
            raise StateError(f"{where}.holdings[{s.leonardo}]: Leonardo owns only face-down certificates")
        if not 0 <= asked <= s.round:     # a round of the game so far, 0 never (rules notes N28)
            raise StateError(f"{where}.asked: {asked!r}: the round of the last deposit question, 0..{s.round} (0: never)")
        if track_ is not None and len(track_) != s.figures + 1:
            raise StateError(f"{where}.track: a space per figure, then the bishop's")
        if track_ is not None and s.phase != OVER:
            # the bell scoring track is filled at final scoring ('Changes for "End of the game and
            # final scoring"'); read as done, it would skip the bells' scoring (rules notes B15)
            raise StateError(f"{where}.track: {list(track_)!r}: the bell track is filled after final scoring "
                             "(phase over); before it, null")
        s.mods[NAME] = BState(tuple(sorted(stack, key=cert)), under, display, down, up, audience, asked, track_)

    def covered_column(self, s: State, seat: int) -> int:
        """The column the audience tile of ``seat`` covers this round (-1 none)."""
        return s.mods[NAME].audience[seat]

    def refusal(self, s: State, seat: int, action: Action) -> str | None:
        if action.kind == TILE:
            b = self.st(s)
            if not s.asks or s.asks[0][2] != TILE:
                return "an audience takes place at the turn of the column its tile covers"
            c = action.args[0] if action.args else ""
            if c not in b.display:
                return f"displayed certificates: {', '.join(b.display)} (written price:vp:bells)"
            price, money = cert(c)[0], s.thalers[seat]
            if action.args[1:2] == ("full",) and money < price:
                return f"{c} costs {price} Thalers in full; you have {money}: pay an instalment of 0 to {min(price - 1, money)}"
            return f"'audience {c} full', or 'audience {c} pay N' with N from 0 to {min(price - 1, money)} (price - 1, your money)"
        if action.kind == "deposit":
            owned = [c for c, _ in self.st(s).up[seat]] if seat < s.n else []
            if not owned:
                return "you hold no partly paid certificate"
            return (f"'deposit none' or 'deposit CERT N' onto one of your partly paid certificates ({', '.join(owned)}), "
                    f"N up to what is owed and your {s.thalers[seat]} Thalers")
        return None


def _with_audience(plans: tuple, words: tuple[str, ...]) -> tuple:
    """The action space's plans with the audience tile (action_space): each plan again with the
    tile on one of its empty columns, as :meth:`Bells.plan_options` lays it (the counts come
    first; the audience word is the first module word, hooks.ORDER)."""
    out = []
    for a in plans:
        counts = a.args[0].split("-")
        for col, w in enumerate(words):
            if counts[col] == "0":
                out.append(Action("plan", (a.args[0], TILE, w, *a.args[1:])))
    return tuple(out)


register(Bells)  # (a call, not a decorator: a decorated class cannot be a mypyc native class)


# --- the observation's numbers (encoding 3, rules/observation.py) -----------------------------
from ..observation import ModuleSlots, register_slots  # noqa: E402
from ..state import SIDE1  # noqa: E402
from array import array  # noqa: E402

_HOLDING = 10     # numbers per figure in BellsSlots' holdings
_PUBLIC = 7       # of which what every seat sees (then the face-down certificates, if known)


class BellsSlots(ModuleSlots):
    """``display``: per display place, a certificate there (1), its price / 10, VP / 10 and bells
    / 10; ``stack``: certificates left in the stack / the edition's; ``holdings``: per figure
    from the observer on (Leonardo last), 10 numbers: its certificates / 10, face down / 10,
    partly paid / 5 (the counts are public), the partly paid ones' price, Thalers paid, VP and
    bells, each summed / 10 (face up: public), then whether its face-down certificates are
    known (1: the observer's own, or every figure's after the final scoring) and, if so, their
    VP / 10 and bells / 20 (R22: which ones, and their bells, are their owner's alone);
    ``audience``: per seat from the observer on, the column its audience tile covers, one-hot
    (another seat's only once the plans are revealed); ``audience_usable`` (a certificate is
    displayed), ``deposits_asked`` (this round's deposit questions asked); ``track``: after the
    final scoring 1, then each figure's space + 1 / the track's top space + 1 (31: "30+"; 0:
    none) and the bishop's.  The track's
    thresholds and rank points and the Thalers per VP are the edition's: not in the vector."""

    name = NAME

    def layout(self, module, n: int, figures: int) -> tuple:
        self.certs = len(module.data.certificates)
        self.spaces = module.data.top + 1         # the track's spaces, 0 to "30+" (components)
        self.holdings: dict[tuple, array] = {}    # a figure's public holding -> its first 7 numbers (_holding)
        self.known: dict[tuple, array] = {}       # face-down certificates known -> the last 3 numbers (_known)
        self.tenths: dict[str, tuple[float, float, float, float]] = {}   # certificate -> _tenths
        return ((("display", 4 * module.data.display[n]), ("stack", 1)), ("m.display", "m.stack", "m.under"),
                self._display_fact, self._display), \
            ((("holdings", _HOLDING * figures),), ("m.down", "m.up", "m.track", "seat"), self._holdings_fact, self._holdings), \
            ((("audience", len(SIDE1) * n), ("audience_usable", 1), ("deposits_asked", 1)),
             ("m.audience", "m.display", "m.asked", "phase", "round", "seat"), self._audience_fact, self._audience), \
            ((("track", 2 + figures),), ("m.track",), None, self._track)

    def _display_fact(self, k: tuple, seat: int) -> tuple:
        display, stack, under = k
        return display, len(stack) + len(under)

    def _holdings_fact(self, k: tuple, seat: int) -> tuple:
        down, up, track = k     # the face-down ones: the seat's own, every figure's after the final scoring
        return tuple(map(len, down)), up, down[seat], down if track is not None else None

    def _audience_fact(self, k: tuple, seat: int) -> tuple:
        audience, display, asked, phase, rnd = k    # while planning, the seat's own tile alone
        return (audience if phase != PLAN else tuple(col if f == seat else -1 for f, col in enumerate(audience)),
                bool(display), asked == rnd)

    def view_facts(self, part, seat: int) -> tuple:
        words = part["column_words"]
        track = part["track"]
        return ((tuple(c["certificate"] for c in part["display"]), part["stack"]),
                _view_holdings(part["figures"], seat),
                (tuple(-1 if w is None else words.index(w) for w in part["audience"]),
                 part["audience_usable"], part["deposits_asked"]),
                None if track is None else tuple(-1 if v is None else v for v in track["figures"]) + (track["bishop"],))

    def _display(self, fact: tuple, seat: int, x, p: int) -> None:
        display, stack = fact
        x[p + self.at["stack"]] = stack / self.certs      # (the display's part starts the module's)
        tenths = self.tenths
        for c in display:
            price, vp, bells, _ = tenths.get(c) or self._tenths(c)
            x[p] = 1.0
            x[p + 1] = price
            x[p + 2] = vp
            x[p + 3] = bells
            p += 4

    def _holdings(self, holdings: tuple, seat: int, x, p: int) -> None:
        """``holdings``: face-down counts, partly paid (certificate, paid) per figure, the
        observer's face-down certificates, every figure's after the final scoring (else None);
        each figure's numbers are kept by what they are made from: what every seat sees
        (:meth:`_holding`: the same for each observer) and the face-down certificates known
        (:meth:`_known`)."""
        counts, ups, mine, every = holdings
        blocks, known_blocks = self.holdings, self.known
        for j, f in enumerate(self.figures_from[seat]):
            key = (counts[f], ups[f])
            block = blocks.get(key)
            q = p + j * _HOLDING
            x[q:q + _PUBLIC] = block if block is not None else self._holding(key)
            known = every[f] if every is not None else mine if f == seat else None
            if known is not None:
                block = known_blocks.get(known)
                x[q + _PUBLIC:q + _HOLDING] = block if block is not None else self._known(known)

    def _holding(self, key: tuple) -> array:
        """One figure's first 7 numbers of ``holdings`` from (face-down count, partly paid ones),
        kept in :attr:`holdings`."""
        down, up = key
        block = array("f", bytes(4 * _PUBLIC))
        x: Any = memoryview(block)   # (its stores are cheaper than the array's: no argument parsing)
        x[0] = (down + len(up)) / 10
        x[1] = down / 10
        x[2] = len(up) / 5
        tenths = self.tenths
        for c, paid in up:
            price, vp, bells, _ = tenths.get(c) or self._tenths(c)
            x[3] += price
            x[4] += paid / 10
            x[5] += vp
            x[6] += bells
        if len(self.holdings) > 4096:
            self.holdings.clear()
        self.holdings[key] = block
        return block

    def _known(self, known: tuple) -> array:
        """A figure's last 3 numbers of ``holdings`` from its face-down certificates, the
        observer knows them: 1, their VP / 10 and bells / 20, each summed; kept in :attr:`known`."""
        block = array("f", bytes(4 * (_HOLDING - _PUBLIC)))
        x: Any = memoryview(block)
        x[0] = 1.0
        tenths = self.tenths
        for c in known:
            _, vp, _, bells = tenths.get(c) or self._tenths(c)
            x[1] += vp
            x[2] += bells
        if len(self.known) > 4096:
            self.known.clear()
        self.known[known] = block
        return block

    def _tenths(self, c: str) -> tuple[float, float, float, float]:
        """A certificate's price / 10, VP / 10, bells / 10 and bells / 20 (kept in :attr:`tenths`)."""
        price, vp, bells = cert(c)
        got = self.tenths[c] = (price / 10, vp / 10, bells / 10, bells / 20)
        return got

    def _audience(self, fact: tuple, seat: int, x, p: int) -> None:
        audience, usable, asked = fact
        for j, f in enumerate(self.seats_from[seat]):
            if audience[f] >= 0:
                x[p + j * len(SIDE1) + audience[f]] = 1.0
        q = p + len(SIDE1) * self.n
        x[q] = 1.0 if usable else 0.0
        x[q + 1] = 1.0 if asked else 0.0

    def _track(self, track: tuple | None, seat: int, x, p: int) -> None:
        if track is not None:
            x[p] = 1.0
            for j, f in enumerate(self.figures_from[seat], p + 1):
                x[j] = (track[f] + 1) / self.spaces
            x[p + 1 + self.figures] = (track[-1] + 1) / self.spaces


def _view_holdings(figures: list, seat: int) -> tuple:
    """BellsSlots' holdings facts from a view's ``figures``."""
    down = [None if "face_down_certificates" not in h else tuple(c["certificate"] for c in h["face_down_certificates"])
            for h in figures]
    return (tuple(h["face_down"] for h in figures),
            tuple(tuple((c["certificate"], c["paid"]) for c in h["partly_paid"]) for h in figures),
            down[seat], tuple(down) if None not in down else None)


register_slots(BellsSlots)
