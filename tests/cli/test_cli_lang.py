"""``affresco play --lang fr|ru``: the terminal in the browser's languages, from the same
catalogues (affresco.i18n) and the same event renderer."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import affresco
from affresco.cli import app
from affresco.cli.app import preferred_lang
from affresco.cli.play import help_panel
from affresco.i18n import LANGS, catalog
from affresco.rules import KINDS

runner = CliRunner()
ONES = "1\n" * 3000  # always the first numbered choice (while planning: the suggested plan)
# before the whole game: commands whose answers are words (help, refusals, undo, save)
COMMANDS = "help\nzz 9\n99\nundo\nsave\nboard\nactions\n"

# what the terminal printed in English before it spoke the catalogues' languages (the board,
# the prompts, the help, the refusals, the end screen), as whole words
ENGLISH = [
    "Round", "Fresco", "Market", "Hostel", "Painters", "VP track", "VP", "Booth", "Taken by", "Get up",
    "Mood", "Price", "Name", "Appr", "Paints", "hidden", "no mood", "restored", "♗ bishop", "tiles in the bag",
    "closed / empty", "choosing get-up times", "planning", "visits", "order", "at the", "acts",
    "Leonardo played by", "Leonardo's master painter", "mood (top", "the painter", "extra apprentice",
    "Your screen", "seat", "Apprentices", "Fresco tiles", "Since your last decision", "nothing",
    "Your legal actions", "Type a number or an action", "Planning", "Plan your apprentices",
    "with the number of apprentices per column", "You have", "at most 3 per column",
    "suggested by the heuristic bot", "one everywhere", "buy, then restore", "earn Thalers in the studio",
    "do nothing", "Game over", "Final ranking", "VP by source", "wins", "You win", "You:", "Not possible",
    "not a legal action", "No action number", "choose 1 to", "Nothing to undo", "needs a file name",
    "Commands", "the numbered action", "show the board again", "show the legal actions again",
    "take back your last move", "this help", "leave the game", "Restorations with modules",
    "players", "you are seat", "Player", "Input closed", "Not saved", "Save the game", "Resume with",
    "choose a get-up space", "buy tiles of one booth", "restore a fresco segment", "move up the mood display",
    "forfeit the rest of this visit",
]


def play(lang: str, text: str, *args: str):
    result = runner.invoke(app, ["play", "--players", "2", "--seed", "4", "--bots", "greedy", "--lang", lang, *args],
                           input=text, env={"COLUMNS": "80"})
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_a_whole_game_in_the_language_shows_no_english_word(lang, tmp_path):
    rec = tmp_path / "record.json"
    result = play(lang, COMMANDS + ONES, "--record", str(rec))
    out = result.output
    assert result.exit_code == 0, out
    cat = catalog(lang)
    # the rounds, the planning panel, the end screen and the help are there, in the language
    for key in ("term.ranking", "term.planning", "term.legal", "term.since", "term.by_source", "term.no_undo",
                "term.save_needs", "term.notation.getup"):
        assert cat[key].split("{")[0].strip()[:18] in out, (key, cat[key])   # (lines wrap at 80)
    assert re.search(r"\S+ \S+ " + re.escape(cat["final.wins"].split("}", 1)[1].strip()) + r"|"
                     + re.escape(cat["term.you_win"]), out), out[-400:]
    # a refusal names what is legal (the notation is the same in every language)
    assert re.search(re.escape(cat["term.not_legal"].split("}", 1)[1][:12]) + r".*getup \d", out), out[:3000]
    assert cat["term.no_number"].split("{")[0] in out
    # the log through the events' renderer in the language (the browser's sentences)
    assert cat["event.game_over"] in out
    found = sorted(w for w in ENGLISH if re.search(rf"(?<![\w'-]){re.escape(w)}(?![\w'-])", out))
    assert not found, found
    if lang == "ru":     # Leonardo by the catalogue's name (as the browser), the bot by its Russian name
        assert "Leonardo" not in out and "Леонардо" in out and "Опытный (greedy)" in out
    # the notation typed stays the same: the record is a whole game
    assert affresco.replay(__import__("json").loads(rec.read_text())).is_over


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_the_layout_keeps_to_80_columns(lang):
    """Russian and French words are longer: no line over 80 columns, nothing cut short ('…'),
    and the painters' table keeps one line per painter (4 painters, the longest names)."""
    result = runner.invoke(app, ["play", "--players", "4", "--seed", "4", "--bots", "greedy", "--lang", lang],
                           input=ONES, env={"COLUMNS": "80"})
    lines = result.output.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert not any("…" in line for line in lines)
    header = catalog(lang)["screen.thalers"]
    tables = [i for i, line in enumerate(lines) if line.strip().startswith("#") and line.rstrip().endswith(header)]
    assert tables, "no painters' table"
    for i in tables[:20]:
        rows = lines[i + 2:i + 6]
        assert all(re.match(r"^ [0-3] ", row) for row in rows), "\n".join(lines[i:i + 7])


