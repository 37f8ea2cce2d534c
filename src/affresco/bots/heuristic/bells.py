"""HeuristicBot's valuation of the bells (module 8): the audience tile in the plan, which
certificate to buy and how (in full or an instalment), paying more onto a partly paid one.

A certificate is worth its VP now plus what its bells add to the expected final bell bonus:
the bot places every figure on the bell track by the bells it can see or expect (its own
exactly; another figure ``bells_per_certificate`` per face-down certificate; the bishop a
share of the certificates not yet sold) and reads the threshold and rank points off the
board in the view.  A partly paid certificate counts its bells against the owner unless it
is expected to be paid by the end (the Thalers the rounds left should bring), and the money
owed is money lost.  Every number is in :class:`Weights` (``bell_*``).  A layer of
:class:`~affresco.bots.heuristic.HeuristicBot`.
"""
from __future__ import annotations

from typing import Sequence

from ...rules import Action, PlanVariants, read_plan
from ...rules.actions import parse
from ..model import Model
from .modules import ModuleValuation
from .weights import NEVER

__all__ = ["BellsValuation", "KINDS"]

KINDS = frozenset({"audience", "deposit"})


def _cert(text: str) -> tuple[int, int, int]:
    price, vp, bells = (int(x) for x in text.split(":"))
    return price, vp, bells


class BellsValuation(ModuleValuation):
    """Bells methods of :class:`~affresco.bots.heuristic.HeuristicBot` (a layer of its chain,
    see :class:`~.valuation.Valuation`)."""

    # ------------------------------------------------------------------ the bell bonus
    def bell_bonus(self, m: Model, mine: int) -> float:
        """Expected final bell bonus (threshold VP + rank points) with ``mine`` bells."""
        b = m.view["bells"]
        w = self.w
        others = []
        for f, h in enumerate(b["figures"]):
            if f == m.seat or not h["certificates"]:
                continue
            partial = sum(c["bells"] for c in h["partly_paid"])
            others.append(h["face_down"] * w.bell_per_certificate - partial * (1.0 - w.bell_paid_share))
        unsold = b["stack"] + len(b["display"])
        bishop = unsold * w.bell_per_certificate * w.bell_unsold_share
        spaces = sorted(others + [bishop], reverse=True)
        rank = sum(1 for x in spaces if x >= mine)
        points = b["rank_points"]
        threshold = max((vp for sp, vp in b["thresholds"] if sp <= mine), default=0)
        return threshold + (points[rank] if rank < len(points) else 0) + w.bell_step * mine

    def my_bells(self, m: Model) -> tuple[int, int]:
        """(face-down bells, bells on partly paid certificates) of this seat."""
        h = m.view["bells"]["figures"][m.seat]
        return (sum(c["bells"] for c in h.get("face_down_certificates", ())),
                sum(c["bells"] for c in h["partly_paid"]))

    def paid_chance(self, m: Model, owed: int, spare: int) -> float:
        """How likely a certificate with ``owed`` Thalers still to pay is paid by the end:
        the rounds left bring ``bell_earnings`` Thalers each; ``spare`` can be paid at once."""
        if owed <= spare:
            return 1.0
        if m.final:
            return 0.0
        return min(1.0, self.incomes_left(m) * self.w.bell_earnings / max(1, owed - spare))

    def _money_loss(self, m: Model, thalers: int, paid: int) -> float:
        return self.money(m, thalers, m.final) - self.money(m, thalers - paid, m.final)

    # ------------------------------------------------------------------ decisions
    def audience_value(self, m: Model, a: Action, thalers: int | None = None) -> float:
        """Worth of ``audience CERT full`` or ``audience CERT pay K`` now."""
        thalers = m.thalers if thalers is None else thalers
        price, vp, bells = _cert(a.args[0])
        down, up = self.my_bells(m)
        now = self.bell_bonus(m, down - up)
        if a.args[1] == "full":
            return vp + self.bell_bonus(m, down - up + bells) - now - self._money_loss(m, thalers, price)
        k = int(a.args[2])
        owed = price - k
        chance = self.paid_chance(m, owed, max(0, thalers - k - self.w.reserve) if not m.final else thalers - k)
        gain = chance * (self.bell_bonus(m, down - up + bells) - now) + (1 - chance) * (
            self.bell_bonus(m, down - up - bells) - now)
        owed_cost = self.w.thaler * owed * chance      # the income that will go onto it
        return k // m.view["bells"]["thalers_per_vp"] + gain - self._money_loss(m, thalers, k) - owed_cost

    def deposit_value(self, m: Model, a: Action) -> float:
        """Worth of ``deposit CERT K`` (or ``deposit none``: 0)."""
        if a.args[0] == "none":
            return 0.0
        c, k = a.args[0], int(a.args[1])
        price, _, bells = _cert(c)
        paid = next((x["paid"] for x in m.view["bells"]["figures"][m.seat]["partly_paid"]
                     if x["certificate"] == c), 0)
        loss = self._money_loss(m, m.thalers, k)
        if paid + k < price:
            return -loss - self.w.bell_step         # money locked away for nothing now
        down, up = self.my_bells(m)
        if m.final:
            return self.bell_bonus(m, down - up + 2 * bells) - self.bell_bonus(m, down - up) - loss
        # earlier: income would pay it anyway; paying now only frees later income
        return self.w.bell_early_payoff - loss

    def bells_ranked(self, m: Model, legal: Sequence[Action]) -> list[tuple[float, Action]]:
        if any(a.kind == "audience" for a in legal):
            return [(self.audience_value(m, a) if a.kind == "audience" else NEVER, a) for a in legal]
        return [(self.deposit_value(m, a) if a.kind == "deposit" else NEVER, a) for a in legal]

    # ------------------------------------------------------------------ planning
    def audience_plans(self, m: Model, ranked: list[tuple[float, Action]], legal: Sequence[Action]
                       ) -> list[tuple[float, Action]]:
        """The built plans again with the audience tile on their last empty column, worth the
        best purchase the display offers now (``bell_audience_share`` of it: others may buy it
        first), when that is worth having."""
        b = m.view.get("bells")
        if not b or not b["audience_usable"]:
            return ranked
        best = max((self.audience_value(m, Action("audience", (c["certificate"], *opt)))
                    for c in b["display"]
                    for opt in ((("full",),) if m.thalers >= c["price"] else ())
                    + tuple(("pay", str(k)) for k in range(min(c["price"] - 1, m.thalers) + 1))),
                   default=NEVER)
        if best <= self.w.bell_audience_min:
            return ranked
        legal_set = legal if type(legal) is PlanVariants else set(legal)   # a lazy one answers `in` itself
        words = b["column_words"]
        out = list(ranked)
        for score, a in ranked:
            plan = read_plan(a)
            empty = [i for i, x in enumerate(plan[0]) if x == 0] if plan is not None else ()
            if not empty:
                continue
            if "audience" in a.args or words[empty[-1]] in a.args[1:]:
                continue   # a column another action tile covers stays as it is
            with_tile = parse(" ".join(("plan", a.args[0], "audience", words[empty[-1]], *a.args[1:])))
            if with_tile in legal_set:
                out.append((score + self.w.bell_audience_share * best, with_tile))
        return out
