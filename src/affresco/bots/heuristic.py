"""HeuristicBot: a fast, sensible player for the whole game, every module included.

It values a position as

    VP already scored
    + ``future`` x the VP of the best few fresco tiles its paints could restore
      (with the bishop's bonus they would get, less ``blend_penalty`` per blend still needed)
    + ``piece`` per other paint piece (less as the game nears its end)
    + the Thalers (1/2 VP each, more for the first few that pay for paints)
    + the mood (an apprentice more or less next round)

and at every decision takes the legal action that leads to the best value (one step of
look-ahead); every module decision is evaluated the same way (no random choice anywhere).

* **Get-up time**: for each free space, the best round it could plan there (price, mood,
  apprentices), plus a little for acting early.
* **Planning** simulates the round for each number of market tiles it might buy: buy the best
  tiles, restore what it then can (the altar late), fulfil a bishop's request when it pays,
  blend what enables a later restoration, paint a portrait worth more than 3 Thalers, then
  theater if the mood is low and studio if money is short, spare apprentices where they are
  worth most.  Simulating the round is memoised, so the plan of the chosen get-up time costs
  nothing more.
* **Visits** score every legal action by the value it leads to: purchases, closing a booth an
  opponent would buy from, restorations (bishop bonus with the Abbot, a paid bishop or Sexton
  move, the expected favour token, the chance to play a scroll), the altar, blends (special
  colours included), portraits (the card's VP, Thalers, paints, mood, or what a permanent card
  is worth over the rounds left) against 3 Thalers, requests (VP and income against the income
  of the 3 tiles stacked and the blends given up).
* **Module questions**: the general request's paint (``income R|Y|B``) is the paint worth most
  to its holdings; a scroll is played when its VP now beat what keeping it is expected to
  bring (``scroll_keep``), always in the final round.
* **Leonardo** (2 players, as his controller): he acts early, closes the booth the opponent
  would want, restores the tile that gives him the fewest VP and the opponent the least,
  paints the portrait worth least to him and most to the opponent, fulfils a request only
  to deny it to the opponent; on the VP track he stops behind, its own figure ahead.

Every number is in :class:`Weights` (documented in docs/bots.md).  It uses only
``view(seat)`` and ``legal_actions(seat)``.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement
from math import ceil
from typing import Any, Mapping, Sequence

from ..rules import Action
from ..rules.board import NEIGHBOURS8, SIZE
from ..rules.paints import PAINTS
from .base import Bot
from . import heuristic_medico as medico
from .heuristic_medico import KINDS as MEDICO_KINDS
from .model import (_COVER_MEMO, _MISS, BLEND_INPUTS, BLENDS_PER_APPRENTICE, CATHEDRAL, CHEB, FINAL_TILES, SEGMENT,
                    SPACES, START_APPRENTICES, STUDIO_THALERS, THALERS_PER_VP, TILE_THALERS, Model, Paints, Tile,
                    add, altar_vp, bishop_bonus, cover, covers, module, parse_tile, sub, vec)

__all__ = ["HeuristicBot", "Weights", "DEFAULT_WEIGHTS"]


@dataclass(frozen=True)
class Weights:
    """Every number HeuristicBot uses (values in VP unless said otherwise)."""

    # --- what things are worth -------------------------------------------------------
    thaler: float = 0.5            # a Thaler: 2 Thalers make 1 VP in final scoring
    thaler_reserve: float = 0.35   # extra worth of each of the first `reserve` Thalers (they buy paints)
    reserve: int = 6               # Thalers kept as a float for next round's market
    future: float = 0.7            # share of the VP of tiles the paints could restore later
    targets: int = 3               # how many later restorations that potential counts
    blend_penalty: float = 0.6     # less per blend such a restoration still needs (workshop, time)
    bishop_future: float = 0.4     # share of the bishop bonus counted for later restorations
    piece: float = 0.3             # a paint piece not needed by those tiles (blended: x2); fades near the end
    mood_step: float = 0.35        # one space higher on the mood display (later rounds)
    mood_zone: float = 1.2         # next round's mood zone (+1/-1) at the end of this round
    early: float = 0.25            # per figure acting after me (first choice of booth and tiles)
    deny: float = 0.25             # per paint piece of a booth closed before an opponent buys there
    # --- planning thresholds -----------------------------------------------------------
    low_money: int = 5             # fewer Thalers than this after the market: send apprentices to the studio
    theater_mood: int = 4          # mood index (0 = top of the display) from which the theater is planned
    altar_tiles_left: int = 9      # the altar is planned when at most this many fresco tiles remain
    tiles_per_round: float = 2.6   # fresco tiles restored per round (all figures), to estimate the rounds left
    # --- modules -------------------------------------------------------------------------
    favour: float = 0.9            # expected worth of a bishop's favour token (restoring under the bishop)
    portrait_risk: float = 0.8     # share of a displayed portrait's worth counted when planning (others may take it)
    abbot: float = 0.8             # Abbot: per restoration with a bishop bonus expected in the rounds left
    restorations_per_round: float = 1.3  # my restorations per round, for the Abbot
    sexton: float = 1.0            # Sexton: per round left (a free choice of the bishop's square)
    actor: float = 0.3             # Actor: per round left (theater +3 instead of +2)
    request_paint: float = 0.6     # a paint a request pays at each income
    request_keep: float = 0.15     # per splash of the tiles stacked under a general request (kept for special ones)
    scroll_keep: float = 0.45      # share of a line's best scroll VP that keeping the scroll is worth
    scroll_chance: float = 0.6     # how much an unrestored segment of the line counts in that best VP
    medico_apprentice: float = 4.0  # an own apprentice kept healthy for the rest of the game (beside its 5 Thalers)
    medico_infection_risk: float = 0.2  # chance that a healthy apprentice's column is infected
    medico_juice: float = 0.8      # a raspberry juice used (one mood step)
    medico_waste: float = 0.3      # a healing portion or juice used for nothing (kept, it might serve later)
    medico_saints_loss: float = 0.4  # an ill studio apprentice paints saints (a paint) instead of 3 free Thalers
    # --- as Leonardo's controller (2 players) ------------------------------------------
    leo_vp: float = 1.0            # each VP Leonardo scores counts against me
    leo_mine: float = 0.8          # share of a tile's VP I lose when Leonardo takes a tile I could restore
    leo_bishop: float = 0.7        # share of the bishop bonus his restoration sets up for my next one
    leo_deny: float = 0.6          # share of a portrait's / request's worth to the opponent that denying it is worth


DEFAULT_WEIGHTS = Weights()
KNOWN_KINDS = frozenset({"getup", "plan", "buy", "close", "restore", "altar", "studio", "blend", "theater", "track",
                         "pass", "portrait", "request", "income", "scroll"}) | MEDICO_KINDS
# bishop bonus reachable from a distance 0, 1 or 2 (then adjacent after a paid one-step move)
_BISHOP_FUTURE = (CATHEDRAL["bishop_on_segment"], CATHEDRAL["bishop_adjacent"],
                  CATHEDRAL["bishop_adjacent"] - CATHEDRAL["bishop_move_cost"])
_REQUESTS = module("requests")  # type -> colour (.paint, None: general), tiles per request, income
_SCROLLS = module("scrolls")    # VP per restored segment of the line, and their caps
_SPECIAL = module("special_colours")


@dataclass(frozen=True, slots=True)
class Horizon:
    """What the paints are still good for: ``k`` restorations, worth ``share`` of their VP,
    ``blends`` whether a workshop visit comes before them."""

    k: int
    share: float
    blends: bool
    final: bool


class HeuristicBot(Bot):
    """One-step lookahead on a hand-made value (see the module docstring and :class:`Weights`)."""

    name = "heuristic"

    def __init__(self, seed: int | str | None = 0, weights: Weights | None = None):
        super().__init__(seed)
        self.w = weights or DEFAULT_WEIGHTS
        self._memo: dict = {}        # potential() results, for one decision only
        self._keys: dict = {}        # tile-list masks, for one decision only
        self._plans: dict = {}       # plan_round() results, kept from the get-up choice to the plan
        self.fallbacks = 0           # decisions of a kind it does not know (should stay 0)

    # ------------------------------------------------------------------ entry points
    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], seat: int) -> Action:
        if len(legal) == 1:
            return legal[0]
        ranked = self.rank(view, legal, seat)
        return ranked[0][1]

    def rank(self, view: Mapping[str, Any], legal: Sequence[Action], seat: int) -> list[tuple[float, Action]]:
        """(score, action) of the actions worth considering, best first (ties keep the legal
        order).  Scores compare actions of this one decision only.  Planning gives the plans
        it built (one per market size and variants), not every legal plan."""
        legal = list(legal)
        if len(legal) == 1:
            return [(0.0, legal[0])]
        self._memo, self._keys = {}, {}
        m = Model(view, seat)
        kinds = {a.kind for a in legal}
        if "track" in kinds:
            want = "behind" if m.for_leonardo() else "ahead"
            scored = [(1.0 if a.args == (want,) else 0.0, a) for a in legal]
        elif m.for_leonardo():
            scored = self._leonardo(m, legal)
        elif "getup" in kinds:
            scores = self.getup_scores(m, [a.args[0] for a in legal if a.kind == "getup"])
            scored = [(scores.get(a.args[0], -1e9) if a.kind == "getup" else -1e9, a) for a in legal]
        elif "plan" in kinds:
            scored = self._plans_ranked(m, legal)
        elif "income" in kinds:
            scored = self._income(m, legal)
        elif "scroll" in kinds:
            scored = self._scroll(m, legal)
        elif kinds & {"medicine", "heal", "aside", "illness"}:
            scored = medico.score_decision(self, m, legal)
        else:
            hz = self.horizon(m)
            base = self.value(m, m.paints, m.thalers, m.tiles, m.bishop, hz)
            scored = []
            for a in legal:
                s = self.score_visit_action(m, a, hz, base)
                if s is not None:
                    scored.append((s, a))
        if not scored or not kinds <= KNOWN_KINDS:
            self.fallbacks += 1  # a kind of action this bot does not know (should not happen)
        if not scored:  # then take the first action that is not 'pass'
            scored = [(0.0, next((a for a in legal if a.kind != "pass"), legal[0]))]
        order = {id(a): i for i, a in enumerate(legal)}
        scored.sort(key=lambda sa: (-sa[0], order.get(id(sa[1]), len(legal))))
        return scored

    # ------------------------------------------------------------------ valuation
    def money(self, thalers: int, final: bool) -> float:
        if final:
            return float(thalers // THALERS_PER_VP)
        return self.w.thaler * thalers + self.w.thaler_reserve * min(thalers, self.w.reserve)

    def mood_value(self, m: Model, index: int) -> float:
        if m.final:
            return 0.0
        return self.w.mood_zone * m.zone(index) - self.w.mood_step * index

    def incomes_left(self, m: Model) -> float:
        """Expected number of income phases still to come (this round's included)."""
        if m.final:
            return 0.0
        pr = self.w.tiles_per_round
        left = 1.0 + max(0.0, (len(m.tiles) - FINAL_TILES) / pr - 1.0)
        if m.portraits is not None:
            left = min(left, max(1.0, sum(m.portraits["deck_left"].values()) / 2))
        return left

    def _tiles_key(self, tiles: Sequence[Tile]) -> int:
        """A bit mask of the segments of ``tiles`` (memoised per list object, for one decision)."""
        hit = self._keys.get(id(tiles))
        if hit is not None and hit[0] is tiles:
            return hit[1]
        mask = 0
        for t in tiles:
            mask |= 1 << t.segment
        self._keys[id(tiles)] = (tiles, mask)
        return mask

    def potential(self, have: Paints, tiles: Sequence[Tile], bishop: int, hz: Horizon,
                  blends: dict = BLEND_INPUTS) -> tuple[float, Paints]:
        """VP of the best ``hz.k`` tiles ``have`` could restore one after the other (greedy),
        and the paints left over."""
        nb = len(blends)
        key = (have, self._tiles_key(tiles), bishop, hz, nb)
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        w = self.w
        total = 0.0
        candidates = tiles  # paints only shrink: a tile out of reach stays out of reach
        cheb = CHEB[bishop]
        memo = _COVER_MEMO
        penalty, bfut = w.blend_penalty, w.bishop_future
        for _ in range(hz.k):
            best = None
            reachable = []
            for t in candidates:
                res = memo.get((have, t.items, nb), _MISS)
                if res is _MISS:
                    res = cover(have, t, blends)
                if res is None or (res[0] and not hz.blends):
                    continue
                reachable.append(t)
                d = cheb[t.segment]
                score = t.vp - penalty * res[0] + (bfut * _BISHOP_FUTURE[d] if d < 3 else 0.0)
                if best is None or score > best[0]:
                    best = (score, t, res[1])
            if best is None:
                break
            total += best[0]
            have = best[2]
            candidates = [t for t in reachable if t is not best[1]]
            cheb = CHEB[best[1].segment]
        self._memo[key] = (total, have)
        return total, have

    def value(self, m: Model, paints: Paints, thalers: int, tiles: Sequence[Tile], bishop: int, hz: Horizon) -> float:
        """Worth of holding ``paints`` and ``thalers`` with this fresco (VP scored not included)."""
        return self.holdings(m, paints, tiles, bishop, hz) + self.money(thalers, hz.final)

    def holdings(self, m: Model, paints: Paints, tiles: Sequence[Tile], bishop: int, hz: Horizon) -> float:
        """Worth of holding ``paints`` (the Thalers apart)."""
        pot, rest = self.potential(paints, tiles, bishop, hz, m.blends) if hz.k else (0.0, paints)
        stage = 0.0 if hz.final else min(1.0, max(0.0, (len(tiles) - FINAL_TILES) / 10))
        pieces = sum(rest[:3]) + 2 * sum(rest[3:])
        return hz.share * pot + self.w.piece * stage * pieces

    def horizon(self, m: Model) -> Horizon:
        """What paints are good for from the current point of the round."""
        if not m.final:
            return Horizon(self.w.targets, self.w.future, True, False)
        plan = m.plan or [0] * len(m.columns)
        loc = m.view.get("location")
        cathedral = sum(n for col, n in zip(m.columns, plan) if col == "cathedral")
        if loc in (None, "market"):
            return Horizon(min(cathedral, 6), 1.0, True, True)
        if loc == "cathedral":
            col = m.view.get("column")
            left = (m.view.get("visit_left") or 0) + (plan[-1] if col == 1 else 0)
            return Horizon(min(left, 6), 1.0, col == 1, True)
        if loc == "workshop":
            return Horizon(min(plan[-1], 3), 1.0, True, True)
        return Horizon(min(plan[-1], 3), 1.0, loc != "cathedral", True)  # studio: the second cathedral visit

    def position_value(self, view: Mapping[str, Any], seat: int) -> float:
        """VP plus the worth of the seat's holdings (paints, Thalers, mood, permanent
        portraits, unplayed scrolls) as seen from ``view`` = view(seat): the search's leaf value."""
        m = Model(view, seat)
        self._memo, self._keys = {}, {}
        vp = max(0, m.me.get("vp", 0))
        if view.get("is_over"):
            return float(vp)
        hz = self.horizon(m) if view.get("phase") == "visits" else (
            Horizon(self.w.targets, self.w.future, True, False) if not m.final else Horizon(6, 1.0, True, True))
        v = vp + self.value(m, m.paints, m.thalers, m.tiles, m.bishop, hz) + self.mood_value(m, m.me.get("mood", 0))
        if m.portraits is not None:
            incomes = self.incomes_left(m)
            v += self.w.thaler * m.income_extra * incomes
            v += self.w.abbot * m.abbot * self.w.restorations_per_round * incomes
            v += self.w.sexton * (1 if m.sexton_cost else 0) * incomes
        if m.scroll_row is not None or m.scroll_col is not None:
            v += self.scroll_hold(m, m.scroll_row, m.scroll_col, None)
        v += self.w.thaler * len(m.me.get("tiles", ())) * self.incomes_left(m)  # their income to come
        return v

    # ------------------------------------------------------------------ market helpers
    @staticmethod
    def buys(m: Model, most: int):
        """(booth, tiles) of every purchase of 1..most tiles from one booth."""
        for booth, tiles in m.view["booths"].items():
            seen = set()
            for k in range(1, min(most, len(tiles)) + 1):
                for combo in combinations(sorted(tiles), k):
                    if combo not in seen:
                        seen.add(combo)
                        yield booth, combo

    def best_buy(self, m: Model, paints: Paints, thalers: int, price: int, size: int, hz: Horizon):
        """Best purchase of exactly ``size`` tiles: (gain, paints after, thalers after) or None."""
        if size == 0:
            return 0.0, paints, thalers
        if price * size > thalers:
            return None
        combo = self.best_combo(m, paints, size, hz)
        if combo is None:
            return None
        worth, after = combo
        gain = worth - self.holdings(m, paints, m.tiles, m.bishop, hz) + \
            self.money(thalers - price * size, hz.final) - self.money(thalers, hz.final)
        return gain, after, thalers - price * size

    def best_combo(self, m: Model, paints: Paints, size: int, hz: Horizon):
        """The purchase of exactly ``size`` tiles whose paints are worth most (price apart: it
        is the same for every purchase of that size): (worth of the paints after, paints after)."""
        key = ("buy", paints, size, hz)
        hit = self._memo.get(key)
        if hit is not None or key in self._memo:
            return hit
        best = None
        for booth, combo in self.buys(m, size):
            if len(combo) != size:
                continue
            after = paints
            for t in combo:
                after = add(after, vec(t))
            worth = self.holdings(m, after, m.tiles, m.bishop, hz)
            if best is None or worth > best[0]:
                best = (worth, after)
        self._memo[key] = best
        return best

    # ------------------------------------------------------------------ cathedral helpers
    def on_segment_extra(self, m: Model, segment: int, tiles_after: Sequence[Tile]) -> float:
        """What restoring ``segment`` with the bishop on it adds beyond the bonus: the favour
        token and the chance to play a scroll."""
        extra = self.w.favour if m.favour_left else 0.0
        if m.scroll_row is not None or m.scroll_col is not None:
            r, c = divmod(segment, SIZE)
            if m.scroll_row == r or m.scroll_col == c:
                open_ = {t.segment for t in tiles_after}
                best = max(self.scroll_options(m, segment, open_).values())
                extra += max(0.0, best - self.scroll_hold(m, m.scroll_row, m.scroll_col, open_ | {segment}))
        return extra

    def restore_gain(self, m: Model, tile: Tile, bishop: int, thalers: int, sexton: bool = False) -> tuple[float, int, int]:
        """(VP, bishop position used, Thalers paid) of restoring ``tile`` now, moving the bishop
        (one step, or anywhere with the Sexton) first when that gains more than the Thaler."""
        seg = tile.segment
        fav = self.w.favour if m.favour_left else 0.0
        best = (float(tile.vp + m.bonus(bishop, seg)) + (fav if bishop == seg else 0.0), bishop, 0)
        if thalers >= 1:
            cost = self.w.thaler + self.w.thaler_reserve
            steps = NEIGHBOURS8[bishop] if not (sexton and m.sexton_cost and thalers >= m.sexton_cost) else (seg,)
            for b in steps:
                vp = tile.vp + m.bonus(b, seg) + (fav if b == seg else 0.0)
                if vp - cost > best[0]:
                    best = (float(vp), b, 1)
        return best

    def simulate_cathedral(self, m: Model, paints: Paints, thalers: int, tiles: list[Tile], bishop: int,
                           most: int, altar: bool, sexton: bool = False):
        """Greedy restorations without blending: (count, VP, paints, thalers, tiles, bishop)."""
        count = vp = 0
        for _ in range(most):
            best = None
            for t in tiles:
                if covers(paints, t.need):
                    g, b, paid = self.restore_gain(m, t, bishop, thalers, sexton)
                    if best is None or g - paid * self.w.thaler > best[0]:
                        best = (g - paid * self.w.thaler, g, t, paid)
            if best is not None:
                _, g, t, paid = best
                count += 1
                vp += g
                paints = sub(paints, t.need)
                thalers -= paid
                tiles = [x for x in tiles if x is not t]
                bishop = t.segment
                continue
            if altar:
                form = self.best_altar(paints, m.special)
                if form:
                    count += 1
                    vp += altar_vp(form, m.special)
                    paints = sub(paints, vec(form))
                    continue
            break
        return count, vp, paints, thalers, tiles, bishop

    @staticmethod
    def best_altar(paints: Paints, special: bool = False) -> str | None:
        owned = [c for c, n in zip(PAINTS, paints) if n]
        best, form = 0, None
        for combo in combinations_with_replacement(owned, 3):
            t = "".join(combo)
            if covers(paints, vec(t)):
                v = altar_vp(t, special)
                if v > best:
                    best, form = v, t
        return form

    def simulate_blends(self, m: Model, paints: Paints, tiles: list[Tile], bishop: int, most: int, hz: Horizon):
        """Blends (at most ``most``) that raise the value of the paints, best first."""
        made: list[str] = []
        current = self.value(m, paints, 0, tiles, bishop, hz)
        for _ in range(most):
            best = None
            for out, (a, b) in m.blends.items():
                if (paints[a] >= 2) if a == b else (paints[a] and paints[b]):
                    p = list(paints)
                    p[a] -= 1
                    p[b] -= 1
                    p[out] += 1
                    v = self.value(m, tuple(p), 0, tiles, bishop, hz)
                    if v > current + 1e-9 and (best is None or v > best[0]):
                        best = (v, tuple(p), PAINTS[out])
            if best is None:
                break
            current, paints = best[0], best[1]
            made.append(best[2])
        return made, paints, current

    # ------------------------------------------------------------------ portraits
    def card_value(self, m: Model, card: Mapping[str, Any], choice: str | None, hz: Horizon,
                   paints: Paints | None = None, thalers: int | None = None) -> float:
        """What painting this portrait (with this choice) is worth to me now."""
        w = self.w
        paints = m.paints if paints is None else paints
        thalers = m.thalers if thalers is None else thalers
        vt = int(card.get("vp_or_thalers", 0) or 0)
        vp = int(card.get("vp", 0) or 0) + (vt if choice == "vp" else 0)
        gain_th = int(card.get("thalers", 0) or 0) + (vt if choice == "thalers" else 0)
        after = paints
        if card.get("paint"):
            after = add(after, vec(card["paint"]))
        if card.get("basic_paints") and choice:
            after = add(after, vec(choice))
        v = vp + (self.value(m, after, thalers + gain_th, m.tiles, m.bishop, hz)
                  - self.value(m, paints, thalers, m.tiles, m.bishop, hz))
        mood = m.me.get("mood", 0)
        if card.get("mood_top"):
            v += self.mood_value(m, 0) - self.mood_value(m, mood)
        elif card.get("mood"):
            v += self.mood_value(m, m.mood_after(int(card["mood"]), mood)) - self.mood_value(m, mood)
        incomes = self.incomes_left(m)
        if card.get("income"):
            v += w.thaler * int(card["income"]) * incomes
        if card.get("theater"):
            v += w.actor * incomes
        if card.get("bishop_bonus"):
            v += w.abbot * int(card["bishop_bonus"]) * w.restorations_per_round * incomes
        if card.get("sexton") and not m.sexton_cost:
            v += w.sexton * incomes
        return v

    @staticmethod
    def card_choices(card: Mapping[str, Any]) -> list[str | None]:
        if card.get("basic_paints"):
            return ["".join(c) for c in combinations_with_replacement("RYB", int(card["basic_paints"]))]
        if card.get("vp_or_thalers"):
            return ["vp", "thalers"]
        return [None]

    def best_portrait(self, m: Model, hz: Horizon) -> float:
        """Worth of the best displayed portrait (0 if none, or one painted this round)."""
        if m.portraits is None or not m.portraits["display"] or m.done_this_round("paints the portrait"):
            return 0.0
        return max(self.card_value(m, c, ch, hz) for c in m.portraits["display"] for ch in self.card_choices(c))

    # ------------------------------------------------------------------ requests
    def request_options(self, m: Model, tiles: Sequence[Tile]) -> list[tuple[float, str]]:
        """(worth, type) of each request I could fulfil with these tiles (tiles stacked are the
        ones least useful for later requests)."""
        if m.requests is None:
            return []
        colours = _REQUESTS.paint
        out = []
        for t, values in m.requests["stacks"].items():
            if not values:
                continue
            colour = colours.get(t)
            usable = [x for x in tiles if colour is None or colour in x.splashes]
            if len(usable) < _REQUESTS.per:
                continue
            splashes = sorted(len(x.splashes) for x in usable)[:_REQUESTS.per]
            out.append((self.request_worth(m, values[-1], colour, sum(splashes)), t))
        return out

    def request_worth(self, m: Model, vp: int, colour: str | None, splashes: int) -> float:
        w = self.w
        incomes = self.incomes_left(m)
        paint = w.request_paint if colour else w.request_paint * 1.2  # the general one: a paint of my choice
        keep = w.request_keep * splashes if colour is None else 0.0
        thalers = _REQUESTS.income - TILE_THALERS * _REQUESTS.per  # the request pays, its tiles stop paying
        return vp + incomes * (w.thaler * thalers + paint) - keep

    # ------------------------------------------------------------------ scrolls
    def scroll_options(self, m: Model, segment: int, open_: set[int]) -> dict[str, float]:
        """Worth of each scroll answer after restoring ``segment`` (``open_``: the segments
        still to restore, without it): VP now plus what the scrolls kept are worth."""
        r, c = divmod(segment, SIZE)
        row_done = sum(1 for i in range(r * SIZE, r * SIZE + SIZE) if i not in open_)
        col_done = sum(1 for i in range(c, SIZE * SIZE, SIZE) if i not in open_)
        row, col = m.scroll_row, m.scroll_col
        sc = _SCROLLS
        out = {"none": self.scroll_hold(m, row, col, open_)}
        if row == r:
            out["row"] = min(sc.one_max, sc.one_vp * row_done) + self.scroll_hold(m, None, col, open_)
        if col == c:
            out["column"] = min(sc.one_max, sc.one_vp * col_done) + self.scroll_hold(m, row, None, open_)
        if row == r and col == c:
            out["both"] = float(min(sc.both_max, sc.both_vp * (row_done + col_done)))
        return out

    def scroll_hold(self, m: Model, row: int | None, col: int | None, open_: set[int] | None) -> float:
        """What keeping these scrolls is worth (0 in the final round: unplayed scrolls score nothing)."""
        if m.final:
            return 0.0
        if open_ is None:
            open_ = {t.segment for t in m.tiles}
        w = self.w
        v = 0.0
        for cells in ([range(row * SIZE, row * SIZE + SIZE)] if row is not None else []) + \
                     ([range(col, SIZE * SIZE, SIZE)] if col is not None else []):
            left = sum(1 for i in cells if i in open_)
            if left:
                done = SIZE - left
                v += w.scroll_keep * min(float(_SCROLLS.one_max), _SCROLLS.one_vp * (done + w.scroll_chance * left))
        return v

    def _scroll(self, m: Model, legal: Sequence[Action]) -> list[tuple[float, Action]]:
        seg = m.bishop  # the bishop stands on the segment just restored
        opts = self.scroll_options(m, seg, {t.segment for t in m.tiles})
        return [(opts.get(a.args[0], -1e9), a) for a in legal if a.kind == "scroll"]

    # ------------------------------------------------------------------ the general request's paint
    def _income(self, m: Model, legal: Sequence[Action]) -> list[tuple[float, Action]]:
        hz = Horizon(self.w.targets, self.w.future, True, m.final)
        return [(self.value(m, add(m.paints, vec(a.args[0])), m.thalers, m.tiles, m.bishop, hz), a)
                for a in legal if a.kind == "income"]

    # ------------------------------------------------------------------ planning
    def plan_round(self, m: Model, apprentices: int, price: int, mood: int) -> tuple[float, list[int]]:
        """The best plan (value, counts per column) for this many apprentices and this price."""
        return self.plan_options(m, apprentices, price, mood, (0,))[0]

    def plan_options(self, m: Model, apprentices: int, price: int, mood: int,
                     variants: tuple[int, ...] = (0, 1)) -> list[tuple[float, list[int]]]:
        """Plans (value, counts per column), best first: one per market size, and variants."""
        found: list[tuple[float, list[int]]] = []
        for variant in variants:
            for result in self._variant_plans(m, apprentices, price, mood, variant):
                if all(result[1] != f[1] for f in found):
                    found.append(result)
        found.sort(key=lambda r: -r[0])
        return found

    def _variant_plans(self, m: Model, apprentices: int, price: int, mood: int, variant: int):
        """The simulated rounds of one variant for each market size (memoised across decisions:
        the get-up choice simulates what the plan then reuses)."""
        key = (m.paints, m.thalers, tuple(t.segment for t in m.tiles), m.bishop, tuple(map(tuple, m.view["booths"].values())),
               apprentices, price, mood, m.final, m.seat, m.view["round"], variant, self._module_key(m))
        hit = self._plans.get(key)
        if hit is not None:
            return hit
        out = []
        for size in range(0, min(SPACES, apprentices) + 1):
            result = self._chain(m, apprentices, price, mood, size, variant)
            if result is not None:
                out.append(result)
        if len(self._plans) > 128:
            self._plans.clear()
        self._plans[key] = out
        return out

    @staticmethod
    def _module_key(m: Model) -> tuple:
        """What of the modules a simulated round depends on (for the memo of plans)."""
        if m.portraits is None and m.requests is None and not m.favour_left:
            return ()
        display = tuple(c["id"] for c in m.portraits["display"]) if m.portraits else ()
        stacks = tuple((t, len(v)) for t, v in m.requests["stacks"].items()) if m.requests else ()
        return (display, stacks, tuple(m.me.get("tiles", ())), m.favour_left, m.abbot, m.sexton_cost,
                m.theater_steps, m.done_this_round("paints the portrait"), m.done_this_round(" request with "))

    def _chain(self, m: Model, apprentices: int, price: int, mood: int, size: int, variant: int = 0):
        """Simulate the round with ``size`` market tiles; variant 1 keeps paints (no altar,
        restores at most one tile fewer) and sends spare apprentices to the studio."""
        w = self.w
        final = m.final
        hz = Horizon(w.targets, w.future, True, False) if not final else Horizon(3, 1.0, True, True)
        bought = self.best_buy(m, m.paints, m.thalers, price, size, hz)
        if bought is None or (size and bought[0] <= 0):
            return None
        _, paints, thalers = bought
        left = apprentices - size
        late = (final or len(m.tiles) <= w.altar_tiles_left) and variant == 0
        most = min(SPACES, left)
        c1, vp, paints, thalers, tiles, bishop = self.simulate_cathedral(
            m, paints, thalers, list(m.tiles), m.bishop, most, late, sexton=True)
        if variant == 1:
            if c1 == 0 or final:
                return None
            c1, vp, paints, thalers, tiles, bishop = self.simulate_cathedral(
                m, bought[1], bought[2], list(m.tiles), m.bishop, c1 - 1, False, sexton=True)
        left -= c1
        counts = {"market": size, "cathedral": c1, "studio": 0, "workshop": 0, "theater": 0, "cathedral2": 0}
        # workshop: a request first when one pays (the tiles restored this round count)
        if left and m.requests is not None and not m.done_this_round(" request with "):
            restored = [t for t in m.tiles if t not in tiles]
            options = self.request_options(m, m.my_tiles() + restored)
            if options:
                worth = max(options)[0] if not final else max(
                    m.requests["stacks"][t][-1] for _, t in options)
                if worth > 0:
                    counts["workshop"] += 1
                    left -= 1
                    vp += worth
        # blends for later restorations (final round: for the second cathedral visit)
        blend_hz = Horizon(3, 1.0, False, True) if final else hz
        made, blended, _ = self.simulate_blends(m, paints, tiles, bishop, min(SPACES, left) * BLENDS_PER_APPRENTICE,
                                                blend_hz)
        if final:
            c2, vp2, p2, t2, tiles2, bishop2 = self.simulate_cathedral(
                m, blended, thalers, tiles, bishop, min(SPACES, left - ceil(len(made) / BLENDS_PER_APPRENTICE)), True)
            if made and c2 == 0:
                made = []
                c2, vp2, p2, t2, tiles2, bishop2 = self.simulate_cathedral(
                    m, paints, thalers, tiles, bishop, min(SPACES, left), True)
            counts["workshop"] += ceil(len(made) / BLENDS_PER_APPRENTICE)
            counts["cathedral2"] = c2
            left -= ceil(len(made) / BLENDS_PER_APPRENTICE) + c2
            vp += vp2
            paints, thalers, tiles, bishop = p2, t2, tiles2, bishop2
        else:
            extra = min(SPACES - counts["workshop"], ceil(len(made) / BLENDS_PER_APPRENTICE))
            counts["workshop"] += extra
            left -= extra
            paints = blended
            if left and mood >= w.theater_mood and variant == 0:
                counts["theater"] = 1
                left -= 1
                mood = max(0, mood - m.theater_steps)
        # a portrait worth more than the 3 Thalers of a studio apprentice
        if left:
            portrait = self.best_portrait(m, hz) * w.portrait_risk
            if portrait > self.money(thalers + STUDIO_THALERS, final) - self.money(thalers, final):
                counts["studio"] += 1
                left -= 1
                vp += portrait
        # studio when money is short, then spare apprentices where they are worth most
        while left and counts["studio"] < SPACES and thalers < w.low_money:
            counts["studio"] += 1
            thalers += STUDIO_THALERS
            left -= 1
        while left:
            studio = (self.money(thalers + STUDIO_THALERS, final) - self.money(thalers, final)
                      if counts["studio"] < SPACES else -1.0)
            theater = (self.mood_value(m, max(0, mood - m.theater_steps)) - self.mood_value(m, mood)
                       if not final and counts["theater"] < SPACES else -1.0)
            if variant == 1 and studio > 0:
                theater = -1.0
            if max(studio, theater) <= 0:
                break
            if studio >= theater:
                counts["studio"] += 1
                thalers += STUDIO_THALERS
            else:
                counts["theater"] += 1
                mood = max(0, mood - m.theater_steps)
            left -= 1
        end_hz = hz if not final else Horizon(0, 0.0, False, True)
        score = vp + self.value(m, paints, thalers, tiles, bishop, end_hz) + self.mood_value(m, mood)
        last = "cathedral2" if final else "theater"
        return score, [counts["market"], counts["cathedral"], counts["studio"], counts["workshop"], counts[last]]

    def _plans_ranked(self, m: Model, legal: Sequence[Action]) -> list[tuple[float, Action]]:
        apprentices = m.me.get("apprentices", START_APPRENTICES)
        options = self.plan_options(m, apprentices, m.price(), m.me.get("mood", 0))
        if "medico" in m.view:
            ranked = medico.score_plan(self, m, legal, options)
            if ranked:
                return ranked
            best = max(options, key=lambda o: o[0])
            return [(best[0] - _plan_distance(a, best[1]), a) for a in legal if a.kind == "plan"]
        legal_set = set(legal)
        out = []
        for score, counts in options:
            action = Action("plan", ("-".join(map(str, counts)),))
            if action in legal_set:
                out.append((score, action))
            else:  # should not happen; take the nearest legal plan
                out.append((score - 1.0, min((a for a in legal if a.kind == "plan"),
                                             key=lambda a: _plan_distance(a, counts))))
        return out

    # ------------------------------------------------------------------ get-up time
    def getup_scores(self, m: Model, times: Sequence[str]) -> dict[str, float]:
        w = self.w
        taken = {h["time"]: h["taken_by"] for h in m.hostel}
        all_times = [h["time"] for h in m.hostel]
        waiting = sum(1 for i, f in enumerate(m.view["figures"]) if i != m.seat and f.get("getup") is None)
        free = [t for t in all_times if taken[t] is None]
        scores = {}
        for time in times:
            h = next(x for x in m.hostel if x["time"] == time)
            mood = m.mood_after(h["mood"])
            apprentices = (m.me.get("apprentices", START_APPRENTICES) - (1 if m.me.get("neutral_apprentice") else 0)
                           + (1 if m.me.get("apprentice_set_aside") else 0) + m.zone(mood))
            value, _ = self.plan_round(m, apprentices, h["price"], mood)
            pos = all_times.index(time)
            later_taken = sum(1 for t in all_times[pos + 1:] if taken[t] is not None)
            later_free = sum(1 for t in free if all_times.index(t) > pos)
            expected_later = later_taken + (waiting * later_free / max(1, len(free) - 1))
            scores[time] = value + w.early * expected_later
        return scores

    # ------------------------------------------------------------------ visits
    def score_visit_action(self, m: Model, a: Action, hz: Horizon, base: float) -> float | None:
        """Gain in value of one visit action over passing (None: a kind this bot ignores)."""
        kind = a.kind
        if kind == "pass":
            return 0.0
        if a.args and a.args[-1] == "ill":    # the medico: an ill apprentice's restoration or altar
            return self.score_visit_action(m, Action(kind, a.args[:-1]), hz, base)
        if kind == "saints":
            return medico.score_saints(self, m, a, hz, base)
        if kind == "studio":
            left = m.view.get("visit_left") or 1
            return 0.01 + self.money(m.thalers + STUDIO_THALERS * left, hz.final) - self.money(m.thalers, hz.final)
        if kind == "theater":
            left = m.view.get("visit_left") or 1
            mood = m.me.get("mood", 0)
            return 0.01 + max(0.0, self.mood_value(m, m.mood_after(m.theater_steps * left, mood)) - self.mood_value(m, mood))
        if kind == "buy":
            after = m.paints
            for t in a.args[1:]:
                after = add(after, vec(t))
            cost = m.price() * (len(a.args) - 1)
            return self.value(m, after, m.thalers - cost, m.tiles, m.bishop, hz) - base
        if kind == "close":
            return self.close_value(m, a.args[0], m.seat)
        if kind == "restore":
            return self._restore_score(m, a, hz, base)
        if kind == "altar":
            paints = a.args[0]
            if not all(c in PAINTS for c in paints):
                return None
            after = sub(m.paints, vec(paints))
            return altar_vp(paints, m.special) + self.value(m, after, m.thalers, m.tiles, m.bishop, hz) - base
        if kind == "blend":
            out = a.args[0]
            if out not in PAINTS or PAINTS.index(out) not in m.blends:
                return None
            x, y = m.blends[PAINTS.index(out)]
            p = list(m.paints)
            p[x] -= 1
            p[y] -= 1
            p[PAINTS.index(out)] += 1
            return self.value(m, tuple(p), m.thalers, m.tiles, m.bishop, hz) - base - 1e-6
        if kind == "portrait":
            return self._portrait_score(m, a, hz)
        if kind == "request":
            return self._request_score(m, a, hz, base)
        return None

    def _restore_score(self, m: Model, a: Action, hz: Horizon, base: float) -> float | None:
        seg = SEGMENT.get(a.args[0]) if a.args else None
        tile = next((t for t in m.tiles if t.segment == seg), None)
        extra = dict(zip(a.args[1::2], a.args[2::2]))
        if tile is None or not set(extra) <= {"bishop", "using", "sexton"}:
            return None
        paid = vec(extra["using"]) if "using" in extra else tile.need
        if not covers(m.paints, paid):
            return None
        bishop, cost = m.bishop, 0
        if "bishop" in extra and extra["bishop"] in SEGMENT:
            bishop, cost = SEGMENT[extra["bishop"]], 1
        if "sexton" in extra and extra["sexton"] in SEGMENT:
            bishop, cost = SEGMENT[extra["sexton"]], max(1, m.sexton_cost)
        if cost and m.bonus(bishop, seg) <= m.bonus(m.bishop, seg) and bishop != seg:
            return -100.0  # a paid move that does not raise the bonus (nor put the bishop on the tile)
        vp = tile.vp + m.bonus(bishop, seg)
        if "using" in extra:  # option special_colours_on_fresco: a bonus per pink / brown paid (R6)
            bonus = (m.view.get("special_colours") or {}).get("fresco_bonus") or _SPECIAL.fresco_bonus
            vp += sum(int(b) * max(0, extra["using"].count(c) - tile.need[PAINTS.index(c)]) for c, b in bonus.items())
        tiles = self._memo.get(("after", seg))
        if tiles is None:
            tiles = self._memo[("after", seg)] = [t for t in m.tiles if t is not tile]
        score = vp + self.value(m, sub(m.paints, paid), m.thalers - cost, tiles, seg, hz) - base
        if bishop == seg:
            score += self.on_segment_extra(m, seg, tiles)
        return score

    def _portrait_score(self, m: Model, a: Action, hz: Horizon) -> float | None:
        if m.portraits is None:
            return None
        card = next((c for c in m.portraits["display"] if c["id"] == a.args[0]), None)
        if card is None:
            return None
        choice = a.args[1] if len(a.args) > 1 else None
        left = (m.view.get("visit_left") or 1) - 1
        rest = self.money(m.thalers + STUDIO_THALERS * left, hz.final) - self.money(m.thalers, hz.final)
        return 0.01 + self.card_value(m, card, choice, hz) + rest

    def _request_score(self, m: Model, a: Action, hz: Horizon, base: float) -> float | None:
        if m.requests is None or len(a.args) < 2:
            return None
        t = a.args[0]
        values = m.requests["stacks"].get(t)
        if not values:
            return None
        colour = _REQUESTS.paint.get(t)
        splashes = sum(len(parse_tile(x).splashes) for x in a.args[1:])
        if m.final:
            worth = float(values[-1]) - 0.01 * splashes
        else:
            worth = self.request_worth(m, values[-1], colour, splashes)
        # the blends this apprentice gives up
        left = m.view.get("visit_left") or 0
        _, _, with_all = self.simulate_blends(m, m.paints, m.tiles, m.bishop, left, hz)
        _, _, without = self.simulate_blends(m, m.paints, m.tiles, m.bishop, max(0, left - BLENDS_PER_APPRENTICE), hz)
        return worth - (with_all - without) - 0.001 * splashes

    def close_value(self, m: Model, booth: str, actor: int) -> float:
        """Worth of closing ``booth`` now: denied to opponents who visit the market later."""
        tiles = m.view["booths"].get(booth, [])
        pieces = sum(len(t) + sum(c not in "RYB" for c in t) for t in tiles)
        later = sum(1 for f in range(len(m.names))
                    if f not in (m.seat, m.leonardo) and m.visits(f, "market") and m.later_in_order(f, actor))
        return self.w.deny * pieces * later - 1e-6

    # ------------------------------------------------------------------ Leonardo (2 players)
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
            scores = {t: (1.0 if order.index(t) < order.index(opp_time) else 0.0) - 0.01 * order.index(t)
                      for t in candidates}
        return [(scores.get(a.args[0], -1e9), a) for a in legal]

    def _leonardo_close_score(self, m: Model, booth: str, opponent: int) -> float:
        leo = m.leonardo
        score = 0.0
        tiles = m.view["booths"].get(booth, [])
        if m.visits(opponent, "market") and m.later_in_order(opponent, leo):
            score += self.w.deny * sum(len(t) + sum(c not in "RYB" for c in t) for t in tiles)
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
        leo_gain = tile.vp + bishop_bonus(m.bishop, seg)
        score = -w.leo_vp * leo_gain
        if cover(m.paints, tile, m.blends) is not None:
            score -= w.leo_mine * tile.vp
        if m.visits(m.seat, "cathedral") and m.later_in_order(m.seat, m.leonardo):
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
            return -1e9
        score = -w.leo_vp * (int(card.get("vp", 0) or 0) + int(card.get("vp_or_thalers", 0) or 0))
        hz = self.horizon(m)
        worth = max(self.card_value(m, card, ch, hz) for ch in self.card_choices(card))
        if m.visits(opponent, "studio") and m.later_in_order(opponent, m.leonardo):
            score += w.leo_deny * worth  # judged as if it were for me
        if m.visits(m.seat, "studio") and m.later_in_order(m.seat, m.leonardo):
            score -= worth
        return score

    def _leonardo_request_score(self, m: Model, a: Action, opponent: int) -> float:
        """Leonardo may fulfil a request (VP for him): only to deny it to the opponent."""
        w = self.w
        values = (m.requests or {}).get("stacks", {}).get(a.args[0])
        if not values:
            return -1e9
        vp = values[-1]
        colour = _REQUESTS.paint.get(a.args[0])
        score = -w.leo_vp * vp
        opp_tiles = [parse_tile(t) for t in m.view["figures"][opponent].get("tiles", [])]
        if sum(1 for x in opp_tiles if colour is None or colour in x.splashes) >= _REQUESTS.per:
            score += w.leo_deny * vp
        mine = m.my_tiles()
        if sum(1 for x in mine if colour is None or colour in x.splashes) >= _REQUESTS.per:
            score -= vp
        return score


def _plan_distance(a: Action, counts: Sequence[int]) -> int:
    try:
        return sum(abs(int(x) - y) for x, y in zip(a.args[0].split("-"), counts))
    except (ValueError, IndexError):
        return 99
