"""Actions and their text notation (docs/notation.md).

An :class:`Action` is a kind plus text arguments; ``str(action)`` is its notation and
:func:`parse` reads it back.  Examples: ``getup 7:00``, ``plan 1-2-0-1-1``, ``buy II YYY RB``,
``close III``, ``restore C3``, ``restore C3 bishop D2``, ``altar RBG``, ``studio``,
``blend O``, ``theater``, ``track behind``, ``pass``.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Final, NamedTuple

from ..errors import NotationError
from .paints import PAINTS
from .tiles import parse_tile_text, tile_text

__all__ = ["Action", "parse", "PASS", "KINDS"]


class Action(NamedTuple):
    """One decision.  ``kind`` names it; ``args`` are its text arguments."""

    kind: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join((self.kind, *self.args))


PASS: Final[Action] = Action("pass")

# kind -> one-line description of its form (for error messages and docs)
KINDS: dict[str, str] = {
    "getup": "getup <time>            choose a get-up space, e.g. 'getup 7:00'",
    "plan": "plan a-b-c-d-e [words]   apprentices per action-sheet column, e.g. 'plan 1-2-0-1-1' (modules add words)",
    "buy": "buy <booth> <tile>...    buy tiles of one booth, e.g. 'buy II YYY RB'",
    "close": "close <booth>            close a booth, e.g. 'close III'",
    "restore": "restore <seg> [bishop <seg>]  restore a fresco segment, moving the bishop first",
    "altar": "altar <3 paints>          restore the altar with these paints, e.g. 'altar RBG'",
    "studio": "studio                   take the Thalers of every studio apprentice",
    "blend": "blend <paint>            blend one paint, e.g. 'blend O' (Y+R)",
    "theater": "theater                  move up the mood display",
    "track": "track behind|ahead       where to stop on an occupied VP-track space",
    "portrait": "portrait <card> [choice]  paint a displayed portrait (module portraits)",
    "request": "request <type> <3 tiles>  fulfil a bishop's request (module requests)",
    "income": "income <R|Y|B>            the general request's paint at income (module requests)",
    "scroll": "scroll none|row|column|both  play scrolls after a restoration (module scrolls)",
    "pass": "pass                     forfeit the rest of this visit",
}
_UPPER = re.compile(r"^([a-e][1-5]|i|ii|iii|iv|[rybogpkn]+|\d+:[a-z0-9/:]*|w:[a-z/]+)$", re.IGNORECASE)


_DIGITS = re.compile(r"^[0-9]{1,3}$")
_PAINT_WORD = re.compile(r"^[rybogpkn]+$", re.IGNORECASE)
_TIME = re.compile(r"^[0-9]{1,2}:[0-9]{2}$")


# Kinds whose arguments are never paints (a module registers its own with word_kind): a word
# made only of paint letters stays a word there ('aside yes no' is not 'aside yes ON').
_WORD_KINDS: set[str] = {"getup", "plan", "close", "studio", "theater", "track", "scroll", "pass"}


def word_kind(kind: str) -> None:
    """Register a module action kind whose arguments are never paints (at import)."""
    _WORD_KINDS.add(kind)


def _case(word: str, paints: bool = True) -> str:
    """Segments, booths, paints and tiles are upper case, paints in paint order ('yr' -> 'RY');
    numbers without leading zeros ('01' -> '1'); every other word lower case.  ``paints``:
    whether the action's kind takes paints (a word of paint letters is a word otherwise)."""
    if _PAINT_WORD.match(word):
        if not paints:
            return word.lower()
        return _sorted_paints(word.upper())
    if _DIGITS.match(word):
        return str(int(word))
    return word.upper() if _UPPER.match(word) else word.lower()


def _sorted_paints(text: str) -> str:
    return "".join(sorted(text, key=lambda c: PAINTS.index(c) if c in PAINTS else 99))


# Words a module adds to a plan after the counts (e.g. medico: 'ill 0-1-0-0-0', 'medico'):
# word -> (number of arguments, rank); parse() writes them in rank order (hooks.ORDER).
PLAN_WORDS: dict[str, tuple[int, int]] = {}


def plan_word(word: str, arity: int, rank: int) -> None:
    """Register a module's plan word (at import of the module)."""
    PLAN_WORDS[word] = (arity, rank)


