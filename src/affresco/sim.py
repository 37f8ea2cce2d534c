"""Tournaments: many bot games with rotated seats, on local processes or a Ray cluster, as rows
for analysis.

    >>> from affresco.sim import run_tournament, write_results
    >>> result = run_tournament(4, ["greedy", "random", "random", "random"], games=8, seed=1)
    >>> write_results(result, result.records, "results.csv")   # + results.jsonl (game records)

Game ``k`` of a tournament seats the bot list shifted by ``k`` (seat ``s`` plays
``bots[(s + k) % players]``) and is a pure function of ``(seed, k)``: its game seed is
:func:`game_seed` ``(seed, k)`` and the bot in seat ``s`` has the seed ``"<game seed>:<s>"``.
So a tournament gives the same rows whatever the number of workers or the backend (bots with
a time budget excepted: how far they search depends on the machine).

A bot is named by a spec: its name in :data:`affresco.bots.BOTS`, optionally with a time
budget in seconds per decision, ``"search:1.0"`` (passed as ``seconds=``), and ``key=value``
options where :func:`affresco.bots.make_bot` takes them (``"search:simulations=200"``); see
:func:`parse_bot`.  The rows name each bot by its canonical spec (:func:`bot_label`).

Backends: ``workers == 1`` plays in this process; ``workers > 1`` on that many local processes
(started with the ``spawn`` method, so a script that runs a tournament with ``workers > 1`` must
do so under ``if __name__ == "__main__":``, as usual with :mod:`multiprocessing`);
``ray="local"`` (a local Ray instance with ``workers`` CPUs) or ``ray=ADDRESS`` (an existing
cluster, e.g. ``"auto"`` or ``"ray://head:10001"``) plays on Ray, with ``workers`` games in
flight (by default one per CPU of the cluster).  Both backends run the same loop: games are
futures, at most ``2 * workers`` in flight, handed over as they finish; an interruption
cancels the rest and ends the workers.  Ray is an optional extra (``pip install 'affresco[ray]'``),
imported only when asked for; the cluster's nodes need affresco installed.

Each game gives one row per figure (in a 2-player game Leonardo has his own row, bot
``leonardo``) with its score, its rank (1 = winner, Leonardo counted), its get-up time in the
final round, its Thalers left at the end and its VP by source (:data:`SOURCES`).  The sources
are read from the game's public log (``"X scores 9 VP (restores C3: 7 + bishop 2)"``): each
restoration is split into the tile's printed value (``fresco``), the bishop bonus (``bishop``, portraits'
extra bishop bonus included) and the special-colours bonus for pink/brown paid on a fresco
tile (``special``, option ``special_colours_on_fresco``).  ``money`` is the final 1 VP per
2 Thalers; ``track`` is what the VP track added or took away beyond the points scored (stopping
behind or ahead on an occupied space), so that the sources always add up to the score.

Files: the rows go to a table (CSV, or Parquet when the name ends in ``.parquet`` and pyarrow
is installed) and every game's record to JSON lines beside it (``results.jsonl``): each line
is an ``affresco-record/2`` game record (``affresco replay`` takes one line as a file; ``affresco
report RESULTS --game K`` writes game K out) with a ``"tournament"`` entry (game index, the
tournament's seed, the bots by seat).  :class:`ResultsWriter` streams both files while the
tournament runs, so that finished games survive even a hard kill, then rewrites them sorted.
"""
from __future__ import annotations

import contextlib
import csv
import hashlib
import inspect
import json
import logging
import math
import multiprocessing
import os
import re
import signal
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from .bots import BOTS, Bot, BotError, make_bot, play_game
from .errors import ConfigError, FrescoError
from .rules import Game, new_game, replay

__all__ = ["SOURCES", "FIELDS", "TournamentResult", "ResultsWriter", "game_seed", "lineup", "parse_bot",
           "bot_label", "build_bot", "play_one", "rows_from_record", "run_tournament", "vp_sources",
           "write_results", "read_rows", "read_records", "records_path", "table_format", "require_ray"]

