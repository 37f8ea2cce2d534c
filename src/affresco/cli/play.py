"""``affresco play``: one person at the terminal against bots."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Callable, Optional

import typer
from rich.console import Console
from rich.text import Text

from .. import __version__
from ..bots import Bot, BotError, HeuristicBot, ask, bot_menu, make_bot, parse_spec
from ..bots.preview import previews
from ..errors import FrescoError, IllegalAction
from ..rules import KINDS, Action, Game, new_game, parse
from . import render
from .app import MODULE_HELP, OPTION_HELP, app, rule_options
from .files import load_game, save_game, write_refusal

# '1-2-0-1-1' for 'plan 1-2-0-1-1', with the words modules add: 'wall theater', 'audience studio',
# the medico's 'ill 0-1-0-0-0' and 'medico'
PLAN_SHORTHAND = re.compile(r"^\d(?:[-,.]?\d){4}(?:\s+(?:[a-z]+2?|\d(?:[-,.]?\d){4}))*$", re.ASCII | re.IGNORECASE)

HELP = """\
Commands:
  <number>          the numbered action (while planning: the numbered example plan)
  <notation>        an action in notation, e.g. 'getup 8:00', 'buy II YYY RB', 'restore C3 bishop D2'
  1-2-0-1-1         while planning, the same as 'plan 1-2-0-1-1'
                    (module words follow: '1-0-2-1-0 wall theater',
                    '1-0-2-1-0 ill 0-0-1-0-0 medico')
  board             show the board again
  actions           show the legal actions again
  undo              take back your last move (and the bots' moves after it), while nothing
                    new has come out (a draw, the plans' reveal, a secret shown): as in the browser
  save FILE         save the game (resume with: affresco play --load FILE)
  help              this help
  quit              leave the game (you are offered to save it)

Restorations with modules (the numbered list shows every legal one):
  restore C3 sexton A1      the Sexton (portraits) moves the bishop to any segment first
  restore C3 using KN       pink and brown pay for orange, green or purple (option special_colours_on_fresco)
  restore C3 ill            an ill apprentice restores (medico); likewise 'altar RYB ill'
"""


class Session:
    """One person at the terminal against bots."""

    def __init__(self, console: Console, game: Game, human: int, bots: dict[int, Bot],
                 read: Callable[[str], str], resume: tuple[str, ...] = ()):
        self.console = console
        self.resume = resume      # the options that resume a saved game with this seat and these bots
        self.game = game
        self.human = human
        self.bots = bots
        self.read = read
        self.seen = max(0, len(game.events(human)) - 12)  # on load: show some context
        self.adviser = HeuristicBot(seed=f"advice:{game.seed}")
        # the game before each of the person's moves since hidden information last came out
        # (R22: an undo never takes back a draw or a reveal; the server's undo stops there too)
        self.undos: list[tuple[Game, int]] = []

    # --- output ----------------------------------------------------------------------
    def new_log(self) -> list[str]:
        """What happened since the person's last decision, as sentences (from the events)."""
        return render.event_lines(self.game.events(self.human)[self.seen:], self.game.names)

    def show_screen(self) -> None:
        view = self.game.view(self.human)
        self.console.rule(f"Round {view['round']}")
        self.console.print(render.screen(view, self.human, self.new_log()))
        self.show_actions(view)

    def examples(self, view: dict[str, Any], legal: list[Action]) -> list[tuple[str, str]]:
        suggestion = self.adviser.choose(view, legal, self.human)
        out = [(str(suggestion), "suggested by the heuristic bot")]
        n = view["figures"][self.human].get("apprentices", 5)
        cols = len(view["columns"])
        for counts, why in (([1] * min(cols, n) + [0] * (cols - min(cols, n)), "one everywhere"),
                            ([min(3, n), min(3, max(0, n - 3))] + [0] * (cols - 2), "buy, then restore"),
                            ([0, 0, min(3, n)] + [0] * (cols - 3), "earn Thalers in the studio"),
                            ([0] * cols, "do nothing")):
            action = Action("plan", ("-".join(map(str, counts)),))
            if action in legal and all(str(action) != a for a, _ in out):
                out.append((str(action), why))
        # module action tiles: one example with the wall tile on an empty column
        walled = next((a for a in legal if "wall" in a.args and a.args[0] == "0-2-0-1-0"), None) or \
            next((a for a in legal if "wall" in a.args), None)
        if walled is not None and all(str(walled) != a for a, _ in out):
            out.append((str(walled), "with the wall tile: restore a wall section"))
        return out

    def choices(self, view: dict[str, Any]) -> list[str]:
        legal = self.game.legal_actions(self.human)
        if view["phase"] == "plan" and not view.get("pending_track") and legal and legal[0].kind == "plan":
            return [a for a, _ in self.examples(view, legal)]
        return [str(a) for a in legal]

    def show_actions(self, view: dict[str, Any] | None = None) -> None:
        view = view or self.game.view(self.human)
        deciding = view.get("deciding")
        if deciding is not None and view["figures"][deciding]["leonardo"]:
            self.console.print(Text("You decide for Leonardo this round.", style="bold magenta"))
        if view.get("pending_track"):
            p = view["pending_track"]
            self.console.print(f"{p['figure']} lands on an occupied space: stop behind (space {p['behind']}) "
                               f"or ahead (space {p['ahead']})?")
        legal = self.game.legal_actions(self.human)
        if view["phase"] == "plan" and legal and legal[0].kind == "plan":
            self.console.print(render.plan_panel(view, self.human, self.examples(view, legal)))
        else:
            # what each scoring choice would score (as the browser shows it): on a copy made from
            # this seat's view, so nothing hidden shows (bots/preview.py)
            scores = previews(self.game, self.human) if not view.get("pending_track") else {}
            notes = {a: f"+{p['vp']} VP" for a, p in scores.items()}
            self.console.print(render.actions_panel([str(a) for a in legal], notes=notes))
        self.console.print("Type a number or an action ('help' for commands).", style="dim")

    # --- the loop --------------------------------------------------------------------
    def run(self) -> int:
        try:
            while not self.game.is_over:
                acting = self.game.to_act
                if not acting:  # pragma: no cover - the engine always has someone to act
                    self.console.print("[red]Nobody is to act; the game cannot go on.[/]")
                    return 1
                bot_seats = [s for s in acting if s != self.human]
                if bot_seats:
                    seat = bot_seats[0]
                    if self.game.apply(seat, ask(self.bots[seat], self.game, seat)):
                        self.undos.clear()
                    continue
                if not self.human_turn():
                    return 0
            self.finish()
            return 0
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            self.console.print("Input closed.")
            self.offer_save()
            return 0

    def human_turn(self) -> bool:
        """One decision of the person; False if they quit."""
        self.show_screen()
        self.seen = len(self.game.events(self.human))
        while True:
            text = self.read("> ").strip()
            if not text:
                continue
            word = text.split()[0].lower()
            if word in ("quit", "exit", "q"):
                self.offer_save()
                return False
            if word in ("help", "?", "h"):
                # plain text: rich markup would swallow '[bishop <seg>]' and '[choice]'
                self.console.print(HELP, markup=False, highlight=False)
                for line in KINDS.values():
                    self.console.print("  " + line, style="dim", markup=False, highlight=False)
                continue
            if word == "board":
                self.console.print(render.screen(self.game.view(self.human), self.human))
                continue
            if word == "actions":
                self.show_actions()
                continue
            if word == "undo" and text.lower() == "undo":
                if not self.undos:
                    self.console.print("[red]Nothing to undo: undo takes back your moves only until something new "
                                       "came out (a draw, the plans' reveal, a secret shown).[/]")
                    continue
                self.game, self.seen = self.undos.pop()
                self.console.print(Text("Your last move is taken back.", style="bold green"))
                return True
            if word == "save":
                parts = text.split(maxsplit=1)
                if len(parts) < 2:
                    self.console.print("[red]save needs a file name: save FILE[/]")
                else:
                    save_game(self.console, self.game, parts[1], self.resume)
                continue
            action = self.interpret(text)
            if action is None:
                continue
            try:
                action = parse(action)
                before = self.game.clone()
                if self.game.apply(self.human, action):
                    self.undos.clear()
                else:
                    self.undos.append((before, self.seen))
            except IllegalAction as e:
                self.console.print(Text(f"Not possible: {e}", style="red"))
                continue
            except Exception as e:  # an engine error must not end the session: the state is unchanged
                self.console.print(Text(f"Not possible: {text!r} could not be read ({type(e).__name__}: {e})",
                                        style="red"))
                continue
            self.console.print(Text(f"You: {action}", style="bold green"))
            return True

    def interpret(self, text: str) -> str | None:
        view = self.game.view(self.human)
        if text.isascii() and text.isdigit():
            options = self.choices(view)
            k = int(text) if len(text) <= 9 else 0    # (Python reads no int of over 4300 digits)
            if not 1 <= k <= len(options):
                shown = text if len(text) <= 9 else text[:9] + "..."
                self.console.print(f"[red]No action number {shown}: choose 1 to {len(options)}.[/]")
                return None
            return options[k - 1]
        if view["phase"] == "plan" and PLAN_SHORTHAND.match(text):
            return "plan " + text
        return text

    def offer_save(self) -> None:
        if self.game.is_over:
            return
        try:
            name = self.read("Save the game before leaving? File name (Enter: don't save): ").strip()
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            self.console.print("Not saved.")
            return
        if name:
            save_game(self.console, self.game, name, self.resume)
        else:
            self.console.print("Not saved.")

    def finish(self) -> None:
        view = self.game.view(self.human)
        self.console.rule("Game over")
        self.console.print(render.screen(view, self.human, self.new_log()))
        self.console.print(render.scores_table(view, self.game.ranking(), self.game.scores()))
        winner = self.game.ranking()[0]
        who = "You win!" if winner == self.human else f"{self.game.names[winner]} wins."
        self.console.print(Text(who, style="bold green"))


def _bot_list(text: str) -> list[str]:
    """The bot specs of ``--bots`` (checked by :func:`affresco.bots.parse_spec`)."""
    names = [b.strip() for b in text.split(",") if b.strip()]
    if not names:
        raise typer.BadParameter("name at least one bot", param_hint="--bots")
    try:
        return [parse_spec(b).label for b in names]
    except BotError as e:
        raise typer.BadParameter(str(e), param_hint="--bots") from None


def _menu() -> str:
    return "; ".join(f"{b['name']} ({b['description'].rstrip('.')})" for b in bot_menu())


@app.command()
def play(
    players: int = typer.Option(2, "--players", "-p", min=2, max=4, help="Number of players (2-4); ignored with --load."),
    bots: str = typer.Option("heuristic", "--bots", "-b",
                             help=f"Bots for the other seats, in seat order, comma-separated (repeated as needed): "
                                  f"{_menu()}; a time budget may follow a colon, e.g. search:1.0."),
    seat: int = typer.Option(0, "--seat", "-s", min=0, max=3, help="Your seat, 0..N-1 (seat 0 is 'Player 1')."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed of the game (random if omitted)."),
    modules: str = typer.Option("", "--modules", "-m",
                                help=f"{MODULE_HELP[:-1]}; ignored with --load."),
    option: list[str] = typer.Option([], "--option", "-o", help=OPTION_HELP),
    components: Optional[Path] = typer.Option(None, "--components",
                                              help="Your own component file (TOML or JSON, the shape of the reference "
                                                   "edition's data files; README, 'The reference edition'), e.g. with "
                                                   "the English 6:00 price; ignored with --load."),
    load: Optional[Path] = typer.Option(None, "--load", "-l", help="Resume a saved game (or a game record)."),
    record: Optional[Path] = typer.Option(None, "--record", help="Write the game record here when the game ends."),
) -> None:
    """Play a game in the terminal against bots."""
    console = Console(highlight=False)
    kinds = _bot_list(bots)
    options = rule_options(option)
    record = None if record is None else record.expanduser()
    why = None if record is None else write_refusal(record)
    if why is not None:     # said now, not after the whole game
        raise typer.BadParameter(why, param_hint="--record")
    try:
        chosen = tuple(m.strip() for m in modules.split(",") if m.strip())
        game = load_game(load) if load is not None else new_game(
            players=players, modules=chosen, seed=seed, options=options,
            components=None if components is None else str(components))
    except FrescoError as e:
        console.print(f"[red]{e}[/]")
        raise typer.Exit(1)
    if not 0 <= seat < game.players:
        console.print(f"[red]--seat must be 0..{game.players - 1} in a {game.players}-player game[/]")
        raise typer.Exit(1)
    others = [s for s in range(game.players) if s != seat]
    table = {s: make_bot(kinds[i % len(kinds)], seed=f"{game.seed}:{s}") for i, s in enumerate(others)}
    line = ", ".join(f"seat {s} {game.names[s]}: {table[s].name} bot" for s in others)
    console.print(f"affresco {__version__} · {game.players} players · you are seat {seat} ({game.names[seat]}) · {line}")
    if load is not None:
        console.print(f"Resumed {load} (round {game.round}).")
    resume = (*(("--seat", str(seat)) if seat else ()), "--bots", ",".join(kinds))
    session = Session(console, game, seat, table, lambda prompt: console.input(prompt), resume)
    code = session.run()
    game = session.game      # (an undo replaces it)
    if game.is_over and record is not None:
        try:
            record.write_text(json.dumps(game.record(), indent=1), encoding="utf-8")
            console.print(f"Game record written to [bold]{record}[/]")
        except OSError as e:
            console.print(f"[red]Cannot write {record}: {e.strerror or e}[/]")
    raise typer.Exit(code)
