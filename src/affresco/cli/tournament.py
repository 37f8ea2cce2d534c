"""``affresco tournament``: many bot games with rotated seats, with a progress bar; Ctrl-C or
SIGTERM keeps the finished games."""
from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.text import Text

from .. import __version__
from ..bots import bot_menu
from ..errors import FrescoError
from ..rules import load_components, new_game
from .app import MODULE_HELP, OPTION_HELP, app, rule_options

@contextlib.contextmanager
def _stop_on_sigterm():
    """Meanwhile, SIGTERM (``kill``, a scheduler ending the job) stops like Ctrl-C: finished
    games kept, workers ended.  It goes through the SIGINT handler in force, so it is held back
    the same way while a file is being written.  The former handler is put back after."""
    import signal

    def term(signum, frame):
        handler = signal.getsignal(signal.SIGINT)
        if callable(handler):
            handler(signal.SIGINT, frame)
        else:  # SIGINT ignored (started in the background with '&'): stop all the same
            raise KeyboardInterrupt

    old = signal.signal(signal.SIGTERM, term)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


def _earlier(out: Path, players: int, kinds: list[str], games: int, modules: tuple, seed: int, options: dict,
             components: dict | None) -> dict:
    """The games an interrupted run of this same tournament left in ``out`` (to go on with), or
    a FrescoError if ``out`` holds other results (never written over without --overwrite)."""
    from ..sim import earlier_games, read_records, records_path

    records = records_path(out)
    if _holds_results(records):
        try:
            return earlier_games(players, kinds, games, read_records(records), modules, seed, options, components)
        except (FrescoError, ValueError) as e:
            raise FrescoError(f"{records} already holds results, not of this tournament ({e}): choose another "
                              f"--out, or pass --overwrite to replace them") from None
    if _holds_results(out):
        raise FrescoError(f"{out} already holds results (and its records {records} are gone): choose another "
                          f"--out, or pass --overwrite to replace them")
    return {}


def _holds_results(path: Path) -> bool:
    """Whether ``path`` (a results table or its records) holds at least one finished game: a
    tournament stopped before its first game leaves a header alone, which nothing needs."""
    if not path.is_file():
        return False
    if path.suffix.lower() != ".csv" and path.suffix.lower() != ".jsonl":
        return True
    with path.open("rb") as f:
        lines = sum(1 for line in f if line.strip())
    return lines > (1 if path.suffix.lower() == ".csv" else 0)