#: VP sources, in column order (``vp_<source>`` columns).
SOURCES = ("fresco", "bishop", "special", "altar", "requests", "portraits", "scrolls", "favour", "money",
           "other", "track")
FIELDS = ("game", "seed", "players", "modules", "bot", "seat", "name", "getup", "score", "rank", "rounds",
          "thalers", *(f"vp_{s}" for s in SOURCES))
INT_FIELDS = ("game", "seed", "players", "seat", "score", "rank", "rounds", "thalers",
              *(f"vp_{s}" for s in SOURCES))
LEONARDO = "leonardo"

_RESTORATION = re.compile(r"^restores [A-E][1-5]: (\d+)(?: \+ bishop (\d+))?(?: \+ special colours (\d+))?$")
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
        self.workers = 1
        self.backend = "in-process"

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


# ---------------------------------------------------------------------------- bot specs
def _accepts(fn: Callable, keyword: str) -> bool:
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):  # pragma: no cover - builtins
        return False
    return any(p.name == keyword or p.kind is p.VAR_KEYWORD for p in params)


def parse_bot(spec: str) -> tuple[str, float | None, tuple[str, ...]]:
    """Split a bot spec: ``"search:1.5"`` -> ``("search", 1.5, ())``; ``"greedy"`` -> ``("greedy",
    None, ())``; ``"search:simulations=200"`` -> ``("search", None, ("simulations=200",))``.

    The bare number after a colon is a time budget in seconds per decision (passed to the bot
    as ``seconds=``); ``key=value`` options are handed to :func:`affresco.bots.make_bot` as
    they are (where it takes them).  Raises :class:`BotError` for an unknown bot, a budget that
    is not a positive number of seconds, a budget for a bot that takes none, or two budgets."""
    text = str(spec).strip()
    name, *parts = text.split(":")
    name = name.strip().lower()
    if not dict.__contains__(BOTS, name):
        raise BotError(f"unknown bot {name or spec!r}; bots: {', '.join(sorted(BOTS))} "
                       f"(a time budget in seconds per decision may follow a colon: search:1.0)")
    budget: float | None = None
    keyed: list[str] = []
    for part in (p.strip() for p in parts):
        if "=" in part:
            key, value = part.split("=", 1)
            keyed.append(f"{key.strip().lower()}={value.strip()}")
            continue
        try:
            seconds = float(part)
        except ValueError:
            seconds = math.nan
        if not (math.isfinite(seconds) and seconds > 0):
            raise BotError(f"bot {spec!r}: after the colon give seconds per decision, a number > 0 "
                           f"(e.g. {name}:1.0)")
        if budget is not None:
            raise BotError(f"bot {spec!r}: give one time budget")
        budget = seconds
    if budget is not None and not _accepts(BOTS[name], "seconds"):
        timed = sorted(b for b, cls in BOTS.items() if _accepts(cls, "seconds"))
        raise BotError(f"bot {name!r} takes no time budget ({spec!r}); bots that do: {', '.join(timed) or 'none'}")
    return name, budget, tuple(keyed)


def bot_label(spec: str) -> str:
    """The canonical spelling of a valid bot spec (``"Search:1.50"`` -> ``"search:1.5"``);
    raises :class:`BotError` if no bot can be made of it."""
    name, budget, keyed = parse_bot(spec)
    label = ":".join([name, *([] if budget is None else [f"{budget:g}"]), *sorted(keyed)])
    build_bot(label)  # options the bot refuses are refused now, not in a worker
    return label


