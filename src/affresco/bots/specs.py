"""Bot specs: the one parser of the text that names a bot and its options, and the menu of bots
for people (the terminal, tournaments, the bench and the server's new-game form use it).

A spec is the bot's name, then options after colons: a bare number is the bot's budget (for
``search`` its seconds per decision), ``key=value`` any option of the bot::

    random    heuristic    search:1.5    search:simulations=200    search:seconds=2:horizon=1

:func:`parse_spec` checks all of it (unknown bot, a budget that is not a positive number, two
budgets, a budget for a bot that takes none, an option the bot does not have) and returns a
:class:`BotSpec`, whose :attr:`~BotSpec.label` is the canonical spelling and whose
:meth:`~BotSpec.make` builds the bot.
"""
from __future__ import annotations

import inspect
from functools import lru_cache
import math
from dataclasses import dataclass, field
from typing import Any, Mapping

from .base import Bot, BotError
from .greedy import GreedyBot
from .heuristic import HeuristicBot
from .random_bot import RandomBot
from .search import SearchBot

__all__ = ["KINDS", "BotKind", "BotSpec", "bot_menu", "parse_spec"]


@dataclass(frozen=True)
class BotKind:
    """A kind of bot as people choose it: ``title`` and ``description`` are for menus."""

    name: str
    title: str
    description: str
    factory: type[Bot]
    budget: str | None = None          # the keyword a bare number sets (None: takes no budget)
    options: Mapping[str, str] = field(default_factory=dict)   # option -> what it does (menus, help)
    listed: bool = True                # shown in menus (False: a former name kept for old specs)


KINDS: dict[str, BotKind] = {k.name: k for k in (
    BotKind("random", "Random", "Plays any legal move at random: an easy opponent, and a test of the rules.",
            RandomBot),
    BotKind("heuristic", "Heuristic", "Plays at once and sensibly: weighs every legal move by what it brings "
            "this round (every module understood).", HeuristicBot),
    BotKind("search", "Search", "The strongest: tries its best moves in sampled games consistent with what it "
            "sees, for the given seconds per move.", SearchBot, budget="seconds",
            options={"seconds": "thinking time per decision (default 1)",
                     "simulations": "a fixed number of simulated games per decision instead (deterministic)",
                     "horizon": "rounds each simulated game looks ahead (default 1)",
                     "candidates": "moves compared per decision (default 5)",
                     "workers": "processes searching each decision together (default 1; 2 uses both cores)",
                     "clock": "what the seconds count: wall (default) or cpu (the bot's own CPU time, for "
                              "measurements on a busy machine)"}),
    BotKind("greedy", "Greedy", "The heuristic bot under its former name.", GreedyBot, listed=False),
)}


def _value(text: str) -> Any:
    low = text.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("none", "null"):
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text.strip()


@lru_cache(maxsize=64)
def _parameters(cls: type[Bot]) -> frozenset[str]:
    """The options a bot class takes (its constructor's parameters but the seed); memoised:
    an environment makes its opponents at every reset."""
    return frozenset(p for p in inspect.signature(cls).parameters if p != "seed")


@dataclass(frozen=True)
class BotSpec:
    """A parsed bot spec: the kind, its budget (a bare number) and its options, checked."""

    kind: str
    budget: float | None = None
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def label(self) -> str:
        """The canonical spelling: ``"Search:1.50"`` -> ``"search:1.5"``."""
        parts = [self.kind, *([] if self.budget is None else [f"{self.budget:g}"])]
        parts += [f"{k}={_text(v)}" for k, v in self.options]
        return ":".join(parts)

    @property
    def timed(self) -> bool:
        """Whether the bot takes a time budget (its decisions take wall time)."""
        return KINDS[self.kind].budget is not None

    def make(self, seed: int | str | None = 0, **overrides: Any) -> Bot:
        """The bot, deterministic for ``seed`` (keyword ``overrides`` win over the spec's options)."""
        kind = KINDS[self.kind]
        options = dict(self.options)
        if self.budget is not None:
            options.setdefault(kind.budget, self.budget)
        unknown = sorted(set(overrides) - _parameters(kind.factory))
        if unknown:
            raise BotError(f"bot {self.kind!r} has no option {', '.join(unknown)}; options: "
                           f"{', '.join(sorted(_parameters(kind.factory))) or 'none'}")
        options.update(overrides)
        try:
            return kind.factory(seed, **options)
        except (TypeError, ValueError) as e:
            raise BotError(f"bot {self.label!r}: bad options {options!r} ({e})") from None


def _text(v: Any) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v).lower() if isinstance(v, bool) else str(v)


def parse_spec(spec: str | BotSpec) -> BotSpec:
    """Parse and check a bot spec (see the module doc); raises :class:`BotError` saying what is
    wrong and what is possible."""
    if isinstance(spec, BotSpec):
        return spec
    if not isinstance(spec, str):
        raise BotError(f"a bot is named by a string, not {spec!r}")
    name, *parts = spec.strip().split(":")
    name = name.strip().lower()
    kind = KINDS.get(name)
    if kind is None:
        raise BotError(f"unknown bot {name or spec!r}; bots: {', '.join(sorted(KINDS))} "
                       f"(a time budget in seconds per decision may follow a colon: search:1.0)")
    budget: float | None = None
    options: dict[str, Any] = {}
    allowed = _parameters(kind.factory)
    for part in (p.strip() for p in parts):
        if not part:
            continue
        if "=" in part:
            key, value = (x.strip() for x in part.split("=", 1))
            key = key.lower()
            if key not in allowed:
                raise BotError(f"bot {spec!r}: {name} has no option {key!r}; options: {', '.join(sorted(allowed)) or 'none'}")
            options[key] = _value(value)
            continue
        if kind.budget is None:
            timed = sorted(k.name for k in KINDS.values() if k.budget and k.listed)
            raise BotError(f"bot {name!r} takes no time budget ({spec!r}); bots that do: {', '.join(timed) or 'none'}")
        try:
            seconds = float(part)
        except ValueError:
            seconds = math.nan
        if not (math.isfinite(seconds) and seconds > 0):
            raise BotError(f"bot {spec!r}: after the colon give seconds per decision, a number > 0 (e.g. {name}:1.0)")
        if budget is not None:
            raise BotError(f"bot {spec!r}: give one time budget")
        budget = seconds
    return BotSpec(name, budget, tuple(sorted(options.items())))


def bot_menu() -> list[dict[str, Any]]:
    """The bots people may choose, for menus: ``name`` (what a spec starts with), ``title``,
    ``description``, ``timed`` (takes seconds per move) and ``options`` (option -> meaning)."""
    return [{"name": k.name, "title": k.title, "description": k.description, "timed": k.budget is not None,
             "options": dict(k.options)} for k in KINDS.values() if k.listed]
