"""Tournaments: many bot games with rotated seats, on local processes, as rows for analysis.

    >>> from affresco.sim import run_tournament, write_results
    >>> result = run_tournament(4, ["greedy", "random", "random", "random"], games=8, seed=1)
    >>> write_results(result, result.records, "results.csv")   # + results.jsonl (game records)

Game ``k`` of a tournament seats the bot list shifted by ``k`` (seat ``s`` plays
``bots[(s + k) % players]``) and is a pure function of ``(seed, k)``: its game seed is
:func:`game_seed` ``(seed, k)`` and the bot in seat ``s`` has the seed ``"<game seed>:<s>"``.
So a tournament gives the same rows whatever the number of workers.

Workers are started with the ``spawn`` method (no fork of a process that runs threads, such
as a progress bar): a script that runs a tournament with ``workers > 1`` must do so under
``if __name__ == "__main__":``, as usual with :mod:`multiprocessing`.

Each game gives one row per figure (in a 2-player game Leonardo has his own row, bot
``leonardo``) with its score, its rank (1 = winner, Leonardo counted), its get-up time in the
final round and its VP by source.  The sources are read from the game's public log
(``"X scores 5 VP (restores C3)"``); ``vp_track`` is what the VP track added or took away
beyond the points scored (stopping behind or ahead on an occupied space), so that the
sources always add up to the score.
"""
from __future__ import annotations

import csv
import hashlib
import json
import multiprocessing
import re
import signal
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from .bots import BOTS, BotError, make_bot, play_game
from .errors import ConfigError
from .rules import new_game

__all__ = ["SOURCES", "FIELDS", "TournamentResult", "game_seed", "lineup", "play_one", "run_tournament",
           "vp_sources", "write_results", "read_rows", "records_path"]

#: VP sources, in column order (``vp_<source>`` columns); the bishop bonus is part of ``fresco``.
SOURCES = ("fresco", "altar", "requests", "portraits", "scrolls", "favour", "money", "other", "track")
FIELDS = ("game", "seed", "players", "modules", "bot", "seat", "name", "getup", "score", "rank", "rounds",
          *(f"vp_{s}" for s in SOURCES))
INT_FIELDS = ("game", "seed", "players", "seat", "score", "rank", "rounds", *(f"vp_{s}" for s in SOURCES))
LEONARDO = "leonardo"

_WHY = (("altar", re.compile(r"^restores the altar\b")),
        ("fresco", re.compile(r"^restores\b")),
        ("requests", re.compile(r"\brequest\b")),
        ("portraits", re.compile(r"^portrait\b")),
        ("scrolls", re.compile(r"^scrolls?\b")),
        ("favour", re.compile(r"^the bishop's favour\b")),
        ("money", re.compile(r"^final scoring: Thalers\b")))


class TournamentResult(list):
    """The rows of a tournament (a list of dicts, sorted by game then seat), with
    ``records`` (game index -> game record), ``games`` (finished game indexes, sorted) and
    ``interrupted`` (True if it was stopped by KeyboardInterrupt before the end)."""

    def __init__(self, rows: Iterable[dict] = (), records: Mapping[int, dict] | None = None,
                 interrupted: bool = False):
        super().__init__(rows)
        self.records: dict[int, dict] = dict(records or {})
        self.interrupted = interrupted

    @property
    def games(self) -> list[int]:
        return sorted(self.records)