def build_bot(spec: str, seed: int | str | None = 0) -> Bot:
    """The bot of a spec: ``make_bot(name, seed=...)``, with ``seconds=`` only when the spec
    gives a time budget (to the bot class directly if make_bot takes no keyword options)."""
    name, budget, keyed = parse_bot(spec)
    extra = {} if budget is None else {"seconds": budget}
    try:
        if _accepts(make_bot, "seconds"):
            return make_bot(":".join([name, *keyed]), seed=seed, **extra)
        if keyed:
            raise BotError(f"bot {spec!r}: this version of make_bot takes no options ({', '.join(keyed)})")
        return make_bot(name, seed=seed) if budget is None else BOTS[name](seed, **extra)
    except (TypeError, ValueError) as e:
        raise BotError(f"bot {spec!r}: {e}") from None


# ---------------------------------------------------------------------------- rows of a game
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
    s = game.state
    view = game.view(None)
    scores = game.scores()
    rank = {fig: i + 1 for i, fig in enumerate(game.ranking())}
    sources = vp_sources(view["log"], game.names)
    rows = []
    for fig, name in enumerate(game.names):
        vp = sources[fig]
        vp["track"] = scores[fig] - sum(vp.values())
        row = {"game": k, "seed": s.setup.get("seed"),
               "players": s.n, "modules": "+".join(s.modules),
               "bot": kinds[fig] if fig < s.n else LEONARDO, "seat": fig, "name": name,
               "getup": view["figures"][fig].get("getup") or "", "score": scores[fig], "rank": rank[fig],
               "rounds": game.round, "thalers": s.thalers[fig] if fig < s.n else None}
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
    play_game(game, [build_bot(kind, seed=f"{gseed}:{s}") for s, kind in enumerate(kinds)])
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


# ---------------------------------------------------------------------------- running
def _check(players: int, bots: Sequence[str], games: int, workers: int | None) -> list[str]:
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise ConfigError(f"Fresco is for 2 to 4 players, not {players!r}")
    labels = {b: bot_label(b) for b in dict.fromkeys(bots)}
    names = [labels[b] for b in bots]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise ConfigError(f"name one bot per seat ({players}), or a single bot for every seat; got {len(names)}")
    if games < 0:
        raise ConfigError(f"games must be 0 or more, not {games}")
    if workers is not None and workers < 1:
        raise ConfigError(f"workers must be 1 or more, not {workers}")
    return names


def _worker_init(parent: int) -> None:  # pragma: no cover - runs in the worker processes
    """Workers leave Ctrl-C to the parent, which stops the tournament and ends them.  A parent
    killed outright (SIGKILL, a crash) cannot end them: they then end themselves within a
    second instead of playing on unseen."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="affresco-parent-watch", daemon=True).start()


@contextlib.contextmanager
def _sigint_deferred(reraise: bool = True):
    """Hold Ctrl-C back while cleaning up or writing a file (a Ctrl-C then must not leave
    workers running or a file half written); with ``reraise`` a Ctrl-C that came meanwhile is
    raised as KeyboardInterrupt at the end.  Only in the main thread (elsewhere a no-op)."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield  # Ctrl-C is handled (or ignored) by someone else here
        return
    caught = []
    old = signal.signal(signal.SIGINT, lambda *_: caught.append(1))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
    if caught and reraise:
        raise KeyboardInterrupt


