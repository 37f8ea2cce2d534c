"""Components as data: the reference edition, provenance, and validation of user files."""
import copy
import json
import tomllib
from importlib import resources

import pytest

import affresco
from affresco.rules.components import build, load_components, reference


def raw():
    text = resources.files("affresco.rules").joinpath("data/base.toml").read_text()
    return tomllib.loads(text)


def entries(table):
    """Every table in the file that carries data (has a provenance)."""
    if isinstance(table, dict):
        if "provenance" in table:
            yield table
        for v in table.values():
            yield from entries(v)
    elif isinstance(table, list):
        for v in table:
            yield from entries(v)


def test_every_entry_has_a_provenance():
    found = list(entries(raw()))
    assert len(found) > 50
    for e in found:
        prov = e["provenance"]
        texts = prov.values() if isinstance(prov, dict) else [prov]
        assert all(t.startswith(("printed", "reconstructed")) for t in texts), e


def test_reference_edition_matches_components_md():
    c = reference()
    assert [(h.time, h.mood, h.price) for h in c.hostel] == [
        ("5:00", -3, 5), ("6:00", -2, 3), ("7:00", -1, 2), ("8:00", 0, 2), ("9:00", 1, 1)]
    assert c.mood_spaces == (1, 1, 0, 0, 0, -1, -1) and c.mood_start == 3
    assert sorted(t.paints for t in c.market_tiles) == sorted(
        "YYY RRR BBB YY RR BB RY RB YB RYB YBB RRY O G".split())  # names in paint order
    assert sorted(c.market_tiles[i].paints for i in c.removed_for_3) == sorted(["YBB", "RRY", "RYB"])
    assert c.booths[4] == (4, 3, 3, 3) and c.booths[3] == (3, 3, 3)
    assert len(c.fresco_tiles) == 25 and sum(t.vp == 11 for t in c.fresco_tiles) == 2
    assert sorted(t.vp for t in c.fresco_tiles) == sorted(
        [3, 3, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 9, 10, 10, 11, 11])
    # ten of each basic colour over the 14 market tiles (components.md)
    paints = "".join(t.paints for t in c.market_tiles)
    assert paints.count("R") == paints.count("Y") == paints.count("B") == 10


@pytest.mark.parametrize("path, value, needle", [
    (("market", "tiles"), "drop", "14"),
    (("fresco", "tiles"), "drop", "25"),
    (("hostel", 2, "price"), 3, "7:00"),
    (("hostel", 1, "price"), 4, "6:00"),
    (("hostel", 3, "mood"), 1, "8:00"),
    (("player_start", "thalers"), 10, "12"),
    (("market", "removed_for_3"), ["YBB", "RRY", "XX"], "removed_for_3"),
    (("market", "booths", "4"), [4, 4, 3, 3], "booths.4"),
    (("fresco", "tiles", 0, "vp"), 12, "vp"),
    (("fresco", "tiles", 0, "paints"), "QQ", "paints"),
    (("cathedral", "bishop_adjacent"), 1, "bishop_adjacent"),
    (("altar", "blend_vp"), 7, "blend_vp"),
    (("mood_display", "spaces"), [1, 0, 0, 0, 0, -1, -1], "mood_display"),
    (("hostel", 0, "provenance"), "guessed", "provenance"),
])
def test_component_file_breaking_a_constraint_is_refused(path, value, needle):
    data = raw()
    target = data
    for key in path[:-1]:
        target = target[key]
    if value == "drop":
        target[path[-1]] = target[path[-1]][:-1]
    else:
        target[path[-1]] = value
    with pytest.raises(affresco.ComponentError) as e:
        build(data)
    assert needle in str(e.value)


@pytest.mark.parametrize("path, value, needle", [
    (("blending", 1), 5, "blending[1]: 5: expected a table"),
    (("hostel", 2), "7:00", "hostel[2]: '7:00': expected a table"),
    (("market", "booths"), 4, "market.booths: 4: a table"),
    (("market", "tiles"), 5, "component file: file: malformed (TypeError: 'int' object is not iterable)"),
    (("market",), [], "market: []: expected a table"),
])
def test_a_value_of_the_wrong_shape_is_a_component_error_naming_it(path, value, needle):
    """An entry that is no table (an int where a blend was), or a section of the wrong type,
    raised AttributeError from inside the checks."""
    data = raw()
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(affresco.ComponentError) as e:
        build(data)
    assert needle in str(e.value)


def _module_table(name):
    return tomllib.loads(resources.files("affresco.rules").joinpath(f"data/{name}.toml").read_text())


