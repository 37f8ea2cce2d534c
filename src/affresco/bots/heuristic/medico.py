"""HeuristicBot's valuation of the medico's decisions (module 10; numbers in ``Weights``).

* **Plan**: the base plan (counts) the bot built, made legal and valued for the medico: ill
  apprentices go where they still work (workshop: one blend; cathedral: a restoration away
  from the bishop; studio: saints for a paint), never mixed with healthy ones unless the
  apprentice is worth more than the illness it spreads; each healthy apprentice in an
  infectable column carries the chance of falling ill; the medico tile is worth the best
  bottle the bot can pay for.
* **Medicine**: portions it can use (its ill apprentices) and juice (mood), less the price.
* **Heal**: heal as many as the portions allow, the bottle that wastes least first; juice
  when the mood can rise.
* **Aside / illness**: the ill apprentice is set aside (it comes back healthy); the neutral
  apprentice falls ill rather than an own one (the own one stays healthy).
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from ...rules import Game, PlanVariants, read_plan
from ...rules.actions import Action
from ...rules.paints import PAINTS
from ..model import module

KINDS = frozenset({"medicine", "heal", "aside", "illness", "saints"})
INFECTABLE = ("market", "cathedral", "studio", "workshop")
ILL_OK = ("workshop", "cathedral", "studio")   # where an ill apprentice still does something


def medico_view(m) -> Any:
    """The view's ``medico`` part (None: the module is not in play)."""
    return m.view.get("medico")


def ill_value(w, m) -> float:
    """What keeping one own apprentice healthy is worth (its use in later rounds, and the
    5 Thalers it credits at the end)."""
    mv = medico_view(m)
    left = max(0, mv["infection_tiles_left"] - 1) if mv else 0
    return w.medico_apprentice * min(left, 4) / 4 + w.thaler * 5


def bottle_value(w, m, bottle: str, sick: int) -> float:
    if bottle == "juice":
        return w.medico_juice
    return min(int(bottle), sick) * ill_value(w, m)


def score_plan(bot, m, legal: Sequence[Action], options: list[tuple[float, list[int]]]) -> list[tuple[float, Action]]:
    """Rank legal plans near the bot's base plans, with the medico's worth added."""
    w = bot.w
    mv = medico_view(m)
    cols = m.view["columns"]
    me = m.seat
    sick = mv["sick"][me]
    thalers = m.thalers
    tile_worth = 0.0
    shown = [d for d in mv["display"] if d]
    if shown:
        tile_worth = max(bottle_value(w, m, d["bottle"], sick) - w.thaler * d["price"]
                         for d in shown if d["price"] <= thalers) if any(d["price"] <= thalers for d in shown) else 0.0
    risk = w.medico_infection_risk * ill_value(w, m)
    spread = ill_value(w, m)
    best: dict[str, tuple[float, Action]] = {}
    wanted = {tuple(counts): score for score, counts in options}
    for a in _near(legal, wanted):
        if a.kind != "plan":
            continue
        counts, words = read_plan(a) or ((), {})
        ill = (Game.plan_choice_counts(("ill", *words["ill"])) if "ill" in words else None) or (0,) * len(cols)
        base = wanted.get(counts)
        if base is None:
            continue
        score = base
        for c, n, i in zip(cols, counts, ill):
            healthy = n - i
            if i and healthy:
                score -= spread * healthy            # a mixed column: every healthy one falls ill
            elif healthy and c in INFECTABLE:
                score -= risk
            if i and c == "studio":
                score -= w.medico_saints_loss * i    # saints instead of 3 Thalers without paint
        # unused ill apprentices are fine; healthy ones left at home are not (the counts say how many go)
        if "medico" in words:
            score += tile_worth
        key = a.args[0]
        if key not in best or score > best[key][0]:
            best[key] = (score, a)
    # ties: the counts in counting order (their text's order), whatever the legal order
    return sorted(best.values(), key=lambda sa: (-sa[0], sa[1].args[0]))


def _near(legal: Sequence[Action], wanted: Mapping[tuple, float]) -> Iterable[Action]:
    """The legal plans whose counts are wanted (of one counts text in the legal order): of a
    lazy PlanVariants only the variants of the wanted counts' parents are made."""
    if type(legal) is not PlanVariants:
        return legal
    texts = {"-".join(map(str, counts)) for counts in wanted}
    return (a for j, parent in enumerate(legal.parents) if parent.args[0] in texts for a in legal.variants_of(j))


def score_decision(bot, m, legal: Sequence[Action]) -> list[tuple[float, Action]]:
    w = bot.w
    mv = medico_view(m)
    me = m.seat
    sick = mv["sick"][me] if mv else 0
    out = []
    for a in legal:
        if a.kind == "medicine":
            place = int(a.args[0]) - 1
            d = mv["display"][place]
            out.append((bottle_value(w, m, d["bottle"], sick) - w.thaler * d["price"], a))
        elif a.kind == "heal":
            used = [] if a.args == ("none",) else list(a.args)
            portions = sum(int(b) for b in used if b != "juice")
            healed = min(portions, sick)
            juice = sum(b == "juice" for b in used)
            mood = m.me.get("mood", 0)
            score = healed * ill_value(w, m) - (portions - healed) * w.medico_waste
            if juice:
                score += w.medico_juice * min(juice, mood) - w.medico_waste * max(0, juice - mood)
            out.append((score, a))
        elif a.kind == "aside":
            out.append((1.0 if a.args == ("ill",) else 0.0, a))
        elif a.kind == "illness":
            out.append((1.0 if a.args == ("neutral",) else 0.0, a))
    return out


def score_saints(bot, m, a: Action, hz, base: float) -> float | None:
    """An ill studio apprentice: one paint for 3 Thalers."""
    if not a.args or a.args[0] not in PAINTS:
        return None
    p = list(m.paints)
    p[PAINTS.index(a.args[0])] -= 1
    return bot.value(m, tuple(p), m.thalers + module("medico", m.view).saints_thalers, m.tiles, m.bishop, hz) - base
