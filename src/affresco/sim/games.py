"""One game of a tournament: its seed and seating, playing it, and its rows (score, rank, VP by
source per figure)."""
from __future__ import annotations

import hashlib
import re
from typing import Any, Iterable, Mapping, Sequence

from ..bots import parse_spec, play_game
from ..errors import FrescoError
from ..rules import Game, new_game, replay
from .results import LEONARDO, SOURCES

_RESTORATION = re.compile(r"^restores [A-E][1-5]: (\d+)(?: \+ bishop (\d+))?(?: \+ special colours (\d+))?$")
_WHY = (("altar", re.compile(r"^restores the altar\b")),
        ("fresco", re.compile(r"^restores\b")),
        ("requests", re.compile(r"\brequest\b")),
        ("portraits", re.compile(r"^portrait\b")),
        ("scrolls", re.compile(r"^scrolls?\b")),
        ("favour", re.compile(r"^the bishop's favour\b")),
        ("money", re.compile(r"^final scoring: Thalers\b")))


def game_seed(seed: int, k: int) -> int:
    """The seed of game ``k`` of a tournament with seed ``seed`` (a 63-bit integer)."""
    digest = hashlib.sha256(f"affresco-tournament:{seed}:{k}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def lineup(bots: Sequence[str], k: int) -> list[str]:
    """The bots by seat in game ``k``: the list shifted by ``k``."""
    n = len(bots)
    return [bots[(s + k) % n] for s in range(n)]


def vp_sources(log: Iterable[str], names: Sequence[str]) -> list[dict[str, int]]:
    """VP per source per figure, from the public log lines (without the ``track`` column).  A
    restoration's line explains its VP ('restores C3: 7 + bishop 2 + special colours 3'): the
    tile's value counts as ``fresco``, the rest as ``bishop`` and ``special``."""
    out = [dict.fromkeys(SOURCES, 0) for _ in names]
    who = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    pattern = re.compile(rf"^({who}) scores (\d+) VP \((.*)\)$")
    index = {n: i for i, n in enumerate(names)}
    for line in log:
        m = pattern.match(line)
        if not m:
            continue
        why = m.group(3)
        fig = index[m.group(1)]
        parts = _RESTORATION.match(why)
        if parts:
            bishop, special = int(parts.group(2) or 0), int(parts.group(3) or 0)
            out[fig]["fresco"] += int(m.group(2)) - bishop - special
            out[fig]["bishop"] += bishop
            out[fig]["special"] += special
            continue
        source = next((name for name, rx in _WHY if rx.search(why)), "other")
        out[fig][source] += int(m.group(2))
    return out


def _rows(game: Game, kinds: Sequence[str], k: int) -> list[dict]:
    view = game.full_view()
    n = game.players
    scores = game.scores()
    rank = {fig: i + 1 for i, fig in enumerate(game.ranking())}
    sources = vp_sources(game.view(None)["log"], game.names)
    rows = []
    for fig, name in enumerate(game.names):
        vp = sources[fig]
        vp["track"] = scores[fig] - sum(vp.values())
        row = {"game": k, "seed": game.seed,
               "players": n, "modules": "+".join(view["modules"]),
               "bot": kinds[fig] if fig < n else LEONARDO, "seat": fig, "name": name,
               "getup": view["figures"][fig].get("getup") or "", "score": scores[fig], "rank": rank[fig],
               "rounds": game.round, "thalers": view["figures"][fig]["thalers"] if fig < n else None}
        row.update({f"vp_{src}": vp[src] for src in SOURCES})
        rows.append(row)
    return rows


def play_one(players: int, bots: Sequence[str], modules: Sequence[str], options: Mapping[str, Any] | None,
             seed: int, k: int) -> tuple[int, list[dict], dict]:
    """Play game ``k`` of a tournament; ``bots`` is the tournament's list of bot specs (not yet
    shifted).  Returns ``(k, rows, record)``; the record carries ``"tournament": {"game": k,
    "seed": seed, "bots": [spec by seat]}``."""
    gseed = game_seed(seed, k)
    kinds = lineup(bots, k)
    game = new_game(players, modules=tuple(modules), seed=gseed, options=dict(options or {}))
    play_game(game, [parse_spec(kind).make(f"{gseed}:{s}") for s, kind in enumerate(kinds)])
    record = game.record()
    record["tournament"] = {"game": k, "seed": seed, "bots": list(kinds)}
    return k, _rows(game, kinds, k), record


def rows_from_record(record: Mapping[str, Any], k: int | None = None,
                     bots: Sequence[str] | None = None) -> list[dict]:
    """The rows of a finished game rebuilt from its record (replayed action by action), e.g. a
    line of a results ``.jsonl``; ``k`` and ``bots`` default to its ``"tournament"`` entry."""
    info = record.get("tournament") or {}
    k = info.get("game", 0) if k is None else k
    game = replay(record, upto=0)
    kinds = list(bots if bots is not None else info.get("bots") or ["?"] * game.players)
    for seat, notation in record["actions"]:
        game.apply(seat, notation)
    if not game.is_over:
        raise FrescoError(f"game {k}: the record ends before the game does")
    return _rows(game, kinds, k)