@pytest.mark.parametrize("module, change", [
    ("requests", lambda t: t["stacks"][1].__setitem__("paint", ["O"])),
    ("special_colours", lambda t: t.__setitem__("tiles", "KN")),
    ("bells", lambda t: t["thresholds"].__setitem__(0, 7)),
    ("portraits", lambda t: t["cards"][2].__setitem__("thalers", "4")),
    ("portraits", lambda t: t["cards"][2].__setitem__("thalers", True)),
    ("portraits", lambda t: t["cards"][14].__setitem__("basic_paints", [2])),
    ("portraits", lambda t: next(c for c in t["cards"] if "paint" in c).__setitem__("paint", "RY")),
    ("portraits", lambda t: t.__setitem__("display", [2])),
    ("portraits", lambda t: t["cards"][8].__setitem__("id", "Muse")),
    ("special_colours", lambda t: t.__setitem__("remove_base_tiles", [7])),
    ("special_colours", lambda t: t.__setitem__("remove_base_tiles", 6)),
    ("special_colours", lambda t: t.__setitem__("centre_value", 23)),
    ("special_colours", lambda t: t["altar"]["basic"].__setitem__("K", {})),
    ("special_colours", lambda t: t["fresco_substitute_bonus"].__setitem__("N", "5")),
    ("requests", lambda t: t.__setitem__("income_thalers", "1")),
])
def test_a_module_table_of_the_wrong_shape_is_a_component_error_naming_the_module(module, change):
    """A module's table in a user file is checked when a game with the module is set up; a
    value of the wrong shape raised TypeError/AttributeError there, or (a portrait's Thalers as
    text, its paints as a list) was accepted and broke the game when the card was painted; a
    card id 'Muse' made records that never replay (notation reads 'portrait muse'); 6 base
    tiles removed for 7 special ones made a fresco of 26 segments."""
    data = raw()
    data[module] = _module_table(module)
    change(data[module])
    comp = load_components(data)
    with pytest.raises(affresco.ComponentError, match=module):
        affresco.new_game(3, [module], components=comp)


def test_two_elevens_are_required():
    data = raw()
    data["fresco"]["tiles"][-1]["vp"] = 10
    with pytest.raises(affresco.ComponentError, match="two tiles must be valued 11"):
        build(data)


def test_english_hostel_price_is_accepted_as_a_printed_value(tmp_path):
    """N1: the English text's table prints 5 at 6:00, the French 3: both are printed."""
    data = raw()
    data["hostel"][1]["price"] = 5
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data))
    g = affresco.new_game(3, seed=1, components=str(path))
    assert g.state.comp.hostel[1].price == 5
    assert affresco.replay(g.record()).state.comp.hostel[1].price == 5


def test_user_file_changes_the_game(tmp_path):
    data = raw()
    data["fresco"]["tiles"][0]["paints"] = "RRR"
    path = tmp_path / "mine.toml"
    import tomllib as _  # noqa: F401  (TOML writing is not in the stdlib: write JSON text)
    path.write_text(json.dumps(data))
    g = affresco.new_game(4, seed=3, components=str(path))
    painted = [t.paints for t in g.state.fresco if t is not None]
    assert "RRR" in painted and "YY" not in painted


def test_unreadable_component_files(tmp_path):
    with pytest.raises(affresco.ComponentError, match="cannot read"):
        load_components(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("this is = = not toml")
    with pytest.raises(affresco.ComponentError, match="not valid TOML or JSON"):
        load_components(bad)
    with pytest.raises(affresco.ComponentError, match="section missing"):
        build({"player_start": {}})


def test_a_component_file_not_in_utf8_is_refused_with_the_file_named(tmp_path):
    latin1 = tmp_path / "latin1.toml"
    latin1.write_bytes("# Süßelbeck\n".encode("latin-1"))
    with pytest.raises(affresco.ComponentError, match="latin1.toml: cannot read it as UTF-8"):
        load_components(latin1)


@pytest.mark.parametrize("text", ['{"a": ' + "[" * 100_000 + "]" * 100_000 + "}", "a = " + "[" * 100_000 + "]" * 100_000])
def test_a_too_deeply_nested_component_file_is_refused(tmp_path, text):
    deep = tmp_path / "deep.toml"
    deep.write_text(text)
    with pytest.raises(affresco.ComponentError, match="not valid TOML or JSON"):
        load_components(deep)


def test_reference_is_loaded_once_and_shared_by_games():
    a, b = affresco.new_game(2, seed=1), affresco.new_game(4, seed=2)
    assert a.state.comp is b.state.comp is reference()
    assert copy.deepcopy(raw()) == raw()


def test_an_edition_pickles_as_itself_and_the_reference_edition_as_the_process_own():
    """A game sent to another process keeps its edition: a user's table is built again there
    (validated, same digest), the reference edition is that process's shared one."""
    import pickle
    data = raw()
    data["hostel"][1]["price"] = 5
    mine = load_components(data)
    again = pickle.loads(pickle.dumps(mine))
    assert again is not mine and again.digest == mine.digest and again.hostel[1].price == 5
    assert again.hostel == mine.hostel and again.fresco_tiles == mine.fresco_tiles
    assert pickle.loads(pickle.dumps(reference())) is reference()


def test_components_named_reference_are_the_reference_edition_as_saved_states_name_it(tmp_path, monkeypatch):
    """Saved states and records write the reference edition as "reference"; new_game(components=
    "reference") read a file of that name instead (ComponentError, or a stranger's file)."""
    monkeypatch.chdir(tmp_path)      # no file named 'reference' here
    assert load_components("reference") is reference()
    g = affresco.new_game(2, components="reference", seed=1)
    assert json.loads(g.to_json())["components"] == "reference"
    assert g.to_json() == affresco.new_game(2, seed=1).to_json()