# Kinds whose arguments parse() sorts into a canonical order (a module registers its own):
# kind -> sort key of one argument.
ARG_ORDER: dict = {}


def arg_order(kind: str, key) -> None:
    """Register the canonical order of a module action's arguments (e.g. 'heal 3 juice')."""
    ARG_ORDER[kind] = key


@lru_cache(maxsize=4096)
def counts_text(counts: tuple[int, ...]) -> str:
    """A plan's counts per column in the notation, ``(1, 2, 0, 1, 1)`` -> ``'1-2-0-1-1'``.
    Memoised: the reveal writes every plan's text, and joining the numbers costs more than the
    rest of a reveal (issue #12's speed)."""
    return "-".join(map(str, counts))


def _counts(text: str) -> str | None:
    digits = text.replace(",", "-").replace(".", "-")
    parts = digits.split("-") if "-" in digits else list(digits)
    if not parts or not all(_DIGITS.match(p) for p in parts):
        return None
    return "-".join(str(int(p)) for p in parts)


def _plan_args(text: str, args: list[str]) -> list[str]:
    """Counts first ('1-2-0-1-1', '12011' or '1 2 0 1 1'), then module words in rank order;
    an unknown word is kept as written (the plan is then refused, naming it)."""
    i = 0
    while i < len(args) and _DIGITS.match(args[i]):
        i += 1
    if i > 1:
        head = "-".join(str(int(a)) for a in args[:i])
    elif i == 1 or args:
        counts = _counts(args[0])
        if counts is None:
            raise NotationError(f"{text!r}: a plan is counts per column, like 'plan 1-2-0-1-1'")
        head = counts
        i = 1
    else:
        return args
    groups, rest = [], args[i:]
    while rest:
        word = rest[0]
        arity, rank = PLAN_WORDS.get(word, (len(rest) - 1, 1 << 30))
        group = [word, *(_counts(a) or a for a in rest[1:1 + arity])]  # counts as '0-1-0-0-0'
        groups.append((rank, group))
        rest = rest[1 + arity:]
    groups.sort(key=lambda g: g[0])
    return [head, *(w for _, g in groups for w in g)]


def parse(text: str) -> Action:
    """Read an action from its notation (case-insensitive, extra spaces ignored)."""
    if not isinstance(text, str):
        raise NotationError(f"an action must be notation text or an Action, not {type(text).__name__}")
    words = text.split()
    if not words:
        raise NotationError("empty action text; forms: " + "; ".join(KINDS))
    kind = words[0].lower()
    paints = kind not in _WORD_KINDS
    args = [_case(w, paints) for w in words[1:]]
    if kind == "plan" and args:
        args = _plan_args(text, args)
    elif kind == "altar" and args:
        args = [_sorted_paints("".join(a for a in args if _PAINT_WORD.match(a))),
                *(a for a in args if not _PAINT_WORD.match(a))]
    elif kind == "buy" and len(args) >= 2:
        args = [args[0], *sorted((_sorted_paints(a) for a in args[1:]), key=lambda t: (-len(t), [PAINTS.index(c) if c in PAINTS else 99 for c in t]))]
    elif kind == "request" and len(args) >= 2:
        args = [args[0], *sorted(map(_tile_word, args[1:]), key=tile_text_key)]
    elif kind in ARG_ORDER:
        args = sorted(args, key=ARG_ORDER[kind])
    elif kind == "getup" and len(args) == 1 and _DIGITS.match(args[0]):
        args = [f"{int(args[0])}:00"]
    elif kind == "getup" and len(args) == 1 and _TIME.match(args[0]):
        args = [f"{int(args[0][:-3])}{args[0][-3:]}"]      # '07:00' -> '7:00'
    return Action(kind, tuple(args))


def _tile_word(text: str) -> str:
    """A fresco tile's one spelling in notation, its view text: splashes written only when they
    differ from the default ('6:ORB/O' is '6:ORB'), in paint order; another word is kept."""
    try:
        return tile_text(*parse_tile_text(text))
    except ValueError:
        return text


def tile_text_key(text: str):
    """Order of fresco tiles written 'VP:PAINTS[/SPLASHES]' in notation: by VP, paints, splashes."""
    try:
        return parse_tile_text(text)
    except ValueError:  # not a tile: sorted first (parsing the action refuses it)
        return (0, text, "")


