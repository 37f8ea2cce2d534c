"""Tests, in folders by layer: ``rules/`` (the engine and its modules: every rule, worked
example, invariant, the public API and its boundary), ``i18n/``, ``bots/``, ``sim/``, ``cli/``,
``server/`` (the browser game, in a real browser too), ``envs/``, ``compiled/`` (the mypyc
build against the pure one, docs/compiled.md).  Helpers shared across layers
sit here: ``positions.py`` (positions built from the public JSON format), ``server_support.py``,
``bot_games.py`` (the recorded bot games); data in ``data/``.

This directory is on ``sys.path`` for the tests (pytest puts a root ``conftest.py``'s directory
there), so a test imports a helper as ``from positions import ...``.
"""

# CI's wall time: pytest-xdist hands the tests out in collection order, so a long file
# collected last keeps one core busy after the other has finished.  These files hold the
# longest tests (whole games in a browser, servers, property tests over whole games: a
# `--durations` run): they are collected first, each file's tests in their own order.
LONG_FIRST = ("server/test_web_phone.py", "server/test_server_soak.py", "rules/test_properties.py",
              "rules/test_view_secrecy.py", "server/test_web_modules.py", "server/test_server_ray.py",
              "server/test_server_cluster.py", "rules/test_events.py", "envs/test_envs_openspiel.py",
              "rules/test_modules_sweep.py", "rules/test_modules_combinations.py")


def pytest_collection_modifyitems(items):
    def rank(item) -> int:
        path = item.nodeid.split("::", 1)[0].removeprefix("tests/")
        return LONG_FIRST.index(path) if path in LONG_FIRST else len(LONG_FIRST)
    items.sort(key=rank)
