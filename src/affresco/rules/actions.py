"""Actions and their text notation (docs/notation.md).

An :class:`Action` is a kind plus text arguments; ``str(action)`` is its notation and
:func:`parse` reads it back.  Examples: ``getup 7:00``, ``plan 1-2-0-1-1``, ``buy II YYY RB``,
``close III``, ``restore C3``, ``restore C3 bishop D2``, ``altar RBG``, ``studio``,
``blend O``, ``theater``, ``track behind``, ``pass``.
"""
from __future__ import annotations

import re
from typing import NamedTuple

from ..errors import NotationError
from .paints import PAINTS
from .tiles import parse_tile_text

__all__ = ["Action", "parse", "PASS", "KINDS"]


class Action(NamedTuple):
    """One decision.  ``kind`` names it; ``args`` are its text arguments."""

    kind: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return " ".join((self.kind, *self.args))


PASS = Action("pass")

# kind -> one-line description of its form (for error messages and docs)
KINDS: dict[str, str] = {
    "getup": "getup <time>            choose a get-up space, e.g. 'getup 7:00'",
    "plan": "plan a-b-c-d-e           apprentices per action-sheet column, e.g. 'plan 1-2-0-1-1'",
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
    "audience": "audience <cert> full|pay <n>  buy a displayed bell certificate (module bells)",
    "deposit": "deposit <cert> <n>|none   pay more onto a partly paid certificate (module bells)",
    "wall": "wall <section>           restore a wall fresco section, e.g. 'wall A3' (module wall_fresco)",
    "exchange": "exchange <tile> <tile>  trade 2 wall tiles for an exchange tile, e.g. 'exchange W:G/B W:O/Y' (module wall_fresco)",
    "pass": "pass                     forfeit the rest of this visit",
}
_UPPER = re.compile(r"^([a-e][1-5]|i|ii|iii|iv|[rybogpkn]+|\d+:[a-z0-9/:]*|w:[a-z/]+)$", re.IGNORECASE)


_DIGITS = re.compile(r"^[0-9]{1,3}$")
_PAINT_WORD = re.compile(r"^[rybogpkn]+$", re.IGNORECASE)


def _case(word: str) -> str:
    """Segments, booths, paints and tiles are upper case, paints in paint order ('yr' -> 'RY');
    every other word lower case."""
    if _PAINT_WORD.match(word):
        return _sorted_paints(word.upper())
    return word.upper() if _UPPER.match(word) else word.lower()


def _sorted_paints(text: str) -> str:
    return "".join(sorted(text, key=lambda c: PAINTS.index(c) if c in PAINTS else 99))


def parse(text: str) -> Action:
    """Read an action from its notation (case-insensitive, extra spaces ignored)."""
    if not isinstance(text, str):
        raise NotationError(f"an action must be notation text or an Action, not {type(text).__name__}")
    words = text.split()
    if not words:
        raise NotationError("empty action text; forms: " + "; ".join(KINDS))
    kind = words[0].lower()
    args = [_case(w) for w in words[1:]]
    if kind == "plan" and len(args) > 1 and not _DIGITS.match(args[1]):
        # counts, then action tiles: 'plan 0-1-0-1-1 audience studio' (tiles sorted by name)
        head = parse("plan " + args[0]).args
        pairs = sorted(zip(args[1::2], args[2::2]))
        tail = [args[-1]] if len(args) % 2 == 0 else []
        args = [*head, *(w for p in pairs for w in p), *tail]
    elif kind == "plan" and len(args) == 1:
        digits = args[0].replace(",", "-").replace(".", "-")
        parts = digits.split("-") if "-" in digits else list(digits)
        if not all(_DIGITS.match(p) for p in parts):
            raise NotationError(f"{text!r}: a plan is counts per column, like 'plan 1-2-0-1-1'")
        args = ["-".join(str(int(p)) for p in parts)]
    elif kind == "plan" and len(args) > 1 and all(_DIGITS.match(a) for a in args):
        args = ["-".join(str(int(a)) for a in args)]
    elif kind == "altar" and args:
        args = [_sorted_paints("".join(args))]
    elif kind == "buy" and len(args) >= 2:
        args = [args[0], *sorted((_sorted_paints(a) for a in args[1:]), key=lambda t: (-len(t), [PAINTS.index(c) if c in PAINTS else 99 for c in t]))]
    elif kind == "request" and len(args) >= 2:
        args = [args[0], *sorted(args[1:], key=tile_text_key)]
    elif kind == "exchange":
        args = sorted(args)
    elif kind == "getup" and len(args) == 1 and _DIGITS.match(args[0]):
        args = [f"{int(args[0])}:00"]
    return Action(kind, tuple(args))


def tile_text_key(text: str):
    """Order of fresco tiles written 'VP:PAINTS[/SPLASHES]' in notation: by VP, paints, splashes."""
    try:
        return parse_tile_text(text)
    except ValueError:  # not a tile: sorted first (parsing the action refuses it)
        return (0, text, "")


