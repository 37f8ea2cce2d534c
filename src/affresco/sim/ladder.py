"""The rating ladder (issue #16): a round robin of bots in 2- and 4-player games, ratings with
confidence intervals, a table and a plot.

    >>> from affresco.sim.ladder import Ladder, run_ladder, fit_ratings
    >>> ladder = Ladder(entrants=("random", "heuristic", "search:0.1"), formats=(2,), rounds=2, seed=1)
    >>> finished = run_ladder(ladder, "ladder.jsonl")          # resumable; Ctrl-C keeps the games
    >>> fit_ratings(finished.results, ladder.entrants)        # Bradley-Terry, bootstrap intervals

**Schedule.** For each format (number of players), every set of that many distinct entrants
meets ``rounds`` times, once a round, the seats rotated from one meeting to the next (in 2
players: each bot takes each seat once every two rounds); of a set's rotations not played
yet, each game takes the one whose bots have sat least in those seats so far (so even with
one round the seats are shared out).  A ladder of more rounds begins with the games of one
of fewer, so a finished ladder can be given more rounds and played on.  Game ``k`` of the
schedule is a pure function of the ladder's seed and ``k``
(:func:`affresco.sim.games.game_seed`), as in a tournament.

**Results** are appended to a ``.jsonl`` file as each game ends: a first line describing the
ladder, then one line per game (seats' bots, scores, finishing order, seconds).  Running the
same ladder on the same file again plays only the games it lacks, so an interrupted ladder
(Ctrl-C, SIGTERM, a crash) is resumed; the same ladder with more rounds appends a new
describing line and plays the added rounds; a file of another ladder is refused.

**Ratings.** Every game is read as the pairwise results of its seats (the better placed seat
beats the other; Leonardo left out), and a Bradley-Terry model is fitted to them by the MM
algorithm with a weak prior (one draw against a bot of rating 0, so a bot that never wins
still gets a finite rating).  Ratings are on the Elo scale (400 log10 of the strength), the
field's mean at 0; the intervals are the 2.5 and 97.5 percentiles of refits on games resampled
with replacement (bootstrap).  Separately per format, and over all games.

Bots with a time budget search for as long as they are given, so their results depend on how
busy the machine is: play no more games at once (``workers``) than there are free cores, and
count a bot on 2 workers as 2.
"""
from __future__ import annotations

import itertools
import json
import math
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..bots import parse_spec, play_game
from ..errors import ConfigError
from ..rules import new_game
from .backends import ProcessBackend, RayBackend, drive, require_ray
from .games import game_seed

__all__ = ["DEFAULT_ENTRANTS", "Ladder", "LadderRun", "fit_ratings", "ladder_markdown", "load_results",
           "plot_ratings", "play_ladder_game", "run_ladder", "schedule", "write_section"]

DEFAULT_ENTRANTS = ("random", "heuristic", "search:0.1", "search:0.3", "search:1", "search:1:workers=2")
FORMAT = "affresco-ladder/1"


@dataclass(frozen=True)
class Ladder:
    """What a ladder plays: ``entrants`` (bot specs), ``formats`` (player counts), ``rounds``
    (meetings of each set of entrants per format), ``modules`` and ``seed``."""

    entrants: tuple[str, ...] = DEFAULT_ENTRANTS
    formats: tuple[int, ...] = (2, 4)
    rounds: int = 2
    modules: tuple[str, ...] = ()
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)

    def checked(self) -> "Ladder":
        """The same ladder with canonical bot specs, or a :class:`ConfigError` saying what is wrong."""
        entrants = tuple(parse_spec(e).label for e in self.entrants)
        if len(set(entrants)) != len(entrants):
            raise ConfigError(f"an entrant is named twice: {', '.join(entrants)}")
        formats = tuple(sorted(set(int(f) for f in self.formats)))
        if not formats or any(not 2 <= f <= 4 for f in formats):
            raise ConfigError(f"formats are player counts 2-4, not {self.formats!r}")
        if any(f > len(entrants) for f in formats):
            raise ConfigError(f"{max(formats)}-player games need at least {max(formats)} entrants, "
                              f"not {len(entrants)}")
        if self.rounds < 1:
            raise ConfigError(f"rounds must be 1 or more, not {self.rounds}")
        for f in formats:
            new_game(f, modules=tuple(self.modules), seed=0, options=dict(self.options))  # a bad set-up fails here
        return Ladder(entrants, formats, int(self.rounds), tuple(self.modules), int(self.seed), dict(self.options))

    def describe(self) -> dict[str, Any]:
        d = asdict(self)
        d["entrants"], d["formats"], d["modules"] = list(self.entrants), list(self.formats), list(self.modules)
        d["options"] = dict(self.options)
        return d


