"""The ``affresco`` command's typer application (each command registers itself in its file)."""
from __future__ import annotations

import os
from typing import Any

import typer
from rich.console import Console

from .. import __version__
from ..i18n import LANGS

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


def _module_help() -> str:
    from ..rules import MODULES
    return f"Expansion modules, comma-separated: {', '.join(sorted(MODULES))}."


MODULE_HELP = _module_help()
OPTION_HELP = ("A rule option to switch on (repeatable), e.g. special_colours_on_fresco; a house rule with "
               "its value, e.g. max_rounds=30.")


def rule_options(values: list[str]) -> dict[str, bool | int]:
    """``--option`` values as the engine's ``options``: ``NAME`` switches a rule option on,
    ``NAME=VALUE`` gives its value (a whole number, or true/false); the engine checks them."""
    out: dict[str, bool | int] = {}
    for item in values:
        name, eq, value = item.partition("=")
        name, value = name.strip(), value.strip().lower()
        if not name or (eq and not value):
            raise typer.BadParameter(f"{item!r}: give NAME or NAME=VALUE", param_hint="--option")
        if not eq or value in ("true", "on", "yes"):
            out[name] = True
        elif value in ("false", "off", "no"):
            out[name] = False
        elif value.isascii() and value.isdigit() and len(value) <= 18:
            out[name] = int(value)
        elif value.isascii() and value.isdigit():   # (and Python reads no int of over 4300 digits)
            raise typer.BadParameter(f"{name}={value[:12]}...: a whole number of at most 18 digits",
                                     param_hint="--option")
        else:
            raise typer.BadParameter(f"{item!r}: the value is a whole number or true/false", param_hint="--option")
    return out


def chosen_lang(value: str | None) -> str:
    """The language of ``--lang`` (``value``), or :func:`preferred_lang` when it is not given."""
    lang = preferred_lang() if value is None else value.strip().lower()
    if lang not in LANGS:
        raise typer.BadParameter(f"{lang!r} is not one of {', '.join(LANGS)}", param_hint="--lang")
    return lang


def preferred_lang(environ: Any = None) -> str:
    """The language when ``--lang`` is not given: ``AFFRESCO_LANG``, else the locale's
    (``LC_ALL``, ``LC_MESSAGES``, ``LANG``: 'fr_FR.UTF-8' is French), as the browser takes the
    browser's languages; English otherwise."""
    env = os.environ if environ is None else environ
    for name in ("AFFRESCO_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            short = value[:2].lower()
            return short if short in LANGS else "en"
    return "en"
