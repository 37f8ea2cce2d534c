"""The terminal interface: playing against bots, saving and resuming, replaying."""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import affresco
from affresco import __version__
from affresco.bots import GreedyBot, RandomBot, play_game
from affresco.cli import app, render

from positions import bells_state, favour_state, module_game, portraits_state, requests_state, scrolls_state

runner = CliRunner()
ONES = "1\n" * 3000  # always the first numbered choice (while planning: the suggested plan)


def invoke(args, text=""):
    result = runner.invoke(app, args, input=text)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


@pytest.mark.parametrize("where", ["folder", "missing-folder"])
def test_a_record_path_that_cannot_be_written_is_refused_before_the_game(tmp_path, where):
    """--record names where the record goes once the game ends: a folder, or a file in a
    folder that does not exist, is refused at once, not after the whole game is played."""
    path = tmp_path if where == "folder" else tmp_path / "nope" / "record.json"
    result = invoke(["play", "--seed", "4", "--bots", "greedy", "--record", str(path)], ONES)
    assert result.exit_code != 0 and "--record" in result.output, result.output
    assert "Round 1" not in result.output and "Game over" not in result.output


@pytest.mark.parametrize("command", ["play", "tournament", "ladder"])
def test_the_help_names_the_modules(command):
    # "--modules: Expansion modules, comma-separated (e.g. portraits,requests)": the names of
    # wall_fresco, special_colours or bishops_favour were to be guessed
    from affresco.rules import MODULES
    result = runner.invoke(app, [command, "--help"], env={"COLUMNS": "400"})
    assert result.exit_code == 0
    assert all(name in result.output for name in MODULES), result.output


def test_version():
    result = invoke(["--version"])
    assert result.exit_code == 0
    assert __version__ in result.output


def test_play_a_whole_two_player_game_typing_numbers(tmp_path):
    rec = tmp_path / "record.json"
    result = invoke(["play", "--players", "2", "--seed", "4", "--bots", "greedy", "--record", str(rec)], ONES)
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output and "Final ranking" in result.output
    assert "Planning" in result.output and "plan a-b-c-d-e" in result.output
    record = json.loads(rec.read_text())
    g = affresco.replay(record)
    assert g.is_over and g.history() == [tuple(a) for a in record["actions"]]


def test_illegal_input_is_explained_and_the_game_goes_on():
    text = "getup 4:00\nfly away\n77\n\u00b2\ngetup \u00b2\n\nhelp\nboard\nactions\n1\n1\n1\nquit\n\n"
    result = invoke(["play", "--players", "2", "--seed", "11", "--bots", "random", "--seat", "1"], text)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Not possible" in out and "'getup 4:00' is not legal" in out
    assert "'fly' is not an action kind" in out
    assert "No action number 77" in out
    assert out.count("Not possible") == 4  # odd digits are refused, never a crash
    assert "Commands:" in out
    # the action kinds' syntax, brackets included (rich markup once swallowed them)
    assert "[bishop <seg>]" in out and "[choice]" in out
    # the restoration forms modules add, which no action kind's line names (session 9 audit)
    assert "restore C3 sexton A1" in out and "restore C3 using KN" in out and "restore C3 ill" in out
    assert out.count("You: ") == 3  # the game went on after the refused inputs
    assert "Not saved" in out


def test_a_pasted_number_of_5000_digits_is_no_action_number_and_the_game_goes_on():
    """int() of over 4300 digits raised ValueError and ended the session with a traceback."""
    result = invoke(["play", "--players", "2", "--seed", "11", "--bots", "random"], "1" * 5000 + "\n1\nquit\n\n")
    assert result.exit_code == 0, result.output
    assert "No action number 111111111...: choose 1 to" in result.output and result.output.count("You: ") == 1


def test_notation_and_plan_shorthand_are_accepted():
    g = affresco.new_game(players=3, seed=2)
    while 0 not in g.to_act:  # the bots choose get-up times before seat 0 here
        seat = g.to_act[0]
        g.apply(seat, g.legal_actions(seat)[0])
    getup = str(g.legal_actions(0)[-1])
    text = f"{getup}\n0-0-3-0-0\nquit\n\n"
    result = invoke(["play", "--players", "3", "--seed", "2", "--bots", "random"], text)
    assert result.exit_code == 0, result.output
    assert f"You: {getup}" in result.output
    assert "You: plan 0-0-3-0-0" in result.output