def schedule(ladder: Ladder) -> list[dict[str, Any]]:
    """Every game of the ladder: ``{"k", "players", "bots"}`` (bots by seat), in playing order:
    round by round, each round every format and in it every set of entrants once.  A ladder
    with more rounds begins with the games of one with fewer (so a results file can be
    extended)."""
    out = []
    seated: Counter[tuple[int, str, int]] = Counter()  # (format, bot, seat) -> games so far
    used: dict[tuple[str, ...], set[tuple[str, ...]]] = {}  # a set of entrants -> its seatings so far
    for r in range(ladder.rounds):
        for players in ladder.formats:
            for group in itertools.combinations(ladder.entrants, players):
                # of the group's rotations not played yet (the next one first), the one whose
                # bots have sat least in those seats so far
                rotations = [tuple(group[(s + r + t) % players] for s in range(players)) for t in range(players)]
                fresh = [b for b in rotations if b not in used.get(group, ())] or rotations
                bots = min(fresh, key=lambda b: sum(seated[players, x, s] for s, x in enumerate(b)))
                used.setdefault(group, set()).add(bots)
                seated.update((players, x, s) for s, x in enumerate(bots))
                out.append({"k": len(out), "players": players, "bots": list(bots)})
    return out


def play_ladder_game(players: int, bots: Sequence[str], modules: Sequence[str], options: Mapping[str, Any],
                     seed: int, k: int) -> tuple[int, dict[str, Any], None]:
    """Play game ``k`` of a ladder: ``(k, result, None)`` with the result line of the file."""
    gseed = game_seed(seed, k)
    game = new_game(players, modules=tuple(modules), seed=gseed, options=dict(options or {}))
    made = [parse_spec(b).make(f"{gseed}:{s}") for s, b in enumerate(bots)]
    start = time.perf_counter()
    play_game(game, made)
    seconds = time.perf_counter() - start
    order = [f for f in game.ranking() if f < players]  # Leonardo is no entrant
    return k, {"k": k, "players": players, "bots": list(bots), "seed": gseed, "scores": game.scores()[:players],
               "order": order, "seconds": round(seconds, 3)}, None


# ---------------------------------------------------------------------- the results file
def load_results(path: str | Path) -> tuple[dict[str, Any] | None, dict[int, dict[str, Any]]]:
    """The ladder described by a results file and its finished games (k -> result); a line cut
    short by an interruption is ignored."""
    path = Path(path)
    if not path.exists():
        return None, {}
    head, results = None, {}
    for line in path.read_text().splitlines():
        try:
            item = json.loads(line)
        except json.JSONDecodeError:
            continue  # the last line of an interrupted write
        if item.get("format") == FORMAT:
            head = item["ladder"]  # the last one: a ladder given more rounds describes itself again
        elif isinstance(item.get("k"), int):
            results[item["k"]] = item
    return head, results


@dataclass
class LadderRun:
    """A ladder played (or resumed): its ``results`` (k -> result), ``played`` in this run,
    ``interrupted``, and where it ran."""

    ladder: Ladder
    results: dict[int, dict[str, Any]]
    played: int = 0
    interrupted: bool = False
    backend: str = "in-process"
    workers: int = 1


class _LadderProcesses(ProcessBackend):
    def __init__(self, job: tuple, workers: int, todo: list[dict]):
        super().__init__(job, workers)
        self.todo = todo

    def submit(self, i: int):
        g = self.todo[i]
        return self.pool.submit(play_ladder_game, g["players"], g["bots"], *self.job, g["k"])


class _LadderRay(RayBackend):
    def __init__(self, job: tuple, address: str, workers: int | None, todo: list[dict]):
        super().__init__(job, address, workers)
        self.todo = todo
        self.task = self.ray.remote(num_cpus=1, max_retries=0)(play_ladder_game)

    def submit(self, i: int):
        g = self.todo[i]
        ref = self.task.remote(g["players"], g["bots"], *self.job, g["k"])
        fut = ref.future()
        self.refs[fut] = ref
        return fut


