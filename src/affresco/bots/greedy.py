"""GreedyBot: a simple, sensible one-step heuristic player.

It values a position as

    VP already scored
    + ``future`` x the VP of the best few fresco tiles its paints could restore
      (with the bishop's bonus they would get, less ``blend_penalty`` per blend still needed)
    + ``piece`` per other paint piece (less as the game nears its end)
    + the Thalers (1/2 VP each, more for the first few that pay for paints)
    + the mood (an apprentice more or less next round)

and at every decision takes the legal action that leads to the best value.  Planning
simulates the round for each number of market tiles it might buy: buy the best tiles, restore
what it then can, blend what enables a later restoration, then theater if the mood is low and
studio if money is short, spare apprentices where they are worth most.  The get-up time is
the one whose price, mood and apprentice count give the best planned round.  All its numbers
are in :class:`Weights`.

Rules of thumb it follows: the VP track 'ahead' for itself (and 'behind' for Leonardo); the
altar only late (the value of paints falls as the fresco empties) or when its paints restore
nothing else; in the final round no value is left in paints or mood, only in VP and Thalers.
As Leonardo's controller (2 players) it makes him act early, close the booth the opponent
would want (not the one it wants itself) and restore the tile that gives him the fewest VP
and it the least loss.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement
from math import ceil
from typing import Any, Mapping, Sequence

from ..rules import Action
from ..rules.board import NEIGHBOURS8
from ..rules.paints import PAINTS
from .base import Bot
from .model import (BLEND_INPUTS, BLENDS_PER_APPRENTICE, CHEB, FINAL_TILES, SEGMENT, STUDIO_THALERS, THALERS_PER_VP,
                    THEATER_STEPS, Model, Paints, Tile, add, altar_vp, bishop_bonus, cover, covers, sub, vec)

__all__ = ["GreedyBot", "Weights"]


@dataclass(frozen=True)
class Weights:
    """Every number GreedyBot uses (values in VP unless said otherwise)."""

    # --- what things are worth -------------------------------------------------------
    thaler: float = 0.5            # a Thaler: 2 Thalers make 1 VP in final scoring
    thaler_reserve: float = 0.35   # extra worth of each of the first `reserve` Thalers (they buy paints)
    reserve: int = 6               # Thalers kept as a float for next round's market
    future: float = 0.7            # share of the VP of tiles the paints could restore later
    targets: int = 3               # how many later restorations that potential counts
    blend_penalty: float = 0.6     # less per blend such a restoration still needs (workshop, time)
    bishop_future: float = 0.4     # share of the bishop bonus counted for later restorations
    piece: float = 0.3             # a paint piece not needed by those tiles (blended: x2); fades near the end
    apprentice: float = 2.0        # one apprentice more (or less) this round, from the mood zone
    mood_step: float = 0.35        # one space higher on the mood display (later rounds)
    mood_zone: float = 1.2         # next round's mood zone (+1/-1) at the end of this round
    early: float = 0.25            # per figure acting after me (first choice of booth and tiles)
    deny: float = 0.25             # per paint piece of a booth closed before an opponent buys there
    # --- planning thresholds -----------------------------------------------------------
    low_money: int = 5             # fewer Thalers than this after the market: send apprentices to the studio
    theater_mood: int = 4          # mood index (0 = top of the display) from which the theater is planned
    altar_tiles_left: int = 9      # the altar is planned when at most this many fresco tiles remain
    # --- as Leonardo's controller (2 players) ------------------------------------------
    leo_vp: float = 1.0            # each VP Leonardo scores counts against me
    leo_mine: float = 0.8          # share of a tile's VP I lose when Leonardo takes a tile I could restore
    leo_bishop: float = 0.7        # share of the bishop bonus his restoration sets up for my next one


DEFAULT_WEIGHTS = Weights()
_BISHOP_FUTURE = (3, 2, 1)  # bishop bonus reachable from a distance (0, 1, 2 with a 1-Thaler move)


@dataclass(frozen=True, slots=True)
class Horizon:
    """What the paints are still good for: ``k`` restorations, worth ``share`` of their VP,
    ``blends`` whether a workshop visit comes before them."""

    k: int
    share: float
    blends: bool
    final: bool


class GreedyBot(Bot):
    """One-step lookahead on a hand-made value (see the module docstring and :class:`Weights`)."""

    name = "greedy"

    def __init__(self, seed: int | str | None = 0, weights: Weights | None = None):
        super().__init__(seed)
        self.w = weights or DEFAULT_WEIGHTS
        self._memo: dict = {}  # potential() results, for one decision only

    # ------------------------------------------------------------------ entry point
    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], seat: int) -> Action:
        if len(legal) == 1:
            return legal[0]
        self._memo = {}
        m = Model(view, seat)
        kinds = {a.kind for a in legal}
        if "track" in kinds:
            want = "behind" if m.for_leonardo() else "ahead"
            return next((a for a in legal if a.args == (want,)), legal[0])
        if m.for_leonardo():
            choice = self._leonardo(m, legal)
        elif "getup" in kinds:
            choice = self._getup(m, legal)
        elif "plan" in kinds:
            choice = self._plan(m, legal)
        else:
            choice = self._visit(m, legal)
        return choice if choice in legal else self._fallback(legal)

    def _fallback(self, legal: Sequence[Action]) -> Action:
        """An action of a kind this bot does not know (modules): anything but 'pass'."""
        others = [a for a in legal if a.kind != "pass"]
        return self.rng.choice(others or list(legal))

    # ------------------------------------------------------------------ valuation
    def money(self, thalers: int, final: bool) -> float:
        if final:
            return float(thalers // THALERS_PER_VP)
        return self.w.thaler * thalers + self.w.thaler_reserve * min(thalers, self.w.reserve)

    def mood_value(self, m: Model, index: int) -> float:
        if m.final:
            return 0.0
        return self.w.mood_zone * m.zone(index) - self.w.mood_step * index

    def potential(self, have: Paints, tiles: Sequence[Tile], bishop: int, hz: Horizon,
                  blends: dict = BLEND_INPUTS) -> tuple[float, Paints]:
        """VP of the best ``hz.k`` tiles ``have`` could restore one after the other (greedy),
        and the paints left over."""
        key = (have, tuple(t.segment for t in tiles), bishop, hz)
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        w = self.w
        total = 0.0
        candidates = tiles  # paints only shrink: a tile out of reach stays out of reach
        for _ in range(hz.k):
            best = None
            reachable = []
            for t in candidates:
                res = cover(have, t, blends)
                if res is None or (res[0] and not hz.blends):
                    continue
                reachable.append(t)
                d = CHEB[bishop][t.segment]
                score = t.vp - w.blend_penalty * res[0] + (w.bishop_future * _BISHOP_FUTURE[d] if d < 3 else 0.0)
                if best is None or score > best[0]:
                    best = (score, t, res[1])
            if best is None:
                break
            total += best[0]
            have = best[2]
            candidates = [t for t in reachable if t is not best[1]]
        self._memo[key] = (total, have)
        return total, have

    def value(self, m: Model, paints: Paints, thalers: int, tiles: Sequence[Tile], bishop: int, hz: Horizon) -> float:
        """Worth of holding ``paints`` and ``thalers`` with this fresco (VP scored not included)."""
        pot, rest = self.potential(paints, tiles, bishop, hz, m.blends) if hz.k else (0.0, paints)
        stage = 0.0 if hz.final else min(1.0, max(0.0, (len(tiles) - FINAL_TILES) / 10))
        pieces = sum(rest[:3]) + 2 * sum(rest[3:])
        return hz.share * pot + self.w.piece * stage * pieces + self.money(thalers, hz.final)

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
            return Horizon(min(cathedral, 6), 1.0, False, True)
        return Horizon(min(plan[-1], 3), 1.0, False, True)  # studio, workshop: the second cathedral visit

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
        base = self.value(m, paints, thalers, m.tiles, m.bishop, hz)
        best = None
        for booth, combo in self.buys(m, size):
            if len(combo) != size:
                continue
            after = paints
            for t in combo:
                after = add(after, vec(t))
            gain = self.value(m, after, thalers - price * size, m.tiles, m.bishop, hz) - base
            if best is None or gain > best[0]:
                best = (gain, after, thalers - price * size)
        return best

    # ------------------------------------------------------------------ cathedral helpers
    def restore_gain(self, m: Model, tile: Tile, bishop: int, thalers: int) -> tuple[float, int, int]:
        """(VP, bishop position used, Thalers paid) of restoring ``tile`` now, moving the bishop
        one step first when that gains more than the Thaler is worth."""
        best = (float(tile.vp + bishop_bonus(bishop, tile.segment)), bishop, 0)
        if thalers >= 1:
            for b in NEIGHBOURS8[bishop]:
                vp = tile.vp + bishop_bonus(b, tile.segment)
                if vp - self.w.thaler - self.w.thaler_reserve > best[0]:
                    best = (float(vp), b, 1)
        return best

    def simulate_cathedral(self, m: Model, paints: Paints, thalers: int, tiles: list[Tile], bishop: int,
                           most: int, altar: bool):
        """Greedy restorations without blending: (count, VP, paints, thalers, tiles, bishop)."""
        count = vp = 0
        for _ in range(most):
            best = None
            for t in tiles:
                if covers(paints, t.need):
                    g, b, paid = self.restore_gain(m, t, bishop, thalers)
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
        return made, paints

    # ------------------------------------------------------------------ planning
    def plan_round(self, m: Model, apprentices: int, price: int, mood: int) -> tuple[float, list[int]]:
        """The best plan (value, counts per column) for this many apprentices and this price."""
        best: tuple[float, list[int]] | None = None
        for size in range(0, min(3, apprentices) + 1):
            result = self._chain(m, apprentices, price, mood, size)
            if result is not None and (best is None or result[0] > best[0]):
                best = result
        assert best is not None  # size 0 always works
        return best

    def _chain(self, m: Model, apprentices: int, price: int, mood: int, size: int):
        w = self.w
        final = m.final
        hz = Horizon(w.targets, w.future, True, False) if not final else Horizon(3, 1.0, True, True)
        bought = self.best_buy(m, m.paints, m.thalers, price, size, hz)
        if bought is None or (size and bought[0] <= 0):
            return None
        _, paints, thalers = bought
        left = apprentices - size
        late = final or len(m.tiles) <= w.altar_tiles_left
        c1, vp, paints, thalers, tiles, bishop = self.simulate_cathedral(
            m, paints, thalers, list(m.tiles), m.bishop, min(3, left), late)
        left -= c1
        counts = {"market": size, "cathedral": c1, "studio": 0, "workshop": 0, "theater": 0, "cathedral2": 0}
        # workshop: blends for later restorations (final round: for the second cathedral visit)
        blend_hz = Horizon(3, 1.0, False, True) if final else hz
        made, blended = self.simulate_blends(m, paints, tiles, bishop, min(3, left) * BLENDS_PER_APPRENTICE, blend_hz)
        if final:
            c2, vp2, p2, t2, tiles2, bishop2 = self.simulate_cathedral(
                m, blended, thalers, tiles, bishop, min(3, left - ceil(len(made) / BLENDS_PER_APPRENTICE)), True)
            if made and c2 == 0:
                made = []
                c2, vp2, p2, t2, tiles2, bishop2 = self.simulate_cathedral(
                    m, paints, thalers, tiles, bishop, min(3, left), True)
            counts["workshop"] = ceil(len(made) / BLENDS_PER_APPRENTICE)
            counts["cathedral2"] = c2
            left -= counts["workshop"] + c2
            vp += vp2
            paints, thalers, tiles, bishop = p2, t2, tiles2, bishop2
        else:
            counts["workshop"] = ceil(len(made) / BLENDS_PER_APPRENTICE)
            left -= counts["workshop"]
            paints = blended
            if left and mood >= w.theater_mood:
                counts["theater"] = 1
                left -= 1
                mood = max(0, mood - THEATER_STEPS)
        # studio when money is short, then spare apprentices where they are worth most
        while left and counts["studio"] < 3 and thalers < w.low_money:
            counts["studio"] += 1
            thalers += STUDIO_THALERS
            left -= 1
        while left:
            studio = (self.money(thalers + STUDIO_THALERS, final) - self.money(thalers, final)
                      if counts["studio"] < 3 else -1.0)
            theater = (self.mood_value(m, max(0, mood - THEATER_STEPS)) - self.mood_value(m, mood)
                       if not final and counts["theater"] < 3 else -1.0)
            if max(studio, theater) <= 0:
                break
            if studio >= theater:
                counts["studio"] += 1
                thalers += STUDIO_THALERS
            else:
                counts["theater"] += 1
                mood = max(0, mood - THEATER_STEPS)
            left -= 1
        end_hz = hz if not final else Horizon(0, 0.0, False, True)
        score = vp + self.value(m, paints, thalers, tiles, bishop, end_hz) + self.mood_value(m, mood)
        last = "cathedral2" if final else "theater"
        return score, [counts["market"], counts["cathedral"], counts["studio"], counts["workshop"], counts[last]]

    def _plan(self, m: Model, legal: Sequence[Action]) -> Action:
        apprentices = m.me.get("apprentices", 5)
        _, counts = self.plan_round(m, apprentices, m.price(), m.me.get("mood", 0))
        action = Action("plan", ("-".join(map(str, counts)),))
        if action in legal:
            return action
        # should not happen; take the nearest legal plan
        def distance(a: Action) -> int:
            try:
                return sum(abs(int(x) - y) for x, y in zip(a.args[0].split("-"), counts))
            except (ValueError, IndexError):
                return 99
        plans = [a for a in legal if a.kind == "plan"]
        return min(plans, key=distance) if plans else self._fallback(legal)

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
            apprentices = (m.me.get("apprentices", 5) - (1 if m.me.get("neutral_apprentice") else 0)
                           + (1 if m.me.get("apprentice_set_aside") else 0) + m.zone(mood))
            value, _ = self.plan_round(m, apprentices, h["price"], mood)
            pos = all_times.index(time)
            later_taken = sum(1 for t in all_times[pos + 1:] if taken[t] is not None)
            later_free = sum(1 for t in free if all_times.index(t) > pos)
            expected_later = later_taken + (waiting * later_free / max(1, len(free) - 1))
            scores[time] = value + w.early * expected_later
        return scores

    def _getup(self, m: Model, legal: Sequence[Action]) -> Action:
        scores = self.getup_scores(m, [a.args[0] for a in legal])
        best = max(scores, key=lambda t: scores[t])
        return Action("getup", (best,))

    # ------------------------------------------------------------------ visits
    def _visit(self, m: Model, legal: Sequence[Action]) -> Action:
        hz = self.horizon(m)
        base = self.value(m, m.paints, m.thalers, m.tiles, m.bishop, hz)
        best_action, best_score = None, None
        for a in legal:
            score = self.score_visit_action(m, a, hz, base)
            if score is None:
                continue
            if best_score is None or score > best_score + 1e-9:
                best_action, best_score = a, score
        return best_action if best_action is not None else self._fallback(legal)

    def score_visit_action(self, m: Model, a: Action, hz: Horizon, base: float) -> float | None:
        """Gain in value of one visit action over passing (None: a kind this bot ignores)."""
        if a.kind == "pass":
            return 0.0
        if a.kind in ("studio", "theater"):
            return 0.01  # always worth doing
        if a.kind == "buy":
            after = m.paints
            for t in a.args[1:]:
                after = add(after, vec(t))
            cost = m.price() * (len(a.args) - 1)
            return self.value(m, after, m.thalers - cost, m.tiles, m.bishop, hz) - base
        if a.kind == "close":
            return self.close_value(m, a.args[0], m.seat)
        if a.kind == "restore":
            seg = SEGMENT.get(a.args[0]) if a.args else None
            tile = next((t for t in m.tiles if t.segment == seg), None)
            extra = dict(zip(a.args[1::2], a.args[2::2]))
            if tile is None or not set(extra) <= {"bishop", "using"}:
                return None
            paid = vec(extra["using"]) if "using" in extra else tile.need
            if not covers(m.paints, paid):
                return None
            bishop, cost = m.bishop, 0
            if "bishop" in extra and extra["bishop"] in SEGMENT:
                bishop, cost = SEGMENT[extra["bishop"]], 1
            vp = tile.vp + bishop_bonus(bishop, seg)
            if "using" in extra:  # option special_colours_on_fresco: +3 per pink, +5 per brown (R6)
                vp += 3 * extra["using"].count("K") + 5 * extra["using"].count("N")
            tiles = [t for t in m.tiles if t is not tile]
            return vp + self.value(m, sub(m.paints, paid), m.thalers - cost, tiles, seg, hz) - base
        if a.kind == "altar":
            paints = a.args[0]
            if not all(c in PAINTS for c in paints):
                return None
            after = sub(m.paints, vec(paints))
            return altar_vp(paints, m.special) + self.value(m, after, m.thalers, m.tiles, m.bishop, hz) - base
        if a.kind == "blend":
            out = a.args[0]
            if out not in PAINTS or PAINTS.index(out) not in m.blends:
                return None
            x, y = m.blends[PAINTS.index(out)]
            p = list(m.paints)
            p[x] -= 1
            p[y] -= 1
            p[PAINTS.index(out)] += 1
            return self.value(m, tuple(p), m.thalers, m.tiles, m.bishop, hz) - base - 1e-6
        return None

    def close_value(self, m: Model, booth: str, actor: int) -> float:
        """Worth of closing ``booth`` now: denied to opponents who visit the market later."""
        tiles = m.view["booths"].get(booth, [])
        pieces = sum(len(t) + sum(c not in "RYB" for c in t) for t in tiles)
        later = sum(1 for f in range(len(m.names))
                    if f not in (m.seat, m.leonardo) and m.visits(f, "market") and m.later_in_order(f, actor))
        return self.w.deny * pieces * later - 1e-6

    # ------------------------------------------------------------------ Leonardo (2 players)
    def _leonardo(self, m: Model, legal: Sequence[Action]) -> Action:
        kinds = {a.kind for a in legal}
        leo = m.leonardo
        opponent = next(f for f in range(len(m.names)) if f not in (m.seat, leo))
        if "getup" in kinds:
            return self._leonardo_getup(m, legal, opponent)
        if "close" in kinds:
            return max((a for a in legal if a.kind == "close"),
                       key=lambda a: self._leonardo_close_score(m, a.args[0], opponent))
        if "restore" in kinds:
            return max((a for a in legal if a.kind == "restore"),
                       key=lambda a: self._leonardo_restore_score(m, SEGMENT[a.args[0]]))
        return self._fallback(legal)

    def _leonardo_getup(self, m: Model, legal: Sequence[Action], opponent: int) -> Action:
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
            choice = max(candidates, key=lambda t: scores[t])
        else:
            # act before the opponent: close their booth, take their tile first
            before = [t for t in candidates if order.index(t) < order.index(opp_time)]
            choice = before[0] if before else candidates[0]
        return Action("getup", (choice,))

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
                score += w.leo_bishop * max(bishop_bonus(seg, t.segment) for t in mine)
        return score