def test_the_plan_shorthand_takes_the_medicos_words_too():
    # help: "1-2-0-1-1 while planning, the same as 'plan 1-2-0-1-1'"; with the medico's
    # 'ill a-b-c-d-e' and 'medico' words the shorthand was refused ("'0-1-0-0-0' is not an
    # action kind")
    from positions import medico_state, module_game

    from affresco.cli.play import Session
    g = module_game(3, modules=["medico"], modules_state={"medico": medico_state(3, sick={0: 1},
                                                                                 display=["2", None, None])})
    legal = {str(a) for a in g.legal_actions(0)}
    plans = [a for a in sorted(legal) if " ill " in a and a.endswith(" medico")][:3] + \
        [a for a in sorted(legal) if " ill " not in a and a.endswith(" medico")][:1]
    assert len(plans) == 4
    lines = []
    console = Console(file=None, width=100, record=True)
    session = Session(console, g, 0, {}, lines.append)
    for plan in plans:
        assert session.interpret(plan.removeprefix("plan ")) == plan
        assert str(affresco.parse(session.interpret(plan.removeprefix("plan ").replace("-", ",")))) == plan


def test_tile_letters_in_any_order_are_understood(tmp_path):
    """'buy III RY' means the booth's tile YR (the engine's parse sorts paint letters)."""
    g = affresco.new_game(players=2, seed=1)
    while not (g.phase == "visits" and any(a.kind == "buy" for a in g.legal_actions(g.to_act[0]))):
        seat = g.to_act[0]
        legal = g.legal_actions(seat)
        plans = [a for a in legal if a.kind == "plan" and a.args[0].startswith("3-")]
        g.apply(seat, plans[0] if plans else legal[-1] if legal[0].kind == "getup" else legal[0])
    seat = g.to_act[0]
    changed = 0
    for a in g.legal_actions(seat):
        if a.kind == "buy":
            scrambled = "buy " + a.args[0] + " " + " ".join(t[::-1] for t in reversed(a.args[1:]))
            changed += scrambled != str(a)
            assert affresco.parse(scrambled) == a
    assert changed


def test_save_then_load_resumes(tmp_path):
    save = tmp_path / "game.json"
    result = invoke(["play", "--players", "3", "--seed", "9", "--bots", "random"],
                    f"1\n1\nsave {save}\nquit\n\n")
    assert result.exit_code == 0, result.output
    assert "Saved to" in result.output
    saved = affresco.Game.from_json(save.read_text())
    assert not saved.is_over and len(saved.history()) > 0
    result = invoke(["play", "--load", str(save), "--bots", "greedy"], "1\n1\nquit\n\n")
    assert result.exit_code == 0, result.output
    assert "Resumed" in result.output and result.output.count("You: ") == 2
    # the resumed game continues from the saved position, not from the start
    assert f"round {saved.round}" in result.output.lower()


def test_the_resume_command_a_save_gives_keeps_your_seat_and_bots(tmp_path):
    # "Resume with: affresco play --load FILE" put a player of seat 1 in seat 0 (another
    # painter's screen, scrolls and plan) and gave the former seat to a heuristic bot
    import shlex
    save = tmp_path / "my game.json"
    wide = {"COLUMNS": "400"}
    result = runner.invoke(app, ["play", "--seed", "3", "--seat", "1", "--bots", "random"],
                           input=f"save {save}\nquit\n\n", env=wide)
    assert result.exit_code == 0, result.output
    assert "you are seat 1" in result.output and "random bot" in result.output
    hint = re.search(r"Resume with: (affresco play .*)", result.output).group(1).strip()
    args = shlex.split(hint)
    assert args[:2] == ["affresco", "play"]
    again = runner.invoke(app, args[1:], input="quit\n\n", env=wide)
    assert again.exit_code == 0, again.output
    assert "you are seat 1" in again.output and "seat 0 Player 1: random bot" in again.output, again.output[:400]


def test_undo_takes_back_your_moves_until_something_new_came_out(tmp_path):
    """The browser's undo (a game against bots: back to before the person's last move, never
    past a draw or a reveal, R22) in the terminal too."""
    g = affresco.new_game(players=3, seed=2)
    while 0 not in g.to_act:  # the bots choose get-up times before seat 0 here
        seat = g.to_act[0]
        g.apply(seat, g.legal_actions(seat)[0])
    first, second = (str(a) for a in g.legal_actions(0)[-2:])
    save = tmp_path / "game.json"
    text = f"{first}\nundo\n{second}\n0-0-3-0-0\nundo\nsave {save}\nquit\n\n"
    result = invoke(["play", "--players", "3", "--seed", "2", "--bots", "random"], text)
    assert result.exit_code == 0, result.output
    out = result.output
    assert f"You: {first}" in out and f"You: {second}" in out
    assert out.index("Your last move is taken back.") < out.index(f"You: {second}")
    # the plans are revealed when the last one is in (seat 0's, after the bots'): no undo past it
    assert "Nothing to undo" in out[out.index("You: plan 0-0-3-0-0"):]
    # the game went on from the undone point: seat 0's get-up time is the second one
    mine = [a for seat, a in affresco.Game.from_json(save.read_text()).record()["actions"] if seat == 0]
    assert mine == [second, "plan 0-0-3-0-0"]


