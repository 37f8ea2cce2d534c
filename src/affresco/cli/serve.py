"""``affresco serve``: the browser game's web server."""
from __future__ import annotations

import re

import typer
from rich.console import Console

from .. import __version__
from .app import app

LOG_LEVELS = ("debug", "info", "warning", "error", "critical")


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (0.0.0.0 for every interface)."),
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="Port to listen on."),
    db: str = typer.Option("affresco.db", "--db",
                           help="Database: an SQLite file path or URL, or postgresql://user:pass@host/dbname."),
    bot_processes: int = typer.Option(1, "--bot-processes", min=1, help="Processes for timed (search) bots."),
    bot_delay: float = typer.Option(0.4, "--bot-delay", min=0.0,
                                    help="Seconds every bot decision takes, whatever the bot knows, so people "
                                         "can follow (timed bots: at least their seconds + 0.35)."),
    log_level: str = typer.Option("info", "--log-level", help="debug, info, warning, error or critical."),
    rate: float = typer.Option(20.0, "--rate", min=0.1, help="Requests per second allowed per seat token or address."),
    games_per_minute: int = typer.Option(30, "--games-per-minute", min=1,
                                         help="New games per minute allowed per address."),
    fixed_seeds: bool = typer.Option(False, "--fixed-seeds",
                                     help="Let a creator choose the seed of a game with several people "
                                          "(testing only: whoever knows the seed knows every draw)."),
    trusted_proxy: list[str] = typer.Option([], "--trusted-proxy",
                                            help="Address or network of a reverse proxy whose X-Forwarded-For "
                                                 "is believed (repeat; none by default)."),
    allowed_host: list[str] = typer.Option([], "--allowed-host",
                                           help="Host name the server answers for (repeat; any by default)."),
    conns_per_client: int = typer.Option(64, "--max-connections-per-client", min=1,
                                         help="Open connections allowed per client address."),
    header_timeout: float = typer.Option(10.0, "--header-timeout", min=0.1,
                                         help="Seconds a request's headers may take to arrive."),
    body_timeout: float = typer.Option(15.0, "--body-timeout", min=0.1,
                                       help="Seconds a request's body may take to arrive after its headers."),
    idle_timeout: float = typer.Option(5.0, "--idle-timeout", min=0.1,
                                       help="Seconds an idle keep-alive connection stays open."),
    api_docs: bool = typer.Option(False, "--api-docs", help="Serve the OpenAPI description at /api/openapi.json."),
    max_rounds: int = typer.Option(200, "--max-rounds", min=1,
                                   help="Games end by this round (house rule max_rounds, then final scoring); "
                                        "an older game still going after it is abandoned."),
    bots: str = typer.Option("local", "--bots",
                             help="Where bot decisions run: local (a process pool here), ray-local (Ray started "
                                  "here) or ray://HOST:PORT (a Ray cluster)."),
    lease_seconds: float = typer.Option(3.0, "--lease-seconds", min=0.5,
                                        help="PostgreSQL, several processes: seconds after which the bots of a "
                                             "process that stopped answering move on another process."),
) -> None:
    """Play Fresco in the browser: a web server with live games, friends and bots."""
    import logging
    import sys

    try:
        from ..server.app import JsonLogFormatter, Limits, create_app, run
    except ImportError as e:  # pragma: no cover - dependencies of the package
        Console(stderr=True).print(f"[red]affresco serve needs its web dependencies: {e}[/]")
        raise typer.Exit(1)
    if log_level.lower() not in LOG_LEVELS:
        raise typer.BadParameter(f"{log_level!r}: one of {', '.join(LOG_LEVELS)}", param_hint="--log-level")
    from ..server.guard import Proxies
    for proxy in trusted_proxy:
        try:
            Proxies([proxy])
        except ValueError:
            raise typer.BadParameter(f"{proxy!r} is not an address or network (e.g. 10.0.0.5, 10.0.0.0/8)",
                                     param_hint="--trusted-proxy") from None
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLogFormatter())
    server_log = logging.getLogger("affresco.server")
    server_log.handlers[:] = [handler]
    server_log.setLevel(log_level.upper())
    server_log.propagate = False
    from ..server.bots import check_backend
    from ..server.store import DatabaseInUse
    try:
        check_backend(bots)
    except ValueError as e:
        Console(stderr=True).print(f"[red]{e}[/]")
        raise typer.Exit(2)
    busy = _port_in_use(host, port)
    if isinstance(busy, int):    # --port 0: the free port the system gave, the one shown and served
        port, busy = busy, None
    if busy:
        why, option = busy
        hint = " (another server there?)" if option == "--port" else ""
        Console(stderr=True).print(f"[red]Cannot listen on {host}:{port}: {why}{hint}: choose another {option}[/]")
        raise typer.Exit(1)
    try:
        limits = Limits(rate=rate, burst=max(10, int(rate * 3)), create_per_minute=games_per_minute,
                        conns_per_client=conns_per_client, header_timeout=header_timeout,
                        body_timeout=body_timeout, keep_alive=idle_timeout)
        web = create_app(db, bot_processes=bot_processes, bot_delay=bot_delay, fixed_seeds=fixed_seeds,
                         limits=limits, trusted_proxies=trusted_proxy, allowed_hosts=allowed_host,
                         api_docs=api_docs, max_rounds=max_rounds, bots=bots,
                         lease_seconds=lease_seconds)
    except DatabaseInUse as e:
        Console(stderr=True).print(f"[red]{e}[/]")
        raise typer.Exit(1)
    except Exception as e:  # noqa: BLE001 - a bad --db must say why, not dump a trace
        Console(stderr=True).print(f"[red]Cannot open the database {_without_password(db)!r}: "
                                   f"{str(e).replace(db, _without_password(db))}[/]")
        raise typer.Exit(1)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    Console(stderr=True).print(f"affresco {__version__}: open [bold]http://{shown}:{port}/[/] in your browser "
                               f"(database: {_without_password(db)}). Ctrl-C stops the server; games are kept.")
    run(web, host=host, port=port, log_level=log_level)


def _without_password(db: str) -> str:
    """The database as it may be shown or logged: a URL's password masked ('***')."""
    if "://" not in db:
        return db
    try:
        from sqlalchemy.engine import make_url
        return make_url(db).render_as_string(hide_password=True)
    except Exception:  # noqa: BLE001 - not a URL SQLAlchemy reads: hide what could be one
        return re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", db)


def _port_in_use(host: str, port: int) -> tuple[str, str] | int | None:
    """Why ``host:port`` cannot be listened on (e.g. 'address already in use') and the option to
    change (``--port`` if the port is taken, else ``--host``: a name that does not resolve, an
    address not on this machine), or None: checked before the database is opened, so a second
    server on a taken port stops at once.  Port 0 (any free port): the port the system gives."""
    import errno
    import socket
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except OSError as e:
        return str(e.strerror or e), "--host"
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)   # as uvicorn binds
        try:
            s.bind(address)
        except OSError as e:
            taken = e.errno in (errno.EADDRINUSE, errno.EACCES)    # EACCES: a privileged port
            return str(e.strerror or e).lower(), "--port" if taken else "--host"
        return s.getsockname()[1] if port == 0 else None