def test_every_catalogue_key_of_the_terminal_exists_in_every_language():
    src = "\n".join(p.read_text(encoding="utf-8") for p in (Path(affresco.__file__).parent / "cli").glob("*.py"))
    keys = {k for k in re.findall(r"[\"']([a-z_]+\.[\w.]*\w)[\"']", src) if k.split(".")[0] in
            {"term", "status", "phase", "col", "board", "screen", "players", "final", "home", "wall", "bells",
             "medico", "bottle", "module", "portrait", "request", "special", "scrolls", "favour", "eff"}}
    assert len(keys) > 80, sorted(keys)
    keys |= {f"term.notation.{k}" for k in KINDS} | {f"phase.{p}" for p in ("getup", "plan", "visits", "over")}
    keys |= {f"term.mod.{m}" for m in ("portraits", "requests", "special_colours", "scrolls", "bishops_favour")}
    keys |= {f"bottle.{b}" for b in ("1", "2", "3", "juice")}
    for lang in LANGS:
        missing = sorted(k for k in keys if k not in catalog(lang))
        assert not missing, (lang, missing)


@pytest.mark.parametrize("lang", LANGS)
def test_the_help_explains_every_kind_and_says_the_notation_is_the_same(lang):
    console = Console(width=80, record=True)
    console.print(help_panel(lang))
    lines = console.export_text().splitlines()
    for kind, line in KINDS.items():
        syntax = re.split(r"\s{2,}", line.strip(), maxsplit=1)[0]
        first = catalog(lang)[f"term.notation.{kind}"].split()[0]
        assert any(row.startswith(syntax) and first in row for row in lines), (syntax, first)
    assert "getup 8:00" in "\n".join(lines) and "plan 1-2-0-1-1" in "\n".join(lines)
    assert max(len(line) for line in lines) <= 80


def test_the_language_comes_from_the_option_then_affresco_lang_then_the_locale():
    assert preferred_lang({"AFFRESCO_LANG": "ru", "LANG": "fr_FR.UTF-8"}) == "ru"
    assert preferred_lang({"LANG": "fr_FR.UTF-8"}) == "fr"
    assert preferred_lang({"LC_ALL": "ru_RU.UTF-8", "LANG": "fr_FR.UTF-8"}) == "ru"
    assert preferred_lang({"LANG": "de_DE.UTF-8"}) == "en" and preferred_lang({}) == "en"
    result = runner.invoke(app, ["play", "--seed", "3"], input="quit\n\n", env={"AFFRESCO_LANG": "fr"})
    assert catalog("fr")["status.round"].format(n=1) in result.output and "Round 1" not in result.output
    result = runner.invoke(app, ["play", "--seed", "3", "--lang", "ru"], input="quit\n\n", env={"AFFRESCO_LANG": "fr"})
    assert "Раунд 1" in result.output
    assert runner.invoke(app, ["play", "--lang", "de"]).exit_code != 0


def test_a_save_in_french_resumes_in_french(tmp_path):
    save = tmp_path / "partie.json"
    result = play("fr", f"save {save}\nquit\n\n")
    assert "--lang fr" in result.output and save.exists()
    again = runner.invoke(app, ["play", "--load", str(save), "--lang", "fr"], input="quit\n\n")
    assert "Reprise de" in again.output


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_replay_in_the_language(lang, tmp_path):
    """``affresco replay --lang``: the same board, log and end screen in the language."""
    rec = tmp_path / "record.json"
    play(lang, ONES, "--record", str(rec))      # (the names are the record's: "Joueur 1")
    total = len(__import__("json").loads(rec.read_text())["actions"])
    out = runner.invoke(app, ["replay", str(rec), "--lang", lang, "--seat", "0", "--to", str(total)],
                        env={"COLUMNS": "80"}).output
    cat = catalog(lang)
    assert cat["term.ranking"] in out and cat["term.what_happened"] in out and cat["event.game_over"] in out
    stepped = runner.invoke(app, ["replay", str(rec), "--lang", lang], input="\nb\nb\nzz\n99999\nq\n",
                            env={"COLUMNS": "80"}).output
    out += stepped
    assert cat["term.at_start"] in stepped and cat["term.replay_keys"] in stepped
    found = sorted(w for w in ENGLISH + ["Move", "Start of the game", "What happened", "Already at the start",
                                         "The record has", "next", "back", "quit"]
                   if re.search(rf"(?<![\w'-]){re.escape(w)}(?![\w'-])", out))
    assert not found, found


def test_a_game_with_every_module_in_russian_shows_no_english_word_of_the_module_panels():
    """The bells, medico, wall fresco and modules 1-5 panels in the language too, at 80 columns."""
    result = runner.invoke(app, ["play", "--players", "3", "--seed", "5", "--bots", "greedy", "--lang", "ru",
                                 "--modules", ",".join(affresco.MODULES)], input=ONES, env={"COLUMNS": "80"})
    out = result.output
    assert result.exit_code == 0 and catalog("ru")["term.ranking"] in out, out[-2000:]
    for key in ("tab.bells", "tab.medico", "term.wall_caption", "term.display", "term.medico_display", "home.modules"):
        assert catalog("ru")[key].split("{")[0].strip()[:12] in out, key
    module_english = ["Display", "stack", "certificate", "face down", "partly paid", "audience tile", "Bell track",
                      "Thresholds", "Infection", "Infected", "revealed after planning", "Medico", "bottle", "portions",
                      "healthy to plan", "Wall fresco", "restorable", "exchange tiles", "no wall tiles", "yours",
                      "unplayed", "income", "basic paint", "Portraits", "Requests", "Colours", "Scrolls", "Favour",
                      "Modules", "Other module items", "Audience tile", "to cover", "for the ill ones"]
    found = sorted(w for w in ENGLISH + module_english if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", out))
    assert not found, found
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80 and not any("…" in line for line in lines)