def run_tournament(players: int, bots: Sequence[str], games: int, modules: Sequence[str] = (), seed: int = 0,
                   workers: int | None = None, on_result: Callable[[int, list[dict], dict], None] | None = None,
                   options: Mapping[str, Any] | None = None, ray: str | None = None,
                   on_start: Callable[[TournamentResult], None] | None = None) -> TournamentResult:
    """Play ``games`` games of ``players`` players with the ``bots`` (one spec per seat, or one
    for all), seats rotated, and return their rows (see the module doc).

    ``workers`` (default 1; with Ray, the cluster's CPUs) > 1 plays on that many local
    processes; ``ray`` (``"local"`` or a cluster address) plays on Ray instead.
    ``on_start(result)`` is called once the backend is set up (Ray started or joined;
    ``result.workers`` and ``result.backend`` set), before the first game;
    ``on_result(k, rows, record)`` in this process after each game (in the order games finish).
    KeyboardInterrupt (Ctrl-C, or raised by a callback) stops the tournament: the games finished
    so far are returned with ``interrupted=True``; the workers are ended.
    """
    names = _check(players, bots, games, workers)
    modules = tuple(modules)
    new_game(players, modules=modules, seed=0, options=dict(options or {}))  # fail early on a bad set-up
    if ray is not None:
        _ray_module()  # fail early without Ray
    result = TournamentResult()
    done: dict[int, list[dict]] = {}

    def store(k: int, rows: list[dict], record: dict) -> None:
        done[k] = rows
        result.records[k] = record

    def finish(k: int, rows: list[dict], record: dict) -> None:
        store(k, rows, record)
        if on_result is not None:
            on_result(k, rows, record)

    job = (players, names, modules, dict(options or {}), seed)
    try:
        if ray is None and ((workers or 1) == 1 or games <= 1):
            result.workers, result.backend = 1, "in-process"
            if on_start is not None:
                on_start(result)
            for k in range(games):
                finish(*play_one(*job, k))
        else:
            backend = _RayBackend(job, ray, workers) if ray is not None else _ProcessBackend(job, min(workers, games))
            result.workers, result.backend = backend.workers, backend.name
            _drive(backend, games, finish, store, on_start and (lambda: on_start(result)))
    except KeyboardInterrupt:
        result.interrupted = True
    for k in sorted(done):
        result.extend(done[k])
    return result


class _ProcessBackend:
    """Games on local processes (spawned, ignoring Ctrl-C)."""

    def __init__(self, job: tuple, workers: int):
        self.job, self.workers, self.name = job, workers, "processes"
        self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                                        initializer=_worker_init, initargs=(os.getpid(),))

    def submit(self, k: int) -> Future:
        return self.pool.submit(play_one, *self.job, k)

    def close(self, clean: bool, pending: Iterable[Future]) -> None:
        if clean:
            self.pool.shutdown(wait=True)
            return
        procs = list((getattr(self.pool, "_processes", None) or {}).values())
        self.pool.shutdown(wait=False, cancel_futures=True)
        for p in procs:
            if p.is_alive():
                p.terminate()
        for p in procs:
            p.join(timeout=5)


def require_ray():
    """The ``ray`` module, or a :class:`ConfigError` saying how to install it."""
    return _ray_module()


def _ray_module():
    try:
        import ray
    except ImportError:
        raise ConfigError("playing on Ray needs the ray package: pip install 'affresco[ray]'") from None
    return ray


class _RayBackend:
    """Games as Ray tasks (one CPU each): ``address`` ``"local"`` starts a local instance with
    ``workers`` CPUs (all of this machine's by default), anything else joins that cluster.
    A Ray already initialised in this process is used as it is and left running."""

    def __init__(self, job: tuple, address: str, workers: int | None):
        ray = self.ray = _ray_module()
        self.job, self.refs, self.started = job, {}, False
        if not ray.is_initialized():
            common = dict(include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING,
                          configure_logging=True)
            self.started = True
            try:
                if address == "local":
                    ray.init(num_cpus=workers, **common)
                else:
                    ray.init(address=address, **common)
            except (ConnectionError, ValueError, RuntimeError) as e:
                self.close(False, ())
                raise ConfigError(f"cannot start or join Ray at {address!r}: {e}") from None
            except BaseException:  # Ctrl-C while starting: leave nothing running
                self.close(False, ())
                raise
        if workers is None:
            workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self.workers = workers
        self.name = f"ray ({address})"
        self.task = ray.remote(num_cpus=1, max_retries=0)(play_one)

    def submit(self, k: int) -> Future:
        ref = self.task.remote(*self.job, k)
        fut = ref.future()
        self.refs[fut] = ref
        return fut

    def close(self, clean: bool, pending: Iterable[Future]) -> None:
        try:
            if not clean:
                for fut in pending:
                    ref = self.refs.get(fut)
                    if ref is not None and not fut.done():
                        with contextlib.suppress(Exception):
                            self.ray.cancel(ref, force=True)
        finally:
            if self.started:
                with _sigint_deferred(reraise=False):
                    self.ray.shutdown()


