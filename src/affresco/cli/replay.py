"""``affresco replay``: step through a saved game or a record, as a seat saw it or face up."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Optional

import typer
from rich.console import Console
from rich.text import Text

from ..errors import FrescoError, IllegalAction
from ..i18n import LANGS, text as i18n_text
from ..rules import Game, parse, replay as replay_record
from . import render
from .app import app, chosen_lang
from .files import load_record

class Replayer:
    def __init__(self, console: Console, record: dict[str, Any], seat: int | None, everything: bool,
                 lang: str = "en"):
        self.console = console
        self.lang = lang
        actions = record.get("actions")
        if not isinstance(actions, list) or not all(isinstance(a, list) and len(a) == 2 for a in actions):
            raise FrescoError("game record: 'actions' must be a list of [seat, notation]")
        self.actions = [tuple(a) for a in actions]
        self.seat = seat
        self.everything = everything
        self.games = [replay_record(record, upto=0)]  # games[i]: after i actions

    def t(self, key: str, **params: Any) -> str:
        """The catalogue's text in the replay's language (affresco.i18n)."""
        return i18n_text(key, self.lang, **params)

    def game_at(self, i: int) -> Game:
        while len(self.games) <= i:
            g = self.games[-1].clone()
            seat, notation = self.actions[len(self.games) - 1]
            try:
                g.apply(seat, notation)
            except IllegalAction as e:
                raise FrescoError(f"game record: move {len(self.games)} ({notation!r} by seat {seat}) "
                                  f"is illegal: {e}") from None
            self.games.append(g)
        return self.games[i]

    def view(self, game: Game) -> dict[str, Any]:
        if self.everything:
            return game.full_view()
        return game.view(self.seat)

    def shown(self, seat: int, notation: str) -> str:
        """A move as the replay's viewer may read it: another seat's plan is secret until the
        reveal (R4, R22), which the log then tells; every other action is public once done."""
        if self.everything or seat == self.seat or parse(notation).kind != "plan":
            return notation
        return self.t("term.secret_plan")

    def show(self, i: int) -> None:
        total = len(self.actions)
        game = self.game_at(i)
        view = self.view(game)
        self.console.rule(self.t("term.move_of", i=i, total=total))
        names = render.figure_names(view, self.lang)
        if i == 0:
            self.console.print(self.t("term.start"))
            new = view["events"]
        else:
            before = self.view(self.game_at(i - 1))
            seat, notation = self.actions[i - 1]
            figure = before.get("deciding")
            who = names[seat]
            if figure is not None and figure != seat:
                who = self.t("term.for", who=who, other=names[figure])
            self.console.print(Text.assemble(self.t("term.move", i=i, who=who, seat=seat),
                                             (self.shown(seat, notation), "bold green")))
            new = view["events"][len(before["events"]):]
        self.console.print(render.board(view, self.lang))
        if self.everything:
            for s in range(game.players):
                self.console.print(render.private_panel(view, s, title=self.t("term.seat_title", name=names[s], seat=s),
                                                        lang=self.lang))
        elif self.seat is not None:
            self.console.print(render.private_panel(view, self.seat, lang=self.lang, title=self.t(
                "term.seat_title", name=names[self.seat], seat=self.seat)))
        self.console.print(render.log_panel(render.event_lines(new, names, self.lang), title=self.t("term.what_happened")))
        if game.is_over:
            self.console.print(render.scores_table(render.named(view, self.lang), game.ranking(), game.scores(),
                                                   self.lang))

    def run(self, read: Callable[[str], str]) -> None:
        i = 0
        total = len(self.actions)
        self.show(i)
        while True:
            try:
                cmd = read(self.t("term.replay_prompt")).strip().lower()
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                return
            if cmd in ("q", "quit", "exit"):
                return
            if cmd in ("", "n", "next"):
                if i >= total:
                    self.console.print(self.t("term.record_end"))
                    return
                i += 1
            elif cmd in ("b", "back"):
                if i == 0:
                    self.console.print(self.t("term.at_start"))
                    continue
                i -= 1
            elif cmd.isascii() and cmd.isdigit():
                if int(cmd) > total:
                    self.console.print(Text(self.t("term.record_moves", n=total), style="red"))
                    continue
                i = int(cmd)
            else:
                self.console.print(Text(self.t("term.replay_keys"), style="red"))
                continue
            self.show(i)


@app.command()
def replay(
    file: Path = typer.Argument(..., help="A game record (JSON) or a saved game."),
    seat: Optional[int] = typer.Option(None, "--seat", "-s", min=0, max=3,
                                       help="Show what this seat saw (its paints, Thalers and plans)."),
    everything: bool = typer.Option(False, "--all", "-a", help="Show every seat's hidden items."),
    to: Optional[int] = typer.Option(None, "--to", min=0, help="Show the position after move N and stop."),
    lang: Optional[str] = typer.Option(None, "--lang", help=f"Language: {', '.join(LANGS)} (as affresco play --lang)."),
) -> None:
    """Step through a saved game move by move."""
    lang = chosen_lang(lang)
    console = Console(highlight=False)
    if seat is not None and everything:
        console.print("[red]--seat and --all exclude each other[/]")
        raise typer.Exit(1)
    try:
        record = load_record(file)
        replayer = Replayer(console, record, seat, everything, lang)
        players = replayer.games[0].players
        if seat is not None and seat >= players:
            console.print(f"[red]--seat must be 0..{players - 1} in a {players}-player game[/]")
            raise typer.Exit(1)
        if to is not None:
            replayer.show(min(to, len(replayer.actions)))
            return
        replayer.run(lambda prompt: console.input(prompt))
    except FrescoError as e:
        console.print(f"[red]{e}[/]")
        raise typer.Exit(1)
