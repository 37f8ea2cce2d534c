"""``affresco play``: one person at the terminal against bots."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Callable, Optional

import typer
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from .. import __version__
from ..bots import Bot, BotError, HeuristicBot, ask, bot_menu, make_bot, parse_spec
from ..bots.preview import previews
from ..errors import FrescoError, IllegalAction
from ..i18n import LANGS, catalog, text as i18n_text
from ..rules import KINDS, Action, Game, new_game, parse
from . import render
from .app import MODULE_HELP, OPTION_HELP, app, chosen_lang, rule_options
from .files import load_game, save_game, write_refusal

# '1-2-0-1-1' for 'plan 1-2-0-1-1', with the words modules add: 'wall theater', 'audience studio',
# the medico's 'ill 0-1-0-0-0' and 'medico'
PLAN_SHORTHAND = re.compile(r"^\d(?:[-,.]?\d){4}(?:\s+(?:[a-z]+2?|\d(?:[-,.]?\d){4}))*$", re.ASCII | re.IGNORECASE)

# the help (term.help) and the notation's lines (term.notation.<kind>) are in the catalogues;
# the typed words stay the same in every language


def help_panel(lang: str = "en") -> Group:
    """The commands and the notation explained in ``lang`` (``term.help``, ``term.notation.<kind>``);
    what is typed is the same in every language (the notation of :data:`affresco.rules.KINDS`).
    The typed words in a column of their own, the explanations folding beside them at any
    width (Russian lines are long)."""
    parts: list[Any] = []
    grid = None
    last = Text()

    def row(left: str, right: str) -> None:
        nonlocal grid, last
        if grid is None:
            grid = Table.grid(padding=(0, 2))
            grid.add_column(no_wrap=True, style="bold")
            grid.add_column()
            parts.append(grid)
        last = Text(right)
        grid.add_row(Text(left), last)

    for line in i18n_text("term.help", lang).splitlines():
        item = re.match(r"^  (\S.*?)\s{2,}(\S.*)$", line)
        more = re.match(r"^\s{3,}(\S.*)$", line)
        if item:
            row(item.group(1), item.group(2))
        elif more and grid is not None:      # an explanation's next line: one paragraph
            last.append(" " + more.group(1))
        else:
            grid = None
            parts.append(Text(line.strip() and line))
    for kind, line in KINDS.items():
        row(re.split(r"\s{2,}", line.strip(), maxsplit=1)[0], i18n_text(f"term.notation.{kind}", lang))
    return Group(*parts)


class Session:
    """One person at the terminal against bots."""

    def __init__(self, console: Console, game: Game, human: int, bots: dict[int, Bot],
                 read: Callable[[str], str], resume: tuple[str, ...] = (), lang: str = "en"):
        self.console = console
        self.lang = lang
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

    def t(self, key: str, **params: Any) -> str:
        """The catalogue's text in the session's language (affresco.i18n, as the browser)."""
        return i18n_text(key, self.lang, **params)

    def say(self, key: str, style: str = "", **params: Any) -> None:
        self.console.print(Text(self.t(key, **params), style=style))

    # --- output ----------------------------------------------------------------------
    def new_log(self) -> list[str]:
        """What happened since the person's last decision, as sentences (from the events)."""
        names = render.figure_names(self.game.view(self.human), self.lang)
        return render.event_lines(self.game.events(self.human)[self.seen:], names, self.lang)

    def show_screen(self) -> None:
        view = self.game.view(self.human)
        self.console.rule(self.t("status.round", n=view["round"]))
        self.console.print(render.screen(view, self.human, self.new_log(), self.lang))
        self.show_actions(view)

    def examples(self, view: dict[str, Any], legal: list[Action]) -> list[tuple[str, str]]:
        suggestion = self.adviser.choose(view, legal, self.human)
        out = [(str(suggestion), self.t("term.ex_suggested"))]
        n = view["figures"][self.human].get("apprentices", 5)
        cols = len(view["columns"])
        for counts, why in (([1] * min(cols, n) + [0] * (cols - min(cols, n)), "term.ex_one_each"),
                            ([min(3, n), min(3, max(0, n - 3))] + [0] * (cols - 2), "term.ex_buy_restore"),
                            ([0, 0, min(3, n)] + [0] * (cols - 3), "term.ex_studio"),
                            ([0] * cols, "term.ex_nothing")):
            action = Action("plan", ("-".join(map(str, counts)),))
            if action in legal and all(str(action) != a for a, _ in out):
                out.append((str(action), self.t(why)))
        # module action tiles: one example with the wall tile on an empty column
        walled = next((a for a in legal if "wall" in a.args and a.args[0] == "0-2-0-1-0"), None) or \
            next((a for a in legal if "wall" in a.args), None)
        if walled is not None and all(str(walled) != a for a, _ in out):
            out.append((str(walled), self.t("term.ex_wall")))
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
            self.say("term.leo_decide", "bold magenta")
        if view.get("pending_track"):
            p = view["pending_track"]
            names = self.game.names
            name = render.figure_names(view, self.lang)[names.index(p["figure"])] if p["figure"] in names else p["figure"]
            self.say("term.track_choice", name=name, behind=p["behind"], ahead=p["ahead"])
        legal = self.game.legal_actions(self.human)
        if view["phase"] == "plan" and legal and legal[0].kind == "plan":
            self.console.print(render.plan_panel(view, self.human, self.examples(view, legal), self.lang))
        else:
            # what each scoring choice would score (as the browser shows it): on a copy made from
            # this seat's view, so nothing hidden shows (bots/preview.py)
            scores = previews(self.game, self.human) if not view.get("pending_track") else {}
            notes = {a: self.t("term.plus_vp", n=p["vp"]) for a, p in scores.items()}
            self.console.print(render.actions_panel([str(a) for a in legal], notes=notes, lang=self.lang))
        self.say("term.hint", "dim")

    # --- the loop --------------------------------------------------------------------
    def run(self) -> int:
        try:
            while not self.game.is_over:
                acting = self.game.to_act
                if not acting:  # pragma: no cover - the engine always has someone to act
                    self.say("term.nobody", "red")
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
            self.say("term.input_closed")
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
                self.console.print(help_panel(self.lang))
                continue
            if word == "board":
                self.console.print(render.screen(self.game.view(self.human), self.human, lang=self.lang))
                continue
            if word == "actions":
                self.show_actions()
                continue
            if word == "undo" and text.lower() == "undo":
                if not self.undos:
                    self.say("term.no_undo", "red")
                    continue
                self.game, self.seen = self.undos.pop()
                self.say("term.undone", "bold green")
                return True
            if word == "save":
                parts = text.split(maxsplit=1)
                if len(parts) < 2:
                    self.say("term.save_needs", "red")
                else:
                    save_game(self.console, self.game, parts[1], self.resume, self.lang)
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
                self.refuse(text, e)
                continue
            except Exception as e:  # an engine error must not end the session: the state is unchanged
                self.say("term.unreadable", "red", text=repr(text), error=f"{type(e).__name__}: {e}")
                continue
            self.say("term.you", "bold green", action=str(action))
            return True

    def refuse(self, typed: str, error: IllegalAction) -> None:
        """A refused action: why (the engine's reason, in English only: its messages are not
        in the catalogues) and what is legal now (the notation is the same in every language)."""
        legal = self.choices(self.game.view(self.human))
        shown = ", ".join(legal[:8]) + (", " + self.t("term.more", n=len(legal) - 8) if len(legal) > 8 else "")
        if self.lang == "en":
            self.say("term.refused", "red", message=str(error))
        self.say("term.not_legal", "red", action=repr(typed), legal=shown)

    def interpret(self, text: str) -> str | None:
        view = self.game.view(self.human)
        if text.isascii() and text.isdigit():
            options = self.choices(view)
            k = int(text) if len(text) <= 9 else 0    # (Python reads no int of over 4300 digits)
            if not 1 <= k <= len(options):
                shown = text if len(text) <= 9 else text[:9] + "..."
                self.say("term.no_number", "red", n=shown, m=len(options))
                return None
            return options[k - 1]
        if view["phase"] == "plan" and PLAN_SHORTHAND.match(text):
            return "plan " + text
        return text

    def offer_save(self) -> None:
        if self.game.is_over:
            return
        try:
            name = self.read(self.t("term.save_ask")).strip()
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            self.say("term.not_saved")
            return
        if name:
            save_game(self.console, self.game, name, self.resume, self.lang)
        else:
            self.say("term.not_saved")

    def finish(self) -> None:
        view = self.game.view(self.human)
        self.console.rule(self.t("status.over"))
        self.console.print(render.screen(view, self.human, self.new_log(), self.lang))
        self.console.print(render.scores_table(render.named(view, self.lang), self.game.ranking(), self.game.scores(),
                                               self.lang))
        winner = self.game.ranking()[0]
        who = self.t("term.you_win") if winner == self.human else \
            self.t("final.wins", name=render.figure_names(view, self.lang)[winner])
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