def test_the_numbered_actions_say_what_each_scoring_choice_would_score():
    # the browser previews each scoring choice's points (issue 13); the terminal listed bare
    # notations. Each "+N VP" is what playing the choice scores.
    from positions import game, plan_all

    from affresco.cli.play import Session
    seats = [dict(getup="7:00", paints="YYOY", thalers=2), dict(getup="8:00"), dict(getup="9:00")]
    g = game(3, fresco={"C3": "3:YY", "A1": "5:OY"}, bishop="C3", seats=seats)
    plan_all(g, "0-1-0-0-0", "0-0-0-0-0", "0-0-0-0-0")
    console = Console(width=300, record=True)
    Session(console, g, 0, {}, input).show_actions()
    shown = dict(re.findall(r"\d+\. ((?:restore|altar)[^+\n]*?) \+(\d+) VP", console.export_text()))
    assert "restore C3" in shown and "restore A1" in shown, console.export_text()
    for action, vp in shown.items():
        played = g.clone()
        before = played.scores()[0]
        played.apply(0, action)
        assert played.scores()[0] - before == int(vp), (action, vp)
    assert shown["restore C3"] == "6"         # tile 3 + the bishop on it 3


def test_quit_offers_to_save(tmp_path):
    save = tmp_path / "q.json"
    result = invoke(["play", "--seed", "3"], f"quit\n{save}\n")
    assert result.exit_code == 0
    assert save.exists() and "Saved to" in result.output


def test_end_of_input_exits_cleanly():
    result = invoke(["play", "--seed", "3"], "")
    assert result.exit_code == 0
    assert "Input closed" in result.output and "Not saved" in result.output


def test_bad_options_are_reported(tmp_path):
    assert invoke(["play", "--bots", "nobot"]).exit_code != 0
    assert invoke(["play", "--players", "2", "--seat", "3"]).exit_code == 1
    missing = invoke(["play", "--load", str(tmp_path / "none.json")])
    assert missing.exit_code == 1 and "cannot read" in missing.output
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something"}')
    assert invoke(["replay", str(bad)]).exit_code == 1


def test_a_house_rule_takes_its_value_on_the_command_line(tmp_path):
    """--option NAME switches a rule option on; a house rule takes its value (rules notes H1:
    max_rounds=N makes round N the final round), in play and in tournaments alike; a value
    that is not a whole number or true/false is refused naming the option."""
    rec = tmp_path / "r.json"
    result = invoke(["play", "--seed", "3", "--bots", "random", "-o", "max_rounds=1", "--record", str(rec)], ONES)
    assert result.exit_code == 0 and "Game over" in result.output, result.output
    record = json.loads(rec.read_text())
    assert record["setup"]["options"] == {"max_rounds": 1}
    assert affresco.replay(record).round == 1
    for cmd in (["play"], ["tournament", "--games", "1", "--out", str(tmp_path / "t.csv")]):
        bad = invoke([*cmd, "-o", "max_rounds=soon"])
        assert bad.exit_code == 2 and "max_rounds=soon" in bad.output and "whole number" in bad.output
        huge = invoke([*cmd, "-o", "max_rounds=" + "1" * 5000])    # was a ValueError traceback (int() limit)
        assert huge.exit_code == 2 and "max_rounds=111111111111..." in huge.output and "18 digits" in huge.output
    out = tmp_path / "h.csv"
    done = invoke(["tournament", "--games", "1", "--players", "2", "--bots", "random", "-o", "max_rounds=2",
                   "--out", str(out)])
    assert done.exit_code == 0, done.output
    games = [json.loads(line) for line in out.with_suffix(".jsonl").read_text().splitlines()]
    assert [affresco.replay(g).round for g in games] == [2]


@pytest.fixture(scope="module")
def finished_game():
    g = affresco.new_game(players=2, seed=21)
    play_game(g, [GreedyBot(1), RandomBot(2)])
    return g