def _drive(backend, games: int, finish, store, on_start: Callable[[], None] | None) -> None:
    """The loop of both pool backends: at most 2 x workers games in flight, handed over as they
    finish; on an interruption (or a failed game) the finished ones are kept, the rest dropped."""
    pending: set[Future] = set()
    handed: set[int] = set()
    clean = False
    try:
        if on_start is not None:
            on_start()
        todo = iter(range(games))
        for k in todo:
            pending.add(backend.submit(k))
            if len(pending) >= 2 * backend.workers:
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
                    pending.add(backend.submit(nxt))
        clean = True
    finally:
        with _sigint_deferred(reraise=clean):
            if not clean:
                for fut in list(pending):
                    if fut.done() and not fut.cancelled() and fut.exception() is None:
                        k, rows, record = fut.result()
                        if k not in handed:
                            store(k, rows, record)
                    else:
                        fut.cancel()
            backend.close(clean, pending)


# ---------------------------------------------------------------------------- files
def records_path(path: str | Path) -> Path:
    """Where the game records of a results table go: the same name with ``.jsonl``."""
    return Path(path).with_suffix(".jsonl")


def _pyarrow():
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise ConfigError("writing or reading .parquet needs pyarrow: pip install pyarrow "
                          "(or name a .csv file)") from None
    return pyarrow


def table_format(path: str | Path) -> str:
    """``"parquet"`` for a name ending in ``.parquet`` (needs pyarrow), ``"jsonl"`` for the
    records alone, else ``"csv"``."""
    suffix = Path(path).suffix.lower()
    if suffix in (".parquet", ".pq"):
        return "parquet"
    if suffix == ".jsonl":
        return "jsonl"
    return "csv"


def _check_table_path(path: Path) -> str:
    kind = table_format(path)
    if kind == "jsonl":
        raise ConfigError(f"{path}: name the results table .csv or .parquet; the game records go beside it "
                          f"as .jsonl")
    if kind == "parquet":
        _pyarrow()
    return kind


def _replace_atomically(path: Path, write: Callable[[Path], None]) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def _csv_value(v: Any) -> Any:
    return "" if v is None else v


def _write_csv(rows: Iterable[Mapping[str, Any]], path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=FIELDS, extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: _csv_value(row.get(k)) for k in FIELDS})


def _write_parquet(rows: Sequence[Mapping[str, Any]], path: Path) -> None:
    pa = _pyarrow()
    schema = pa.schema([(k, pa.int64() if k in INT_FIELDS else pa.string()) for k in FIELDS])
    table = pa.Table.from_pylist([{k: (None if row.get(k) == "" and k in INT_FIELDS else row.get(k))
                                   for k in FIELDS} for row in rows], schema=schema)
    pa.parquet.write_table(table, path)


def _record_line(k: int, record: Mapping[str, Any]) -> str:
    info = dict(record.get("tournament") or {})
    info["game"] = k
    return json.dumps({**record, "tournament": info}, separators=(",", ":")) + "\n"


