"""Text for people, rendered from the engine's structured events at the edge (docs/events.md).

One catalogue per language (``en.json``, ``fr.json``, ``ru.json`` beside this file: flat
``"key": "template"`` maps), shared with the browser client, which the server serves at
``/static/i18n/<lang>.json``.  Templates use ``{name}`` placeholders and plural forms
``{n|one:...|few:...|many:...|other:...}``.

An event's key is ``event.<kind>``, or ``event.<kind>.<variant>`` for the kinds in
:data:`VARIANTS` (the variant is the value of the named field, lower-cased).  Placeholders are
the event's fields, plus ``who`` (the name of ``figure``); lists are joined with spaces (portrait
cards, ``cards``, with commas: their names are words),
``sources`` becomes ``tile 7 + bishop 2`` through the ``vp_source.<name>`` keys and ``card``
the portrait's name through ``card.<id without its deck letter>``.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources
from typing import Any, Mapping, Sequence

LANGS = ("en", "fr", "ru")
VARIANTS = {"score": "for", "track": "choice", "round_begins": "final", "bishop_move": "sexton",
            "wall_tile": "column",
            "medico_infection": "tile", "medico_plan": "medico", "medico_ill": "neutral",
            "medico_ill_apprentice": "action", "medico_buy": "bottle"}


@lru_cache(maxsize=None)
def catalog(lang: str) -> dict[str, str]:
    """The catalogue of ``lang`` (one of :data:`LANGS`)."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; available: {', '.join(LANGS)}")
    return json.loads((resources.files(__name__) / f"{lang}.json").read_text(encoding="utf-8"))


def _plural(lang: str, n: int) -> str:
    """CLDR plural category of a whole number (the forms the catalogues use)."""
    n = abs(int(n))
    if lang == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    if lang == "fr":
        return "one" if n in (0, 1) else "other"
    return "one" if n == 1 else "other"


_SLOT = re.compile(r"\{(\w+)((?:\|[a-z]+:[^|}]*)+)?\}")


def fill(template: str, params: Mapping[str, Any], lang: str = "en") -> str:
    """``template`` with its placeholders and plural forms filled from ``params``."""
    def one(m: re.Match) -> str:
        name, forms = m.group(1), m.group(2)
        if name not in params:
            return m.group(0)
        if forms:
            table = dict(f.split(":", 1) for f in forms[1:].split("|"))
            try:
                cat = _plural(lang, params[name])
            except (TypeError, ValueError):
                cat = "other"
            return table.get(cat, table.get("other", ""))
        return str(params[name])
    return _SLOT.sub(one, template)


def text(key: str, lang: str = "en", **params: Any) -> str:
    """The text of ``key`` in ``lang`` (English, then the key itself, as fallback)."""
    cat = catalog(lang)
    template = cat.get(key)
    if template is None:
        template = catalog("en").get(key, key)
    return fill(template, params, lang)


# kinds told another way when a list is empty (key event.<kind>.none): a figure without a
# face-down bell certificate "reveals" none (it read "Anna reveals : space 0")
EMPTY_VARIANTS = {"bells_placed": "face_down"}


def event_key(event: Mapping[str, Any]) -> str:
    kind = event["kind"]
    if kind in EMPTY_VARIANTS and not event.get(EMPTY_VARIANTS[kind]):
        return f"event.{kind}.none"
    field = VARIANTS.get(kind)
    return f"event.{kind}" if field is None else f"event.{kind}.{str(event.get(field)).lower()}"


# event fields holding an engine word that the catalogue names per language ("request":
# "general", "scroll": "row"); "column" (an action-sheet column, "cathedral2" for the final
# round's second visit) through col.<name>
WORD_FIELDS = {"request": "request", "scroll": "scroll"}


def column_text(word: str, lang: str = "en") -> str | None:
    """An action-sheet column word ("market", "cathedral2": the final round's second visit) as
    the catalogue names it; None if the catalogue has no such column."""
    m = re.fullmatch(r"(.*\D)2", word)
    base = m.group(1) if m else word
    if f"col.{base}" not in catalog("en"):
        return None
    name = text(f"col.{base}", lang)
    return text("col.second_visit", lang, name=name) if m else name


def render_event(event: Mapping[str, Any], names: Sequence[str], lang: str = "en") -> str:
    """One event as a sentence in ``lang``; ``names`` are the figures' names (``Game.names``)."""
    params: dict[str, Any] = {}
    for k, v in event.items():
        if k in WORD_FIELDS and isinstance(v, str) and f"{WORD_FIELDS[k]}.{v}" in catalog("en"):
            params[k] = text(f"{WORD_FIELDS[k]}.{v}", lang)
        elif k == "column" and isinstance(v, str) and (col := column_text(v, lang)) is not None:
            params[k] = col
        elif k == "sources" and isinstance(v, Mapping):
            params[k] = " + ".join(text(f"vp_source.{s}", lang, n=n) for s, n in v.items())
        elif k == "card" and isinstance(v, str):
            params[k] = text(f"card.{v.split('-')[0]}", lang)
        elif k == "effect" and isinstance(v, str) and f"favour.{v}" in catalog("en"):
            params[k] = text(f"favour.{v}", lang)
        elif isinstance(v, (list, tuple)):
            # card names are words ("Pretty girl", "God's servant"): a comma between them
            params[k] = (", ".join(text(f"card.{c.split('-')[0]}", lang) for c in v) if k == "cards"
                         else " ".join(str(c) for c in v))
        else:
            params[k] = v
    if isinstance(event.get("figure"), int) and 0 <= event["figure"] < len(names):
        params["who"] = names[event["figure"]]
    key = event_key(event)
    if key not in catalog(lang) and key not in catalog("en"):
        return f"{event['kind']} " + json.dumps({k: v for k, v in event.items() if k != "kind"}, ensure_ascii=False)
    return text(key, lang, **params)