def test_replay_steps_forward_and_back(tmp_path, finished_game):
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(finished_game.record()))
    total = len(finished_game.record()["actions"])
    result = invoke(["replay", str(path)], "\n\nb\n5\nzz\nq\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert f"Move 0 of {total}" in out and f"Move 2 of {total}" in out and f"Move 5 of {total}" in out
    assert out.index(f"Move 2 of {total}") < out.rindex(f"Move 1 of {total}")  # 'b' went back
    first = finished_game.record()["actions"][0]
    assert first[1] in out


def test_replay_to_the_end_of_a_saved_game(tmp_path, finished_game):
    path = tmp_path / "saved.json"
    path.write_text(finished_game.to_json())
    total = len(finished_game.history())
    result = invoke(["replay", str(path), "--all", "--to", str(total + 10)])
    assert result.exit_code == 0, result.output
    assert f"Move {total} of {total}" in result.output and "Final ranking" in result.output
    result = invoke(["replay", str(path), "--seat", "1", "--to", "3"])
    assert result.exit_code == 0 and "Move 3 of" in result.output
    assert invoke(["replay", str(path), "--seat", "1", "--all"]).exit_code == 1


def test_replay_runs_to_the_end_with_enter(tmp_path, finished_game):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(finished_game.record()))
    n = len(finished_game.history())
    result = invoke(["replay", str(path), "--seat", "0"], f"{n - 1}\n\n\n")
    assert result.exit_code == 0
    assert f"Move {n} of {n}" in result.output and "End of the record" in result.output


def test_replay_end_of_input_and_back_at_start(tmp_path, finished_game):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(finished_game.record()))
    result = invoke(["replay", str(path)], "b\n")
    assert result.exit_code == 0 and "Already at the start" in result.output


@pytest.mark.slow
def test_play_with_the_bells_shows_the_bell_board_and_takes_their_decisions(tmp_path):
    """Module bells in the terminal: the bells panel (display, certificates, the bell track
    at the end), the audience tile in the planning help, and the audience and deposit
    decisions typed as numbers like any other."""
    rec = tmp_path / "record.json"
    result = invoke(["play", "--players", "2", "--seed", "4", "--bots", "greedy", "--modules", "bells",
                     "--record", str(rec)], ONES)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Bells" in out and "Display:" in out and "Bell track:" in out
    assert "Audience tile (bells)" in out
    actions = [a for seat, a in json.loads(rec.read_text())["actions"] if seat == 0]
    assert any(a.startswith("audience ") for a in actions)
    assert any(a.startswith("plan ") and " audience " in a for a in actions)


def test_play_a_whole_game_with_the_medico_typing_numbers():
    """Module 10 in the terminal: the medico board (infection, display, bottles and ill
    apprentices) is shown, planning explains the 'ill' and 'medico' words, and a whole game
    is played through every medico decision the bot suggests."""
    result = invoke(["play", "--players", "3", "--seed", "5", "--bots", "greedy", "--modules", "medico"], ONES)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Game over" in out and "─ Medico ─" in out and "Medico's display" in out
    assert "ill a-b-c-d-e" in out and "visit the medico" in out
    assert "Infected:" in out


def test_replay_and_play_load_files_written_before_the_events():
    """Issue #11: a saved game and a record written by the code before structured events
    (tests/data/before-events, affresco-state/1 and affresco-record/1) still load."""
    data = Path(__file__).parents[1] / "data" / "before-events"
    record = json.loads((data / "record-3p-modules.json").read_text())
    # The record was played under the old portrait rule ('portrait self-b vp', a Thaler card
    # taken as VP): it replays up to that move, which the revised rule refuses (rules notes M2,
    # issue #10); the forced passes it leaves out are made (N2).
    g = affresco.replay(record, upto=68)
    assert not g.is_over and g.round > 1
    with pytest.raises(affresco.StateError, match="move 69 .'portrait self-b vp'"):   # the 69th, after upto=68
        affresco.replay(record)
    result = invoke(["replay", str(data / "record-3p-modules.json"), "--all", "--to", "40"])
    assert result.exit_code == 0, result.output
    assert "Move 40 of" in result.output
    result = invoke(["replay", str(data / "save-3p-modules.json"), "--to", "3"])
    assert result.exit_code == 0, result.output
    saved = affresco.Game.from_json((data / "save-3p-modules.json").read_text())
    assert not saved.is_over and len(saved.history()) == 120
    result = invoke(["play", "--load", str(data / "save-3p-modules.json"), "--bots", "random"], "quit\n\n")
    assert result.exit_code == 0, result.output
    assert "Resumed" in result.output


