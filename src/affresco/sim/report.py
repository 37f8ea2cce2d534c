"""Summaries of tournament results (the rows of :mod:`affresco.sim`): win rates with Wilson
95% intervals, average scores (with a 95% interval of the mean), seat advantage (overall and
per bot), VP by source; rich tables and PNG plots.  Rows may come from a CSV (strings or
ints), a Parquet file or memory: every number is read with ``int()``."""
from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path
from typing import Any, Sequence

from rich.console import Group
from rich.table import Table

from .results import SOURCES

__all__ = ["wilson", "by_bot", "by_seat", "by_bot_and_seat", "sources_by_bot", "tables", "game_table", "plots"]

Z95 = 1.959963984540054


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / n`` (95% by default)."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo, hi = max(0.0, centre - half), min(1.0, centre + half)
    # exact at the ends (rounding could leave the bound a hair off 0 or 1)
    return (0.0 if wins <= 0 else min(lo, p)), (1.0 if wins >= n else max(hi, p))


def _group(rows: Sequence[dict], key: str) -> dict[Any, list[dict]]:
    out: dict[Any, list[dict]] = defaultdict(list)
    for row in rows:
        out[row[key]].append(row)
    return out


def _stats(rows: list[dict]) -> dict[str, Any]:
    n = len(rows)
    wins = sum(1 for r in rows if int(r["rank"]) == 1)
    lo, hi = wilson(wins, n)
    scores = [int(r["score"]) for r in rows]
    mean = sum(scores) / n if n else 0.0
    sd = math.sqrt(sum((x - mean) ** 2 for x in scores) / (n - 1)) if n > 1 else 0.0
    return {"n": n, "wins": wins, "win_rate": wins / n if n else 0.0, "ci_low": lo, "ci_high": hi,
            "mean_score": mean, "sd_score": sd, "score_ci": Z95 * sd / math.sqrt(n) if n > 1 else 0.0,
            "mean_rank": sum(int(r["rank"]) for r in rows) / n if n else 0.0}


def by_bot(rows: Sequence[dict]) -> dict[str, dict[str, Any]]:
    """bot -> n (seats played), wins, win_rate, ci_low, ci_high, mean_score, sd_score,
    score_ci (half width of the 95% interval of the mean score), mean_rank."""
    return {bot: _stats(group) for bot, group in sorted(_group(rows, "bot").items())}


def by_seat(rows: Sequence[dict]) -> dict[int, dict[str, Any]]:
    """seat (figure; Leonardo is 2 in 2-player games) -> the same statistics as :func:`by_bot`."""
    return {int(seat): _stats(group) for seat, group in sorted(_group(rows, "seat").items(), key=lambda kv: int(kv[0]))}


def by_bot_and_seat(rows: Sequence[dict]) -> dict[str, dict[int, dict[str, Any]]]:
    """bot -> seat -> the statistics of :func:`by_bot` (how the seat helps or hurts each bot)."""
    return {bot: by_seat(group) for bot, group in sorted(_group(rows, "bot").items())}


def sources_by_bot(rows: Sequence[dict]) -> dict[str, dict[str, float]]:
    """bot -> source -> average VP per game from that source."""
    out = {}
    for bot, group in sorted(_group(rows, "bot").items()):
        out[bot] = {s: sum(int(r.get(f"vp_{s}") or 0) for r in group) / len(group) for s in SOURCES}
    return out


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def tables(rows: Sequence[dict]) -> Group:
    """Rich tables: win rate per bot (95% Wilson CI), seat advantage, VP sources per bot."""
    games = len({r["game"] for r in rows})
    figures = max((int(r["seat"]) for r in rows), default=-1) + 1

    players = sorted({int(r["players"]) for r in rows if r.get("players") not in (None, "")})
    modules = sorted({str(r.get("modules") or "") for r in rows})
    setting = (f"{'/'.join(map(str, players))} players; modules: {', '.join(m or 'none' for m in modules)}"
               if players else "")
    bots = Table(title=f"Bots ({games} games; {setting + '; ' if setting else ''}"
                       f"a fair share is {_pct(1 / figures) if figures else '-'} wins)")
    for col in ("bot", "seats played", "wins", "win rate", "95% CI (Wilson)", "avg score", "± 95% CI", "sd",
                "avg rank"):
        bots.add_column(col, justify="left" if col == "bot" else "right")
    for bot, st in by_bot(rows).items():
        bots.add_row(bot, str(st["n"]), str(st["wins"]), _pct(st["win_rate"]),
                     f"{_pct(st['ci_low'])} – {_pct(st['ci_high'])}", f"{st['mean_score']:.1f}",
                     f"± {st['score_ci']:.1f}", f"{st['sd_score']:.1f}", f"{st['mean_rank']:.2f}")

    seats = Table(title="Seat advantage (win rate by seat)")
    for col in ("seat", "games", "wins", "win rate", "95% CI (Wilson)", "avg score"):
        seats.add_column(col, justify="right")
    leo = {int(r["seat"]) for r in rows if r["bot"] == "leonardo"}
    for seat, st in by_seat(rows).items():
        seats.add_row(f"{seat}{' (Leonardo)' if seat in leo else ''}", str(st["n"]), str(st["wins"]),
                      _pct(st["win_rate"]), f"{_pct(st['ci_low'])} – {_pct(st['ci_high'])}", f"{st['mean_score']:.1f}")

    grid = by_bot_and_seat(rows)
    seat_cols = sorted({int(r["seat"]) for r in rows})
    per_bot = Table(title="Win rate by bot and seat (seats played)")
    per_bot.add_column("bot")
    for seat in seat_cols:
        per_bot.add_column(f"seat {seat}", justify="right")
    for bot, seats_of in grid.items():
        if bot == "leonardo":
            continue
        per_bot.add_row(bot, *(f"{_pct(seats_of[s]['win_rate'])} ({seats_of[s]['n']})" if s in seats_of else "-"
                               for s in seat_cols))

    src = sources_by_bot(rows)
    used = [s for s in SOURCES if any(v[s] for v in src.values())] or list(SOURCES[:1])
    # a row per source, a column per bot: fits a terminal however many modules bring sources
    vp = Table(title="Average VP per game by source")
    vp.add_column("source", no_wrap=True)
    for bot in src:
        vp.add_column(bot, justify="right")
    for s in used:
        vp.add_row(s.replace("_", " "), *(f"{v[s]:.1f}" for v in src.values()))
    vp.add_row("total", *(f"{sum(v.values()):.1f}" for v in src.values()), style="bold")
    return Group(bots, seats, per_bot, vp)