@app.command()
def tournament(
    players: int = typer.Option(4, "--players", "-p", min=2, max=4, help="Number of players (2-4)."),
    bots: str = typer.Option("heuristic", "--bots", "-b",
                             help=f"One bot per seat, comma-separated (seats rotate every game), or one bot for "
                                  f"every seat: {', '.join(b['name'] for b in bot_menu())}; a time budget in seconds per decision "
                                  f"may follow a colon, e.g. search:1.0."),
    games: int = typer.Option(100, "--games", "-n", min=1, help="Number of games."),
    modules: str = typer.Option("", "--modules", "-m", help=MODULE_HELP),
    option: list[str] = typer.Option([], "--option", "-o", help=OPTION_HELP),
    workers: Optional[int] = typer.Option(None, "--workers", "-w", min=1,
                                          help="Games played at once: local processes (default 1), or with "
                                               "--ray games in flight (default: the cluster's CPUs)."),
    ray: Optional[str] = typer.Option(None, "--ray",
                                      help="Play on Ray: 'local' starts a local instance (--workers CPUs), or a "
                                           "cluster address ('auto', 'ray://head:10001'). Needs Ray (the 'ray' "
                                           "extra)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the tournament (game k is a function of it and k)."),
    out: Path = typer.Option(Path("results.csv"), "--out",
                             help="Results table: .csv, or .parquet (needs pyarrow); the game records go "
                                  "beside it as .jsonl."),
    components: Optional[Path] = typer.Option(None, "--components",
                                              help="Your own component file (TOML or JSON, the shape of the reference "
                                                   "edition's data files) for every game."),
    overwrite: bool = typer.Option(False, "--overwrite",
                                   help="Start afresh, replacing the results in --out (and its .jsonl). Without "
                                        "it the same tournament goes on where an interrupted run stopped, and "
                                        "other results are never written over."),
) -> None:
    """Play many bot games with rotated seats and write the results (table + game records).

    Ctrl-C (or SIGTERM) stops, keeping the finished games (exit 130); the same command goes on."""
    import time

    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)

    from rich.markup import escape

    from ..bots import BotError
    from ..bots import parse_spec
    from ..sim import ResultsWriter, require_ray, run_tournament

    class RateColumn(ProgressColumn):
        def render(self, task) -> Text:
            elapsed = task.finished_time if task.finished else task.elapsed
            rate = (task.completed - task.fields.get("before", 0)) / elapsed if elapsed else 0.0
            return Text(f"{rate:.2f} games/s", style="progress.data.speed")

    console = Console(highlight=False)
    specs = [b for b in bots.split(",") if b.strip()]
    try:
        kinds = [parse_spec(b).label for b in specs]
    except BotError as e:
        raise typer.BadParameter(str(e), param_hint="--bots")
    if len(kinds) not in (1, players):
        raise typer.BadParameter(f"name {players} bots (one per seat) or a single bot", param_hint="--bots")
    chosen = tuple(m.strip() for m in modules.split(",") if m.strip())
    options = rule_options(option)
    try:  # every refusal before a file is opened
        table = None if components is None else dict(load_components(str(components)).raw)
        new_game(players, modules=chosen, seed=0, options=options, components=table)
        if ray is not None:
            require_ray(ray)
        done = {} if overwrite else _earlier(out, players, kinds, games, chosen, seed, options, table)
        writer = ResultsWriter(out, resume=done)
    except FrescoError as e:
        console.print(f"[red]{escape(str(e))}[/]")
        raise typer.Exit(1)
    except OSError as e:
        console.print(f"[red]Cannot write {escape(str(out))}: {escape(str(e.strerror or e))}[/]")
        raise typer.Exit(1)
    line = ", ".join(kinds if len(kinds) > 1 else kinds * players)
    console.print(f"affresco {__version__} · tournament · {games} games · {players} players ({line})"
                  f" · modules: {', '.join(chosen) or 'none'} · seed {seed}")
    if done:
        rest = f"playing the other {games - len(done)}" if len(done) < games else "nothing is left to play"
        console.print(f"Going on with {escape(str(out))}: {len(done)} of {games} games were played before; {rest} "
                      f"(--overwrite starts afresh).")
    result = None
    start = time.perf_counter()
    with _stop_on_sigterm(), writer:
        try:
            with Progress(TextColumn("[progress.description]{task.description}"), BarColumn(), MofNCompleteColumn(),
                          RateColumn(), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                          console=console, transient=False) as progress:
                task = progress.add_task("starting" + (" Ray" if ray is not None else ""), total=games, start=False,
                                         completed=len(done), before=len(done))

                def started(res) -> None:
                    nonlocal start
                    start = time.perf_counter()
                    progress.console.print(f"Playing on {res.backend} with {res.workers} worker(s); Ctrl-C stops "
                                           f"and keeps the finished games.")
                    progress.update(task, description="games")
                    progress.start_task(task)

                def finished(k: int, rows: list, record: dict) -> None:
                    writer.add(k, rows, record)
                    progress.advance(task)
                    if not progress.console.is_terminal:  # a log file: no live bar, so a line per game
                        count = int(progress.tasks[0].completed)
                        ranked = sorted(rows, key=lambda r: int(r["rank"]))
                        progress.console.print(f"[{count}/{games}] game {k}: " + ", ".join(
                            f"{r['rank']}. {escape(str(r['bot']))} {r['score']}" for r in ranked)
                            + f" · {time.perf_counter() - start:.0f} s")

                try:
                    result = run_tournament(players, kinds, games, modules=chosen, seed=seed, workers=workers,
                                            options=options, ray=ray, on_start=started, on_result=finished, done=done,
                                            components=table)
                except FrescoError as e:
                    progress.stop()
                    console.print(f"[red]{escape(str(e))}[/]")
                    raise typer.Exit(1)
            elapsed = time.perf_counter() - start
            try:
                csv_path, jsonl_path = writer.close(result)
            except (OSError, FrescoError) as e:
                why = getattr(e, "strerror", None) or e
                console.print(f"[red]Cannot write {escape(str(out))}: {escape(str(why))}[/]")
                raise typer.Exit(1)
        except KeyboardInterrupt:  # outside the tournament itself: keep what was streamed
            console.print(f"[yellow]Interrupted: {writer.count} finished game(s) kept in {writer.path} "
                          f"and {writer.jsonl}; the same command plays the rest.[/]")
            raise typer.Exit(130)
    played = len(result.records) - len(done)
    if result.interrupted:
        console.print(f"[yellow]Interrupted: {len(result.records)} of {games} games finished; the same command "
                      f"plays the rest.[/]")
    console.print(f"{played} games in {elapsed:.1f} s ({played / elapsed if elapsed else 0:.2f} games/s)"
                  + (f", {len(result.records)} in all" if done else "") +
                  f". Results: [bold]{csv_path}[/], records: [bold]{jsonl_path}[/]")
    console.print(f"Summary: affresco report {csv_path}")
    if result.interrupted:
        raise typer.Exit(130)
