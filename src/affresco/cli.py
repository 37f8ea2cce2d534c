"""The ``affresco`` command: play Fresco in the terminal against bots, replay saved games.

    affresco play --players 3 --bots greedy,random --seat 0 --seed 7
    affresco play --load mygame.json
    affresco replay mygame.json --all

Seats are numbered from 0 as in the engine: seat 0 is 'Player 1'.
"""
from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path
from typing import Any, Callable, Optional

import typer
from rich.console import Console
from rich.text import Text

from . import __version__, render
from .bots import BOTS, Bot, GreedyBot, ask, make_bot
from .errors import FrescoError, IllegalAction
from .rules import Action, Game, new_game, parse, replay as replay_record
from .rules.actions import KINDS

app = typer.Typer(name="affresco", add_completion=False, no_args_is_help=True,
                  help="Fresco (Queen Games 2010) in the terminal: play against bots, replay saved games.")

RECORD_FORMAT = "affresco-record/1"
from .rules.serialize import FORMAT as STATE_FORMAT, OLD_FORMATS as OLD_STATE_FORMATS
PLAN_SHORTHAND = re.compile(r"^\d(?:[-,.]?\d){4}(?:\s+[a-z]+\s+[a-z]+2?)*$", re.ASCII | re.IGNORECASE)

HELP = """\
Commands:
  <number>          the numbered action (while planning: the numbered example plan)
  <notation>        an action in notation, e.g. 'getup 8:00', 'buy II YYY RB', 'restore C3 bishop D2'
  1-2-0-1-1         while planning, the same as 'plan 1-2-0-1-1'
                    (module action tiles follow: '1-0-2-1-0 wall theater')
  board             show the board again
  actions           show the legal actions again
  save FILE         save the game (resume with: affresco play --load FILE)
  help              this help
  quit              leave the game (you are offered to save it)
"""


def _version(value: bool) -> None:
    if value:
        Console().print(f"affresco {__version__}")
        raise typer.Exit()


@app.callback()
def main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                      help="Show the version and exit.")) -> None:
    """Fresco in the terminal."""


