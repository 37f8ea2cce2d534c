"""HeuristicBot as Leonardo's controller (2 players): his decisions, made against the opponent."""
from __future__ import annotations

from typing import Sequence

from ...rules import Action
from ...rules.paints import BASIC
from ..model import SEGMENT, Model, add, cover, covers, parse_tile, vec
from .round import RoundSimulation
from .weights import NEVER

__all__ = ["LeonardoPlay"]


class LeonardoPlay(RoundSimulation):
    """Leonardo's decisions for :class:`~affresco.bots.heuristic.HeuristicBot` (a layer of its
    chain, see :class:`~.valuation.Valuation`)."""


    def _leonardo(self, m: Model, legal: Sequence[Action]) -> list[tuple[float, Action]]:
        kinds = {a.kind for a in legal}
        leo = m.leonardo
        opponent = next(f for f in range(len(m.names)) if f not in (m.seat, leo))
        if "getup" in kinds:
            return self._leonardo_getup(m, legal, opponent)
        out = []
        for a in legal:
            if a.kind == "close":
                out.append((self._leonardo_close_score(m, a.args[0], opponent), a))
            elif a.kind == "restore":
                out.append((self._leonardo_restore_score(m, SEGMENT[a.args[0]]), a))
            elif a.kind == "portrait":
                out.append((self._leonardo_portrait_score(m, a, opponent), a))
            elif a.kind == "request":
                out.append((self._leonardo_request_score(m, a, opponent), a))
            elif a.kind == "pass":
                out.append((0.0, a))
        return out

    def _leonardo_getup(self, m: Model, legal: Sequence[Action], opponent: int) -> list[tuple[float, Action]]:
        times = [a.args[0] for a in legal]
        order = [h["time"] for h in m.hostel]
        candidates = list(times)
        if m.me.get("getup") is None and len(candidates) > 1:
            mine = self.getup_scores(m, times)
            candidates.remove(max(mine, key=lambda t: mine[t]))
        opp_time = m.view["figures"][opponent].get("getup")
        if opp_time is None:
            # deny the opponent the space a player would like best (judged as for myself)
            scores = self.getup_scores(m, candidates)
        else:
            # act before the opponent: close their booth, take their tile first
            scores = {t: (1.0 if order.index(t) < order.index(opp_time) else 0.0) - self.w.leo_order * order.index(t)
                      for t in candidates}
        return [(scores.get(a.args[0], NEVER), a) for a in legal]

    def _leonardo_close_score(self, m: Model, booth: str, opponent: int) -> float:
        leo = _figure(m)
        score = 0.0
        tiles = m.view["booths"].get(booth, [])
        if m.visits(opponent, "market") and m.later_in_order(opponent, leo):
            score += self.w.deny * sum(len(t) + sum(c not in BASIC for c in t) for t in tiles)
        if m.visits(m.seat, "market") and m.later_in_order(m.seat, leo):
            hz = self.horizon(m)
            base = self.value(m, m.paints, m.thalers, m.tiles, m.bishop, hz)
            most = m.visits(m.seat, "market")
            price = m.price()
            gains = [0.0]
            for b, combo in self.buys(m, most):
                if b != booth or price * len(combo) > m.thalers:
                    continue
                after = m.paints
                for t in combo:
                    after = add(after, vec(t))
                gains.append(self.value(m, after, m.thalers - price * len(combo), m.tiles, m.bishop, hz) - base)
            score -= max(gains)
        return score

    def _leonardo_restore_score(self, m: Model, seg: int) -> float:
        w = self.w
        tile = next(t for t in m.tiles if t.segment == seg)
        leo_gain = tile.vp + m.rules.bishop_bonus(m.bishop, seg)
        score = -w.leo_vp * leo_gain
        if cover(m.paints, tile, m.blends) is not None:
            score -= w.leo_mine * tile.vp
        if m.visits(m.seat, "cathedral") and m.later_in_order(m.seat, _figure(m)):
            mine = [t for t in m.tiles if t is not tile and covers(m.paints, t.need)]
            if mine:
                score += w.leo_bishop * max(m.bonus(seg, t.segment) for t in mine)
        return score

    def _leonardo_portrait_score(self, m: Model, a: Action, opponent: int) -> float:
        """Leonardo must paint a displayed portrait: few VP for him, the card the opponent
        would want most (if the opponent visits the studio after him), the one I want least
        (if I visit it after him)."""
        w = self.w
        card = next((c for c in (m.portraits or {}).get("display", []) if c["id"] == a.args[0]), None)
        if card is None:
            return NEVER
        score = -w.leo_vp * (int(card.get("vp", 0) or 0) + int(card.get("vp_or_thalers", 0) or 0))
        hz = self.horizon(m)
        worth = max(self.card_value(m, card, ch, hz) for ch in self.card_choices(card))
        if m.visits(opponent, "studio") and m.later_in_order(opponent, _figure(m)):
            score += w.leo_deny * worth  # judged as if it were for me
        if m.visits(m.seat, "studio") and m.later_in_order(m.seat, _figure(m)):
            score -= worth
        return score

    def _leonardo_request_score(self, m: Model, a: Action, opponent: int) -> float:
        """Leonardo may fulfil a request (VP for him): only to deny it to the opponent."""
        w = self.w
        values = (m.requests or {}).get("stacks", {}).get(a.args[0])
        if not values:
            return NEVER
        vp = values[-1]
        requests = m.rules.module("requests")
        colour = requests.paint.get(a.args[0])
        score = -w.leo_vp * vp
        opp_tiles = [parse_tile(t) for t in m.view["figures"][opponent].get("tiles", [])]
        if sum(1 for x in opp_tiles if colour is None or colour in x.splashes) >= requests.per:
            score += w.leo_deny * vp
        mine = m.my_tiles()
        if sum(1 for x in mine if colour is None or colour in x.splashes) >= requests.per:
            score -= vp
        return score


def _figure(m: Model) -> int:
    """Leonardo's figure (these decisions are his: he is in the game)."""
    leo = m.leonardo
    assert leo is not None
    return leo
