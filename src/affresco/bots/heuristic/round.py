"""HeuristicBot's round simulation: the market, the cathedral, the workshop and the rest of a
round as it would play them, for planning and the get-up time."""
from __future__ import annotations

from itertools import combinations, combinations_with_replacement
from math import ceil
from typing import Sequence

from ...rules import Action, read_plan
from ...rules.board import NEIGHBOURS8, SIZE
from ...rules.paints import PAINTS
from ..model import Model, Paints, Tile, add, covers, sub, vec
from .wall import WallValuation
from .weights import Horizon

__all__ = ["RoundSimulation"]

_ALTAR_MEMO: dict[int, dict] = {}  # id(Numbers) -> (paints, special colours) -> best altar form


class RoundSimulation(WallValuation):
    """Round-simulation methods of :class:`~affresco.bots.heuristic.HeuristicBot` (a layer of
    its chain, see :class:`~.valuation.Valuation`)."""


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
            self.money(m, thalers - price * size, hz.final) - self.money(m, thalers, hz.final)
        return gain, after, thalers - price * size

    def best_combo(self, m: Model, paints: Paints, size: int, hz: Horizon):
        """The purchase of exactly ``size`` tiles whose paints are worth most (price apart: it
        is the same for every purchase of that size): (worth of the paints after, paints after)."""
        booths = self._memo.get("booths")
        if booths is None:
            booths = self._memo["booths"] = tuple((b, tuple(t)) for b, t in m.view["booths"].items())
        # a pure function of the booths, the fresco, the bishop and the arguments: kept for the game
        key = (paints, size, hz, booths, self._tiles_key(m.tiles), m.bishop)
        memo = self._holdings
        hit = memo.get(key)
        if hit is not None or key in memo:
            return hit
        best = None
        options = memo.get((booths, size))
        if options is None:  # the paints of each purchase of exactly ``size`` tiles, in buys() order
            options = memo[(booths, size)] = [
                vec("".join(combo)) for _, combo in self.buys(m, size) if len(combo) == size]
        for bought in options:
            after = add(paints, bought)
            worth = self.holdings(m, after, m.tiles, m.bishop, hz)
            if best is None or worth > best[0]:
                best = (worth, after)
        memo[key] = best
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
        count, vp = 0, 0.0
        candidates = tiles  # the paints only shrink: a tile they cannot pay stays out of reach
        for _ in range(most):
            best = None
            covered = []
            for t in candidates:
                if covers(paints, t.need):
                    covered.append(t)
                    g, b, paid = self.restore_gain(m, t, bishop, thalers, sexton)
                    if best is None or g - paid * self.w.thaler > best[0]:
                        best = (g - paid * self.w.thaler, g, t, paid)
            candidates = covered
            if best is not None:
                _, g, t, paid = best
                count += 1
                vp += g
                paints = sub(paints, t.need)
                thalers -= paid
                tiles = [x for x in tiles if x is not t]
                candidates = [x for x in candidates if x is not t]
                bishop = t.segment
                continue
            if altar:
                form = self.best_altar(m, paints)
                if form:
                    count += 1
                    vp += m.altar_vp(form)
                    paints = sub(paints, vec(form))
                    continue
            break
        return count, vp, paints, thalers, tiles, bishop

    @staticmethod
    def best_altar(m: Model, paints: Paints) -> str | None:
        """The altar form these paints pay worth most (None: none); memoised per edition."""
        key = (paints, m.special)
        memo = _ALTAR_MEMO.setdefault(id(m.rules), {})
        if key in memo:
            return memo[key]
        if len(memo) > 50_000:
            memo.clear()
        out = memo[key] = RoundSimulation._best_altar(m, paints)
        return out

    @staticmethod
    def _best_altar(m: Model, paints: Paints) -> str | None:
        owned = [c for c, n in zip(PAINTS, paints) if n]
        best, form = 0, None
        for combo in combinations_with_replacement(owned, 3):
            t = "".join(combo)
            if covers(paints, vec(t)):
                v = m.altar_vp(t)
                if v > best:
                    best, form = v, t
        return form

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
        k = m.rules
        position = self._memo.get("plan_position")   # the key's part that is the same all this decision
        if position is None:
            position = self._memo["plan_position"] = (
                m.paints, m.thalers, tuple(t.segment for t in m.tiles), m.bishop,
                tuple(map(tuple, m.view["booths"].values())), m.final, m.seat, m.view["round"],
                self._module_key(m), id(k))
        key = (position, apprentices, price, mood, variant)
        hit = self._plans.get(key)
        if hit is not None:
            return hit
        out = []
        for size in range(0, min(k.spaces, apprentices) + 1):
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
                m.theater_steps, m.done_this_round("portrait"), m.done_this_round("score", "request"))

    def _chain(self, m: Model, apprentices: int, price: int, mood: int, size: int, variant: int = 0):
        """Simulate the round with ``size`` market tiles; variant 1 keeps paints (no altar,
        restores at most one tile fewer) and sends spare apprentices to the studio."""
        k = m.rules
        w = self.w
        final = m.final
        hz = Horizon(w.targets, w.future, True, False) if not final else Horizon(w.final_reach_late, 1.0, True, True)
        bought = self.best_buy(m, m.paints, m.thalers, price, size, hz)
        if bought is None or (size and bought[0] <= 0):
            return None
        _, paints, thalers = bought
        left = apprentices - size
        late = (final or len(m.tiles) <= w.altar_tiles_left) and variant == 0
        most = min(k.spaces, left)
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
        if left and m.requests is not None and not m.done_this_round("score", "request"):
            unrestored = {id(t) for t in tiles}   # the same tile objects: identity, not Tile.__eq__
            restored = [t for t in m.tiles if id(t) not in unrestored]
            options = self.request_options(m, m.my_tiles() + restored + self.wall_request_tiles(m))
            if options:
                worth = max(options)[0] if not final else max(
                    m.requests["stacks"][t][-1] for _, t in options)
                if worth > 0:
                    counts["workshop"] += 1
                    left -= 1
                    vp += worth
        # blends for later restorations (final round: for the second cathedral visit)
        blend_hz = Horizon(w.final_reach_late, 1.0, False, True) if final else hz
        made, blended, _ = self.simulate_blends(m, paints, tiles, bishop, min(k.spaces, left) * k.blends_per_apprentice,
                                                blend_hz)
        if final:
            c2, vp2, p2, t2, tiles2, bishop2 = self.simulate_cathedral(
                m, blended, thalers, tiles, bishop, min(k.spaces, left - ceil(len(made) / k.blends_per_apprentice)), True)
            if made and c2 == 0:
                made = []
                c2, vp2, p2, t2, tiles2, bishop2 = self.simulate_cathedral(
                    m, paints, thalers, tiles, bishop, min(k.spaces, left), True)
            counts["workshop"] += ceil(len(made) / k.blends_per_apprentice)
            counts["cathedral2"] = c2
            left -= ceil(len(made) / k.blends_per_apprentice) + c2
            vp += vp2
            paints, thalers, tiles, bishop = p2, t2, tiles2, bishop2
        else:
            extra = min(k.spaces - counts["workshop"], ceil(len(made) / k.blends_per_apprentice))
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
            if portrait > self.money(m, thalers + k.studio_thalers, final) - self.money(m, thalers, final):
                counts["studio"] += 1
                left -= 1
                vp += portrait
        # studio when money is short, then spare apprentices where they are worth most
        while left and counts["studio"] < k.spaces and thalers < w.low_money:
            counts["studio"] += 1
            thalers += k.studio_thalers
            left -= 1
        while left:
            studio = (self.money(m, thalers + k.studio_thalers, final) - self.money(m, thalers, final)
                      if counts["studio"] < k.spaces else -1.0)
            theater = (self.mood_value(m, max(0, mood - m.theater_steps)) - self.mood_value(m, mood)
                       if not final and counts["theater"] < k.spaces else -1.0)
            if variant == 1 and studio > 0:
                theater = -1.0
            if max(studio, theater) <= 0:
                break
            if studio >= theater:
                counts["studio"] += 1
                thalers += k.studio_thalers
            else:
                counts["theater"] += 1
                mood = max(0, mood - m.theater_steps)
            left -= 1
        end_hz = hz if not final else Horizon(0, 0.0, False, True)
        score = vp + self.value(m, paints, thalers, tiles, bishop, end_hz) + self.mood_value(m, mood)
        last = "cathedral2" if final else "theater"
        return score, [counts["market"], counts["cathedral"], counts["studio"], counts["workshop"], counts[last]]

    def _plans_ranked(self, m: Model, legal: Sequence[Action]) -> list[tuple[float, Action]]:
        apprentices = m.me.get("apprentices", m.rules.start_apprentices)
        options = self.plan_options(m, apprentices, m.price(), m.me.get("mood", 0))
        if "medico" in m.view:
            from . import medico
            ranked = medico.score_plan(self, m, legal, options)
            if not ranked:
                best = max(options, key=lambda o: o[0])
                ranked = [(best[0] - _plan_distance(a, best[1]), a) for a in legal if a.kind == "plan"]
            return self.audience_plans(m, ranked, legal)
        legal_set = set(legal)
        out = []
        for score, counts in options:
            action = Action("plan", ("-".join(map(str, counts)),))
            if action in legal_set:
                out.append((score, action))
            else:  # should not happen; take the nearest legal plan
                out.append((score - self.w.off_plan, min((a for a in legal if a.kind == "plan"),
                                             key=lambda a: _plan_distance(a, counts))))
        out.extend(self.wall_plans(m, options, legal_set, apprentices))
        return self.audience_plans(m, out, legal)

    # ------------------------------------------------------------------ get-up time
    def getup_scores(self, m: Model, times: Sequence[str]) -> dict[str, float]:
        w = self.w
        taken = {h["time"]: h["taken_by"] for h in m.hostel}
        all_times = [h["time"] for h in m.hostel]
        waiting = sum(1 for i, f in enumerate(m.view["figures"]) if i != m.seat and f.get("getup") is None)
        free = [t for t in all_times if taken[t] is None]
        scores = {}
        for time in times:
            hit = self._memo.get(("getup", time))  # Leonardo's controller asks twice a decision
            if hit is not None:
                scores[time] = hit
                continue
            h = next(x for x in m.hostel if x["time"] == time)
            mood = m.mood_after(h["mood"])
            apprentices = (m.me.get("apprentices", m.rules.start_apprentices) - (1 if m.me.get("neutral_apprentice") else 0)
                           + (1 if m.me.get("apprentice_set_aside") else 0) + m.zone(mood))
            value, _ = self.plan_round(m, apprentices, h["price"], mood)
            pos = all_times.index(time)
            later_taken = sum(1 for t in all_times[pos + 1:] if taken[t] is not None)
            later_free = sum(1 for t in free if all_times.index(t) > pos)
            expected_later = later_taken + (waiting * later_free / max(1, len(free) - 1))
            scores[time] = self._memo[("getup", time)] = value + w.early * expected_later
        return scores


def _plan_distance(a: Action, counts: Sequence[int]) -> int:
    plan = read_plan(a)
    return 99 if plan is None else sum(abs(x - y) for x, y in zip(plan[0], counts))
