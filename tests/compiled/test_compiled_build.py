"""Issue #16: the optional compiled build (mypyc, docs/compiled.md).

* "the same games move for move in both builds": seeded games with every bot (random,
  heuristic, search with a fixed number of simulations), 2-4 players, the base game and module
  sets, played by a compiled install and by the same install forced pure (``AFFRESCO_PURE=1``),
  give identical records and scores;
* "a flag forces the pure build": ``AFFRESCO_PURE=1`` loads no compiled module;
* "a pure-Python fallback when no compiler is present": ``setup.py`` builds pure, with a
  warning, without a compiler, for an editable install, or when told to.

The compiled install is made by ``.ci/run`` (``AFFRESCO_COMPILE=1 pip install --no-deps
--target DIR .``) and named by ``AFFRESCO_TEST_COMPILED=DIR``; without it the comparison is
skipped on a developer's machine and fails in CI.
"""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from server_support import need

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"

# Every bot, 2-4 players, the base game, the supplement's modules and the newer ones; a search
# bot with a fixed simulation count is deterministic for its seed.
SEARCH = "search:simulations=3"
GAMES = [
    {"players": 2, "modules": [], "seed": 11, "bots": ["heuristic", "random"]},
    {"players": 3, "modules": [], "seed": 12, "bots": ["random", "heuristic", SEARCH]},
    {"players": 4, "modules": [], "seed": 13, "bots": ["heuristic", "heuristic", "random", "heuristic"]},
    {"players": 2, "modules": ["portraits", "requests", "special_colours", "scrolls", "bishops_favour"],
     "seed": 14, "bots": [SEARCH, "heuristic"]},
    {"players": 3, "modules": ["scrolls", "portraits"], "seed": 15, "bots": ["heuristic", "random", "heuristic"]},
    {"players": 4, "modules": ["special_colours", "bishops_favour", "requests"], "seed": 16,
     "bots": ["random", "heuristic", "heuristic", "heuristic"]},
    {"players": 2, "modules": ["bells"], "seed": 17, "bots": ["heuristic", SEARCH]},
    {"players": 3, "modules": ["wall_fresco"], "seed": 18, "bots": ["heuristic", "heuristic", "random"]},
    {"players": 2, "modules": ["medico"], "seed": 19, "bots": ["random", "heuristic"]},
    {"players": 4, "modules": ["portraits", "requests", "special_colours", "scrolls", "bishops_favour",
                               "bells", "wall_fresco", "medico"], "seed": 20,
     "bots": ["heuristic", "random", "heuristic", "heuristic"]},
]

# Run in a fresh interpreter on the compiled install: the build it runs, then each game's record.
PLAY = """
import json, sys
import affresco
from affresco.build import compiled_modules
from affresco.bots import make_bot, play_game
out = {"compiled": affresco.COMPILED, "modules": compiled_modules(), "games": []}
for i, cfg in enumerate(json.loads(sys.argv[1])):
    g = affresco.new_game(cfg["players"], cfg["modules"], seed=cfg["seed"])
    play_game(g, [make_bot(b, 100 * i + k) for k, b in enumerate(cfg["bots"])])
    out["games"].append({"record": g.record(), "scores": g.scores()})
out["modules"] = compiled_modules()
print(json.dumps(out))
"""


def compiled_install() -> Path:
    path = os.environ.get("AFFRESCO_TEST_COMPILED")
    if not path:
        need("a compiled install (AFFRESCO_TEST_COMPILED=DIR after "
             "AFFRESCO_COMPILE=1 pip install --no-deps --target DIR .)")
    return Path(path)