def write_results(rows: Sequence[Mapping[str, Any]], records: Mapping[int, dict] | Sequence[dict],
                  path: str | Path) -> tuple[Path, Path]:
    """Write the rows as a CSV (or Parquet, for a ``.parquet`` name) at ``path`` and the game
    records as JSON lines beside it (``records_path(path)``; each line is a game record, its
    ``"tournament"`` entry holding at least the game index).  Each file is replaced whole
    (written aside, then renamed).  Returns both paths."""
    path = Path(path)
    kind = _check_table_path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    items = sorted(records.items()) if isinstance(records, Mapping) else list(enumerate(records))
    jpath = records_path(path)
    with _sigint_deferred():
        _replace_atomically(path, lambda p: (_write_parquet if kind == "parquet" else _write_csv)(rows, p))

        def write_jsonl(p: Path) -> None:
            with p.open("w", encoding="utf-8") as f:
                for k, record in items:
                    f.write(_record_line(k, record))
        _replace_atomically(jpath, write_jsonl)
    return path, jpath


class ResultsWriter:
    """Streams a tournament's results to disk as games finish: the game records (JSONL) and,
    for a CSV table, the rows, appended in finishing order and flushed after every game (so a
    crash or a kill keeps them); :meth:`close` then writes both files whole, sorted by game.
    A ``.parquet`` table is only written by :meth:`close` (its rows can be rebuilt from the
    records otherwise: :func:`rows_from_record`).

        with ResultsWriter("results.csv") as out:
            result = run_tournament(..., on_result=out.add)
            out.close(result)
    """

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.kind = _check_table_path(self.path)
        self.jsonl = records_path(self.path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._records = self.jsonl.open("w", encoding="utf-8")
        self._table = None
        self.count = 0
        if self.kind == "csv":
            self._table = self.path.open("w", newline="", encoding="utf-8")
            self._csv = csv.DictWriter(self._table, fieldnames=FIELDS, extrasaction="ignore")
            self._csv.writeheader()
            self._table.flush()

    def add(self, k: int, rows: Sequence[Mapping[str, Any]], record: Mapping[str, Any]) -> None:
        with _sigint_deferred():
            self._records.write(_record_line(k, record))
            self._records.flush()
            if self._table is not None:
                for row in rows:
                    self._csv.writerow({key: _csv_value(row.get(key)) for key in FIELDS})
                self._table.flush()
            self.count += 1

    def _close_streams(self) -> None:
        for f in (self._records, self._table):
            if f is not None and not f.closed:
                f.close()

    def close(self, result: TournamentResult | None = None) -> tuple[Path, Path]:
        """Close the streams and, given the tournament's result, write both files sorted."""
        self._close_streams()
        if result is not None:
            return write_results(result, result.records, self.path)
        return self.path, self.jsonl

    def __enter__(self) -> "ResultsWriter":
        return self

    def __exit__(self, *exc) -> None:
        self._close_streams()


def read_rows(path: str | Path) -> list[dict[str, Any]]:
    """The rows of a results table: a CSV (the numeric columns as ints, empty ones None), a
    ``.parquet`` file, or a ``.jsonl`` of game records (rows rebuilt by replaying the games)."""
    path = Path(path)
    kind = table_format(path)
    if kind == "parquet":
        pa = _pyarrow()
        return pa.parquet.read_table(path).to_pylist()
    if kind == "jsonl":
        return [row for rec in read_records(path) for row in rows_from_record(rec)]
    with path.open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames is None or not {"bot", "seat", "score", "rank"} <= set(reader.fieldnames):
            raise ValueError("not a results CSV (needs the columns bot, seat, score, rank)")
        rows = list(reader)
    for row in rows:
        for key in INT_FIELDS:
            if key in row:
                row[key] = int(row[key]) if row[key] not in (None, "") else None
    return rows


def read_records(path: str | Path) -> list[dict]:
    """The game records of a JSONL file written by :func:`write_results` or a
    :class:`ResultsWriter` (a last line cut short by a kill is skipped)."""
    with Path(path).open(encoding="utf-8") as f:
        lines = [line for line in f if line.strip()]
    out = []
    for i, line in enumerate(lines):
        try:
            out.append(json.loads(line))
        except ValueError:
            if i == len(lines) - 1 and not line.endswith("\n"):
                break
            raise
    return out
