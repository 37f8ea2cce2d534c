"""Rulebook 'Set up for a 3 or 4 player game', 'Gaming material per player' and the
supplement's 'Rules for 2 players' (R13): what new_game() lays out."""
from __future__ import annotations

from collections import Counter

import pytest

import affresco

from positions import data, market_multiset  # noqa: E402

SEEDS = range(12)
ALL_MARKET_TILES = Counter(["YYY", "RRR", "BBB", "YY", "RR", "BB", "RY", "RB", "YB",
                            "RYB", "YBB", "RRY", "O", "G"])
REMOVED_FOR_3 = Counter(["YBB", "RRY", "RYB"])


def start_labels(g) -> list:
    return [f["track"] for f in data(g)["figures"]]


@pytest.mark.parametrize("seed", SEEDS)
def test_four_players_use_four_booths_13_tiles_shown_one_in_bag(seed):
    """Set-up 4 (market): 4 players use booths I-IV; 13 of the 14 tiles are shown and 1 is
    left in the bag."""
    g = affresco.new_game(4, seed=seed)
    d = data(g)
    assert len(d["market"]["booths"]) == 4
    assert sum(len(b) for b in d["market"]["booths"]) == 13
    assert len(d["market"]["bag"]) == 1
    assert market_multiset(g) == ALL_MARKET_TILES


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("seed", SEEDS)
def test_two_and_three_players_use_three_booths_nine_shown_two_in_bag(players, seed):
    """Set-up 4 (market, 3 players, blue box) and supplement 2 players / R13: only booths
    I-III; the 3 named tiles are removed, 11 tiles remain: 9 shown, 2 left in the bag."""
    g = affresco.new_game(players, seed=seed)
    d = data(g)
    assert len(d["market"]["booths"]) == 3
    assert sum(len(b) for b in d["market"]["booths"]) == 9
    assert len(d["market"]["bag"]) == 2
    assert market_multiset(g) == ALL_MARKET_TILES - REMOVED_FOR_3
    assert not set(market_multiset(g)) & set(REMOVED_FOR_3)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_start_spaces_one_per_player_and_random_by_seed(players):
    """Set-up, 'The starting spaces': one master painter per player is drawn from the bag and
    placed on S1, S2, ... in the order drawn; the order depends on the seed (chance)."""
    seen = set()
    for seed in range(30):
        labels = start_labels(affresco.new_game(players, seed=seed))
        seats = tuple(labels[:players])
        assert sorted(seats) == [f"S{k}" for k in range(1, players + 1)]
        seen.add(seats)
        # the same seed always gives the same layout
        assert start_labels(affresco.new_game(players, seed=seed)) == labels
    assert len(seen) > 1


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", SEEDS)
def test_fresco_has_25_tiles_an_11_in_the_centre_and_the_bishop_on_it(players, seed):
    """Set-up 5 and 9: a tile valued 11 in the centre space, the 24 others dealt face up on
    the other segments (values 3..11); the bishop takes his place in the centre."""
    d = data(affresco.new_game(players, seed=seed))
    tiles = [t for row in d["fresco"] for t in row]
    assert len(tiles) == 25 and None not in tiles
    assert d["fresco"][2][2].split(":")[0] == "11"
    assert all(3 <= int(t.split(":")[0]) <= 11 for t in tiles)
    assert d["bishop"] == "C3"


def test_fresco_layout_depends_on_the_seed():
    """Set-up 5: the remaining tiles are shuffled and dealt at random."""
    layouts = {str(data(affresco.new_game(3, seed=s))["fresco"]) for s in range(6)}
    assert len(layouts) > 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_players_material(players):
    """'Gaming material per player': 12 Thalers and 1 yellow, 1 red, 1 blue paint behind the
    large screen; action sheet side 1; set-up 8: the mood marker on the middle space, no
    neutral apprentice taken, none set aside (so 5 apprentices)."""
    g = affresco.new_game(players, seed=3)
    d = data(g)
    assert d["action_sheet_side"] == 1 and d["final_round"] is False
    for f in d["figures"][:players]:
        assert f["thalers"] == 12
        assert f["paints"] == "RYB"
        assert f["mood"] == 3
        assert f["neutral_apprentice"] is False and f["apprentice_set_aside"] is False
        assert f["tiles"] == [] and f["getup"] is None
    for seat in range(players):
        assert g.view(seat)["figures"][seat]["apprentices"] == 5


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(6))
def test_first_to_choose_get_up_is_the_player_on_s1(players, seed):
    """Phase 1 with the note 'S1 qualifying for the last position': the game starts in phase
    1, round 1, with the player on S1 choosing first."""
    g = affresco.new_game(players, seed=seed)
    d = data(g)
    assert d["phase"] == "getup" and d["round"] == 1
    s1 = [f["track"] for f in d["figures"]].index("S1")
    assert g.to_act == (s1,)
    assert g.scores() == [0] * (players + (1 if players == 2 else 0))


@pytest.mark.parametrize("seed", SEEDS)
def test_two_players_leonardo_on_s3_painter_in_centre(seed):
    """Supplement 'Rules for 2 players' / R13: 3-player board side; Leonardo is a third
    figure, his master painter on start space S3, another on the centre of the fresco with
    the bishop; the two players take S1 and S2."""
    g = affresco.new_game(2, seed=seed)
    d = data(g)
    assert g.names[2] == "Leonardo"
    assert len(d["figures"]) == 3
    assert d["figures"][2]["track"] == "S3"
    assert sorted(f["track"] for f in d["figures"][:2]) == ["S1", "S2"]
    assert d["leonardo"]["painter"] == "C3"
    assert d["bishop"] == "C3"
    # Leonardo has no money or paint (R13): the saved state gives him none
    assert "thalers" not in d["figures"][2] and "paints" not in d["figures"][2]


@pytest.mark.parametrize("seed", SEEDS)
def test_two_players_leonardo_controlled_first_by_first_chooser(seed):
    """R13: Leonardo's controller starts with the player who chooses get-up time first in
    round 1 (the player on S1)."""
    g = affresco.new_game(2, seed=seed)
    d = data(g)
    s1 = [f["track"] for f in d["figures"]].index("S1")
    assert d["leonardo"]["controller"] == s1


def test_named_players():
    """new_game accepts a list of names; seats are in that order."""
    g = affresco.new_game(["Ann", "Bob", "Cy"], seed=1)
    assert g.names == ("Ann", "Bob", "Cy")
    g2 = affresco.new_game(["Ann", "Bob"], seed=1)
    assert g2.names == ("Ann", "Bob", "Leonardo")