def game_table(record: dict) -> Table:
    """One game of a tournament (a line of its ``.jsonl``): the rows of every figure."""
    from .games import rows_from_record

    rows = rows_from_record(record)
    used = [s for s in SOURCES if any(int(r[f"vp_{s}"]) for r in rows)]
    info = record.get("tournament") or {}
    setup = record.get("setup") or {}
    table = Table(title=f"Game {info.get('game', '?')} (seed {setup.get('seed', '?')}, "
                        f"{len(record.get('actions') or [])} actions)")
    for col in ("seat", "bot", "name", "rank", "score", *used):
        table.add_column(col, justify="left" if col in ("bot", "name") else "right")
    for r in rows:
        table.add_row(str(r["seat"]), str(r["bot"]), str(r["name"]), str(r["rank"]), str(r["score"]),
                      *(str(r[f"vp_{s}"]) for s in used))
    return table


def source_colours(plt) -> dict[str, Any]:
    """A colour of its own for every VP source (the 20 of matplotlib's 'tab20', by the source's
    place in SOURCES): the default cycle has 10, so with modules 8-10 'tile' and 'wall', 'bishop'
    and 'medico', 'favour' and 'money' shared one."""
    cmap = plt.get_cmap("tab20")
    return {s: cmap(i % cmap.N) for i, s in enumerate(SOURCES)}


def _save(plt, fig, path: Path) -> Path:
    """Write one figure as PNG and free it."""
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def plots(rows: Sequence[dict], directory: str | Path) -> list[Path]:
    """Draw score distribution per bot, win rate by seat and VP sources per bot as PNG files
    in ``directory`` (matplotlib, Agg backend).  Returns the files written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    written = []

    groups = _group(rows, "bot")
    names = sorted(groups)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    data = [[int(r["score"]) for r in groups[b]] for b in names]
    if data:
        ax.boxplot(data, showmeans=True)
        ax.set_xticks(range(1, len(names) + 1), names)
    ax.set_ylabel("final score (VP)")
    ax.set_title("Score distribution per bot")
    written.append(_save(plt, fig, out / "scores_by_bot.png"))

    # win rate by seat: all figures, then each bot in that seat (95% Wilson intervals)
    series = [("all", by_seat(rows))] + [(b, s) for b, s in by_bot_and_seat(rows).items() if b != "leonardo"]
    if len(series) == 2:  # a single bot: its bars are the overall ones
        series = series[:1]
    seat_list = sorted({int(r["seat"]) for r in rows})
    fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(seat_list) * len(series) ** 0.5 + 3), 4.5))
    width = 0.8 / max(len(series), 1)
    for i, (label, stats) in enumerate(series):
        xs = [j + (i - (len(series) - 1) / 2) * width for j, s in enumerate(seat_list) if s in stats]
        present = [s for s in seat_list if s in stats]
        rates = [stats[s]["win_rate"] for s in present]
        err = [[max(0.0, stats[s]["win_rate"] - stats[s]["ci_low"]) for s in present],
               [max(0.0, stats[s]["ci_high"] - stats[s]["win_rate"]) for s in present]]
        ax.bar(xs, rates, width=width, yerr=err, capsize=3, label=label,
               color="#9a9a9a" if label == "all" else None)
    leo = {int(r["seat"]) for r in rows if r["bot"] == "leonardo"}
    ax.set_xticks(range(len(seat_list)), [f"{s} (Leonardo)" if s in leo else str(s) for s in seat_list])
    if seat_list:
        ax.axhline(1 / len(seat_list), color="grey", linestyle=":", linewidth=1)
    ax.set_xlabel("seat")
    ax.set_ylabel("win rate (95% Wilson CI)")
    ax.set_ylim(0, 1)
    ax.set_title("Win rate by seat")
    if len(series) > 1:
        ax.legend(fontsize="small")
    written.append(_save(plt, fig, out / "winrate_by_seat.png"))

    src = sources_by_bot(rows)
    colours = source_colours(plt)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    bottom_pos = [0.0] * len(names)
    bottom_neg = [0.0] * len(names)
    for s in SOURCES:
        vals = [src[b][s] for b in names]
        if not any(vals):
            continue
        base = [bn if v < 0 else bp for v, bp, bn in zip(vals, bottom_pos, bottom_neg)]
        ax.bar(names, vals, bottom=base, label=s, color=colours[s])
        bottom_pos = [bp + max(v, 0) for v, bp in zip(vals, bottom_pos)]
        bottom_neg = [bn + min(v, 0) for v, bn in zip(vals, bottom_neg)]
    ax.set_ylabel("average VP per game")
    ax.set_title("VP sources per bot")
    if names:   # beside the bars, never over them
        ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    written.append(_save(plt, fig, out / "vp_sources_by_bot.png"))
    return written
