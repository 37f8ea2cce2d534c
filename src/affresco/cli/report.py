"""``affresco report``: the summary of a tournament's results, and one game pulled out of them."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console

from ..errors import FrescoError
from .app import app

@app.command()
def report(
    results: Path = typer.Argument(..., help="Results written by 'affresco tournament': the table (.csv or "
                                             ".parquet), or its game records (.jsonl; the rows are rebuilt)."),
    plots: Optional[Path] = typer.Option(None, "--plots", help="Also draw PNG plots into this directory."),
    game: Optional[int] = typer.Option(None, "--game", min=0,
                                       help="Show game K's rows and write its record as a JSON file for "
                                            "'affresco replay'."),
    record_out: Optional[Path] = typer.Option(None, "--record-out",
                                              help="With --game: where to write the record "
                                                   "(default: RESULTS-game-K.json)."),
) -> None:
    """Summarise tournament results: win rates (95% CI), scores, seat advantage, VP sources."""
    from rich.markup import escape

    from ..sim import report as rep
    from ..sim import read_records, read_rows, records_path, table_format

    console = Console(highlight=False)
    if game is not None:
        jsonl = results if table_format(results) == "jsonl" else records_path(results)
        try:
            record = next((r for r in read_records(jsonl) if (r.get("tournament") or {}).get("game") == game), None)
        except (OSError, ValueError) as e:
            why = getattr(e, "strerror", None) or e
            console.print(f"[red]Cannot read {escape(str(jsonl))}: {escape(str(why))}[/]")
            raise typer.Exit(1)
        if record is None:
            console.print(f"[red]{jsonl} holds no game {game}.[/]")
            raise typer.Exit(1)
        target = record_out or results.with_name(f"{results.stem}-game-{game}.json")
        try:
            target.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        except OSError as e:
            console.print(f"[red]Cannot write {target}: {e.strerror or e}[/]")
            raise typer.Exit(1)
        console.print(rep.game_table(record))
        console.print(f"Record written: {target}  (step through it: affresco replay {target})")
        return
    try:
        rows = read_rows(results)
    except (OSError, ValueError, KeyError, FrescoError) as e:
        why = getattr(e, "strerror", None) or e
        console.print(f"[red]Cannot read {escape(str(results))}: {escape(str(why))}[/]")
        raise typer.Exit(1)
    if not rows:
        console.print(f"[yellow]{results} holds no games.[/]")
        raise typer.Exit(1)
    console.print(rep.tables(rows))
    if plots is not None:
        try:
            files = rep.plots(rows, plots)
        except ImportError:
            console.print("[red]--plots needs matplotlib: pip install 'affresco\\[sim]'[/]")
            raise typer.Exit(1)
        except OSError as e:
            console.print(f"[red]Cannot write plots into {plots}: {e.strerror or e}[/]")
            raise typer.Exit(1)
        for f in files:
            console.print(f"Plot written: {f}")