def test_terminal_shows_the_bell_board_and_only_the_viewers_bells():
    """Terminal (affresco play): the bells panel shows the display, the stack, each painter's
    count, partly paid certificates with what is paid, the viewer's own face-down bells."""
    g = module_game(3, modules=["bells"], seats=[dict() for _ in range(3)], modules_state={"bells": bells_state(3, display=["3:3:2", "8:8:5"], stack=["2:2:1"],
                   holdings={0: dict(face_down=["7:7:5", "6:6:4"]), 1: dict(face_down=["5:5:4"]),
                             2: dict(partly_paid=[["4:4:3", 1]])})})
    console = Console(width=140, record=True)
    console.print(render.board(g.view(0)))
    text = console.export_text()
    assert "3 Th·3 VP·2🔔" in text and "stack: 1" in text
    assert "face down: 9🔔 on 2" in text and "1 face down" in text
    assert "(1/4 paid)" in text
    console = Console(width=140, record=True)
    console.print(render.board(g.view(1)))
    assert "9🔔" not in console.export_text()


def test_replay_as_a_seat_never_shows_another_seats_plan_before_the_reveal(tmp_path):
    """R4, R22: a plan is secret until every player has committed.  Replaying as seat 1 (or as a
    spectator), the move where seat 0 commits names no plan; with --all it does."""
    g = affresco.new_game(players=3, seed=8)
    while "plan" not in {a.kind for s in g.to_act for a in g.legal_actions(s)}:
        seat = g.to_act[0]
        g.apply(seat, g.legal_actions(seat)[0])
    g.apply(0, "plan 2-0-1-0-1")
    path = tmp_path / "r.json"
    path.write_text(json.dumps(g.record()))
    n = len(g.history())
    for args in (["--seat", "1"], []):
        out = invoke(["replay", str(path), *args, "--to", str(n)]).output
        assert f"Move {n} of {n}" in out and "2-0-1-0-1" not in out, out
    assert "plan 2-0-1-0-1" in invoke(["replay", str(path), "--all", "--to", str(n)]).output
    assert "plan 2-0-1-0-1" in invoke(["replay", str(path), "--seat", "0", "--to", str(n)]).output


@pytest.mark.parametrize("width", [80, 140])
def test_the_whole_fresco_shows_on_an_80_column_terminal(width):
    """A terminal of 80 columns (the usual default) shows every fresco column and whole cells:
    the market and hostel go below the fresco when they do not fit beside it."""
    g = affresco.new_game(players=4, modules=("special_colours",), seed=3)
    console = Console(width=width, record=True)
    console.print(render.board(g.view(0)))
    text = console.export_text()
    header = next(line for line in text.splitlines() if "│    A" in line or "│   A" in line)
    assert all(f" {c} " in header for c in "ABCDE"), header
    assert "…" not in text.split("Painters")[0]
    assert "24VP" in text and "Market" in text and "Hostel" in text
    assert "house_rules" not in text            # an empty module entry is not printed
    # once revealed, every painter's plan and name show whole (folded, never cut to "0-1-…")
    rng = random.Random(2)
    while g.view(0)["phase"] != "visits":
        seat = g.to_act[0]
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    console = Console(width=width, record=True)
    console.print(render.board(g.view(0)))
    text = console.export_text()
    assert not re.search(r"[0-9]-?…", text), text
    assert "Play…" not in text                 # names fold too, never cut ("Player 1")


def test_replay_steps_through_a_record_written_before_the_forced_wall_pass(tmp_path):
    """A record made when the wall visit was skipped for a player who could not pay (before
    rules notes W2 asked it of him) steps through to its end: the missing pass is made."""
    from positions import plan_all, wall_state
    seats = [dict(getup="7:00", paints="RYB"), dict(getup="8:00"), dict(getup="9:00")]
    g = module_game(3, modules=["wall_fresco"], seats=seats, modules_state={"wall_fresco": wall_state(3)})
    plan_all(g, "0-0-0-0-0 wall market", "0-0-0-0-0", "0-0-0-0-1")
    g.apply(0, "pass")                      # the forced pass (W2), missing from the old record
    g.apply(2, "theater")
    record = g.record()
    path = tmp_path / "old.json"
    path.write_text(json.dumps(dict(record, actions=[a for a in record["actions"] if a != [0, "pass"]])))
    n = len(record["actions"])
    result = invoke(["replay", str(path), "--all", "--to", str(n)])
    assert result.exit_code == 0 and f"Move {n} of {n}" in result.output, result.output


