"""Running a tournament: check the set-up, play the games on a backend, collect the rows."""
from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping, Sequence

from ..bots import parse_spec
from ..errors import ConfigError
from ..rules import new_game
from .backends import drive, ProcessBackend, RayBackend, require_ray
from .games import lineup, play_job, rows_from_record

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


def _check(players: int, bots: Sequence[str], games: int, workers: int | None) -> list[str]:
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise ConfigError(f"Fresco is for 2 to 4 players, not {players!r}")
    labels = {b: parse_spec(b).label for b in dict.fromkeys(bots)}
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


def earlier_games(players: int, bots: Sequence[str], games: int, records: Iterable[Mapping[str, Any]],
                  modules: Sequence[str] = (), seed: int = 0, options: Mapping[str, Any] | None = None,
                  components: Mapping[str, Any] | None = None) -> dict[int, Mapping[str, Any]]:
    """The records of an earlier, interrupted run of this same tournament (a results ``.jsonl``),
    by game index, to go on with (``run_tournament(done=...)``).  A record of another
    tournament (another seed, bots, player count, modules, options, or a game beyond ``games``)
    is refused with a ConfigError naming what differs."""
    names = _check(players, bots, games, None)
    modules, options = tuple(modules), dict(options or {})
    edition = new_game(players, modules, seed=0, options=options, components=components).record()["setup"].get(
        "components", "reference")      # as a record writes it
    out: dict[int, Mapping[str, Any]] = {}
    for record in records:
        info, setup = record.get("tournament") or {}, record.get("setup") or {}
        k = info.get("game")
        theirs = {"game": k, "seed": info.get("seed"), "bots": info.get("bots"), "players": len(setup.get("players") or ()),
                  "modules": tuple(setup.get("modules") or ()), "options": dict(setup.get("options") or {}),
                  "components": setup.get("components", "reference")}
        ours = {"game": k if isinstance(k, int) and 0 <= k < games else f"0..{games - 1}", "seed": seed,
                "bots": lineup(names, k) if isinstance(k, int) else names, "players": players, "modules": modules,
                "options": options, "components": edition}
        differ = [f"{key} {theirs[key]!r} (this tournament: {ours[key]!r})" if key != "components" else
                  "the component file" for key in ours if theirs[key] != ours[key]]
        if differ or k in out:
            raise ConfigError(f"the earlier results hold a game of another tournament: {'; '.join(differ) or f'game {k} twice'}")
        out[k] = record
    return out


def run_tournament(players: int, bots: Sequence[str], games: int, modules: Sequence[str] = (), seed: int = 0,
                   workers: int | None = None, on_result: Callable[[int, list[dict], dict], None] | None = None,
                   options: Mapping[str, Any] | None = None, ray: str | None = None,
                   on_start: Callable[[TournamentResult], None] | None = None,
                   done: Mapping[int, Mapping[str, Any]] | None = None,
                   components: Mapping[str, Any] | None = None) -> TournamentResult:
    """Play ``games`` games of ``players`` players with the ``bots`` (one spec per seat, or one
    for all), seats rotated, and return their rows (see the module doc).

    ``workers`` (default 1; with Ray, the cluster's CPUs) > 1 plays on that many local
    processes; ``ray`` (``"local"`` or a cluster address) plays on Ray instead.
    ``on_start(result)`` is called once the backend is set up (Ray started or joined;
    ``result.workers`` and ``result.backend`` set), before the first game;
    ``on_result(k, rows, record)`` in this process after each game (in the order games finish).
    KeyboardInterrupt (Ctrl-C, or raised by a callback) stops the tournament: the games finished
    so far are returned with ``interrupted=True``; the workers are ended.
    ``components``: a component table (e.g. a user's file, ``load_components(path).raw``; None:
    the reference edition) for every game.
    ``done`` (game index -> record) are games of this same tournament played before (an
    interrupted run's ``.jsonl``): they are kept, not played again (their rows are rebuilt from
    the records), and a record of another tournament is refused (ConfigError).
    """
    names = _check(players, bots, games, workers)
    modules = tuple(modules)
    new_game(players, modules=modules, seed=0, options=dict(options or {}), components=components)  # fail early
    if ray is not None:
        require_ray(ray)  # fail early without Ray, or with an address nobody answers
    result = TournamentResult()
    before = earlier_games(players, bots, games, (done or {}).values(), modules, seed, options, components)
    rows_of: dict[int, list[dict]] = {}   # game index -> its rows (earlier games' rebuilt from their records)
    for k, record in before.items():
        rows_of[k] = rows_from_record(record, k)
        result.records[k] = dict(record)
    todo = [k for k in range(games) if k not in before]

    def store(k: int, rows: list[dict], record: dict) -> None:
        rows_of[k] = rows
        result.records[k] = record

    def finish(k: int, rows: list[dict], record: dict) -> None:
        store(k, rows, record)
        if on_result is not None:
            on_result(k, rows, record)

    job = (players, names, modules, dict(options or {}), seed, components)
    try:
        if ray is None and ((workers or 1) == 1 or len(todo) <= 1):
            result.workers, result.backend = 1, "in-process"
            if on_start is not None:
                on_start(result)
            for k in todo:
                finish(*play_job(job, k))
        else:
            backend = RayBackend(job, ray, workers) if ray is not None else ProcessBackend(job, min(workers, len(todo)))
            result.workers, result.backend = backend.workers, backend.name
            drive(backend, todo, finish, store, on_start and (lambda: on_start(result)))
    except KeyboardInterrupt:
        result.interrupted = True
    for k in sorted(rows_of):
        result.extend(rows_of[k])
    return result