def run_ladder(ladder: Ladder, path: str | Path, workers: int = 1, ray: str | None = None, fresh: bool = False,
               on_start: Callable[[LadderRun, int], None] | None = None,
               on_result: Callable[[dict[str, Any]], None] | None = None) -> LadderRun:
    """Play the games of ``ladder`` missing from the results file ``path`` (all of them if it
    is new, or with ``fresh``), appending each result as it ends; on ``workers`` local
    processes, or on Ray (``ray``: ``"local"`` or an address).  ``on_start(run, todo)`` once
    the backend is ready; ``on_result(result)`` after each game.  KeyboardInterrupt stops: the
    finished games are in the file and in the returned run (``interrupted=True``)."""
    ladder = ladder.checked()
    path = Path(path)
    head, results = (None, {}) if fresh else load_results(path)
    # the file's ladder, perhaps with fewer rounds (its games then begin this one's: schedule())
    same_but_rounds = head is not None and dict(head, rounds=ladder.rounds) == ladder.describe()
    more_rounds = same_but_rounds and isinstance(head.get("rounds"), int) and head["rounds"] < ladder.rounds
    if head is not None and head != ladder.describe() and not more_rounds:
        if same_but_rounds:
            raise ConfigError(f"{path} holds this ladder with {head.get('rounds')} rounds: ask for at least as many "
                              f"(more rounds are added to it)")
        raise ConfigError(f"{path} holds another ladder ({head}); give another file, or start it afresh")
    games = schedule(ladder)
    todo = [g for g in games if g["k"] not in results]
    if ray is not None:
        require_ray(ray)
    path.parent.mkdir(parents=True, exist_ok=True)
    run = LadderRun(ladder, dict(results))
    job = (list(ladder.modules), dict(ladder.options), ladder.seed)
    new_file = fresh or head is None
    cut = not new_file and not path.read_bytes().endswith(b"\n")  # a line cut short by an interruption
    with open(path, "w" if new_file else "a") as out:
        if cut:
            out.write("\n")
        if new_file or more_rounds:
            out.write(json.dumps({"format": FORMAT, "ladder": ladder.describe()}) + "\n")
        out.flush()

        def store(k: int, result: dict, _record: None) -> None:
            if k in run.results:
                return
            run.results[k] = result
            run.played += 1
            out.write(json.dumps(result) + "\n")
            out.flush()

        def finish(k: int, result: dict, record: None) -> None:
            store(k, result, record)
            if on_result is not None:
                on_result(result)

        try:
            if workers <= 1 and ray is None:
                if on_start is not None:
                    on_start(run, len(todo))
                for g in todo:
                    finish(*play_ladder_game(g["players"], g["bots"], *job, g["k"]))
            else:
                backend = _LadderRay(job, ray, workers if workers > 1 else None, todo) if ray is not None \
                    else _LadderProcesses(job, workers, todo)
                run.backend, run.workers = backend.name, backend.workers
                drive(backend, range(len(todo)), finish, store,
                      None if on_start is None else (lambda: on_start(run, len(todo))))
        except KeyboardInterrupt:
            run.interrupted = True
    return run


# ---------------------------------------------------------------------- ratings
def _pairs(results: Iterable[Mapping[str, Any]]) -> list[list[tuple[str, str]]]:
    """Per game, its (winner, loser) pairs of bots."""
    out = []
    for r in results:
        order = [r["bots"][seat] for seat in r["order"]]
        out.append([(order[i], order[j]) for i in range(len(order)) for j in range(i + 1, len(order))])
    return out


def _bradley_terry(games: Sequence[Sequence[tuple[str, str]]], names: Sequence[str], iterations: int = 200) -> dict[str, float]:
    """Elo-scale Bradley-Terry ratings (mean 0) by the MM algorithm, with one draw (a half win
    and a half loss) per bot against a virtual bot of strength 1 as a prior."""
    index = {n: i for i, n in enumerate(names)}
    m = len(names)
    wins = [0.5] * m
    meet: dict[tuple[int, int], int] = {}
    for pairs in games:
        for w, l in pairs:
            a, b = index[w], index[l]
            wins[a] += 1
            key = (a, b) if a < b else (b, a)
            meet[key] = meet.get(key, 0) + 1
    p = [1.0] * m
    for _ in range(iterations):
        denom = [1.0 / (p[i] + 1.0) for i in range(m)]  # the prior's meeting with the virtual bot
        for (a, b), n in meet.items():
            s = n / (p[a] + p[b])
            denom[a] += s
            denom[b] += s
        new = [wins[i] / denom[i] for i in range(m)]
        g = math.exp(sum(math.log(x) for x in new) / m)
        new = [x / g for x in new]
        done = max(abs(x - y) for x, y in zip(new, p)) < 1e-10
        p = new
        if done:
            break
    return {n: 400.0 * math.log10(p[index[n]]) for n in names}