def test_the_modules_panel_tells_modules_1_to_5_in_words():
    """Terminal (issue 11; session 8 audit: "the modules panel for modules 1-5 is a raw
    dump"): the portraits on display and owned with what each card gives, the next request of
    each stack and each painter's requests with their income, the special blends, the
    viewer's own scrolls (never another seat's) and the favour tokens left, in words, as the
    browser tells them; no engine field names ('id:', 'basic_paints', 'tokens_left')."""
    modules = ["portraits", "requests", "special_colours", "scrolls", "bishops_favour"]
    ms = {"portraits": portraits_state(3, display=["merchant-a", "bishop-b"], owned={1: ["sexton"]}),
          "requests": requests_state(3, fulfilled={2: [["purple", 10, ["8:PPB", "9:GPR", "7:GP"]],
                                                       ["general", 6, ["3:YY", "3:RB", "4:RRY"]]]}),
          "scrolls": scrolls_state(3, {0: (3, "C"), 1: (5, "A")}),
          "bishops_favour": favour_state(["vp:1"] * 7)}
    g = module_game(3, modules=modules, modules_state=ms, seats=[dict() for _ in range(3)],
                    options={"special_colours_on_fresco": True})
    def words(seat):     # the panel's text, its lines joined (borders dropped)
        console = Console(width=80, record=True)
        console.print(render.board(g.view(seat)))
        return " ".join(re.sub("[│╭╮╰╯─]", " ", console.export_text()).split())

    text = words(0)
    assert "Merchant (A): 1 Thaler; 2 basic paints of your choice" in text
    assert "Bishop (B): 3 VP; paint G" in text
    assert "P1: Sexton (B, permanent): once a round, move the bishop to any segment for 1 Thaler" in text
    assert "general: next 6 VP (3 left)" in text and "purple: next 10 VP (3 left)" in text
    assert "P2: purple 10 VP (8:PPB 9:GPR 7:GP); general 6 VP (3:YY 3:RB 4:RRY); income 2 Thalers + P + 1 " \
           "basic paint of choice" in text
    assert "P + R = K (pink)" in text and "K and N may pay for O, G or P" in text
    assert "yours: row 3, column C" in text and "unplayed: P0 2, P1 2, P2 0" in text
    assert "7 favour tokens left face down" in text
    console = Console(width=100, record=True)       # the final table counts the tiles under requests too
    console.print(render.scores_table(g.view(0), [2, 1, 0], [30, 20, 10]))
    assert re.search(r"P2\s+10\s+\d+ \(\+6 under requests\)", console.export_text()), console.export_text()
    for field in ("id:", "basic_paints", "tokens_left", "deck_left", "fulfilled", "permanent: True"):
        assert field not in text, field
    other = words(1)
    assert "yours: row 5, column A" in other and "row 3" not in other


def test_the_painters_table_keeps_one_line_per_painter_on_an_80_column_terminal():
    """80 columns, 4 painters with all eight modules, plans revealed: each painter is one line
    whose name, score, get-up time, mood, plan and Thalers are whole (a name used to fold as
    'Playe / r 1', the mood strip over four lines, the header 'Thal…')."""
    g = affresco.new_game(players=4, modules=("portraits", "requests", "special_colours", "scrolls", "bishops_favour",
                                              "bells", "wall_fresco", "medico"), seed=9)
    rng = random.Random(4)
    while g.view(0)["phase"] != "visits":
        seat = g.to_act[0]
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    console = Console(width=80, record=True)
    console.print(render.figures_table(g.view(0)))
    lines = [line for line in console.export_text().splitlines() if line.strip()]
    head = next(i for i, line in enumerate(lines) if line.split()[:2] == ["#", "Name"])
    assert "Thalers" in lines[head] and "Get up" in lines[head]
    rows = lines[head + 2:]
    assert [row.split()[0] for row in rows] == ["0", "1", "2", "3"], rows
    view = g.view(0)
    for row, f in zip(rows, view["figures"]):
        assert f["name"] in row and "-".join(map(str, f["plan"])) in row and f["getup"] in row, row
        assert "●" in row
    assert rows[0].rstrip().endswith(str(view["figures"][0]["thalers"]))
    console = Console(width=60, record=True)       # narrower still: the names stay (paints are on one's screen)
    console.print(render.figures_table(view))
    narrow = console.export_text()
    assert all(f["name"] in narrow for f in view["figures"]), narrow


