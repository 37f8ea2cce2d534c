"""Tests, in folders by layer: ``rules/`` (the engine and its modules: every rule, worked
example, invariant, the public API and its boundary), ``i18n/``, ``bots/``, ``sim/``, ``cli/``,
``server/`` (the browser game, in a real browser too), ``envs/``, ``compiled/`` (the mypyc
build against the pure one, docs/compiled.md).  Helpers shared across layers
sit here: ``positions.py`` (positions built from the public JSON format), ``server_support.py``,
``bot_games.py`` (the recorded bot games); data in ``data/``.

This directory is on ``sys.path`` for the tests (pytest puts a root ``conftest.py``'s directory
there), so a test imports a helper as ``from positions import ...``.
"""
from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests marked ``slow`` (several seconds: whole games, browsers, servers) run first,
    in their files' order, then the others.  CI runs ``pytest -n auto --dist worksteal``
    (.ci/run): each worker starts on half of this order and an idle worker takes half of the
    other's queue, so the long tests start early and the end of the run is short tests on both
    cores (with xdist's default ``--dist load`` a worker could keep a queue of browser and
    server tests to itself while the other idled: 10 minutes of one idle core in a loaded run)."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
