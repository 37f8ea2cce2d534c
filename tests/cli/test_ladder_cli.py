"""``affresco ladder``: one command plays the round robin, shows the ratings and writes the
table and the plot into the docs (issue #16)."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from affresco.cli import app

runner = CliRunner()


@pytest.mark.slow
def test_the_ladder_command_plays_rates_and_writes_the_docs_section_and_plot(tmp_path):
    out, doc, png = tmp_path / "ladder.jsonl", tmp_path / "bots.md", tmp_path / "img" / "ladder.png"
    args = ["ladder", "--bots", "random,greedy,search:simulations=2", "--formats", "2", "--rounds", "1",
            "--seed", "4", "--out", str(out), "--docs", str(doc), "--plot", str(png), "--note", "tiny test run"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "3 game(s) played" in result.output and "search:simulations=2" in result.output
    # not a terminal (a log file): a line per finished game
    assert all(f"[{i}/3] game " in result.output for i in (1, 2, 3)) and "2 players: 1. " in result.output
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert lines[0]["format"] == "affresco-ladder/1" and len(lines) == 4
    text = doc.read_text()
    assert "<!-- ladder:begin -->" in text and "tiny test run" in text and "![ladder ratings](img/ladder.png)" in text
    assert png.read_bytes()[:4] == b"\x89PNG"
    again = runner.invoke(app, args)  # resumed: nothing left to play
    assert again.exit_code == 0 and "0 game(s) played" in again.output


def test_the_ladder_command_refuses_a_bad_entrant_before_playing(tmp_path):
    result = runner.invoke(app, ["ladder", "--bots", "random,nobody", "--out", str(tmp_path / "l.jsonl")])
    assert result.exit_code == 1 and "unknown bot" in result.output
    assert not (tmp_path / "l.jsonl").exists()


def test_a_ladder_takes_rule_options_and_shows_no_nan_for_a_single_game(tmp_path):
    """--option as in play and tournament (the house rule max_rounds=N here; the ladder had no
    --option); one game between two bots leaves no bootstrap interval: '-', not '+nan .. +nan'."""
    out = tmp_path / "l.jsonl"
    result = runner.invoke(app, ["ladder", "--bots", "random,greedy", "--formats", "2", "--rounds", "1",
                                 "-o", "max_rounds=2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text().splitlines()[0])["ladder"]["options"] == {"max_rounds": 2}
    assert "nan" not in result.output and " - " in result.output