def test_replay_with_every_hand_tells_each_seats_scrolls_and_face_down_bells_in_words():
    """affresco replay --all (a face-up view): each seat's screen tells its scrolls ('row 3,
    column C') and its face-down bell certificates with their bells, not a dump of the
    module's whole view ('display certificate: ...; price: ...')."""
    ms = {"bells": bells_state(3, display=["3:3:2"], holdings={0: dict(face_down=["7:7:5", "6:6:4"])}),
          "scrolls": scrolls_state(3, {0: (3, "C"), 1: (None, "A")})}
    g = module_game(3, modules=["scrolls", "bells"], modules_state=ms, seats=[dict() for _ in range(3)])
    view = g.full_view()
    texts = []
    for seat in range(3):
        console = Console(width=100, record=True)
        console.print(render.private_panel(view, seat))
        texts.append(console.export_text())
    assert "row 3, column C" in texts[0] and "face down: 9🔔 on 2 (7 Th·7 VP·5🔔, 6 Th·6 VP·4🔔)" in texts[0]
    assert "column A" in texts[1] and "no face-down certificate" in texts[1]
    assert all("price:" not in t and "row:" not in t for t in texts), texts


def test_play_with_your_own_component_file(tmp_path):
    """README, 'The reference edition': a player who owns the game plays with his own component
    file, e.g. the English text's 6:00 price of 5 Thalers (rules notes N1): the hostel shows it,
    the record keeps it; a file breaking a printed constraint is refused naming the value."""
    from positions import english_price_components
    mine = english_price_components(tmp_path)
    rec = tmp_path / "r.json"
    result = invoke(["play", "--seed", "2", "--bots", "random", "--components", str(mine), "-o", "max_rounds=1",
                     "--record", str(rec)], ONES)
    assert result.exit_code == 0 and "Game over" in result.output, result.output
    assert re.search(r"6:00\s+-2\s+5", result.output)
    game = affresco.replay(json.loads(rec.read_text()))
    assert [h["price"] for h in game.view(0)["hostel"] if h["time"] == "6:00"] == [5]
    data = json.loads(mine.read_text())
    data["cathedral"]["bishop_adjacent"] = 1
    mine.write_text(json.dumps(data))
    bad = invoke(["play", "--components", str(mine)])
    assert bad.exit_code == 1 and "bishop_adjacent" in bad.output


def test_serve_on_a_taken_port_stops_at_once_and_never_shows_a_database_password(tmp_path):
    """`affresco serve` on a port another server holds stops before opening its database, saying
    so (it used to open the database, print 'open http://...' and then fail inside uvicorn); a
    PostgreSQL URL's password is never printed (it was, at start and in a connection error)."""
    import socket
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        db = tmp_path / "games.db"
        res = runner.invoke(app, ["serve", "--port", str(port), "--db", str(db)])
        assert res.exit_code == 1 and "address already in use" in res.output and "choose another --port" in res.output
        assert not list(tmp_path.iterdir())
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        free, closed = s.getsockname()[1], s.getsockname()[1]
    res = runner.invoke(app, ["serve", "--port", str(free), "--db", f"postgresql://fresco:s3cret@127.0.0.1:{closed}/x"])
    assert res.exit_code == 1 and "Cannot open the database" in res.output, res.output
    assert "s3cret" not in res.output and "fresco:***@" in res.output


def test_serve_names_the_databases_it_keeps_games_in(tmp_path):
    """A --db of another kind (mysql://) said "No module named 'MySQLdb'": it names SQLite and PostgreSQL."""
    res = runner.invoke(app, ["serve", "--port", "0", "--db", "mysql://fresco:s3cret@localhost/x"])
    assert res.exit_code == 1 and "SQLite" in res.output and "PostgreSQL" in res.output and "not mysql://" in res.output
    assert "MySQLdb" not in res.output and "s3cret" not in res.output


@pytest.mark.parametrize("args,words", [(["--trusted-proxy", "notanip"], "'notanip' is not an address or network"),
                                        (["--log-level", "loud"], "'loud': one of debug, info")])
def test_serve_refuses_a_bad_proxy_or_log_level_naming_the_option(tmp_path, args, words):
    """A bad --trusted-proxy was reported as 'Cannot open the database ...: does not appear to be
    an IPv4 or IPv6 network', a bad --log-level as a ValueError traceback; both are refused
    naming the option, before the database is opened."""
    res = runner.invoke(app, ["serve", "--port", "0", "--db", str(tmp_path / "g.db"), *args])
    assert res.exit_code == 2 and words in " ".join(res.output.split()) and "database" not in res.output, res.output
    assert not list(tmp_path.iterdir())


