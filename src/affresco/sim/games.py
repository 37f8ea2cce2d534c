"""One game of a tournament: its seed and seating, playing it, and its rows (score, rank, VP by
source per figure)."""
from __future__ import annotations

import hashlib
from typing import Any, Mapping, Sequence

from ..bots import parse_spec, play_game
from ..errors import FrescoError
from ..rules import Game, new_game, replay
from .results import LEONARDO, SOURCES

def game_seed(seed: int, k: int) -> int:
    """The seed of game ``k`` of a tournament with seed ``seed`` (a 63-bit integer)."""
    digest = hashlib.sha256(f"affresco-tournament:{seed}:{k}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def lineup(bots: Sequence[str], k: int) -> list[str]:
    """The bots by seat in game ``k``: the list shifted by ``k``."""
    n = len(bots)
    return [bots[(s + k) % n] for s in range(n)]


def vp_columns(sources: Mapping[str, int]) -> dict[str, int]:
    """A figure's VP by source (``Game.vp_sources()``, docs/events.md) as the table's columns:
    one per source of :data:`SOURCES`, the sources of no column (a newer module's) in ``other``."""
    out = dict.fromkeys(SOURCES, 0)
    for source, vp in sources.items():
        out[source if source in out else "other"] += vp
    return out


def _rows(game: Game, kinds: Sequence[str], k: int) -> list[dict]:
    view = game.full_view()
    n = game.players
    scores = game.scores()
    rank = {fig: i + 1 for i, fig in enumerate(game.ranking())}
    sources = game.vp_sources()
    rows = []
    for fig, name in enumerate(game.names):
        vp = vp_columns(sources[fig])
        row = {"game": k, "seed": game.seed,
               "players": n, "modules": "+".join(view["modules"]),
               "bot": kinds[fig] if fig < n else LEONARDO, "seat": fig, "name": name,
               "getup": view["figures"][fig].get("getup") or "", "score": scores[fig], "rank": rank[fig],
               "rounds": game.round, "thalers": view["figures"][fig]["thalers"] if fig < n else None}
        row.update({f"vp_{src}": vp[src] for src in SOURCES})
        rows.append(row)
    return rows


def play_one(players: int, bots: Sequence[str], modules: Sequence[str], options: Mapping[str, Any] | None,
             seed: int, k: int, components: Mapping[str, Any] | None = None) -> tuple[int, list[dict], dict]:
    """Play game ``k`` of a tournament; ``bots`` is the tournament's list of bot specs (not yet
    shifted); ``components`` a component table (None: the reference edition).  Returns ``(k,
    rows, record)``; the record carries ``"tournament": {"game": k, "seed": seed, "bots": [spec
    by seat]}``."""
    gseed = game_seed(seed, k)
    kinds = lineup(bots, k)
    game = new_game(players, modules=tuple(modules), seed=gseed, options=dict(options or {}), components=components)
    play_game(game, [parse_spec(kind).make(f"{gseed}:{s}") for s, kind in enumerate(kinds)])
    record = game.record()
    record["tournament"] = {"game": k, "seed": seed, "bots": list(kinds)}
    return k, _rows(game, kinds, k), record


def play_job(job: tuple, k: int) -> tuple[int, list[dict], dict]:
    """:func:`play_one` for a tournament's ``job``: ``(players, bots, modules, options, seed,
    components)``, the same for every game (what a backend sends to its workers)."""
    players, bots, modules, options, seed, components = job
    return play_one(players, bots, modules, options, seed, k, components)


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
