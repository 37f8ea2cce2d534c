"""The text of a fresco tile: ``VP:PAINTS``, or ``VP:PAINTS/SPLASHES`` when the splashes on its
back are not the blended colours of its paints (module 2, requests; docs/notation.md).  The one
codec of the view, the saved state, the notation and every reader outside the engine."""
from __future__ import annotations

from .paints import BLENDED, PAINTS

__all__ = ["default_splashes", "parse_tile_text", "tile_text"]


def default_splashes(paints: str) -> str:
    """The splashes a tile has unless printed otherwise: the blended colours of its paints."""
    return "".join(c for c in BLENDED if c in paints)


def tile_text(vp: int, paints: str, splashes: str) -> str:
    """'7:OG', or '7:OG/P' when the splashes differ from :func:`default_splashes`."""
    return f"{vp}:{paints}" if splashes == default_splashes(paints) else f"{vp}:{paints}/{splashes}"


def parse_tile_text(text: object) -> tuple[int, str, str]:
    """``(vp, paints, splashes)`` of a tile text, the splashes in paint order (they are a set:
    '9:POB/PO' is '9:POB/OP', which is '9:POB'); raises ValueError if it is not one."""
    if not isinstance(text, str):
        raise ValueError(f"{text!r}: a fresco tile is written 'VP:PAINTS', e.g. '7:OG'")
    vp, colon, rest = text.partition(":")
    paints, slash, splashes = rest.partition("/")
    if not colon or not vp.isdigit() or not vp.isascii() or not paints \
            or any(c not in PAINTS for c in paints + splashes):
        raise ValueError(f"{text!r}: a fresco tile is written 'VP:PAINTS', e.g. '7:OG'")
    if not slash:
        return int(vp), paints, default_splashes(paints)
    return int(vp), paints, "".join(c for c in PAINTS if c in splashes)