def run_build(pure: bool, code: str, *args: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(compiled_install()), PYTHONHASHSEED="0")
    env.pop("AFFRESCO_PURE", None)
    if pure:
        env["AFFRESCO_PURE"] = "1"
    out = subprocess.run([sys.executable, "-c", code, *args], env=env, cwd=ROOT, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_the_compiled_and_pure_builds_play_the_same_games_move_for_move():
    compiled = run_build(False, PLAY, json.dumps(GAMES))
    pure = run_build(True, PLAY, json.dumps(GAMES))
    assert compiled["compiled"] and "affresco.rules.flow" in compiled["modules"], compiled["modules"]
    assert not pure["compiled"] and pure["modules"] == []
    for cfg, c, p in zip(GAMES, compiled["games"], pure["games"], strict=True):
        assert c["record"]["actions"], cfg
        assert c["record"] == p["record"], f"the builds' records differ: {cfg}"
        assert c["scores"] == p["scores"], cfg


REFUSALS = """
import json, affresco
g = affresco.new_game(3, ["bells"], seed=1)
while g.phase != "plan":
    g.apply(g.to_act[0], g.legal_actions(g.to_act[0])[0])
calls = {
    "legal_actions(1.0)": lambda: g.legal_actions(1.0),
    "plan_choices('0')": lambda: g.plan_choices("0"),
    "plan_as_choices(None)": lambda: g.plan_as_choices(None),
    "from_view(seat '0')": lambda: affresco.Game.from_view(g.view(0), "0", {}),
    "from_view(seed 1.5)": lambda: affresco.Game.from_view(g.view(0), 0, {}, seed=1.5),
    "observation_modules(seat '0')": lambda: g.observation_modules(g.view(0), "0"),
    "replay(upto '3')": lambda: affresco.replay(g.record(), upto="3"),
    "new_game(modules [['bells']])": lambda: affresco.new_game(3, [["bells"]]),
}
out = {}
for name, call in calls.items():
    try:
        out[name] = "returned " + repr(call())
    except affresco.FrescoError as e:
        out[name] = "FrescoError"
    except Exception as e:
        out[name] = type(e).__name__ + ": " + str(e)
print(json.dumps({"compiled": affresco.COMPILED, "out": out}))
"""


def test_arguments_the_api_checks_itself_are_refused_alike_in_both_builds():
    """A parameter the method checks itself must be typed Any (rules/game.py): mypyc checks a
    typed one at the call, so `legal_actions(1.0)` or `replay(record, upto='3')` raised
    TypeError in the compiled build where the pure one gives [] or a StateError."""
    compiled, pure = run_build(False, REFUSALS), run_build(True, REFUSALS)
    assert compiled["compiled"] and not pure["compiled"]
    assert compiled["out"] == pure["out"]
    assert all(v in ("FrescoError", "returned []") for v in pure["out"].values()), pure["out"]


def test_the_compiled_install_reports_its_build_and_AFFRESCO_PURE_forces_the_pure_one():
    code = ("import json, affresco; from affresco.cli.app import app; from affresco.build import describe; "
            "print(json.dumps({'compiled': affresco.COMPILED, 'describe': describe()}))")
    compiled, pure = run_build(False, code), run_build(True, code)
    assert compiled["compiled"] and compiled["describe"].startswith("compiled with mypyc")
    assert not pure["compiled"] and pure["describe"] == "pure Python"


def _setup_module():
    """The repository's setup.py as a module (its setup() call runs only as a script)."""
    spec = importlib.util.spec_from_file_location("affresco_setup", ROOT / "setup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("env, argv, warning", [
    ({}, ["setup.py", "bdist_wheel"], None),
    ({"AFFRESCO_COMPILE": "1", "AFFRESCO_PURE": "1"}, ["setup.py", "bdist_wheel"], None),
    ({"AFFRESCO_COMPILE": "1", "CC": "/nonexistent/cc"}, ["setup.py", "bdist_wheel"], "no C compiler"),
    ({"AFFRESCO_COMPILE": "1"}, ["setup.py", "editable_wheel"], "editable install stays pure"),
], ids=["default", "AFFRESCO_PURE", "no-compiler", "editable"])
def test_setup_builds_pure_by_default_when_forced_without_a_compiler_and_for_editable_installs(
        monkeypatch, env, argv, warning):
    for key in ("AFFRESCO_COMPILE", "AFFRESCO_PURE", "CC"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setattr(sys, "argv", argv)
    setup = _setup_module()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert setup._ext_modules() == []
    messages = [str(w.message) for w in caught]
    if warning is None:
        assert messages == []
    else:
        assert any(warning in m for m in messages), messages


def test_setup_compiles_the_modules_listed_in_affresco_build():
    from affresco.build import COMPILED_MODULES
    assert _setup_module()._compiled_modules() == list(COMPILED_MODULES)
    for name in COMPILED_MODULES:
        assert (ROOT / "src" / Path(*name.split("."))).with_suffix(".py").is_file(), name