def test_serve_on_port_0_shows_the_port_it_serves_on(tmp_path, monkeypatch):
    """--port 0 (any free port) said 'open http://localhost:0/': the address shown is the
    port the system gave, and the one the server is started on."""
    import affresco.server.app as server_app
    started = {}
    monkeypatch.setattr(server_app, "run", lambda web, host, port, log_level: started.update(port=port))
    res = runner.invoke(app, ["serve", "--port", "0", "--db", str(tmp_path / "g.db")])
    assert res.exit_code == 0, res.output
    assert started["port"] > 0 and f"http://localhost:{started['port']}/" in res.output, (started, res.output)


def test_serve_on_a_host_that_is_not_this_machine_names_the_host_not_the_port(tmp_path):
    """--host with an address not on this machine (or a name that does not resolve) said
    '(another server there?): choose another --port'; the port was never the trouble.
    (192.0.2.1: TEST-NET-1, documentation only, on no machine.)"""
    res = runner.invoke(app, ["serve", "--host", "192.0.2.1", "--port", "0", "--db", str(tmp_path / "g.db")])
    text = " ".join(res.output.split())
    assert res.exit_code == 1 and "choose another --host" in text and "--port" not in text, res.output
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("port", ["65536", "99999", "-1"])
def test_serve_refuses_a_port_out_of_range_before_opening_the_database(tmp_path, port):
    """--port 99999 said 'open http://localhost:99999/' and listened elsewhere (the number
    wrapped); --port -1 said ':-1:' as an emoji."""
    res = runner.invoke(app, ["serve", "--port", port, "--db", str(tmp_path / "g.db")])
    assert res.exit_code == 2 and "--port" in res.output, res.output
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("command", ["replay", "play --load"])
@pytest.mark.parametrize("content, words", [("# Süßelbeck".encode("latin-1"), "not UTF-8 text"),
                                            (b"[" * 100_000 + b"]" * 100_000, "not valid JSON")])
def test_a_file_that_is_no_saved_game_is_refused_in_words(tmp_path, command, content, words):
    """A file not in UTF-8 or nested too deeply ended in a traceback (UnicodeDecodeError,
    RecursionError)."""
    path = tmp_path / "game.json"
    path.write_bytes(content)
    res = invoke([*command.split(), str(path)])
    assert res.exit_code == 1 and words in " ".join(res.output.split()), res.output


def test_replaying_a_tournaments_records_file_says_how_to_take_one_game_out(tmp_path, finished_game):
    """A tournament's .jsonl (a record a line) given to replay or play --load said only 'not valid
    JSON (Extra data ...)'; it now says how to take one game out (report --game K)."""
    path = tmp_path / "results.jsonl"
    path.write_text((json.dumps(finished_game.record()) + "\n") * 2)
    for args in (["replay", str(path)], ["play", "--load", str(path)]):
        res = invoke(args)
        assert res.exit_code == 1 and "--game K" in " ".join(res.output.split()), res.output


def test_the_readmes_engine_example_runs_to_the_end():
    """README, 'The engine in ten lines', run as written: it plays a whole game (its first
    version always took the first legal action, getting up at 5:00 and planning nothing: the
    game never ended)."""
    import subprocess
    import sys
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    code = readme.split("## The engine in ten lines", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"\[\d+, \d+, \d+\] \[\d, \d, \d\]\n", done.stdout), done.stdout


def test_the_vp_lost_or_won_by_a_track_choice_says_what_it_is():
    """VP by source: a stop behind (or ahead) on an occupied track space showed as 'track -1',
    which a newcomer cannot place; it says what it was."""
    assert render.vp_sources_text({"tile": 20, "track": -1}) == "tile 20 + stop behind/ahead -1"


def test_replay_and_play_load_name_the_same_bad_move_of_a_record(tmp_path, finished_game):
    """A record's bad entry was 'move 6' for replay (its moves count from 1, 'Move 6 of N'
    shows the position after it) but 'action 5' for play --load (the engine's 0-based index):
    both now name it as replay numbers it."""
    record = finished_game.record()
    record["actions"][5][1] = "bogus"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    for args in (["replay", str(path), "--to", "9"], ["play", "--load", str(path)]):
        res = invoke(args)
        assert res.exit_code == 1 and "move 6 ('bogus' by seat" in " ".join(res.output.split()), res.output
    record["actions"][5] = "x"
    with pytest.raises(affresco.FrescoError, match="move 6: 'x' is not"):
        affresco.replay(record)
