"""Balance tables from tournament results: seat advantage and the effect of each module.

    affresco tournament -p 2 --bots heuristic --games 2000 --seed 2026 --out runs/p2_base.csv
    affresco tournament -p 2 --bots heuristic --games 2000 --seed 2026 -m portraits --out runs/p2_portraits.csv
    ...
    python bench/balance.py runs/p2_base.csv runs/p2_portraits.csv ... > tables.md

Several settings can be played side by side (game k of each before game k+1 of any, so that
a run cut short leaves every setting about as many games): ``bench/balance_run.py``.

The first file is the baseline of the module comparison.  For each file: games, rounds, win
rate by start space (drawn at set-up: it sets the first round's order; Wilson 95% interval),
mean score by start space (95% interval), and mean VP by source;
then each file's mean score per player against the baseline's (difference with a 95% interval,
Welch).  Leonardo (2 players) is listed apart from the seats.
"""
from __future__ import annotations

import math
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from affresco import replay  # noqa: E402
from affresco.sim.report import wilson  # noqa: E402
from affresco.sim import SOURCES, read_records, read_rows, records_path  # noqa: E402


def with_start_spaces(path: str) -> list[dict]:
    """The rows of a results file, each with ``start``: the figure's start space (S1, S2...),
    drawn at random at set-up (it sets the first round's order), read from the game records."""
    rows = read_rows(path)
    start = {}
    for record in read_records(records_path(path)):
        k = record["tournament"]["game"]
        figures = replay(record, upto=0).view(None)["figures"]
        for fig, f in enumerate(figures):
            start[(k, fig)] = str(f["track"])
    for r in rows:
        r["start"] = start[(r["game"], r["seat"])]
    return rows


def mean_ci(xs: list[float]) -> tuple[float, float]:
    m = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")
    return m, half


def setting_name(rows: list[dict]) -> str:
    r = rows[0]
    return f"{r['players']} players, " + (r["modules"].replace("+", " + ") if r["modules"] else "base game")


def seat_table(rows: list[dict]) -> list[str]:
    games = len({r["game"] for r in rows})
    out = [f"**{setting_name(rows)}**: {games} games, {statistics.fmean(r['rounds'] for r in rows):.2f} rounds "
           f"on average, winner's mean score {statistics.fmean(r['score'] for r in rows if r['rank'] == 1):.1f}.",
           "", "| start space | win rate (95% CI) | mean score (95% CI) | mean rank |", "|---|---|---|---|"]
    for start in sorted({r["start"] for r in rows if r["bot"] != "leonardo"}) + ["leonardo"]:
        mine = [r for r in rows if (r["bot"] == "leonardo" if start == "leonardo"
                                    else r["start"] == start and r["bot"] != "leonardo")]
        if not mine:
            continue
        wins = sum(r["rank"] == 1 for r in mine)
        lo, hi = wilson(wins, len(mine))
        m, h = mean_ci([r["score"] for r in mine])
        label = f"Leonardo ({mine[0]['start']})" if start == "leonardo" else start
        out.append(f"| {label} | {wins / len(mine):.1%} ({lo:.1%}–{hi:.1%}) | {m:.1f} ± {h:.1f} | "
                   f"{statistics.fmean(r['rank'] for r in mine):.2f} |")
    return out


def sources_table(all_rows: list[list[dict]]) -> list[str]:
    cols = [s for s in SOURCES if any(r[f"vp_{s}"] for rows in all_rows for r in rows)]
    out = ["| setting | " + " | ".join(cols) + " | score |", "|---|" + "---|" * (len(cols) + 1)]
    for rows in all_rows:
        players = [r for r in rows if r["bot"] != "leonardo"]
        out.append(f"| {setting_name(rows)} | " + " | ".join(f"{statistics.fmean(r[f'vp_{s}'] for r in players):.1f}"
                                                              for s in cols)
                   + f" | {statistics.fmean(r['score'] for r in players):.1f} |")
    return out


def effect_table(base: list[dict], others: list[list[dict]]) -> list[str]:
    b = [r["score"] for r in base if r["bot"] != "leonardo"]
    mb, _ = mean_ci(b)
    out = [f"Baseline: {setting_name(base)}, mean score per player {mb:.1f}.", "",
           "| setting | mean score per player | difference (95% CI) | mean rounds |", "|---|---|---|---|"]
    for rows in others:
        x = [r["score"] for r in rows if r["bot"] != "leonardo"]
        mx, _ = mean_ci(x)
        half = 1.96 * math.sqrt(statistics.variance(x) / len(x) + statistics.variance(b) / len(b))
        out.append(f"| {setting_name(rows)} | {mx:.1f} | {mx - mb:+.1f} ± {half:.1f} | "
                   f"{statistics.fmean(r['rounds'] for r in rows):.2f} |")
    return out


def main(paths: list[str]) -> None:
    if not paths:
        raise SystemExit(__doc__)
    try:
        all_rows = [with_start_spaces(p) for p in paths]
    except (OSError, ValueError) as e:   # a missing or foreign file: say which, not a traceback
        raise SystemExit(f"cannot read the results: {e}") from None
    print("## Seat advantage\n")
    for rows in all_rows:
        print("\n".join(seat_table(rows)) + "\n")
    print("## VP by source (mean per player)\n")
    print("\n".join(sources_table(all_rows)) + "\n")
    if len(all_rows) > 1:
        print("## Effect of each module on scores\n")
        print("\n".join(effect_table(all_rows[0], [r for r in all_rows[1:] if r[0]["players"] == all_rows[0][0]["players"]])))


if __name__ == "__main__":
    main(sys.argv[1:])
