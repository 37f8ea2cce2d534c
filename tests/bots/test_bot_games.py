"""The bots play the recorded games move for move (tests/bot_games.py wrote them on the code
before the bots were reorganised, issue #11): a refactoring that changes one decision of
RandomBot, HeuristicBot (as any seat or as Leonardo's controller) or SearchBot with a fixed
simulation count fails here, naming the game and the first move that differs."""
from __future__ import annotations

import json

import pytest

import affresco
from affresco.bots import ask

from bot_games import DATA, bots_for

GAMES = json.loads(DATA.read_text())["games"]


def _id(g: dict) -> str:
    return f"{g['players']}p-{'+'.join(g['modules']) or 'base'}-{'-'.join(b.split(':')[0] for b in g['bots'])}"


@pytest.mark.parametrize("rec", GAMES, ids=[_id(g) for g in GAMES])
def test_the_same_bots_make_the_same_moves(rec):
    game = affresco.new_game(rec["players"], rec["modules"], seed=rec["seed"])
    bots = bots_for(rec)
    for i, (seat, notation) in enumerate(rec["actions"]):
        assert seat in game.to_act, f"move {i}: seat {seat} is not to act (the engine changed?)"
        chosen = ask(bots[seat], game, seat)
        assert str(chosen) == notation, (f"move {i} (round {game.round}, {game.phase}): {rec['bots'][seat]} "
                                         f"in seat {seat} chose {chosen} where it chose {notation}")
        game.apply(seat, notation)
    assert game.is_over and game.scores() == rec["scores"]