def game_seed(seed: int, k: int) -> int:
    """The seed of game ``k`` of a tournament with seed ``seed`` (a 63-bit integer)."""
    digest = hashlib.sha256(f"affresco-tournament:{seed}:{k}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def lineup(bots: Sequence[str], k: int) -> list[str]:
    """The bots by seat in game ``k``: the list shifted by ``k``."""
    n = len(bots)
    return [bots[(s + k) % n] for s in range(n)]


def vp_sources(log: Iterable[str], names: Sequence[str]) -> list[dict[str, int]]:
    """VP per source per figure, from the public log lines (without the ``track`` column)."""
    out = [dict.fromkeys(SOURCES, 0) for _ in names]
    who = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    pattern = re.compile(rf"^({who}) scores (\d+) VP \((.*)\)$")
    index = {n: i for i, n in enumerate(names)}
    for line in log:
        m = pattern.match(line)
        if not m:
            continue
        why = m.group(3)
        source = next((name for name, rx in _WHY if rx.search(why)), "other")
        out[index[m.group(1)]][source] += int(m.group(2))
    return out


def play_one(players: int, bots: Sequence[str], modules: Sequence[str], options: Mapping[str, Any] | None,
             seed: int, k: int) -> tuple[int, list[dict], dict]:
    """Play game ``k`` of a tournament; ``bots`` is the tournament's list (not yet shifted).
    Returns ``(k, rows, record)``."""
    gseed = game_seed(seed, k)
    kinds = lineup(bots, k)
    game = new_game(players, modules=tuple(modules), seed=gseed, options=dict(options or {}))
    play_game(game, [make_bot(kind, seed=f"{gseed}:{s}") for s, kind in enumerate(kinds)])
    view = game.view(None)
    scores = game.scores()
    rank = {fig: i + 1 for i, fig in enumerate(game.ranking())}
    sources = vp_sources(view["log"], game.names)
    rows = []
    for fig, name in enumerate(game.names):
        vp = sources[fig]
        vp["track"] = scores[fig] - sum(vp.values())
        row = {"game": k, "seed": gseed, "players": players, "modules": "+".join(game.state.modules),
               "bot": kinds[fig] if fig < players else LEONARDO, "seat": fig, "name": name,
               "getup": view["figures"][fig].get("getup") or "", "score": scores[fig], "rank": rank[fig],
               "rounds": game.round}
        row.update({f"vp_{s}": vp[s] for s in SOURCES})
        rows.append(row)
    return k, rows, game.record()


def _check(players: int, bots: Sequence[str], games: int, workers: int) -> list[str]:
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise ConfigError(f"Fresco is for 2 to 4 players, not {players!r}")
    names = [str(b).strip().lower() for b in bots]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise ConfigError(f"name one bot per seat ({players}), or a single bot for every seat; got {len(names)}")
    bad = [b for b in names if b not in BOTS]
    if bad:
        raise BotError(f"unknown bot(s) {', '.join(bad)}; bots: {', '.join(sorted(BOTS))}")
    if games < 0:
        raise ConfigError(f"games must be 0 or more, not {games}")
    if workers < 1:
        raise ConfigError(f"workers must be 1 or more, not {workers}")
    return names


def _ignore_sigint() -> None:  # pragma: no cover - runs in the worker processes
    """Workers leave Ctrl-C to the parent, which stops the tournament and ends them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_tournament(players: int, bots: Sequence[str], games: int, modules: Sequence[str] = (), seed: int = 0,
                   workers: int = 1, on_result: Callable[[int, list[dict], dict], None] | None = None,
                   options: Mapping[str, Any] | None = None) -> TournamentResult:
    """Play ``games`` games of ``players`` players with the ``bots`` (one name per seat, or one
    for all), seats rotated, and return their rows (see the module doc).

    workers > 1 plays on that many local processes.  ``on_result(k, rows, record)`` is called
    in this process after each game (in the order games finish).  KeyboardInterrupt (Ctrl-C,
    or raised by ``on_result``) stops the tournament: the games finished so far are returned
    with ``interrupted=True``.
    """
    names = _check(players, bots, games, workers)
    modules = tuple(modules)
    new_game(players, modules=modules, seed=0, options=dict(options or {}))  # fail early on a bad set-up
    result = TournamentResult()
    done: dict[int, list[dict]] = {}

    def store(k: int, rows: list[dict], record: dict) -> None:
        done[k] = rows
        result.records[k] = record

    def finish(k: int, rows: list[dict], record: dict) -> None:
        store(k, rows, record)
        if on_result is not None:
            on_result(k, rows, record)

    try:
        if workers == 1 or games <= 1:
            for k in range(games):
                finish(*play_one(players, names, modules, options, seed, k))
        else:
            _run_pool(players, names, modules, options, seed, games, workers, finish, store)
    except KeyboardInterrupt:
        result.interrupted = True
    for k in sorted(done):
        result.extend(done[k])
    return result


def _run_pool(players, names, modules, options, seed, games, workers, finish, store) -> None:
    ctx = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=min(workers, games), mp_context=ctx, initializer=_ignore_sigint)
    pending: set[Future] = set()
    handed: set[int] = set()
    clean = False
    try:
        todo = iter(range(games))
        # keep a bounded number of games in flight so that an interruption wastes little
        for k in todo:
            pending.add(pool.submit(play_one, players, names, modules, options, seed, k))
            if len(pending) >= 2 * workers:
                break
        while pending:
            ready, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in sorted(ready, key=lambda f: f.result()[0]):
                pending.add(fut)  # until handed over: an interruption keeps it
                k, rows, record = fut.result()
                handed.add(k)
                pending.discard(fut)
                finish(k, rows, record)
                nxt = next(todo, None)
                if nxt is not None:
                    pending.add(pool.submit(play_one, players, names, modules, options, seed, nxt))
        clean = True
    finally:
        if clean:
            pool.shutdown(wait=True)
        else:
            # Interrupted (or a game failed): keep the games already finished, drop queued
            # games, end the workers we started.
            for fut in pending:
                if not fut.cancel() and fut.done() and not fut.cancelled() and fut.exception() is None:
                    k, rows, record = fut.result()
                    if k not in handed:
                        store(k, rows, record)
            procs = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for p in procs:
                if p.is_alive():
                    p.terminate()
            for p in procs:
                p.join(timeout=5)


# ---------------------------------------------------------------------------- files
def records_path(path: str | Path) -> Path:
    """Where the game records of a results CSV go: the same name with ``.jsonl``."""
    return Path(path).with_suffix(".jsonl")


def write_results(rows: Sequence[Mapping[str, Any]], records: Mapping[int, dict] | Sequence[dict],
                  path: str | Path) -> tuple[Path, Path]:
    """Write the rows as a CSV at ``path`` and the game records as JSON lines beside it
    (``records_path(path)``; each line is a game record, with ``"tournament": {"game": k}``
    added).  Returns both paths."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=FIELDS, extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            writer.writerow(row)
    items = sorted(records.items()) if isinstance(records, Mapping) else list(enumerate(records))
    jpath = records_path(path)
    with jpath.open("w", encoding="utf-8") as f:
        for k, record in items:
            f.write(json.dumps({**record, "tournament": {"game": k}}, separators=(",", ":")) + "\n")
    return path, jpath


def read_rows(path: str | Path) -> list[dict[str, Any]]:
    """The rows of a results CSV, with the numeric columns as ints."""
    with Path(path).open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        for key in INT_FIELDS:
            if key in row and row[key] not in (None, ""):
                row[key] = int(row[key])
    return rows


def read_records(path: str | Path) -> list[dict]:
    """The game records of a JSONL file written by :func:`write_results`."""
    with Path(path).open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]
