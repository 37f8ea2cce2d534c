"""``affresco ladder``: a round robin of bots in 2- and 4-player games, rated with confidence
intervals, written as a table and a plot into docs/bots.md; resumable, Ctrl-C keeps the games."""
from __future__ import annotations

import time
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .. import __version__
from ..errors import FrescoError
from .app import MODULE_HELP, OPTION_HELP, app, rule_options
from .tournament import _stop_on_sigterm


@app.command()
def ladder(
    bots: str = typer.Option("random,heuristic,search:0.1,search:0.3,search:1,search:1:workers=2", "--bots", "-b",
                             help="The entrants, comma-separated bot specs (search:1:workers=2 searches on 2 "
                                  "processes)."),
    formats: str = typer.Option("2,4", "--formats", "-f", help="Player counts played, comma-separated."),
    rounds: int = typer.Option(2, "--rounds", "-r", min=1,
                               help="Meetings of each set of entrants per format (seats rotate)."),
    modules: str = typer.Option("", "--modules", "-m", help=MODULE_HELP),
    option: list[str] = typer.Option([], "--option", "-o", help=OPTION_HELP),
    workers: int = typer.Option(1, "--workers", "-w", min=1,
                                help="Games played at once on local processes (count a bot on 2 workers as 2: "
                                     "timed bots are only fair with a free core each)."),
    ray: Optional[str] = typer.Option(None, "--ray", help="Play on Ray: 'local' or a cluster address."),
    seed: int = typer.Option(0, "--seed", help="Seed of the ladder (game k is a function of it and k)."),
    out: Path = typer.Option(Path("ladder.jsonl"), "--out",
                             help="Results file (one line per game); running again resumes it, with a larger "
                                  "--rounds extends it."),
    fresh: bool = typer.Option(False, "--fresh", help="Start the results file afresh instead of resuming it."),
    docs: Optional[Path] = typer.Option(None, "--docs",
                                        help="Write the rating table (and the plot) into this Markdown file, "
                                             "between '<!-- ladder:begin/end -->' (e.g. docs/bots.md)."),
    plot: Optional[Path] = typer.Option(None, "--plot", help="Save the ratings plot (PNG; needs matplotlib)."),
    note: str = typer.Option("", "--note", help="A sentence added to the docs section (machine, load...)."),
) -> None:
    """Play a rating ladder: every set of entrants meets in each format; then fit ratings
    (Bradley-Terry, 95% bootstrap intervals) and show them.

    The results file is written as games end: Ctrl-C (or SIGTERM) stops and keeps them (exit
    status 130), and the same command resumes; with a larger --rounds it plays the added rounds."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    from ..sim.ladder import (Ladder, fit_ratings, interval_text, ladder_markdown, load_results, plot_ratings, run_ladder,
                              schedule, write_section)

    console = Console(highlight=False)
    try:
        spec = Ladder(entrants=tuple(b.strip() for b in bots.split(",") if b.strip()),
                      formats=tuple(int(f) for f in formats.split(",") if f.strip()),
                      rounds=rounds, modules=tuple(m.strip() for m in modules.split(",") if m.strip()),
                      seed=seed, options=rule_options(option)).checked()
    except ValueError:
        raise typer.BadParameter(f"player counts, comma-separated: {formats!r}", param_hint="--formats")
    except FrescoError as e:
        console.print(f"[red]{escape(str(e))}[/]")
        raise typer.Exit(1)
    total = len(schedule(spec))
    console.print(f"affresco {__version__} · ladder · {len(spec.entrants)} bots · "
                  f"{', '.join(f'{f} players' for f in spec.formats)} · {total} games · seed {seed} · {out}")
    start = time.perf_counter()
    with _stop_on_sigterm():
        with Progress(TextColumn("[progress.description]{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(), console=console) as progress:
            task = progress.add_task("starting", total=total, start=False)

            def started(run, todo: int) -> None:
                progress.update(task, completed=total - todo, description="games")
                progress.console.print(f"{total - todo} game(s) already in {out}; playing {todo} on {run.backend} "
                                       f"with {run.workers} worker(s); Ctrl-C stops and keeps the finished games.")
                progress.start_task(task)

            def finished(result: dict) -> None:
                who = " vs ".join(result["bots"])
                progress.update(task, advance=1, description=f"{result['players']}p: {escape(who)}")
                if not progress.console.is_terminal:  # a log file: no live bar, so a line per game
                    places = ", ".join(f"{i + 1}. {escape(result['bots'][seat])} {result['scores'][seat]}"
                                       for i, seat in enumerate(result["order"]))
                    progress.console.print(f"[{int(progress.tasks[0].completed)}/{total}] game {result['k']}, "
                                           f"{result['players']} players: {places} · {result['seconds']:.0f} s")

            try:
                run = run_ladder(spec, out, workers=workers, ray=ray, fresh=fresh, on_start=started,
                                 on_result=finished)
            except FrescoError as e:
                progress.stop()
                console.print(f"[red]{escape(str(e))}[/]")
                raise typer.Exit(1)
            except OSError as e:
                progress.stop()
                console.print(f"[red]Cannot write {escape(str(out))}: {escape(str(e.strerror or e))}[/]")
                raise typer.Exit(1)
    elapsed = time.perf_counter() - start
    _, results = load_results(out)
    console.print(f"{run.played} game(s) played in {elapsed:.0f} s; {len(results)} of {total} in {out}.")
    for f in [*spec.formats, None]:
        rows = fit_ratings(results, spec.entrants, f)
        if not rows:
            continue
        table = Table(title=f"{f} players" if f else "all games")
        for col, just in (("bot", "left"), ("rating", "right"), ("95% interval", "left"), ("games", "right"),
                          ("won", "right"), ("mean place", "right")):
            table.add_column(col, justify=just)
        for r in rows:
            table.add_row(r["bot"], f"{r['rating']:+.0f}", interval_text(r), str(r["games"]),
                          str(r["wins"]), f"{r['mean_place']:.2f}")
        console.print(table)
    if plot is not None and results:
        try:
            plot_ratings(spec, results, plot)
            console.print(f"Plot: {plot}")
        except ImportError:
            console.print("[yellow]The plot needs matplotlib: pip install 'affresco[sim]'.[/]")
            plot = None
    if docs is not None and results:
        link = None
        if plot is not None:
            try:
                link = str(plot.resolve().relative_to(docs.resolve().parent))
            except ValueError:
                link = str(plot)
        write_section(docs, ladder_markdown(spec, results, total, link, note))
        console.print(f"Ratings written into {docs}")
    if run.interrupted:
        console.print(f"[yellow]Interrupted: {len(results)} of {total} games kept in {out}; run the same "
                      f"command to resume.[/]")
        raise typer.Exit(130)
