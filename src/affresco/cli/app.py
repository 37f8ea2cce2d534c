"""The ``affresco`` command's typer application (each command registers itself in its file)."""
from __future__ import annotations

import typer
from rich.console import Console

from .. import __version__

app = typer.Typer(name="affresco", add_completion=False, no_args_is_help=True,
                  help="Fresco (Queen Games 2010) in the terminal: play against bots, replay saved games.")


def _version(value: bool) -> None:
    if value:
        from ..build import describe
        Console().print(f"affresco {__version__} ({describe()})")
        raise typer.Exit()


@app.callback()
def main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                      help="Show the version and exit.")) -> None:
    """Fresco in the terminal."""
