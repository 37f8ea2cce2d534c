"""``affresco serve``: the browser game's web server."""
from __future__ import annotations

import typer
from rich.console import Console

from .. import __version__
from .app import app

@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (0.0.0.0 for every interface)."),
    port: int = typer.Option(8000, "--port", help="Port to listen on."),
    db: str = typer.Option("affresco.db", "--db",
                           help="Database: an SQLite file path or URL, or postgresql://user:pass@host/dbname."),
    bot_processes: int = typer.Option(1, "--bot-processes", min=1, help="Processes for timed (search) bots."),
    bot_delay: float = typer.Option(0.4, "--bot-delay", min=0.0,
                                    help="Seconds a bot waits before moving, so people can follow."),
    log_level: str = typer.Option("info", "--log-level", help="debug, info, warning or error."),
    rate: float = typer.Option(20.0, "--rate", min=0.1, help="Requests per second allowed per seat token or address."),
    games_per_minute: int = typer.Option(30, "--games-per-minute", min=1,
                                         help="New games per minute allowed per address."),
    fixed_seeds: bool = typer.Option(False, "--fixed-seeds",
                                     help="Let a creator choose the seed of a game with several people "
                                          "(testing only: whoever knows the seed knows every draw)."),
) -> None:
    """Play Fresco in the browser: a web server with live games, friends and bots."""
    import logging
    import sys

    try:
        import uvicorn

        from ..server.app import JsonLogFormatter, Limits, create_app
    except ImportError as e:  # pragma: no cover - dependencies of the package
        Console(stderr=True).print(f"[red]affresco serve needs its web dependencies: {e}[/]")
        raise typer.Exit(1)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLogFormatter())
    server_log = logging.getLogger("affresco.server")
    server_log.handlers[:] = [handler]
    server_log.setLevel(log_level.upper())
    server_log.propagate = False
    try:
        limits = Limits(rate=rate, burst=max(10, int(rate * 3)), create_per_minute=games_per_minute)
        web = create_app(db, bot_processes=bot_processes, bot_delay=bot_delay, fixed_seeds=fixed_seeds,
                         limits=limits)
    except Exception as e:  # noqa: BLE001 - a bad --db must say why, not dump a trace
        Console(stderr=True).print(f"[red]Cannot open the database {db!r}: {e}[/]")
        raise typer.Exit(1)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    Console(stderr=True).print(f"affresco {__version__}: open [bold]http://{shown}:{port}/[/] in your browser "
                               f"(database: {db}). Ctrl-C stops the server; games are kept.")
    uvicorn.run(web, host=host, port=port, log_level=log_level.lower(), ws_max_size=65_536,
                # deflate costs more CPU than it saves on loopback/LAN; payloads are small JSON
                ws_per_message_deflate=False,
                access_log=log_level.lower() == "debug")