def _bot_name(name: str, lang: str) -> str:
    """A bot as the browser's home page names it in ``lang`` (``bot.<name>``, without its
    parenthesis), with the name ``--bots`` takes beside it; in English the name alone."""
    key = f"bot.{name}"
    if lang == "en" or key not in catalog("en"):
        return name
    return f"{re.sub(r'[(].*[)]$', '', i18n_text(key, lang)).strip()} ({name})"


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
    lang: Optional[str] = typer.Option(None, "--lang",
                                       help=f"Language of the board, prompts, help and log: {', '.join(LANGS)} "
                                            "(default: $AFFRESCO_LANG, else the locale's, else en). Typed commands "
                                            "and the notation are the same in every language."),
) -> None:
    """Play a game in the terminal against bots."""
    lang = chosen_lang(lang)
    console = Console(highlight=False)
    kinds = _bot_list(bots)
    options = rule_options(option)
    record = None if record is None else record.expanduser()
    why = None if record is None else write_refusal(record)
    if why is not None:     # said now, not after the whole game
        raise typer.BadParameter(why, param_hint="--record")
    try:
        chosen = tuple(m.strip() for m in modules.split(",") if m.strip())
        # the painters' default names in the language ("Joueur 1", as the browser's home page;
        # names take no part in the game's chances)
        seats: int | list[str] = players if lang == "en" else \
            [i18n_text("home.default_name", lang, n=i + 1) for i in range(players)]
        game = load_game(load) if load is not None else new_game(
            players=seats, modules=chosen, seed=seed, options=options,
            components=None if components is None else str(components))
    except FrescoError as e:
        console.print(f"[red]{e}[/]")
        raise typer.Exit(1)
    if not 0 <= seat < game.players:
        console.print(Text(i18n_text("term.seat_range", lang, m=game.players - 1, n=game.players), style="red"))
        raise typer.Exit(1)
    others = [s for s in range(game.players) if s != seat]
    table = {s: make_bot(kinds[i % len(kinds)], seed=f"{game.seed}:{s}") for i, s in enumerate(others)}
    line = ", ".join(i18n_text("term.seat_bot", lang, seat=s, name=game.names[s], bot=_bot_name(table[s].name, lang))
                     for s in others)
    console.print(i18n_text("term.header", lang, version=__version__, n=game.players, seat=seat,
                            name=game.names[seat], bots=line), markup=False)
    if load is not None:
        console.print(i18n_text("term.resumed", lang, file=str(load), n=game.round), markup=False)
    resume = (*(("--seat", str(seat)) if seat else ()), "--bots", ",".join(kinds), *(("--lang", lang) if lang != "en" else ()))
    session = Session(console, game, seat, table, lambda prompt: console.input(prompt), resume, lang)
    code = session.run()
    game = session.game      # (an undo replaces it)
    if game.is_over and record is not None:
        try:
            record.write_text(json.dumps(game.record(), indent=1), encoding="utf-8")
            console.print(i18n_text("term.record_written", lang, file=str(record)), markup=False)
        except OSError as e:
            console.print(Text(i18n_text("term.cannot_write", lang, file=str(record), error=e.strerror or str(e)),
                               style="red"))
    raise typer.Exit(code)