def fit_ratings(results: Mapping[int, Mapping[str, Any]] | Iterable[Mapping[str, Any]], entrants: Sequence[str],
                players: int | None = None, bootstrap: int = 200, seed: int = 0) -> list[dict[str, Any]]:
    """Ratings of ``entrants`` from the ladder's results (only ``players``-player games if
    given): per bot ``rating``, ``low``/``high`` (95% bootstrap interval), ``games``, ``wins``
    (games it won) and ``mean_place`` (1 = first); best first."""
    import random

    items = list(results.values()) if isinstance(results, Mapping) else list(results)
    items = [r for r in items if players is None or r["players"] == players]
    names = [e for e in entrants if any(e in r["bots"] for r in items)]
    if not names:
        return []
    games = _pairs(items)
    rating = _bradley_terry(games, names)
    rng = random.Random(f"affresco-ladder:{seed}")
    samples: dict[str, list[float]] = {n: [] for n in names}
    for _ in range(bootstrap if len(games) > 1 else 0):
        fit = _bradley_terry([games[rng.randrange(len(games))] for _ in games], names)
        for n in names:
            samples[n].append(fit[n])
    rows = []
    for n in names:
        mine = [r for r in items if n in r["bots"]]
        places = [1 + [r["bots"][s] for s in r["order"]].index(n) for r in mine]
        xs = sorted(samples[n])
        low = xs[int(0.025 * (len(xs) - 1))] if xs else float("nan")
        high = xs[int(math.ceil(0.975 * (len(xs) - 1)))] if xs else float("nan")
        rows.append({"bot": n, "rating": rating[n], "low": low, "high": high, "games": len(mine),
                     "wins": sum(1 for p in places if p == 1), "mean_place": sum(places) / len(places)})
    rows.sort(key=lambda r: -r["rating"])
    return rows


# ---------------------------------------------------------------------- table, plot, docs
def interval_text(row: Mapping[str, Any]) -> str:
    """A rating's 95% interval as shown ('-52 .. +140'); '-' when one game leaves none to draw."""
    if math.isnan(row["low"]) or math.isnan(row["high"]):
        return "-"
    return f"{row['low']:+.0f} .. {row['high']:+.0f}"


def ladder_markdown(ladder: Ladder, results: Mapping[int, Mapping[str, Any]], total: int,
                    plot: str | None = None, note: str = "") -> str:
    """The ladder's section for docs/bots.md: set-up, one table per format and over all games."""
    lines = [f"Entrants: {', '.join(f'`{e}`' for e in ladder.entrants)}; formats: "
             f"{', '.join(f'{f} players' for f in ladder.formats)}; {ladder.rounds} meeting(s) of each set of "
             f"entrants per format, seats rotated; modules: {', '.join(ladder.modules) or 'none'}; seed "
             f"{ladder.seed}. {len(results)} of {total} games finished." + (f" {note}" if note else ""), ""]
    for label, players in [*((f"{f} players", f) for f in ladder.formats), ("all games", None)]:
        rows = fit_ratings(results, ladder.entrants, players)
        if not rows:
            continue
        lines += [f"**{label}** (Bradley-Terry, Elo scale, mean 0; 95% bootstrap interval)", "",
                  "| bot | rating | 95% interval | games | won | mean place |", "|---|---:|---|---:|---:|---:|"]
        lines += [f"| `{r['bot']}` | {r['rating']:+.0f} | {interval_text(r)} | {r['games']} | "
                  f"{r['wins']} | {r['mean_place']:.2f} |" for r in rows]
        lines.append("")
    if plot:
        lines += [f"![ladder ratings]({plot})", ""]
    return "\n".join(lines)


def plot_ratings(ladder: Ladder, results: Mapping[int, Mapping[str, Any]], path: str | Path) -> Path:
    """A plot of the ratings with their intervals, one series per format (matplotlib, PNG)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    series = [(f"{f} players", fit_ratings(results, ladder.entrants, f)) for f in ladder.formats]
    fig, ax = plt.subplots(figsize=(7, 0.5 + 0.55 * len(ladder.entrants)))
    names = list(ladder.entrants)
    for j, (label, rows) in enumerate(series):
        by = {r["bot"]: r for r in rows}
        ys = [i + (j - (len(series) - 1) / 2) * 0.2 for i, n in enumerate(names) if n in by]
        xs = [by[n]["rating"] for n in names if n in by]
        err = [[by[n]["rating"] - by[n]["low"] for n in names if n in by],
               [by[n]["high"] - by[n]["rating"] for n in names if n in by]]
        ax.errorbar(xs, ys, xerr=err, fmt="o", capsize=3, label=label)
    ax.set_yticks(range(len(names)), names)
    ax.invert_yaxis()
    ax.axvline(0, color="0.8", lw=0.8)
    ax.set_xlabel("rating (Elo scale, mean 0), 95% bootstrap interval")
    ax.legend(loc="best", fontsize="small")
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


BEGIN, END = "<!-- ladder:begin -->", "<!-- ladder:end -->"


def write_section(doc: str | Path, section: str, title: str = "## Rating ladder") -> None:
    """Put ``section`` between the ladder markers of ``doc`` (added at the end, under ``title``,
    the first time)."""
    doc = Path(doc)
    text = doc.read_text() if doc.exists() else ""
    block = f"{BEGIN}\n{section.rstrip()}\n{END}"
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        text = head + block + rest.split(END, 1)[1]
    else:
        text = text.rstrip() + f"\n\n{title}\n\n{block}\n"
    doc.write_text(text)
