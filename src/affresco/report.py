"""Summaries of tournament results (the rows of :mod:`affresco.sim`): win rates with Wilson
95% intervals, average scores, seat advantage, VP by source; rich tables and PNG plots."""
from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path
from typing import Any, Sequence

from rich.console import Group
from rich.table import Table

from .sim import SOURCES

__all__ = ["wilson", "by_bot", "by_seat", "sources_by_bot", "tables", "plots"]

Z95 = 1.959963984540054


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / n`` (95% by default)."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


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
            "mean_score": mean, "sd_score": sd,
            "mean_rank": sum(int(r["rank"]) for r in rows) / n if n else 0.0}


def by_bot(rows: Sequence[dict]) -> dict[str, dict[str, Any]]:
    """bot -> n (seats played), wins, win_rate, ci_low, ci_high, mean_score, sd_score, mean_rank."""
    return {bot: _stats(group) for bot, group in sorted(_group(rows, "bot").items())}


def by_seat(rows: Sequence[dict]) -> dict[int, dict[str, Any]]:
    """seat (figure; Leonardo is 2 in 2-player games) -> the same statistics as :func:`by_bot`."""
    return {int(seat): _stats(group) for seat, group in sorted(_group(rows, "seat").items(), key=lambda kv: int(kv[0]))}


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

    bots = Table(title=f"Bots ({games} games; a fair share is {_pct(1 / figures) if figures else '-'} wins)")
    for col in ("bot", "seats played", "wins", "win rate", "95% CI (Wilson)", "avg score", "sd", "avg rank"):
        bots.add_column(col, justify="left" if col == "bot" else "right")
    for bot, st in by_bot(rows).items():
        bots.add_row(bot, str(st["n"]), str(st["wins"]), _pct(st["win_rate"]),
                     f"{_pct(st['ci_low'])} – {_pct(st['ci_high'])}", f"{st['mean_score']:.1f}",
                     f"{st['sd_score']:.1f}", f"{st['mean_rank']:.2f}")

    seats = Table(title="Seat advantage (win rate by seat)")
    for col in ("seat", "games", "wins", "win rate", "95% CI (Wilson)", "avg score"):
        seats.add_column(col, justify="right")
    leo = {int(r["seat"]) for r in rows if r["bot"] == "leonardo"}
    for seat, st in by_seat(rows).items():
        seats.add_row(f"{seat}{' (Leonardo)' if seat in leo else ''}", str(st["n"]), str(st["wins"]),
                      _pct(st["win_rate"]), f"{_pct(st['ci_low'])} – {_pct(st['ci_high'])}", f"{st['mean_score']:.1f}")

    src = sources_by_bot(rows)
    used = [s for s in SOURCES if any(v[s] for v in src.values())] or list(SOURCES[:1])
    vp = Table(title="Average VP per game by source")
    vp.add_column("bot")
    for s in used:
        vp.add_column(s, justify="right")
    vp.add_column("total", justify="right")
    for bot, v in src.items():
        vp.add_row(bot, *(f"{v[s]:.1f}" for s in used), f"{sum(v.values()):.1f}")
    return Group(bots, seats, vp)


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

    seats = by_seat(rows)
    fig, ax = plt.subplots(figsize=(6, 4))
    xs = list(seats)
    rates = [seats[s]["win_rate"] for s in xs]
    err = [[seats[s]["win_rate"] - seats[s]["ci_low"] for s in xs], [seats[s]["ci_high"] - seats[s]["win_rate"] for s in xs]]
    ax.bar([str(s) for s in xs], rates, yerr=err, capsize=4, color="#4c72b0")
    ax.set_xlabel("seat")
    ax.set_ylabel("win rate (95% Wilson CI)")
    ax.set_ylim(0, 1)
    ax.set_title("Win rate by seat")
    written.append(_save(plt, fig, out / "winrate_by_seat.png"))

    src = sources_by_bot(rows)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    bottom_pos = [0.0] * len(names)
    bottom_neg = [0.0] * len(names)
    for s in SOURCES:
        vals = [src[b][s] for b in names]
        if not any(vals):
            continue
        base = [bn if v < 0 else bp for v, bp, bn in zip(vals, bottom_pos, bottom_neg)]
        ax.bar(names, vals, bottom=base, label=s)
        bottom_pos = [bp + max(v, 0) for v, bp in zip(vals, bottom_pos)]
        bottom_neg = [bn + min(v, 0) for v, bn in zip(vals, bottom_neg)]
    ax.set_ylabel("average VP per game")
    ax.set_title("VP sources per bot")
    if names:
        ax.legend(fontsize="small")
    written.append(_save(plt, fig, out / "vp_sources_by_bot.png"))
    return written