# ---------------------------------------------------------------------------- helpers
def _read_json(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise FrescoError(f"cannot read {path}: {e.strerror or e}") from None
    try:
        data = json.loads(text)
    except ValueError as e:
        raise FrescoError(f"{path}: not valid JSON ({e})") from None
    if not isinstance(data, dict):
        raise FrescoError(f"{path}: expected a saved game or a game record")
    return data


def _normal(a: Action) -> tuple:
    """An action with the paint letters of its tiles in a fixed order, for matching."""
    if a.kind == "buy" and a.args:
        return a.kind, a.args[0], tuple(sorted("".join(sorted(t)) for t in a.args[1:]))
    if a.kind == "altar" and a.args:
        return a.kind, "".join(sorted(a.args[0]))
    return a.kind, a.args


def resolve(game: Game, seat: int, action: Action | str) -> Action:
    """The legal action meant by ``action`` (notation or Action), whatever the order of the
    paint letters of its tiles; if none matches, the parsed action (the engine explains why it
    is not legal).  Raises NotationError for text that is not notation."""
    parsed = parse(action) if isinstance(action, str) else action
    legal = game.legal_actions(seat)
    if parsed in legal:
        return parsed
    same = [a for a in legal if _normal(a) == _normal(parsed)]
    return same[0] if len(same) == 1 else parsed


def rebuild(record: dict[str, Any], upto: int | None = None) -> Game:
    """Replay a game record (like :func:`affresco.replay`, matching each action with
    :func:`resolve`)."""
    game = replay_record(record, upto=0)
    for i, entry in enumerate(record["actions"][:upto]):
        try:
            seat, notation = entry
            game.apply(seat, resolve(game, seat, notation))
        except (ValueError, TypeError):
            raise FrescoError(f"game record: action {i}: {entry!r} is not [seat, notation]") from None
        except IllegalAction as e:
            raise FrescoError(f"game record: action {i} ({entry[1]!r} by seat {entry[0]}) is illegal: {e}") from None
    return game


def load_game(path: Path) -> Game:
    """A saved game (``to_json``) or a game record (``record()``), as a game in progress."""
    data = _read_json(path)
    fmt = data.get("format")
    if fmt == RECORD_FORMAT:
        return rebuild(data)
    if fmt == STATE_FORMAT or fmt in OLD_STATE_FORMATS:
        return Game.from_json(json.dumps(data))
    raise FrescoError(f"{path}: format {fmt!r} is neither {STATE_FORMAT!r} (saved game) nor {RECORD_FORMAT!r} (record)")


def load_record(path: Path) -> dict[str, Any]:
    """The game record of a record file or of a saved game (its history)."""
    data = _read_json(path)
    fmt = data.get("format")
    if fmt == RECORD_FORMAT:
        return data
    if fmt == STATE_FORMAT or fmt in OLD_STATE_FORMATS:
        return Game.from_json(json.dumps(data)).record()
    raise FrescoError(f"{path}: format {fmt!r} is neither {STATE_FORMAT!r} (saved game) nor {RECORD_FORMAT!r} (record)")


def _save(console: Console, game: Game, name: str) -> bool:
    path = Path(name).expanduser()
    try:
        path.write_text(game.to_json(), encoding="utf-8")
    except OSError as e:
        console.print(f"[red]Cannot save to {path}: {e.strerror or e}[/]")
        return False
    console.print(f"Saved to [bold]{path}[/]. Resume with: affresco play --load {path}")
    return True


def acting_figure(view: dict[str, Any]) -> str | None:
    """Name of the figure whose decision it is (Leonardo's is taken by his controller)."""
    pending = view.get("pending_track")
    return pending["figure"] if pending else view.get("actor")


def is_leonardo(view: dict[str, Any], name: str | None) -> bool:
    return any(f.get("leonardo") and f["name"] == name for f in view["figures"])


# ---------------------------------------------------------------------------- play
class Session:
    """One person at the terminal against bots."""

    def __init__(self, console: Console, game: Game, human: int, bots: dict[int, Bot],
                 read: Callable[[str], str]):
        self.console = console
        self.game = game
        self.human = human
        self.bots = bots
        self.read = read
        self.seen = max(0, len(game.view(human)["log"]) - 12)  # on load: show some context
        self.adviser = GreedyBot(seed=f"advice:{game.seed}")

    # --- output ----------------------------------------------------------------------
    def new_log(self) -> list[str]:
        return self.game.view(self.human)["log"][self.seen:]

    def show_screen(self) -> None:
        view = self.game.view(self.human)
        self.console.rule(f"Round {view['round']}")
        self.console.print(render.screen(view, self.human, self.new_log()))
        self.show_actions(view)

    def examples(self, view: dict[str, Any], legal: list[Action]) -> list[tuple[str, str]]:
        suggestion = self.adviser.choose(view, legal, self.human)
        out = [(str(suggestion), "suggested by the greedy bot")]
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
        if is_leonardo(view, acting_figure(view)):
            self.console.print(Text("You decide for Leonardo this round.", style="bold magenta"))
        if view.get("pending_track"):
            p = view["pending_track"]
            self.console.print(f"{p['figure']} lands on an occupied space: stop behind (space {p['behind']}) "
                               f"or ahead (space {p['ahead']})?")
        legal = self.game.legal_actions(self.human)
        if view["phase"] == "plan" and legal and legal[0].kind == "plan":
            self.console.print(render.plan_panel(view, self.human, self.examples(view, legal)))
        else:
            self.console.print(render.actions_panel([str(a) for a in legal]))
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
                    self.game.apply(seat, ask(self.bots[seat], self.game, seat))
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
        self.seen = len(self.game.view(self.human)["log"])
        while True:
            text = self.read("> ").strip()
            if not text:
                continue
            word = text.split()[0].lower()
            if word in ("quit", "exit", "q"):
                self.offer_save()
                return False
            if word in ("help", "?", "h"):
                self.console.print(HELP)
                for line in KINDS.values():
                    self.console.print("  " + line, style="dim", highlight=False)
                continue
            if word == "board":
                self.console.print(render.screen(self.game.view(self.human), self.human))
                continue
            if word == "actions":
                self.show_actions()
                continue
            if word == "save":
                parts = text.split(maxsplit=1)
                if len(parts) < 2:
                    self.console.print("[red]save needs a file name: save FILE[/]")
                else:
                    _save(self.console, self.game, parts[1])
                continue
            action = self.interpret(text)
            if action is None:
                continue
            try:
                action = resolve(self.game, self.human, action)
                self.game.apply(self.human, action)
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
            k = int(text)
            if not 1 <= k <= len(options):
                self.console.print(f"[red]No action number {k}: choose 1 to {len(options)}.[/]")
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
            _save(self.console, self.game, name)
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
    names = [b.strip().lower() for b in text.split(",") if b.strip()]
    if not names:
        raise typer.BadParameter("name at least one bot", param_hint="--bots")
    bad = [b for b in names if b not in BOTS]
    if bad:
        raise typer.BadParameter(f"unknown bot(s) {', '.join(bad)}; bots: {', '.join(sorted(BOTS))}",
                                 param_hint="--bots")
    return names


@app.command()
def play(
    players: int = typer.Option(2, "--players", "-p", min=2, max=4, help="Number of players (2-4); ignored with --load."),
    bots: str = typer.Option("greedy", "--bots", "-b",
                             help=f"Bots for the other seats, in seat order, comma-separated (repeated as needed): "
                                  f"{', '.join(sorted(BOTS))}."),
    seat: int = typer.Option(0, "--seat", "-s", min=0, max=3, help="Your seat, 0..N-1 (seat 0 is 'Player 1')."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed of the game (random if omitted)."),
    modules: str = typer.Option("", "--modules", "-m",
                                help="Expansion modules, comma-separated (e.g. portraits,requests); ignored with --load."),
    option: list[str] = typer.Option([], "--option", "-o",
                                     help="A rule option to switch on (repeatable), e.g. special_colours_on_fresco."),
    load: Optional[Path] = typer.Option(None, "--load", "-l", help="Resume a saved game (or a game record)."),
    record: Optional[Path] = typer.Option(None, "--record", help="Write the game record here when the game ends."),
) -> None:
    """Play a game in the terminal against bots."""
    console = Console(highlight=False)
    kinds = _bot_list(bots)
    try:
        chosen = tuple(m.strip() for m in modules.split(",") if m.strip())
        game = load_game(load) if load is not None else new_game(
            players=players, modules=chosen, seed=seed, options={o: True for o in option})
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
    session = Session(console, game, seat, table, lambda prompt: console.input(prompt))
    code = session.run()
    if game.is_over and record is not None:
        try:
            record.write_text(json.dumps(game.record(), indent=1), encoding="utf-8")
            console.print(f"Game record written to [bold]{record}[/]")
        except OSError as e:
            console.print(f"[red]Cannot write {record}: {e.strerror or e}[/]")
    raise typer.Exit(code)


# ---------------------------------------------------------------------------- replay
def _merged_view(game: Game) -> dict[str, Any]:
    """The spectator's view with every seat's private paints, Thalers and plan filled in."""
    view = game.view(None)
    for s in range(game.players):
        own = game.view(s)["figures"][s]
        for key in ("paints", "thalers", "plan"):
            if key in own:
                view["figures"][s][key] = own[key]
    return view


class Replayer:
    def __init__(self, console: Console, record: dict[str, Any], seat: int | None, everything: bool):
        self.console = console
        actions = record.get("actions")
        if not isinstance(actions, list) or not all(isinstance(a, list) and len(a) == 2 for a in actions):
            raise FrescoError("game record: 'actions' must be a list of [seat, notation]")
        self.actions = [tuple(a) for a in actions]
        self.seat = seat
        self.everything = everything
        self.games = [replay_record(record, upto=0)]  # games[i]: after i actions

    def game_at(self, i: int) -> Game:
        while len(self.games) <= i:
            g = self.games[-1].clone()
            seat, notation = self.actions[len(self.games) - 1]
            try:
                g.apply(seat, resolve(g, seat, notation))
            except IllegalAction as e:
                raise FrescoError(f"game record: move {len(self.games)} ({notation!r} by seat {seat}) "
                                  f"is illegal: {e}") from None
            self.games.append(g)
        return self.games[i]

    def view(self, game: Game) -> dict[str, Any]:
        if self.everything:
            return _merged_view(game)
        return game.view(self.seat)

    def show(self, i: int) -> None:
        total = len(self.actions)
        game = self.game_at(i)
        view = self.view(game)
        self.console.rule(f"Move {i} of {total}")
        if i == 0:
            self.console.print("Start of the game.")
            new_lines = view["log"]
        else:
            before = self.view(self.game_at(i - 1))
            seat, notation = self.actions[i - 1]
            figure = acting_figure(before)
            who = game.names[seat]
            if figure and figure != who:
                who += f" for {figure}"
            self.console.print(Text.assemble(("Move ", ""), (str(i), "bold"), (f": {who} (seat {seat}): ", ""),
                                             (notation, "bold green")))
            new_lines = view["log"][len(before["log"]):]
        self.console.print(render.board(view))
        if self.everything:
            for s in range(game.players):
                self.console.print(render.private_panel(view, s, title=f"{game.names[s]} (seat {s})"))
        elif self.seat is not None:
            self.console.print(render.private_panel(view, self.seat, title=f"{game.names[self.seat]} (seat {self.seat})"))
        self.console.print(render.log_panel(new_lines, title="What happened"))
        if game.is_over:
            self.console.print(render.scores_table(view, game.ranking(), game.scores()))

    def run(self, read: Callable[[str], str]) -> None:
        i = 0
        total = len(self.actions)
        self.show(i)
        while True:
            try:
                cmd = read("[Enter] next · b back · NUMBER go to move · q quit > ").strip().lower()
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                return
            if cmd in ("q", "quit", "exit"):
                return
            if cmd in ("", "n", "next"):
                if i >= total:
                    self.console.print("End of the record.")
                    return
                i += 1
            elif cmd in ("b", "back"):
                if i == 0:
                    self.console.print("Already at the start.")
                    continue
                i -= 1
            elif cmd.isascii() and cmd.isdigit():
                if int(cmd) > total:
                    self.console.print(f"[red]The record has {total} moves.[/]")
                    continue
                i = int(cmd)
            else:
                self.console.print("[red]Enter, b, a move number or q.[/]")
                continue
            self.show(i)


@app.command()
def replay(
    file: Path = typer.Argument(..., help="A game record (JSON) or a saved game."),
    seat: Optional[int] = typer.Option(None, "--seat", "-s", min=0, max=3,
                                       help="Show what this seat saw (its paints, Thalers and plans)."),
    everything: bool = typer.Option(False, "--all", "-a", help="Show every seat's hidden items."),
    to: Optional[int] = typer.Option(None, "--to", min=0, help="Show the position after move N and stop."),
) -> None:
    """Step through a saved game move by move."""
    console = Console(highlight=False)
    if seat is not None and everything:
        console.print("[red]--seat and --all exclude each other[/]")
        raise typer.Exit(1)
    try:
        record = load_record(file)
        replayer = Replayer(console, record, seat, everything)
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


# ---------------------------------------------------------------------------- tournament, report
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


@app.command()
def tournament(
    players: int = typer.Option(4, "--players", "-p", min=2, max=4, help="Number of players (2-4)."),
    bots: str = typer.Option("greedy", "--bots", "-b",
                             help=f"One bot per seat, comma-separated (seats rotate every game), or one bot for "
                                  f"every seat: {', '.join(sorted(BOTS))}; a time budget in seconds per decision "
                                  f"may follow a colon, e.g. search:1.0."),
    games: int = typer.Option(100, "--games", "-n", min=1, help="Number of games."),
    modules: str = typer.Option("", "--modules", "-m", help="Expansion modules, comma-separated."),
    option: list[str] = typer.Option([], "--option", "-o", help="A rule option to switch on (repeatable)."),
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
) -> None:
    """Play many bot games with rotated seats and write the results (table + game records).

    Ctrl-C (or SIGTERM) stops: the games finished so far are kept in the files (exit status 130)."""
    import time

    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)

    from rich.markup import escape

    from .bots import BotError
    from .sim import ResultsWriter, bot_label, require_ray, run_tournament

    class RateColumn(ProgressColumn):
        def render(self, task) -> Text:
            elapsed = task.finished_time if task.finished else task.elapsed
            rate = task.completed / elapsed if elapsed else 0.0
            return Text(f"{rate:.2f} games/s", style="progress.data.speed")

    console = Console(highlight=False)
    specs = [b for b in bots.split(",") if b.strip()]
    try:
        kinds = [bot_label(b) for b in specs]
    except BotError as e:
        raise typer.BadParameter(str(e), param_hint="--bots")
    if len(kinds) not in (1, players):
        raise typer.BadParameter(f"name {players} bots (one per seat) or a single bot", param_hint="--bots")
    chosen = tuple(m.strip() for m in modules.split(",") if m.strip())
    options = {o: True for o in option}
    try:  # every refusal before a file is opened
        new_game(players, modules=chosen, seed=0, options=options)
        if ray is not None:
            require_ray()
        writer = ResultsWriter(out)
    except FrescoError as e:
        console.print(f"[red]{escape(str(e))}[/]")
        raise typer.Exit(1)
    except OSError as e:
        console.print(f"[red]Cannot write {escape(str(out))}: {escape(str(e.strerror or e))}[/]")
        raise typer.Exit(1)
    line = ", ".join(kinds if len(kinds) > 1 else kinds * players)
    console.print(f"affresco {__version__} · tournament · {games} games · {players} players ({line})"
                  f" · modules: {', '.join(chosen) or 'none'} · seed {seed}")
    result = None
    start = time.perf_counter()
    with _stop_on_sigterm(), writer:
        try:
            with Progress(TextColumn("[progress.description]{task.description}"), BarColumn(), MofNCompleteColumn(),
                          RateColumn(), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                          console=console, transient=False) as progress:
                task = progress.add_task("starting" + (" Ray" if ray is not None else ""), total=games, start=False)

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

                try:
                    result = run_tournament(players, kinds, games, modules=chosen, seed=seed, workers=workers,
                                            options=options, ray=ray, on_start=started, on_result=finished)
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
                          f"and {writer.jsonl}.[/]")
            raise typer.Exit(130)
    done = len(result.records)
    if result.interrupted:
        console.print(f"[yellow]Interrupted: {done} of {games} games finished.[/]")
    console.print(f"{done} games in {elapsed:.1f} s ({done / elapsed if elapsed else 0:.2f} games/s). "
                  f"Results: [bold]{csv_path}[/], records: [bold]{jsonl_path}[/]")
    console.print(f"Summary: affresco report {csv_path}")
    if result.interrupted:
        raise typer.Exit(130)


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

    from . import report as rep
    from .sim import read_records, read_rows, records_path, table_format

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

        from .server.app import JsonLogFormatter, Limits, create_app
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


if __name__ == "__main__":  # pragma: no cover
    app()
